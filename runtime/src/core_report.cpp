// Core: what a person reads - instruction descriptions, deadlock messages, the timeline, the report.
#include <algorithm>
#include <array>
#include <functional>
#include <vector>
#include <sstream>

#include <pto/isa/error.hpp>

#include "core.hpp"
#include "cost_model.hpp"

namespace pto::detail {

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
    case RecordKind::SyncAll: os << (rec.variant == kSyncAllLocal ? "SYNCALL<AICOnly>" : "SYNCALL"); break;
    case RecordKind::Nop: os << (rec.desc ? rec.desc->name : "wait"); break;
    case RecordKind::Compute: os << rec.desc->name; break;
  }
  return os.str();
}

std::string Core::operands_text(const InstrRecord& rec) const {
  std::ostringstream ops;
  for (int i = 0; i < rec.nops; ++i) {
    const Operand& o = rec.ops[i];
    if (i) ops << "; ";
    ops << (rec.desc ? rec.desc->operands[i].name : "op") << ' ';
    if (o.kind == Operand::Kind::Tile) {
      const BufferSet::Place at = buffers_.locate(o.tile.base);
      if (at.memory == Memory::None) ops << o.tile << " @own storage";  // not in a buffer of this core
      else ops << o.tile << " @" << memory_name(at.memory) << "+0x" << std::hex << at.offset << std::dec;
    }
    else if (o.kind == Operand::Kind::Gm) ops << o.gm;
  }
  return ops.str();
}

void Core::abandon() noexcept {
  if (opt_.executor) opt_.executor->abandon();
}

int Core::pipe_holding(std::uint64_t seq) const {
  for (int p : kQueuedPipes)
    for (std::size_t k = 0; k < pipes_[p].queue.size(); ++k)
      if (pipes_[p].queue[k].seq == seq) return p;
  return -1;
}

