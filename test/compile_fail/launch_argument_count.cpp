// expect: pto::launch: the number of launch arguments differs from the kernel's parameter count
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  std::vector<float> out(4);
  launch({}, [](__gm__ float*, __gm__ float*) {}, out);
}
