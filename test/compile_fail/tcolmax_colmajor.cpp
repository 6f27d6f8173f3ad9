// expect: TCOLSUM/TCOLMAX/TCOLMIN/TCOLPROD: dst and src must be RowMajor NoneBox tiles
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16, BLayout::ColMajor> s; Tile<TileType::Vec, float, 1, 16> d; TCOLMAX(d, s); }
