// expect: MGATHER / MSCATTER: an NZ table's static shape dimensions 3 and 4 must be 16 and C0 = 32 / sizeof(T)
#include <pto/pto-inst.hpp>
using namespace pto;
void f(half* p) {
  GlobalTensor<half, Shape<1, 2, 1, 16, 8>, pto::Stride<256, 128, 128, 8, 1>, Layout::NZ> t(p);  // half: C0 is 16
  Tile<TileType::Vec, half, 16, 32, BLayout::ColMajor, -1, -1, SLayout::RowMajor, 512> s(16, 16);
  Tile<TileType::Vec, std::int32_t, 1, 16> x;
  MSCATTER<Coalesce::Row>(t, s, x);
}
