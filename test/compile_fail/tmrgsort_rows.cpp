// expect: TMRGSORT: every operand must be a tile of one row
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 2, 256> s, d; TMRGSORT(d, s, 64); }
