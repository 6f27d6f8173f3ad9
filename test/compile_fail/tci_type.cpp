// expect: TCI: T must be exactly dst's DType
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, std::int32_t, 1, 16> d; TCI<decltype(d), std::int16_t, 0>(d, 0); }
