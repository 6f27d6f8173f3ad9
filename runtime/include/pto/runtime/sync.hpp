// set_flag / wait_flag / pipe_barrier / TSYNC, spelled as PTO spells them (spec §1.7).
// Each returns an Issue: `co_await wait_flag(...)` in a coroutine kernel, plain `wait_flag(...);` in a
// plain kernel. set_flag is queued on its source pipe, wait_flag on its destination pipe; a wait on
// PIPE_S stalls the kernel itself.
#pragma once
#include <coroutine>
#include <cstdint>
#include <type_traits>

#include <pto/isa/enums.hpp>
#include <pto/isa/error.hpp>
#include <pto/isa/global_tensor.hpp>
#include <pto/isa/op.hpp>
#include <pto/isa/pipes.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>
#include <pto/runtime/source_location.hpp>

namespace pto::detail {

inline void check_flag_args(const char* fn, int src, int dst, int id) {
  auto pipe_ok = [](int p) { return is_real_pipe(p); };
  if (!pipe_ok(src))
    fail(fn, ": operand src pipe ", src, " (", pipe_name(src), ") must be one real pipe (PIPE_S, PIPE_V, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_M, PIPE_FIX)");
  if (!pipe_ok(dst))
    fail(fn, ": operand dst pipe ", dst, " (", pipe_name(dst), ") must be one real pipe (PIPE_S, PIPE_V, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_M, PIPE_FIX)");
  if (src == dst)
    fail(fn, "(", pipe_name(src), ", ", pipe_name(dst), ", ", id, "): source and destination pipe are the same; a pipe is already in order with itself (use pipe_barrier)");
  if (id < 0 || id >= kNumEventIds)
    fail(fn, "(", pipe_name(src), ", ", pipe_name(dst), ", ", id, "): operand event id ", id, " is out of range; use EVENT_ID0..EVENT_ID7");
}

inline Issue flag_issue(RecordKind kind, int src, int dst, int id, pto::source_location where) {
  check_flag_args(kind == RecordKind::SetFlag ? "set_flag" : "wait_flag", src, dst, id);
  InstrRecord rec;
  rec.desc = find_desc(kind == RecordKind::SetFlag ? Op::SET_FLAG : Op::WAIT_FLAG);
  rec.kind = kind;
  rec.flag_src = pipe_t(src);
  rec.flag_dst = pipe_t(dst);
  rec.flag_id = id;
  rec.pipe = pipe_t(kind == RecordKind::SetFlag ? src : dst);
  rec.where = where;
  return Issue(current_core(), rec);
}

}  // namespace pto::detail

// Global, like the CANN builtins they stand for. Arguments are int so that EVENT_ID0 + i works.
// The call site is kept for the synchronisation checker's messages.
inline pto::detail::Issue set_flag(int src, int dst, int id, pto::source_location where = pto::source_location::current()) {
  return pto::detail::flag_issue(pto::detail::RecordKind::SetFlag, src, dst, id, where);
}
inline pto::detail::Issue wait_flag(int src, int dst, int id, pto::source_location where = pto::source_location::current()) {
  return pto::detail::flag_issue(pto::detail::RecordKind::WaitFlag, src, dst, id, where);
}
inline pto::detail::Issue pipe_barrier(int pipe, pto::source_location where = pto::source_location::current()) {
  using namespace pto::detail;
  if (!(pipe >= 0 && pipe < pto::kNumPipeIds))
    fail("pipe_barrier: operand pipe ", pipe, " is not a pipe (PIPE_S, PIPE_V, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_M, PIPE_ALL, PIPE_FIX)");
  InstrRecord rec;
  rec.desc = pto::find_desc(pto::Op::PIPE_BARRIER);
  rec.kind = pipe == PIPE_ALL ? RecordKind::BarrierAll : RecordKind::Nop;
  rec.pipe = pipe == PIPE_ALL ? PIPE_S : pipe_t(pipe);  // one pipe is in order already: a no-op in its queue
  rec.where = where;
  return Issue(current_core(), rec);
}

