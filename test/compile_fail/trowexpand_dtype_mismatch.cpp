// expect: TCOLEXPAND*/TROWEXPAND*: dst, src0 and src1 must have the same DType
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> dst; Tile<TileType::Vec, half, 16, 1, BLayout::ColMajor> src; TROWEXPAND(dst, src); }
