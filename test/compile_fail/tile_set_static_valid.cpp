// expect: Tile::SetValidRow: the row valid dimension is static
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> t; t.SetValidRow(3); }
