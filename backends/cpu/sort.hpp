// TSORT32 and TMRGSORT on 8-byte value-index records, by the record rules of backends/common/records.hpp
// (shared with the device paths). docs/sort-gather.md states what the chips do around these rules.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include <pto/backends/kernel_abi.hpp>

#include "../common/records.hpp"

namespace pto::cpu::sort {

inline std::byte* row_of(const TileView& t, int i) { return t.base + t.elem_offset(i, 0) * std::ptrdiff_t(t.elem_bytes()); }

// TSORT32(dst, src, idx[, tmp]): per row, each block of 32 columns (the last one partial, in the tmp
// form) sorted with its indices into src's column count of records. idx with one valid row serves every
// row. tmp is not written: the records it stages on the chip are src's, padded.
inline void tsort32(ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile, &x = ctx.ops[2].tile;
  const int C = s.valid_cols;
  const std::size_t es = s.elem_bytes();
  std::vector<std::byte> out(std::size_t(C) * 8);
  for (int i = 0; i < s.valid_rows; ++i) {
    const std::byte* srow = row_of(s, i);
    const auto* irow = reinterpret_cast<const std::uint32_t*>(row_of(x, x.valid_rows == 1 ? 0 : i));
    for (int b = 0; b < C; b += 32)
      records::sort_block(s.dtype, out.data() + std::size_t(b) * 8, srow + std::size_t(b) * es, irow + b, unsigned(std::min(32, C - b)));
    std::memcpy(row_of(d, i), out.data(), out.size());  // every row read before its records are written
  }
}

// TMRGSORT, lists form (dst, tmp, src0, src1[, src2[, src3]]): the lists' records merged into tmp (as
// the chip's vmrgsort4 does), then dst's valid region copied from tmp (the chip's copy_ubuf_to_ubuf:
// this is how a top-k keeps the first k records). Exhausted mode stops after the record that empties a
// list and writes how many records it took from each into the MrgSortExecutedNumList at the address in
// the scalar. Single-list form (dst, -, src0; blockLen in the scalar): src0's valid columns as groups of
// four sorted blocks of blockLen elements, each group merged into dst.
inline void tmrgsort(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const DType t = d.dtype;
  const int per = int(8 / d.elem_bytes());  // tile elements per record
  if (ctx.variant & kVariantSingleList) {
    const TileView& s = ctx.ops[2].tile;  // operand 1 (tmp) is absent in this form
    const int block = int(ctx.scalar.as<std::uint32_t>()) / per;  // records per block
    const int groups = s.valid_cols / per / (4 * block);
    std::vector<std::byte> out(std::size_t(groups) * 4 * std::size_t(block) * 8);
    for (int g = 0; g < groups; ++g) {
      records::List lists[4];
      for (int k = 0; k < 4; ++k)
        lists[k] = {row_of(s, 0) + (std::size_t(g) * 4 + std::size_t(k)) * std::size_t(block) * 8, std::uint32_t(block)};
      records::merge(t, out.data() + std::size_t(g) * 4 * std::size_t(block) * 8, lists, 4, false, nullptr);
    }
    std::memcpy(row_of(d, 0), out.data(), out.size());  // src read whole before dst is written (in place)
    return;
  }
  const TileView& tmp = ctx.ops[1].tile;
  records::List lists[4];
  for (int k = 2; k < ctx.nops; ++k) lists[k - 2] = {row_of(ctx.ops[k].tile, 0), std::uint32_t(ctx.ops[k].tile.valid_cols / per)};
  std::uint32_t taken[4] = {0, 0, 0, 0};
  const bool exhausted = ctx.variant & kVariantExhausted;
  records::merge(t, row_of(tmp, 0), lists, ctx.nops - 2, exhausted, taken);
  std::memmove(row_of(d, 0), row_of(tmp, 0), std::size_t(d.valid_cols) * d.elem_bytes());
  if (exhausted) {
    auto* list = reinterpret_cast<MrgSortExecutedNumList*>(ctx.scalar.as<std::uintptr_t>());
    list->mrgSortList0 = std::uint16_t(taken[0]);
    list->mrgSortList1 = std::uint16_t(taken[1]);
    list->mrgSortList2 = std::uint16_t(taken[2]);
    list->mrgSortList3 = std::uint16_t(taken[3]);
  }
}

inline constexpr BackendKernel kSort32{nullptr, tsort32};
inline constexpr BackendKernel kMrgSort{nullptr, tmrgsort};

}  // namespace pto::cpu::sort
