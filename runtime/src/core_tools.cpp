#include "core_tools.hpp"

#include <algorithm>

#include "describe.hpp"
#include "timeline_recorder.hpp"

namespace pto::detail {

// ---------------------------------------------------------------------------------------------------
// StatsTool

void StatsTool::note_idle(PipeStats& st, std::uint64_t cycles, const IdleCause& why) {
  if (cycles == 0) return;
  st.idle[std::size_t(why.cause)] += cycles;
  if (why.cause == Stall::Flag) {
    auto it = std::find_if(st.flags.begin(), st.flags.end(), [&](const FlagIdle& f) {
      return f.src == why.flag_src && f.dst == why.flag_dst && f.id == why.flag_id;
    });
    if (it == st.flags.end()) st.flags.push_back({why.flag_src, why.flag_dst, why.flag_id, cycles});
    else it->cycles += cycles;
  }
  if (why.cause == Stall::Cores && why.from_core >= 0) {
    auto it = std::find_if(st.cores.begin(), st.cores.end(), [&](const CoreIdle& c) { return c.core == why.from_core; });
    if (it == st.cores.end()) it = st.cores.insert(st.cores.end(), CoreIdle{why.from_core});
    it->cycles += cycles;
    if (cycles > it->longest) {
      it->longest = cycles;
      it->longest_seq = why.from_seq;
      it->longest_name = why.from_name;
    }
  }
  if (why.cause == Stall::Event && cycles > st.event_cycles) {
    st.event_cycles = cycles;
    st.event_from = why.event_seq;
    st.event_from_name = why.event_name;
  }
}

void StatsTool::on_start(const InstrView& v) {
  if (v.pipe == PIPE_S) return;  // the scalar pipe's waits come as on_wait
  PipeStats& st = pipes_[v.pipe];
  if (v.idle)
    for (int k = 0; k < 3; ++k) note_idle(st, v.idle->cycles[k], v.idle->why[k]);
  st.bytes += v.bytes;
  st.gm_bytes += v.gm_bytes;
}

void StatsTool::on_retire(const InstrView& v) {
  if (v.pipe == PIPE_S) return;
  PipeStats& st = pipes_[v.pipe];
  st.busy_cycles += v.end - v.start;
  ++st.instructions;
  free_at_[v.pipe] = v.end;
}

void StatsTool::add_warning(std::vector<DeviceWarning>& into, std::uint64_t seq, const std::string& message) {
  auto it = std::find_if(into.begin(), into.end(), [&](const DeviceWarning& w) { return w.message == message; });
  if (it != into.end()) ++it->count;
  else if (into.size() < 64) into.push_back({seq, 1, message});
}

void StatsTool::contribute(CoreReport& r) {
  r.block = block_;
  r.cycles = end_.cycles;
  r.instructions = end_.instructions;
  r.pipes = std::move(pipes_);
  for (int p = 0; p < kNumPipeIds; ++p)  // after its last instruction
    if (p != PIPE_S) note_idle(r.pipes[p], r.cycles - std::min(r.cycles, free_at_[p]), {Stall::QueueEmpty});
  r.pipes[PIPE_S].busy_cycles = end_.scalar_busy;
  note_idle(r.pipes[PIPE_S], r.cycles - std::min(r.cycles, end_.scalar_end), {Stall::Drain});  // the kernel's end waits for the pipes
  for (PipeStats& st : r.pipes) {
    std::sort(st.flags.begin(), st.flags.end(), [](const FlagIdle& a, const FlagIdle& b) { return a.cycles > b.cycles; });
    std::stable_sort(st.cores.begin(), st.cores.end(), [](const CoreIdle& a, const CoreIdle& b) { return a.cycles > b.cycles; });
  }
  for (DeviceWarning& w : warnings_) r.warnings.push_back(std::move(w));
}

// ---------------------------------------------------------------------------------------------------
// CheckTool

CheckTool::CheckTool(const Core& core, SyncCheck check, const GmAllocations* gm)
    : core_(core),
      checker_(
          core.options().core, core.buffers(), [](const InstrRecord& r) { return describe(r); },
          [&core](const InstrRecord& r) { return operands_text(r, core.buffers()); }, check == SyncCheck::Throw, gm),
      unwritten_(
          core.options().core, core.buffers(), [](const InstrRecord& r) { return describe(r); },
          [this](SyncFinding f) { checker_.report(std::move(f)); }),
      auto_mode_(core.options().mode == Mode::Auto) {
  const CoreOptions& o = core.options();
  if (o.cluster_races) checker_.attach_cluster(o.cluster_races, o.kind == CoreKind::Cube ? 0 : 1 + o.subblock);
}

void CheckTool::on_issue(const InstrView& v) {
  const InstrRecord& rec = *v.record;
  if (rec.kind == RecordKind::Compute) unwritten_.issued(rec, v.seq);
  if (rec.kind == RecordKind::SetFlag || rec.kind == RecordKind::WaitFlag) checker_.flag_issued(rec);
  // The checker drops its clocks on its own, rarer schedule: a dropped clock joins every dropped one,
  // which would order a wait on an old event after everything and hide a race.
  if ((v.seq & 0xfffff) == 0) checker_.drop_before(core_.dropped() + 1, core_.pinned());
  if (v.pipe != PIPE_S) issue_vc_[v.pipe].push_back(auto_mode_ ? checker_.auto_issue_vc() : checker_.scalar_vc());
}

void CheckTool::on_start(const InstrView& v) {
  if (v.pipe == PIPE_S) return;  // the scalar pipe's records are judged when they retire
  auto& q = issue_vc_[v.pipe];
  const VectorClock vc = q.front();
  q.pop_front();
  checker_.start(*v.record, v.seq, vc, v.token_from, v.start);
}

void CheckTool::on_retire(const InstrView& v) {
  if (v.pipe == PIPE_S) {
    checker_.scalar(*v.record, v.seq, v.token_from, v.end);
    if (v.record->kind == RecordKind::CrossWait) checker_.cross_wait_passed(core_.cross_sources());
  } else if (auto_mode_) {
    checker_.retired(v.pipe, v.seq);
  }
}

void CheckTool::contribute(CoreReport& r) {
  r.sync = checker_.take();
  r.sync_suppressed = checker_.suppressed();
  for (auto& [seq, text] : checker_.take_notes()) StatsTool::add_warning(r.warnings, seq, text);
}

// ---------------------------------------------------------------------------------------------------
// CoreTools

CoreTools::CoreTools(Core& core, SyncCheck check, bool timeline) {
  auto add = [&](std::unique_ptr<CoreTool> t) {
    core.attach(t.get());
    tools_.push_back(std::move(t));
  };
  add(std::make_unique<StatsTool>(core.options().core));
  if (check != SyncCheck::Off) {
    auto c = std::make_unique<CheckTool>(core, check, core.options().gm);
    check_ = c.get();
    add(std::move(c));
  }
  if (timeline) add(std::make_unique<TimelineRecorder>(core));
}

CoreTools::~CoreTools() = default;

CoreReport CoreTools::report() {
  CoreReport r;
  for (auto& t : tools_) t->contribute(r);  // stats first: the checker's notes join its warnings
  return r;
}

}  // namespace pto::detail
