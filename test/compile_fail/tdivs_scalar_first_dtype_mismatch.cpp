// expect: TADDS/TSUBS/TMULS/TDIVS/TMAXS/TMINS/TLRELU: dst and src must have the same DType
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, half, 16, 16> dst; Tile<TileType::Vec, float, 16, 16> src; TDIVS(dst, half(1.0f), src); }
