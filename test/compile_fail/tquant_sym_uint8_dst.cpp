// expect: TQUANT: INT8_SYM dst must be int8_t
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, float, 16, 64> s, t;
  Tile<TileType::Vec, std::uint8_t, 16, 64> d;
  Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor> k;
  TQUANT<QuantType::INT8_SYM>(d, s, k, t);
}
