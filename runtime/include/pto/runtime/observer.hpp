// pto::Observer: watch the engine of a launch. Each emulated core is an event core that moves modeled
// time (pipes, in-order queues, flag tokens, events); everything else - the synchronisation checker,
// the timeline, stall attribution, warnings - watches it through this interface, and so can you:
//
//   struct Histogram : pto::Observer {
//     void on_retire(const pto::InstrView& v) override { ... v.name, v.end - v.start ... }
//   };
//   Histogram h;
//   cfg.observers = {&h};
//   pto::launch(cfg, kernel, args...);
//
// The calls for one core come in model order (the same under both policies): on_issue in program
// order, then on_start / on_retire as the core's pipes run, on_wait when the scalar pipe (the kernel)
// waits, on_release when a set_flag's token arrives, on_end at the kernel's end. Calls for different
// cores may come at once from different host threads: keep per-core state (on_launch says how many
// cores) or lock. on_launch runs once, on the launching thread, before any core starts; on_launch_end
// once after every core ended, when the launch succeeds (a failed launch throws instead, and a failed
// core sends no on_end). The observer must outlive the launch; an exception it throws fails the core
// that called it.
//
// A view, and what it points to (waits, idle, record), is valid only during the call: copy what you
// keep. Within a core, a set_flag's on_release comes just before its on_retire; a scalar-pipe wait
// (on_wait) that a full queue causes comes before the on_issue of the instruction it delayed. The
// runtime's own waits show too: a WaitEvents on the scalar pipe named WAIT_EVENT, issued when GM the
// kernel owns goes away while instructions still use it.
#pragma once
#include <cstdint>
#include <span>

#include <pto/isa/enums.hpp>
#include <pto/isa/pipes.hpp>

