// expect: TCOLEXPAND*/TROWEXPAND*: every operand must be a Vec tile
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> dst, src0; Tile<TileType::Mat, float, 16, 1, BLayout::ColMajor> src1; TROWEXPANDADD(dst, src0, src1); }
