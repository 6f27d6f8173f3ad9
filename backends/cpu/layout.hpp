// TTRANS and the TFILLPAD family on the CPU: byte moves of whole elements (any 1-, 2- or 4-byte type).
// Legality and the target's choices were settled when the instruction was issued (the variant bits).
#pragma once
#include <algorithm>
#include <cstring>
#include <vector>

#include <pto/isa/kernel_abi.hpp>
#include "pad_value.hpp"

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

inline constexpr BackendKernel kTrans{nullptr, ttrans};
inline constexpr BackendKernel kFillPad{nullptr, tfillpad};

}  // namespace pto::cpu::layout
