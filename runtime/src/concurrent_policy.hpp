// The concurrent policy: each pipe of each core is bound to one of host_threads host threads (each runs
// a Boost.Asio io_context), so pipes really overlap on the host. Ordering across pipes comes only from
// the kernel's flags and events (or auto-mode dependencies), exactly as in the model. The model still runs beside it for the
// modeled clock and for deadlock detection, so every modeled figure equals the deterministic policy's.
// Asio stays inside concurrent_policy.cpp.
#pragma once
#include <memory>

#include <oneapi/tbb/task_arena.h>

#include <pto/isa/enums.hpp>

#include "core.hpp"

namespace pto::detail {

class ConcurrentPolicy {
public:
  // `arena`: the launch's oneTBB arena; the pipe threads run their kernels inside it (may be null).
  ConcurrentPolicy(int host_threads, tbb::task_arena* arena = nullptr);
  ~ConcurrentPolicy();
  ConcurrentPolicy(const ConcurrentPolicy&) = delete;
  ConcurrentPolicy& operator=(const ConcurrentPolicy&) = delete;

  // One executor per core run, made on the core's kernel thread; it must be destroyed before the policy.
  std::unique_ptr<FunctionalExecutor> make_executor(int core, Target target, int queue_depth);

  struct Pool;  // the host threads (defined in the .cpp, where Asio is)

private:
  std::unique_ptr<Pool> pool_;
};

}  // namespace pto::detail
