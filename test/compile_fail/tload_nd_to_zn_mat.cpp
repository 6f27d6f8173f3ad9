// expect: TLOAD/TSTORE: an ND GlobalTensor needs a RowMajor NoneBox tile (or, for TLOAD to a Mat tile, an NZ tile
#include <pto/pto-inst.hpp>
using namespace pto;
void f(half* p) {
  Tile<TileType::Mat, half, 32, 32, BLayout::RowMajor, 32, 32, SLayout::ColMajor, 512> t;  // ZN: a DN tensor's layout
  GlobalTensor<half, Shape<1, 1, 1, 32, 32>, pto::Stride<1, 1, 1, 32, 1>> g(p);
  TLOAD(t, g);
}
