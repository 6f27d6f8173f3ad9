// expect: TMOV (Vec -> Vec): a boxed source is rejected
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, float, 16, 16, BLayout::ColMajor, -1, -1, SLayout::RowMajor, 512> s;
  Tile<TileType::Vec, float, 16, 16> d;
  TMOV(d, s);
}
