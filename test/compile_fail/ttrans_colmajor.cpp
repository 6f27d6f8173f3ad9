// expect: TTRANS: dst, src and tmp must be RowMajor NoneBox Vec tiles
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 8, 8, BLayout::ColMajor> s; Tile<TileType::Vec, float, 8, 8> d, t; TTRANS(d, s, t); }
