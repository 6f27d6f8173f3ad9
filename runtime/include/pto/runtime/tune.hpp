// A tiling search on the model: run one kernel over a grid of tiling parameters, model only, several
// candidates at once on the host, and rank them by modeled time with what bounds each (its busiest pipe).
//
//   std::vector<pto::tune::Candidate> grid;
//   grid.push_back({"128x256x64", [&](const pto::LaunchConfig& cfg) { return pto::launch(cfg, gemm<128, 256, 64>, ...); }});
//   const auto ranked = pto::tune::search(grid, {.config = {.blocks = 24}});
//   std::cout << pto::tune::ranking(ranked, 10);
//
// Each candidate launches with the configuration it is given (the search's base with model_only set and
// one host thread: the candidates run side by side instead). A candidate that does not run (a tile that
// does not fit its buffer, a shape the instruction rejects) is ranked after the others with its error.
// Modeled cycles are deterministic, so the ranking does not depend on the host threads. docs/tuning.md.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <pto/runtime/launch.hpp>

namespace pto::tune {

struct Candidate {
  std::string name;                                      // what the ranking calls it ("base 128x256x64, 2 buffers")
  std::function<LaunchReport(const LaunchConfig&)> run;  // launches the kernel with this configuration
};

struct Options {
  LaunchConfig config{};  // the base configuration (target, blocks, mode, costs); model_only is forced
  int host_threads = 0;   // candidates run at once; 0 = the machine's hardware concurrency
};

struct Result {
  std::string name;
  bool ok = false;
  std::string error;            // why it did not run (the pto::Error's message); empty when ok
  std::uint64_t cycles = 0;     // the launch's modeled makespan
  double microseconds = 0;      // ... at the target's clock
  int bound_pipe = -1;          // the busiest pipe of the slowest core (pipe_t), -1 when it did not run
  double bound_share = 0;       // ... its busy cycles over that core's cycles (0..1)
  std::string bound;            // in words: "MTE2 (GM -> L1/UB) 93% busy"
  double host_seconds = 0;      // the candidate's launch on the host
};

// Every candidate, ranked: fastest first (equal cycles keep the grid's order), then those that failed in
// the grid's order. Throws pto::Error on a candidate without a name or a run function, or a repeated name.
std::vector<Result> search(const std::vector<Candidate>& grid, const Options& options = {});

// The ranking as a table (the first `top` that ran, 0 = all), then the candidates that failed.
std::string ranking(const std::vector<Result>& ranked, std::size_t top = 0);

// What bounds a launch: the busiest pipe of its slowest core, in words (also used by search).
Result classify(const LaunchReport& r);

}  // namespace pto::tune
