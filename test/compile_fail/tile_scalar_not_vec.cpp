// expect: TADDS/TSUBS/TMULS/TDIVS/TMAXS/TMINS/TLRELU: dst and src must be Vec tiles
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> dst; Tile<TileType::Mat, float, 16, 16> src; TSUBS(dst, src, 1.0f); }
