// expect: TQUANT: MXFP4_E2M1 src must be bfloat16_t or half
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, float, 16, 64> s;
  Tile<TileType::Vec, float4_e2m1x2_t, 16, 32> d;
  Tile<TileType::Vec, std::uint8_t, 1, 32> e;
  Tile<TileType::Vec, float, 1, 32> m, k;
  TQUANT<QuantType::MXFP4_E2M1>(d, s, &e, &m, &k);
}
