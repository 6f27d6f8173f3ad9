// The cube's CPU kernel against the practical limit: TMATMUL 128 x 64 x 256 (half -> float, the GEMM
// example's step: Left 128 x 64, Right 64 x 256), run through the runtime on the implicit core, against
// OpenBLAS sgemm of the same shape on dense float matrices (one thread). Median of 9 batches; the ratio
// is the goal (at most 2x).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include <cblas.h>

#include <pto/pto-inst.hpp>

extern "C" void openblas_set_num_threads(int);

using namespace pto;

namespace {
template <class F>
double median_us(F&& f, int reps) {
  std::vector<double> t;
  for (int b = 0; b < 9; ++b) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) f();
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / reps);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}
}  // namespace

int main() {
  constexpr int M = 128, K = 64, N = 256, kReps = 200;
  openblas_set_num_threads(1);
  std::vector<float> a(M * K), b(K * N), c(M * N);
  for (int i = 0; i < M * K; ++i) a[i] = float(i % 13) / 8.0f;
  for (int i = 0; i < K * N; ++i) b[i] = float(i % 11) / 8.0f;
  const double blas = median_us([&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, a.data(), K, b.data(), N, 0.0f, c.data(), N);
  }, kReps);

  ScopedTarget scope(Target::A2A3);
  TileLeft<half, M, K> l;
  TileRight<half, K, N> r;
  TileAcc<float, M, N> acc;
  TASSIGN(l, 0);
  TASSIGN(r, 0);
  TASSIGN(acc, 0);
  for (int i = 0; i < M * K; ++i) l.data()[i] = half(a[std::size_t(i)]);
  for (int i = 0; i < K * N; ++i) r.data()[i] = half(b[std::size_t(i)]);
  const double mad = median_us([&] { TMATMUL(acc, l, r); }, kReps);
  const double gflop = 2.0 * M * K * N / 1e3;
  std::printf("TMATMUL %dx%dx%d half -> float (runtime, implicit core): %.1f us (%.1f GFLOP/s)\n", M, K, N, mad, gflop / mad);
  std::printf("OpenBLAS sgemm %dx%dx%d, one thread:                  %.1f us (%.1f GFLOP/s)\n", M, K, N, blas, gflop / blas);
  std::printf("ratio: %.2fx (goal: at most 2x)\n", mad / blas);
}
