// Direct calls: a plain PTO kernel called outside pto::launch runs on an implicit core of the calling
// host thread (one instruction at a time, like PTO's CPU simulator). Its target is A2A3, or A5 when
// the environment says PTO_TARGET=A5 (read at the first direct call), or whatever the innermost
// ScopedTarget of this thread says.
#pragma once
#include <pto/isa/enums.hpp>

namespace pto {

// The target direct calls on this thread run as now.
Target direct_call_target();

// For its lifetime, direct calls on this thread run as `target` (each target has its own implicit
// core, so tiles TASSIGNed under one are not valid under the other).
class ScopedTarget {
public:
  explicit ScopedTarget(Target target);
  ~ScopedTarget();
  ScopedTarget(const ScopedTarget&) = delete;
  ScopedTarget& operator=(const ScopedTarget&) = delete;

private:
  int previous_;
};

}  // namespace pto
