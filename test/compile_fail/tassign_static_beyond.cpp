// expect: TASSIGN<Addr>: Addr + tile bytes exceed the buffer on every target
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> t; TASSIGN<256 * 1024>(t); }
