// expect: TSTORE Acc -> GM: an ND or NZ GlobalTensor, or a convolution output (A2A3 NC1HWC0 / NDC1HWC0, A5 NHWC / NCHW / NCDHW)
#include <pto/pto-inst.hpp>
using namespace pto;
void f(float* p) {
  TileAcc<float, 16, 16> c;
  GlobalTensor<float, Shape<1, 1, 1, 16, 16>, pto::Stride<1, 1, 1, 1, 16>, Layout::DN> g(p);
  TSTORE(g, c);
}
