// expect: TQUANT: the DN grouping (grp_axis 0, groups of 32 rows) is not modelled yet
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, float, 32, 64> s;
  Tile<TileType::Vec, std::int8_t, 32, 64> d;
  Tile<TileType::Vec, std::uint8_t, 1, 64> e;
  Tile<TileType::Vec, float, 1, 64> m, k;
  TQUANT<0, MxQuantAlg::OcpMxFp8E4M3>(d, s, &e, &m, &k);
}
