// expect: TRESHAPE: dst and src must have the same byte size
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 8, 16> s; Tile<TileType::Vec, half, 8, 16> d; TRESHAPE(d, s); }
