// expect: dst must be a RowMajor NoneBox tile or a ColMajor (DN) tile of one column
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> s, t; Tile<TileType::Vec, float, 16, 2, BLayout::ColMajor> d; TROWMAX(d, s, t); }
