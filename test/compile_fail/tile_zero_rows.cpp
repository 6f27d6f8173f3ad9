// expect: Rows and Cols must be positive
#include <pto/pto-inst.hpp>
using namespace pto;
Tile<TileType::Vec, float, 0, 16> t;
