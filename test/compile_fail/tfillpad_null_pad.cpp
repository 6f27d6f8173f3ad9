// expect: TFILLPAD: dst's PadVal is the fill value and must not be PadValue::Null
#include <pto/pto-inst.hpp>
using namespace pto;
void f() { Tile<TileType::Vec, float, 8, 8> s, d; TFILLPAD(d, s); }
