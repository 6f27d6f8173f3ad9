// expect: TMATMUL_MX / TGEMV_MX: a and b are both 8-bit floats
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  TileLeft<float8_e4m3_t, 16, 64> a;
  TileRight<float4_e2m1x2_t, 64, 64> b;
  TileLeftScale<float8_e8m0_t, 16, 2> as;
  TileRightScale<float8_e8m0_t, 2, 64> bs;
  TileAcc<float, 16, 64> c;
  TMATMUL_MX(c, a, as, b, bs);
}
