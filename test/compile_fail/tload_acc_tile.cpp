// expect: the NPUs' DMA fills no Left, Right, Acc or Bias tile
#include <pto/pto-inst.hpp>
using namespace pto;
void f(float* p) { Tile<TileType::Acc, float, 16, 16> t; GlobalTensor<float, Shape<1,1,1,16,16>, pto::Stride<1,1,1,16,1>> g(p); TLOAD(t, g); }
