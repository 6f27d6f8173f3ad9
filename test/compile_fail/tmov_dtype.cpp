// expect: TMOV (Vec -> Vec): dst and src must have elements of one size
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> a; Tile<TileType::Vec, std::int16_t, 16, 32> b; TMOV(a, b); }
