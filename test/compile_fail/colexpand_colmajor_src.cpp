// expect: TCOLEXPAND*: src0 and src1 must be RowMajor NoneBox tiles
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> dst, src0; Tile<TileType::Vec, float, 8, 16, BLayout::ColMajor> src1; TCOLEXPANDDIV(dst, src0, src1); }
