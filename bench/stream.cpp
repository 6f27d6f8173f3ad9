// Streaming throughput: one core runs TLOAD -> TCOLEXPANDADD (a bias row) -> TSTORE over every 64x64
// tile of a 64 MiB float tensor, double-buffered, and we report host GB/s (bytes read + written per
// second of wall-clock) next to a STREAM-style triad a[i] = b[i] + s * c[i] measured in the same process.
// The kernels run the CPU reference (LaunchConfig::cpu_reference): this measures the CPU backend, not
// the device emulation. Two hand-written loops of the same per-tile structure give the practical
// limits: on one thread (what the deterministic policy does), and on two threads that hand tiles over
// through a spinning flag (the concurrent policy's MTE2 | V + MTE3 split: with host_threads = 2 its
// kernel thread issues, models and runs the loads, and its one pipe thread the adds and stores).
//
// The machine's memory bandwidth swings by 2-3x within seconds (a shared virtual machine), so each
// repetition measures every variant back to back and the figures that matter are the per-repetition
// ratios to that repetition's triad; we print their medians (and quartiles) over the repetitions.
//
//   bench_stream [MiB = 64] [repetitions = 11]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include <immintrin.h>

#include <pto/pto-inst.hpp>

using namespace pto;

namespace {
constexpr int R = 64, C = 64;
using TileF = Tile<TileType::Vec, float, R, C>;
using RowF = Tile<TileType::Vec, float, 1, C>;
using GmTile = GlobalTensor<float, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>>;
using GmRow = GlobalTensor<float, Shape<1, 1, 1, 1, C>, pto::Stride<1, 1, 1, C, 1>>;

Kernel add_bias_stream(float* out, float* x, float* bias, long tiles) {
  TileF in[2], res[2];
  RowF b;
  for (int k = 0; k < 2; ++k) {
    TASSIGN(in[k], k * 0x4000);
    TASSIGN(res[k], 0x8000 + k * 0x4000);
  }
  TASSIGN(b, 0x10000);
  GmRow gb(bias);
  RecordEvent bias_loaded = co_await TLOAD(b, gb);
  RecordEvent stored[2], added[2];
  for (long t = 0; t < tiles; ++t) {
    const int k = int(t % 2);
    GmTile src(x + t * R * C), dst(out + t * R * C);
    RecordEvent l = co_await TLOAD(in[k], src, added[k]);  // in[k] is free once the add that read it ended
    added[k] = co_await TCOLEXPANDADD(res[k], in[k], b, l, bias_loaded, stored[k]);
    stored[k] = co_await TSTORE(dst, res[k], added[k]);
  }
}

void add_bias_tile(float* res, const float* in, const float* bias) {
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) res[i * C + j] = in[i * C + j] + bias[j];
}
void stream_out(float* dst, const float* res) {  // dst: 16-byte aligned vector storage, whole tiles
  auto* d = reinterpret_cast<__m128i*>(dst);
  for (int k = 0; k < R * C / 4; ++k) _mm_stream_si128(d + k, _mm_load_si128(reinterpret_cast<const __m128i*>(res) + k));
}

// The runtime's per-tile work by hand, on one thread: copy GM -> a UB-sized buffer, the bias add into
// a second buffer, a non-temporal copy back to GM; minus issue, model and dispatch.
void hand_tile_loop(float* out, const float* x, const float* bias, long tiles) {
  alignas(64) static float in_buf[2][R * C], res_buf[2][R * C];
  for (long t = 0; t < tiles; ++t) {
    float* in = in_buf[t % 2];
    float* res = res_buf[t % 2];
    std::memcpy(in, x + t * R * C, sizeof in_buf[0]);
    add_bias_tile(res, in, bias);
    stream_out(out + t * R * C, res);
  }
  _mm_sfence();
}

// The same on two threads, double-buffered like the kernel: one copies tiles in, the other adds and
// streams them out; tile t's input buffer is reused once the add of tile t - 2 has read it.
void hand_two_thread_loop(float* out, const float* x, const float* bias, long tiles) {
  alignas(64) static float in_buf[2][R * C], res_buf[2][R * C];
  std::atomic<long> loaded{0}, added{0};
  std::thread loader([&] {
    for (long t = 0; t < tiles; ++t) {
      while (added.load(std::memory_order_acquire) < t - 1) _mm_pause();
      std::memcpy(in_buf[t % 2], x + t * R * C, sizeof in_buf[0]);
      loaded.store(t + 1, std::memory_order_release);
    }
  });
  for (long t = 0; t < tiles; ++t) {
    while (loaded.load(std::memory_order_acquire) <= t) _mm_pause();
    add_bias_tile(res_buf[t % 2], in_buf[t % 2], bias);
    added.store(t + 1, std::memory_order_release);
    stream_out(out + t * R * C, res_buf[t % 2]);
  }
  _mm_sfence();
  loader.join();
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Stats {
  double median, lo, hi;  // median and quartiles
};
Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return {v[n / 2], v[n / 4], v[(3 * n) / 4]};
}
}  // namespace

