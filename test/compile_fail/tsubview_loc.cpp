// expect: TSUBVIEW: dst and src must have the same TileType
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> s; Tile<TileType::Mat, float, 16, 16> d; TSUBVIEW(d, s, 0, 0); }
