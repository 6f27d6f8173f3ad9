// The column-broadcast (TCOLEXPAND*) and row-broadcast (TROWEXPAND*) families: one driver each,
// instantiated per operation. Role selection happened at issue; the record says which operand is the
// broadcast one (kVariantSwap) and, for rows, how it repeats (kVariantMode2).
#pragma once
#include <cstring>
#include <vector>

#include <pto/backends/kernel_abi.hpp>
#include "elementwise.hpp"

namespace pto::cpu::bcast {

template <class T> T* row(const TileView& t, int r) { return t.ptr<T>(r, 0); }

// TCOLEXPAND: dst[i][j] = src[0][j].
inline void colexpand(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const TileView& s = ctx.ops[1].tile;
  const std::size_t bytes = std::size_t(d.valid_cols) * d.elem_bytes();
  // Row 0 may be dst's own row 0 (in place): copy it first so every row reads the original.
  std::vector<std::byte> v(s.base, s.base + bytes);
  for (int i = 0; i < d.valid_rows; ++i) std::memcpy(d.base + d.elem_offset(i, 0) * std::ptrdiff_t(d.elem_bytes()), v.data(), bytes);
}

// TCOLEXPAND<op>: F is the full operand, v_j = V[0][j]; math order is always src0 O src1.
template <BinOp O, Op Name>
void colexpand_op(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const bool swap = ctx.variant & kVariantSwap;
  const ByteRange d_box = d.footprint();
  // The issuing thread's buffer: the blocks below may run on oneTBB workers, which see it only through F.
  thread_local std::vector<std::byte> f_copy;
  const TileView F = stable_source(swap ? ctx.ops[2].tile : ctx.ops[1].tile, d, d_box, f_copy);
  const TileView& V = swap ? ctx.ops[1].tile : ctx.ops[2].tile;
  const bool v_in_d = V.footprint().overlaps(d_box);
  visit_dtype(d.dtype, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (O == BinOp::ExpDif && !is_float(dtype_v<T>)) {
      return;  // rejected at issue
    } else {
      // The vector row may be part of dst (in place): then work from a copy of it.
      const T* vp = row<T>(V, 0);
      if (v_in_d) {
        thread_local std::vector<T> copy;
        copy.assign(vp, vp + d.valid_cols);
        vp = copy.data();
      }
      if constexpr (O == BinOp::Div) {
        if (!swap) check_divisor_row(Name, "src1", vp, d.valid_cols, 0, 0);  // the divisor is src1 either way
        else
          check_divisor_tile<T>(Name, "src1", F);
      }
      const bool apart = !v_in_d && F.base != d.base;  // F shares bytes with dst only in place (stable_source)
      for_each_block(d.valid_rows, d.valid_cols, [&](int r0, int r1, int c0, int c1) {
        if constexpr (!kWidened<T>) {
          if (apart) {
            T* out = row<T>(d, r0) + c0;
            const T* f = row<T>(F, r0) + c0;
            if (swap) bin_rows_apart<O>(out, d.row_stride, vp + c0, 0, f, F.row_stride, r1 - r0, c1 - c0);
            else bin_rows_apart<O>(out, d.row_stride, f, F.row_stride, vp + c0, 0, r1 - r0, c1 - c0);
            return;
          }
        }
        for (int i = r0; i < r1; ++i) {
          Ptr<T> f{row<T>(F, i) + c0}, v{vp + c0};
          if (swap) bin_row<O>(row<T>(d, i) + c0, v, f, c1 - c0);
          else bin_row<O>(row<T>(d, i) + c0, f, v, c1 - c0);
        }
      });
    }
  });
}

// TROWEXPAND: dst[i][j] = src[i][0].
inline void rowexpand(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const TileView& s = ctx.ops[1].tile;
  visit_dtype(d.dtype, [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> col(std::size_t(d.valid_rows));
    for (int i = 0; i < d.valid_rows; ++i) col[std::size_t(i)] = *s.ptr<T>(i, 0);
    for (int i = 0; i < d.valid_rows; ++i) std::fill_n(row<T>(d, i), d.valid_cols, col[std::size_t(i)]);
  });
}

// TROWEXPAND<op>: E contributes s_i = E[i][0] (mode 1) or b_i[j mod BE] (mode 2), where b_i is the
// 32-byte block the chips read for row i: byte 32 * i from E's base (mode2_block). That is E's row i
// when E has one block per row; a wider E (Cols > BE) is read as packed blocks, not through its row
// stride (PTO's CPU simulator reads E[i][j mod BE]; its A2/A3 and A5 algorithms do not).
template <BinOp O, Op Name>
void rowexpand_op(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const bool swap = ctx.variant & kVariantSwap;
  const bool mode2 = ctx.variant & kVariantMode2;
  std::vector<std::byte> f_copy;
  const TileView F = stable_source(swap ? ctx.ops[2].tile : ctx.ops[1].tile, d, f_copy);
  const TileView& E = swap ? ctx.ops[1].tile : ctx.ops[2].tile;
  visit_dtype(d.dtype, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (O == BinOp::ExpDif && !is_float(dtype_v<T>)) {
      return;
    } else {
      const int R = d.valid_rows, C = d.valid_cols, period = int(32 / sizeof(T));
      // Copy E first: it may share bytes with dst (in place), and mode 2 becomes one dense row per row.
      const int ew = mode2 ? period : 1;
      // Reused buffer of this (issuing) thread; the blocks below may run on TBB workers, so they see
      // it only through the pointer `ep`, never by the thread_local's name.
      thread_local std::vector<T> e_buf;
      e_buf.resize(std::size_t(R) * ew);
      T* const ep = e_buf.data();
      for (int i = 0; i < R; ++i)
        for (int k = 0; k < ew; ++k) ep[std::size_t(i) * ew + k] = mode2 ? mode2_block<T>(E, i)[k] : *E.ptr<T>(i, k);
      if constexpr (O == BinOp::Div) {
        if (!swap && mode2) check_divisor_blocks<T>(Name, "src1", E);
        else if (!swap) check_divisor_tile<T>(Name, "src1", E);
        else
          check_divisor_tile<T>(Name, "src1", F);
      }
      for_each_block(R, C, [&](int r0, int r1, int c0, int c1) {
        std::vector<T> blk;
        if (mode2) blk.resize(std::size_t(c1 - c0));
        for (int i = r0; i < r1; ++i) {
          T* out = row<T>(d, i) + c0;
          Ptr<T> f{row<T>(F, i) + c0};
          if (mode2) {
            for (int j = c0; j < c1; ++j) blk[std::size_t(j - c0)] = ep[std::size_t(i) * ew + std::size_t(j % period)];
            Ptr<T> b{blk.data()};
            if (swap) bin_row<O>(out, b, f, c1 - c0);
            else bin_row<O>(out, f, b, c1 - c0);
          } else {
            Splat<T> s{ep[std::size_t(i)]};
            if (swap) bin_row<O>(out, s, f, c1 - c0);
            else bin_row<O>(out, f, s, c1 - c0);
          }
        }
      });
    }
  });
}

inline constexpr BackendKernel kColExpand{nullptr, colexpand};
inline constexpr BackendKernel kRowExpand{nullptr, rowexpand};
template <BinOp O, Op Name> inline constexpr BackendKernel kColExpandOp{nullptr, colexpand_op<O, Name>};
template <BinOp O, Op Name> inline constexpr BackendKernel kRowExpandOp{nullptr, rowexpand_op<O, Name>};

}  // namespace pto::cpu::bcast
