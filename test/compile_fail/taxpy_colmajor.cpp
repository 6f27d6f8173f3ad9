// expect: TAXPY: dst and src0 must be RowMajor NoneBox tiles
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16, BLayout::ColMajor> dst, src; TAXPY(dst, src, 2.0f); }
