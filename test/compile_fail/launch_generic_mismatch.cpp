// expect: pto::launch: the kernel cannot be called with these arguments
#include <pto/pto-inst.hpp>
using namespace pto;
void f() {
  std::vector<float> out(4);
  launch({}, [](auto* a, auto* b) { (void)a; (void)b; }, out);
}
