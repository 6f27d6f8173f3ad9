#include <algorithm>
#include <array>
#include <iterator>
#include <iomanip>
#include <map>
#include <unordered_map>
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
    case Stall::Drain: return "end-of-kernel drain";
    case Stall::Cores: return "other cores (SYNCALL, cross-core flags)";
  }
  return "?";
}

std::string CoreReport::label() const {
  if (kind == CoreKind::Any) return "core " + std::to_string(block);
  return "cluster " + std::to_string(block) + (kind == CoreKind::Cube ? " AIC" : subblock ? " AIV1" : " AIV0");
}

std::uint64_t CoreReport::serialised_cycles() const {
  std::uint64_t sum = 0;
  for (const PipeStats& p : pipes) sum += p.busy_cycles;
  return sum;
}

std::vector<std::uint64_t> CoreReport::critical_path() const {
  std::vector<std::uint64_t> path;
  if (timeline.empty()) return path;
  // Indexes (linear in the timeline): by sequence number, the previous entry on the same pipe (pipes
  // run in order and the timeline lists each pipe's entries in that order), the scalar-pipe waits.
  constexpr std::uint32_t kNone = ~std::uint32_t(0);
  std::uint64_t max_seq = 0;
  for (const TimelineEntry& e : timeline) max_seq = std::max(max_seq, e.seq);
  std::vector<std::uint32_t> by_seq(max_seq + 1, kNone), prev_on_pipe(timeline.size(), kNone);
  std::array<std::uint32_t, kNumPipeIds> last_on_pipe;
  last_on_pipe.fill(kNone);
  std::vector<std::pair<std::uint64_t, std::uint32_t>> scalar_waits;  // (seq, index), seq order
  std::uint32_t last = 0;
  for (std::uint32_t i = 0; i < timeline.size(); ++i) {
    const TimelineEntry& e = timeline[i];
    by_seq[e.seq] = i;
    prev_on_pipe[i] = last_on_pipe[std::size_t(e.pipe)];
    last_on_pipe[std::size_t(e.pipe)] = i;
    if (e.pipe == PIPE_S && e.end > e.start) scalar_waits.emplace_back(e.seq, i);
    const TimelineEntry& l = timeline[last];
    if (e.end > l.end || (e.end == l.end && e.seq > l.seq)) last = i;
  }
  std::sort(scalar_waits.begin(), scalar_waits.end());
  for (std::uint32_t cur = last; cur != kNone;) {
    const TimelineEntry& e = timeline[cur];
    path.push_back(e.seq);
    // A scalar-pipe wait was released at its end; any other instruction is held until its start.
    const std::uint64_t held_until = e.pipe == PIPE_S ? e.end : e.start;
    std::uint32_t next = kNone;
    for (std::uint64_t from : after(e)) {  // an event or a flag token
      if (from > max_seq || by_seq[from] == kNone) continue;
      const TimelineEntry& p = timeline[by_seq[from]];
      if (p.end == held_until && p.seq < e.seq) {
        next = by_seq[from];
        break;
      }
    }
    if (next == kNone && e.pipe != PIPE_S && e.start > e.issue) {  // its pipe was busy until then
      const std::uint32_t p = prev_on_pipe[cur];
      if (p != kNone && timeline[p].end == e.start) next = p;
    }
    if (next == kNone && e.issue > 0) {  // issued late: the scalar-pipe wait that released the kernel then
      auto it = std::lower_bound(scalar_waits.begin(), scalar_waits.end(), std::make_pair(e.seq, std::uint32_t(0)));
      if (it != scalar_waits.begin() && timeline[std::prev(it)->second].end == e.issue) next = std::prev(it)->second;
    }
    cur = next;
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

double LaunchReport::overlap() const {
  std::uint64_t cyc = 0;
  for (const auto& c : cores) cyc = std::max(cyc, c.cycles);
  return cyc ? double(serialised_cycles()) / double(cyc) : 0.0;
}

std::uint64_t LaunchReport::instructions() const {
  std::uint64_t n = 0;
  for (const auto& c : cores) n += c.instructions;
  return n;
}

std::vector<SyncFinding> LaunchReport::findings() const {
  std::vector<SyncFinding> all;
  for (const auto& c : cores) all.insert(all.end(), c.sync.begin(), c.sync.end());
  return all;
}

std::vector<DeviceWarning> LaunchReport::warnings() const {
  std::vector<DeviceWarning> all;
  for (const auto& c : cores) all.insert(all.end(), c.warnings.begin(), c.warnings.end());
  return all;
}

std::string LaunchReport::summary() const {
  std::ostringstream os;
  os << *this;
  return os.str();
}

std::string cores_label(const LaunchReport& r, const std::vector<std::size_t>& cores) {
  if (cores.empty()) return "no core";
  if (cores.size() == 1) return r.cores[cores[0]].label();
  std::vector<int> blocks;
  bool cube = false, aiv[2] = {false, false}, any = false;
  for (std::size_t i : cores) {
    const CoreReport& c = r.cores[i];
    if (blocks.empty() || blocks.back() != c.block) blocks.push_back(c.block);
    any |= c.kind == CoreKind::Any;
    cube |= c.kind == CoreKind::Cube;
    if (c.kind == CoreKind::Vector) aiv[c.subblock ? 1 : 0] = true;
  }
  if (any) return "cores " + block_ranges(blocks);
  std::string kinds = cube ? "AIC" : "";
  if (aiv[0] || aiv[1]) kinds += std::string(cube ? " and " : "") + (aiv[0] && aiv[1] ? "AIVs" : aiv[0] ? "AIV0" : "AIV1");
  return kinds + " of " + (blocks.size() > 1 ? "clusters " : "cluster ") + block_ranges(blocks) + " (" +
         std::to_string(cores.size()) + " cores)";
}

std::string block_ranges(const std::vector<int>& b) {
  std::ostringstream os;
  std::size_t runs = 0;
  for (std::size_t i = 0; i < b.size();) {
    std::size_t j = i + 1;
    const int step = j < b.size() ? b[j] - b[i] : 1;
    while (j < b.size() && b[j] - b[j - 1] == step) ++j;
    if (j - i == 2 && step != 1) j = i + 1;  // two far-apart blocks are two entries, not a run
    if (runs++ == 6) {
      os << ", ...";
      break;
    }
    os << (i ? ", " : "") << b[i];
    if (j - i > 1) os << '-' << b[j - 1] << (step != 1 ? " step " + std::to_string(step) : std::string());
    i = j;
  }
  return os.str();
}

namespace {
// "MTE2-bound: 76% busy; V waits on events 76% (longest: TLOAD #2)" for the core that sets the makespan.
std::string verdict(const CoreReport& c) {
  if (c.cycles == 0) return "nothing ran";
  int busiest = -1;
  for (int p : {PIPE_MTE2, PIPE_V, PIPE_MTE3, PIPE_MTE1, PIPE_M, PIPE_FIX})
    if (c.pipes[p].instructions && (busiest < 0 || c.pipes[p].busy_cycles > c.pipes[busiest].busy_cycles)) busiest = p;
  std::ostringstream os;
  os << std::fixed << std::setprecision(0);
  auto pct = [&](std::uint64_t v) { return 100.0 * double(v) / double(c.cycles); };
  if (busiest < 0) return "only the scalar pipe ran";
  const double share = pct(c.pipes[busiest].busy_cycles);
  if (share >= 60.0)
    os << (pipe_name(busiest) + 5) << "-bound: " << share << "% busy";
  else
    os << "latency-bound: the busiest pipe, " << (pipe_name(busiest) + 5) << ", is busy " << share
       << "%; chains of dependent instructions set the time (timeline = true shows the critical path)";
  // The other pipes' largest wait on another pipe (a flag or an event), the two largest.
  std::vector<std::pair<std::uint64_t, std::string>> waits;
  for (int p : {PIPE_MTE2, PIPE_V, PIPE_MTE3, PIPE_MTE1, PIPE_M, PIPE_FIX}) {
    const PipeStats& s = c.pipes[p];
    if (p == busiest || !s.instructions) continue;
    std::uint64_t flag = 0;
    for (const FlagIdle& f : s.flags) flag += f.cycles;
    const std::uint64_t event = s.idle[std::size_t(Stall::Event)];
    std::ostringstream w;
    w << std::fixed << std::setprecision(0) << (pipe_name(p) + 5) << " waits ";
    if (event >= flag && event > 0)
      w << pct(event) << "% on events (longest: " << (s.event_from_name ? s.event_from_name : "instruction") << " #"
        << s.event_from << ')';
    else if (flag > 0)
      w << pct(flag) << "% on flags (most: " << (pipe_name(s.flags.front().src) + 5) << "->"
        << (pipe_name(s.flags.front().dst) + 5) << '#' << s.flags.front().id << ')';
    else
      continue;
    waits.emplace_back(std::max(event, flag), w.str());
  }
  std::stable_sort(waits.begin(), waits.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t k = 0; k < waits.size() && k < 2; ++k) os << "; " << waits[k].second;
  return os.str();
}

// Bytes each DMA pipe moved and the rate: while busy, and over the core's whole run.
void moved(std::ostream& os, const CoreReport& c, double clock_ghz) {
  bool any = false;
  for (int p : {PIPE_MTE2, PIPE_MTE3, PIPE_MTE1, PIPE_FIX}) {
    const PipeStats& s = c.pipes[p];
    if (!s.bytes) continue;
    os << (any ? " | " : "    moved: ") << (pipe_name(p) + 5) << ' ' << s.bytes << " B, " << std::setprecision(1)
       << double(s.bytes) / double(std::max<std::uint64_t>(s.busy_cycles, 1)) << " B/cycle busy, "
       << double(s.bytes) * clock_ghz / double(std::max<std::uint64_t>(c.cycles, 1)) << " GB/s over the run";
    any = true;
  }
  if (any) os << '\n';
}

// The launch's GM traffic against the chip's HBM, which the model does not share between cores yet.
void gm_traffic(std::ostream& os, const LaunchReport& r) {
  std::uint64_t gm = 0;
  for (const CoreReport& c : r.cores)
    for (const PipeStats& s : c.pipes) gm += s.gm_bytes;
  if (!gm || !r.cycles) return;
  const double gbs = double(gm) * r.clock_ghz / double(r.cycles);
  os << "  GM: " << gm << " B moved by " << r.cores.size() << " core(s) = " << std::setprecision(1) << gbs << " GB/s";
  if (r.memory.on) {
    const LaunchReport::Memory& m = r.memory;
    const double hbm = double(m.hbm_bytes) * r.clock_ghz / double(r.cycles);
    os << "\n  memory: L2 served " << std::setprecision(1) << 100.0 * m.l2_hit_rate() << "% of " << m.read_bytes
       << " B read (" << m.written_bytes << " B written through); HBM moved " << m.hbm_bytes << " B = " << hbm << " GB/s of "
       << r.hbm_gb_per_s << " (" << 100.0 * hbm / r.hbm_gb_per_s << "%); " << m.shared_transfers << " of " << m.transfers
       << " GM transfers shared HBM below their line\n";
    return;
  }
  if (r.hbm_gb_per_s > 0 && gbs > r.hbm_gb_per_s)
    os << "; WARNING: more than the chip's " << r.hbm_gb_per_s << " GB/s of HBM (assumed). The model gives each core its "
       << "own DMA line: the memory system is off (CostTable::memory_system shares HBM between the cores in time "
          "behind an L2), so this launch is modeled faster than the chip can run it, unless L2 serves the reuse";
  os << '\n';
}

// "TLOAD -> (TCOLEXPANDADD -> TAXPY -> TSTORE) x 12 -> TSTORE": repeated runs of 1 to 8 names folded.
std::string group_runs(const std::vector<std::string>& names) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < names.size();) {
    std::size_t best_len = 1, best_reps = 1;
    for (std::size_t len = 1; len <= 8 && i + 2 * len <= names.size(); ++len) {
      std::size_t reps = 1;
      while (i + (reps + 1) * len <= names.size() &&
             std::equal(names.begin() + std::ptrdiff_t(i), names.begin() + std::ptrdiff_t(i + len),
                        names.begin() + std::ptrdiff_t(i + reps * len)))
        ++reps;
      if (reps > 1 && reps * len > best_reps * best_len) best_len = len, best_reps = reps;
    }
    std::string unit;
    for (std::size_t k = 0; k < best_len; ++k) unit += (k ? " -> " : "") + names[i + k];
    parts.push_back(best_reps > 1 ? (best_len > 1 ? "(" + unit + ")" : unit) + " x " + std::to_string(best_reps) : unit);
    i += best_len * best_reps;
  }
  std::string out;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    if (k == 24) {
      out += " -> ... (" + std::to_string(parts.size() - k) + " more groups)";
      break;
    }
    out += (k ? " -> " : "") + parts[k];
  }
  return out;
}
}  // namespace

