// expect: the tile's and the tensor's element types must have the same size
#include <pto/pto-inst.hpp>
using namespace pto;
void f(half* p) { Tile<TileType::Vec, float, 16, 16> t; GlobalTensor<half, Shape<1,1,1,16,16>, pto::Stride<1,1,1,16,1>> g(p); TLOAD(t, g); }
