// expect: TCONCAT: index tiles hold byte counts as 8-, 16- or 32-bit integers
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 8, 16> d, a, b, i, j; TCONCAT(d, a, b, i, j); }
