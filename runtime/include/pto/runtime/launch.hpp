// pto::launch: run one kernel on N emulated AI cores (SPMD), coroutine kernels and plain PTO kernels
// alike, and return the report. The first error raised in any core (lowest block index) is rethrown.
#pragma once
#include <coroutine>
#include <functional>
#include <iosfwd>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <pto/isa/enums.hpp>
#include <pto/runtime/core_api.hpp>
#include <pto/runtime/cost_table.hpp>
#include <pto/runtime/gm_arg.hpp>
#include <pto/runtime/kernel.hpp>
#include <pto/runtime/mix_kernel.hpp>
#include <pto/runtime/observer.hpp>
#include <pto/runtime/report.hpp>
#include <pto/runtime/sync_check.hpp>

namespace pto {

// host_threads beyond this is an error (a launch never starts more threads than it can use: kernel
// threads are capped by the cores, pipe threads by three lanes per core).
inline constexpr int kMaxHostThreads = 1024;
// blocks beyond this is an error (each core keeps a report; a chip has 24 to 48 AI cores).
inline constexpr int kMaxBlocks = 1 << 20;

struct LaunchConfig {
  int blocks = 1;                        // number of emulated AI cores
  Target target = Target::A2A3;          // buffer capacities, dtype rules, costs
  Mode mode = Mode::Manual;              // who orders the pipes: the kernel's flags, or the runtime
  Policy policy = Policy::Deterministic;
  int host_threads = 0;                  // host threads the launch runs at once; 0 = hardware concurrency
                                         // (one per core runs its kernel; Concurrent: the rest, >= 1, run pipes;
                                         // with one pipe thread the kernel threads also run their loads)
  int queue_depth = 32;                  // per-pipe issue queue; a full queue stalls the scalar pipe
  bool model_only = false;               // modeled time only: no instruction computes (GM/UB untouched)
  bool timeline = false;                 // record every instruction's modeled start/end in the report
  const CostTable* costs = nullptr;      // what-if cost table (copied from default_cost_table); null = target's
  SyncCheck check = SyncCheck::Default;  // the synchronisation checker (Default: see sync_check.hpp)
  bool cpu_reference = false;            // run the CPU reference kernels even where a device code path exists
  std::ostream* print = nullptr;         // where TPRINT writes (null: std::cout); one whole print at a time
  // The watchdog (kernels that never end): -1 takes the environment's value or the default, 0 turns the
  // limit off. Per core, instructions issued (PTO_MAX_INSTRUCTIONS, 10^9) and the scalar pipe's modeled
  // cycle (PTO_MAX_CYCLES, 2 * 10^11); past either, that core fails. Host seconds in which no core
  // issues anything (PTO_WATCHDOG_SECONDS, 120): the process ends with the cores' state on stderr.
  std::int64_t max_instructions = -1;
  std::int64_t max_cycles = -1;
  std::int64_t watchdog_seconds = -1;
  // The byte every on-chip buffer (UB, L1, L0A/B/C, ...) starts as. The chip's buffers hold what the
  // previous kernel left; zero (pto-isa's CPU simulator) hides a read of bytes nothing wrote, which the
  // checker reports; 0xFF makes every float type NaN, so the results show it too. -1 takes PTO_FILL
  // (zero, nan = 0xFF, or a byte such as 0xCD) or 0.
  int fill = -1;
  // Observers of the engine (observer.hpp): each sees every core's events. Not owned; they must outlive
  // the launch. The built-in tools (checker, timeline, stall attribution) use the same interface.
  std::vector<Observer*> observers = {};
};

namespace detail {
// Starts the kernel on the calling thread's current core with a fresh copy of the arguments: a plain
// kernel runs to its end (its core drained) and yields no handle; a coroutine kernel yields its
// suspended handle (ownership passes to the caller) and `args` keeps the argument copy alive until then.
using KernelStart = Kernel::Handle (*)(const void* state, std::shared_ptr<void>& args);
// `sized_only`: every GM argument is sized (no raw pointer), so GM outside them is the kernel's own.
// `coroutine`: the kernel returns pto::Kernel (else it is a plain kernel, run to its end by `start`).
// `cube_start`: null for a launch of cfg.blocks cores; else a cluster launch, whose AICs start with it
// and whose AIVs start with `start`.
LaunchReport launch_impl(const LaunchConfig& cfg, KernelStart start, KernelStart cube_start, const void* state,
                         std::vector<GmAllocation> gm, bool sized_only, bool coroutine);
template <class F, class... Args>
LaunchReport launch_checked(const LaunchConfig& cfg, F&& kernel, Args&&... args);
template <class Aic, class Aiv, class... Args>
LaunchReport launch_mix_checked(const LaunchConfig& cfg, Aic&& aic, Aiv&& aiv, Args&&... args);

// The kernel's parameter list, where the type shows one (a function, a function pointer, a lambda or
// functor with one non-template operator()); generic lambdas have none and are checked by invocability.
template <class F, class = void> struct kernel_sig {};
template <class F>
struct kernel_sig<F, std::void_t<decltype(&F::operator())>> : kernel_sig<decltype(&F::operator())> {};
template <class R, class... P> struct kernel_sig<R (*)(P...)> {
  using params = std::tuple<P...>;
};
template <class R, class... P> struct kernel_sig<R(P...)> : kernel_sig<R (*)(P...)> {};
template <class C, class R, class... P> struct kernel_sig<R (C::*)(P...)> : kernel_sig<R (*)(P...)> {};
template <class C, class R, class... P> struct kernel_sig<R (C::*)(P...) const> : kernel_sig<R (*)(P...)> {};
template <class C, class R, class... P> struct kernel_sig<R (C::*)(P...) noexcept> : kernel_sig<R (*)(P...)> {};
template <class C, class R, class... P> struct kernel_sig<R (C::*)(P...) const noexcept> : kernel_sig<R (*)(P...)> {};
template <class R, class... P> struct kernel_sig<R (*)(P...) noexcept> : kernel_sig<R (*)(P...)> {};

// Parameter I (0-based) of the kernel, type P, receiving launch argument type A: one sentence per rule.
template <std::size_t I, class P, class A>
constexpr bool kernel_param_ok() {
  constexpr bool mutable_ref = std::is_lvalue_reference_v<P> && !std::is_const_v<std::remove_reference_t<P>>;
  static_assert(!mutable_ref,
                "pto::launch: a kernel parameter is a non-const reference (see parameter I below): launch arguments are "
                "copied per core, as a device launch's are, so writes through it would be lost; take it by value or "
                "const reference, and return results through a GM buffer");
  constexpr bool converts = std::is_convertible_v<A&, P>;
  static_assert(mutable_ref || converts,
                "pto::launch: launch argument I (type A below) does not convert to the kernel's parameter I (type P "
                "below); sized GM arguments (std::vector<T>, std::span<T>, pto::gm) arrive as T*");
  return !mutable_ref && converts;
}
template <class F, class... A>
constexpr bool kernel_params_ok() {
  if constexpr (requires { typename kernel_sig<F>::params; }) {
    using Params = typename kernel_sig<F>::params;
    constexpr std::size_t n = std::tuple_size_v<Params>;
    static_assert(n == sizeof...(A), "pto::launch: the number of launch arguments differs from the kernel's parameter count");
    if constexpr (n != sizeof...(A)) {
      return false;
    } else {
      return []<std::size_t... I>(std::index_sequence<I...>) {
        return (kernel_param_ok<I, std::tuple_element_t<I, Params>, A>() && ...);
      }(std::index_sequence_for<A...>{});
    }
  } else {
    return true;
  }
}
}  // namespace detail

// Arguments are copied per core, like a device launch's; sized GM arguments (pto::gm(ptr, count),
// std::span<T>, std::vector<T>) arrive as `__gm__ T*` to the caller's buffer, bounds-checked (gm_arg.hpp).
template <class F, class... Args>
LaunchReport launch(const LaunchConfig& cfg, F&& kernel, Args&&... args) {
  if constexpr (!detail::kernel_params_ok<std::decay_t<F>, detail::launch_arg_t<Args>...>()) {
    return {};  // a static_assert above said which parameter
  } else if constexpr (!std::is_invocable_v<F&, detail::launch_arg_t<Args>&...>) {
    static_assert(std::is_invocable_v<F&, detail::launch_arg_t<Args>&...>,
                  "pto::launch: the kernel cannot be called with these arguments (their number or types do not match "
                  "its parameters; sized GM arguments arrive as T*)");
    return {};
  } else {
    return detail::launch_checked(cfg, std::forward<F>(kernel), std::forward<Args>(args)...);
  }
}

namespace detail {
// Runs `fn` on a fresh copy of `args` on the calling thread's core (KernelStart's contract).
template <class Result, class F, class Tuple>
Kernel::Handle start_kernel(F& fn, const Tuple& args, std::shared_ptr<void>& keep) {
  auto copy = std::make_shared<Tuple>(args);
  keep = copy;
  if constexpr (std::is_same_v<Result, Kernel>) {
    return std::apply(fn, *copy).release();
  } else {
    try {
      std::apply(fn, *copy);
    } catch (...) {
      detail::kernel_fails();
      throw;
    }
    detail::kernel_ends();
    return {};
  }
}

// The launch's GM arguments (bounds) and whether they are all sized.
template <class Tuple>
std::vector<GmAllocation> gm_of(const Tuple& args) {
  std::vector<detail::GmAllocation> gm;
  std::apply([&](const auto&... a) {
    int i = 0;
    (detail::note_allocation(a, i++, gm), ...);
  }, args);
  return gm;
}

template <class F, class... Args>
LaunchReport launch_checked(const LaunchConfig& cfg, F&& kernel, Args&&... args) {
  using Result = std::invoke_result_t<F&, detail::launch_arg_t<Args>&...>;
  static_assert(std::is_same_v<Result, Kernel> || std::is_void_v<Result>,
                "pto::launch: the kernel must return pto::Kernel (a coroutine) or void (a plain PTO kernel)");
  struct State {
    std::decay_t<F> fn;
    std::tuple<detail::launch_arg_t<Args>...> args;
  } state{std::forward<F>(kernel), {detail::launch_arg(std::forward<Args>(args))...}};
  std::vector<detail::GmAllocation> gm = gm_of(state.args);
  detail::KernelStart start = [](const void* p, std::shared_ptr<void>& keep) -> Kernel::Handle {
    auto& s = *static_cast<State*>(const_cast<void*>(p));
    return start_kernel<Result>(s.fn, s.args, keep);
  };
  constexpr bool raw = (std::is_pointer_v<detail::launch_arg_t<Args>> || ...);
  const bool sized_only = !raw && !gm.empty();
  return detail::launch_impl(cfg, start, nullptr, &state, std::move(gm), sized_only, std::is_same_v<Result, Kernel>);
}

template <class Aic, class Aiv, class... Args>
LaunchReport launch_mix_checked(const LaunchConfig& cfg, Aic&& aic, Aiv&& aiv, Args&&... args) {
  using CubeResult = std::invoke_result_t<Aic&, detail::launch_arg_t<Args>&...>;
  using VecResult = std::invoke_result_t<Aiv&, detail::launch_arg_t<Args>&...>;
  static_assert(std::is_same_v<CubeResult, VecResult> && (std::is_same_v<VecResult, Kernel> || std::is_void_v<VecResult>),
                "pto::launch_mix: the cube and vector kernels must both return pto::Kernel (coroutines) or both void "
                "(plain PTO kernels)");
  struct State {
    std::decay_t<Aic> aic;
    std::decay_t<Aiv> aiv;
    std::tuple<detail::launch_arg_t<Args>...> args;
  } state{std::forward<Aic>(aic), std::forward<Aiv>(aiv), {detail::launch_arg(std::forward<Args>(args))...}};
  std::vector<detail::GmAllocation> gm = gm_of(state.args);
  detail::KernelStart vec = [](const void* p, std::shared_ptr<void>& keep) -> Kernel::Handle {
    auto& s = *static_cast<State*>(const_cast<void*>(p));
    return start_kernel<VecResult>(s.aiv, s.args, keep);
  };
  detail::KernelStart cube = [](const void* p, std::shared_ptr<void>& keep) -> Kernel::Handle {
    auto& s = *static_cast<State*>(const_cast<void*>(p));
    return start_kernel<CubeResult>(s.aic, s.args, keep);
  };
  constexpr bool raw = (std::is_pointer_v<detail::launch_arg_t<Args>> || ...);
  const bool sized_only = !raw && !gm.empty();
  return detail::launch_impl(cfg, vec, cube, &state, std::move(gm), sized_only, std::is_same_v<VecResult, Kernel>);
}
}  // namespace detail

// A cluster launch: cfg.blocks clusters of one cube core (AIC), running `aic`, and two vector cores (AIV0,
// AIV1), running `aiv`, as A2/A3 and A5 run a mixed kernel. Both kernels take the same arguments (copied
// per core). In them get_block_idx() is the cluster, get_block_num() the clusters, get_subblockid() 0 or 1
// on the AIVs. The AIC has the cube's pipes and buffers only, an AIV the vector unit and UB only (an
// instruction of the other kind is an error naming it). The cores pass tiles through TPUSH / TPOP
// (pto/common/fifo.hpp) and wait on each other's cross-core flags; the report has one CoreReport per core,
// AIC first (LaunchReport::cores[3b] is cluster b's AIC, [3b + 1 + s] its AIV s). For one source compiled
// twice, as the chip's toolchain does, see pto_add_mix_kernel (docs/clusters.md).
template <class Aic, class Aiv, class... Args>
  requires(!is_mix_entry<std::decay_t<Aic>>)
LaunchReport launch_mix(const LaunchConfig& cfg, Aic&& aic, Aiv&& aiv, Args&&... args) {
  if constexpr (!detail::kernel_params_ok<std::decay_t<Aic>, detail::launch_arg_t<Args>...>() ||
                !detail::kernel_params_ok<std::decay_t<Aiv>, detail::launch_arg_t<Args>...>()) {
    return {};  // a static_assert above said which parameter
  } else if constexpr (!std::is_invocable_v<Aic&, detail::launch_arg_t<Args>&...> ||
                       !std::is_invocable_v<Aiv&, detail::launch_arg_t<Args>&...>) {
    static_assert(std::is_invocable_v<Aic&, detail::launch_arg_t<Args>&...> &&
                      std::is_invocable_v<Aiv&, detail::launch_arg_t<Args>&...>,
                  "pto::launch_mix: a kernel cannot be called with these arguments (their number or types do not match "
                  "its parameters; sized GM arguments arrive as T*)");
    return {};
  } else {
    return detail::launch_mix_checked(cfg, std::forward<Aic>(aic), std::forward<Aiv>(aiv), std::forward<Args>(args)...);
  }
}

// The two compilations of one mixed kernel source (pto::mix_entry<&kernel>(), pto_add_mix_kernel).
template <class Fn, class... Args>
LaunchReport launch_mix(const LaunchConfig& cfg, const MixEntry<Fn>& entry, Args&&... args) {
  return launch_mix(cfg, entry.cube, entry.vec, std::forward<Args>(args)...);
}

}  // namespace pto
