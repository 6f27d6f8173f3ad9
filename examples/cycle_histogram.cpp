// A user observer (pto::Observer): per instruction name, how many ran and their modeled cycles, over
// every core of a launch. Calls for different cores may come from different host threads at once, so
// each core counts into its own map and on_launch_end merges them.
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

using namespace pto;

struct CycleHistogram : Observer {
  struct Bin {
    std::uint64_t count = 0, cycles = 0, longest = 0;
  };
  std::vector<std::map<std::string, Bin>> per_core;
  void on_launch(const LaunchView& l) override { per_core.assign(std::size_t(l.blocks), {}); }
  void on_retire(const InstrView& v) override {
    Bin& b = per_core[std::size_t(v.core)][v.name];
    ++b.count;
    b.cycles += v.end - v.start;
    b.longest = std::max(b.longest, v.end - v.start);
  }
  void on_launch_end(const LaunchReport& r) override {
    std::map<std::string, Bin> all;
    for (const auto& core : per_core)
      for (const auto& [name, b] : core) {
        Bin& a = all[name];
        a.count += b.count, a.cycles += b.cycles, a.longest = std::max(a.longest, b.longest);
      }
    std::printf("%-14s %8s %12s %8s %8s   (%llu cycles, %zu cores)\n", "instruction", "count", "cycles", "mean",
                "longest", static_cast<unsigned long long>(r.cycles), r.cores.size());
    for (const auto& [name, b] : all)
      std::printf("%-14s %8llu %12llu %8.1f %8llu\n", name.c_str(), static_cast<unsigned long long>(b.count),
                  static_cast<unsigned long long>(b.cycles), double(b.cycles) / double(b.count),
                  static_cast<unsigned long long>(b.longest));
  }
};

// The kernel it watches: y = 2 * x + 1 on 64-row slices, loads and stores double-buffered by events.
constexpr int kCols = 64, kRows = 32;
using TileT = Tile<TileType::Vec, float, kRows, kCols>;
using Gm = GlobalTensor<float, Shape<1, 1, 1, kRows, kCols>, pto::Stride<1, 1, 1, kCols, 1>>;

Kernel scale_shift(__gm__ float* y, __gm__ const float* x, int tiles_per_core) {
  TileT in[2], out[2];
  for (int b = 0; b < 2; ++b) TASSIGN(in[b], 2 * b * TileT::GetSizeInBytes()), TASSIGN(out[b], (2 * b + 1) * TileT::GetSizeInBytes());
  RecordEvent stored[2];
  for (int i = 0; i < tiles_per_core; ++i) {
    const int b = i % 2, tile = get_block_idx() * tiles_per_core + i;
    Gm src(const_cast<float*>(x) + tile * kRows * kCols), dst(y + tile * kRows * kCols);
    RecordEvent loaded = co_await TLOAD(in[b], src, stored[b]);
    RecordEvent scaled = co_await TMULS(out[b], in[b], 2.0f, loaded);
    RecordEvent shifted = co_await TADDS(out[b], out[b], 1.0f, scaled);
    stored[b] = co_await TSTORE(dst, out[b], shifted);
  }
}

int main() {
  const int cores = 4, tiles_per_core = 8;
  std::vector<float> x(std::size_t(cores * tiles_per_core * kRows * kCols)), y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(i % 251);
  CycleHistogram histogram;
  LaunchConfig cfg{.blocks = cores};
  cfg.observers = {&histogram};
  launch(cfg, scale_shift, y, x, tiles_per_core);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < x.size(); ++i) wrong += y[i] != 2 * x[i] + 1;
  std::printf("%zu wrong elements\n", wrong);
  return wrong == 0 ? 0 : 1;
}
