// expect: TSCATTER: data and index sizes must be 4 and 4, 2 and 2, 1 and 2 bytes
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 2, 32> d, s; Tile<TileType::Vec, std::uint16_t, 2, 32> x; TSCATTER(d, s, x); }