int main(int argc, char** argv) {
  const std::size_t bytes = std::size_t(argc > 1 ? std::atol(argv[1]) : 64) << 20;
  const int reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 11;
  const std::size_t n = bytes / sizeof(float);
  const long tiles = long(n / (R * C));
  std::vector<float> x(n, 1.0f), out(n, 0.0f), bias(C, 0.5f), a(n), b(n, 1.0f), c(n, 2.0f);

  enum { kTriad, kHand, kHand2, kDeterministic, kConcurrent, kCount };
  const char* names[kCount] = {
      "STREAM-style triad (3 arrays)",
      "hand loop, 1 thread (copy in, add, NT copy out)",
      "hand loop, 2 threads (copy in | add, NT copy out)",
      "TLOAD -> TCOLEXPANDADD -> TSTORE, deterministic policy",
      "the same, concurrent policy (kernel+MTE2 | V+MTE3)",
  };
  std::vector<double> gbs[kCount], ratio[kCount], model_only_us;
  std::size_t wrong = 0;
  for (int rep = 0; rep < reps; ++rep) {
    double g[kCount];
    for (int v = 0; v < kCount; ++v) {
      std::fill(out.begin(), out.end(), 0.0f);
      const auto t0 = std::chrono::steady_clock::now();
      switch (v) {
        case kTriad: {
          float* __restrict pa = a.data();
          const float* __restrict pb = b.data();
          const float* __restrict pc = c.data();
          for (std::size_t i = 0; i < n; ++i) pa[i] = pb[i] + 3.0f * pc[i];
          break;
        }
        case kHand: hand_tile_loop(out.data(), x.data(), bias.data(), tiles); break;
        case kHand2: hand_two_thread_loop(out.data(), x.data(), bias.data(), tiles); break;
        case kDeterministic:
          launch({.blocks = 1, .host_threads = 1, .cpu_reference = true}, add_bias_stream, out.data(), x.data(), bias.data(), tiles);
          break;
        case kConcurrent:
          launch({.blocks = 1, .policy = Policy::Concurrent, .host_threads = 2, .cpu_reference = true}, add_bias_stream, out.data(),
                 x.data(), bias.data(), tiles);
          break;
      }
      g[v] = (v == kTriad ? 3.0 : 2.0) * double(bytes) / seconds_since(t0) / 1e9;
      if (v != kTriad)
        for (std::size_t i = 0; i < n; ++i) wrong += out[i] != 1.5f;
    }
    // The same launch timed only (no data work): the issue and model share of a tile.
    const auto t0 = std::chrono::steady_clock::now();
    launch({.blocks = 1, .host_threads = 1, .model_only = true, .cpu_reference = true}, add_bias_stream, out.data(), x.data(),
           bias.data(), tiles);
    model_only_us.push_back(seconds_since(t0) * 1e6 / double(tiles));
    for (int v = 0; v < kCount; ++v) {
      gbs[v].push_back(g[v]);
      ratio[v].push_back(g[v] / g[kTriad]);
    }
  }
  std::printf("stream over %zu MiB, one core, %ld tiles of 64x64 float, %d repetitions\n", bytes >> 20, tiles, reps);
  std::printf("%-56s %16s %28s\n", "", "GB/s median", "per-repetition / triad");
  for (int v = 0; v < kCount; ++v) {
    const Stats s = stats(gbs[v]), r = stats(ratio[v]);
    if (v == kTriad) std::printf("  %-54s %9.2f\n", names[v], s.median);
    else std::printf("  %-54s %9.2f %14.0f%% (quartiles %.0f-%.0f%%)\n", names[v], s.median, 100 * r.median, 100 * r.lo, 100 * r.hi);
  }
  // Per tile: what the runtime adds to the hand loop's work, and what the goal (80% of the triad) leaves it.
  const double tile_bytes = 2.0 * R * C * sizeof(float);
  auto us_per_tile = [&](double gb_s) { return tile_bytes / (gb_s * 1e9) * 1e6; };
  const double hand = us_per_tile(stats(gbs[kHand]).median), det = us_per_tile(stats(gbs[kDeterministic]).median);
  const double goal = us_per_tile(0.8 * stats(gbs[kTriad]).median);
  std::printf("  per tile (medians): hand loop %.2f us, deterministic policy %.2f us (+%.2f us), the same launch model-only %.2f us;\n"
              "  80%% of the triad allows %.2f us per tile, %+.2f us against the hand loop\n",
              hand, det, det - hand, stats(model_only_us).median, goal, goal - hand);
  std::printf("  %zu wrong elements\n", wrong);
  return wrong == 0 ? 0 : 1;
}
