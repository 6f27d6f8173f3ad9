// Issue overhead of a trivial instruction: host nanoseconds per instruction, amortised over 10^6
// instructions, median of several runs, for each policy. The instruction is a pipe_barrier on PIPE_V
// (a queued no-op: it costs the issue path and the pipe model, no element work), then a 1x8 TEXPANDS
// for comparison, on the CPU reference (the issue overhead itself) and on the A2/A3 device path (what a
// default launch also pays: the emulated vector_dup). Goal for the deterministic policy: <= 150 ns per
// instruction.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

using namespace pto;

namespace {
Kernel barriers(int n) {
  for (int i = 0; i < n; ++i) co_await pipe_barrier(PIPE_V);
}
Kernel fills(int n) {
  Tile<TileType::Vec, float, 1, 8> t;
  TASSIGN(t, 0);
  for (int i = 0; i < n; ++i) co_await TEXPANDS(t, float(i));
}
void plain_fills(int n) {
  Tile<TileType::Vec, float, 1, 8> t;
  TASSIGN(t, 0);
  for (int i = 0; i < n; ++i) TEXPANDS(t, float(i));
}

template <class K>
double median_ns_per_instr(K kernel, Policy policy, int n, int runs, bool cpu = true) {
  std::vector<double> ns;
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    LaunchReport rep = launch({.blocks = 1, .policy = policy, .host_threads = 1, .cpu_reference = cpu}, kernel, n);
    auto t1 = std::chrono::steady_clock::now();
    ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / double(rep.instructions()));
  }
  std::sort(ns.begin(), ns.end());
  return ns[ns.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  std::printf("issue overhead, %d instructions per run, median of %d runs (host ns per instruction)\n", n, runs);
  std::printf("  %-48s %10s %10s\n", "instruction", "determ.", "concurrent");
  struct Row {
    const char* name;
    double d, c;
  } rows[] = {
      {"co_await pipe_barrier(PIPE_V)", median_ns_per_instr(barriers, Policy::Deterministic, n, runs),
       median_ns_per_instr(barriers, Policy::Concurrent, n / 10, runs)},
      {"co_await TEXPANDS(1x8 float)", median_ns_per_instr(fills, Policy::Deterministic, n, runs),
       median_ns_per_instr(fills, Policy::Concurrent, n / 10, runs)},
      {"TEXPANDS(1x8 float) in a plain kernel", median_ns_per_instr(plain_fills, Policy::Deterministic, n, runs),
       median_ns_per_instr(plain_fills, Policy::Concurrent, n / 10, runs)},
      {"co_await TEXPANDS(1x8 float), A2A3 device path", median_ns_per_instr(fills, Policy::Deterministic, n, runs, false),
       median_ns_per_instr(fills, Policy::Concurrent, n / 10, runs, false)},
  };
  for (const Row& r : rows) std::printf("  %-48s %10.1f %10.1f\n", r.name, r.d, r.c);
  std::printf("(concurrent runs use n/10 instructions: each one is a cross-thread handoff)\n");
  return 0;
}
