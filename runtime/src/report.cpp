#include <algorithm>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <pto/runtime/report.hpp>

namespace pto {

const char* stall_name(Stall s) {
  switch (s) {
    case Stall::QueueEmpty: return "queue empty";
    case Stall::Flag: return "flag";
    case Stall::Event: return "event";
    case Stall::Barrier: return "barrier";
    case Stall::QueueFull: return "queue full";
  }
  return "?";
}

std::uint64_t CoreReport::serialised_cycles() const {
  std::uint64_t sum = 0;
  for (const PipeStats& p : pipes) sum += p.busy_cycles;
  return sum;
}

std::vector<std::uint64_t> CoreReport::critical_path() const {
  std::vector<std::uint64_t> path;
  if (timeline.empty()) return path;
  std::map<std::uint64_t, const TimelineEntry*> by_seq;
  const TimelineEntry* last = nullptr;
  for (const TimelineEntry& e : timeline) {
    by_seq[e.seq] = &e;
    if (!last || e.end > last->end || (e.end == last->end && e.seq > last->seq)) last = &e;
  }
  for (const TimelineEntry* e = last; e;) {
    path.push_back(e->seq);
    // A scalar-pipe wait was released at its end; any other instruction is held until its start.
    const std::uint64_t held_until = e->pipe == PIPE_S ? e->end : e->start;
    const TimelineEntry* next = nullptr;
    for (std::uint64_t from : e->after) {  // an event or a flag token
      auto it = by_seq.find(from);
      if (it != by_seq.end() && it->second->end == held_until && it->second->seq < e->seq) {
        next = it->second;
        break;
      }
    }
    if (!next && e->pipe != PIPE_S && e->start > e->issue) {  // its pipe was busy until then
      for (const TimelineEntry& p : timeline)
        if (p.pipe == e->pipe && p.seq < e->seq && p.end == e->start && (!next || p.seq > next->seq)) next = &p;
    }
    if (!next && e->issue > 0) {  // issued late: a scalar-pipe wait that released the kernel then
      for (const TimelineEntry& p : timeline)
        if (p.pipe == PIPE_S && p.seq < e->seq && p.end == e->issue && p.end > p.start && (!next || p.seq > next->seq))
          next = &p;
    }
    e = next;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

std::uint64_t LaunchReport::serialised_cycles() const {
  std::uint64_t best = 0, cyc = 0;
  for (const auto& c : cores)
    if (c.cycles > cyc || (c.cycles == cyc && c.serialised_cycles() > best)) cyc = c.cycles, best = c.serialised_cycles();
  return best;
}

std::uint64_t LaunchReport::instructions() const {
  std::uint64_t n = 0;
  for (const auto& c : cores) n += c.instructions;
  return n;
}

std::string LaunchReport::summary() const {
  std::ostringstream os;
  os << *this;
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const LaunchReport& r) {
  os << "launch: " << r.cores.size() << " core(s), target " << name_of(r.target) << ", "
     << (r.mode == Mode::Auto ? "auto" : "manual") << " mode, "
     << (r.policy == Policy::Concurrent ? "concurrent" : "deterministic") << " policy\n";
  os << "  modeled: " << r.cycles << " cycles = " << std::fixed << std::setprecision(3) << r.microseconds()
     << " us at " << r.clock_ghz << " GHz; " << r.instructions() << " instructions issued\n";
  os << "  overlap: " << std::setprecision(2) << r.overlap() << "x (serialised: " << r.serialised_cycles()
     << " cycles on the slowest core)\n";
  for (const auto& c : r.cores) {  // the slowest core's critical path, when a timeline was recorded
    if (c.cycles != r.cycles || c.timeline.empty()) continue;
    const auto path = c.critical_path();
    os << "  critical path (core " << c.block << ", " << path.size() << " instructions):";
    std::size_t shown = 0;
    for (std::uint64_t seq : path) {
      if (shown++ == 12) {
        os << " ...";
        break;
      }
      for (const TimelineEntry& e : c.timeline)
        if (e.seq == seq) os << (shown > 1 ? " -> " : " ") << e.name << '#' << seq;
    }
    os << '\n';
    break;
  }
  os << "  host:    " << std::setprecision(3) << r.host_seconds * 1e3 << " ms wall-clock\n";
  const int lanes[] = {PIPE_S, PIPE_MTE2, PIPE_V, PIPE_MTE3, PIPE_MTE1, PIPE_M, PIPE_FIX};
  // Consecutive cores with identical figures share one line (SPMD kernels usually look alike).
  auto same = [](const CoreReport& a, const CoreReport& b) {
    if (a.cycles != b.cycles || a.instructions != b.instructions) return false;
    for (int p = 0; p < kNumPipeIds; ++p)
      if (a.pipes[p].busy_cycles != b.pipes[p].busy_cycles || a.pipes[p].instructions != b.pipes[p].instructions ||
          a.pipes[p].idle != b.pipes[p].idle)
        return false;
    return true;
  };
  for (std::size_t i = 0; i < r.cores.size();) {
    std::size_t j = i + 1;
    while (j < r.cores.size() && same(r.cores[i], r.cores[j])) ++j;
    const CoreReport& c = r.cores[i];
    os << "  core " << c.block;
    if (j - i > 1) os << '-' << r.cores[j - 1].block;
    os << ": " << c.cycles << " cycles, overlap " << std::setprecision(2) << c.overlap() << 'x';
    for (int p : lanes) {
      const PipeStats& s = c.pipes[p];
      if (s.instructions == 0) continue;
      os << " | " << (pipe_name(p) + 5) << ' ' << s.busy_cycles << " busy ("
         << std::setprecision(1) << (c.cycles ? 100.0 * double(s.busy_cycles) / double(c.cycles) : 0.0) << "%)";
    }
    os << '\n';
    // Why each pipe sat idle, largest causes first (flags named; the longest event wait named).
    bool any = false;
    for (int p : lanes) {
      const PipeStats& s = c.pipes[p];
      if (s.instructions == 0 || s.idle_cycles() == 0) continue;
      std::vector<std::pair<std::uint64_t, std::string>> parts;
      for (const FlagIdle& f : s.flags) {
        std::ostringstream n;
        n << "flag " << (pipe_name(f.src) + 5) << "->" << (pipe_name(f.dst) + 5) << '#' << f.id;
        parts.emplace_back(f.cycles, n.str());
      }
      for (int k = 0; k < kNumStalls; ++k) {
        if (k == int(Stall::Flag) || s.idle[std::size_t(k)] == 0) continue;
        std::string n = stall_name(Stall(k));
        if (k == int(Stall::Event)) n += " (longest: #" + std::to_string(s.event_from) + ")";
        parts.emplace_back(s.idle[std::size_t(k)], n);
      }
      std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
      os << (any ? " | " : "    idle: ") << (pipe_name(p) + 5);
      any = true;
      for (std::size_t k = 0; k < parts.size() && k < 3; ++k)
        os << (k ? ", " : " ") << parts[k].second << ' ' << std::setprecision(1)
           << (c.cycles ? 100.0 * double(parts[k].first) / double(c.cycles) : 0.0) << '%';
      if (parts.size() > 3) os << ", ...";
    }
    if (any) os << '\n';
    i = j;
  }
  return os;
}

}  // namespace pto
