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

// Cross-core flags, spelled as the CANN builtins (pto-isa's TPUSH / TPOP / SYNCALL are built on them).
// A2/A3's FFTS: ffts_cross_core_sync(pipe, config) is queued on `pipe` and, once the pipe has run what
// was queued before it, counts up flag (config >> 8) & 0xF on other cores, by the mode in bits 4-5 of
// config: 0 every core of its kind in the launch (once all of them have set it), 1 its cluster's cores
// of its kind (the AIV pair), 2 the other side of its cluster (the AIC's set reaches both AIVs; the AIVs'
// sets reach the AIC once both have set). wait_flag_dev(id) stalls the scalar pipe until this core's flag
// counts, and takes one. A5's set_intra_block(pipe, id) / wait_intra_block(pipe, id) pair one AIC with
// one AIV: the AIC addresses AIV0 as id and AIV1 as id + 16, and sees their sets the same way.
// A core waits for another by suspending, as at a SYNCALL: `co_await wait_flag_dev(id)` in a coroutine.
namespace pto::detail {
inline Issue cross_set_issue(Op op, int pipe, int mode, int id, pto::source_location where) {
  const char* fn = find_desc(op)->name;
  if (!is_real_pipe(pipe))
    fail(fn, ": operand pipe ", pipe, " (", pipe_name(pipe), ") must be one real pipe (PIPE_S, PIPE_V, PIPE_MTE1, "
         "PIPE_MTE2, PIPE_MTE3, PIPE_M, PIPE_FIX)");
  Core& core = current_core();
  InstrRecord rec;
  rec.desc = find_desc(op);
  rec.kind = RecordKind::CrossSet;
  rec.pipe = pipe_t(pipe);
  rec.flag_src = pipe_t(mode);
  rec.flag_id = id;
  rec.where = where;
  return Issue(core, rec);
}
inline Issue cross_wait_issue(Op op, int id, pto::source_location where) {
  InstrRecord rec;
  rec.desc = find_desc(op);
  rec.kind = RecordKind::CrossWait;
  rec.pipe = PIPE_S;
  rec.flag_id = id;
  rec.variant = op == Op::WAIT_INTRA_BLOCK ? kCrossWaitIntra : 0;
  rec.where = where;
  return Issue(current_core(), rec);
}
inline void check_intra_block(const char* fn, int id) {
  Core& core = current_core();
  if (core_target(core) != Target::A5)
    fail(fn, ": an A5 instruction (A2/A3 cores sync across cores through FFTS: ffts_cross_core_sync / "
         "wait_flag_dev); launch with target A5");
  const int ids = core_kind(core) == CoreKind::Cube ? 32 : 16;
  if (id < 0 || id >= ids)
    fail(fn, ": operand id ", id, " is out of range on ", core_kind(core) == CoreKind::Cube ? "a cube core" : "a vector core",
         " (0 to ", ids - 1, core_kind(core) == CoreKind::Cube ? "; id + 16 addresses AIV1)" : ")");
}
}  // namespace pto::detail

inline pto::detail::Issue ffts_cross_core_sync(int pipe, std::uint64_t config,
                                               pto::source_location where = pto::source_location::current()) {
  const int mode = int((config >> 4) & 0x3);
  if (mode == 3)
    pto::detail::fail("ffts_cross_core_sync: config ", config, " has mode 3 (bits 4-5); the modes "
                      "are 0 (all cores of its kind), 1 (the AIVs of its cluster) and 2 (AIC <-> AIVs of its cluster)");
  return pto::detail::cross_set_issue(pto::Op::FFTS_SYNC, pipe, mode, int((config >> 8) & 0xF), where);
}
inline pto::detail::Issue wait_flag_dev(std::int64_t flagId, pto::source_location where = pto::source_location::current()) {
  if (flagId < 0 || flagId > 15) pto::detail::fail("wait_flag_dev: operand flagId ", flagId, " is out of range (0 to 15)");
  return pto::detail::cross_wait_issue(pto::Op::WAIT_FLAG_DEV, int(flagId), where);
}
// A5's form names the pipe; the runtime stalls the scalar pipe either way.
inline pto::detail::Issue wait_flag_dev(int pipe, std::int64_t flagId, pto::source_location where = pto::source_location::current()) {
  (void)pipe;
  return wait_flag_dev(flagId, where);
}
// The FFTS control block's address: the chip's flags need it; the runtime's do not (accepted and ignored).
inline void set_ffts_base_addr(std::uint64_t) {}
inline pto::detail::Issue set_intra_block(int pipe, int id, pto::source_location where = pto::source_location::current()) {
  pto::detail::check_intra_block("set_intra_block", id);
  return pto::detail::cross_set_issue(pto::Op::SET_INTRA_BLOCK, pipe, pto::detail::kCrossIntra, id, where);
}
// The runtime stalls the scalar pipe (the chip stalls `pipe`; later instructions of other pipes would go
// on there: a pessimistic model, docs/clusters.md).
inline pto::detail::Issue wait_intra_block(int pipe, int id, pto::source_location where = pto::source_location::current()) {
  (void)pipe;
  pto::detail::check_intra_block("wait_intra_block", id);
  return pto::detail::cross_wait_issue(pto::Op::WAIT_INTRA_BLOCK, id, where);
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
  InstrRecord rec;
  rec.desc = find_desc(Op::SYNCALL);
  rec.kind = RecordKind::SyncAll;
  rec.pipe = PIPE_S;
  rec.variant = std::uint8_t(type);  // the core resolves it (record.hpp, kSyncAll*)
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
