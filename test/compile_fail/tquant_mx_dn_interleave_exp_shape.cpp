// expect: TQUANT: the DN interleaved exp tile must be [Src::Rows / 64, align32(2 * Src::Cols)]
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, float, 128, 64> s;
  Tile<TileType::Vec, std::int8_t, 128, 64> d;
  Tile<TileType::Vec, std::uint8_t, 4, 64> e;  // the linear mode's shape, not [2, 128]
  Tile<TileType::Vec, float, 4, 64> m, k;
  TQUANT<0, MxQuantAlg::OcpMxFp8E4M3, true>(d, s, &e, &m, &k);
}
