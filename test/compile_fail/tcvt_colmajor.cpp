// expect: TCVT: dst and src must be RowMajor NoneBox tiles
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, half, 16, 16, BLayout::ColMajor> d;
  Tile<TileType::Vec, float, 16, 16, BLayout::ColMajor> s;
  TCVT(d, s, RoundMode::CAST_RINT);
}
