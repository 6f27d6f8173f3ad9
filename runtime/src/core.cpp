// Core: the issue side (scalar pipe), the discrete-event model of the other pipes, copy-on-write
// snapshots, auto-mode dependencies and the A2/A3 scratch bookkeeping. See core.hpp for the model.
#include "core.hpp"
#include "memory_system.hpp"

#include <algorithm>
#include <exception>
#include <utility>
#include <atomic>
#include <cstring>
#include <sstream>

#include <pto/common/constants.hpp>
#include <pto/isa/buffers.hpp>
#include <pto/isa/error.hpp>

#include "core_scheduler.hpp"
#include "cost_model.hpp"
#include "describe.hpp"
#include "registry.hpp"
#include "spans.hpp"

namespace pto::detail {

namespace {
std::atomic<std::uint64_t> g_next_run_id{1};

// Bounding boxes of what a record reads or writes: conservative, for overlap tests and auto mode.
template <class Pred>
int boxes_of(const InstrRecord& rec, bool write, Pred pred, ByteRange* out) {
  int n = 0;
  for (int i = 0; i < rec.nops; ++i)
    if (pred(rec.ops[i])) out[n++] = rec.ops[i].footprint(write);
  return n;
}
int reads_of(const InstrRecord& r, ByteRange* out) { return boxes_of(r, false, [](const Operand& o) { return o.reads(); }, out); }
int writes_of(const InstrRecord& r, ByteRange* out) { return boxes_of(r, true, [](const Operand& o) { return o.writes(); }, out); }
bool any_overlap(const ByteRange* a, int na, const ByteRange* b, int nb) {
  for (int i = 0; i < na; ++i)
    for (int j = 0; j < nb; ++j)
      if (a[i].overlaps(b[j])) return true;
  return false;
}

// The exact contiguous spans (one per valid line of a tile) a record reads or writes, for snapshots:
// restoring a bounding box would also restore bytes of other tiles interleaved with this one. GM is
// staged by the DMA kernels, never snapshotted.
template <class F>
void for_each_span(const InstrRecord& rec, bool write, F&& f) {
  for_each_tile_span(rec, write, false, f);
}
void save_spans(const InstrRecord& rec, bool write, std::vector<std::byte>& into) {
  for_each_span(rec, write, [&](ByteRange r) {
    const auto* b = reinterpret_cast<const std::byte*>(r.lo);
    into.insert(into.end(), b, b + r.size());
  });
}
void load_spans(const InstrRecord& rec, bool write, const std::vector<std::byte>& from) {
  std::size_t off = 0;
  for_each_span(rec, write, [&](ByteRange r) {
    std::memcpy(reinterpret_cast<std::byte*>(r.lo), from.data() + off, r.size());
    off += r.size();
  });
}
}  // namespace

// ---------------------------------------------------------------------------------------------------
Core::Core(const CoreOptions& opt)
    : opt_(opt),
      cost_(opt.costs ? *opt.costs : default_cost_table(opt.target), opt.block_num, opt.target, !opt.cpu_reference),
      run_id_(g_next_run_id.fetch_add(1)), buffers_(opt.target, opt.fill),
      placement_(buffers_, opt.target, opt.mode, opt.synchronous), flags_(std::size_t(kNumPipeIds) * kNumPipeIds * kNumEventIds) {
  cost_.set_ub(buffers_.ub(), buffers_.ub_bytes());
  if (opt_.executor) opt_.executor->set_ub(buffers_.ub(), buffers_.ub_bytes());
  for (int p : kQueuedPipes) pipes_[p].queue.reserve(std::size_t(opt_.queue_depth));
}

static_assert(int(InstrKind::Compute) == int(RecordKind::Compute) && int(InstrKind::SetFlag) == int(RecordKind::SetFlag) &&
                  int(InstrKind::WaitFlag) == int(RecordKind::WaitFlag) &&
                  int(InstrKind::BarrierAll) == int(RecordKind::BarrierAll) && int(InstrKind::Nop) == int(RecordKind::Nop) &&
                  int(InstrKind::SyncAll) == int(RecordKind::SyncAll),
              "InstrKind (observer.hpp) mirrors RecordKind (record.hpp)");

InstrView Core::view(const InstrRecord& rec, std::uint64_t seq) const {
  InstrView v;
  v.core = opt_.core;
  v.seq = seq;
  v.name = record_name(rec);
  v.pipe = rec.pipe;
  v.kind = InstrKind(rec.kind);
  v.flag_src = rec.flag_src;
  v.flag_dst = rec.flag_dst;
  v.flag_id = rec.flag_id;
  v.waits = {rec.waits, rec.nwaits};
  v.record = &rec;
  return v;
}

InstrView Core::slot_view(const Slot& s) const {
  InstrView v = view(s.rec, s.seq);
  v.issue = s.issue_time;
  v.start = s.start;
  v.end = s.end;
  v.token_from = s.token_from;
  v.stall = s.stall;
  v.stall_cycles = s.stall_cycles;
  v.stream = s.intrinsics;
  return v;
}

std::vector<std::array<int, 4>> Core::pending_tokens() const {
  std::vector<std::array<int, 4>> pending;
  for (int src = 0; src < kNumPipeIds; ++src)
    for (int dst = 0; dst < kNumPipeIds; ++dst)
      for (int id = 0; id < kNumEventIds; ++id)
        if (!tokens(src, dst, id).empty()) pending.push_back({src, dst, id, int(tokens(src, dst, id).size())});
  return pending;
}

Core::~Core() = default;

std::byte* Core::auto_place(TileType loc, std::size_t bytes, const TileView& tile, const char* instruction,
                            const char* operand) {
  std::byte* const at = placement_.auto_place(loc, bytes, tile, instruction, operand);
  for (CoreTool* t : tools_) t->placed(at, bytes);
  return at;
}

// ---------------------------------------------------------------------------------------------------
// Issue side (the scalar pipe).

bool Core::can_issue(const InstrRecord& rec) const {
  if (rec.pipe != PIPE_S) return pipes_[rec.pipe].queue.size() < std::size_t(opt_.queue_depth);
  switch (rec.kind) {
    case RecordKind::WaitFlag: return !tokens(rec.flag_src, rec.flag_dst, rec.flag_id).empty();
    case RecordKind::BarrierAll:
    case RecordKind::SyncAll:
      return std::all_of(std::begin(kQueuedPipes), std::end(kQueuedPipes), [&](int p) { return pipes_[p].queue.empty(); });
    default:
      for (int i = 0; i < rec.nwaits; ++i)
        if (end_time(rec.waits[i]) == kNotDone) return false;
      return true;
  }
}

// A cluster's cores have the engines of their kind only (CoreKind): the AIC the cube's pipes and buffers,
// an AIV the vector unit and UB. An instruction of the other kind is the other compilation's (the
// source's __DAV_CUBE__ / __DAV_VEC__ sides): on the chip it would not be in this core's binary at all.
void Core::check_engine(const InstrRecord& rec) const {
  const bool cube = opt_.kind == CoreKind::Cube;
  const bool pipe_ok = cube ? rec.pipe != PIPE_V && rec.pipe != PIPE_MTE3 : rec.pipe != PIPE_MTE1 && rec.pipe != PIPE_M && rec.pipe != PIPE_FIX;
  std::string buffer;
  for (int i = 0; i < rec.nops && buffer.empty(); ++i)
    if (rec.ops[i].kind == Operand::Kind::Tile && (rec.ops[i].tile.loc == TileType::Vec) == cube)
      buffer = std::string("buffer for ") + name_of(rec.ops[i].tile.loc) + " tiles (operand " + std::to_string(i) + ")";
  if (pipe_ok && buffer.empty()) return;
  fail(rec.desc->name, ": ", label(), " is a ", cube ? "cube core (AIC)" : "vector core (AIV)", ", which has no ",
       !buffer.empty() ? buffer : pipe_name(rec.pipe), "; ", rec.desc->name, " on ", !buffer.empty() ? "that buffer" : pipe_name(rec.pipe),
       " runs on the ", cube ? "vector cores: put it on the __DAV_VEC__ side of the kernel (or the AIV kernel of "
       "pto::launch_mix)" : "cube core: put it on the __DAV_CUBE__ side of the kernel (or the AIC kernel of pto::launch_mix)");
}

void Core::validate(const InstrRecord& rec) const {
  for (int i = 0; i < rec.nwaits; ++i)
    if (rec.waits[i] == 0 || rec.waits[i] > issued_)
      fail(rec.desc ? rec.desc->name : "instruction", ": a wait event does not name an instruction issued on this core");
}

RecordEvent Core::issue(InstrRecord& rec) {
  if (rec.kind == RecordKind::Compute) check_gm(rec);  // sized GM arguments: bounds
  if (opt_.kind != CoreKind::Any && (rec.kind == RecordKind::Compute || rec.kind == RecordKind::CrossSet)) check_engine(rec);
  if ((opt_.max_instructions && issued_ >= opt_.max_instructions) || (opt_.max_cycles && s_time_ > opt_.max_cycles))
    runaway(rec);
  if (opt_.beat) opt_.beat->beat(issued_ + 1, rec.desc);
  const bool auto_deps = opt_.mode == Mode::Auto && rec.kind == RecordKind::Compute;
  if (auto_deps) {
    add_auto_dependencies(rec);
    // A compute instruction of the scalar pipe (TCI) runs at issue: what it waits for in the queued pipes
    // (an earlier TLOAD into the same bytes, say) must have run first, or it would overwrite TCI's result.
    if (rec.pipe == PIPE_S) pump_until_can_issue(rec);
  }
  if (issued_ + 1 - dropped_ > end_ring_.size()) make_room_for_end_time(rec);
  const std::uint64_t seq = ++issued_;
  end_slot(seq) = kNotDone;
  desc_ring_[seq & end_mask_] = rec.desc;
  if (rec.kind == RecordKind::Compute && !opt_.cpu_reference) {  // the device path's writes past the valid region
    const std::string w = declare_device_writes(rec, opt_.target, buffers_.ub(), buffers_.ub_bytes());
    if (!w.empty())
      for (CoreTool* t : tools_) t->warning(seq, w);
  }
  if (rec.unit_flag || (rec.pipe == PIPE_FIX && !uf_written_.empty())) unit_flag(rec, seq);
  const std::uint64_t issue_time = s_time_;
  s_time_ += cost_.table().scalar_issue_cycles;
  if (!observers_.empty()) {
    InstrView v = view(rec, seq);
    v.issue = issue_time;
    notify([&](Observer& o) { o.on_issue(v); });
  }

  if (rec.pipe == PIPE_S) {
    execute_scalar(rec, seq);
    if (opt_.executor) opt_.executor->submit(seq, rec, nullptr);  // a scalar set_flag feeds real waits
  } else {
    const BackendKernel* kernel = nullptr;
    // Model-only runs compute nothing, so they need no kernel.
    if (rec.kind == RecordKind::Compute && !opt_.model_only)
      kernel = &backend_kernel(rec, opt_.target, !opt_.cpu_reference, buffers_.ub(), buffers_.ub_bytes());
    PipeState& p = pipes_[rec.pipe];
    Slot& s = p.queue.push();
    copy_used(s.rec, rec);
    s.seq = seq;
    s.issue_time = issue_time;
    s.issue_stall = last_scalar_stall_;
    s.kernel = kernel;
    if (opt_.executor) opt_.executor->submit(seq, rec, kernel);
  }
  if (opt_.synchronous) {
    pump_quiescent();
    advance_scalar(now_, {Stall::Barrier});  // the direct call returns when its instruction has run
    // A direct call runs in program order: a pipe still blocked now waits for a set_flag that was not
    // issued before it, which the CPU simulator's program order could never satisfy either.
    for (int p : kQueuedPipes)
      if (!pipes_[p].queue.empty()) {
        const std::string stuck = describe(pipes_[p].queue.front().rec);
        for (int q : kQueuedPipes) pipes_[q].queue.clear();
        fail(stuck, " on ", pipe_name(p), ": in a direct call (the implicit core runs each instruction as it is "
             "issued) no earlier set_flag satisfies it; issue the matching set_flag first, or run the kernel "
             "through pto::launch");
      }
  }
  return {run_id_, seq};
}

void Core::execute_scalar(InstrRecord& rec, std::uint64_t seq) {
  const std::uint64_t issue_start = s_time_ - cost_.table().scalar_issue_cycles;
  const std::uint64_t before = s_time_;
  Stall stall = Stall::QueueEmpty;
  std::uint64_t token_from = 0;
  switch (rec.kind) {
    case RecordKind::SetFlag:
      tokens(rec.flag_src, rec.flag_dst, rec.flag_id).push_back({s_time_, seq});
      if (!observers_.empty()) {
        const ReleaseView r{opt_.core, seq, rec.flag_src, rec.flag_dst, rec.flag_id, s_time_};
        notify([&](Observer& o) { o.on_release(r); });
      }
      break;
    case RecordKind::WaitFlag: {
      auto& q = tokens(rec.flag_src, rec.flag_dst, rec.flag_id);
      const Token tok = q.front();
      q.pop_front();
      token_from = tok.seq;
      stall = Stall::Flag;
      advance_scalar(tok.time, {Stall::Flag, rec.flag_src, rec.flag_dst, rec.flag_id});
      if (opt_.executor) opt_.executor->wait_done(tok.seq);  // the real set_flag must have run too
      break;
    }
    case RecordKind::CrossSet:  // on the scalar pipe: it goes out now (no queued pipe to wait for), once
      s_time_ += cost_.table().cross_set_cycles;  // the observers (the checker) have seen it start
      break;
    case RecordKind::BarrierAll:
      stall = Stall::Barrier;
      advance_scalar(last_end_, {Stall::Barrier});
      if (opt_.executor) opt_.executor->wait_all();
      break;
    case RecordKind::SyncAll:  // cross_begin drained the executor and knows the release
      stall = Stall::Barrier;
      advance_scalar(last_end_, {Stall::Barrier});
      if (cross_release_ > s_time_) stall = Stall::Cores;
      advance_scalar(cross_release_, cores_why(0));
      cross_ = CrossState::None;
      break;
    case RecordKind::CrossWait:  // cross_begin took the signal: it reached this core at cross_release_
      stall = Stall::Cores;
      advance_scalar(cross_release_, cores_why(rec.flag_id));
      cross_ = CrossState::None;
      break;
    default:
      stall = Stall::Event;
      for (int i = 0; i < rec.nwaits; ++i) {
        advance_scalar(end_time(rec.waits[i]), event_why(rec.waits[i]));
        if (opt_.executor) opt_.executor->wait_done(rec.waits[i]);
      }
      // A compute instruction of the scalar pipe (TCI): it runs here, in program order, for the cycles
      // of its stream. Its UB writes are visible to everything issued after it; in auto mode issue() has
      // run what it depends on first; in manual mode what is still running on another pipe is the
      // kernel's to order (the checker sees these writes like any other).
      if (rec.kind == RecordKind::Compute) {
        const std::uint64_t work = cost_.cycles(rec, nullptr);
        s_time_ += work;
        scalar_work_ += work;
        if (!opt_.model_only) {
          ExecContext ctx = make_context(rec, opt_.target, buffers_.ub(), buffers_.ub_bytes(), nullptr);
          backend_kernel(rec, opt_.target, !opt_.cpu_reference, buffers_.ub(), buffers_.ub_bytes()).finish(ctx);
        }
      }
      break;
  }
  end_slot(seq) = s_time_;
  last_end_ = std::max(last_end_, s_time_);
  if (!observers_.empty()) {
    InstrView v = view(rec, seq);
    v.issue = v.start = issue_start;
    v.end = s_time_;
    v.token_from = token_from;
    if (rec.kind == RecordKind::SyncAll || rec.kind == RecordKind::CrossWait) {
      v.from_core = cross_from_.core;
      v.from_seq = cross_from_.seq;
    }
    v.stall = stall;
    v.stall_cycles = s_time_ - before;
    notify([&](Observer& o) { o.on_start(v); });
    notify([&](Observer& o) { o.on_retire(v); });
  }
  if (rec.kind == RecordKind::CrossSet) cross_set_retired(rec, seq, s_time_, false);
}

Core::Why Core::cores_why(int flag_id) const {
  Why why{Stall::Cores, 0, 0, flag_id};
  why.from_core = cross_from_.core;
  why.from_seq = cross_from_.seq;
  why.from_name = cross_from_.name;
  return why;
}

void Core::advance_scalar(std::uint64_t to, const Why& why) {
  if (to <= s_time_) return;
  if (!observers_.empty()) {
    const WaitView w{opt_.core, s_time_, to, why};
    notify([&](Observer& o) { o.on_wait(w); });
  }
  last_scalar_stall_ = {s_time_, to, why};
  s_time_ = to;
}

// What held instruction `s` until `t`, once its pipe was free and it was issued: its token, or an event.
Core::Why Core::binding_wait(const Slot& s, std::uint64_t t, std::uint64_t token_time) const {
  if (s.rec.kind == RecordKind::WaitFlag && token_time == t) return {Stall::Flag, s.rec.flag_src, s.rec.flag_dst, s.rec.flag_id};
  for (int i = 0; i < s.rec.nwaits; ++i)  // a compacted, unpinned event ended long before: not it
    if (end_time(s.rec.waits[i]) == t && end_known(s.rec.waits[i])) return event_why(s.rec.waits[i]);
  if (s.rec.kind == RecordKind::WaitFlag) return {Stall::Flag, s.rec.flag_src, s.rec.flag_dst, s.rec.flag_id};
  return {Stall::QueueEmpty};
}

RecordEvent Core::issue_blocking(InstrRecord& rec) {
  pump_until_can_issue(rec);
  if (waits_for_cores(rec) && cross_ != CrossState::Released) {
    // A plain kernel waits in place: on its fiber, or on a host thread of its own. A coroutine kernel
    // waits only by suspending (Core::drive), so a wait it did not co_await cannot wait.
    if (opt_.scheduler && opt_.scheduler->coroutines())
      fail(rec.desc->name, ": in a coroutine kernel it must be co_awaited (`co_await ", rec.desc->name,
           "(...);`, and TPOP / TALLOC / TPUSH the same): a coroutine core waits for the other cores only where it "
           "suspends");
    if (!cross_begin(rec, true)) {
      opt_.scheduler->wait(opt_.core);
      cross_resumed();
    }
  }
  return issue(rec);
}

void Core::runaway(const InstrRecord& rec) const {
  const bool instructions = opt_.max_instructions && issued_ >= opt_.max_instructions;
  fail("watchdog: ", label(), " ", instructions ? "issued " : "reached modeled cycle ",
       instructions ? issued_ : s_time_, instructions ? " instructions" : "", ", the launch's cap (",
       instructions ? "LaunchConfig::max_instructions, PTO_MAX_INSTRUCTIONS" : "LaunchConfig::max_cycles, PTO_MAX_CYCLES",
       "; 0 turns it off): a kernel that never ends? It was issuing ", describe(rec), " (instruction #", issued_ + 1,
       ")");
}

void Core::resolve_syncall(InstrRecord& rec) const {
  if (rec.kind != RecordKind::SyncAll) return;
  if (rec.variant == kSyncAllMix && opt_.kind == CoreKind::Any)
    fail("SYNCALL<SyncCoreType::Mix>: a mixed barrier meets the cube (AIC) and vector (AIV) cores of clusters; this "
         "launch has no clusters (launch the kernel with pto::launch_mix, or use SyncCoreType::AIVOnly: every core "
         "of the launch)");
  if (opt_.kind == CoreKind::Cube && rec.variant == kSyncAllVector) rec.variant = kSyncAllLocalCube;
  if (opt_.kind == CoreKind::Cube && rec.variant == kSyncAllLocal) rec.variant = kSyncAllCube;
}

bool Core::cross_begin(InstrRecord& rec, bool in_place) {
  if (rec.kind == RecordKind::CrossWait) {
    if (!opt_.scheduler)
      fail(rec.desc->name, "(", rec.flag_id, ") outside pto::launch: a cross-core flag is set by another core, and a "
           "direct call has one core; launch the kernel (pto::launch_mix for a cluster)");
    pump_quiescent();  // the sets this core owes go out first: the other side may be waiting for them
    const int second = rec.variant & kCrossWaitPair ? rec.flag_id + 16 : -1;
    if (!opt_.scheduler->flag_wait(opt_.core, rec.flag_id, second, s_time_ + cost_.table().scalar_issue_cycles, in_place, describe(rec) + call_site(rec))) {
      cross_ = CrossState::Waiting;
      if (opt_.beat) opt_.beat->state.store(CoreBeat::Waiting, std::memory_order_relaxed);
      return false;
    }
    cross_release_ = opt_.scheduler->released_at(opt_.core);
    cross_from_ = opt_.scheduler->released_by(opt_.core);
    cross_sources_ = opt_.scheduler->released_sources(opt_.core);
    cross_ = CrossState::Released;
    return true;
  }
  resolve_syncall(rec);
  // The real pipes too: GM a TSTORE wrote before the barrier is there before any core goes on.
  if (opt_.executor) opt_.executor->wait_all();
  const std::uint64_t arrival = std::max(s_time_ + cost_.table().scalar_issue_cycles, last_end_);
  const bool local = !syncall_meets(rec.variant) || !opt_.scheduler;
  const std::uint64_t cost = syncall_meets(rec.variant) ? cost_.table().syncall_cycles : 0;
  const BarrierGroup group = rec.variant == kSyncAllMix    ? BarrierGroup::All
                             : rec.variant == kSyncAllCube ? BarrierGroup::Cube
                                                           : BarrierGroup::Vector;
  if (local) {
    cross_release_ = arrival + cost;
    cross_from_ = {};
  } else if (!opt_.scheduler->arrive(opt_.core, group, arrival, cost, in_place, issued_ + 1)) {
    cross_ = CrossState::Waiting;
    if (opt_.beat) opt_.beat->state.store(CoreBeat::Waiting, std::memory_order_relaxed);
    return false;
  } else {
    cross_release_ = opt_.scheduler->released_at(opt_.core);
    cross_from_ = opt_.scheduler->released_by(opt_.core);
  }
  cross_ = CrossState::Released;
  return true;
}

void Core::cross_resumed() {
  if (opt_.beat) opt_.beat->state.store(CoreBeat::Running, std::memory_order_relaxed);
  cross_release_ = opt_.scheduler->released_at(opt_.core);  // throws the deadlock error
  cross_from_ = opt_.scheduler->released_by(opt_.core);
  cross_sources_ = opt_.scheduler->released_sources(opt_.core);
  cross_ = CrossState::Released;
}

// The set goes out when its pipe retires it (after everything queued before it there), and reaches the
// other cores cross_delivery_cycles later. Under the concurrent policy the host executor first runs
// what the model retired, so the other core reads what this one wrote (`seq` 0: a set on the scalar
// pipe, which orders nothing queued; a pipe_barrier before it does).
void Core::cross_set_retired(const InstrRecord& rec, std::uint64_t seq, std::uint64_t t, bool queued) {
  if (!opt_.scheduler)
    fail(describe(rec), " outside pto::launch: a cross-core flag goes to other cores, and a direct call has one "
         "core; launch the kernel (pto::launch_mix for a cluster)");
  if (opt_.executor && queued) opt_.executor->wait_done(seq);
  opt_.scheduler->flag_set(opt_.core, rec.flag_src, rec.flag_id, t + cost_.table().cross_delivery_cycles,
                           {opt_.core, seq, rec.desc ? rec.desc->name : "ffts_cross_core_sync"});
}

void Core::park(InstrRecord& rec, RecordEvent& out, std::coroutine_handle<> k) {
  parked_rec_ = &rec;
  parked_out_ = &out;
  parked_k_ = k;
}

bool Core::drive(Kernel::Handle top) {
  std::coroutine_handle<> next = top;
  bool resumed = cross_ == CrossState::Waiting;  // called again after a wait for other cores
  for (;;) {
    if (!resumed) {
      next.resume();
      if (top.done()) break;
      if (!parked_rec_)
        fail(label(), ": the kernel suspended on an awaitable that is not a PTO instruction; "
             "a pto::Kernel may co_await only PTO instructions, sync operations and other pto::Kernels");
      if (waits_for_cores(*parked_rec_)) {
        pump_until_can_issue(*parked_rec_);
        // On a fiber (a lockstep launch) the core waits where it stands; else parked_* stay and the
        // scheduler runs other cores until it calls drive again.
        const bool in_place = opt_.scheduler && opt_.scheduler->can_wait_in_place(opt_.core);
        if (!cross_begin(*parked_rec_, in_place)) {
          if (!in_place) return false;
          opt_.scheduler->wait(opt_.core);
          cross_resumed();
        }
      }
    } else {
      resumed = false;
      cross_resumed();
    }
    InstrRecord* rec = std::exchange(parked_rec_, nullptr);
    RecordEvent* out = std::exchange(parked_out_, nullptr);
    next = std::exchange(parked_k_, {});
    *out = issue_blocking(*rec);
  }
  if (top.promise().error) std::rethrow_exception(top.promise().error);
  return true;
}

// ---------------------------------------------------------------------------------------------------
// The model.

bool Core::ready_time(const Slot& s, std::uint64_t& t) const {
  t = std::max(pipes_[s.rec.pipe].free_at, s.issue_time);
  for (int i = 0; i < s.rec.nwaits; ++i) {
    const std::uint64_t e = end_time(s.rec.waits[i]);
    if (e == kNotDone) return false;
    t = std::max(t, e);
  }
  if (s.rec.kind == RecordKind::WaitFlag) {
    const auto& q = tokens(s.rec.flag_src, s.rec.flag_dst, s.rec.flag_id);
    if (q.empty()) return false;
    t = std::max(t, q.front().time);
  }
  return true;
}

bool Core::step() {
  // The next event is the least (time, phase) key, phase 0 = an end, 1 = a start; the first pipe in
  // kQueuedPipes wins a tie (one comparison of time * 2 + phase).
  std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
  int best_pipe = -1;
  for (int p : kQueuedPipes) {
    const PipeState& ps = pipes_[p];
    if (ps.queue.empty()) continue;
    const Slot& head = ps.queue.front();
    std::uint64_t key;
    if (head.running) {
      key = head.end << 1;
    } else {
      if (!ready_time(head, key)) continue;
      key = key << 1 | 1;
    }
    if (key < best) best = key, best_pipe = p;
  }
  if (best_pipe < 0) return false;
  const std::uint64_t t = best >> 1;
  now_ = t;
  PipeState& ps = pipes_[best_pipe];
  if (best & 1) start(ps, ps.queue.front(), t);
  else end(ps, ps.queue.front(), t);
  return true;
}

void Core::start(PipeState& p, Slot& s, std::uint64_t t) {
  s.running = true;
  s.start = t;
  std::uint64_t token_time = 0;
  if (s.rec.kind == RecordKind::WaitFlag) {
    auto& q = tokens(s.rec.flag_src, s.rec.flag_dst, s.rec.flag_id);
    s.token_from = q.front().seq;
    token_time = q.front().time;
    q.pop_front();
  }
  // Stall attribution of the pipe's idle [free_at, t): not issued yet (the part the scalar pipe spent
  // stalled takes that stall's cause), then the wait that released it.
  IdleSplit split;
  s.stall_cycles = t - std::min(t, p.free_at);
  if (s.stall_cycles) {
    const std::uint64_t f = p.free_at, a = std::min(t, std::max(f, s.issue_time));
    const ScalarStall& st = s.issue_stall;
    const std::uint64_t lo = std::max(f, st.from), hi = std::min(a, st.to);
    const std::uint64_t stalled = hi > lo ? hi - lo : 0;
    const Why held = binding_wait(s, t, token_time);
    const std::uint64_t parts[] = {stalled, a - f - stalled, t - a};
    const Why causes[] = {st.why, {Stall::QueueEmpty}, held};
    s.stall = causes[std::max_element(parts, parts + 3) - parts].cause;
    std::copy_n(parts, 3, split.cycles);
    std::copy_n(causes, 3, split.why);
  }
  std::uint64_t cycles = cost_.cycles(s.rec, opt_.timeline ? &s.intrinsics : nullptr);
  if (opt_.memory && cost_.moved_gm_bytes()) cycles = gm_priced(s.rec, t, cycles);
  s.end = t + cycles + (s.rec.kind == RecordKind::CrossSet ? cost_.table().cross_set_cycles : 0);
  if (s.end >= kModelTimeLimit)
    fail("pipeline model: ", describe(s.rec), " would end at modeled cycle ", s.end, ", past the model's limit of 2^62 "
         "cycles (a what-if cost table with enormous costs?)");
  if (!observers_.empty()) {
    InstrView v = slot_view(s);
    if (s.stall_cycles) v.idle = &split;
    if (s.rec.pipe != PIPE_V) {  // V's UB copies are part of its vector work
      v.bytes = cost_.moved_bytes();
      v.gm_bytes = cost_.moved_gm_bytes();
    }
    // A kernel with both `start` and `direct` stages only if someone overwrites its inputs meanwhile.
    if (functional() && s.kernel && s.kernel->start && !s.kernel->direct) stage(s);
    notify([&](Observer& o) { o.on_start(v); });
    return;
  }
  if (functional() && s.kernel && s.kernel->start && !s.kernel->direct) stage(s);
}

// A GM transfer through the launch's memory system: priced once the cores that could start one earlier
// have (the scheduler's turn), from what L2 holds and the HBM transfers in flight, on the launch's clock.
std::uint64_t Core::gm_priced(const InstrRecord& rec, std::uint64_t t, std::uint64_t line_cycles) {
  const std::uint64_t at = opt_.dispatched + t;
  const int others = opt_.scheduler ? opt_.scheduler->await_turn(opt_.core, at) : 0;
  return opt_.memory->price(rec, at, line_cycles, cost_.moved_gm_bytes(), cost_.gm_line_rate(), others);
}

void Core::stage(Slot& s) {
  if (staging_pool_.empty()) staging_pool_.push_back(std::make_unique<Staging>());
  s.staging = std::move(staging_pool_.back());
  staging_pool_.pop_back();
  ExecContext ctx = make_context(s.rec, opt_.target, buffers_.ub(), buffers_.ub_bytes(), s.staging.get());
  s.kernel->start(ctx);
  s.snapshotted = true;
}

void Core::end(PipeState& p, Slot& s, std::uint64_t t) {
  if (functional() && s.kernel) {
    snapshot_readers_of(s);
    run_finish(s);
    if (s.staging) staging_pool_.push_back(std::move(s.staging));
  }
  if (s.rec.kind == RecordKind::SetFlag) tokens(s.rec.flag_src, s.rec.flag_dst, s.rec.flag_id).push_back({t, s.seq});
  if (s.rec.kind == RecordKind::CrossSet) cross_set_retired(s.rec, s.seq, t, true);
  end_slot(s.seq) = t;
  if (opt_.executor && s.rec.kind == RecordKind::Compute && opt_.mode == Mode::Auto)
    p.unconfirmed.push_back({s.seq, s.rec});
  p.free_at = t;
  last_end_ = std::max(last_end_, t);
  // Only what a message needs: copying the operands too would cost every instruction for a rare error.
  p.last_retired.desc = s.rec.desc;
  p.last_retired.kind = s.rec.kind;
  p.last_retired.flag_src = s.rec.flag_src;
  p.last_retired.flag_dst = s.rec.flag_dst;
  p.last_retired.flag_id = s.rec.flag_id;
  p.retired_any = true;
  p.queue.pop_front();
  // The model's state is whole before anyone hears of it: an observer that throws fails the core, and
  // this instruction has retired either way. The slot keeps its contents until the next push.
  if (observers_.empty()) return;
  if (s.rec.kind == RecordKind::SetFlag) {
    const ReleaseView r{opt_.core, s.seq, s.rec.flag_src, s.rec.flag_dst, s.rec.flag_id, t};
    notify([&](Observer& o) { o.on_release(r); });
  }
  const InstrView v = slot_view(s);  // s.end == t
  notify([&](Observer& o) { o.on_retire(v); });
}

// Copy-on-write: before `writer` makes its results visible, every instruction still running on another
// pipe that reads those bytes keeps the values it read at its start.
void Core::snapshot_readers_of(const Slot& writer) {
  ByteRange w[kMaxOperands];
  int nw = -1;  // the writer's boxes, computed once a running reader needs them (most ends find none)
  for (int p : kQueuedPipes) {
    if (p == writer.rec.pipe || pipes_[p].queue.empty()) continue;
    Slot& r = pipes_[p].queue.front();
    if (!r.running || r.snapshotted || !r.kernel) continue;
    if (nw < 0) nw = writes_of(writer.rec, w);
    if (nw == 0) return;
    ByteRange rr[kMaxOperands];
    const int nr = reads_of(r.rec, rr);
    if (!any_overlap(rr, nr, w, nw)) continue;
    if (r.kernel->start) {
      stage(r);  // the kernel copies its own inputs (a DMA's view of GM or UB)
    } else {
      save_spans(r.rec, false, r.snapshot);
      r.snapshotted = true;
    }
  }
}

void Core::run_finish(Slot& s) {
  ExecContext ctx = make_context(s.rec, opt_.target, buffers_.ub(), buffers_.ub_bytes(), s.staging.get());
  if (s.kernel->start) {  // staged at start, or lazily on overwrite, or not needed at all
    if (s.staging) s.kernel->finish(ctx);
    else s.kernel->direct(ctx);
    return;
  }
  if (!s.snapshotted) {
    s.kernel->finish(ctx);
    return;
  }
  // Run against the start-time bytes, then put back what others wrote meanwhile, then our results.
  std::vector<std::byte> current, results;
  save_spans(s.rec, false, current);
  load_spans(s.rec, false, s.snapshot);
  s.kernel->finish(ctx);
  save_spans(s.rec, true, results);
  load_spans(s.rec, false, current);
  load_spans(s.rec, true, results);
}

// The L0C unit flag (pto-isa's UF mode: TMATMUL<AccPhase::...> then TSTORE<STPhase::...>), which hands
// L0C between the cube and the fixpipe without set_flag / wait_flag: the fixpipe's next read of bytes an
// AccPhase mad wrote waits for that mad, and the next AccPhase mad to write bytes the fixpipe read that
// way waits for the read. Conservative: the chip streams fractal by fractal, here whole instructions.
void Core::unit_flag(InstrRecord& rec, std::uint64_t seq) {
  // One wait, for the latest overlapping entry: each list's instructions run in order on one pipe.
  auto wait_on = [&](std::vector<std::pair<ByteRange, std::uint64_t>>& list, const ByteRange& bytes) {
    std::uint64_t latest = 0;
    for (auto it = list.begin(); it != list.end();) {
      if (!it->first.overlaps(bytes)) {
        ++it;
        continue;
      }
      latest = std::max(latest, it->second);
      it = list.erase(it);
    }
    if (!latest) return;
    if (rec.nwaits == kMaxWaits) fail(rec.desc->name, ": more than ", kMaxWaits, " wait events");
    rec.waits[rec.nwaits++] = latest;
  };
  if (rec.unit_flag) {
    const ByteRange dst = rec.ops[0].tile.footprint();
    wait_on(uf_read_, dst);
    std::erase_if(uf_written_, [&](const auto& u) { return dst.lo <= u.first.lo && u.first.hi <= dst.hi; });
    uf_written_.emplace_back(dst, seq);
    return;
  }
  for (int i = 0; i < rec.nops; ++i)
    if (rec.ops[i].kind == Operand::Kind::Tile && rec.ops[i].tile.loc == TileType::Acc) {
      const ByteRange src = rec.ops[i].tile.footprint();
      const int before = rec.nwaits;
      wait_on(uf_written_, src);
      if (rec.nwaits > before) uf_read_.emplace_back(src, seq);
    }
}

// Auto mode: wait for the latest in-flight instruction on each other pipe whose bytes conflict
// (RAW: we read what it writes; WAR: we write what it reads; WAW: both write). Same-pipe order is free.
void Core::add_auto_dependencies(InstrRecord& rec) {
  ByteRange r[kMaxOperands], w[kMaxOperands];
  const int nr = reads_of(rec, r), nw = writes_of(rec, w);
  auto conflicts = [&](const InstrRecord& x) {
    if (x.kind != RecordKind::Compute) return false;
    ByteRange xr[kMaxOperands], xw[kMaxOperands];
    const int nxr = reads_of(x, xr), nxw = writes_of(x, xw);
    return any_overlap(r, nr, xw, nxw) || any_overlap(w, nw, xr, nxr) || any_overlap(w, nw, xw, nxw);
  };
  auto depend_on = [&](std::uint64_t seq) {
    if (rec.nwaits == kMaxWaits) fail(rec.desc->name, ": more than ", kMaxWaits, " wait events");
    rec.waits[rec.nwaits++] = seq;
  };
  for (int p : kQueuedPipes) {
    if (p == rec.pipe) continue;
    const auto& q = pipes_[p].queue;
    bool found = false;
    for (std::size_t i = q.size(); i-- > 0 && !found;)  // the latest conflicting one suffices: pipes are in order
      if (conflicts(q[i].rec)) {
        depend_on(q[i].seq);
        found = true;
      }
    if (found) continue;
    // Concurrent policy: retired in the model is not yet executed on the host.
    auto& u = pipes_[p].unconfirmed;
    while (!u.empty() && opt_.executor->is_done(u.front().seq)) u.pop_front();
    auto jt = std::find_if(u.rbegin(), u.rend(), [&](const Unconfirmed& x) { return conflicts(x.rec); });
    if (jt != u.rend()) depend_on(jt->seq);
  }
}

void Core::pump_until_can_issue(const InstrRecord& rec) {
  validate(rec);
  if (can_issue(rec)) return;
  do {
    if (!step()) deadlock(&rec);
  } while (!can_issue(rec));
  // A full queue stalled the scalar pipe until a slot freed; its own waits (scalar-pipe records) take
  // their time in execute_scalar.
  if (rec.pipe != PIPE_S) advance_scalar(now_, {Stall::QueueFull});
}

// Drops the end times of retired instructions older than every unretired one. A dropped seq reads as
// dropped_max_end_ from then on. That never moves a start: the model's events never go back in time, so
// an instruction queued or issued from now on starts no earlier than the model's clock, and a dropped
// instruction ended no later than that clock or (scalar pipe) than the waiter's issue. It would blur
// which wait released an instruction (binding_wait matches end times to the start), so the seqs that
// queued instructions (and the one being issued) wait on keep their exact time, pinned, for as long as
// they are waited on; the sync checker keeps their clocks for the same reason.
void Core::compact_end_times(const InstrRecord& issuing) {
  std::uint64_t oldest = issued_ + 1;
  waited_.assign(issuing.waits, issuing.waits + issuing.nwaits);
  for (int p : kQueuedPipes)
    for (std::size_t k = 0; k < pipes_[p].queue.size(); ++k) {
      const Slot& q = pipes_[p].queue[k];
      oldest = std::min(oldest, q.seq);
      waited_.insert(waited_.end(), q.rec.waits, q.rec.waits + q.rec.nwaits);
    }
  std::sort(waited_.begin(), waited_.end());
  auto waited_on = [&](std::uint64_t seq) { return std::binary_search(waited_.begin(), waited_.end(), seq); };
  std::erase_if(pinned_, [&](const auto& p) { return !waited_on(p.first); });
  while (dropped_ + 1 < oldest && end_time(dropped_ + 1) != kNotDone) {
    const std::uint64_t seq = dropped_ + 1, end = end_time(seq);
    if (waited_on(seq)) pinned_.push_back({seq, end});  // seqs ascend: pinned_ stays sorted
    dropped_max_end_ = std::max(dropped_max_end_, end);
    ++dropped_;
  }
}

std::uint64_t Core::dropped_end_time(std::uint64_t seq) const {
  const auto* pin = find_seq(pinned_, seq);
  return pin ? pin->second : dropped_max_end_;
}

void Core::make_room_for_end_time(const InstrRecord& issuing) {
  compact_end_times(issuing);
  if (issued_ + 1 - dropped_ <= end_ring_.size()) return;
  // Still full (an old instruction is still queued, say): double the ring, keeping each live seq.
  std::vector<std::uint64_t> bigger(end_ring_.size() * 2);
  std::vector<const InstrDesc*> descs(bigger.size());
  const std::uint64_t mask = bigger.size() - 1;
  for (std::uint64_t s = dropped_ + 1; s <= issued_; ++s) {
    bigger[s & mask] = end_time(s);
    descs[s & mask] = desc_ring_[s & end_mask_];
  }
  end_ring_ = std::move(bigger);
  desc_ring_ = std::move(descs);
  end_mask_ = mask;
}

void Core::pump_quiescent() {
  while (step()) {
  }
}

void Core::kernel_gm_release(std::uintptr_t lo) {
  auto it = std::find_if(kernel_gm_.begin(), kernel_gm_.end(), [&](const GmAllocation& a) { return a.lo == lo; });
  if (it == kernel_gm_.end()) return;
  wait_for_gm_users({it->lo, it->hi});
  kernel_gm_.erase(it);
}

void Core::gm_released(const GmView& v) {
  if (!opt_.gm_sized_only || !opt_.gm) return;
  const ByteRange fp = v.footprint();
  if (opt_.gm->holds(fp.lo, fp.hi)) return;  // a launch argument's
  wait_for_gm_users(fp);
}

void Core::wait_for_gm_users(const ByteRange& fp) {
  if (finished_ || deferred_ || std::uncaught_exceptions() > 0) return;
  std::uint64_t last = 0;  // the latest queued instruction that uses these bytes (pipes run in order)
  for (int p : kQueuedPipes)
    for (std::size_t i = 0; i < pipes_[p].queue.size(); ++i) {
      const Slot& s = pipes_[p].queue[i];
      for (int k = 0; k < s.rec.nops; ++k)
        if (s.rec.ops[k].kind == Operand::Kind::Gm && s.rec.ops[k].gm.footprint().overlaps(fp)) last = std::max(last, s.seq);
    }
  if (!last) return;
  InstrRecord w;
  w.desc = find_desc(Op::WAIT_EVENT);
  w.kind = RecordKind::Nop;
  w.pipe = PIPE_S;
  w.waits[w.nwaits++] = last;
  try {
    issue_blocking(w);
  } catch (...) {  // a destructor must not throw: the kernel's end rethrows it
    deferred_ = std::current_exception();
  }
}

void Core::finish() {
  if (deferred_) std::rethrow_exception(std::exchange(deferred_, nullptr));
  if (finished_) return;
  finished_ = true;
  InstrRecord barrier;
  barrier.kind = RecordKind::BarrierAll;
  barrier.pipe = PIPE_S;
  while (!can_issue(barrier))
    if (!step()) deadlock(nullptr);
  if (opt_.executor) opt_.executor->wait_all();
  if (!observers_.empty()) {
    CoreEndView e;
    e.core = opt_.core;
    e.cycles = std::max(last_end_, s_time_);
    e.instructions = issued_;
    e.scalar_end = s_time_;
    e.scalar_busy = issued_ * cost_.table().scalar_issue_cycles + scalar_work_;
    notify([&](Observer& o) { o.on_end(e); });
  }
}

void Core::note_unrecorded_event(const InstrRecord& rec, const char* event) {
  for (CoreTool* t : tools_) t->event_not_recorded(rec, event);
}

}  // namespace pto::detail
