// expect: pto::launch: launch argument I (type A below) does not convert to the kernel's parameter I
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  std::vector<int> out(4);
  launch({}, [](__gm__ float*) -> Kernel { co_return; }, out);
}
