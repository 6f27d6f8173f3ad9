// TPARTADD, TPARTMUL, TPARTMAX, TPARTMIN (pto-isa docs/isa/TPARTADD.md ...; docs/compound.md): dst =
// src0 op src1 where both sources are valid, and a copy of the source that covers dst elsewhere. The
// NPUs' rule (a2a3 TPartOp.hpp, a5 TPartBinOps.hpp): one source's valid shape is dst's, the other lies
// inside it. pto-isa's CPU simulator takes any two regions and writes 0 where neither is valid; a shape
// the NPUs reject is an error here.
// TPARTARGMAX, TPARTARGMIN (docs/isa/TPARTARGMAX.md; a2a3 TPartArgOp.hpp, a5 TPartArgBinOps.hpp): the same
// shapes over (value, index) pairs: where both sources are valid, dst takes the larger (smaller) value
// and dstIdx the index beside it; elsewhere the covering source's pair. The op compares values and
// carries the user's indices; it computes no positions. Ties go to src0 on both NPUs (A2A3 keeps src0
// when src0 >= src1, A5 takes src1 only when src1 > src0), so a NaN picks src1 on A2A3 and src0 on A5;
// pto-isa's CPU simulator and its docs give ties to src1.
#pragma once
#include <type_traits>

#include <pto/isa/instr_desc.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {

namespace detail {
// The NPUs' rule for two partial sources: one's valid region is dst's, the other's lies inside it.
inline void check_part_shape(const InstrDesc& d, const TileView& o, const TileView& a, const TileView& b) {
  auto same = [&](const TileView& x) { return x.valid_rows == o.valid_rows && x.valid_cols == o.valid_cols; };
  auto inside = [&](const TileView& x) { return x.valid_rows <= o.valid_rows && x.valid_cols <= o.valid_cols; };
  if (!((same(a) && inside(b)) || (same(b) && inside(a))))
    fail(d.name, ": operands src0 ", a, " and src1 ", b, " with dst ", o,
         ": one source's valid region must be dst's and the other's must lie inside it (the NPUs' rule)");
}

// The rules on the views (dst, src0, src1 in rec), shared with the PTO IR reader.
inline void tpart_checks(InstrRecord& rec, Target target) {
  const InstrDesc& d = *rec.desc;
  TileView& o = rec.ops[0].tile;
  const TileView &a = rec.ops[1].tile, &b = rec.ops[2].tile;
  check_dtype(d, o.dtype, target);
  if (o.valid_rows == 0 || o.valid_cols == 0) {
    for (int k = 0; k < 3; ++k) rec.ops[k].tile.valid_rows = rec.ops[k].tile.valid_cols = 0;  // the chips write nothing
  } else {
    check_part_shape(d, o, a, b);
  }
  if (target == Target::A5 && o.elem_bytes() == 8 && o.valid_cols > 64)
    fail(d.name, ": operand dst ", o, ": A5's 64-bit path handles at most 64 valid columns (one register of lanes per row)");
}

template <Op O, class Dst, class Src0, class Src1, class... W>
Issue tpart(Dst& dst, Src0& src0, Src1& src1, W&... events) {
  static_assert(Dst::Loc == TileType::Vec && Src0::Loc == TileType::Vec && Src1::Loc == TileType::Vec,
                "TPARTADD / TPARTMUL / TPARTMAX / TPARTMIN: dst, src0 and src1 must be Vec tiles");
  static_assert(std::is_same_v<typename Dst::DType, typename Src0::DType> && std::is_same_v<typename Dst::DType, typename Src1::DType>,
                "TPARTADD / TPARTMUL / TPARTMAX / TPARTMIN: dst, src0 and src1 must have one DType");
  static_assert(Dst::isRowMajor && Src0::isRowMajor && Src1::isRowMajor && !Dst::isBoxedLayout && !Src0::isBoxedLayout &&
                    !Src1::isBoxedLayout,
                "TPARTADD / TPARTMUL / TPARTMAX / TPARTMIN: dst, src0 and src1 must be RowMajor NoneBox tiles");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src0);
  add_tile(core, rec, src1);
  tpart_checks(rec, core_target(core));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

// The rules on the views (dst, src0, src1, dstIdx, src0Idx, src1Idx in rec), shared with the PTO IR
// reader; half_values_wide_index: 2-byte values with 4-byte indices.
inline void tpartarg_checks(InstrRecord& rec, Target target, bool half_values_wide_index) {
  const InstrDesc& d = *rec.desc;
  check_dtype(d, rec.ops[0].tile.dtype, target);
  const char* names[] = {"dst", "src0", "src1", "dstIdx", "src0Idx", "src1Idx"};
  for (int k = 0; k < 3; ++k) check_same_valid(d, names[k], rec.ops[k].tile, names[k + 3], rec.ops[k + 3].tile);
  const TileView& o = rec.ops[0].tile;
  if (o.valid_rows == 0 || o.valid_cols == 0) {
    if (target == Target::A2A3) fail(d.name, ": operand dst ", o, ": A2A3 requires a non-empty valid region (a2a3 TPartArgOp.hpp)");
    for (int k = 0; k < 6; ++k) rec.ops[k].tile.valid_rows = rec.ops[k].tile.valid_cols = 0;  // A5 writes nothing
  } else {
    check_part_shape(d, o, rec.ops[1].tile, rec.ops[2].tile);
  }
  if (target == Target::A2A3 && half_values_wide_index && o.valid_cols > 64)
    fail(d.name, ": operand dst ", o, ": A2A3 selects half values with 32-bit indices under a 64-lane mask, so it "
         "handles only 64 valid columns (the chip would leave columns 64 and on unselected)");
  if (target == Target::A5) rec.variant = kVariantSrc1Strict;
}

template <Op O, class Dst, class Src0, class Src1, class DstIdx, class Idx0, class Idx1, class... W>
Issue tpartarg(Dst& dst, Src0& src0, Src1& src1, DstIdx& dstIdx, Idx0& src0Idx, Idx1& src1Idx, W&... events) {
  using V = typename Dst::DType;
  using X = typename DstIdx::DType;
  static_assert(kVecRowMajor<Dst, Src0, Src1, DstIdx, Idx0, Idx1>,
                "TPARTARGMAX / TPARTARGMIN: every tile must be a RowMajor NoneBox Vec tile");
  static_assert(std::is_same_v<V, typename Src0::DType> && std::is_same_v<V, typename Src1::DType>,
                "TPARTARGMAX / TPARTARGMIN: dst, src0 and src1 must have one DType");
  static_assert(std::is_same_v<X, typename Idx0::DType> && std::is_same_v<X, typename Idx1::DType>,
                "TPARTARGMAX / TPARTARGMIN: dstIdx, src0Idx and src1Idx must have one DType");
  static_assert(std::is_integral_v<X> && (sizeof(X) == 4 || (sizeof(X) == 2 && sizeof(V) == 2)),
                "TPARTARGMAX / TPARTARGMIN: the indices are 32-bit integers, or 16-bit ones beside half values (the NPUs' rule)");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src0);
  add_tile(core, rec, src1);
  add_tile(core, rec, dstIdx);
  add_tile(core, rec, src0Idx);
  add_tile(core, rec, src1Idx);
  tpartarg_checks(rec, core_target(core), sizeof(V) == 2 && sizeof(X) == 4);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
}  // namespace detail

