// The CPU reference's building blocks: one element-wise operation set, one row loop over it, and one
// 2-D partitioner. Every family (column/row broadcast, tile-scalar, TEXP) is these three composed.
//
// Numerics (spec §3.10): float and integer ops compute in T (integers wrap, two's complement);
// half and bfloat16 compute in float and round once per operation (exact-equivalent to fp16 hardware for
// a single add/sub/mul/div). EXPDIF rounds the difference to T before exp, as the CPU simulator does.
// Half rows go through F16C eight lanes at a time into float chunks, so every loop here vectorises.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <immintrin.h>

#include <pto/isa/dtype.hpp>
#include <pto/isa/error.hpp>
#include <pto/isa/op.hpp>
#include <pto/isa/views.hpp>

#include "fast_exp.hpp"
#include "stable_source.hpp"

namespace pto::cpu {

enum class BinOp { Add, Sub, Mul, Div, Max, Min, ExpDif };

template <class T> inline constexpr bool kWidened = std::is_same_v<T, _Float16> || std::is_same_v<T, bfloat16_t>;

// ---- conversions between a 16-bit float row and float ------------------------------------------------
inline void to_float(const _Float16* s, float* d, int n) {
  int j = 0;
  for (; j + 8 <= n; j += 8)
    _mm256_storeu_ps(d + j, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + j))));
  for (; j < n; ++j) d[j] = float(s[j]);
}
inline void from_float(const float* s, _Float16* d, int n) {
  int j = 0;
  for (; j + 8 <= n; j += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + j), _mm256_cvtps_ph(_mm256_loadu_ps(s + j), _MM_FROUND_TO_NEAREST_INT));
  for (; j < n; ++j) d[j] = _Float16(s[j]);
}
inline void to_float(const bfloat16_t* s, float* d, int n) {
  for (int j = 0; j < n; ++j) d[j] = std::bit_cast<float>(std::uint32_t(s[j].bits) << 16);
}
inline void from_float(const float* s, bfloat16_t* d, int n) {
  for (int j = 0; j < n; ++j) {
    const std::uint32_t x = std::bit_cast<std::uint32_t>(s[j]);
    const bool nan = (x & 0x7fffffffu) > 0x7f800000u;
    const std::uint32_t rounded = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;  // nearest, ties to even
    d[j].bits = std::uint16_t(nan ? ((x >> 16) | 0x40u) : rounded);
  }
}
// x := float(T(x)): the rounding a T-typed intermediate would have.
template <class T> void round_trip(float* x, int n) {
  constexpr int kMax = 256;
  T tmp[kMax];
  for (int j0 = 0; j0 < n; j0 += kMax) {
    const int m = std::min(kMax, n - j0);
    from_float(x + j0, tmp, m);
    to_float(tmp, x + j0, m);
  }
}

// ---- one element ---------------------------------------------------------------------------------------
template <class T> using Unsigned = std::make_unsigned_t<T>;

template <BinOp O, class T>
inline T apply(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if constexpr (O == BinOp::Add) return a + b;
    if constexpr (O == BinOp::Sub) return a - b;
    if constexpr (O == BinOp::Mul) return a * b;
    if constexpr (O == BinOp::Div) return a / b;
    if constexpr (O == BinOp::Max) return a < b ? b : a;
    if constexpr (O == BinOp::Min) return b < a ? b : a;
    if constexpr (O == BinOp::ExpDif) return fast_expf(a - b);
  } else {  // integers: add/sub/mul wrap through the unsigned type; division truncates
    if constexpr (O == BinOp::Add) return T(Unsigned<T>(Unsigned<T>(a) + Unsigned<T>(b)));
    if constexpr (O == BinOp::Sub) return T(Unsigned<T>(Unsigned<T>(a) - Unsigned<T>(b)));
    if constexpr (O == BinOp::Mul) {
      using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, Unsigned<T>>;  // no int promotion UB
      return T(Unsigned<T>(W(Unsigned<T>(a)) * W(Unsigned<T>(b))));
    }
    if constexpr (O == BinOp::Div) {
      if constexpr (std::is_signed_v<T>)
        if (a == std::numeric_limits<T>::min() && b == T(-1)) return a;  // the one overflowing quotient wraps
      return T(a / b);
    }
    if constexpr (O == BinOp::Max) return a < b ? b : a;
    if constexpr (O == BinOp::Min) return b < a ? b : a;
  }
}

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

// Integer division by zero has no result: report where, instead of trapping.
template <class T>
void check_divisor_row(Op op, const char* operand, const T* row, int n, int r, int c0) {
  if constexpr (std::is_integral_v<T>) {
    for (int j = 0; j < n; ++j)
      if (row[j] == T(0))
        detail::fail(op_name(op), ": integer division by zero: operand ", operand, " (the divisor) has 0 at element (", r,
                     ", ", c0 + j, ") (dtype ", name_of(dtype_v<T>), ")");
  }
}

// The same over a whole tile's valid region, in the tile's own (row, column) coordinates.
template <class T>
void check_divisor_tile(Op op, const char* operand, const TileView& t) {
  if constexpr (std::is_integral_v<T>) {
    for (int r = 0; r < t.valid_rows; ++r)
      for (int c = 0; c < t.valid_cols; ++c)
        if (*t.ptr<T>(r, c) == T(0))
          detail::fail(op_name(op), ": integer division by zero: operand ", operand, " (the divisor) has 0 at element (",
                       r, ", ", c, ") (dtype ", name_of(dtype_v<T>), ")");
  }
}

// The expand operand of a mode-2 TROWEXPAND* as both chips read it: row i's block is the 32 bytes at
// byte 32 * i from the tile's base, whatever the tile's row stride (A2/A3 norm mode: block stride 0,
// repeat stride 1 block; counter mode: i * BE elements; A5: a BLK load at i * BE). For a tile with one
// block per row (Cols == BE) that is row i; for a wider tile it is not.
template <class T>
const T* mode2_block(const TileView& e, int i) {
  return reinterpret_cast<const T*>(e.base) + std::size_t(i) * (32 / sizeof(T));
}

// check_divisor_tile for a mode-2 expand operand: the blocks the chip reads.
template <class T>
void check_divisor_blocks(Op op, const char* operand, const TileView& e) {
  if constexpr (std::is_integral_v<T>) {
    if (e.row_stride * std::ptrdiff_t(sizeof(T)) == 32) return check_divisor_tile<T>(op, operand, e);
    constexpr int be = int(32 / sizeof(T));
    for (int i = 0; i < e.valid_rows; ++i)
      for (int k = 0; k < be; ++k)
        if (mode2_block<T>(e, i)[k] == T(0))
          detail::fail(op_name(op), ": integer division by zero: operand ", operand, " (the divisor) has 0 at element ", k,
                       " of the 32-byte block row ", i, " reads (byte ", 32 * i, " of the tile, whose rows are ",
                       e.row_stride * std::ptrdiff_t(sizeof(T)), " bytes apart) (dtype ", name_of(dtype_v<T>), ")");
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
  for_blocks(R, C, [](void* p, int r0, int r1, int c0, int c1) { (*static_cast<F*>(p))(r0, r1, c0, c1); }, &f);
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
