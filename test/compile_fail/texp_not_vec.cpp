// expect: TEXP: dst and src must be Vec tiles
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, half, 16, 16> dst; Tile<TileType::Mat, half, 16, 16> src; TEXP(dst, src); }
