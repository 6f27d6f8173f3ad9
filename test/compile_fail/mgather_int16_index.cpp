// expect: MGATHER / MSCATTER: idx must be an int32_t or uint32_t tile
#include <pto/pto-inst.hpp>
using namespace pto;
void f(float* p) {
  GlobalTensor<float, Shape<1, 1, 1, 8, 8>, pto::Stride<1, 1, 1, 8, 1>> t(p);
  Tile<TileType::Vec, float, 8, 8> d;
  Tile<TileType::Vec, std::int16_t, 1, 16> x;
  MGATHER<Coalesce::Row>(d, t, x);
}
