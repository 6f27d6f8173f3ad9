// Many cores on few host threads: the streaming example (examples/stream_axpy_kernel.hpp, double-buffered,
// 16 cores x 256 tiles of 64x64 float) on 2 host threads, host wall-clock, median of N runs, as a coroutine
// kernel and as the same plain kernel; both policies, functional and model-only. No core waits for another
// here, so the launch's scheduler must cost nothing (compare with a build from before it).
// Built with PTO_BENCH_SYNCALL (this tree's CMake does), it also runs the plain and coroutine kernels with
// a SYNCALL after every `sync_every` tiles: what waiting costs when cores do meet.
//
//   bench_cores [runs = 9] [cores = 16] [tiles = 256] [row: run only the row called this, e.g. "model-only deterministic plain"]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../examples/stream_axpy_kernel.hpp"

using namespace pto;

namespace {
using namespace stream_axpy;

// stream_axpy::kernel as a plain PTO kernel (every instruction issued where it stands), double-buffered,
// optionally with a SYNCALL every `sync_every` tiles (0: none).
void plain_kernel(__gm__ float* out, __gm__ float* x, __gm__ float* bias, float alpha, int tiles_per_core, int sync_every) {
  TileF a[2], b[2];
  BiasF bias_row;
  for (int k = 0; k < 2; ++k) {
    TASSIGN(a[k], k * kTileBytes);
    TASSIGN(b[k], (2 + k) * kTileBytes);
  }
  TASSIGN(bias_row, 4 * kTileBytes);
  GmBias gbias(bias);
  TLOAD(bias_row, gbias);
  for (int k = 0; k < 2; ++k) {
    set_flag(PIPE_V, PIPE_MTE2, k);
    set_flag(PIPE_MTE3, PIPE_V, k);
  }
  const long first = long(get_block_idx()) * tiles_per_core;
  for (int t = 0; t < tiles_per_core; ++t) {
    const int k = t % 2;
    GmTile src(x + (first + t) * kRows * kCols), dst(out + (first + t) * kRows * kCols);
    wait_flag(PIPE_V, PIPE_MTE2, k);
    TLOAD(a[k], src);
    set_flag(PIPE_MTE2, PIPE_V, k);
    wait_flag(PIPE_MTE2, PIPE_V, k);
    wait_flag(PIPE_MTE3, PIPE_V, k);
    TCOLEXPANDADD(b[k], a[k], bias_row);
    TAXPY(b[k], a[k], alpha);
    set_flag(PIPE_V, PIPE_MTE2, k);
    set_flag(PIPE_V, PIPE_MTE3, k);
    wait_flag(PIPE_V, PIPE_MTE3, k);
    TSTORE(dst, b[k]);
    set_flag(PIPE_MTE3, PIPE_V, k);
#ifdef PTO_BENCH_SYNCALL
    if (sync_every && (t + 1) % sync_every == 0) SYNCALL();
#else
    (void)sync_every;
#endif
  }
  for (int k = 0; k < 2; ++k) {
    wait_flag(PIPE_V, PIPE_MTE2, k);
    wait_flag(PIPE_MTE3, PIPE_V, k);
  }
}

#ifdef PTO_BENCH_SYNCALL
// The coroutine kernel with a SYNCALL every `sync_every` tiles.
Kernel coroutine_sync(__gm__ float* out, __gm__ float* x, __gm__ float* bias, float alpha, int tiles_per_core, int sync_every) {
  TileF a[2], b[2];
  BiasF bias_row;
  for (int k = 0; k < 2; ++k) {
    TASSIGN(a[k], k * kTileBytes);
    TASSIGN(b[k], (2 + k) * kTileBytes);
  }
  TASSIGN(bias_row, 4 * kTileBytes);
  GmBias gbias(bias);
  co_await TLOAD(bias_row, gbias);
  for (int k = 0; k < 2; ++k) {
    co_await set_flag(PIPE_V, PIPE_MTE2, k);
    co_await set_flag(PIPE_MTE3, PIPE_V, k);
  }
  const long first = long(get_block_idx()) * tiles_per_core;
  for (int t = 0; t < tiles_per_core; ++t) {
    const int k = t % 2;
    GmTile src(x + (first + t) * kRows * kCols), dst(out + (first + t) * kRows * kCols);
    co_await wait_flag(PIPE_V, PIPE_MTE2, k);
    co_await TLOAD(a[k], src);
    co_await set_flag(PIPE_MTE2, PIPE_V, k);
    co_await wait_flag(PIPE_MTE2, PIPE_V, k);
    co_await wait_flag(PIPE_MTE3, PIPE_V, k);
    co_await TCOLEXPANDADD(b[k], a[k], bias_row);
    co_await TAXPY(b[k], a[k], alpha);
    co_await set_flag(PIPE_V, PIPE_MTE2, k);
    co_await set_flag(PIPE_V, PIPE_MTE3, k);
    co_await wait_flag(PIPE_V, PIPE_MTE3, k);
    co_await TSTORE(dst, b[k]);
    co_await set_flag(PIPE_MTE3, PIPE_V, k);
    if (sync_every && (t + 1) % sync_every == 0) co_await SYNCALL();
  }
  for (int k = 0; k < 2; ++k) {
    co_await wait_flag(PIPE_V, PIPE_MTE2, k);
    co_await wait_flag(PIPE_MTE3, PIPE_V, k);
  }
}
#endif

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 9;
  const int cores = argc > 2 ? std::max(1, std::atoi(argv[2])) : 16;
  const int tiles = argc > 3 ? std::max(1, std::atoi(argv[3])) : 256;
  const std::string only = argc > 4 ? argv[4] : "";
  std::vector<float> x(std::size_t(cores) * tiles * kRows * kCols, 1.0f), out(x.size()), bias(kCols, 0.5f);
  std::printf("stream_axpy double-buffered, %d cores x %d tiles on 2 host threads, median of %d runs (ms)\n", cores, tiles, runs);
  struct Variant {
    const char* name;
    int kind;        // 0 coroutine, 1 plain, 2 coroutine + SYNCALL, 3 plain + SYNCALL
  };
  std::vector<Variant> variants = {{"coroutine", 0}, {"plain", 1}};
#ifdef PTO_BENCH_SYNCALL
  variants.push_back({"coroutine, SYNCALL every 64 tiles", 2});
  variants.push_back({"plain, SYNCALL every 64 tiles", 3});
#endif
  for (bool model_only : {false, true})
    for (Policy policy : {Policy::Deterministic, Policy::Concurrent}) {
      if (model_only && policy == Policy::Concurrent) continue;  // model-only runs no executor
      for (const Variant& v : variants) {
        const std::string row = std::string(model_only ? "model-only " : "functional ") +
                                (policy == Policy::Deterministic ? "deterministic " : "concurrent ") + v.name;
        if (!only.empty() && row != only) continue;
        std::vector<double> t;
        std::uint64_t cycles = 0;
        for (int r = 0; r < runs; ++r) {
          const LaunchConfig cfg{.blocks = cores, .policy = policy, .host_threads = 2, .model_only = model_only,
                                 .check = SyncCheck::Off};
          const auto t0 = std::chrono::steady_clock::now();
          LaunchReport rep;
          switch (v.kind) {
            case 0: rep = launch(cfg, kernel, out.data(), x.data(), bias.data(), 0.5f, tiles, 2); break;
            case 1: rep = launch(cfg, plain_kernel, out.data(), x.data(), bias.data(), 0.5f, tiles, 0); break;
#ifdef PTO_BENCH_SYNCALL
            case 2: rep = launch(cfg, coroutine_sync, out.data(), x.data(), bias.data(), 0.5f, tiles, 64); break;
            case 3: rep = launch(cfg, plain_kernel, out.data(), x.data(), bias.data(), 0.5f, tiles, 64); break;
#endif
          }
          t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
          cycles = rep.cycles;
        }
        std::printf("  %-11s %-13s %-36s %8.2f ms  (%llu modeled cycles)\n", model_only ? "model-only" : "functional",
                    policy == Policy::Deterministic ? "deterministic" : "concurrent", v.name, median(t) * 1e3,
                    static_cast<unsigned long long>(cycles));
      }
    }
  return 0;
}
