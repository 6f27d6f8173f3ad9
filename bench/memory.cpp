// The memory system (CostTable::memory_system) on two public workloads, model only:
//  - stream_axpy (examples/stream_axpy_kernel.hpp, double-buffered, 64 tiles of 64x64 float per core)
//    on 1 to 48 A2/A3 cores: the GM bandwidth the launch achieves with each core's own line (off) and
//    with HBM shared in time behind L2 (on), against the chip's HBM figure: where the roof bends it.
//  - examples/gemm (pto-isa's gemm_performance tiling) at the four sizes its README measured on a 24-core
//    A3: modeled time off / on against the chip, with L2's hit rate.
// Modeled cycles are deterministic: one run each. Host seconds are printed for the cost of the lockstep.
//
//   bench_memory [tiles per core = 64]
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <vector>

#include <pto/pto-inst.hpp>

#include "../examples/gemm_kernel.hpp"
#include "../examples/stream_axpy_kernel.hpp"

using namespace pto;

namespace {

double gm_gbs(const LaunchReport& r) {
  std::uint64_t gm = 0;
  for (const CoreReport& c : r.cores)
    for (const PipeStats& s : c.pipes) gm += s.gm_bytes;
  return double(gm) * r.clock_ghz / double(r.cycles);
}

}  // namespace

int main(int argc, char** argv) {
  const int tiles = argc > 1 ? std::max(1, std::atoi(argv[1])) : 64;
  CostTable on = default_cost_table(Target::A2A3);
  on.memory_system = true;
  CostTable off = default_cost_table(Target::A2A3);
  off.memory_system = false;
  std::printf("stream_axpy, %d tiles of 64x64 float per core, A2A3 model only; HBM %.0f GB/s (assumed), L2 %llu MiB\n", tiles,
              on.hbm_gb_per_s, static_cast<unsigned long long>(on.l2_bytes >> 20));
  std::printf("  cores   off: us   GB/s    on: us   GB/s   L2 hit   shared   host s (on)\n");
  for (int cores : {1, 2, 4, 6, 8, 12, 16, 24, 32, 48}) {
    const std::size_t n = std::size_t(cores) * tiles * stream_axpy::kRows * stream_axpy::kCols;
    std::vector<float> x(n), out(n), bias(stream_axpy::kCols);
    const LaunchReport a = launch({.blocks = cores, .model_only = true, .costs = &off}, stream_axpy::kernel, out, x, bias, 2.0f, tiles, 2);
    const LaunchReport b = launch({.blocks = cores, .model_only = true, .costs = &on}, stream_axpy::kernel, out, x, bias, 2.0f, tiles, 2);
    std::printf("  %5d  %8.2f %6.0f  %8.2f %6.0f   %5.1f%%  %3llu/%-4llu  %6.3f\n", cores, a.microseconds(), gm_gbs(a), b.microseconds(),
                gm_gbs(b), 100.0 * b.memory.l2_hit_rate(), static_cast<unsigned long long>(b.memory.shared_transfers),
                static_cast<unsigned long long>(b.memory.transfers), b.host_seconds);
  }

  struct Measured {
    int size;
    double ms;
  };
  const Measured measured[] = {{1536, 0.0388}, {3072, 0.2067}, {6144, 1.5060}, {7680, 3.1680}};
  std::printf("\nexamples/gemm (pto-isa's tiling), 24 cores, A2A3 model only, against the README's 24-core A3 times\n");
  std::printf("  size   measured ms   off: ms  error    on: ms  error   L2 hit   HBM GB/s   host s (off / on)\n");
  for (const Measured& m : measured) {
    const std::size_t e = std::size_t(m.size) * std::size_t(m.size);
    std::unique_ptr<half[]> ga(new half[e]), gb(new half[e]);
    std::unique_ptr<float[]> gc(new float[e]);
    const gemm_example::Size s{m.size, m.size, m.size};
    auto run = [&](const CostTable& t) {
      return launch({.blocks = gemm_example::kCores, .model_only = true, .costs = &t}, gemm_example::gemm<128, 256, 64, 4, 2>, s,
                    std::span(gc.get(), e), std::span(ga.get(), e), std::span(gb.get(), e));
    };
    const LaunchReport a = run(off), b = run(on);
    const double ma = a.microseconds() / 1000, mb = b.microseconds() / 1000;
    std::printf("  %5d   %9.4f   %8.4f %+6.1f%%  %8.4f %+6.1f%%   %5.1f%%   %8.0f   %5.2f / %5.2f\n", m.size, m.ms, ma,
                100 * (ma - m.ms) / m.ms, mb, 100 * (mb - m.ms) / m.ms, 100.0 * b.memory.l2_hit_rate(),
                double(b.memory.hbm_bytes) * b.clock_ghz / double(b.cycles), a.host_seconds, b.host_seconds);
  }
  return 0;
}
