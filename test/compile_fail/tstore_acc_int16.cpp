// expect: TSTORE Acc -> GM: int32_t -> int16_t is the fixpipe's shift mode into L1 only
#include <pto/pto-inst.hpp>
using namespace pto;
void f(std::int16_t* p) {
  TileAcc<std::int32_t, 16, 16> c;
  GlobalTensor<std::int16_t, Shape<1, 1, 1, 16, 16>, pto::Stride<1, 1, 1, 16, 1>> g(p);
  TSTORE(g, c, std::uint64_t(1) << 32);
}
