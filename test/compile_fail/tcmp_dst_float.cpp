// expect: TCMP/TCMPS: dst holds the packed predicate bits: an 8-, 16- or 32-bit integer tile
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> d, a, b; TCMP(d, a, b, CmpMode::EQ); }
