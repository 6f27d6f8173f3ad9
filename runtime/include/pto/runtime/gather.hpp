// Gathering (pto-isa docs/isa/TGATHER.md), bit copies of the elements:
//  - TGATHER(dst, src0, indices, tmp): dst[i][j] = src0's element number indices[i][j] (row-major over
//    src0's storage). tmp is A2A3's scratch for the byte offsets (indices' DType and valid shape); A5
//    ignores it.
//  - TGATHER<Dst, Src, MaskPattern, GatherAxis>(dst, src): GATHER_ROW packs the columns the pattern
//    keeps from every row of src into dst from its first element (row after row); GATHER_COL takes
//    src's rows times * i + position into dst's row i.
//  - TGATHERB(dst, src, offset) (a2a3 / a5 TGatherB.hpp; pto-isa's docs describe a per-element gather,
//    the NPUs gather 32-byte blocks): block b of dst's row r is the 32 bytes at src's base + offset[r][b].
// Scattering (docs/isa/TSCATTER.md; a2a3 / a5 TScatter.hpp):
//  - TSCATTER(dst, src, indexes): dst is zeroed whole, then src[i][j] goes to dst's element number
//    indexes[i][j] (row-major over dst's storage) for every (i, j) of indexes' valid region, in row
//    order (a repeated index keeps the last).
//  - TSCATTER<MaskPattern, ScatterAxis>(dst, src): dst is zeroed whole, then by rows src[i][j] goes to
//    dst[i][times * j + position], by columns src's row i to dst's row times * i + position; P1111 is a
//    TMOV.
#pragma once
#include <cstdint>
#include <type_traits>

#include <pto/isa/enums.hpp>
#include <pto/isa/instr_desc.hpp>
#include <pto/isa/operand.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {

