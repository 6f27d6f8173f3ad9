// expect: TPARTADD / TPARTMUL / TPARTMAX / TPARTMIN: dst, src0 and src1 must have one DType
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 8, 16> d, a; Tile<TileType::Vec, std::int32_t, 8, 16> b; TPARTADD(d, a, b); }
