// expect: TEXP: dst and src must be RowMajor NoneBox tiles
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, half, 16, 16> dst; Tile<TileType::Vec, half, 16, 16, BLayout::ColMajor> src; TEXP(dst, src); }
