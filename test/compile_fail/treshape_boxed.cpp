// expect: TRESHAPE: cannot reshape between boxed and non-boxed
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, half, 16, 16> s;
  Tile<TileType::Vec, half, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor> d;
  TRESHAPE(d, s);
}