void Core::deadlock(const InstrRecord* blocked) {
  abandon();
  const std::string scalar_waits_at =
      blocked ? describe(*blocked) : std::string("the end of the kernel (an implicit pipe_barrier(PIPE_ALL))");
  std::ostringstream os;
  os << "deadlock on core " << opt_.block_idx << ": the scalar pipe waits at " << scalar_waits_at
     << " and no pipe can make progress";
  for (int p : kQueuedPipes) {
    const PipeState& ps = pipes_[p];
    if (ps.queue.empty()) continue;
    const Slot& head = ps.queue.front();
    os << "; " << pipe_name(p) << " is stuck at " << describe(head.rec) << " (instruction #" << head.seq
       << call_site(head.rec) << ")";
    if (head.rec.kind == RecordKind::WaitFlag)
      os << ", which no set_flag(" << pipe_name(head.rec.flag_src) << ", " << pipe_name(head.rec.flag_dst)
         << ", EVENT_ID" << head.rec.flag_id << ") issued so far can satisfy";
    else
      for (int i = 0; i < head.rec.nwaits; ++i)
        if (end_time(head.rec.waits[i]) == kNotDone) os << ", waiting on instruction #" << head.rec.waits[i];
    os << " (last completed there: " << (ps.retired_any ? describe(ps.last_retired) : "nothing yet") << ')';
  }

  // Classify: who waits for whom. A queued pipe waits for the pipe that must run the set_flag (or the
  // event's instruction); if nothing queued anywhere can, only the scalar pipe could still issue it,
  // unless the kernel has ended: then no set_flag can ever come.
  struct Edge {
    int to;
    std::string why;
  };
  std::array<std::vector<Edge>, kNumPipeIds> waits_for;
  std::vector<SyncFinding> findings;
  auto last_completed = [&](int pipe) -> std::string {
    if (pipe == PIPE_S) return {};
    return std::string(" (last completed on ") + pipe_name(pipe) + ": " +
           (pipes_[pipe].retired_any ? describe(pipes_[pipe].last_retired) : std::string("nothing yet")) + ")";
  };
  auto never = [&](int pipe, const InstrRecord& w, std::uint64_t seq) {
    SyncFinding f;
    f.kind = SyncFinding::Kind::WaitNeverSatisfied;
    f.core = opt_.block_idx;
    f.second = {seq, pipe, describe(w), ""};
    f.flag_src = w.flag_src;
    f.flag_dst = w.flag_dst;
    f.flag_id = w.flag_id;
    std::ostringstream m;
    m << describe(w) << call_site(w) << " on " << pipe_name(pipe) << " can never be satisfied: no set_flag(" << pipe_name(w.flag_src)
      << ", " << pipe_name(w.flag_dst) << ", EVENT_ID" << w.flag_id << ") was issued before it and none can be issued after it"
      << last_completed(pipe);
    f.message = m.str();
    findings.push_back(std::move(f));
  };
  auto flag_edge = [&](int from, const InstrRecord& w, std::uint64_t seq) {
    const std::string why = describe(w) + call_site(w);
    if (w.flag_src != PIPE_S && !pipes_[w.flag_src].queue.empty()) waits_for[from].push_back({w.flag_src, why});
    else if (blocked && from != PIPE_S) waits_for[from].push_back({PIPE_S, why + " (its set_flag is not issued yet)"});
    else never(from, w, seq);
  };
  for (int p : kQueuedPipes) {
    if (pipes_[p].queue.empty()) continue;
    const Slot& head = pipes_[p].queue.front();
    if (head.rec.kind == RecordKind::WaitFlag && tokens(head.rec.flag_src, head.rec.flag_dst, head.rec.flag_id).empty())
      flag_edge(p, head.rec, head.seq);
    for (int i = 0; i < head.rec.nwaits; ++i)
      if (end_time(head.rec.waits[i]) == kNotDone) {
        const int q = pipe_holding(head.rec.waits[i]);
        if (q >= 0) waits_for[p].push_back({q, "an event from instruction #" + std::to_string(head.rec.waits[i])});
      }
  }
  if (!blocked || blocked->kind == RecordKind::BarrierAll || blocked->kind == RecordKind::SyncAll) {
    for (int p : kQueuedPipes)
      if (!pipes_[p].queue.empty()) waits_for[PIPE_S].push_back({p, scalar_waits_at});
  } else if (blocked->pipe != PIPE_S) {
    waits_for[PIPE_S].push_back({blocked->pipe, "a free slot in the full queue of " + std::string(pipe_name(blocked->pipe))});
  } else if (blocked->kind == RecordKind::WaitFlag) {
    flag_edge(PIPE_S, *blocked, issued_ + 1);
  } else {
    for (int i = 0; i < blocked->nwaits; ++i) {
      const int q = pipe_holding(blocked->waits[i]);
      if (q >= 0) waits_for[PIPE_S].push_back({q, "an event from instruction #" + std::to_string(blocked->waits[i])});
    }
  }
  // A cycle reachable from the scalar pipe (depth-first, pipes in a fixed order: deterministic).
  std::array<int, kNumPipeIds> colour{}, via{};
  std::array<const Edge*, kNumPipeIds> edge_in{};
  std::vector<int> cycle;
  std::function<bool(int)> dfs = [&](int u) {
    colour[std::size_t(u)] = 1;
    for (const Edge& e : waits_for[std::size_t(u)]) {
      if (colour[std::size_t(e.to)] == 1) {  // back edge: u -> ... -> e.to -> ... -> u
        cycle.push_back(e.to);
        for (int w = u; w != e.to; w = via[std::size_t(w)]) cycle.push_back(w);
        std::reverse(cycle.begin() + 1, cycle.end());
        edge_in[std::size_t(e.to)] = &e;
        return true;
      }
      if (colour[std::size_t(e.to)] == 0) {
        via[std::size_t(e.to)] = u;
        edge_in[std::size_t(e.to)] = &e;
        if (dfs(e.to)) return true;
      }
    }
    colour[std::size_t(u)] = 2;
    return false;
  };
  if (dfs(PIPE_S) && cycle.size() >= 2) {
    SyncFinding f;
    f.kind = SyncFinding::Kind::CyclicWait;
    f.core = opt_.block_idx;
    std::ostringstream m;
    for (std::size_t k = 0; k < cycle.size(); ++k) {
      const int u = cycle[k], v = cycle[(k + 1) % cycle.size()];
      const Edge* e = nullptr;
      for (const Edge& x : waits_for[std::size_t(u)])
        if (x.to == v) e = &x;
      m << (k ? "; " : "") << pipe_name(u) << " waits for " << pipe_name(v) << (e ? " (" + e->why + ")" : "") << last_completed(u);
      if (u != PIPE_S && !pipes_[u].queue.empty()) {
        const Slot& head = pipes_[u].queue.front();
        if (head.rec.kind == RecordKind::WaitFlag) {
          f.flag_src = head.rec.flag_src;
          f.flag_dst = head.rec.flag_dst;
          f.flag_id = head.rec.flag_id;
          SyncFinding::Instr& slot = f.first.seq ? f.second : f.first;
          slot.seq = head.seq;
          slot.pipe = u;
          slot.name = describe(head.rec);
        }
      }
    }
    f.message = m.str();
    findings.insert(findings.begin(), std::move(f));
  }
  if (!findings.empty()) os << " - " << kind_name(findings.front().kind) << ": " << findings.front().message;
  for (SyncFinding& f : findings) f.message = "deadlock on core " + std::to_string(opt_.block_idx) + ", " + kind_name(f.kind) + ": " + f.message;
  throw SyncError(os.str(), std::move(findings));
}