std::ostream& operator<<(std::ostream& os, const LaunchReport& r) {
  // The report sets fixed notation and precisions as it goes: the caller's stream gets its own back.
  struct FormatSaver {
    std::ostream& os;
    std::ios_base::fmtflags flags = os.flags();
    std::streamsize precision = os.precision();
    ~FormatSaver() {
      os.flags(flags);
      os.precision(precision);
    }
  } saver{os};
  os << "launch: " << r.cores.size() << " core(s), target " << name_of(r.target) << ", "
     << (r.mode == Mode::Auto ? "auto" : "manual") << " mode, "
     << (r.policy == Policy::Concurrent ? "concurrent" : "deterministic") << " policy\n";
  {  // findings first: a launch whose results may be wrong says so before anything else
    std::uint64_t n = 0, more = 0;
    for (const auto& c : r.cores) {
      n += c.sync.size();
      more += c.sync_suppressed;
    }
    if (n) {
      os << "  SYNC CHECKER: " << n + more << " finding(s); results may differ from the chip's\n";
      std::size_t shown = 0;
      for (const auto& c : r.cores)
        for (const SyncFinding& f : c.sync)
          if (shown++ < 8) os << "    " << f.message << '\n';
      if (n + more > 8) os << "    ... " << n + more - 8 << " more (LaunchReport::findings())\n";
    }
  }
  os << "  modeled: " << r.cycles << " cycles = " << std::fixed << std::setprecision(3) << r.microseconds()
     << " us at " << r.clock_ghz << " GHz; " << r.instructions() << " instructions issued\n";
  if (r.waves > 1) {
    const bool clusters = r.cores.front().kind != CoreKind::Any;
    os << "  waves: " << (clusters ? r.cores.size() / 3 : r.cores.size()) << (clusters ? " clusters on the chip's " : " blocks on the chip's ")
       << r.chip_cores << (clusters ? " AI cores" : " cores") << " ran in " << r.waves
       << " waves, each block once a core was free (CostTable::cube_cores / vector_cores)\n";
  }
  os << "  overlap: " << std::setprecision(2) << r.overlap() << "x (serialised: " << r.serialised_cycles()
     << " cycles on the slowest core)\n";
  const CoreReport* slowest = nullptr;
  for (const auto& c : r.cores)
    if (c.dispatched + c.cycles == r.cycles) {
      slowest = &c;
      break;
    }
  if (slowest) os << "  verdict: " << verdict(*slowest) << '\n';
  gm_traffic(os, r);
  if (slowest && !slowest->timeline.empty()) {  // the slowest core's critical path, grouped
    const auto path = slowest->critical_path();
    std::unordered_map<std::uint64_t, std::string> names;
    for (const TimelineEntry& e : slowest->timeline) names.emplace(e.seq, slowest->name(e));
    std::vector<std::string> seq_names;
    for (std::uint64_t seq : path) seq_names.push_back(names[seq]);
    os << "  critical path (" << slowest->label() << ", " << path.size() << " instructions): "
       << group_runs(seq_names) << '\n';
  }
  {
    std::size_t n = 0, shown = 0;
    for (const auto& c : r.cores) n += c.warnings.size();
    if (n) os << "  device warnings: " << n << '\n';
    for (const auto& c : r.cores)
      for (const DeviceWarning& w : c.warnings)
        if (shown++ < 8)
          os << "    " << c.label() << ", instruction #" << w.seq << (w.count > 1 ? " (and " + std::to_string(w.count - 1) + " more)" : std::string())
             << ": " << w.message << '\n';
    if (n > 8) os << "    ... " << n - 8 << " more (LaunchReport::warnings())\n";
  }
  os << "  host:    " << std::setprecision(3) << r.host_seconds * 1e3 << " ms wall-clock\n";
  const int lanes[] = {PIPE_S, PIPE_MTE2, PIPE_V, PIPE_MTE3, PIPE_MTE1, PIPE_M, PIPE_FIX};
  // Cores with identical figures share one line (SPMD kernels usually look alike, or fall into a few
  // classes: edge tiles, even and odd blocks), listed as ranges of block indexes.
  auto same = [](const CoreReport& a, const CoreReport& b) {
    if (a.cycles != b.cycles || a.instructions != b.instructions) return false;
    for (int p = 0; p < kNumPipeIds; ++p)
      if (a.pipes[p].busy_cycles != b.pipes[p].busy_cycles || a.pipes[p].instructions != b.pipes[p].instructions ||
          a.pipes[p].idle != b.pipes[p].idle)
        return false;
    return true;
  };
  auto key = [](const CoreReport& c) {
    std::uint64_t h = c.cycles * 0x9e3779b97f4a7c15ull ^ c.instructions;
    for (const PipeStats& p : c.pipes) h = (h ^ p.busy_cycles) * 0x100000001b3ull ^ p.instructions;
    return h;
  };
  std::vector<std::vector<std::size_t>> classes;  // in order of each class's first core
  {
    std::unordered_map<std::uint64_t, std::vector<std::size_t>> by_key;  // key -> indexes into classes
    for (std::size_t i = 0; i < r.cores.size(); ++i) {
      auto& candidates = by_key[key(r.cores[i])];
      auto it = std::find_if(candidates.begin(), candidates.end(),
                             [&](std::size_t k) { return same(r.cores[classes[k].front()], r.cores[i]); });
      if (it != candidates.end()) {
        classes[*it].push_back(i);
      } else {
        candidates.push_back(classes.size());
        classes.push_back({i});
      }
    }
  }
  constexpr std::size_t kMaxClasses = 16;
  for (std::size_t k = 0; k < classes.size(); ++k) {
    if (k == kMaxClasses) {
      std::size_t rest = 0;
      for (std::size_t m = k; m < classes.size(); ++m) rest += classes[m].size();
      os << "  ... " << classes.size() - k << " more classes of cores (" << rest << " cores; LaunchReport::cores)\n";
      break;
    }
    const CoreReport& c = r.cores[classes[k].front()];
    const std::size_t n = classes[k].size();
    os << "  " << cores_label(r, classes[k]);
    if (n > 2 && c.kind == CoreKind::Any) os << " (" << n << " cores)";
    os << ": " << c.cycles << " cycles (" << std::setprecision(3) << double(c.cycles) / (r.clock_ghz * 1000.0)
       << " us), overlap " << std::setprecision(2) << c.overlap() << 'x';
    for (int p : lanes) {
      const PipeStats& s = c.pipes[p];
      if (s.instructions == 0) continue;
      os << " | " << (pipe_name(p) + 5) << ' ' << s.busy_cycles << " busy ("
         << std::setprecision(1) << (c.cycles ? 100.0 * double(s.busy_cycles) / double(c.cycles) : 0.0) << "%)";
    }
    os << '\n';
    moved(os, c, r.clock_ghz);
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
      // Waits for other cores, by the core whose signal ended them ("waiting on cluster 0 AIV1 (longest:
      // its TPOP #812)"); what no other core ended (a SYNCALL's own cost) stays "other cores".
      std::uint64_t cores_named = 0;
      for (const CoreIdle& w : s.cores) {
        std::ostringstream n;
        // A core of the same cluster by its place in it ("AIV1"): the line stands for a class of clusters.
        std::string who = std::size_t(w.core) < r.cores.size() ? r.cores[std::size_t(w.core)].label() : "core ?";
        if (c.kind != CoreKind::Any && std::size_t(w.core) < r.cores.size() && r.cores[std::size_t(w.core)].block == c.block)
          who = who.substr(who.rfind(' ') + 1);
        n << "waiting on " << who << " (longest: its " << (w.longest_name ? w.longest_name : "instruction") << " #" << w.longest_seq << ')';
        parts.emplace_back(w.cycles, n.str());
        cores_named += w.cycles;
      }
      for (int k = 0; k < kNumStalls; ++k) {
        if (k == int(Stall::Flag) || s.idle[std::size_t(k)] == 0) continue;
        if (k == int(Stall::Drain)) continue;  // the scalar pipe waiting for the end: every kernel has it
        if (k == int(Stall::Cores) && s.idle[std::size_t(k)] <= cores_named) continue;
        std::string n = stall_name(Stall(k));
        if (k == int(Stall::Event))
          n += std::string(" (longest: ") + (s.event_from_name ? s.event_from_name : "instruction") + " #" +
               std::to_string(s.event_from) + ")";
        parts.emplace_back(s.idle[std::size_t(k)] - (k == int(Stall::Cores) ? cores_named : 0), n);
      }
      std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
      if (parts.empty()) continue;
      os << (any ? " | " : "    idle: ") << (pipe_name(p) + 5);
      any = true;
      for (std::size_t k = 0; k < parts.size() && k < 3; ++k)
        os << (k ? ", " : " ") << parts[k].second << ' ' << std::setprecision(1)
           << (c.cycles ? 100.0 * double(parts[k].first) / double(c.cycles) : 0.0) << '%';
      if (parts.size() > 3) os << ", ...";
    }
    if (any) os << '\n';
  }
  return os;
}

}  // namespace pto
