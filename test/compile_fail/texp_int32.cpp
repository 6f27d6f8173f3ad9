// expect: TEXP: DType must be half or float
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, std::int32_t, 16, 16> dst, src; TEXP(dst, src); }
