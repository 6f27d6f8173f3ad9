// pto::tune: the tiling search (tune.hpp). The candidates are independent launches, so they run on a
// small pool of host threads, each launch on one host thread of its own (modeled cycles do not depend on
// it); results land in the grid's slots, so the ranking never depends on which thread finished first.
#include <pto/runtime/tune.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <set>
#include <sstream>
#include <thread>

#include <pto/isa/error.hpp>

namespace pto::tune {
namespace {

const char* pipe_role(int p) {
  switch (p) {
    case PIPE_S: return "S (scalar)";
    case PIPE_V: return "V (vector)";
    case PIPE_MTE1: return "MTE1 (L1 -> L0A/L0B)";
    case PIPE_MTE2: return "MTE2 (GM -> L1/UB)";
    case PIPE_MTE3: return "MTE3 (UB -> GM)";
    case PIPE_M: return "M (cube)";
    case PIPE_FIX: return "FIX (L0C -> GM/L1)";
    default: return "?";
  }
}

Result run_one(const Candidate& c, const LaunchConfig& base) {
  LaunchConfig cfg = base;
  cfg.model_only = true;
  cfg.host_threads = 1;
  const auto t0 = std::chrono::steady_clock::now();
  Result r;
  try {
    r = classify(c.run(cfg));
  } catch (const std::exception& e) {  // pto::Error and anything else the candidate threw
    r = {};
    r.error = e.what();
  }
  r.name = c.name;
  r.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace

Result classify(const LaunchReport& report) {
  Result r;
  r.ok = true;
  r.cycles = report.cycles;
  r.microseconds = report.microseconds();
  const CoreReport* slow = nullptr;
  for (const CoreReport& c : report.cores)
    if (!slow || c.cycles > slow->cycles) slow = &c;
  if (!slow || slow->cycles == 0) {
    r.bound = "nothing ran";
    return r;
  }
  for (int p = 0; p < kNumPipeIds; ++p) {
    if (p == PIPE_ALL) continue;
    const double share = double(slow->pipes[std::size_t(p)].busy_cycles) / double(slow->cycles);
    if (r.bound_pipe < 0 || share > r.bound_share) r.bound_pipe = p, r.bound_share = share;
  }
  // Below half busy no pipe limits it: what is left is the chain between the pipes (how much of their
  // work overlaps says whether more buffers could help) or waits for other cores.
  char text[200];
  if (r.bound_share >= 0.5)
    std::snprintf(text, sizeof text, "%s %.0f%% busy", pipe_role(r.bound_pipe), 100.0 * r.bound_share);
  else
    std::snprintf(text, sizeof text, "no pipe half busy (%s %.0f%%): the chain between pipes, overlap %.2f",
                  pipe_role(r.bound_pipe), 100.0 * r.bound_share, slow->overlap());
  r.bound = text;
  return r;
}

std::vector<Result> search(const std::vector<Candidate>& grid, const Options& options) {
  std::set<std::string> names;
  for (const Candidate& c : grid) {
    if (c.name.empty()) detail::fail("pto::tune::search: a candidate has no name (Candidate::name names it in the ranking)");
    if (!c.run) detail::fail("pto::tune::search: candidate \"", c.name, "\" has no run function");
    if (!names.insert(c.name).second) detail::fail("pto::tune::search: two candidates are named \"", c.name, "\"");
  }
  std::vector<Result> out(grid.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < grid.size();) out[i] = run_one(grid[i], options.config);
  };
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t threads =
      std::min<std::size_t>(grid.size(), options.host_threads > 0 ? std::size_t(options.host_threads) : hw);
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  std::stable_sort(out.begin(), out.end(), [](const Result& a, const Result& b) {
    if (a.ok != b.ok) return a.ok;
    return a.ok && a.cycles < b.cycles;
  });
  return out;
}

std::string ranking(const std::vector<Result>& ranked, std::size_t top) {
  std::size_t width = 9;
  for (const Result& r : ranked) width = std::max(width, r.name.size());
  std::ostringstream os;
  char line[512];
  std::snprintf(line, sizeof line, "  rank  %-*s  %14s  %11s  %s\n", int(width), "candidate", "modeled cycles", "modeled us",
                "bound (busiest pipe of the slowest core)");
  os << line;
  std::size_t shown = 0, ran = 0, failed = 0;
  for (const Result& r : ranked) {
    if (!r.ok) {
      ++failed;
      continue;
    }
    ++ran;
    if (top && shown == top) continue;
    ++shown;
    std::snprintf(line, sizeof line, "  %4zu  %-*s  %14llu  %11.2f  %s\n", shown, int(width), r.name.c_str(),
                  static_cast<unsigned long long>(r.cycles), r.microseconds, r.bound.c_str());
    os << line;
  }
  if (shown < ran) os << "  (" << ran - shown << " more ran; ranked after these)\n";
  if (failed) {
    os << "  " << failed << " candidate(s) did not run:\n";
    for (const Result& r : ranked)
      if (!r.ok) {
        std::string e = r.error;  // a located error spans lines (the source line, the caret): keep them indented
        for (std::size_t at = 0; (at = e.find('\n', at)) != std::string::npos && at + 1 < e.size(); at += 7) e.insert(at + 1, "      ");
        os << "    " << r.name << ": " << e << (e.empty() || e.back() != '\n' ? "\n" : "");
      }
  }
  return os.str();
}

}  // namespace pto::tune
