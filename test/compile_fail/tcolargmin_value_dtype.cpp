// expect: TROWARGMAX/TROWARGMIN/TCOLARGMAX/TCOLARGMIN: dstVal must have src's DType
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, float, 16, 64> s, t;
  Tile<TileType::Vec, half, 1, 64> v;
  Tile<TileType::Vec, int32_t, 1, 64> i;
  TCOLARGMIN(v, i, s, t);
}
