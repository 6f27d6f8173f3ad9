// expect: co_await TSYNC(events...): the events wait on different destination pipes
#include <pto/pto-inst.hpp>
using namespace pto;
Kernel f() {
  Event<Op::TLOAD, Op::TSTORE_VEC> a;
  RecordEvent b;
  co_await TSYNC(a, b);  // MTE3 and the scalar pipe: one co_await TSYNC per pipe
}
