// expect: TFILLPAD_EXPAND: dst's static Rows and Cols must be at least src's
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, float, 8, 16> s;
  Tile<TileType::Vec, float, 16, 8, BLayout::RowMajor, 16, 8, SLayout::NoneBox, 512, PadValue::Zero> d;
  TFILLPAD_EXPAND(d, s);
}
