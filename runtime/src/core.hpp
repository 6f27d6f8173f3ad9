// Core: one emulated AI core. It owns its buffers (UB, L1, L0A/B/C, ...: buffer_set.hpp), the flag
// channels and the pipes' in-order queues, and advances a discrete-event model of them in modeled cycles:
//  - the scalar pipe (the kernel) issues in program order, paying issue cycles;
//  - each other pipe runs its queue in order, one instruction at a time; an instruction starts when
//    its pipe is free, its waits have ended and (wait_flag) a token is there;
//  - an instruction reads its inputs at its start and its writes become visible at its end, so an
//    unsynchronised consumer sees stale bytes exactly when the hardware would.
// Ties are broken by (time, ends before starts, pipe number): the same run every time.
// The core only moves time (and runs or hands over each instruction's work). Everything that reports
// on it - stall attribution, the checker, the timeline, warnings, a user's pto::Observer - watches its
// events (observer.hpp: issue, start, retire, wait, release, end) over read-only views; the built-in
// ones are made by core_tools.hpp, which this file does not include (the engine_layering test checks it).
#pragma once
#include <array>
#include <coroutine>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <string>
#include <vector>
#include <utility>

#include <pto/backends/registry.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/cost_table.hpp>
#include <pto/runtime/kernel.hpp>
#include <pto/runtime/observer.hpp>
#include <pto/runtime/record.hpp>

#include "buffer_set.hpp"
#include "core_layout.hpp"
#include "core_tool.hpp"
#include "cost_model.hpp"
#include "gm_allocations.hpp"
#include "pipe_queue.hpp"
#include "placement.hpp"
#include "seq_table.hpp"
#include "watchdog.hpp"

namespace pto::detail {

class LaunchScheduler;  // core_scheduler.hpp
class ClusterRaces;     // cluster_races.hpp
class MemorySystem;     // memory_system.hpp

// Pipes a record can be queued on, in tie-break order (the scalar pipe is the kernel itself).
inline constexpr int kQueuedPipes[] = {PIPE_V, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_M, PIPE_FIX};

// Where the functional work of an issued instruction happens. The deterministic policy runs it inside
// the model (functional = true); the concurrent policy hands it to host executors.
class FunctionalExecutor {
public:
  virtual ~FunctionalExecutor() = default;
  virtual void submit(std::uint64_t seq, const InstrRecord& rec, const BackendKernel* kernel) = 0;
  // Blocks the calling (kernel) thread until instruction `seq` has really executed.
  virtual void wait_done(std::uint64_t seq) = 0;
  // Blocks until every submitted instruction has executed; rethrows a failure of any.
  virtual void wait_all() = 0;
  // The core failed: drop what has not started and wait for what is running (never blocks on flags).
  virtual void abandon() noexcept = 0;
  // Whether instruction `seq` has really executed (non-blocking).
  virtual bool is_done(std::uint64_t seq) = 0;
  // The core's UB, for device code paths (set once, before the first submit).
  virtual void set_ub(std::byte* ub, std::size_t bytes) = 0;
};

struct CoreOptions {
  int block_idx = 0;  // get_block_idx(): the core's block (its cluster, in a cluster launch)
  int block_num = 1;
  int core = 0;       // the core's index in the launch (the scheduler's), and its engines (core_layout.hpp)
  CoreKind kind = CoreKind::Any;
  int subblock = 0;   // get_subblockid(): 0 / 1 for a cluster's AIV0 / AIV1
  bool clusters = false;  // the launch is a cluster launch (names: "cluster 1 AIV0")
  std::uint64_t dispatched = 0;  // the modeled cycle its block started on the chip (waves): get_sys_cnt
  Target target = Target::A2A3;
  Mode mode = Mode::Manual;
  int queue_depth = 32;
  bool synchronous = false;  // implicit core of direct calls: run each instruction as it is issued
  FunctionalExecutor* executor = nullptr;  // null: execute inside the model
  bool model_only = false;                 // time the instructions, compute nothing
  bool timeline = false;                   // observers want the cost model's stream texts (InstrView::stream)
  const CostTable* costs = nullptr;        // null: default_cost_table(target)
  bool cpu_reference = false;              // CPU reference kernels even where a device code path exists
  const GmAllocations* gm = nullptr;       // the launch's sized GM arguments (bounds, names); null: none
  bool gm_sized_only = false;              // ... and there is no raw GM pointer: other GM is the kernel's own
  LaunchScheduler* scheduler = nullptr;    // the launch's cores (SYNCALL, cross-core flags); null: the only one
  std::ostream* print = nullptr;           // TPRINT's stream; null: std::cout
  std::uint64_t max_instructions = 0;      // the watchdog's caps (0: none)
  std::uint64_t max_cycles = 0;
  std::uint8_t fill = 0;                   // the byte on-chip buffers start as (LaunchConfig::fill)
  CoreBeat* beat = nullptr;                // the host watchdog's view of this core; null: none
  ClusterRaces* cluster_races = nullptr;   // a cluster launch's checker across its cluster's cores; null: none
  MemorySystem* memory = nullptr;          // the launch's L2 and HBM (CostTable::memory_system); null: off
};

class Core {
public:
  explicit Core(const CoreOptions& opt);
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;
  ~Core();

