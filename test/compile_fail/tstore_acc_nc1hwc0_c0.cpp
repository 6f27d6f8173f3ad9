// expect: TSTORE Acc -> NC1HWC0 GM: dim 4 (C0) must be static: 8 or 16 for float, 16 for int32_t, 32 bytes' elements for the others
#include <pto/pto-inst.hpp>
using namespace pto;
void f(half* p) {
  TileAcc<float, 32, 32> c;
  GlobalTensor<half, Shape<1, 4, 4, 8, 8>, pto::Stride<1024, 256, 64, 8, 1>, Layout::NC1HWC0> g(p);  // half's C0 is 16
  TSTORE(g, c);
}
