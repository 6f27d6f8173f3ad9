// expect: TCOLSUM: tmp must have src's DType
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> s; Tile<TileType::Vec, half, 16, 16> t; Tile<TileType::Vec, float, 1, 16> d; TCOLSUM(d, s, t, true); }