namespace detail {
// TGATHER's index form on the views (dst, src0, indices, tmp in rec), shared with the PTO IR reader.
inline void gather_index_checks(InstrRecord& rec, Target target) {
  const InstrDesc& d = *rec.desc;
  const TileView &o = rec.ops[0].tile, &x = rec.ops[2].tile;
  check_dtype(d, o.dtype, target);
  check_same_valid(d, "dst", o, "indices", x);
  const std::size_t es = size_of(o.dtype), is = size_of(x.dtype);
  if (target == Target::A2A3) {
    if (is != 4) fail(d.name, ": operand indices ", x, ": A2A3 takes 32-bit indices (a2a3 TGather.hpp)");
    if (rec.ops[3].tile.dtype != x.dtype)
      fail(d.name, ": operand tmp ", rec.ops[3].tile, ": A2A3 keeps the byte offsets there: tmp must have indices' DType");
    check_same_valid(d, "indices", x, "tmp", rec.ops[3].tile);
  } else {
    if (es == 1 && is != 2)
      fail(d.name, ": operand indices ", x, ": A5 gathers 8-bit data with 16-bit indices (a5 TGather.hpp)");
    if (es >= 4 && is != 4)
      fail(d.name, ": operand indices ", x, ": A5 gathers ", es * 8, "-bit data with 32-bit indices (a5 TGather.hpp)");
    if (es == 8 && o.valid_cols > 64)
      fail(d.name, ": operand dst ", o, ": A5 gathers at most 64 columns of 64-bit data per row (Int64Gather takes one "
           "register pair per row); the chip would leave the rest unwritten");
    rec.ops[3].tile.valid_rows = rec.ops[3].tile.valid_cols = 0;  // A5 ignores tmp
  }
}

// TGATHER's mask-pattern form on the views (dst, src in rec), shared with the PTO IR reader.
inline void gather_mask_checks(InstrRecord& rec, Target target, MaskPattern p, bool by_cols) {
  const InstrDesc& d = *rec.desc;
  TileView& o = rec.ops[0].tile;
  const TileView& s = rec.ops[1].tile;
  check_dtype(d, "src", s.dtype, target, d.dtypes);
  const int times = mask_period(p), at = mask_position(p);
  const int R = s.valid_rows, C = s.valid_cols;
  if (by_cols) {
    if (o.valid_cols != C || R != times * o.valid_rows)
      fail(d.name, ": operand dst ", o, ": by columns dst row i is src row ", times, " * i + ", at, ", so dst needs src's valid "
           "columns and a ", times, "th of its rows (src ", s, ")");
    if (target == Target::A5 && s.elem_bytes() == 8) fail(d.name, ": A5 gathers 64-bit data by rows only (Int64GatherPattern)");
  } else {
    const std::int64_t per_row = C > at ? (C - at + times - 1) / times : 0, n = per_row * R;
    if (o.valid_cols != o.cols && o.valid_rows > 1)
      fail(d.name, ": operand dst ", o, ": by rows the chip packs the kept elements one after another from dst's first "
           "element, so dst's valid rows must be whole rows of the tile (or one row)");
    if (std::int64_t(o.rows) * o.cols < n)
      fail(d.name, ": operand dst ", o, " holds ", std::int64_t(o.rows) * o.cols, " elements in all, and the pattern keeps ",
           n, " of src ", s, " (the chip would write past dst's storage)");
    // More than dst's valid region: the chip packs them on into dst's own storage past it (pto-isa's topk
    // kernel keeps 1024 of a row in a 1000-column one and stores the 1000); the record says what is written.
    if (std::int64_t(o.valid_rows) * o.valid_cols < n) {
      o.valid_rows = n > o.cols ? int((n + o.cols - 1) / o.cols) : std::max(o.valid_rows, 1);
      o.valid_cols = n > o.cols ? o.cols : std::max(o.valid_cols, int(n));
    }
    if (target == Target::A5 && s.elem_bytes() == 8 && per_row > 64)
      fail(d.name, ": operand src ", s, ": A5 keeps at most 64 64-bit elements per row (Int64GatherPattern)");
  }
  rec.variant = std::uint8_t(kVariantGatherMask | (std::uint8_t(p) << kVariantPatternShift) |
                             (by_cols ? kVariantGatherCol : 0));
}

// TSCATTER's index form on the views (dst, src, indexes in rec), shared with the PTO IR reader.
inline void scatter_index_checks(InstrRecord& rec, Target target) {
  const InstrDesc& d = *rec.desc;
  TileView &o = rec.ops[0].tile, &s = rec.ops[1].tile;
  const TileView& x = rec.ops[2].tile;
  check_dtype(d, o.dtype, target);
  if (x.valid_rows > s.valid_rows || x.valid_cols > s.valid_cols)
    fail(d.name, ": operand indexes ", x, " has a larger valid region than operand src ", s,
         ": every index scatters the src element at its own position");
  if (target == Target::A5 && o.elem_bytes() == 8 && x.valid_cols > 64)
    fail(d.name, ": operand indexes ", x, ": A5 scatters at most 64 columns of 64-bit data per row (Int64Scatter takes "
         "one register of indices per row); the chip would drop the rest");
  s.valid_rows = x.valid_rows;  // the elements read
  s.valid_cols = x.valid_cols;
  o.valid_rows = o.rows;  // zeroed whole
  o.valid_cols = o.cols;
}

// TSCATTER's mask-pattern form on the views (dst, src in rec), shared with the PTO IR reader.
inline void scatter_mask_checks(InstrRecord& rec, Target target, MaskPattern p, bool col) {
  const InstrDesc& d = *rec.desc;
  TileView &o = rec.ops[0].tile;
  const TileView& s = rec.ops[1].tile;
  check_dtype(d, o.dtype, target);
  const int times = mask_period(p);
  const int want_rows = col ? times * s.valid_rows : s.valid_rows, want_cols = col ? s.valid_cols : times * s.valid_cols;
  if (o.valid_rows != want_rows || o.valid_cols != want_cols)
    fail(d.name, ": operand dst ", o, " with src ", s, ": the pattern spreads src's ", col ? "rows" : "columns", " over ", times,
         " times as many, so dst's valid region must be ", want_rows, 'x', want_cols);
  if (p != MaskPattern::P1111) {
    if (target == Target::A2A3 && col && o.elem_bytes() == 1)
      fail(d.name, ": operand src ", s, ": A2A3 copies the rows of 8-bit data as 16-bit lanes counted in elements, twice "
           "the bytes (a2a3 TScatter.hpp); the chip would write past each row");
    if (target == Target::A5 && o.elem_bytes() == 8 && s.valid_cols > 64)
      fail(d.name, ": operand src ", s, ": A5 spreads at most 64 64-bit elements per row (Int64ScatterPattern)");
    o.valid_rows = o.rows;  // zeroed whole
    o.valid_cols = o.cols;
  }
  rec.variant = std::uint8_t(kVariantGatherMask | (std::uint8_t(p) << kVariantPatternShift) | (col ? kVariantGatherCol : 0));
}

// TGATHERB on the views (dst, src, offset in rec), shared with the PTO IR reader.
inline void gatherb_checks(InstrRecord& rec, Target target) {
  const InstrDesc& d = *rec.desc;
  const TileView& o = rec.ops[0].tile;
  const std::size_t es = size_of(o.dtype);
  TileView &s = rec.ops[1].tile, &f = rec.ops[2].tile;
  check_dtype(d, o.dtype, target);
  const int blocks = int((std::size_t(o.valid_cols) * es + 31) / 32), epr = int(256 / es);
  if (f.rows < o.valid_rows || f.cols < blocks)
    fail(d.name, ": operand offset ", f, ": dst ", o, " has ", o.valid_rows, " rows of ", blocks,
         " blocks, and each block takes its own offset");
  if (target == Target::A2A3 && o.valid_cols % epr != 0 && o.valid_rows > 1)
    fail(d.name, ": operand dst ", o, ": A2A3 gathers a row's last part (valid columns not a multiple of ", epr,
         ") as 8 whole blocks per row, stepping its offsets 8 at a time rather than by offset's rows; this runtime does "
         "not reproduce that form (use whole multiples of ", epr, " columns, or one row)");
  if (target == Target::A2A3 && o.valid_cols % epr != 0) {  // one row: its tail is 8 whole blocks
    const int tail_from = o.valid_cols / epr * epr, tail_blocks = 8;
    if (std::size_t(tail_from) * es + 256 > std::size_t(o.cols) * es || f.cols < tail_from * int(es) / 32 + tail_blocks)
      fail(d.name, ": operand dst ", o, ": A2A3 gathers the row's last ", o.valid_cols - tail_from, " columns as 8 whole "
           "blocks (256 bytes), which must fit in dst's row and take 8 offsets");
    rec.ops[0].write_tail_bytes = std::uint32_t(std::size_t(tail_from) * es + 256 - std::size_t(o.valid_cols) * es);
    f.valid_cols = tail_from * int(es) / 32 + tail_blocks;
  } else {
    f.valid_cols = blocks;
  }
  f.valid_rows = o.valid_rows;  // the offsets read
  s.valid_rows = s.rows;        // any block of src's storage
  s.valid_cols = s.cols;
}
}  // namespace detail

