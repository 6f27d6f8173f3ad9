// expect: a RowMajor NoneBox tile needs Cols * sizeof(DType) to be a multiple of 32 bytes
#include <pto/pto-inst.hpp>
using namespace pto;
Tile<TileType::Vec, half, 16, 100> t;
