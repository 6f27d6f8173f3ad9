// TSORT32 and TMRGSORT as both chips' NPU code runs them (pto-isa a2a3 / a5 TSort32.hpp, TMrgSort.hpp):
// the same calls of vbitsort, vmrgsort4 and copy_ubuf_to_ubuf on either vector machine. `Chip` holds
// what differs: the small-row threshold, how the tail block is padded, and the pipe barriers (A2A3's).
//   Chip::small(cols, elem_bytes), Chip::pad<T>(unit, block, tail), Chip::barrier(unit)
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <pto/backends/kernel_abi.hpp>

#include "device_common.hpp"

namespace pto::sort_paths {

// TSORT32: per row vbitsort calls of at most 255 blocks. The tmp form with a partial last block copies
// the row (a small one) or the last block alone into tmp, pads lanes tail..31 with -NaN and sorts that
// block from tmp: dst receives 32 records for it, the padded ones -NaN with the indices idx holds past
// its valid columns (docs/sort-gather.md).
template <class Chip, class T, class Unit>
void tsort32(Unit& u, const ExecContext& c) {
  const TileView &d = c.ops[0].tile, &s = c.ops[1].tile, &x = c.ops[2].tile;
  const unsigned C = unsigned(s.valid_cols), rows = unsigned(d.valid_rows), rpr = C / 32, tail = C % 32;
  auto round32 = [](std::ptrdiff_t elems, std::size_t es) { return (std::size_t(elems) * es + 31) / 32 * 32 / es; };
  const std::size_t ds = round32(d.row_stride, sizeof(T)), ss = round32(s.row_stride, sizeof(T)),
                    xs = x.valid_rows == 1 ? 0 : round32(x.row_stride, 4);
  T* dst = reinterpret_cast<T*>(d.base);
  const T* src = reinterpret_cast<const T*>(s.base);
  const auto* idx = reinterpret_cast<const std::uint32_t*>(x.base);
  constexpr std::size_t per = 8 / sizeof(T);  // elements per record
  if (!(c.variant & kVariantSortTmp)) {
    for (unsigned i = 0; i < rows; ++i)
      for (unsigned j = 0; j * 255 < rpr; ++j) {
        u.vbitsort(dst + i * ds + j * 255 * 32 * per, src + i * ss + j * 255 * 32, idx + i * xs + j * 255 * 32, std::min(255u, rpr - j * 255));
        Chip::barrier(u);
      }
    return;
  }
  T* tmp = reinterpret_cast<T*>(c.ops[3].tile.base);
  if (Chip::small(C, sizeof(T))) {  // the row staged in tmp
    for (unsigned i = 0; i < rows; ++i) {
      u.copy_ubuf_to_ubuf(tmp, src + i * ss, 1, unsigned((C * sizeof(T) + 31) / 32), 0, 0);
      Chip::barrier(u);
      Chip::pad(u, tmp + rpr * 32, tail);
      u.vbitsort(dst + i * ds, tmp, idx + i * xs, rpr + 1);
      Chip::barrier(u);
    }
    return;
  }
  const unsigned loops = (rpr + 1 + 254) / 255, last = (rpr + 1) % 255;  // last: blocks of the final call, the tail's included
  for (unsigned i = 0; i < rows; ++i)
    for (unsigned j = 0; j < loops; ++j) {
      const std::size_t b0 = std::size_t(j) * 255;  // first block of this call
      if (j + 1 < loops) {
        u.vbitsort(dst + i * ds + b0 * 32 * per, src + i * ss + b0 * 32, idx + i * xs + b0 * 32, 255);
        Chip::barrier(u);
        continue;
      }
      u.vbitsort(dst + i * ds + b0 * 32 * per, src + i * ss + b0 * 32, idx + i * xs + b0 * 32, last - 1);
      Chip::barrier(u);
      const std::size_t bt = b0 + last - 1;  // the tail block
      u.copy_ubuf_to_ubuf(tmp, src + i * ss + bt * 32, 1, unsigned((tail * sizeof(T) + 31) / 32), 0, 0);
      Chip::barrier(u);
      Chip::pad(u, tmp, tail);
      u.vbitsort(dst + i * ds + bt * 32 * per, tmp, idx + i * xs + bt * 32, 1);
      Chip::barrier(u);
    }
}

// TMRGSORT. Single list: one vmrgsort4 whose repeats are src's groups of four blocks of blockLen
// elements. Lists: one vmrgsort4 of 2-4 lists into tmp; exhausted mode reads VMS4_SR on the scalar
// unit (a V -> S flag) into executedNumList; then copy_ubuf_to_ubuf of dst's valid bytes rounded up
// to 32-byte blocks from tmp.
template <class Chip, class T, class Unit>
void tmrgsort(Unit& u, const ExecContext& c) {
  const TileView& d = c.ops[0].tile;
  T* dst = reinterpret_cast<T*>(d.base);
  if (c.variant & kVariantSingleList) {
    const TileView& s = c.ops[2].tile;
    const std::uint32_t block = c.scalar.as<std::uint32_t>();  // elements
    const std::uint64_t n = block * sizeof(T) / 8;             // records per block
    const T* src = reinterpret_cast<const T*>(s.base);
    const T* addr[4] = {src, src + block, src + 2 * block, src + 3 * block};
    const std::uint64_t repeat = std::uint64_t(s.valid_cols) / (4 * block);
    u.vmrgsort4(dst, addr, n | n << 16 | n << 32 | n << 48, repeat | 0xfull << 8);
    return;
  }
  const int lists = c.nops - 2;
  const T* addr[4] = {};
  std::uint64_t count = 0;
  for (int l = 0; l < lists; ++l) {
    const TileView& s = c.ops[2 + l].tile;
    addr[l] = reinterpret_cast<const T*>(s.base);
    count |= std::uint64_t(std::size_t(s.valid_cols) * sizeof(T) / 8) << (16 * l);
  }
  const bool exhausted = c.variant & kVariantExhausted;
  T* tmp = reinterpret_cast<T*>(c.ops[1].tile.base);
  u.vmrgsort4(tmp, addr, count, 1 | std::uint64_t((1u << lists) - 1) << 8 | std::uint64_t(exhausted) << 12);
  if (exhausted) {
    u.scalar_round_trip();
    if (u.executes()) {
      const std::uint64_t sr = u.get_vms4_sr();
      auto* list = reinterpret_cast<MrgSortExecutedNumList*>(c.scalar.as<std::uintptr_t>());
      list->mrgSortList0 = std::uint16_t(sr);
      list->mrgSortList1 = std::uint16_t(sr >> 16);
      list->mrgSortList2 = std::uint16_t(sr >> 32);
      list->mrgSortList3 = std::uint16_t(sr >> 48);
    }
  }
  Chip::barrier(u);
  u.copy_ubuf_to_ubuf(dst, tmp, 1, unsigned((std::size_t(d.valid_cols) * sizeof(T) + 31) / 32), 0, 0);
}

// The two algorithms as a target's typed dispatch calls them (Algo::run<T>(unit, ctx)).
template <class Chip> struct Sort32 {
  template <class T, class Unit> static void run(Unit& u, const ExecContext& c) { tsort32<Chip, T>(u, c); }
};
template <class Chip> struct MrgSort {
  template <class T, class Unit> static void run(Unit& u, const ExecContext& c) { tmrgsort<Chip, T>(u, c); }
};

// ---- what the paths cover and write past the valid records ------------------------------------------
// Half and float records, every tile in UB, RowMajor. The writes past dst's valid records (TSORT32's
// padded last block, TMRGSORT's last 32-byte block) must stay inside each dst row; when they would not,
// the CPU reference runs and the planner prices the chip's stream.
inline std::size_t spill(const ExecContext& ctx) {  // bytes written past each dst row's valid columns
  const TileView& d = ctx.ops[0].tile;
  if (ctx.op == Op::TSORT32)
    return (ctx.variant & kVariantSortTmp) ? std::size_t(32 - ctx.ops[1].tile.valid_cols % 32) * 8 : 0;
  if (ctx.variant & kVariantSingleList) return 0;
  const std::size_t bytes = std::size_t(d.valid_cols) * d.elem_bytes();
  return (bytes + 31) / 32 * 32 - bytes;
}
inline bool covers(const ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  return device::covers<DTypeSet{DType::F32, DType::F16}>(ctx) &&
         std::size_t(d.valid_cols) * d.elem_bytes() + spill(ctx) <= std::size_t(d.cols) * d.elem_bytes();
}
inline backend::Overrun overrun(const ExecContext& ctx) {
  backend::Overrun o;
  const TileView& d = ctx.ops[0].tile;
  o.tail_bytes = std::uint32_t(spill(ctx));
  if (o.tail_bytes && d.valid_rows > 0)
    o.warning = ctx.op == Op::TSORT32
                    ? detail::cat("TSORT32: the ", name_of(ctx.target), " tmp path sorts the padded last block whole, so each of dst's ",
                                  d.valid_rows, " rows also receives ", o.tail_bytes / 8, " record(s) of -NaN past its ", d.valid_cols,
                                  " valid elements (inside the row), with the indices idx holds past its valid columns")
                    : detail::cat("TMRGSORT: the ", name_of(ctx.target), " algorithm copies whole 32-byte blocks from tmp, so dst is "
                                  "also written ", o.tail_bytes / d.elem_bytes(), " element(s) past its ", d.valid_cols,
                                  " valid columns (tmp's bytes there)");
  return o;
}

}  // namespace pto::sort_paths
