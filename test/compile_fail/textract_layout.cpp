// expect: TEXTRACT / TINSERT (Vec -> Vec): dst and src must both be ND (RowMajor NoneBox) or both NZ
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16, BLayout::ColMajor> s; Tile<TileType::Vec, float, 8, 16> d; TEXTRACT(d, s, 0, 0); }
