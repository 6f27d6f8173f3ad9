// expect: TMOV Mat -> Left / Right: dst and src must have the same static Rows and Cols (TEXTRACT takes a window)
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Mat, half, 64, 64, BLayout::ColMajor, 64, 64, SLayout::RowMajor, 512> src;
  TileLeft<half, 32, 64> dst;
  TMOV(dst, src);
}
