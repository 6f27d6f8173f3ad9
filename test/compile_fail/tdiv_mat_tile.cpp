// expect: dst, src0 and src1 must be Vec tiles
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Mat, float, 16, 16> d, a, b; TDIV(d, a, b); }
