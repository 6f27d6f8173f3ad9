// expect: a ColMajor NoneBox tile needs Rows * sizeof(DType) to be a multiple of 32 bytes
#include <pto/pto-inst.hpp>
using namespace pto;
Tile<TileType::Vec, float, 4, 1, BLayout::ColMajor> t;
