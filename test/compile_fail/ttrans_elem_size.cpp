// expect: TTRANS: elements of 1, 2 or 4 bytes
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, std::int64_t, 8, 8> s, d, t; TTRANS(d, s, t); }
