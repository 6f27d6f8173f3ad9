// expect: TLOAD/TSTORE: ND, DN and NZ GlobalTensors (and, for TLOAD, the MX scale layouts) are supported
#include <pto/pto-inst.hpp>
using namespace pto;
void f(half* p) { Tile<TileType::Vec, half, 16, 16> t; GlobalTensor<half, Shape<1,1,1,16,16>, pto::Stride<1,1,1,16,1>, Layout::SCALE> g(p); TLOAD(t, g); }
