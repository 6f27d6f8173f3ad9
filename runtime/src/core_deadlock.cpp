// Core: the deadlock diagnosis (who waits for whom when no pipe can move).
#include <algorithm>
#include <array>
#include <functional>
#include <vector>
#include <sstream>

#include <pto/isa/error.hpp>
#include <pto/runtime/sync_check.hpp>

#include "core.hpp"
#include "describe.hpp"

namespace pto::detail {

// ---------------------------------------------------------------------------------------------------
// Reports and messages.

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
  os << "deadlock on " << label() << ": the scalar pipe waits at " << scalar_waits_at
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
    f.core = opt_.core;
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
    f.core = opt_.core;
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
  for (SyncFinding& f : findings) f.message = "deadlock on " + label() + ", " + kind_name(f.kind) + ": " + f.message;
  throw SyncError(os.str(), std::move(findings));
}

}  // namespace pto::detail
