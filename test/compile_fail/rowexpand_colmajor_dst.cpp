// expect: TCOLEXPAND*/TROWEXPAND*: dst must be a RowMajor NoneBox tile
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16, BLayout::ColMajor> dst; Tile<TileType::Vec, float, 16, 16> src0; Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor> src1; TROWEXPANDEXPDIF(dst, src0, src1); }
