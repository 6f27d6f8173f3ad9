// expect: pto::launch: the kernel must return pto::Kernel (a coroutine) or void
#include <pto/pto-inst.hpp>
using namespace pto;
int k() { return 0; }
void f() { launch({.blocks = 1}, k); }
