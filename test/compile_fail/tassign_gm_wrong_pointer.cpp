// expect: TASSIGN(globalTensor, ptr): ptr must point to exactly the tensor's DType
#include <pto/pto-inst.hpp>
using namespace pto;
void f(int* p) { GlobalTensor<float, Shape<1,1,1,16,16>, pto::Stride<1,1,1,16,1>> g; TASSIGN(g, p); }
