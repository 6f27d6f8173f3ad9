// The tile-scalar instructions as one value, so a test can loop over them (test_axpy_scalar,
// test_errors_families).
#pragma once
#include <pto/pto-inst.hpp>

namespace pto_test {

enum class ScalarOp { Adds, Subs, Muls, Divs, DivsRev, Maxs, Mins, LRelu };

// Issues `op` on (dst, src, k); DivsRev is the scalar / tile form TDIVS(dst, k, src).
template <class Dst, class Src, class T>
void issue(ScalarOp op, Dst& dst, Src& src, T k) {
  switch (op) {
    case ScalarOp::Adds: pto::TADDS(dst, src, k); break;
    case ScalarOp::Subs: pto::TSUBS(dst, src, k); break;
    case ScalarOp::Muls: pto::TMULS(dst, src, k); break;
    case ScalarOp::Divs: pto::TDIVS(dst, src, k); break;
    case ScalarOp::DivsRev: pto::TDIVS(dst, k, src); break;
    case ScalarOp::Maxs: pto::TMAXS(dst, src, k); break;
    case ScalarOp::Mins: pto::TMINS(dst, src, k); break;
    case ScalarOp::LRelu: pto::TLRELU(dst, src, k); break;
  }
}

}  // namespace pto_test
