// The tiling search on the model (pto::tune): examples/gemm's kernel over a grid of base tiles (BaseM x
// BaseN x BaseK), L1 panel depths (StepK) and buffer counts, model only on 24 A2/A3 cores, ranked by
// modeled time with what bounds each candidate. It says where pto-isa's shipped tiling (128 x 256 x 64,
// StepK 4, double-buffered) ranks, and how the README's alternative [128, 128, 128] compares.
//
//   gemm_tiling [SIZE ...] [--top N]     (default: 3072; sizes must be multiples of 1536)
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>
#include <pto/runtime/tune.hpp>

#include "gemm_kernel.hpp"

using namespace pto;
using gemm_example::Size;

namespace {

// The operands of one size: model only leaves them untouched (unfilled host pages).
struct Operands {
  std::size_t e;
  std::unique_ptr<half[]> a, b;
  std::unique_ptr<float[]> c;
  explicit Operands(int n) : e(std::size_t(n) * std::size_t(n)), a(new half[e]), b(new half[e]), c(new float[e]) {}
};

template <int M, int N, int K, int StepK, int Buffers>
tune::Candidate candidate(const Operands& x, int n) {
  const std::string name = std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) + " stepK " +
                           std::to_string(StepK) + (Buffers == 2 ? " double" : " single");
  return {name, [&x, n, name](const LaunchConfig& cfg) {
            if (!gemm_example::Tiling<M, N, K, StepK, Buffers>::fits(n))
              throw std::invalid_argument(std::to_string(n) + "^3 does not split into " + name + " tiles on the 4 x 6 core grid");
            return launch(cfg, gemm_example::gemm<M, N, K, StepK, Buffers>, Size{n, n, n}, std::span(x.c.get(), x.e),
                          std::span(x.a.get(), x.e), std::span(x.b.get(), x.e));
          }};
}

template <int M, int N, int K>
void add_steps(std::vector<tune::Candidate>& g, const Operands& x, int n) {
  g.push_back(candidate<M, N, K, 2, 2>(x, n));
  g.push_back(candidate<M, N, K, 4, 2>(x, n));
}

template <int M, int N>
void add_depths(std::vector<tune::Candidate>& g, const Operands& x, int n) {
  add_steps<M, N, 32>(g, x, n);
  add_steps<M, N, 64>(g, x, n);
  add_steps<M, N, 128>(g, x, n);
}

std::vector<tune::Candidate> grid(const Operands& x, int n) {
  std::vector<tune::Candidate> g;
  add_depths<64, 128>(g, x, n);
  add_depths<64, 256>(g, x, n);
  add_depths<128, 128>(g, x, n);
  add_depths<128, 256>(g, x, n);
  add_depths<256, 128>(g, x, n);
  add_depths<256, 256>(g, x, n);
  g.push_back(candidate<128, 256, 64, 4, 1>(x, n));  // the shipped tiling without double buffering
  return g;
}

int rank_of(const std::vector<tune::Result>& r, const std::string& name) {
  for (std::size_t k = 0; k < r.size(); ++k)
    if (r[k].name == name) return r[k].ok ? int(k) + 1 : -1;
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  std::size_t top = 12;
  for (int k = 1; k < argc; ++k) {
    const std::string s = argv[k];
    if (s == "--top" && k + 1 < argc) top = std::size_t(std::atoi(argv[++k]));
    else if (std::atoi(s.c_str()) > 0 && std::atoi(s.c_str()) % 1536 == 0) sizes.push_back(std::atoi(s.c_str()));
    else {
      std::fprintf(stderr, "gemm_tiling: %s: expected a size (a positive multiple of 1536) or --top N\n", s.c_str());
      return 2;
    }
  }
  if (sizes.empty()) sizes = {3072};
  const std::string shipped = "128x256x64 stepK 4 double", alternative = "128x128x128 stepK 4 double";
  for (int n : sizes) {
    const Operands x(n);
    const std::vector<tune::Candidate> g = grid(x, n);
    const std::vector<tune::Result> ranked = tune::search(g, {.config = {.blocks = gemm_example::kCores}});
    double host = 0;
    for (const tune::Result& r : ranked) host += r.host_seconds;
    std::printf("%d^3 half GEMM on 24 A2/A3 cores, %zu tilings, model only (%.1f host s in all):\n", n, g.size(), host);
    std::printf("%s", tune::ranking(ranked, top).c_str());
    const int s = rank_of(ranked, shipped), a = rank_of(ranked, alternative);
    std::printf("pto-isa's tiling (%s) ranks %d of %zu", shipped.c_str(), s, ranked.size());
    if (s > 0) std::printf(" at %.2f us (best %.2f us, %s)", ranked[std::size_t(s - 1)].microseconds, ranked[0].microseconds,
                           ranked[0].name.c_str());
    std::printf("; its README's alternative %s ranks %d%s\n\n", alternative.c_str(), a,
                s > 0 && a > s ? " (after it, as the README says)" : " (not after it: the README says it is slower)");
  }
  return 0;
}
