// expect: TCOLEXPAND: src must be a RowMajor NoneBox tile
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> dst; Tile<TileType::Vec, float, 8, 16, BLayout::ColMajor> src; TCOLEXPAND(dst, src); }
