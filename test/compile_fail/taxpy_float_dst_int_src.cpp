// expect: TAXPY: src0 must have dst's DType, or be half with a float dst
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> dst; Tile<TileType::Vec, std::int16_t, 16, 16> src; TAXPY(dst, src, std::int16_t(2)); }
