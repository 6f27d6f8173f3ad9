// expect: MGATHER / MSCATTER: the table's element type must be the tile's
#include <pto/pto-inst.hpp>
using namespace pto;
void f(int* p) {
  GlobalTensor<int, Shape<1, 1, 1, 8, 8>, pto::Stride<1, 1, 1, 8, 1>> t(p);
  Tile<TileType::Vec, float, 8, 8> s;
  Tile<TileType::Vec, std::int32_t, 1, 8> x;
  MSCATTER<Coalesce::Row>(t, s, x);
}
