// expect: TSCATTER: dst and src must be RowMajor NoneBox Vec tiles
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 8, BLayout::ColMajor> d, s; TSCATTER<MaskPattern::P1111>(d, s); }
