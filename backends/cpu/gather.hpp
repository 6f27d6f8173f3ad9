// TGATHER (pto-isa docs/isa/TGATHER.md), as bit copies of the elements:
//  - index form (dst, src0, indices, tmp): dst[i][j] = src0's element indices[i][j], counted row-major
//    over src0's storage (its row stride); an index outside src0's rows x cols is an error (the chips
//    read whatever UB holds there).
//  - mask-pattern form (dst, src), GATHER_ROW: from every row of src's valid region the columns the
//    pattern keeps (c % 2 or c % 4 equal to the pattern's position, or all), packed one after another
//    into dst from its first element; GATHER_COL: dst row i is src row times * i + position.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include <pto/isa/error.hpp>
#include <pto/isa/kernel_abi.hpp>

namespace pto::cpu::gather {

inline void tgather(ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile;
  const std::size_t es = d.elem_bytes();
  auto elem = [&](const TileView& t, int i, int j) { return t.base + t.elem_offset(i, j) * std::ptrdiff_t(t.elem_bytes()); };
  if (ctx.variant & kVariantGatherMask) {
    const MaskPattern p = pattern_of(ctx.variant);
    const int times = mask_period(p), at = mask_position(p);
    if (ctx.variant & kVariantGatherCol) {
      for (int i = 0; i < d.valid_rows; ++i) std::memmove(elem(d, i, 0), elem(s, times * i + at, 0), std::size_t(d.valid_cols) * es);
      return;
    }
    std::byte* out = d.base;
    for (int i = 0; i < s.valid_rows; ++i)
      for (int j = at; j < s.valid_cols; j += times, out += es) std::memmove(out, elem(s, i, j), es);
    return;
  }
  const TileView& x = ctx.ops[2].tile;
  const std::uint64_t n = std::uint64_t(s.rows) * std::uint64_t(s.cols);
  // Gathered whole before dst is written: dst may share bytes with src0.
  std::vector<std::byte> out(std::size_t(d.valid_rows) * std::size_t(d.valid_cols) * es);
  std::byte* o = out.data();
  for (int i = 0; i < d.valid_rows; ++i)
    for (int j = 0; j < d.valid_cols; ++j, o += es) {
      std::uint64_t k;
      if (x.elem_bytes() == 4) {
        std::uint32_t v;
        std::memcpy(&v, elem(x, i, j), 4);
        k = v;
      } else {
        std::uint16_t v;
        std::memcpy(&v, elem(x, i, j), 2);
        k = v;
      }
      if (k >= n)
        detail::fail("TGATHER: operand indices has ", k, " at element (", i, ", ", j, "), outside src0's ", s.rows, " x ",
                     s.cols, " elements (the chips would read whatever UB holds there)");
      std::memcpy(o, s.base + std::ptrdiff_t(k / std::uint64_t(s.cols)) * s.row_stride * std::ptrdiff_t(es) +
                         std::ptrdiff_t(k % std::uint64_t(s.cols)) * std::ptrdiff_t(es),
                  es);
    }
  o = out.data();
  for (int i = 0; i < d.valid_rows; ++i, o += std::size_t(d.valid_cols) * es) std::memcpy(elem(d, i, 0), o, std::size_t(d.valid_cols) * es);
}

inline constexpr BackendKernel kGather{nullptr, tgather};

}  // namespace pto::cpu::gather
