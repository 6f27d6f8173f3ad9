// expect: only ND and DN GlobalTensors are supported so far
#include <pto/pto-inst.hpp>
using namespace pto;
void f(half* p) { Tile<TileType::Vec, half, 16, 16> t; GlobalTensor<half, Shape<1,1,1,16,16>, pto::Stride<1,1,1,16,1>, Layout::NZ> g(p); TLOAD(t, g); }
