// expect: TCI: dst must be a tile of one row
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, std::int32_t, 2, 16> d; TCI<decltype(d), std::int32_t, 0>(d, 0); }
