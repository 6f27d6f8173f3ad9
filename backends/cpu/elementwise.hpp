// The CPU reference's building blocks: one element-wise operation set, one row loop over it, and one
// 2-D partitioner. Every family (column/row broadcast, tile-scalar, TEXP) is these three composed.
//
// The element operations themselves (numerics, conversions) are backends/common/lane_ops.hpp, shared
// with the device code paths. EXPDIF rounds the difference to T before exp, as the CPU simulator does.
// Half rows go through F16C eight lanes at a time into float chunks, so every loop here vectorises.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <pto/isa/dtype.hpp>
#include <pto/isa/error.hpp>
#include <pto/isa/op.hpp>
#include <pto/isa/views.hpp>

#include "../common/lane_ops.hpp"
#include "stable_source.hpp"

namespace pto::cpu {

using lanes::apply;
using lanes::BinOp;
using lanes::check_divisor_blocks;
using lanes::check_divisor_row;
using lanes::check_divisor_tile;
using lanes::fast_expf;
using lanes::from_float;
using lanes::kWidened;
using lanes::mode2_block;
using lanes::round_trip;
using lanes::to_float;

// Operand accessors: a row (Ptr) or one value for the whole row (Splat).
template <class T> struct Ptr {
  const T* p;
  T operator[](int j) const { return p[j]; }
};
template <class T> struct Splat {
  T v;
  T operator[](int) const { return v; }
};

// ---- one row ---------------------------------------------------------------------------------------------
inline constexpr int kChunk = 256;  // float chunk for 16-bit rows: three of them stay in L1

template <class T, class A>
auto widen(const A& a, int j0, int m, float* buf) {
  if constexpr (std::is_same_v<A, Splat<T>>) {
    (void)j0, (void)m, (void)buf;
    return Splat<float>{float(a.v)};
  } else {
    to_float(a.p + j0, buf, m);
    return Ptr<float>{buf};
  }
}

// d[j] = a[j] O b[j] for j < n. A and B are Ptr<T> or Splat<T>.
template <BinOp O, class T, class A, class B>
void bin_row(T* d, A a, B b, int n) {
  if constexpr (kWidened<T>) {
    float fa[kChunk], fb[kChunk], fd[kChunk];
    for (int j0 = 0; j0 < n; j0 += kChunk) {
      const int m = std::min(kChunk, n - j0);
      const auto wa = widen<T>(a, j0, m, fa);
      const auto wb = widen<T>(b, j0, m, fb);
      if constexpr (O == BinOp::ExpDif) {
        for (int j = 0; j < m; ++j) fd[j] = wa[j] - wb[j];
        round_trip<T>(fd, m);  // the difference is a T value first (CPU simulator rounding)
        for (int j = 0; j < m; ++j) fd[j] = fast_expf(fd[j]);
      } else {
        for (int j = 0; j < m; ++j) fd[j] = apply<O>(wa[j], wb[j]);
      }
      from_float(fd, d + j0, m);
    }
  } else {
    for (int j = 0; j < n; ++j) d[j] = apply<O>(a[j], b[j]);
  }
}

// Rows of d[i][j] = a[i][j] O b[i][j] (strides in elements; 0 repeats one row) when d shares no byte
// with a or b: `__restrict` lets the compiler vectorise the inner loop without re-checking aliasing
// before every row (what bin_row must do): TCOLEXPANDADD f32 64x64 297 -> 255 ns (bench_cpu_kernels).
template <BinOp O, class T>
void bin_rows_apart(T* __restrict d, std::ptrdiff_t ds, const T* __restrict a, std::ptrdiff_t as, const T* __restrict b,
                    std::ptrdiff_t bs, int rows, int n) {
  for (int i = 0; i < rows; ++i) {
    if (i > 0) d += ds, a += as, b += bs;  // stepped before a row, not after: no pointer past the last one
    for (int j = 0; j < n; ++j) d[j] = apply<O>(a[j], b[j]);
  }
}

// ---- partitioning ----------------------------------------------------------------------------------------
// Work below this many elements runs inline (measured with bench_cpu_kernels, docs/cpu-backend.md);
// the environment variable PTO_CPU_PARALLEL_MIN_ELEMS overrides it, for measuring.
inline constexpr long kDefaultParallelThresholdElems = 16 * 1024;
long parallel_threshold_elems();

// Calls fn(r0, r1, c0, c1) over blocks covering [0, R) x [0, C): inline for small tiles, otherwise
// oneTBB parallel_for over rows, or over column chunks when there are too few rows to share.
void for_blocks(int R, int C, void (*fn)(void*, int, int, int, int), void* ctx);

template <class F>
void for_each_block(int R, int C, F&& f) {
  if (long(R) * C < parallel_threshold_elems()) {
    f(0, R, 0, C);
    return;
  }
  using Fn = std::remove_reference_t<F>;  // an lvalue callable comes as a reference type
  for_blocks(R, C, [](void* p, int r0, int r1, int c0, int c1) { (*static_cast<Fn*>(p))(r0, r1, c0, c1); }, &f);
}

// A tile whose valid rows are contiguous (row stride == valid columns) is one long row to an
// element-wise operation: fewer, longer loops (CuTe's coalesce). Apply to every operand or none.
inline bool dense(const TileView& t) { return t.row_major && (t.valid_rows <= 1 || t.row_stride == t.valid_cols); }
inline TileView as_one_row(TileView t) {
  t.valid_cols *= t.valid_rows;
  t.valid_rows = 1;
  t.cols = t.row_stride = t.valid_cols;
  return t;
}

}  // namespace pto::cpu