template <class Dst, class Src0, class Idx, class Tmp, class... W>
  requires TileLike<Dst> && TileLike<Src0> && TileLike<Idx> && TileLike<Tmp> && (detail::WaitEvent<W> && ...)
detail::Issue TGATHER(Dst& dst, Src0& src0, Idx& indices, Tmp& tmp, W&... events) {
  using namespace detail;
  using I = typename Idx::DType;
  static_assert(Dst::Loc == TileType::Vec && Src0::Loc == TileType::Vec && Idx::Loc == TileType::Vec && Tmp::Loc == TileType::Vec,
                "TGATHER: dst, src0, indices and tmp must be Vec tiles");
  static_assert(Dst::isRowMajor && Src0::isRowMajor && Idx::isRowMajor && !Dst::isBoxedLayout && !Src0::isBoxedLayout,
                "TGATHER: dst, src0 and indices must be RowMajor NoneBox tiles");
  static_assert(std::is_same_v<typename Dst::DType, typename Src0::DType>, "TGATHER: dst and src0 must have the same DType");
  static_assert(std::is_integral_v<I> && (sizeof(I) == 2 || sizeof(I) == 4), "TGATHER: indices must be a 16- or 32-bit integer tile");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TGATHER>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src0);
  add_tile(core, rec, indices);
  add_tile(core, rec, tmp);
  gather_index_checks(rec, core_target(core));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