namespace pto {

// TSYNC(events...): the destination pipe of each Event (the scalar pipe for a bare RecordEvent) waits
// until the event's instruction has ended. Events with one destination pipe are one wait record, so
// `co_await TSYNC(e)` works like any instruction; events for several pipes issue one record per event.
namespace detail {
template <class E>
constexpr int tsync_pipe() {
  if constexpr (requires { E::dst_op; }) {
    constexpr pipe_t p = pipe_of(E::dst_op);
    if constexpr (p != PIPE_ALL) return p;
  }
  return PIPE_S;
}

// Several destination pipes: issued at the end of the full-expression, one record per event.
struct TsyncSequence {
  template <class Awaiter = void>
  bool await_ready() const {
    static_assert(!std::is_void_v<Awaiter> && false,
                  "co_await TSYNC(events...): the events wait on different destination pipes; write one "
                  "co_await TSYNC per destination pipe");
    return true;
  }
  void await_suspend(std::coroutine_handle<>) const {}
  void await_resume() const {}
};
}  // namespace detail

template <class E0, class... E>
  requires(detail::WaitEvent<E0> && (detail::WaitEvent<E> && ...))
auto TSYNC(const E0& first, const E&... events) {
  using namespace detail;
  if constexpr (((tsync_pipe<E>() == tsync_pipe<E0>()) && ...)) {
    InstrRecord rec;
    rec.desc = find_desc(Op::WAIT_EVENT);
    rec.kind = RecordKind::Nop;
    rec.pipe = pipe_t(tsync_pipe<E0>());
    Core& core = current_core();
    add_waits(core, rec, first, events...);
    return Issue(core, rec);
  } else {
    auto one = [](const auto& e) {
      InstrRecord rec;
      rec.desc = find_desc(Op::WAIT_EVENT);
      rec.kind = RecordKind::Nop;
      rec.pipe = pipe_t(tsync_pipe<std::remove_cvref_t<decltype(e)>>());
      Core& core = current_core();
      add_waits(core, rec, e);
      Issue(core, rec).finish();
    };
    one(first);
    (one(events), ...);
    return TsyncSequence{};
  }
}

// TSYNC<Op>(): pipe_barrier on the pipe of Op.
template <Op O>
detail::Issue TSYNC() {
  static_assert(pipe_of(O) != PIPE_ALL || O == Op::PIPE_BARRIER, "TSYNC<Op>: this Op has no fixed pipe");
  return pipe_barrier(pipe_of(O));
}

// SYNCALL: a barrier across the cores of the launch, spelled as pto-isa's pto_instr.hpp declares it.
// The core first drains every pipe (pipe_barrier(PIPE_ALL), as the A2/A3 and A5 implementations do),
// then waits until every core of the launch has reached its SYNCALL; all of them go on at the same
// modeled cycle: the last arrival plus CostTable::syncall_cycles. `co_await SYNCALL()` in a coroutine
// kernel, `SYNCALL();` in a plain one. The launch's cores are vector cores (AIV): AIVOnly meets all of
// them; AICOnly is only the pipe barrier on a vector core (the cube side of it compiles away there, as on
// the chip); Mix needs cube cores, which the runtime does not emulate yet. Outside pto::launch the
// implicit core is the only core: SYNCALL drains it and pays the barrier's cost. Auto mode keeps it
// (PTO's auto build compiles it to nothing; here auto mode orders one core's pipes, never two cores).
namespace detail {
inline Issue syncall_issue(SyncCoreType type, pto::source_location where) {
  if (type == SyncCoreType::Mix)
    fail("SYNCALL<SyncCoreType::Mix>: a mixed barrier meets cube (AIC) and vector (AIV) cores, and the runtime "
         "emulates vector cores only; use SyncCoreType::AIVOnly (all cores of the launch)");
  InstrRecord rec;
  rec.desc = find_desc(Op::SYNCALL);
  rec.kind = RecordKind::SyncAll;
  rec.pipe = PIPE_S;
  rec.variant = type == SyncCoreType::AICOnly ? kSyncAllLocal : 0;
  rec.where = where;
  return Issue(current_core(), rec);
}
}  // namespace detail

template <SyncCoreType CoreType = SyncCoreType::AIVOnly>
detail::Issue SYNCALL(pto::source_location where = pto::source_location::current()) {
  return detail::syncall_issue(CoreType, where);
}

// Soft mode: on the chip a GM counter (the workspace's first int32, zeroed before first use) counts
// arrivals. The runtime's barrier needs no counter: the workspace is neither read nor written.
// `usedCores` 0 means every core of the launch; fewer participants are not supported yet.
template <SyncAllMode Mode, SyncCoreType CoreType = SyncCoreType::AIVOnly, class GlobalData,
          std::enable_if_t<is_global_tensor<std::remove_cvref_t<GlobalData>>::value, int> = 0>
detail::Issue SYNCALL(GlobalData& gmWorkspace, std::int32_t usedCores = 0,
                      pto::source_location where = pto::source_location::current()) {
  using namespace detail;
  if constexpr (Mode == SyncAllMode::Soft) {
    static_assert(std::is_same_v<typename std::remove_cvref_t<GlobalData>::DType, std::int32_t>,
                  "SYNCALL<SyncAllMode::Soft>: the GM workspace must be a GlobalTensor of int32_t (its first "
                  "element is the arrival counter)");
    if (!gmWorkspace.data())
      fail("SYNCALL<SyncAllMode::Soft>: operand gmWorkspace is a null GM pointer; soft mode needs a zeroed int32 "
           "counter in GM");
    const int cores = core_block_num(current_core());
    if (usedCores != 0 && usedCores != cores)
      fail("SYNCALL<SyncAllMode::Soft>: usedCores = ", usedCores, ", but the launch has ", cores,
           " core(s); the runtime's barrier meets every core of the launch (usedCores 0 or ", cores,
           "); a barrier of fewer cores is not supported yet");
  }
  return detail::syncall_issue(CoreType, where);
}

}  // namespace pto
