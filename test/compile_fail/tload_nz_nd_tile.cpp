// expect: TLOAD/TSTORE: an NZ GlobalTensor needs an NZ tile
#include <pto/pto-inst.hpp>
using namespace pto;
void f(float* p) {
  GlobalTensor<float, Shape<1, 2, 1, 16, 8>, pto::Stride<256, 128, 128, 8, 1>, Layout::NZ> g(p);
  Tile<TileType::Vec, float, 16, 16> t;
  TLOAD(t, g);
}
