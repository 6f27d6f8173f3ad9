// expect: MGATHER / MSCATTER: an ND table pairs with an ND tile (SLayout::NoneBox), an NZ table (A2A3) with an NZ tile
#include <pto/pto-inst.hpp>
using namespace pto;
void f(float* p) {
  GlobalTensor<float, Shape<1, 2, 1, 16, 8>, pto::Stride<256, 128, 128, 8, 1>, Layout::NZ> t(p);
  Tile<TileType::Vec, float, 16, 16> d;  // ND: an NZ table needs an NZ tile
  Tile<TileType::Vec, std::int32_t, 1, 16> x;
  MGATHER<Coalesce::Row>(d, t, x);
}
