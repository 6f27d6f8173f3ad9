// expect: TCOLSUM/TCOLMAX/TCOLMIN/TCOLPROD: dst and src must be Vec tiles
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Mat, float, 16, 16> s; Tile<TileType::Vec, float, 1, 16> d; TCOLMIN(d, s); }
