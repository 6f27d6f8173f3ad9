// expect: TPARTARGMAX / TPARTARGMIN: the indices are 32-bit integers, or 16-bit ones beside half values
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, float, 8, 16> d, a, b;
  Tile<TileType::Vec, std::uint16_t, 8, 16> di, ai, bi;
  TPARTARGMAX(d, a, b, di, ai, bi);
}
