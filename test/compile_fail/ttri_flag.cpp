// expect: TTRI: isUpperOrLower must be 0 (lower) or 1 (upper)
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 8, 8> d; TTRI<decltype(d), 2>(d, 0); }
