// CPU kernel speed against the practical limit: each instruction's CPU kernel, called on the same data
// as a plain hand-written loop over the same tile (compiled with the same flags), median of repeated
// batches, and the ratio. Tiles are host buffers here, so shapes larger than a UB (256x256) also run.
// Also prints the end-to-end cost of issuing the instruction on the implicit core (issue + model +
// kernel) for the shapes that fit in UB.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

#include <pto/backends/registry.hpp>
#include "fast_exp.hpp"  // backends/common

using namespace pto;

namespace {

template <class F>
double median_ns(F&& f, int reps) {
  std::vector<double> t;
  for (int b = 0; b < 9; ++b) {
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) f();
    auto t1 = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / reps);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class T>
struct Buf {
  std::vector<T> v;
  Buf(std::size_t n, unsigned seed, double lo, double hi) : v(n) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<double> d(lo, hi);
    for (auto& x : v) x = T(float(d(g)));
  }
};

template <class T>
TileView view(T* p, int rows, int cols, bool row_major = true) {
  TileView t;
  t.base = reinterpret_cast<std::byte*>(p);
  t.dtype = dtype_v<T>;
  t.rows = t.valid_rows = rows;
  t.cols = t.valid_cols = cols;
  t.row_major = row_major;
  t.row_stride = row_major ? cols : 1;
  t.col_stride = row_major ? 1 : rows;
  return t;
}

struct Ctx {
  Operand ops[kMaxOperands];
  ExecContext ctx{};
  Staging staging;
  void add(const TileView& t, Role r) {
    ops[ctx.nops].kind = Operand::Kind::Tile;
    ops[ctx.nops].role = r;
    ops[ctx.nops].tile = t;
    ++ctx.nops;
  }
  Ctx() {
    ctx.ops = ops;
    ctx.staging = &staging;
  }
};

// The hand-written loops: out of line (noinline), so the compiler cannot merge the repetitions of the
// timing loop into one pass - the kernels get no such help either.
template <class T>
__attribute__((noinline)) void hand_colexpandadd(T* __restrict dp, const T* __restrict ap, const T* __restrict vp, int R,
                                                 int C) {
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) dp[i * C + j] = T(float(ap[i * C + j]) + float(vp[j]));
}
// The practical limit for EXPDIF: the same vectorisable exp, inline, rounding the difference to T first.
template <class T>
__attribute__((noinline)) void hand_rowexpandexpdif(T* __restrict dp, const T* __restrict ap, const T* __restrict sp,
                                                    int R, int C) {
  for (int i = 0; i < R; ++i) {
    const float si = float(sp[i]);
    for (int j = 0; j < C; ++j) dp[i * C + j] = T(lanes::fast_expf(float(T(float(ap[i * C + j]) - si))));
  }
}
template <class D, class S>
__attribute__((noinline)) void hand_axpy(D* __restrict dp, const S* __restrict xp, S k, int n) {
  if constexpr (std::is_same_v<D, S> && !std::is_same_v<D, float>) {
    for (int j = 0; j < n; ++j) dp[j] = D(float(dp[j]) + float(S(float(k) * float(xp[j]))));
  } else {
    for (int j = 0; j < n; ++j) dp[j] = D(float(xp[j]) * float(k) + float(dp[j]));
  }
}

void row(const char* name, int R, int C, double kernel_ns, double hand_ns, double issue_ns) {
  char shape[32];
  std::snprintf(shape, sizeof shape, "%dx%d", R, C);
  std::printf("  %-28s %-8s %10.0f %10.0f %7.2fx", name, shape, kernel_ns, hand_ns, kernel_ns / hand_ns);
  if (issue_ns > 0) std::printf(" %12.0f", issue_ns);
  std::printf("\n");
}

// ---- TCOLEXPANDADD ---------------------------------------------------------------------------------
template <class T>
void colexpandadd(const char* name, int R, int C, int reps) {
  Buf<T> a(std::size_t(R) * C, 1, -2, 2), v(std::size_t(C), 2, 1, 2), d(std::size_t(R) * C, 3, 0, 0);
  Ctx c;
  c.add(view(d.v.data(), R, C), Role::Write);
  c.add(view(a.v.data(), R, C), Role::Read);
  c.add(view(v.v.data(), 1, C), Role::Read);
  const BackendKernel* k = &backend::find(Op::TCOLEXPANDADD)->cpu;
  const double kn = median_ns([&] { k->finish(c.ctx); }, reps);
  const double hn = median_ns([&] { hand_colexpandadd(d.v.data(), a.v.data(), v.v.data(), R, C); }, reps);
  double in = 0;
  if (std::size_t(R) * C * sizeof(T) * 3 <= 180 * 1024 && R <= 64) {
    using TT = Tile<TileType::Vec, T, 64, 256 / sizeof(T) * 2, BLayout::RowMajor, -1, -1>;  // fits every issue shape
    if (C <= TT::Cols) {
      TT td(R, C), ta(R, C), tv(1, C);
      TASSIGN(td, 0);
      TASSIGN(ta, TT::GetSizeInBytes());
      TASSIGN(tv, 2 * TT::GetSizeInBytes());
      in = median_ns([&] { TCOLEXPANDADD(td, ta, tv); }, reps);
    }
  }
  row(name, R, C, kn, hn, in);
}

