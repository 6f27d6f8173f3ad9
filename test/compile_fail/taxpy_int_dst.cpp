// expect: TAXPY: dst must be half or float
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, std::int32_t, 16, 16> dst, src; TAXPY(dst, src, 2); }
