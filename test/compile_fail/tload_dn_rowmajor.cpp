// expect: a DN GlobalTensor needs a ColMajor NoneBox tile
#include <pto/pto-inst.hpp>
using namespace pto;
void f(float* p) { Tile<TileType::Vec, float, 16, 8> t; GlobalTensor<float, Shape<1,1,1,16,8>, pto::Stride<1,1,1,1,16>, Layout::DN> g(p); TLOAD(t, g); }
