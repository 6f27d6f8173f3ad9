// expect: an ND GlobalTensor needs a RowMajor NoneBox tile
#include <pto/pto-inst.hpp>
using namespace pto;
void f(float* p) { Tile<TileType::Vec, float, 16, 8, BLayout::ColMajor> t; GlobalTensor<float, Shape<1,1,1,16,8>, pto::Stride<1,1,1,8,1>> g(p); TLOAD(t, g); }