  const CoreOptions& options() const { return opt_; }
  // "core 3", "cluster 1 AIV0": how messages name this core.
  std::string label() const { return CoreLayout{opt_.block_num, opt_.clusters}.label(opt_.core); }
  // The model executes instructions' work itself (deterministic policy, not model-only).
  bool functional() const { return !opt_.executor && !opt_.model_only; }
  std::uint64_t run_id() const { return run_id_; }
  std::uint64_t issued() const { return issued_; }  // records issued so far
  // The sets whose signals the latest cross-core flag wait took (the checker orders the cores by them).
  const std::vector<SignalOrigin>& cross_sources() const { return cross_sources_; }
  // The cube's TF32 mode (Tile::SetMadTF32Mode): a RoundMode, or -1 for off. Scalar state, read at issue.
  int mad_mode = -1;
  BufferSet& buffers() { return buffers_; }
  const BufferSet& buffers() const { return buffers_; }
  // Whether a tile lies in one of the core's buffers (not in storage of its own: a direct call's tile).
  bool in_buffer(const TileView& t) const { return buffers_.locate(t.base).memory != Memory::None; }
  // Auto mode's placement of a tile never TASSIGNed (its bytes start unwritten for the tools).
  std::byte* auto_place(TileType loc, std::size_t bytes, const TileView& tile, const char* instruction, const char* operand);
  Placement& placement() { return placement_; }  // TASSIGN, the hooks of auto-placed tiles, A2/A3 scratch

  void validate(const InstrRecord& rec) const;  // waits name instructions of this core
  bool can_issue(const InstrRecord& rec) const;  // precondition: validate(rec)
  RecordEvent issue(InstrRecord& rec);           // precondition: can_issue(rec)
  RecordEvent issue_blocking(InstrRecord& rec);

  // Coroutine kernels.
  void park(InstrRecord& rec, RecordEvent& out, std::coroutine_handle<> k);
  // Resumes `top` until it finishes (true), issuing what it parks, or until it parks on a SYNCALL or a
  // cross-core flag wait that must wait for other cores (false): call drive again once the launch's
  // scheduler has released it.
  bool drive(Kernel::Handle top);

