// expect: TLOAD/TSTORE of the 4-bit types (float4_e2m1x2_t, float4_e1m2x2_t, int4b_t): TLOAD into a Mat tile
#include <pto/pto-inst.hpp>
using namespace pto;
void f(float4_e2m1x2_t* p) {
  Tile<TileType::Vec, float4_e2m1x2_t, 16, 64> t;
  GlobalTensor<float4_e2m1x2_t, Shape<1, 1, 1, 16, 64>, pto::Stride<1, 1, 1, 64, 1>> g(p);
  TLOAD(t, g);
}
