// expect: TEXP: DType must be half or float
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, bfloat16_t, 16, 16> dst, src; TEXP(dst, src); }
