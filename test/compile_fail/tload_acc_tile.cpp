// expect: Acc (L0C) stores arrive with the cube pipes
#include <pto/pto-inst.hpp>
using namespace pto;
void f(float* p) { Tile<TileType::Acc, float, 16, 16> t; GlobalTensor<float, Shape<1,1,1,16,16>, pto::Stride<1,1,1,16,1>> g(p); TLOAD(t, g); }
