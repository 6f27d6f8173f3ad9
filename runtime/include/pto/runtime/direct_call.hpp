// Direct calls: a plain PTO kernel called outside pto::launch runs on an implicit core of the calling
// host thread (one instruction at a time, like PTO's CPU simulator). Its target is A2A3, or A5 when
// the environment says PTO_TARGET=A5 (read at the first direct call), or whatever the innermost
// ScopedTarget of this thread says. Its mode is Manual, or Auto when any translation unit of the program
// was built with -D__PTO_AUTO__ (such kernels have no flags: pto-isa's auto-mode builds).
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

namespace detail {
// A translation unit built with -D__PTO_AUTO__ says so before main: direct calls then run in auto mode.
void note_auto_build();
}  // namespace detail

}  // namespace pto

#ifdef __PTO_AUTO__
namespace {
[[maybe_unused]] const bool pto_auto_build_noted = (::pto::detail::note_auto_build(), true);
}  // namespace
#endif
