// expect: TGET_SCALE_ADDR: dst and src must have the same TileType, or be a ScaleLeft tile and a Left tile
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> s; Tile<TileType::Mat, float, 16, 16> d; TGET_SCALE_ADDR(d, s); }
