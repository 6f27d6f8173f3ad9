// expect: TSUBVIEW: dst and src must have elements of one size
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 8, 16> s; Tile<TileType::Vec, half, 8, 16> d; TSUBVIEW(d, s, 0, 0); }
