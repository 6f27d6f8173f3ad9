// expect: static RowValid must be -1 (dynamic) or in [0, Rows]
#include <pto/pto-inst.hpp>
using namespace pto;
Tile<TileType::Vec, float, 16, 16, BLayout::RowMajor, 17, 16> t;
