// expect: the index tile must be int32_t or uint32_t
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, float, 16, 64> s, t;
  Tile<TileType::Vec, float, 16, 8> d;
  TROWARGMAX(d, s, t);
}
