// expect: TXOR: tmp must be a Vec tile of dst's DType
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, std::int32_t, 16, 16> d, a, b; Tile<TileType::Vec, std::int16_t, 16, 32> t; TXOR(d, a, b, t); }
