// expect: TADDS/TSUBS/TMULS/TDIVS/TMAXS/TMINS/TLRELU: dst and src must share one NoneBox layout
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { using B = Tile<TileType::Vec, half, 16, 16, BLayout::RowMajor, 16, 16, SLayout::RowMajor>; B dst, src; TMULS(dst, src, half(2.0f)); }
