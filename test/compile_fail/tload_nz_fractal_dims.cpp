// expect: TLOAD/TSTORE: an NZ GlobalTensor's dims 3 and 4 must be static 16 and 32 / sizeof(T)
#include <pto/pto-inst.hpp>
using namespace pto;
void f(float* p) {
  GlobalTensor<float, Shape<1, 2, 1, 16, 16>, pto::Stride<512, 256, 256, 16, 1>, Layout::NZ> g(p);
  Tile<TileType::Vec, float, 16, 32, BLayout::ColMajor, -1, -1, SLayout::RowMajor, 512> t;
  TLOAD(t, g);
}
