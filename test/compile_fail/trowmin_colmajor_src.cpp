// expect: TROWSUM/TROWMAX/TROWMIN/TROWPROD: src must be a RowMajor NoneBox tile
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16, BLayout::ColMajor> s; Tile<TileType::Vec, float, 16, 16> t, d; TROWMIN(d, s, t); }
