// expect: TQUANT: scale and offset must be ColMajor NoneBox Vec tiles
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, float, 16, 64> s, t;
  Tile<TileType::Vec, std::int8_t, 16, 64> d;
  Tile<TileType::Vec, float, 16, 8> k;
  TQUANT<QuantType::INT8_SYM>(d, s, k, t);
}
