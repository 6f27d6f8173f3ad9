// The element operations every backend computes with (the CPU reference's rows and the device
// paths' lanes alike), so a device path and the CPU reference agree lane for lane.
//
// Numerics: float and integer ops compute in T (integers wrap, two's complement); half and bfloat16
// compute in float and round once per operation (exact-equivalent to fp16 hardware for a single
// add/sub/mul/div). Integer division by zero has no result on any target: the divisor checks below
// name where it is, instead of trapping.
#pragma once
#include <cmath>
#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

#if defined(__F16C__) || defined(__SSE3__)
#include <immintrin.h>  // F16C row conversions, SSE3 pair sums; other hosts (aarch64) use the scalar loops
#endif

#include <pto/isa/dtype.hpp>
#include <pto/isa/error.hpp>
#include <pto/isa/op.hpp>
#include <pto/isa/views.hpp>

#include "fast_exp.hpp"

namespace pto::lanes {

enum class BinOp { Add, Sub, Mul, Div, Max, Min, ExpDif, And, Or, Xor, Shl, Shr, LRelu };

template <class T> inline constexpr bool kWidened = std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

// ---- conversions between a 16-bit float row and float ------------------------------------------------
inline void to_float(const half* s, float* d, int n) {
  int j = 0;
#if defined(__F16C__)
  for (; j + 8 <= n; j += 8)
    _mm256_storeu_ps(d + j, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + j))));
#endif
  for (; j < n; ++j) d[j] = float(s[j]);
}
inline void from_float(const float* s, half* d, int n) {
  int j = 0;
#if defined(__F16C__)
  for (; j + 8 <= n; j += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + j), _mm256_cvtps_ph(_mm256_loadu_ps(s + j), _MM_FROUND_TO_NEAREST_INT));
#endif
  for (; j < n; ++j) d[j] = half(s[j]);
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
  if constexpr (O == BinOp::And || O == BinOp::Or || O == BinOp::Xor) {  // on the bits (the dtype sets admit integers)
    using U = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::conditional_t<sizeof(T) == 4, std::uint32_t,
              std::conditional_t<sizeof(T) == 2, std::uint16_t, std::uint8_t>>>;
    const U x = std::bit_cast<U>(a), y = std::bit_cast<U>(b);
    return std::bit_cast<T>(U(O == BinOp::And ? U(x & y) : O == BinOp::Or ? U(x | y) : U(x ^ y)));
  } else if constexpr (O == BinOp::Shl || O == BinOp::Shr) {  // integers, 0 <= b < bits (checked before)
    if constexpr (std::is_integral_v<T>) {
      if constexpr (O == BinOp::Shl) return T(Unsigned<T>(Unsigned<T>(a) << unsigned(b)));
      else return T(a >> unsigned(b));  // arithmetic for signed, logical for unsigned
    } else {
      return a;
    }
  } else if constexpr (std::is_floating_point_v<T>) {
    if constexpr (O == BinOp::Add) return a + b;
    if constexpr (O == BinOp::Sub) return a - b;
    if constexpr (O == BinOp::Mul) return a * b;
    if constexpr (O == BinOp::Div) return a / b;
    // vmax / vmin: a NaN operand gives NaN (pto-isa docs/isa/vector vmax.md, vmin.md), so a reduction
    // of a row holding one is NaN whatever the lane order. (pto-isa's CPU simulator's std::max drops a
    // NaN that is not first.) Still one compare and a blend when vectorised.
    if constexpr (O == BinOp::Max) return a < b || b != b ? b : a;
    if constexpr (O == BinOp::Min) return b < a || b != b ? b : a;
    if constexpr (O == BinOp::ExpDif) return fast_expf(a - b);
    if constexpr (O == BinOp::LRelu) return a > 0 ? a : a * b;  // TLRELU: b is the slope
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
    // vmax / vmin: a NaN operand gives NaN (pto-isa docs/isa/vector vmax.md, vmin.md), so a reduction
    // of a row holding one is NaN whatever the lane order. (pto-isa's CPU simulator's std::max drops a
    // NaN that is not first.) Still one compare and a blend when vectorised.
    if constexpr (O == BinOp::Max) return a < b || b != b ? b : a;
    if constexpr (O == BinOp::Min) return b < a || b != b ? b : a;
    if constexpr (O == BinOp::LRelu) return a > T(0) ? a : apply<BinOp::Mul, T>(a, b);  // no integer TLRELU: for completeness
  }
}

// One binary operation in T, as a lane computes it: 16-bit floats in float, rounded once to T.
template <BinOp O, class T>
inline T combine(T a, T b) {
  if constexpr (kWidened<T>) return T(apply<O, float>(float(a), float(b)));
  else return apply<O, T>(a, b);
}