namespace pto {

struct LaunchReport;
namespace detail {
struct InstrRecord;
}

enum class Policy : std::uint8_t {
  Deterministic,  // one host thread runs each core's pipes in modeled-time order: same result every run
  Concurrent      // each pipe is an executor on a host thread pool: real overlap, same result when synchronised
};

// Why a pipe sat idle (stall attribution). The end of a kernel is an implicit pipe_barrier(PIPE_ALL).
enum class Stall : std::uint8_t {
  QueueEmpty,  // nothing issued to it yet (the scalar pipe was busy issuing, or the kernel had ended)
  Flag,        // a wait_flag waited for its set_flag (see PipeStats::flags)
  Event,       // waited for an event (WaitEvents, or an auto-mode dependency) from instruction N
  Barrier,     // the scalar pipe waited at pipe_barrier(PIPE_ALL) / a pipe waited for that barrier's issue
  QueueFull,   // the scalar pipe waited for a free slot in a full issue queue
  Drain,       // the kernel had ended: the scalar pipe waited for the pipes to finish (its implicit barrier)
  Cores        // the scalar pipe waited for other cores: at SYNCALL (and the barrier's cost), or for a cross-core
               // flag (TPUSH / TPOP / TFREE, ffts_cross_core_sync, set_intra_block)
};
inline constexpr int kNumStalls = 7;
const char* stall_name(Stall s);

// What a record is (the scalar pipe runs the sync kinds itself unless they are queued on a pipe).
enum class InstrKind : std::uint8_t {
  Compute,     // a tile instruction
  SetFlag,     // set_flag(src, dst, id)
  WaitFlag,    // wait_flag(src, dst, id)
  BarrierAll,  // pipe_barrier(PIPE_ALL)
  Nop,         // pipe_barrier(pipe), or a wait on events alone
  SyncAll      // SYNCALL
};

// Why some idle cycles passed: the cause, and for a flag its channel, for an event its instruction.
struct IdleCause {
  Stall cause = Stall::QueueEmpty;
  int flag_src = 0, flag_dst = 0, flag_id = 0;  // Stall::Flag
  std::uint64_t event_seq = 0;                  // Stall::Event: the instruction waited for ...
  const char* event_name = nullptr;             // ... and its name, when the core still knew it
  // Stall::Cores: the core (index in LaunchReport::cores) whose signal ended the wait - the set of a
  // cross-core flag, the last arrival at SYNCALL - its instruction there and that instruction's name
  // ("TPOP", "SYNCALL"); -1 when no other core did (a SYNCALL of one core).
  int from_core = -1;
  std::uint64_t from_seq = 0;
  const char* from_name = nullptr;
};

// A pipe's idle just before an instruction started, in three parts: the scalar pipe's stall while the
// instruction was not yet issued, nothing queued, and the wait that released it.
struct IdleSplit {
  std::uint64_t cycles[3] = {};
  IdleCause why[3] = {};
};

// One instruction of one core. Fields are filled as the model learns them: `issue` from on_issue,
// `start`, `token_from` and the idle fields from on_start, `end` at on_retire.
struct InstrView {
  int core = 0;                // the block index
  std::uint64_t seq = 0;       // 1, 2, ... in issue order on this core
  const char* name = "";       // "TADD", "set_flag", "wait_flag", "pipe_barrier", "SYNCALL", ...
  pipe_t pipe = PIPE_S;        // the pipe that runs it (PIPE_S: the scalar pipe runs it in program order)
  InstrKind kind = InstrKind::Compute;
  int flag_src = 0, flag_dst = 0, flag_id = 0;  // set_flag / wait_flag: the channel
  std::uint64_t issue = 0, start = 0, end = 0;  // modeled cycles
  std::span<const std::uint64_t> waits;         // instructions whose end it waited for (events, auto mode)
  std::uint64_t token_from = 0;                 // wait_flag: the set_flag whose token it consumed
  // A cross-core wait (wait_flag_dev, wait_intra_block, TPOP / TALLOC's wait) or SYNCALL: the core and
  // its instruction whose signal released it (IdleCause::from_*); -1 when no other core did.
  int from_core = -1;
  std::uint64_t from_seq = 0;
  // Its pipe's idle just before it started: in total, its main cause, and (on_start of a queued
  // instruction that waited) split by cause; null otherwise.
  std::uint64_t stall_cycles = 0;
  Stall stall = Stall::QueueEmpty;
  const IdleSplit* idle = nullptr;
  std::uint64_t bytes = 0, gm_bytes = 0;        // a transfer's bytes, and of them to or from GM (on_start)
  // For the runtime's own tools; the layout of what they point to may change between versions.
  std::uint32_t stream = ~0u;                   // the cost model's text of its intrinsic stream
  const detail::InstrRecord* record = nullptr;  // its operands and call site
};

// The scalar pipe (the kernel) waited over [from, to).
struct WaitView {
  int core = 0;
  std::uint64_t from = 0, to = 0;
  IdleCause why;
};

// A set_flag's token arrived on its channel at modeled cycle `time`: a wait_flag may now consume it.
struct ReleaseView {
  int core = 0;
  std::uint64_t seq = 0;  // the set_flag
  int flag_src = 0, flag_dst = 0, flag_id = 0;
  std::uint64_t time = 0;
};

// The kernel of one core ended and its pipes drained.
struct CoreEndView {
  int core = 0;
  std::uint64_t cycles = 0;        // the core's makespan
  std::uint64_t instructions = 0;  // everything the scalar pipe issued
  std::uint64_t scalar_end = 0;    // the scalar pipe's clock when the kernel returned
  std::uint64_t scalar_busy = 0;   // the scalar pipe's issue and compute cycles
};

struct LaunchView {
  int blocks = 1;
  Target target = Target::A2A3;
  Mode mode = Mode::Manual;
  Policy policy = Policy::Deterministic;
  bool model_only = false;
};

class Observer {
public:
  virtual ~Observer() = default;
  virtual void on_launch(const LaunchView&) {}
  virtual void on_issue(const InstrView&) {}
  virtual void on_start(const InstrView&) {}
  virtual void on_retire(const InstrView&) {}
  virtual void on_wait(const WaitView&) {}
  virtual void on_release(const ReleaseView&) {}
  virtual void on_end(const CoreEndView&) {}
  virtual void on_launch_end(const LaunchReport&) {}
};

}  // namespace pto
