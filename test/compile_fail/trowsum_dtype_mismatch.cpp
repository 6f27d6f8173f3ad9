// expect: TROWSUM/TROWMAX/TROWMIN/TROWPROD: dst, src and tmp must have the same DType
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> s, t; Tile<TileType::Vec, half, 16, 16> d; TROWSUM(d, s, t); }
