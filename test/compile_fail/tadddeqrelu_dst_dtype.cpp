// expect: TADDDEQRELU: dst must be half
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, float, 16, 16> d;
  Tile<TileType::Vec, int32_t, 16, 16> a, b, t;
  TADDDEQRELU(d, a, b, 0.5f, t);
}
