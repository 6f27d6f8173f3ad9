// TGATHER (pto-isa docs/isa/TGATHER.md), as bit copies of the elements:
//  - index form (dst, src0, indices, tmp): dst[i][j] = src0's element indices[i][j], counted row-major
//    over src0's storage (its row stride); an index outside src0's rows x cols is an error (the chips
//    read whatever UB holds there).
//  - mask-pattern form (dst, src), GATHER_ROW: from every row of src's valid region the columns the
//    pattern keeps (c % 2 or c % 4 equal to the pattern's position, or all), packed one after another
//    into dst from its first element; GATHER_COL: dst row i is src row times * i + position.
// TGATHERB and TSCATTER (runtime/gather.hpp has their rules).
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include <pto/isa/enums.hpp>
#include <pto/isa/error.hpp>
#include <pto/backends/kernel_abi.hpp>

#include "../common/gather_index.hpp"

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
  // Gathered whole before dst is written: dst may share bytes with src0.
  std::vector<std::byte> out(std::size_t(d.valid_rows) * std::size_t(d.valid_cols) * es);
  std::byte* o = out.data();
  for (int i = 0; i < d.valid_rows; ++i)
    for (int j = 0; j < d.valid_cols; ++j, o += es) {
      const std::uint64_t k = gather_index::at(x, s, i, j);
      std::memcpy(o, s.base + std::ptrdiff_t(k / std::uint64_t(s.cols)) * s.row_stride * std::ptrdiff_t(es) +
                         std::ptrdiff_t(k % std::uint64_t(s.cols)) * std::ptrdiff_t(es),
                  es);
    }
  o = out.data();
  for (int i = 0; i < d.valid_rows; ++i, o += std::size_t(d.valid_cols) * es) std::memcpy(elem(d, i, 0), o, std::size_t(d.valid_cols) * es);
}

inline constexpr BackendKernel kGather{nullptr, tgather};

// TSCATTER: src's elements read first (dst may share its bytes), dst zeroed whole (but for P1111, a
// TMOV), then the elements placed in row order.
inline void tscatter(ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile;
  const std::size_t es = d.elem_bytes();
  auto elem = [&](const TileView& t, int i, int j) { return t.base + t.elem_offset(i, j) * std::ptrdiff_t(es); };
  const bool mask = ctx.variant & kVariantGatherMask;
  const MaskPattern p = pattern_of(ctx.variant);
  const int R = s.valid_rows, C = s.valid_cols;  // the elements scattered
  std::vector<std::byte> in(std::size_t(R) * std::size_t(C) * es);
  for (int i = 0; i < R; ++i) std::memcpy(in.data() + std::size_t(i) * std::size_t(C) * es, elem(s, i, 0), std::size_t(C) * es);
  auto from = [&](int i, int j) { return in.data() + (std::size_t(i) * std::size_t(C) + std::size_t(j)) * es; };
  if (mask && p == MaskPattern::P1111) {
    for (int i = 0; i < R; ++i) std::memcpy(elem(d, i, 0), from(i, 0), std::size_t(C) * es);
    return;
  }
  const std::uint64_t n = std::uint64_t(d.rows) * std::uint64_t(d.cols);
  std::vector<std::uint64_t> at;  // the index form's targets, checked before dst changes
  if (!mask) {
    const TileView& x = ctx.ops[2].tile;
    at.reserve(std::size_t(R) * std::size_t(C));
    for (int i = 0; i < R; ++i)
      for (int j = 0; j < C; ++j) {
        const std::uint64_t k = gather_index::read(x, i, j);
        if (k >= n)
          detail::fail("TSCATTER: operand indexes has ", k, " at element (", i, ", ", j, "), outside dst's ", d.rows, " x ",
                       d.cols, " elements (the chips would write whatever UB lies there)");
        at.push_back(k);
      }
  }
  for (int i = 0; i < d.rows; ++i) std::memset(elem(d, i, 0), 0, std::size_t(d.cols) * es);
  if (!mask) {
    for (int i = 0, k = 0; i < R; ++i)
      for (int j = 0; j < C; ++j, ++k)
        std::memcpy(d.base + std::ptrdiff_t(at[std::size_t(k)] / std::uint64_t(d.cols)) * d.row_stride * std::ptrdiff_t(es) +
                        std::ptrdiff_t(at[std::size_t(k)] % std::uint64_t(d.cols)) * std::ptrdiff_t(es),
                    from(i, j), es);
    return;
  }
  const int times = mask_period(p), pos = mask_position(p);
  if (ctx.variant & kVariantGatherCol) {
    for (int i = 0; i < R; ++i) std::memcpy(elem(d, times * i + pos, 0), from(i, 0), std::size_t(C) * es);
    return;
  }
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) std::memcpy(elem(d, i, times * j + pos), from(i, j), es);
}

inline constexpr BackendKernel kScatter{nullptr, tscatter};

// TGATHERB: block b of dst's row r is the 32 bytes at src's base + offset[r][b] (A5 writes only the
// valid columns of a row's last block; A2A3 gathers a row's part past its whole repeats as 8 blocks).
// Every offset is checked first (on a block, inside src's storage) and the blocks gathered before dst
// is written, so dst may share bytes with src.
inline void tgatherb(ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile, &f = ctx.ops[2].tile;
  const std::size_t es = d.elem_bytes(), row_bytes = std::size_t(d.valid_cols) * es;
  const int blocks = f.valid_cols;  // per row, as the public function set it
  const std::uint64_t src_bytes = s.capacity_bytes();
  std::vector<std::byte> out(std::size_t(d.valid_rows) * std::size_t(blocks) * 32);
  for (int r = 0; r < d.valid_rows; ++r)
    for (int b = 0; b < blocks; ++b) {
      const std::uint64_t off = gather_index::read(f, r, b);
      if (off % 32 != 0 || off + 32 > src_bytes)
        detail::fail("TGATHERB: operand offset has ", off, " at element (", r, ", ", b, "): a byte offset must name a 32-byte "
                     "block inside src's ", src_bytes, " bytes (the chips would read whatever UB holds there)");
      std::memcpy(out.data() + (std::size_t(r) * std::size_t(blocks) + std::size_t(b)) * 32, s.base + off, 32);
    }
  const std::size_t n = ctx.target == Target::A5 ? row_bytes : std::size_t(blocks) * 32;
  for (int r = 0; r < d.valid_rows; ++r)
    std::memcpy(d.base + d.elem_offset(r, 0) * std::ptrdiff_t(es), out.data() + std::size_t(r) * std::size_t(blocks) * 32, n);
}

inline constexpr BackendKernel kGatherB{nullptr, tgatherb};

}  // namespace pto::cpu::gather
