// expect: TGET_SCALE_ADDR: the Left/Right -> scale-tile form (the A5 compiler's address rule) is not modelled
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> s; Tile<TileType::Mat, float, 16, 16> d; TGET_SCALE_ADDR(d, s); }
