// expect: TSORT32: idx must be a uint32_t tile
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 1, 32> s; Tile<TileType::Vec, float, 1, 64> d; Tile<TileType::Vec, std::int32_t, 1, 32> x; TSORT32(d, s, x); }
