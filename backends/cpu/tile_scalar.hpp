// Tile-scalar arithmetic (TADDS, TSUBS, TMULS, TDIVS both ways, TMAXS, TMINS), TEXP and TAXPY.
#pragma once
#include <utility>
#include <vector>

#include <pto/backends/kernel_abi.hpp>
#include "elementwise.hpp"

namespace pto::cpu::scalar {

template <class T> T* row(const TileView& t, int r) { return t.ptr<T>(r, 0); }

// An element-wise op does not care about order: a ColMajor tile is processed as a RowMajor one with
// rows and columns exchanged, so every loop below walks contiguous lines.
inline TileView as_rows(const TileView& t) {
  if (t.row_major) return t;
  TileView r = t;
  std::swap(r.rows, r.cols);
  std::swap(r.valid_rows, r.valid_cols);
  r.row_stride = t.col_stride;
  r.col_stride = 1;
  r.row_major = true;
  return r;
}

// dst = src O scalar, or scalar O src with kVariantScalarFirst.
template <BinOp O, Op Name>
void tile_scalar(ExecContext& ctx) {
  std::vector<std::byte> s_copy;
  TileView d = as_rows(ctx.ops[0].tile);
  TileView s = as_rows(stable_source(ctx.ops[1].tile, ctx.ops[0].tile, s_copy));
  if (dense(d) && dense(s)) d = as_one_row(d), s = as_one_row(s);
  const bool scalar_first = ctx.variant & kVariantScalarFirst;
  visit_dtype(d.dtype, [&](auto zero) {
    using T = decltype(zero);
    const Splat<T> k{ctx.scalar.as<T>()};
    if constexpr (O == BinOp::Div) {
      if constexpr (std::is_integral_v<T>) {
        if (!scalar_first && k.v == T(0))
          detail::fail(op_name(Name), ": integer division by zero: the scalar divisor is 0 (dtype ", name_of(dtype_v<T>), ")");
        if (scalar_first) check_divisor_tile<T>(Name, "src0", ctx.ops[1].tile);
      }
    }
    for_each_block(d.valid_rows, d.valid_cols, [&](int r0, int r1, int c0, int c1) {
      for (int i = r0; i < r1; ++i) {
        Ptr<T> x{row<T>(s, i) + c0};
        if (scalar_first) bin_row<O>(row<T>(d, i) + c0, k, x, c1 - c0);
        else bin_row<O>(row<T>(d, i) + c0, x, k, c1 - c0);
      }
    });
  });
}

// TEXP: exp(x) = EXPDIF against 0 (the difference x - 0 is x exactly, so no extra rounding).
inline void texp(ExecContext& ctx) {
  std::vector<std::byte> s_copy;
  TileView d = ctx.ops[0].tile;
  TileView s = stable_source(ctx.ops[1].tile, d, s_copy);
  if (dense(d) && dense(s)) d = as_one_row(d), s = as_one_row(s);
  visit_dtype(d.dtype, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (is_float(dtype_v<T>)) {
      for_each_block(d.valid_rows, d.valid_cols, [&](int r0, int r1, int c0, int c1) {
        for (int i = r0; i < r1; ++i)
          bin_row<BinOp::ExpDif>(row<T>(d, i) + c0, Ptr<T>{row<T>(s, i) + c0}, Splat<T>{T(0.0f)}, c1 - c0);
      });
    }
  });
}

// TAXPY row: d = k * x + d.
//  float/float: two float roundings (no fused multiply-add).
//  half/half:   p = half(k * x), d = half(d + p): two half roundings, as the hardware.
//  float<-half: the product and the sum in float from the exactly widened half.
template <class D, class S>
void axpy_row(D* d, const S* x, S k, int n) {
  if constexpr (std::is_same_v<D, float> && std::is_same_v<S, float>) {
    // ivdep: dst and src are the same tile or disjoint, never shifted copies of each other (stable_source).
#if defined(__clang__)
#pragma clang loop vectorize(assume_safety)
#else
#pragma GCC ivdep
#endif
    for (int j = 0; j < n; ++j) d[j] = k * x[j] + d[j];
  } else {
    float fx[kChunk], fd[kChunk];
    const float fk = float(k);
    for (int j0 = 0; j0 < n; j0 += kChunk) {
      const int m = std::min(kChunk, n - j0);
      to_float(x + j0, fx, m);
      if constexpr (std::is_same_v<D, float>) {
        for (int j = 0; j < m; ++j) d[j0 + j] = fx[j] * fk + d[j0 + j];
      } else {
        to_float(d + j0, fd, m);
        for (int j = 0; j < m; ++j) fx[j] *= fk;
        round_trip<S>(fx, m);
        for (int j = 0; j < m; ++j) fd[j] += fx[j];
        from_float(fd, d + j0, m);
      }
    }
  }
}

template <class D, class S>
void axpy(const TileView& d, const TileView& s, S k) {
  for_each_block(d.valid_rows, d.valid_cols, [&](int r0, int r1, int c0, int c1) {
    for (int i = r0; i < r1; ++i) axpy_row<D, S>(row<D>(d, i) + c0, row<S>(s, i) + c0, k, c1 - c0);
  });
}

inline void taxpy(ExecContext& ctx) {
  std::vector<std::byte> s_copy;
  TileView d = ctx.ops[0].tile;
  TileView s = stable_source(ctx.ops[1].tile, d, s_copy);
  if (dense(d) && dense(s)) d = as_one_row(d), s = as_one_row(s);
  if (d.dtype == DType::F32 && s.dtype == DType::F32) axpy<float, float>(d, s, ctx.scalar.as<float>());
  else if (d.dtype == DType::F16 && s.dtype == DType::F16) axpy<half, half>(d, s, ctx.scalar.as<half>());
  else if (d.dtype == DType::F32 && s.dtype == DType::F16) axpy<float, half>(d, s, ctx.scalar.as<half>());
  // other combinations are rejected at compile time
}

template <BinOp O, Op Name> inline constexpr BackendKernel kTileScalar{nullptr, tile_scalar<O, Name>};
inline constexpr BackendKernel kTEXP{nullptr, texp};
inline constexpr BackendKernel kTAXPY{nullptr, taxpy};

}  // namespace pto::cpu::scalar
