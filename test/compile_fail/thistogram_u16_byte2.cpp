// expect: THISTOGRAM: a uint16 src has BYTE_0 and BYTE_1 only
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  Tile<TileType::Vec, std::uint16_t, 2, 128> s;
  Tile<TileType::Vec, std::uint32_t, 2, 256> d;
  Tile<TileType::Vec, std::uint8_t, 32, 1, BLayout::ColMajor> x;
  THISTOGRAM<HistByte::BYTE_2>(d, s, x);
}
