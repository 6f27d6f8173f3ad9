// Index reductions (pto-isa docs/isa/TROWARGMAX.md, TCOLARGMAX.md and the MIN ones):
//  - TROWARGMAX / TROWARGMIN(dst, src, tmp): dst[i][0] = the column (0-based, in the valid region) of
//    row i's max / min; (dstVal, dstIdx, src, tmp) also writes the value to dstVal[i][0]. dst is
//    RowMajor (column 0 written) or a ColMajor tile of one column.
//  - TCOLARGMAX / TCOLARGMIN(dst, src, tmp): dst[0][j] = the row of column j's max / min; the value form
//    likewise. dst is a RowMajor tile with one valid row.
// Ties give the first occurrence; a NaN is never chosen unless it comes first (backends/cpu/arg_reduce.hpp).
// Indices: int32_t / uint32_t; the value forms of 2-byte sources may use int16_t / uint16_t (the column
// forms must). tmp is the A2A3 algorithms' scratch (A5 ignores it).
#pragma once
#include <cstdint>
#include <type_traits>

#include <pto/isa/instr_desc.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>
#include <pto/runtime/reduce.hpp>

namespace pto {

namespace detail {
template <class T> inline constexpr bool kIdx32 = std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t>;
template <class T> inline constexpr bool kIdx16 = std::is_same_v<T, std::int16_t> || std::is_same_v<T, std::uint16_t>;

// The rules on the operands' views (idx, src, tmp[, val] in rec; the template's static_asserts hold),
// shared by the C++ functions and the PTO IR reader.
inline void arg_reduce_checks(const InstrRecord& rec, Target target, bool row, bool has_val) {
  const InstrDesc& d = *rec.desc;
  const TileView &di = rec.ops[0].tile, &s = rec.ops[1].tile;
  const bool idx16 = di.dtype == DType::I16 || di.dtype == DType::U16, half_src = s.dtype == DType::F16;
  check_dtype(d, "src", s.dtype, target, d.dtypes);
  if (s.valid_rows <= 0 || s.valid_cols <= 0)
    fail(d.name, ": operand src ", s, ": the valid region is empty (the NPU implementations require at least one row and one column)");
  // the index width (pto-isa a2a3 / a5 TRowReduceIdx*, TColReduceIdx.hpp)
  if (idx16 && !(has_val && size_of(s.dtype) == 2))
    fail(d.name, ": operand dst ", di, ": a 16-bit index is for the value forms of 2-byte sources; use int32_t or uint32_t");
  if (!row && has_val && size_of(s.dtype) == 2 && !idx16)
    fail(d.name, ": operand dst ", di, ": the value form of a 2-byte source keeps its indices in 16-bit lanes, so the index tile "
         "must be int16_t or uint16_t (pto-isa TColReduceIdx.hpp)");
  if (has_val && size_of(s.dtype) == 1)
    fail(d.name, ": operand src ", s, ": the value forms take 2- and 4-byte sources (8-bit only for the index form, on A5)");
  for (int k : {0, 3}) {
    if (k == 3 && !has_val) continue;
    const TileView& o = rec.ops[k].tile;
    const char* name = d.operands[k].name;
    if (row ? o.valid_rows != s.valid_rows : o.valid_cols != s.valid_cols)
      fail(d.name, ": operand ", name, " ", o, " must have as many valid ", row ? "rows" : "columns", " as src ", s,
           " (one result per source ", row ? "row" : "column", ")");
    if (!row && o.valid_rows != 1) fail(d.name, ": operand ", name, " ", o, " must have one valid row (the results are a row)");
  }
  if (target == Target::A2A3 && !row) {
    // TColReduceIdx.hpp: a row counter, the running values (and for a half index form the int16
    // indices) side by side in tmp, `gap` elements each: a repeat, or the row rounded up to blocks.
    const TileView& t = rec.ops[2].tile;
    if (t.dtype != s.dtype)
      fail(d.name, ": operand tmp ", t, ": A2A3 keeps the running values in tmp, so it must have src's dtype");
    const int epr = int(256 / size_of(s.dtype)), be = int(32 / size_of(s.dtype));
    const int gap = s.valid_cols >= epr ? epr : (s.valid_cols + be - 1) / be * be;
    const int need = gap * (half_src && !has_val ? 3 : 2);
    if (t.rows * t.cols < need)
      fail(d.name, ": operand tmp ", t, " is too small: A2A3 needs ", need, " elements (", need / gap, " x ", gap, ")");
  }
}

template <Op O, bool Row, class Idx, class Val, class Src, class Tmp, class... W>
Issue arg_reduce(Idx& idx, Val* val, Src& src, Tmp& tmp, W&... events) {
  using S = typename Src::DType;
  using IT = typename Idx::DType;
  static_assert(Idx::Loc == TileType::Vec && Src::Loc == TileType::Vec && Tmp::Loc == TileType::Vec && Val::Loc == TileType::Vec,
                "TROWARGMAX/TROWARGMIN/TCOLARGMAX/TCOLARGMIN: every operand must be a Vec tile");
  static_assert(Src::isRowMajor && !Src::isBoxedLayout,
                "TROWARGMAX/TROWARGMIN/TCOLARGMAX/TCOLARGMIN: src must be a RowMajor NoneBox tile (the NPUs address it row by row)");
  static_assert(!Idx::isBoxedLayout && !Val::isBoxedLayout && (Row ? (Idx::isRowMajor || Idx::Cols == 1) : Idx::isRowMajor) &&
                    (Row ? (Val::isRowMajor || Val::Cols == 1) : Val::isRowMajor),
                "TROWARGMAX/TROWARGMIN/TCOLARGMAX/TCOLARGMIN: dst must be a RowMajor NoneBox tile (the row forms also take a "
                "ColMajor tile of one column)");
  static_assert(std::is_same_v<typename Val::DType, S>, "TROWARGMAX/TROWARGMIN/TCOLARGMAX/TCOLARGMIN: dstVal must have src's DType");
  static_assert(kIdx32<IT> || kIdx16<IT>, "TROWARGMAX/TROWARGMIN/TCOLARGMAX/TCOLARGMIN: the index tile must be int32_t or uint32_t "
                                          "(int16_t / uint16_t for the value forms of 2-byte sources)");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, idx);
  add_tile(core, rec, src);
  const Target target = core_target(core);
  if (target == Target::A5) add_unused_tile(rec, tmp);  // A5 never reads tmp: it needs no address
  else add_tile(core, rec, tmp);
  if (val) add_tile(core, rec, *val);
  arg_reduce_checks(rec, target, Row, val != nullptr);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
}  // namespace detail

#define PTO_ARG_REDUCE(NAME, ROW)                                                                           \
  template <class Dst, class Src, class Tmp, class... W>                                                     \
    requires TileLike<Dst> && TileLike<Src> && TileLike<Tmp> && (detail::WaitEvent<W> && ...)               \
  detail::Issue NAME(Dst& dst, Src& src, Tmp& tmp, W&... events) {                                           \
    return detail::arg_reduce<Op::NAME, ROW>(dst, static_cast<Src*>(nullptr), src, tmp, events...);          \
  }                                                                                                          \
  template <class DstVal, class DstIdx, class Src, class Tmp, class... W>                                    \
    requires TileLike<DstVal> && TileLike<DstIdx> && TileLike<Src> && TileLike<Tmp>                          \
  detail::Issue NAME(DstVal& dstVal, DstIdx& dstIdx, Src& src, Tmp& tmp, W&... events) {                     \
    return detail::arg_reduce<Op::NAME, ROW>(dstIdx, &dstVal, src, tmp, events...);                          \
  }
PTO_ARG_REDUCE(TROWARGMAX, true)
PTO_ARG_REDUCE(TROWARGMIN, true)
PTO_ARG_REDUCE(TCOLARGMAX, false)
PTO_ARG_REDUCE(TCOLARGMIN, false)
#undef PTO_ARG_REDUCE

}  // namespace pto
