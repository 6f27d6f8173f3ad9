// expect: SYNCALL<SyncAllMode::Soft>: the GM workspace must be a GlobalTensor of int32_t
#include <pto/pto-inst.hpp>
using namespace pto;
void f(float* p) { GlobalTensor<float, pto::Shape<>, pto::Stride<>> ws(p); SYNCALL<SyncAllMode::Soft>(ws, 0); }
