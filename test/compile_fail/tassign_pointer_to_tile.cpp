// expect: TASSIGN(tile, addr): addr must be an integral byte offset
#include <pto/pto-inst.hpp>
using namespace pto;
void f(float* p) { Tile<TileType::Vec, float, 16, 16> t; TASSIGN(t, p); }
