// expect: THISTOGRAM: dst must have 256 columns
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, std::uint16_t, 2, 128> s;
  Tile<TileType::Vec, std::uint32_t, 2, 128> d;
  Tile<TileType::Vec, std::uint8_t, 32, 1, BLayout::ColMajor> x;
  THISTOGRAM<HistByte::BYTE_1>(d, s, x);
}