// The in-register reductions (A2/A3 vcadd / vcmax / vcmin, A5 vcadd / vcmax / vcmin) over the n active
// lanes of v (clobbered): a pairwise tree over adjacent lanes, each step rounded to T, an odd lane
// carried up a level. Assumed order: the ISA does not document it; adjacent pairs first means the
// first three levels are the per-block group reductions (vcgadd), which is how the chips expose the
// tree. Adding an inactive lane's 0 is exact, so a masked repeat reduces its active lanes only.
// One level: out[i] = in[2i] O in[2i+1], an odd last lane carried; returns the new lane count.
template <BinOp O, class T>
inline int tree_level(T* __restrict out, const T* __restrict in, int n) {
  int i = 0;
#if defined(__SSE3__)
  if constexpr (O == BinOp::Add && std::is_same_v<T, float>)  // SSE3 haddps: four adjacent sums at a time, the same adds
    for (; i + 4 <= n / 2; i += 4) _mm_storeu_ps(out + i, _mm_hadd_ps(_mm_loadu_ps(in + 2 * i), _mm_loadu_ps(in + 2 * i + 4)));
#endif
  for (; i < n / 2; ++i) out[i] = combine<O, T>(in[2 * i], in[2 * i + 1]);  // vectorises (no aliasing)
  if (n % 2) out[n / 2] = in[n - 1];
  return (n + 1) / 2;
}
template <BinOp O, class T>
inline T reduce_tree(T* v, int n) {
  if constexpr (kWidened<T>) {  // 16-bit floats: each level in float, rounded to T (F16C, eight lanes at a time)
    float f[128], g[64];  // 16-bit lanes: at most 128
    to_float(v, f, n);
    while (n > 1) {
      n = tree_level<O, float>(g, f, n);
      round_trip<T>(g, n);
      if (n == 1) return T(g[0]);
      n = tree_level<O, float>(f, g, n);
      round_trip<T>(f, n);
    }
    return T(f[0]);
  }
  T w[128];  // at most 256 lanes: the first level halves them
  while (n > 1) {
    n = tree_level<O, T>(w, v, n);
    if (n == 1) return w[0];
    n = tree_level<O, T>(v, w, n);
  }
  return v[0];
}

// Unary lane operations (TABS, TRELU, TNOT, TSQRT, TRSQRT, TLOG), in the compute type. Integers: |min|
// wraps to min (two's complement). TRSQRT rounds twice (the square root, then the reciprocal), as A5's
// vsqrt + vdiv does. Only the pairs a valid<U, T> admits are instantiated.
enum class UnOp { Abs, Relu, Not, Sqrt, Rsqrt, Log };
template <UnOp U, class T>
inline constexpr bool valid = U == UnOp::Not ? std::is_integral_v<T>
                              : (U == UnOp::Abs || U == UnOp::Relu) ? true
                                                                    : !std::is_integral_v<T>;
template <UnOp U, class T>
inline T apply(T x) {
  if constexpr (U == UnOp::Abs) {
    if constexpr (std::is_unsigned_v<T>) return x;
    else if constexpr (std::is_integral_v<T>) return x < T(0) ? T(Unsigned<T>(0) - Unsigned<T>(x)) : x;
    else return std::fabs(x);
  } else if constexpr (U == UnOp::Relu) {
    return x > T(0) ? x : T(0);
  } else if constexpr (U == UnOp::Not) {
    return T(~x);
  } else if constexpr (U == UnOp::Sqrt) {
    return std::sqrt(x);
  } else if constexpr (U == UnOp::Rsqrt) {
    return T(1) / std::sqrt(x);
  } else {
    return std::log(x);
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

// Shift counts outside [0, bits of T) have no defined result on either chip (A2A3 shifts on the scalar
// unit in C, A5 in vector lanes): report where, instead of guessing.
template <class T>
void check_shift_tile(Op op, const char* operand, const TileView& t) {
  if constexpr (std::is_integral_v<T>) {
    for (int r = 0; r < t.valid_rows; ++r)
      for (int c = 0; c < t.valid_cols; ++c) {
        const T n = *t.ptr<T>(r, c);
        if (n < T(0) || std::uint64_t(n) >= 8 * sizeof(T))
          detail::fail(op_name(op), ": operand ", operand, " (the shift counts) has ", std::int64_t(n), " at element (", r, ", ",
                       c, "): a shift count must be in [0, ", 8 * sizeof(T) - 1, "] for dtype ", name_of(dtype_v<T>));
      }
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

}  // namespace pto::lanes