  // End of kernel: wait for every pipe to drain (an implicit pipe_barrier(PIPE_ALL)).
  void finish();
  // A failure is unwinding the kernel: stop the executor before the kernel's memory goes away.
  void abandon() noexcept;
  // Observers of this core's events, in the order they are called. Not owned.
  void attach(Observer* o) { observers_.push_back(o); }
  void attach(CoreTool* t) {
    observers_.push_back(t);
    tools_.push_back(t);
  }
  // Read-only views for the tools.
  const CostModel& cost() const { return cost_; }
  std::uint64_t scalar_time() const { return s_time_; }  // the scalar pipe's modeled clock
  std::uint64_t dropped() const { return dropped_; }  // end times of seqs <= dropped() were compacted
  const SeqTable<std::uint64_t>& pinned() const { return pinned_; }
  std::vector<std::array<int, 4>> pending_tokens() const;  // (src, dst, id, count) of unconsumed set_flags
  // A GlobalTensor goes away (its hook): GM the kernel owns that an in-flight instruction still uses is
  // waited for now, on the scalar pipe, before the memory can die with the kernel's frame.
  void gm_released(const GmView& v);
  // The kernel reached [p, p + n) of a tile through its data() (TileHooks::host_access).
  void host_access(const std::byte* p, std::size_t n) {
    for (CoreTool* t : tools_) t->host_access(p, n);
  }
  // A pto::KernelGm of this core's kernel: GM it owns, inside the bounds every GM operand must keep to.
  // Released: waited for like gm_released (its in-flight users end first), then forgotten.
  void kernel_gm_acquire(const GmAllocation& a) { kernel_gm_.push_back(a); }
  void kernel_gm_release(std::uintptr_t lo);
  void check_gm(const InstrRecord& rec) const {
    if (opt_.gm) opt_.gm->check(rec, opt_.gm_sized_only, kernel_gm_);
  }
  void note_unrecorded_event(const InstrRecord& rec, const char* event);

private:
  using Why = IdleCause;  // why a pipe was idle over an interval (stall attribution)
  void wait_for_gm_users(const ByteRange& fp);
  [[noreturn]] void runaway(const InstrRecord& rec) const;  // a watchdog cap is reached  // the scalar pipe waits for queued users of these GM bytes
  bool step();                      // process the next event; false if nothing can happen
  std::uint64_t end_time(std::uint64_t seq) const { return seq <= dropped_ ? dropped_end_time(seq) : end_ring_[seq & end_mask_]; }
  std::uint64_t dropped_end_time(std::uint64_t seq) const;  // a compacted seq: pinned, or the bound
  bool end_known(std::uint64_t seq) const { return seq > dropped_ || find_seq(pinned_, seq); }  // exact, not the bound
  std::uint64_t& end_slot(std::uint64_t seq) { return end_ring_[seq & end_mask_]; }  // precondition: dropped_ < seq <= issued_
  Why event_why(std::uint64_t seq) const {  // a wait on instruction `seq`'s event, named while in the window
    const InstrDesc* d = seq > dropped_ && seq <= issued_ ? desc_ring_[seq & end_mask_] : nullptr;
    return {Stall::Event, 0, 0, 0, seq, d ? d->name : nullptr};
  }
  // Drops the end times of retired seqs older than anything queued, pinning those that a queued
  // instruction or `issuing` (about to be queued) waits on.
  void compact_end_times(const InstrRecord& issuing);
  void make_room_for_end_time(const InstrRecord& issuing);  // the window (dropped_, issued_ + 1] fits the ring after it
  void pump_until_can_issue(const InstrRecord& rec);
  void pump_quiescent();
  bool ready_time(const Slot& s, std::uint64_t& t) const;
  void start(PipeState& p, Slot& s, std::uint64_t t);
  void end(PipeState& p, Slot& s, std::uint64_t t);
  void execute_scalar(InstrRecord& rec, std::uint64_t seq);
  // The scalar pipe's clock moving forward to `to` (observers see the wait).
  void advance_scalar(std::uint64_t to, const Why& why);
  Why cores_why(int flag_id) const;  // a wait for other cores: ended by cross_from_
  Why binding_wait(const Slot& s, std::uint64_t t, std::uint64_t token_time) const;
  void add_auto_dependencies(InstrRecord& rec);
  void unit_flag(InstrRecord& rec, std::uint64_t seq);  // the L0C unit flag (core.cpp)
  void snapshot_readers_of(const Slot& writer);
  std::uint64_t gm_priced(const InstrRecord& rec, std::uint64_t t, std::uint64_t line_cycles);  // the memory system
  void stage(Slot& s);  // run the kernel's start: copy its inputs into a pooled staging buffer
  void run_finish(Slot& s);
  // A record that waits for other cores: SYNCALL (precondition: can_issue, the model's pipes drained:
  // drains the host executor, arrives at its group's barrier) or a cross-core flag wait (first retires
  // whatever this core can, so the sets it owes others go out). True once the release time is known
  // (cross_release_), false: the core must wait.
  bool cross_begin(InstrRecord& rec, bool in_place);
  void cross_resumed();  // after the wait: the release time, or the scheduler's deadlock error
  static bool waits_for_cores(const InstrRecord& rec) {
    return rec.kind == RecordKind::SyncAll || rec.kind == RecordKind::CrossWait;
  }
  void resolve_syncall(InstrRecord& rec) const;  // the SyncCoreType to the group this core meets (kSyncAll*)
  void check_engine(const InstrRecord& rec) const;  // a cluster core has the instruction's pipe and buffers
  // A CrossSet's signal goes out; `queued`: it ran on a queued pipe (what the host executor ran first).
  void cross_set_retired(const InstrRecord& rec, std::uint64_t seq, std::uint64_t t, bool queued);
  // The scalar pipe cannot issue `blocked` (null: the end of the kernel) and no pipe can move: throws
  // a SyncError naming the stuck pipes and the kind (a wait nothing can satisfy, or a cycle of waits).
  [[noreturn]] void deadlock(const InstrRecord* blocked);
  int pipe_holding(std::uint64_t seq) const;  // the queue an unfinished instruction sits in, or -1
  InstrView view(const InstrRecord& rec, std::uint64_t seq) const;  // what observers see of a record
  InstrView slot_view(const Slot& s) const;  // ... of a queued one, started
  template <class F>
  void notify(F&& f) {
    for (Observer* o : observers_) f(*o);
  }
  TokenQueue& tokens(int src, int dst, int id) { return flags_[(src * kNumPipeIds + dst) * kNumEventIds + id]; }
  const TokenQueue& tokens(int src, int dst, int id) const { return flags_[(src * kNumPipeIds + dst) * kNumEventIds + id]; }
  static constexpr std::uint64_t kNotDone = std::numeric_limits<std::uint64_t>::max();

