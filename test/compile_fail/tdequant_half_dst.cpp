// expect: TDEQUANT: dst must be float (fp32)
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, half, 16, 64> d;
  Tile<TileType::Vec, std::int8_t, 16, 64> s;
  Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor> k, z;
  TDEQUANT(d, s, k, z);
}
