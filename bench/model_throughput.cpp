// Model-only throughput: the streaming example (examples/stream_axpy_kernel.hpp) with enough tiles for
// ~10^6 instructions on one core, in model-only mode (no element work), end to end: issuing, the
// pipeline model, recording the timeline, and writing the Chrome trace and the SVG. Prints
// instructions per second for each stage combination (median of runs) and the process's peak memory.
// Goal: >= 2 million instructions/s including the trace (the reference needs ~6.7 s for 245k).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../examples/stream_axpy_kernel.hpp"

using namespace pto;

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
double peak_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) / 1024.0;
}
}  // namespace

int main(int argc, char** argv) {
  const int tiles = argc > 1 ? std::atoi(argv[1]) : 83333;  // 12 instructions per tile
  const int runs = 3;
  using namespace stream_axpy;
  float dummy = 0;  // model-only: GM is never touched, the pointers only name places
  std::vector<float> bias(kCols);
  std::printf("model-only, stream_axpy double-buffered, 1 core, %d tiles\n", tiles);
  std::vector<double> plain, timed, traced, json, svg;
  std::uint64_t instructions = 0;
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    LaunchReport a = launch({.blocks = 1, .model_only = true}, kernel, &dummy, &dummy, bias.data(), 1.0f, tiles, 2);
    plain.push_back(seconds_since(t0));
    instructions = a.instructions();
    t0 = std::chrono::steady_clock::now();
    LaunchReport b = launch({.blocks = 1, .model_only = true, .timeline = true}, kernel, &dummy, &dummy, bias.data(),
                            1.0f, tiles, 2);
    timed.push_back(seconds_since(t0));
    auto t1 = std::chrono::steady_clock::now();
    write_chrome_trace(b, "model_throughput.json");
    json.push_back(seconds_since(t1));
    t1 = std::chrono::steady_clock::now();
    write_svg_timeline(b, "model_throughput.svg");
    svg.push_back(seconds_since(t1));
    traced.push_back(seconds_since(t0));
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const double n = double(instructions);
  std::printf("  %llu instructions per run, median of %d runs\n", (unsigned long long)instructions, runs);
  std::printf("  model only:                      %8.3f s  %6.2f M instructions/s\n", median(plain), n / median(plain) / 1e6);
  std::printf("  + timeline:                      %8.3f s  %6.2f M instructions/s\n", median(timed), n / median(timed) / 1e6);
  std::printf("  + timeline + trace JSON + SVG:   %8.3f s  %6.2f M instructions/s\n", median(traced), n / median(traced) / 1e6);
  std::printf("  (writing the JSON: %.3f s, the SVG: %.3f s)\n", median(json), median(svg));
  std::printf("  peak memory (RSS): %.0f MiB\n", peak_mib());
  if (!std::getenv("PTO_KEEP_TRACE")) std::remove("model_throughput.json");
  std::remove("model_throughput.svg");
  return 0;
}
