// TTRANS, the TFILLPAD family and TCONCAT on the CPU: byte moves of whole elements (any 1-, 2- or 4-byte type).
// Legality and the target's choices were settled when the instruction was issued (the variant bits).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include <pto/isa/error.hpp>
#include <pto/backends/kernel_abi.hpp>
#include "../common/pad_value.hpp"

namespace pto::cpu::layout {

inline std::byte* at(const TileView& t, int i, int j) {
  return t.base + t.elem_offset(i, j) * std::ptrdiff_t(t.elem_bytes());
}

// TTRANS: dst[j][i] = src[i][j] over src's valid region. In place (dst aliasing src) reads src whole first.
inline void ttrans(ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile;
  const std::size_t es = s.elem_bytes();
  std::vector<std::byte> copy;
  const TileView* from = &s;
  TileView staged = s;
  if (d.footprint().overlaps(s.footprint())) {
    copy.resize(std::size_t(s.valid_rows) * std::size_t(s.valid_cols) * es);
    for (int i = 0; i < s.valid_rows; ++i) std::memcpy(copy.data() + std::size_t(i) * s.valid_cols * es, at(s, i, 0), s.valid_cols * es);
    staged.base = copy.data();
    staged.row_stride = s.valid_cols;
    staged.col_stride = 1;
    from = &staged;
  }
  auto run = [&](auto zero) {
    using T = decltype(zero);
    for (int i = 0; i < from->valid_rows; ++i) {
      const T* row = reinterpret_cast<const T*>(at(*from, i, 0));
      for (int j = 0; j < from->valid_cols; ++j) std::memcpy(at(d, j, i), row + j, sizeof(T));
    }
  };
  if (es == 4) run(std::uint32_t{});
  else if (es == 2) run(std::uint16_t{});
  else run(std::uint8_t{});
}

// TFILLPAD (and _INPLACE, _EXPAND): rows below src's valid rows take src's valid elements, then dst's pad
// value up to dst's capacity width; rows from there to dst's valid rows are pad throughout. kVariantKeepBlock
// (A2A3 when dst and src have the same PadVal): the rest of src's last 32-byte block is copied, not padded.
inline void tfillpad(ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile;
  const std::size_t es = d.elem_bytes();
  const int block = int(32 / es);
  const int kept = (ctx.variant & kVariantKeepBlock) ? std::min(d.cols, (s.valid_cols + block - 1) / block * block) : s.valid_cols;
  visit_dtype(d.dtype, [&](auto zero) {
    using T = decltype(zero);
    const T pad = pad_element<T>(d.pad);
    for (int i = 0; i < s.valid_rows; ++i) {
      if (d.base != s.base || d.row_stride != s.row_stride) std::memmove(at(d, i, 0), at(s, i, 0), std::size_t(kept) * es);
      T* row = reinterpret_cast<T*>(at(d, i, 0));
      std::fill(row + kept, row + d.cols, pad);
    }
    for (int i = s.valid_rows; i < d.valid_rows; ++i) {
      T* row = reinterpret_cast<T*>(at(d, i, 0));
      std::fill(row, row + d.cols, pad);
    }
  });
}

// TCONCAT: per dst valid row, n0 elements of src0's row then n1 of src1's. The basic form takes the valid
// widths (kVariantConcatBlocks: A2A3's whole-block copies, src1's only when n0 ends on a block); the index
// forms read byte counts from column 0 of the index tiles, in units of the index element, and clamp them
// to dst's valid columns as both NPUs do; dstIdx gets the clamped count in the same unit.
inline void tconcat(ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &a = ctx.ops[1].tile, &b = ctx.ops[2].tile;
  const std::size_t es = d.elem_bytes();
  auto row = [&](int i, int n0, int c0, int c1) {  // c0, c1: the elements moved
    std::memmove(at(d, i, 0), at(a, i, 0), std::size_t(c0) * es);
    std::memmove(at(d, i, n0), at(b, i, 0), std::size_t(c1) * es);
  };
  if (ctx.nops == 3) {
    const int n0 = a.valid_cols, n1 = b.valid_cols, be = int(32 / es);
    const bool blocks = ctx.variant & kVariantConcatBlocks;
    const int c0 = blocks ? (n0 + be - 1) / be * be : n0;
    const int c1 = blocks && n0 % be == 0 ? (n1 + be - 1) / be * be : n1;
    for (int i = 0; i < d.valid_rows; ++i) row(i, n0, c0, c1);
    return;
  }
  const TileView &i0 = ctx.ops[3].tile, &i1 = ctx.ops[4].tile;
  visit_dtype(i0.dtype, [&](auto zero) {
    using I = decltype(zero);
    if constexpr (std::is_integral_v<I> && sizeof(I) <= 4) {
      auto count = [&](const TileView& t, int i, const char* name) {
        I v;
        std::memcpy(&v, at(t, i, 0), sizeof(I));
        if constexpr (std::is_signed_v<I>)
          if (v < 0) detail::fail("TCONCAT: operand ", name, " holds ", std::int64_t(v), " at row ", i, "; a count of bytes is never negative");
        return std::uint64_t(v) / sizeof(I);
      };
      const std::uint64_t w = std::uint64_t(d.valid_cols);
      for (int i = 0; i < d.valid_rows; ++i) {
        const int n0 = int(std::min(count(i0, i, "src0Idx"), w));
        const int n1 = int(std::min(count(i1, i, "src1Idx"), w - std::uint64_t(n0)));
        if (n0 > a.cols || n1 > b.cols)
          detail::fail("TCONCAT: row ", i, " takes ", n0 > a.cols ? n0 : n1, " elements of ", n0 > a.cols ? "src0 " : "src1 ",
                       n0 > a.cols ? a : b, ", more than its row holds (its index tile's count, clamped to dst's ", w,
                       " valid columns)");
        row(i, n0, n0, n1);
        if (ctx.nops == 6) {
          const I v = I(std::uint64_t(n0 + n1) * sizeof(I));  // in I, as the chips compute it
          std::memcpy(at(ctx.ops[5].tile, i, 0), &v, sizeof(I));
        }
      }
    }
  });
}

inline constexpr BackendKernel kTrans{nullptr, ttrans};
inline constexpr BackendKernel kConcat{nullptr, tconcat};
inline constexpr BackendKernel kFillPad{nullptr, tfillpad};

}  // namespace pto::cpu::layout