template <class Dst, class Src, MaskPattern P = MaskPattern::P1111, GatherAxis A = GatherAxis::GATHER_ROW, class... W>
  requires TileLike<Dst> && TileLike<Src> && (detail::WaitEvent<W> && ...)
detail::Issue TGATHER(Dst& dst, Src& src, W&... events) {
  using namespace detail;
  static_assert(Dst::Loc == TileType::Vec && Src::Loc == TileType::Vec, "TGATHER: dst and src must be Vec tiles");
  static_assert(Dst::isRowMajor && Src::isRowMajor && !Dst::isBoxedLayout && !Src::isBoxedLayout,
                "TGATHER: dst and src must be RowMajor NoneBox tiles");
  static_assert(sizeof(typename Dst::DType) == sizeof(typename Src::DType), "TGATHER: dst and src must have elements of one size");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TGATHER>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  gather_mask_checks(rec, core_target(core), P, A == GatherAxis::GATHER_COL);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

template <class Dst, class Src, class Idx, class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Idx> && (detail::WaitEvent<W> && ...)
detail::Issue TSCATTER(Dst& dst, Src& src, Idx& indexes, W&... events) {
  using namespace detail;
  using I = typename Idx::DType;
  constexpr std::size_t es = sizeof(typename Dst::DType), is = sizeof(I);
  static_assert(kVecRowMajor<Dst, Src, Idx>, "TSCATTER: dst, src and indexes must be RowMajor NoneBox Vec tiles");
  static_assert(std::is_same_v<typename Dst::DType, typename Src::DType>, "TSCATTER: dst and src must have the same DType");
  static_assert(std::is_integral_v<I> && (is == 2 || is == 4), "TSCATTER: indexes must be a 16- or 32-bit integer tile");
  static_assert((es == 4 && is == 4) || (es == 2 && is == 2) || (es == 1 && is == 2) || (es == 8 && is == 4),
                "TSCATTER: data and index sizes must be 4 and 4, 2 and 2, 1 and 2 bytes, or 8 and 4 on A5 (the NPUs' rule)");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TSCATTER>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  add_tile(core, rec, indexes);
  scatter_index_checks(rec, core_target(core));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

template <MaskPattern P = MaskPattern::P1111, auto A = ScatterAxis::SCATTER_ROW, class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src> && (detail::WaitEvent<W> && ...)
detail::Issue TSCATTER(Dst& dst, Src& src, W&... events) {
  using namespace detail;
  static_assert(std::is_same_v<decltype(A), ScatterAxis>, "TSCATTER: the second template argument is a ScatterAxis");
  static_assert(kVecRowMajor<Dst, Src>, "TSCATTER: dst and src must be RowMajor NoneBox Vec tiles");
  static_assert(std::is_same_v<typename Dst::DType, typename Src::DType>, "TSCATTER: dst and src must have the same DType");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TSCATTER>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  scatter_mask_checks(rec, core_target(core), P, A == ScatterAxis::SCATTER_COL);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

template <class Dst, class Src, class Off, class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Off> && (detail::WaitEvent<W> && ...)
detail::Issue TGATHERB(Dst& dst, Src& src, Off& offset, W&... events) {
  using namespace detail;
  constexpr std::size_t es = sizeof(typename Dst::DType);
  static_assert(kVecRowMajor<Dst, Src, Off>, "TGATHERB: dst, src and offset must be RowMajor NoneBox Vec tiles");
  static_assert(es == 1 || es == 2 || es == 4, "TGATHERB: dst's elements must be 1, 2 or 4 bytes");
  static_assert(std::is_integral_v<typename Off::DType> && sizeof(typename Off::DType) == 4,
                "TGATHERB: offset holds 32-bit byte offsets, one per 32-byte block of dst");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TGATHERB>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  add_tile(core, rec, offset);
  gatherb_checks(rec, core_target(core));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

}  // namespace pto
