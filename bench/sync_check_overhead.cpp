// The synchronisation checker's cost: the streaming example (examples/stream_axpy_kernel.hpp,
// double-buffered, 4 cores x 256 tiles of 64x64 float) with checking off and on, host wall-clock,
// median of 7 runs each, interleaved; also in model-only mode, where the checker's share is largest.
// Goal: checking on costs at most 2x the unchecked run.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "../examples/stream_axpy_kernel.hpp"

using namespace pto;

int main() {
  using namespace stream_axpy;
  const int cores = 4, tiles = 256, runs = 7;
  std::vector<float> x(std::size_t(cores) * tiles * kRows * kCols, 1.0f), out(x.size()), bias(kCols, 0.5f);
  std::printf("stream_axpy double-buffered, %d cores x %d tiles, deterministic policy, median of %d runs\n", cores, tiles,
              runs);
  for (bool model_only : {false, true}) {
    std::vector<double> off, on;
    std::size_t findings = 0;
    for (int r = 0; r < runs; ++r)
      for (SyncCheck check : {SyncCheck::Off, SyncCheck::Report}) {
        const auto t0 = std::chrono::steady_clock::now();
        LaunchReport rep = launch({.blocks = cores, .model_only = model_only, .check = check}, kernel, out.data(),
                                  x.data(), bias.data(), 0.5f, tiles, 2);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        (check == SyncCheck::Off ? off : on).push_back(s);
        findings += rep.findings().size();
      }
    std::sort(off.begin(), off.end());
    std::sort(on.begin(), on.end());
    const double a = off[off.size() / 2], b = on[on.size() / 2];
    std::printf("  %-12s checking off %7.2f ms, on %7.2f ms: %.2fx (%zu findings)\n", model_only ? "model-only:" : "functional:",
                a * 1e3, b * 1e3, b / a, findings);
  }
  return 0;
}
