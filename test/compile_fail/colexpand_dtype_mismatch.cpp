// expect: TCOLEXPAND*/TROWEXPAND*: dst, src0 and src1 must have the same DType
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> dst, src0; Tile<TileType::Vec, half, 1, 16> src1; TCOLEXPANDADD(dst, src0, src1); }
