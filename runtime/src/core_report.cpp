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

void Core::record(const InstrRecord& rec, std::uint64_t seq, std::uint64_t issue, std::uint64_t start,
                  std::uint64_t end, std::uint64_t token_from, Stall stall, std::uint64_t stall_cycles) {
  TimelineEntry e;
  e.pipe = rec.pipe;
  e.seq = seq;
  e.issue = issue;
  e.start = start;
  e.end = end;
  e.name = describe(rec);
  std::ostringstream ops;
  for (int i = 0; i < rec.nops; ++i) {
    const Operand& o = rec.ops[i];
    if (i) ops << "; ";
    ops << (rec.desc ? rec.desc->operands[i].name : "op") << ' ';
    if (o.kind == Operand::Kind::Tile) ops << o.tile << " @UB+0x" << std::hex << o.tile.offset << std::dec;
    else if (o.kind == Operand::Kind::Gm) ops << o.gm;
  }
  e.operands = ops.str();
  e.after.assign(rec.waits, rec.waits + rec.nwaits);
  if (token_from) e.after.push_back(token_from);
  e.stall = stall;
  e.stall_cycles = stall_cycles;
  timeline_.push_back(std::move(e));
}

CoreReport Core::report() const {
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
  r.timeline = timeline_;
  return r;
}

}  // namespace pto::detail
