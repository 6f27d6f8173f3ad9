// expect: dst, src0 and src1 must be RowMajor NoneBox tiles
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16, BLayout::ColMajor> d, a, b; TADD(d, a, b); }
