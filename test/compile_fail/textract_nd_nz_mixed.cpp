// expect: TEXTRACT / TINSERT (Vec -> Vec): dst and src must both be ND (RowMajor NoneBox) or both NZ
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, float, 32, 32, BLayout::ColMajor, -1, -1, SLayout::RowMajor, 512> b;
  Tile<TileType::Vec, float, 16, 16> w;
  TEXTRACT(w, b);
}
