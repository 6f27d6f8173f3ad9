// expect: TGATHERB: offset holds 32-bit byte offsets
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 2, 64> d, s; Tile<TileType::Vec, std::uint16_t, 2, 16> o; TGATHERB(d, s, o); }
