// TPARTADD / TPARTMUL / TPARTMAX / TPARTMIN on the CPU: over dst's valid region, src0 op src1 where both
// sources are valid (the smaller one's region), the larger source's element elsewhere. The public
// function has checked the NPUs' shape rule (one source's valid region is dst's, the other inside it).
#pragma once
#include <cstring>
#include <vector>

#include <pto/backends/kernel_abi.hpp>
#include "elementwise.hpp"

namespace pto::cpu::partial {

template <BinOp O>
void tpart(ExecContext& ctx) {
  std::vector<std::byte> a_copy, b_copy;
  const TileView d = ctx.ops[0].tile;
  const TileView a = stable_source(ctx.ops[1].tile, d, a_copy);
  const TileView b = stable_source(ctx.ops[2].tile, d, b_copy);
  const bool a_big = a.valid_rows == d.valid_rows && a.valid_cols == d.valid_cols;
  const TileView& big = a_big ? a : b;
  const TileView& small = a_big ? b : a;
  const std::size_t es = d.elem_bytes();
  visit_dtype(d.dtype, [&](auto zero) {
    using T = decltype(zero);
    for (int i = 0; i < d.valid_rows; ++i) {
      const int n = i < small.valid_rows ? small.valid_cols : 0;
      if (n) bin_row<O>(d.ptr<T>(i, 0), Ptr<T>{a.ptr<T>(i, 0)}, Ptr<T>{b.ptr<T>(i, 0)}, n);
      if (n < d.valid_cols) std::memmove(d.ptr<T>(i, n), big.ptr<T>(i, n), std::size_t(d.valid_cols - n) * es);
    }
  });
}

template <BinOp O> inline constexpr BackendKernel kPart{nullptr, tpart<O>};

// TPARTARGMAX / TPARTARGMIN: the (value, index) pair of the winning source where both are valid, the
// covering source's pair elsewhere. A2A3 keeps src0 unless it compares false (>= / <=); A5 takes src1
// only when it compares true (> / <): the same but for NaN. The results are made whole before dst and
// dstIdx are written, so any operand may share bytes with any other.
template <bool Max>
void tpartarg(ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &a = ctx.ops[1].tile, &b = ctx.ops[2].tile;
  const TileView &di = ctx.ops[3].tile, &ai = ctx.ops[4].tile, &bi = ctx.ops[5].tile;
  const int R = d.valid_rows, C = d.valid_cols;
  if (R == 0 || C == 0) return;
  const bool a_big = a.valid_rows == R && a.valid_cols == C;
  const TileView& small = a_big ? b : a;
  const std::size_t es = d.elem_bytes(), xs = di.elem_bytes();
  std::vector<std::byte> vals(std::size_t(R) * std::size_t(C) * es), idxs(std::size_t(R) * std::size_t(C) * xs);
  const bool strict1 = ctx.variant & kVariantSrc1Strict;
  auto at = [](const TileView& t, int i, int j) { return t.base + t.elem_offset(i, j) * std::ptrdiff_t(t.elem_bytes()); };
  visit_dtype(d.dtype, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half>) {
      for (int i = 0; i < R; ++i)
        for (int j = 0; j < C; ++j) {
          bool one = !a_big;  // outside the smaller source: the covering one
          if (i < small.valid_rows && j < small.valid_cols) {
            const T x0 = *a.ptr<T>(i, j), x1 = *b.ptr<T>(i, j);
            one = strict1 ? (Max ? x1 > x0 : x1 < x0) : !(Max ? x0 >= x1 : x0 <= x1);
          }
          const std::size_t k = std::size_t(i) * std::size_t(C) + std::size_t(j);
          std::memcpy(vals.data() + k * es, at(one ? b : a, i, j), es);
          std::memcpy(idxs.data() + k * xs, at(one ? bi : ai, i, j), xs);
        }
    }
  });
  for (int i = 0; i < R; ++i) {
    std::memcpy(at(d, i, 0), vals.data() + std::size_t(i) * std::size_t(C) * es, std::size_t(C) * es);
    std::memcpy(at(di, i, 0), idxs.data() + std::size_t(i) * std::size_t(C) * xs, std::size_t(C) * xs);
  }
}

template <bool Max> inline constexpr BackendKernel kPartArg{nullptr, tpartarg<Max>};

}  // namespace pto::cpu::partial
