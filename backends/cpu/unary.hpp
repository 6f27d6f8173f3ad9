// Element-wise unary instructions: TABS, TRELU, TNOT, TSQRT, TRSQRT, TLOG (dst = f(src) over dst's valid
// region; TNEG and TRECIP are the tile-scalar TMULS by -1 and TDIVS of 1, as on the NPU). Half and
// bfloat16 compute in float and round once to T; the lane operations are the device paths' own.
#pragma once
#include <vector>

#include <pto/backends/kernel_abi.hpp>
#include "elementwise.hpp"

namespace pto::cpu::unary {

using lanes::UnOp;

// `two_step`: A5's TRSQRT is vsqrt then vdiv on T registers, so a 16-bit square root is rounded to T
// before the division (A2A3's vrsqrt is one intrinsic: one rounding to T).
template <UnOp U, class T>
void unary_row(T* d, const T* s, int n, bool two_step) {
  if constexpr (kWidened<T>) {
    float f[kChunk];
    for (int j0 = 0; j0 < n; j0 += kChunk) {
      const int m = std::min(kChunk, n - j0);
      to_float(s + j0, f, m);
      if (U == UnOp::Rsqrt && two_step) {
        for (int j = 0; j < m; ++j) f[j] = std::sqrt(f[j]);
        round_trip<T>(f, m);
        for (int j = 0; j < m; ++j) f[j] = 1.0f / f[j];
      } else {
        for (int j = 0; j < m; ++j) f[j] = lanes::apply<U, float>(f[j]);
      }
      from_float(f, d + j0, m);
    }
  } else {
    (void)two_step;  // 32-bit floats: the same two float roundings either way
    for (int j = 0; j < n; ++j) d[j] = lanes::apply<U, T>(s[j]);
  }
}

template <UnOp U>
void unary(ExecContext& ctx) {
  std::vector<std::byte> s_copy;
  TileView d = ctx.ops[0].tile;
  TileView s = stable_source(ctx.ops[1].tile, d, s_copy);
  if (dense(d) && dense(s)) d = as_one_row(d), s = as_one_row(s);
  const bool two_step = ctx.target == Target::A5;
  visit_dtype(d.dtype, [&](auto zero) {
    using T = decltype(zero);
    using C = std::conditional_t<kWidened<T>, float, T>;
    if constexpr (lanes::valid<U, C>) {
      for_each_block(d.valid_rows, d.valid_cols, [&](int r0, int r1, int c0, int c1) {
        for (int i = r0; i < r1; ++i) unary_row<U, T>(d.ptr<T>(i, c0), s.ptr<T>(i, c0), c1 - c0, two_step);
      });
    }
  });
}

template <UnOp U> inline constexpr BackendKernel kUnary{nullptr, unary<U>};

}  // namespace pto::cpu::unary
