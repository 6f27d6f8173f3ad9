// Reductions (pto-isa docs/isa/TROWSUM.md, TCOLSUM.md and the others):
//  - TROWSUM / TROWMAX / TROWMIN / TROWPROD(dst, src, tmp): dst[i][0] = sum / max / min / product of src row i, for the rows
//    of src's valid region. dst is RowMajor, or a DN [R,1] ColMajor tile. tmp is the A2A3 algorithms'
//    scratch (its contents are undefined afterwards; A5 ignores it).
//  - TCOLSUM / TCOLMAX / TCOLMIN / TCOLPROD(dst, src): dst[0][j] = sum / max / min / product of src column j; TCOLSUM(dst,
//    src, tmp, isBinary) sums as a pairwise tree over the rows, with tmp for the partial sums.
// Float sums and products follow each target's order (docs/device-paths.md "Reductions"); max, min and integer
// sums (wrapping) have one value whatever the order.
#pragma once
#include <type_traits>

#include <pto/isa/instr_desc.hpp>
#include <pto/isa/operand.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {

namespace detail {
inline void check_reduce_source(const InstrDesc& d, const TileView& s, Target target) {
  check_dtype(d, s.dtype, target);
  if (s.valid_rows <= 0 || s.valid_cols <= 0)
    fail(d.name, ": operand src ", s, ": the valid region is empty (the NPU implementations require at least one row and "
         "one column)");
  if (target == Target::A5 && s.elem_bytes() == 8 && s.valid_cols > 64)
    fail(d.name, ": operand src ", s, ": A5 reduces 64-bit integers with one register pair per row (pto-isa a5 "
         "Int64Reduce.hpp has no column loop), so columns past 64 would be ignored on the chip; split the tile into at "
         "most 64 valid columns");
}

// TROWSUM / TROWMAX / TROWMIN / TROWPROD on their operands' views (dst, src, tmp), shared with the PTO IR reader.
inline void row_reduce_checks(const InstrRecord& rec, Target target) {
  check_reduce_source(*rec.desc, rec.ops[1].tile, target);
  if (rec.ops[0].tile.valid_rows != rec.ops[1].tile.valid_rows)
    fail(rec.desc->name, ": operand dst ", rec.ops[0].tile, " must have as many valid rows as src ", rec.ops[1].tile,
         " (one result per source row)");
}

template <Op O, class Dst, class Src, class Tmp, class... W>
Issue row_reduce(Dst& dst, Src& src, Tmp& tmp, W&... events) {
  static_assert(Dst::Loc == TileType::Vec && Src::Loc == TileType::Vec && Tmp::Loc == TileType::Vec,
                "TROWSUM/TROWMAX/TROWMIN/TROWPROD: dst, src and tmp must be Vec tiles");
  static_assert(std::is_same_v<typename Dst::DType, typename Src::DType> &&
                    std::is_same_v<typename Tmp::DType, typename Src::DType>,
                "TROWSUM/TROWMAX/TROWMIN/TROWPROD: dst, src and tmp must have the same DType");
  static_assert(Src::isRowMajor && !Src::isBoxedLayout, "TROWSUM/TROWMAX/TROWMIN/TROWPROD: src must be a RowMajor NoneBox tile");
  static_assert(!Dst::isBoxedLayout && (Dst::isRowMajor || Dst::Cols == 1),
                "TROWSUM/TROWMAX/TROWMIN/TROWPROD: dst must be a RowMajor NoneBox tile or a ColMajor (DN) tile of one column");
  static_assert(Tmp::isRowMajor && !Tmp::isBoxedLayout, "TROWSUM/TROWMAX/TROWMIN/TROWPROD: tmp must be a RowMajor NoneBox tile");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  add_tile(core, rec, tmp);
  row_reduce_checks(rec, core_target(core));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

// The rules of a column reduction (dst, src) on its operands' views, shared with the PTO IR reader.
inline void col_reduce_checks(const InstrRecord& rec, Target target) {
  check_reduce_source(*rec.desc, rec.ops[1].tile, target);
  if (rec.ops[0].tile.valid_cols != rec.ops[1].tile.valid_cols)
    fail(rec.desc->name, ": operand dst ", rec.ops[0].tile, " must have as many valid columns as src ", rec.ops[1].tile,
         " (one result per source column)");
}

template <Op O, class Dst, class Src>
InstrRecord col_reduce_record(Core& core, Dst& dst, Src& src) {
  static_assert(Dst::Loc == TileType::Vec && Src::Loc == TileType::Vec, "TCOLSUM/TCOLMAX/TCOLMIN/TCOLPROD: dst and src must be Vec tiles");
  static_assert(std::is_same_v<typename Dst::DType, typename Src::DType>,
                "TCOLSUM/TCOLMAX/TCOLMIN/TCOLPROD: dst and src must have the same DType");
  static_assert(Dst::isRowMajor && Src::isRowMajor && !Dst::isBoxedLayout && !Src::isBoxedLayout,
                "TCOLSUM/TCOLMAX/TCOLMIN/TCOLPROD: dst and src must be RowMajor NoneBox tiles");
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  col_reduce_checks(rec, core_target(core));
  return rec;
}

template <Op O, class Dst, class Src, class... W>
Issue col_reduce(Dst& dst, Src& src, W&... events) {
  Core& core = current_core();
  InstrRecord rec = col_reduce_record<O>(core, dst, src);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
}  // namespace detail

#define PTO_ROW_REDUCE(NAME)                                                                      \
  template <class Dst, class Src, class Tmp, class... W>                                           \
    requires TileLike<Dst> && TileLike<Src> && TileLike<Tmp>                                       \
  detail::Issue NAME(Dst& dst, Src& src, Tmp& tmp, W&... events) {                                 \
    return detail::row_reduce<Op::NAME>(dst, src, tmp, events...);                                 \
  }
PTO_ROW_REDUCE(TROWSUM)
PTO_ROW_REDUCE(TROWMAX)
PTO_ROW_REDUCE(TROWMIN)
PTO_ROW_REDUCE(TROWPROD)  // A2A3: per-lane products of 32-byte blocks, then the lanes on the scalar unit
#undef PTO_ROW_REDUCE

#define PTO_COL_REDUCE(NAME)                                                                      \
  template <class Dst, class Src, class... W>                                                      \
    requires TileLike<Dst> && TileLike<Src> && (detail::WaitEvent<W> && ...)                             \
  detail::Issue NAME(Dst& dst, Src& src, W&... events) {                                           \
    return detail::col_reduce<Op::NAME>(dst, src, events...);                                      \
  }
PTO_COL_REDUCE(TCOLSUM)
PTO_COL_REDUCE(TCOLMAX)
PTO_COL_REDUCE(TCOLMIN)
PTO_COL_REDUCE(TCOLPROD)  // A2A3 row after row; A5 row 0, then products of row pairs
#undef PTO_COL_REDUCE

// TCOLSUM(dst, src, tmp, isBinary): isBinary sums the rows as a pairwise tree, its partial sums in tmp
// (at least ceil(rows / 2) rows, at least src's valid columns wide); false sums row after row.
template <class Dst, class Src, class Tmp, class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Tmp>
detail::Issue TCOLSUM(Dst& dst, Src& src, Tmp& tmp, bool isBinary, W&... events) {
  static_assert(Tmp::Loc == TileType::Vec && Tmp::isRowMajor && !Tmp::isBoxedLayout,
                "TCOLSUM: tmp must be a RowMajor NoneBox Vec tile");
  static_assert(std::is_same_v<typename Tmp::DType, typename Src::DType>, "TCOLSUM: tmp must have src's DType");
  detail::Core& core = detail::current_core();
  detail::InstrRecord rec = detail::col_reduce_record<Op::TCOLSUM>(core, dst, src);
  detail::add_tile(core, rec, tmp);
  if (isBinary) rec.variant |= kVariantBinary;
  detail::add_waits(core, rec, events...);
  return detail::Issue(core, rec);
}

}  // namespace pto
