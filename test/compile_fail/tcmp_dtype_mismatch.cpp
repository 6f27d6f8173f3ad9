// expect: TCMP: src0 and src1 must have the same DType
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> a; Tile<TileType::Vec, half, 16, 16> b; Tile<TileType::Vec, std::uint8_t, 16, 32> d; TCMP(d, a, b, CmpMode::EQ); }
