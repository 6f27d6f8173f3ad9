// C = A * B on the cube of 24 emulated A2/A3 cores, in the style of pto-isa's
// kernels/manual/a2a3/gemm_performance: half inputs (A m x k row-major, B stored as its n columns of k,
// DN), float result. Each core owns a (m/4) x (n/6) block of C and walks it in 128 x 256 tiles; for each
// it streams K in panels of 256 (TLOAD GM -> L1: A as NZ, B as ZN), slices every panel into four 64-deep
// steps (TEXTRACT L1 -> L0A / L0B), multiplies (TMATMUL, then TMATMUL_ACC) and stores the tile (TSTORE
// L0C -> GM through the fixpipe). L1, L0A and L0B are double-buffered; set_flag / wait_flag order the
// pipes, one event per buffer (so no flag is set twice before its wait: the checker stays quiet).
//
// It prints the modeled time and pipe utilisation of the four sizes the reference kernel's README
// measured on a 24-core A3 (model only), then runs 1536^3 for real and checks every element against a
// exact integer reference.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <vector>

#include <pto/pto-inst.hpp>

#include "gemm_kernel.hpp"

using namespace pto;
using gemm_example::kCores;
using gemm_example::Size;

// pto-isa's tiling (its README): 128 x 256 output tiles, K in panels of 4 x 64, everything double-buffered.
constexpr int kBaseM = 128, kBaseN = 256, kBaseK = 64, kStepK = 4;
constexpr auto gemm = gemm_example::gemm<kBaseM, kBaseN, kBaseK, kStepK, 2>;
using Shipped = gemm_example::Tiling<kBaseM, kBaseN, kBaseK, kStepK, 2>;

// Pipe busy share of the slowest core, in percent.
double busy(const LaunchReport& r, pipe_t p) {
  const CoreReport* slow = &r.cores[0];
  for (const CoreReport& c : r.cores)
    if (c.cycles > slow->cycles) slow = &c;
  return 100.0 * double(slow->pipes[p].busy_cycles) / double(slow->cycles);
}

int main(int argc, char** argv) {
  // The reference kernel's README (24-core A3): time in ms, then TMATMUL, TEXTRACT, TLOAD, TSTORE shares.
  struct Measured {
    int size;
    double ms, mad, extract, load, store;
  };
  const Measured measured[] = {{1536, 0.0388, 54.5, 42.2, 72.2, 7.7},
                               {3072, 0.2067, 79.0, 62.0, 90.9, 5.8},
                               {6144, 1.5060, 86.7, 68.1, 95.2, 3.1},
                               {7680, 3.1680, 80.6, 63.0, 98.4, 2.4}};
  std::printf("model only, 24 cores, A2A3 (measured on a 24-core A3 in parentheses)\n");
  std::printf("  size   modeled ms (measured)     error   M %% (meas)   MTE1 %%       MTE2 %%       FIX %%      host s\n");
  for (const Measured& x : measured) {
    // model only: nothing reads or writes the buffers, so they stay untouched (unfilled) host pages
    const std::size_t e = std::size_t(x.size) * std::size_t(x.size);
    std::unique_ptr<half[]> ga(new half[e]), gb(new half[e]);
    std::unique_ptr<float[]> gc(new float[e]);
    const LaunchReport r = launch({.blocks = kCores, .model_only = true}, gemm, Size{x.size, x.size, x.size},
                                  std::span(gc.get(), e), std::span(ga.get(), e), std::span(gb.get(), e));
    const double ms = r.microseconds() / 1000.0;
    std::printf("  %5d  %8.4f (%7.4f)  %+6.1f%%   %4.1f (%4.1f)  %4.1f (%4.1f)  %4.1f (%4.1f)  %4.1f (%3.1f)  %6.2f\n", x.size, ms,
                x.ms, 100.0 * (ms - x.ms) / x.ms, busy(r, PIPE_M), x.mad, busy(r, PIPE_MTE1), x.extract, busy(r, PIPE_MTE2),
                x.load, busy(r, PIPE_FIX), x.store, r.host_seconds);
  }

  const int n = argc > 1 ? std::atoi(argv[1]) : 1536;
  if (!Shipped::fits(n)) {
    std::fprintf(stderr, "gemm: the size must be a positive multiple of %d\n", 3 * 512);
    return 2;
  }
  std::vector<half> a(std::size_t(n) * n), b(std::size_t(n) * n);
  std::vector<float> c(std::size_t(n) * n, -1.0f);
  std::srand(7);
  for (half& v : a) v = half(float(std::rand() % 257 - 128) / 64.0f);
  for (half& v : b) v = half(float(std::rand() % 257 - 128) / 64.0f);
  const auto t0 = std::chrono::steady_clock::now();
  const LaunchReport r = launch({.blocks = kCores}, gemm, Size{n, n, n}, c, a, b);
  const double host = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("\nfunctional %d^3 on %d cores:\n%s", n, kCores, r.summary().c_str());
  std::printf("  host %.3f s: %.1f GFLOP/s\n", host, 2.0 * double(n) * n * n / host / 1e9);

  // Reference, exact: every input is an integer / 64, so 4096 * C(i, j) is an integer dot product (at
  // most 1536 * 128 * 128 in magnitude: int32), against which float accumulation of the k exact half
  // products must be within k * 2^-24 * sum |a * b|.
  std::vector<std::int32_t> ia(a.size()), ib(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) ia[i] = std::int32_t(float(a[i]) * 64.0f);
  for (std::size_t i = 0; i < b.size(); ++i) ib[i] = std::int32_t(float(b[i]) * 64.0f);
  long bad = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const std::int32_t* x = &ia[std::size_t(i) * n];
      const std::int32_t* y = &ib[std::size_t(j) * n];  // B's column j
      std::int32_t dot = 0, mag = 0;
      for (int p = 0; p < n; ++p) {
        dot += x[p] * y[p];
        mag += std::abs(x[p] * y[p]);
      }
      const double ref = double(dot) / 4096.0;
      bad += !(std::abs(double(c[std::size_t(i) * n + j]) - ref) <= n * std::ldexp(1.0, -24) * double(mag) / 4096.0);
    }
  std::printf("  %ld of %ld elements outside the float-accumulation bound\n", bad, long(n) * n);
  return bad == 0 ? 0 : 1;
}
