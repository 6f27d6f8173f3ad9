// expect: TPREFETCH: src must be a GlobalTensor
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 8, 16> d, s; TPREFETCH(d, s); }
