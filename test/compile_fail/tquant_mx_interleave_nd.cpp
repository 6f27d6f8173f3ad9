// expect: TQUANT: the interleaved exponent store is the DN grouping's (grp_axis 0) only
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, float, 64, 64> s;
  Tile<TileType::Vec, std::int8_t, 64, 64> d;
  Tile<TileType::Vec, std::uint8_t, 1, 128> e;
  Tile<TileType::Vec, float, 1, 128> m, k;
  TQUANT<1, MxQuantAlg::OcpMxFp8E4M3, true>(d, s, &e, &m, &k);
}
