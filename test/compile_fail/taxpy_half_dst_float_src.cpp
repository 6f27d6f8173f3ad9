// expect: TAXPY: dst half with src0 float is not a legal combination
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, half, 16, 16> dst; Tile<TileType::Vec, float, 16, 16> src; TAXPY(dst, src, 2.0f); }
