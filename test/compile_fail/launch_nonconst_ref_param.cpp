// expect: pto::launch: a kernel parameter is a non-const reference
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(__gm__ float*, int& n) { n = 1; }
void f() {
  std::vector<float> out(4);
  int n = 0;
  launch({}, kernel, out, n);
}
