// expect: TEXTRACT / TINSERT (Vec -> Vec): the window's tile (TEXTRACT's dst, TINSERT's src) must be no larger
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 16, 16> d; Tile<TileType::Vec, float, 32, 16> s; TINSERT(d, s, 0, 0); }
