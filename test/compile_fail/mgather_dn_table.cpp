// expect: MGATHER / MSCATTER: the table must be an ND or (A2A3) NZ GlobalTensor
#include <pto/pto-inst.hpp>
using namespace pto;
void f(float* p) {
  GlobalTensor<float, Shape<1, 1, 1, 8, 8>, pto::Stride<1, 1, 1, 1, 8>, Layout::DN> t(p);
  Tile<TileType::Vec, float, 8, 8> d;
  Tile<TileType::Vec, std::int32_t, 1, 8> x;
  MGATHER<Coalesce::Row>(d, t, x);
}
