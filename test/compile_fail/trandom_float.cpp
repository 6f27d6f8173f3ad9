// expect: TRANDOM: dst must be int32_t or uint32_t
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, float, 4, 64> d;
  TRandomKey k = {1, 2};
  TRandomCounter c = {0, 0, 0, 0};
  TRANDOM(d, k, c);
}
