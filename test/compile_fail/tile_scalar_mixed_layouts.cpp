// expect: TADDS/TSUBS/TMULS/TDIVS/TMAXS/TMINS/TLRELU: dst and src must share one NoneBox layout (both RowMajor or both ColMajor)
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> dst; Tile<TileType::Vec, float, 16, 16, BLayout::ColMajor> src; TMAXS(dst, src, 1.0f); }