// ---- TROWEXPANDEXPDIF (mode 1: one scalar per row) --------------------------------------------------
template <class T>
void rowexpandexpdif(const char* name, int R, int C, int reps) {
  Buf<T> a(std::size_t(R) * C, 1, -2, 2), s(std::size_t(R), 2, -2, 2), d(std::size_t(R) * C, 3, 0, 0);
  Ctx c;
  c.add(view(d.v.data(), R, C), Role::Write);
  c.add(view(a.v.data(), R, C), Role::Read);
  c.add(view(s.v.data(), R, 1, false), Role::Read);
  const BackendKernel* k = &backend::find(Op::TROWEXPANDEXPDIF)->cpu;
  const double kn = median_ns([&] { k->finish(c.ctx); }, reps);
  const double hn = median_ns([&] { hand_rowexpandexpdif(d.v.data(), a.v.data(), s.v.data(), R, C); }, reps);
  row(name, R, C, kn, hn, 0);
}

// ---- TAXPY -----------------------------------------------------------------------------------------
template <class D, class S>
void axpy(const char* name, int R, int C, int reps) {
  Buf<S> x(std::size_t(R) * C, 1, -8, 8);
  Buf<D> d(std::size_t(R) * C, 2, -8, 8);
  const S k = S(1.5f);
  Ctx c;
  c.add(view(d.v.data(), R, C), Role::ReadWrite);
  c.add(view(x.v.data(), R, C), Role::Read);
  c.ctx.scalar = ScalarValue::of(k);
  const BackendKernel* kern = &backend::find(Op::TAXPY)->cpu;
  const double kn = median_ns([&] { kern->finish(c.ctx); }, reps);
  const double hn = median_ns([&] { hand_axpy(d.v.data(), x.v.data(), k, R * C); }, reps);
  row(name, R, C, kn, hn, 0);
}

// ---- TADD / TMUL -------------------------------------------------------------------------------------
template <class T, bool Mul>
__attribute__((noinline)) void hand_binary(T* __restrict dp, const T* __restrict ap, const T* __restrict bp, int n) {
  for (int j = 0; j < n; ++j) dp[j] = Mul ? T(float(ap[j]) * float(bp[j])) : T(float(ap[j]) + float(bp[j]));
}
template <class T, bool Mul>
void binary(const char* name, int R, int C, int reps) {
  Buf<T> a(std::size_t(R) * C, 1, -2, 2), b(std::size_t(R) * C, 2, -2, 2), d(std::size_t(R) * C, 3, 0, 0);
  Ctx c;
  c.add(view(d.v.data(), R, C), Role::Write);
  c.add(view(a.v.data(), R, C), Role::Read);
  c.add(view(b.v.data(), R, C), Role::Read);
  const BackendKernel* k = &backend::find(Mul ? Op::TMUL : Op::TADD)->cpu;
  const double kn = median_ns([&] { k->finish(c.ctx); }, reps);
  const double hn = median_ns([&] { hand_binary<T, Mul>(d.v.data(), a.v.data(), b.v.data(), R * C); }, reps);
  row(name, R, C, kn, hn, 0);
}

// ---- TROWSUM / TROWMAX: the hand loop folds each row in order (what a plain C++ loop does; the
// kernel adds in the chip's order, which also vectorises) -------------------------------------------
template <class T, bool Max>
__attribute__((noinline)) void hand_rowreduce(T* __restrict dp, const T* __restrict sp, int R, int C) {
  for (int i = 0; i < R; ++i) {
    float acc = float(sp[i * C]);
    for (int j = 1; j < C; ++j) acc = Max ? std::max(acc, float(sp[i * C + j])) : acc + float(sp[i * C + j]);
    dp[i] = T(acc);
  }
}
template <class T, bool Max>
void rowreduce(const char* name, int R, int C, int reps) {
  Buf<T> s(std::size_t(R) * C, 1, -2, 2), d(std::size_t(R), 3, 0, 0), t(std::size_t(R) * C, 4, 0, 0);
  Ctx c;
  c.add(view(d.v.data(), R, 1, false), Role::Write);
  c.add(view(s.v.data(), R, C), Role::Read);
  c.add(view(t.v.data(), R, C), Role::Write);
  const BackendKernel* k = &backend::find(Max ? Op::TROWMAX : Op::TROWSUM)->cpu;
  const double kn = median_ns([&] { k->finish(c.ctx); }, reps);
  const double hn = median_ns([&] { hand_rowreduce<T, Max>(d.v.data(), s.v.data(), R, C); }, reps);
  row(name, R, C, kn, hn, 0);
}


