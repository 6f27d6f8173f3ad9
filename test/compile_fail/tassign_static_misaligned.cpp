// expect: TASSIGN<Addr>: Addr must be 32-byte aligned
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> t; TASSIGN<0x10>(t); }
