// expect: TREM: every operand must be a RowMajor NoneBox tile
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, float, 16, 16, BLayout::ColMajor> d, a, b;
  Tile<TileType::Vec, float, 1, 64> t;
  TREM(d, a, b, t);
}
