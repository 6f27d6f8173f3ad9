// expect: Tile: Element must be half, bfloat16_t, float or an 8/16/32/64-bit integer type
#include <pto/pto-inst.hpp>
using namespace pto;
Tile<TileType::Vec, double, 16, 16> t;
