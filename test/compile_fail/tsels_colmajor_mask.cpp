// expect: TSEL/TSELS: dst, mask and the sources must be RowMajor NoneBox tiles
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, float, 16, 16> d, a;
  Tile<TileType::Vec, std::uint8_t, 32, 2, BLayout::ColMajor> m;
  Tile<TileType::Vec, std::uint8_t, 1, 32> t;
  TSELS(d, m, a, t, 1.0f);
}
