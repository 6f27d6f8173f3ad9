// Core: what a person reads - instruction descriptions, deadlock messages, the timeline, the report.
#include <algorithm>
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
    case RecordKind::Nop: os << (rec.desc ? rec.desc->name : "wait"); break;
    case RecordKind::Compute: os << rec.desc->name; break;
  }
  return os.str();
}

void Core::abandon() noexcept {
  if (opt_.executor) opt_.executor->abandon();
}

void Core::deadlock(const std::string& scalar_waits_at) {
  abandon();
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
        if (end_time(head.rec.waits[i]) == kNotDone) os << ", waiting on instruction #" << head.rec.waits[i];
    os << " (last completed there: " << (ps.retired_any ? describe(ps.last_retired) : "nothing yet") << ')';
  }
  fail(os.str());
}

// The texts repeat (a kernel issues the same few instruction forms over and over): format each once,
// keyed by the fields the text shows.
template <class Make>
std::uint32_t Core::intern(Make&& make) {
  const std::string_view key(key_, key_len_);
  auto it = interned_.find(key);
  if (it != interned_.end()) return it->second;
  const auto id = std::uint32_t(strings_.size());
  strings_.push_back(make());
  interned_.emplace(std::string(key), id);
  return id;
}

void Core::record(const InstrRecord& rec, std::uint64_t seq, std::uint64_t issue, std::uint64_t start,
                  std::uint64_t end, std::uint64_t token_from, Stall stall, std::uint64_t stall_cycles) {
  TimelineEntry e;
  e.pipe = rec.pipe;
  e.seq = seq;
  e.issue = issue;
  e.start = start;
  e.end = end;
  e.stall = stall;
  e.stall_cycles = stall_cycles;
  const std::uint64_t name_key = (std::uint64_t(rec.desc ? desc_index(rec.desc->op) + 1 : 0) << 32) |
                                 (std::uint64_t(rec.kind) << 24) | (std::uint64_t(rec.flag_src) << 16) |
                                 (std::uint64_t(rec.flag_dst) << 8) | std::uint64_t(rec.flag_id);
  auto [it, fresh] = name_ids_.try_emplace(name_key, std::uint32_t(strings_.size()));
  if (fresh) strings_.push_back(describe(rec));
  e.name_id = it->second;
  // At most 8 + 4 x (1 + 5 x 16 + 2) bytes: within key_.
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
    } else if (o.kind == Operand::Kind::Gm) {
      put(o.gm.dtype);
      put(o.gm.layout);
      for (int k = 0; k < 5; ++k) {
        put(o.gm.shape[k]);
        put(o.gm.stride[k]);
      }
    }
  }
  e.operands_id = intern([&] {
    std::ostringstream ops;
    for (int i = 0; i < rec.nops; ++i) {
      const Operand& o = rec.ops[i];
      if (i) ops << "; ";
      ops << (rec.desc ? rec.desc->operands[i].name : "op") << ' ';
      if (o.kind == Operand::Kind::Tile) ops << o.tile << " @UB+0x" << std::hex << o.tile.offset << std::dec;
      else if (o.kind == Operand::Kind::Gm) ops << o.gm;
    }
    return ops.str();
  });
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
  r.pipes[PIPE_S].busy_cycles = issued_ * cost_.table().scalar_issue_cycles;
  note_idle(r.pipes[PIPE_S], r.cycles - s_time_, {Stall::Barrier});  // the kernel's end waits for the pipes
  for (PipeStats& st : r.pipes)
    std::sort(st.flags.begin(), st.flags.end(), [](const FlagIdle& a, const FlagIdle& b) { return a.cycles > b.cycles; });
  r.timeline = std::move(timeline_);
  r.strings = std::move(strings_);
  r.edges = std::move(edges_);
  return r;
}

}  // namespace pto::detail