// ---- TSEL: dst = bit ? src0 : src1, the mask's bit j of row i at byte j / 8, bit j % 8 --------------------
template <class T>
__attribute__((noinline)) void hand_sel(T* __restrict dp, const std::uint8_t* __restrict mp, const T* __restrict ap,
                                        const T* __restrict bp, int R, int C, int mask_cols) {
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j)
      dp[i * C + j] = (mp[i * mask_cols + j / 8] >> (j % 8)) & 1 ? ap[i * C + j] : bp[i * C + j];
}
template <class T>
void sel(const char* name, int R, int C, int reps) {
  const int mc = std::max(32, C / 8);  // a whole 32-byte row of mask bytes at least
  Buf<T> a(std::size_t(R) * C, 1, -2, 2), b(std::size_t(R) * C, 2, -2, 2), d(std::size_t(R) * C, 3, 0, 0);
  Buf<std::uint8_t> m(std::size_t(R) * mc, 4, 0, 255), t(32, 5, 0, 0);
  Ctx c;
  c.add(view(d.v.data(), R, C), Role::Write);
  c.add(view(m.v.data(), R, mc), Role::Read);
  c.add(view(a.v.data(), R, C), Role::Read);
  c.add(view(b.v.data(), R, C), Role::Read);
  c.add(view(t.v.data(), 1, 32), Role::Write);
  const BackendKernel* k = &backend::find(Op::TSEL)->cpu;
  const double kn = median_ns([&] { k->finish(c.ctx); }, reps);
  const double hn = median_ns([&] { hand_sel<T>(d.v.data(), m.v.data(), a.v.data(), b.v.data(), R, C, mc); }, reps);
  row(name, R, C, kn, hn, 0);
}

// ---- TCVT: the hand loop is the plain C++ conversion (round to nearest for floats; toward zero,
// unchecked, for float -> int, which is what the kernel's saturating, NaN-safe loop computes in range).
// The kernel's float -> integer loops round by the mode and saturate; the plain cast does neither.
template <class D, class S>
__attribute__((noinline)) void hand_cvt(D* __restrict dp, const S* __restrict sp, int n) {
  for (int j = 0; j < n; ++j) dp[j] = D(sp[j]);
}
template <class D, class S>
void cvt(const char* name, int R, int C, int reps, RoundMode m) {
  Buf<S> s(std::size_t(R) * C, 1, -100, 100);
  Buf<D> d(std::size_t(R) * C, 2, 0, 0);
  Ctx c;
  c.add(view(d.v.data(), R, C), Role::Write);
  c.add(view(s.v.data(), R, C), Role::Read);
  c.ctx.variant = std::uint8_t(std::uint8_t(m) << kVariantCvtShift);
  const BackendKernel* k = &backend::find(Op::TCVT)->cpu;
  const double kn = median_ns([&] { k->finish(c.ctx); }, reps);
  const double hn = median_ns([&] { hand_cvt<D, S>(d.v.data(), s.v.data(), R * C); }, reps);
  row(name, R, C, kn, hn, 0);
}

}  // namespace

int main() {
  std::printf("CPU kernels vs hand-written loops (host ns per instruction, median of 9 batches)\n");
  std::printf("  %-28s %-8s %10s %10s %8s %12s\n", "instruction", "shape", "kernel", "hand loop", "ratio", "issued (e2e)");
  const int shapes[][2] = {{16, 128}, {64, 64}, {256, 256}};
  for (auto [R, C] : shapes) {
    const int reps = std::max(20, 2000000 / (R * C));
    colexpandadd<float>("TCOLEXPANDADD f32", R, C, reps);
    colexpandadd<half>("TCOLEXPANDADD f16", R, C, reps);
    rowexpandexpdif<float>("TROWEXPANDEXPDIF f32", R, C, reps);
    rowexpandexpdif<half>("TROWEXPANDEXPDIF f16", R, C, reps);
    axpy<float, float>("TAXPY f32", R, C, reps);
    axpy<half, half>("TAXPY f16", R, C, reps);
    axpy<float, half>("TAXPY f32<-f16", R, C, reps);
  }
  const int issue_shapes[][2] = {{64, 64}, {128, 128}};  // issue 17's speed table
  for (auto [R, C] : issue_shapes) {
    const int reps = std::max(20, 2000000 / (R * C));
    binary<float, false>("TADD f32", R, C, reps);
    binary<half, false>("TADD f16", R, C, reps);
    binary<float, true>("TMUL f32", R, C, reps);
    rowreduce<float, false>("TROWSUM f32", R, C, reps);
    rowreduce<half, false>("TROWSUM f16", R, C, reps);
    rowreduce<float, true>("TROWMAX f32", R, C, reps);
    rowreduce<half, true>("TROWMAX f16", R, C, reps);
    sel<float>("TSEL f32", R, C, reps);
    sel<half>("TSEL f16", R, C, reps);
    cvt<half, float>("TCVT f32->f16 RINT", R, C, reps, RoundMode::CAST_RINT);
    cvt<float, half>("TCVT f16->f32", R, C, reps, RoundMode::CAST_RINT);
    cvt<std::int32_t, float>("TCVT f32->i32 TRUNC", R, C, reps, RoundMode::CAST_TRUNC);
    cvt<std::int16_t, float>("TCVT f32->i16 RINT", R, C, reps, RoundMode::CAST_RINT);
  }
  return 0;
}
