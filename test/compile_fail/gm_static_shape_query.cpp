// expect: GlobalTensor::GetShape<dim>: that dimension is dynamic
#include <pto/pto-inst.hpp>
using namespace pto;
int f() { return GlobalTensor<float, Shape<1,1,1,-1,16>, pto::Stride<1,1,1,16,1>>::GetShape<3>(); }