// The texts repeat (a kernel issues the same few instruction forms over and over): format each once,
// keyed by the fields the text shows.
template <class Make>
std::uint32_t Core::intern(Make&& make) {
  const std::string_view key(key_, key_len_);
  if (const std::uint32_t* id = interned_.find(key)) return *id;
  const auto id = std::uint32_t(strings_.size());
  strings_.push_back(make());
  interned_.insert(key, id);
  return id;
}

void Core::record(const InstrRecord& rec, std::uint64_t seq, std::uint64_t issue, std::uint64_t start,
                  std::uint64_t end, std::uint64_t token_from, Stall stall, std::uint64_t stall_cycles,
                  std::uint32_t intrinsics) {
  TimelineEntry e;
  e.pipe = std::uint8_t(rec.pipe);
  if (intrinsics != CostModel::kNoText) {
    if (stream_strings_.size() <= intrinsics) stream_strings_.resize(intrinsics + 1, CostModel::kNoText);
    if (stream_strings_[intrinsics] == CostModel::kNoText) {
      stream_strings_[intrinsics] = std::uint32_t(strings_.size());
      strings_.push_back(cost_.stream_text(intrinsics));
    }
    e.intrinsics_id = stream_strings_[intrinsics];
  }
  e.seq = seq;
  e.issue = issue;
  e.start = start;
  e.end = end;
  e.stall = stall;
  e.stall_cycles = stall_cycles;
  const std::uint64_t name_key = (std::uint64_t(rec.desc ? desc_index(rec.desc->op) + 1 : 0) << 32) |
                                 (std::uint64_t(rec.kind) << 24) | (std::uint64_t(rec.flag_src) << 16) |
                                 (std::uint64_t(rec.flag_dst) << 8) | std::uint64_t(rec.flag_id) |
                                 (rec.kind == RecordKind::SyncAll ? std::uint64_t(rec.variant) << 56 : 0);
  auto [it, fresh] = name_ids_.try_emplace(name_key, std::uint32_t(strings_.size()));
  if (fresh) strings_.push_back(describe(rec));
  e.name_id = it->second;
  // At most 8 + kMaxOperands x (1 + 5 x 16 + 2) bytes: within key_.
  static_assert(sizeof(void*) + kMaxOperands * (1 + 10 * sizeof(std::int64_t) + 2 * sizeof(int)) <= sizeof key_);
  key_len_ = 0;
  put(rec.desc);
  for (int i = 0; i < rec.nops; ++i) {
    const Operand& o = rec.ops[i];
    put(o.kind);
    if (o.kind == Operand::Kind::Tile) {
      const TileView& t = o.tile;
      for (int v : {int(t.loc), int(t.dtype), t.rows, t.cols, t.valid_rows, t.valid_cols, int(t.row_major)}) put(v);
      put(t.offset);
      put(in_buffer(t));
    } else if (o.kind == Operand::Kind::Gm) {
      put(o.gm.dtype);
      put(o.gm.layout);
      for (int k = 0; k < 5; ++k) {
        put(o.gm.shape[k]);
        put(o.gm.stride[k]);
      }
    }
  }
  e.operands_id = intern([&] { return operands_text(rec); });
  e.after_begin = std::uint32_t(edges_.size());
  edges_.insert(edges_.end(), rec.waits, rec.waits + rec.nwaits);
  if (token_from) edges_.push_back(token_from);
  e.after_count = std::uint32_t(edges_.size() - e.after_begin);
  timeline_.push_back(e);
}

CoreReport Core::report() {
  CoreReport r;
  r.block = opt_.block_idx;
  r.cycles = std::max(last_end_, s_time_);
  r.instructions = issued_;
  for (int p = 0; p < kNumPipeIds; ++p) {
    r.pipes[p] = pipes_[p].stats;
    note_idle(r.pipes[p], r.cycles - std::min(r.cycles, pipes_[p].free_at), {Stall::QueueEmpty});  // after its last
  }
  r.pipes[PIPE_S] = scalar_stats_;
  r.pipes[PIPE_S].busy_cycles = issued_ * cost_.table().scalar_issue_cycles + scalar_work_;
  note_idle(r.pipes[PIPE_S], r.cycles - s_time_, {Stall::Drain});  // the kernel's end waits for the pipes
  for (PipeStats& st : r.pipes)
    std::sort(st.flags.begin(), st.flags.end(), [](const FlagIdle& a, const FlagIdle& b) { return a.cycles > b.cycles; });
  if (checker_) {
    r.sync = checker_->take();
    r.sync_suppressed = checker_->suppressed();
    for (auto& [seq, text] : checker_->take_notes()) warn(seq, std::move(text));
  }
  r.warnings = std::move(warnings_);
  warning_index_.clear();
  r.timeline = std::move(timeline_);
  r.strings = std::move(strings_);
  stream_strings_.clear();
  r.edges = std::move(edges_);
  return r;
}

}  // namespace pto::detail
