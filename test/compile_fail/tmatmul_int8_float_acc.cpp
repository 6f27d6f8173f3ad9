// expect: TMATMUL / TGEMV: the result is int32_t for int8_t inputs and float for the floating-point ones
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  TileAcc<float, 16, 16> c;  // int8 products accumulate in int32
  TileLeft<std::int8_t, 16, 32> a;
  TileRight<std::int8_t, 32, 16> b;
  TMATMUL(c, a, b);
}
