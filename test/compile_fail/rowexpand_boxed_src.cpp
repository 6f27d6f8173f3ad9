// expect: TROWEXPAND*: src0 and src1 must be NoneBox tiles
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, half, 16, 16> dst; Tile<TileType::Vec, half, 16, 16, BLayout::RowMajor, 16, 16, SLayout::RowMajor> src0; Tile<TileType::Vec, half, 16, 1, BLayout::ColMajor> src1; TROWEXPANDMAX(dst, src0, src1); }
