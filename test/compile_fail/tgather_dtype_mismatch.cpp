// expect: TGATHER: dst and src0 must have the same DType
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 8, 64> s; Tile<TileType::Vec, std::int32_t, 1, 16> x, t, d; TGATHER(d, s, x, t); }
