// expect: TAXPY: dst and src0 must be Vec tiles
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Mat, float, 16, 16> dst; Tile<TileType::Vec, float, 16, 16> src; TAXPY(dst, src, 2.0f); }
