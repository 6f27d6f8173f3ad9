// expect: TQUANT: the MX forms (MXFP8, MXFP4_E2M1
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, float, 16, 64> s;
  Tile<TileType::Vec, std::int8_t, 16, 64> d;
  Tile<TileType::Vec, std::uint8_t, 1, 32> e;
  Tile<TileType::Vec, float, 1, 32> m, k;
  TQUANT<QuantType::MXFP8>(d, s, &e, &m, &k);
}
