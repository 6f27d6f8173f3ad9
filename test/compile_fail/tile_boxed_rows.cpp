// expect: a boxed tile needs Rows % InnerRows == 0
#include <pto/pto-inst.hpp>
using namespace pto;
Tile<TileType::Mat, half, 24, 16, BLayout::ColMajor, 24, 16, SLayout::RowMajor> t;
