// expect: TQUANT: the exp_zz store mode (the ZZ exponent layout) is not an A5 form
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, float, 32, 64> s;
  Tile<TileType::Vec, std::int8_t, 32, 64> d;
  Tile<TileType::Vec, std::uint8_t, 1, 64> e, z;
  Tile<TileType::Vec, float, 1, 64> m, k;
  TQUANT<QuantType::MXFP8, VecStoreMode::NZ>(d, s, &e, &m, &k, &z);
}
