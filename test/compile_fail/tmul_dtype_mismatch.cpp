// expect: dst, src0 and src1 must have the same DType
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> d, a; Tile<TileType::Vec, half, 16, 16> b; TMUL(d, a, b); }