  CoreOptions opt_;
  CostModel cost_;
  std::vector<Observer*> observers_;  // built-in tools and the launch's observers
  std::vector<CoreTool*> tools_;      // the built-in ones again, for what only they are told
  std::uint64_t run_id_;
  BufferSet buffers_;
  Placement placement_;
  std::vector<std::unique_ptr<Staging>> staging_pool_;  // reused: a DMA instruction stages 16 KiB and more
  std::array<PipeState, kNumPipeIds> pipes_;
  std::vector<TokenQueue> flags_;  // pending set_flags per (src, dst, id)
  // End times of the seqs in (dropped_, issued_], kNotDone until retired: a power-of-two ring that doubles
  // when the window outgrows it (end_time() runs several times per model step; a deque's indexing
  // cost ~10 instructions of it).
  std::vector<std::uint64_t> end_ring_ = std::vector<std::uint64_t>(4096);
  std::uint64_t end_mask_ = 4095;
  std::vector<const InstrDesc*> desc_ring_ = std::vector<const InstrDesc*>(4096);  // beside end_ring_: who each seq is
  std::uint64_t dropped_ = 0;                     // end times of seqs <= dropped_ were compacted away
  std::uint64_t dropped_max_end_ = 0;             // ... and this bounds them (all retired)
  // Compacted seqs that queued instructions still wait on, with their exact end times, by seq (for
  // stall attribution; see compact_end_times). Before, such a seq held the window open, and one
  // long-lived event (a bias row every instruction waits on) grew the ring by 8 bytes per instruction.
  SeqTable<std::uint64_t> pinned_;
  std::vector<std::uint64_t> waited_;  // compact_end_times' scratch: the seqs queued instructions wait on
  std::uint64_t now_ = 0;                         // time of the last event the model processed
  std::uint64_t s_time_ = 0;                      // the scalar pipe's modeled clock
  // The L0C unit flag: bytes an AccPhase mad wrote (its seq) until the fixpipe reads them, then bytes the
  // fixpipe read (the read's seq) until the next AccPhase mad writes them.
  std::vector<std::pair<ByteRange, std::uint64_t>> uf_written_, uf_read_;
  std::uint64_t scalar_work_ = 0;  // cycles of the scalar pipe's compute instructions (TCI)
  std::uint64_t last_end_ = 0;
  std::uint64_t issued_ = 0;
  ScalarStall last_scalar_stall_;
  // A coroutine kernel suspended on `parked_rec_`; the driver issues it and resumes `parked_k_`.
  InstrRecord* parked_rec_ = nullptr;
  RecordEvent* parked_out_ = nullptr;
  std::coroutine_handle<> parked_k_;
  bool finished_ = false;
  // A wait for other cores (SYNCALL, a cross-core flag): the modeled cycle it ends at, once released.
  enum class CrossState : std::uint8_t { None, Waiting, Released } cross_ = CrossState::None;
  std::uint64_t cross_release_ = 0;
  SignalOrigin cross_from_;  // ... and the other core's instruction whose signal ended it
  std::vector<SignalOrigin> cross_sources_;  // ... every set a cross-core flag wait took
  std::exception_ptr deferred_;  // an error raised in a destructor hook, rethrown at the kernel's end
  std::vector<GmAllocation> kernel_gm_;  // the kernel's live pto::KernelGm buffers (arg -1)
};

// Makes `core` the calling thread's current core and returns the previous one (a fiber switching hosts).
Core* exchange_current_core(Core* core);

// Installs `core` as the calling thread's current core for the lifetime of the guard.
class CurrentCoreGuard {
public:
  explicit CurrentCoreGuard(Core* core);
  ~CurrentCoreGuard();
  CurrentCoreGuard(const CurrentCoreGuard&) = delete;
  CurrentCoreGuard& operator=(const CurrentCoreGuard&) = delete;

private:
  Core* previous_;
};

}  // namespace pto::detail
