// expect: the transposing form (Left from ZN, Right from NZ) needs every Rows and Cols a multiple of 16 (32 for 1-byte types, 64 for 4-bit ones)
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Mat, float4_e2m1x2_t, 64, 64, BLayout::ColMajor, 64, 64, SLayout::RowMajor, 512> m;
  Tile<TileType::Right, float4_e2m1x2_t, 64, 32, BLayout::RowMajor, 64, 32, SLayout::ColMajor, 512> r;  // 32 columns: half a 64 x 64 fractal
  TEXTRACT(r, m, 0, 0);
}
