// expect: TMATMUL / TGEMV: a must be a Left tile with SLayout::RowMajor 512-byte fractals (TileLeft)
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  TileAcc<float, 16, 16> c;
  Tile<TileType::Vec, half, 16, 16> a;  // a vector tile cannot feed the cube
  TileRight<half, 16, 16> b;
  TMATMUL(c, a, b);
}
