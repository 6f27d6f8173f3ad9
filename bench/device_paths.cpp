// The emulation cost of the device code paths relative to the CPU reference: the same instruction on
// the same tiles, run through pto::launch on the A2A3 and A5 profiles with and without
// LaunchConfig::cpu_reference, 2000 instructions per launch, median of 5 launches, ns per instruction
// (issue and model included in both). Goal: at most 10x the CPU reference at 64x64.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include <pto/pto-inst.hpp>

using namespace pto;

namespace {
constexpr int kN = 2000;

double ns_per_instr(const std::function<Kernel()>& body, Target target, bool cpu) {
  std::vector<double> t;
  for (int run = 0; run < 5; ++run) {
    const auto t0 = std::chrono::steady_clock::now();
    launch({.blocks = 1, .target = target, .host_threads = 1, .check = SyncCheck::Off, .cpu_reference = cpu},
           [&]() -> Kernel { co_await body(); });
    t.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / kN);
  }
  std::sort(t.begin(), t.end());
  return t[2];
}

template <class T, int R, int C>
Kernel colexpandadd() {
  Tile<TileType::Vec, T, R, C> d, f;
  Tile<TileType::Vec, T, 1, C> v;
  TASSIGN(f, 0);
  TASSIGN(d, R * C * sizeof(T));
  TASSIGN(v, 2 * R * C * sizeof(T));
  for (int i = 0; i < kN; ++i) co_await TCOLEXPANDADD(d, f, v);
}
template <class T, int R, int C>
Kernel rowexpandexpdif() {
  Tile<TileType::Vec, T, R, C> d, f;
  Tile<TileType::Vec, T, R, 1, BLayout::ColMajor> e;
  TASSIGN(f, 0);
  TASSIGN(d, R * C * sizeof(T));
  TASSIGN(e, 2 * R * C * sizeof(T));
  for (int i = 0; i < kN; ++i) co_await TROWEXPANDEXPDIF(d, f, e);
}
template <class D, class S, int R, int C>
Kernel axpy() {
  Tile<TileType::Vec, D, R, C> d;
  Tile<TileType::Vec, S, R, C> s;
  TASSIGN(s, 0);
  TASSIGN(d, R * C * sizeof(S));
  for (int i = 0; i < kN; ++i) co_await TAXPY(d, s, S(0.5f));
}
template <class T, int R, int C>
Kernel texp() {
  Tile<TileType::Vec, T, R, C> a;
  TASSIGN(a, 0);
  for (int i = 0; i < kN; ++i) co_await TEXP(a, a);
}
template <class T, int R, int C>
Kernel rowexpand() {
  Tile<TileType::Vec, T, R, C> d;
  Tile<TileType::Vec, T, R, 1, BLayout::ColMajor> e;
  TASSIGN(e, 0);
  TASSIGN(d, 4096);
  for (int i = 0; i < kN; ++i) co_await TROWEXPAND(d, e);
}
template <class T, int R, int C>
Kernel divs() {
  Tile<TileType::Vec, T, R, C> d, s;
  TASSIGN(s, 0);
  TASSIGN(d, R * C * sizeof(T));
  std::fill_n(s.data(), R * C, T(7));
  for (int i = 0; i < kN; ++i) co_await TDIVS(d, s, T(3));
}
template <class T, int R, int C>
Kernel adds() {
  Tile<TileType::Vec, T, R, C> d, s;
  TASSIGN(s, 0);
  TASSIGN(d, R * C * sizeof(T));
  for (int i = 0; i < kN; ++i) co_await TADDS(d, s, T(3));
}
}  // namespace

int main() {
  struct Row {
    const char* name;
    std::function<Kernel()> body;
    bool a5_only = false;  // a dtype only the A5 profile allows
  };
  const Row rows[] = {
      {"TCOLEXPANDADD f32 64x64", colexpandadd<float, 64, 64>},
      {"TCOLEXPANDADD f16 64x64", colexpandadd<half, 64, 64>},
      {"TROWEXPANDEXPDIF f32 64x64", rowexpandexpdif<float, 64, 64>},
      {"TROWEXPANDEXPDIF f16 64x64", rowexpandexpdif<half, 64, 64>},
      {"TAXPY f32 64x64", axpy<float, float, 64, 64>},
      {"TAXPY f16 64x64", axpy<half, half, 64, 64>},
      {"TAXPY f32<-f16 64x64", axpy<float, half, 64, 64>},
      {"TEXP f32 64x64", texp<float, 64, 64>},
      {"TCOLEXPANDADD f32 16x128", colexpandadd<float, 16, 128>},
      {"TCOLEXPANDADD f32 128x128", colexpandadd<float, 128, 128>},
      {"TROWEXPAND f32 64x64", rowexpand<float, 64, 64>},
      {"TDIVS int32 64x64", divs<std::int32_t, 64, 64>},
      {"TCOLEXPANDADD bf16 64x64", colexpandadd<bfloat16_t, 64, 64>, true},
      {"TCOLEXPANDADD int8 64x64", colexpandadd<std::int8_t, 64, 64>, true},
      {"TADDS int64 64x32", adds<std::int64_t, 64, 32>, true},
  };
  for (Target target : {Target::A2A3, Target::A5}) {
    std::printf("%s device code path vs CPU reference, ns per instruction through pto::launch (median of 5)\n",
                name_of(target));
    std::printf("  %-42s %10s %10s %7s\n", "instruction", "device", "cpu", "ratio");
    for (const Row& r : rows) {
      if (r.a5_only && target != Target::A5) continue;
      const double dev = ns_per_instr(r.body, target, false), cpu = ns_per_instr(r.body, target, true);
      std::printf("  %-42s %10.0f %10.0f %6.2fx\n", r.name, dev, cpu, dev / cpu);
    }
  }
  return 0;
}