template <class Dst, class Src0, class Src1, class DstIdx, class Idx0, class Idx1, class... W>
  requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1> && TileLike<DstIdx> && TileLike<Idx0> && TileLike<Idx1> &&
           (detail::WaitEvent<W> && ...)
detail::Issue TPARTARGMAX(Dst& dst, Src0& src0, Src1& src1, DstIdx& dstIdx, Idx0& src0Idx, Idx1& src1Idx, W&... events) {
  return detail::tpartarg<Op::TPARTARGMAX>(dst, src0, src1, dstIdx, src0Idx, src1Idx, events...);
}
template <class Dst, class Src0, class Src1, class DstIdx, class Idx0, class Idx1, class... W>
  requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1> && TileLike<DstIdx> && TileLike<Idx0> && TileLike<Idx1> &&
           (detail::WaitEvent<W> && ...)
detail::Issue TPARTARGMIN(Dst& dst, Src0& src0, Src1& src1, DstIdx& dstIdx, Idx0& src0Idx, Idx1& src1Idx, W&... events) {
  return detail::tpartarg<Op::TPARTARGMIN>(dst, src0, src1, dstIdx, src0Idx, src1Idx, events...);
}

template <class Dst, class Src0, class Src1, class... W>
  requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1> && (detail::WaitEvent<W> && ...)
detail::Issue TPARTADD(Dst& dst, Src0& src0, Src1& src1, W&... events) {
  return detail::tpart<Op::TPARTADD>(dst, src0, src1, events...);
}
template <class Dst, class Src0, class Src1, class... W>
  requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1> && (detail::WaitEvent<W> && ...)
detail::Issue TPARTMUL(Dst& dst, Src0& src0, Src1& src1, W&... events) {
  return detail::tpart<Op::TPARTMUL>(dst, src0, src1, events...);
}
template <class Dst, class Src0, class Src1, class... W>
  requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1> && (detail::WaitEvent<W> && ...)
detail::Issue TPARTMAX(Dst& dst, Src0& src0, Src1& src1, W&... events) {
  return detail::tpart<Op::TPARTMAX>(dst, src0, src1, events...);
}
template <class Dst, class Src0, class Src1, class... W>
  requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1> && (detail::WaitEvent<W> && ...)
detail::Issue TPARTMIN(Dst& dst, Src0& src0, Src1& src1, W&... events) {
  return detail::tpart<Op::TPARTMIN>(dst, src0, src1, events...);
}

}  // namespace pto
