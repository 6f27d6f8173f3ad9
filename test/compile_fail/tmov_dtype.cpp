// expect: TMOV (Vec -> Vec): dst and src must have the same DType
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> a; Tile<TileType::Vec, std::int32_t, 16, 16> b; TMOV(a, b); }
