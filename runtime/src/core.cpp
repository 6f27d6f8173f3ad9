#include "core.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <sstream>

#include <pto/isa/buffers.hpp>
#include <pto/isa/error.hpp>

#include "cost_model.hpp"
#include "registry.hpp"

namespace pto::detail {

namespace {
std::atomic<std::uint64_t> g_next_run_id{1};
thread_local Core* t_current = nullptr;

// Pipes a record can be queued on, in tie-break order.
constexpr int kQueuedPipes[] = {PIPE_V, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_M, PIPE_FIX};

std::byte* align_up(std::byte* p, std::size_t a) {
  auto v = reinterpret_cast<std::uintptr_t>(p);
  return reinterpret_cast<std::byte*>((v + a - 1) / a * a);
}

// The byte ranges a record reads or writes, for snapshots and auto-mode dependencies.
template <class Pred>
int ranges_of(const InstrRecord& rec, Pred pred, ByteRange* out) {
  int n = 0;
  for (int i = 0; i < rec.nops; ++i)
    if (pred(rec.ops[i])) out[n++] = rec.ops[i].footprint();
  return n;
}
int reads_of(const InstrRecord& r, ByteRange* out) { return ranges_of(r, [](const Operand& o) { return o.reads(); }, out); }
int writes_of(const InstrRecord& r, ByteRange* out) { return ranges_of(r, [](const Operand& o) { return o.writes(); }, out); }
bool any_overlap(const ByteRange* a, int na, const ByteRange* b, int nb) {
  for (int i = 0; i < na; ++i)
    for (int j = 0; j < nb; ++j)
      if (a[i].overlaps(b[j])) return true;
  return false;
}
}  // namespace

// ---------------------------------------------------------------------------------------------------
Core::Core(const CoreOptions& opt)
    : opt_(opt), run_id_(g_next_run_id.fetch_add(1)), flags_(std::size_t(kNumPipeIds) * kNumPipeIds * kNumEventIds) {
  ub_bytes_ = buffer_capacity(opt_.target, TileType::Vec);
  ub_storage_.assign(ub_bytes_ + 64, std::byte{0});  // buffers start zeroed, as on the CPU simulator
  ub_base_ = align_up(ub_storage_.data(), 64);
}

Core::~Core() = default;

std::byte* Core::auto_place(std::size_t bytes) {
  auto& block = auto_storage_.emplace_back(bytes + 64, std::byte{0});
  return align_up(block.data(), 64);
}

// ---------------------------------------------------------------------------------------------------
// Issue side (the scalar pipe).

bool Core::can_issue(const InstrRecord& rec) const {
  if (rec.pipe != PIPE_S) return pipes_[rec.pipe].queue.size() < std::size_t(opt_.queue_depth);
  switch (rec.kind) {
    case RecordKind::WaitFlag: return !tokens(rec.flag_src, rec.flag_dst, rec.flag_id).empty();
    case RecordKind::BarrierAll:
      return std::all_of(std::begin(kQueuedPipes), std::end(kQueuedPipes), [&](int p) { return pipes_[p].queue.empty(); });
    default:
      for (int i = 0; i < rec.nwaits; ++i)
        if (end_times_[rec.waits[i] - 1] == kNotDone) return false;
      return true;
  }
}

RecordEvent Core::issue(InstrRecord& rec) {
  for (int i = 0; i < rec.nwaits; ++i)
    if (rec.waits[i] == 0 || rec.waits[i] > issued_)
      fail(rec.desc ? rec.desc->name : "instruction", ": a wait event does not name an instruction issued on this core");
  const std::uint64_t seq = ++issued_;
  end_times_.push_back(kNotDone);
  if (opt_.mode == Mode::Auto && rec.kind == RecordKind::Compute) add_auto_dependencies(rec);
  const std::uint64_t issue_time = s_time_;
  s_time_ += cost_table(opt_.target).scalar_issue_cycles;
  ++scalar_stats_.instructions;

  if (rec.pipe == PIPE_S) {
    execute_scalar(rec, seq);
    if (opt_.executor) opt_.executor->submit(seq, rec, nullptr);  // a scalar set_flag feeds real waits
  } else {
    const BackendKernel* kernel = nullptr;
    if (rec.kind == RecordKind::Compute) kernel = &backend_kernel(rec.desc->op, opt_.target);
    PipeState& p = pipes_[rec.pipe];
    Slot& s = p.queue.emplace_back();
    s.rec = rec;
    s.seq = seq;
    s.issue_time = issue_time;
    s.kernel = kernel;
    if (opt_.executor) opt_.executor->submit(seq, rec, kernel);
  }
  if (opt_.synchronous) pump_quiescent();
  return {run_id_, seq};
}

void Core::execute_scalar(InstrRecord& rec, std::uint64_t seq) {
  switch (rec.kind) {
    case RecordKind::SetFlag: tokens(rec.flag_src, rec.flag_dst, rec.flag_id).push_back({s_time_, seq}); break;
    case RecordKind::WaitFlag: {
      auto& q = tokens(rec.flag_src, rec.flag_dst, rec.flag_id);
      const Token tok = q.front();
      q.pop_front();
      s_time_ = std::max(s_time_, tok.time);
      if (opt_.executor) opt_.executor->wait_done(tok.seq);  // the real set_flag must have run too
      break;
    }
    case RecordKind::BarrierAll:
      s_time_ = std::max(s_time_, last_end_);
      if (opt_.executor) opt_.executor->wait_all();
      break;
    default:
      for (int i = 0; i < rec.nwaits; ++i) {
        s_time_ = std::max(s_time_, end_times_[rec.waits[i] - 1]);
        if (opt_.executor) opt_.executor->wait_done(rec.waits[i]);
      }
      break;
  }
  end_times_[seq - 1] = s_time_;
  last_end_ = std::max(last_end_, s_time_);
}

RecordEvent Core::issue_blocking(InstrRecord& rec) {
  pump_until_can_issue(rec);
  return issue(rec);
}

void Core::park(InstrRecord& rec, RecordEvent& out, std::coroutine_handle<> k) {
  parked_rec_ = &rec;
  parked_out_ = &out;
  parked_k_ = k;
}

void Core::drive(Kernel::Handle top) {
  std::coroutine_handle<> next = top;
  for (;;) {
    next.resume();
    if (top.done()) break;
    if (!parked_rec_)
      fail("core ", opt_.block_idx, ": the kernel suspended on an awaitable that is not a PTO instruction; "
           "a pto::Kernel may co_await only PTO instructions, sync operations and other pto::Kernels");
    InstrRecord* rec = std::exchange(parked_rec_, nullptr);
    RecordEvent* out = std::exchange(parked_out_, nullptr);
    next = std::exchange(parked_k_, {});
    *out = issue_blocking(*rec);
  }
  if (top.promise().error) std::rethrow_exception(top.promise().error);
}

// ---------------------------------------------------------------------------------------------------
// The model.

bool Core::ready_time(const Slot& s, std::uint64_t& t) const {
  t = std::max(pipes_[s.rec.pipe].free_at, s.issue_time);
  for (int i = 0; i < s.rec.nwaits; ++i) {
    const std::uint64_t e = end_times_[s.rec.waits[i] - 1];
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
  Candidate best;
  for (int p : kQueuedPipes) {
    const PipeState& ps = pipes_[p];
    if (ps.queue.empty()) continue;
    const Slot& head = ps.queue.front();
    Candidate c;
    c.pipe = p;
    if (head.running) {
      c.time = head.end;
      c.phase = 0;
    } else {
      if (!ready_time(head, c.time)) continue;
      c.phase = 1;
    }
    if (c.time < best.time || (c.time == best.time && c.phase < best.phase)) best = c;
  }
  if (best.pipe < 0) return false;
  PipeState& ps = pipes_[best.pipe];
  if (best.phase == 1) start(ps, ps.queue.front(), best.time);
  else end(ps, ps.queue.front(), best.time);
  return true;
}

void Core::start(PipeState& p, Slot& s, std::uint64_t t) {
  (void)p;
  s.running = true;
  s.start = t;
  if (s.rec.kind == RecordKind::WaitFlag) tokens(s.rec.flag_src, s.rec.flag_dst, s.rec.flag_id).pop_front();
  s.end = t + cost_cycles(s.rec, opt_.target);
  if (!opt_.executor && s.kernel && s.kernel->start) {
    ExecContext ctx{s.rec.ops, s.rec.nops, s.rec.scalar, opt_.target, &s.staging};
    s.kernel->start(ctx);
  }
}

void Core::end(PipeState& p, Slot& s, std::uint64_t t) {
  if (!opt_.executor && s.kernel) {
    snapshot_readers_of(s);
    run_finish(s);
  }
  if (s.rec.kind == RecordKind::SetFlag) tokens(s.rec.flag_src, s.rec.flag_dst, s.rec.flag_id).push_back({t, s.seq});
  end_times_[s.seq - 1] = t;
  p.free_at = t;
  last_end_ = std::max(last_end_, t);
  p.stats.busy_cycles += s.end - s.start;
  ++p.stats.instructions;
  // Only what a message needs: copying the operands too would cost every instruction for a rare error.
  p.last_retired.desc = s.rec.desc;
  p.last_retired.kind = s.rec.kind;
  p.last_retired.flag_src = s.rec.flag_src;
  p.last_retired.flag_dst = s.rec.flag_dst;
  p.last_retired.flag_id = s.rec.flag_id;
  p.retired_any = true;
  p.queue.pop_front();
}

// Copy-on-write: before `writer` makes its results visible, every instruction still running on another
// pipe that reads those bytes keeps the values it read at its start.
void Core::snapshot_readers_of(const Slot& writer) {
  ByteRange w[kMaxOperands];
  const int nw = writes_of(writer.rec, w);
  if (nw == 0) return;
  for (int p : kQueuedPipes) {
    if (p == writer.rec.pipe || pipes_[p].queue.empty()) continue;
    Slot& r = pipes_[p].queue.front();
    if (!r.running || r.snapshotted || !r.kernel || r.kernel->reads_staged_at_start) continue;
    ByteRange rr[kMaxOperands];
    const int nr = reads_of(r.rec, rr);
    if (!any_overlap(rr, nr, w, nw)) continue;
    for (int i = 0; i < nr; ++i) {
      const auto* b = reinterpret_cast<const std::byte*>(rr[i].lo);
      r.snapshot.insert(r.snapshot.end(), b, b + rr[i].size());
    }
    r.snapshotted = true;
  }
}

void Core::run_finish(Slot& s) {
  ExecContext ctx{s.rec.ops, s.rec.nops, s.rec.scalar, opt_.target, &s.staging};
  if (!s.snapshotted) {
    s.kernel->finish(ctx);
    return;
  }
  // Run against the start-time bytes, then put back what others wrote meanwhile, then our results.
  ByteRange rr[kMaxOperands], ww[kMaxOperands];
  const int nr = reads_of(s.rec, rr), nw = writes_of(s.rec, ww);
  auto copy_ranges = [](const ByteRange* rs, int n, const std::byte* from, bool to_memory, std::vector<std::byte>* into) {
    std::size_t off = 0;
    for (int i = 0; i < n; ++i) {
      auto* mem = reinterpret_cast<std::byte*>(rs[i].lo);
      if (to_memory) std::memcpy(mem, from + off, rs[i].size());
      else into->insert(into->end(), mem, mem + rs[i].size());
      off += rs[i].size();
    }
  };
  std::vector<std::byte> current, results;
  copy_ranges(rr, nr, nullptr, false, &current);
  copy_ranges(rr, nr, s.snapshot.data(), true, nullptr);
  s.kernel->finish(ctx);
  copy_ranges(ww, nw, nullptr, false, &results);
  copy_ranges(rr, nr, current.data(), true, nullptr);
  copy_ranges(ww, nw, results.data(), true, nullptr);
}

// Auto mode: wait for the latest in-flight instruction on each other pipe whose bytes conflict
// (RAW: we read what it writes; WAR: we write what it reads; WAW: both write). Same-pipe order is free.
void Core::add_auto_dependencies(InstrRecord& rec) const {
  ByteRange r[kMaxOperands], w[kMaxOperands];
  const int nr = reads_of(rec, r), nw = writes_of(rec, w);
  for (int p : kQueuedPipes) {
    if (p == rec.pipe) continue;
    const auto& q = pipes_[p].queue;
    for (auto it = q.rbegin(); it != q.rend(); ++it) {
      if (it->rec.kind != RecordKind::Compute) continue;
      ByteRange xr[kMaxOperands], xw[kMaxOperands];
      const int nxr = reads_of(it->rec, xr), nxw = writes_of(it->rec, xw);
      if (any_overlap(r, nr, xw, nxw) || any_overlap(w, nw, xr, nxr) || any_overlap(w, nw, xw, nxw)) {
        if (rec.nwaits == kMaxWaits) fail(rec.desc->name, ": more than ", kMaxWaits, " wait events");
        rec.waits[rec.nwaits++] = it->seq;
        break;
      }
    }
  }
}

void Core::pump_until_can_issue(const InstrRecord& rec) {
  while (!can_issue(rec))
    if (!step()) deadlock(describe(rec));
}

void Core::pump_quiescent() {
  while (step()) {
  }
}

void Core::finish() {
  if (finished_) return;
  finished_ = true;
  InstrRecord barrier;
  barrier.kind = RecordKind::BarrierAll;
  barrier.pipe = PIPE_S;
  while (!can_issue(barrier))
    if (!step()) deadlock("the end of the kernel (an implicit pipe_barrier(PIPE_ALL))");
  if (opt_.executor) opt_.executor->wait_all();
}

// ---------------------------------------------------------------------------------------------------
// Reports and messages.

std::string Core::describe(const InstrRecord& rec) const {
  std::ostringstream os;
  switch (rec.kind) {
    case RecordKind::SetFlag:
    case RecordKind::WaitFlag:
      os << (rec.kind == RecordKind::SetFlag ? "set_flag(" : "wait_flag(") << pipe_name(rec.flag_src) << ", "
         << pipe_name(rec.flag_dst) << ", EVENT_ID" << rec.flag_id << ')';
      break;
    case RecordKind::BarrierAll: os << "pipe_barrier(PIPE_ALL)"; break;
    case RecordKind::Nop: os << (rec.desc ? rec.desc->name : "wait"); break;
    case RecordKind::Compute: os << rec.desc->name; break;
  }
  return os.str();
}

void Core::deadlock(const std::string& scalar_waits_at) const {
  std::ostringstream os;
  os << "deadlock on core " << opt_.block_idx << ": the scalar pipe waits at " << scalar_waits_at
     << " and no pipe can make progress";
  for (int p : kQueuedPipes) {
    const PipeState& ps = pipes_[p];
    if (ps.queue.empty()) continue;
    const Slot& head = ps.queue.front();
    os << "; " << pipe_name(p) << " is stuck at " << describe(head.rec) << " (instruction #" << head.seq << ")";
    if (head.rec.kind == RecordKind::WaitFlag)
      os << ", which no set_flag(" << pipe_name(head.rec.flag_src) << ", " << pipe_name(head.rec.flag_dst)
         << ", EVENT_ID" << head.rec.flag_id << ") issued so far can satisfy";
    else
      for (int i = 0; i < head.rec.nwaits; ++i)
        if (end_times_[head.rec.waits[i] - 1] == kNotDone) os << ", waiting on instruction #" << head.rec.waits[i];
    os << " (last completed there: " << (ps.retired_any ? describe(ps.last_retired) : "nothing yet") << ')';
  }
  fail(os.str());
}

CoreReport Core::report() const {
  CoreReport r;
  r.block = opt_.block_idx;
  r.cycles = std::max(last_end_, s_time_);
  r.instructions = issued_;
  for (int p = 0; p < kNumPipeIds; ++p) r.pipes[p] = pipes_[p].stats;
  r.pipes[PIPE_S] = scalar_stats_;
  r.pipes[PIPE_S].busy_cycles = issued_ * cost_table(opt_.target).scalar_issue_cycles;
  return r;
}

// ---------------------------------------------------------------------------------------------------
// The compiled interface of core_api.hpp.

CurrentCoreGuard::CurrentCoreGuard(Core* core) : previous_(t_current) { t_current = core; }
CurrentCoreGuard::~CurrentCoreGuard() { t_current = previous_; }

Core& current_core() {
  if (t_current) return *t_current;
  // Direct call of a plain kernel outside pto::launch: one implicit core per host thread, kept for the
  // thread's lifetime like the CPU simulator's thread_local memory, running instructions as issued.
  thread_local std::unique_ptr<Core> implicit = [] {
    CoreOptions o;
    o.synchronous = true;
    return std::make_unique<Core>(o);
  }();
  return *implicit;
}

Target core_target(const Core& c) { return c.options().target; }
Mode core_mode(const Core& c) { return c.options().mode; }
std::uint64_t core_run_id(const Core& c) { return c.run_id(); }
int core_block_idx(const Core& c) { return c.options().block_idx; }
int core_block_num(const Core& c) { return c.options().block_num; }

bool try_issue(Core& c, InstrRecord& rec, RecordEvent& out) {
  if (!c.can_issue(rec)) return false;
  out = c.issue(rec);
  return true;
}
RecordEvent issue_blocking(Core& c, InstrRecord& rec) { return c.issue_blocking(rec); }
void park(Core& c, InstrRecord& rec, RecordEvent& out, std::coroutine_handle<> k) { c.park(rec, out, k); }

std::byte* buffer_base(Core& c, TileType loc) { return loc == TileType::Vec ? c.ub() : nullptr; }
std::size_t buffer_bytes(const Core& c, TileType loc) { return loc == TileType::Vec ? c.ub_bytes() : 0; }
std::byte* auto_place(Core& c, std::size_t bytes) { return c.auto_place(bytes); }

}  // namespace pto::detail
