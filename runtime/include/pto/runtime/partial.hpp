// TPARTADD, TPARTMUL, TPARTMAX, TPARTMIN (pto-isa docs/isa/TPARTADD.md ...; docs/compound.md): dst =
// src0 op src1 where both sources are valid, and a copy of the source that covers dst elsewhere. The
// NPUs' rule (a2a3 TPartOp.hpp, a5 TPartBinOps.hpp): one source's valid shape is dst's, the other lies
// inside it. pto-isa's CPU simulator takes any two regions and writes 0 where neither is valid; a shape
// the NPUs reject is an error here.
#pragma once
#include <type_traits>

#include <pto/isa/instr_desc.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {

namespace detail {
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
  const InstrDesc& d = *rec.desc;
  const Target target = core_target(core);
  TileView& o = rec.ops[0].tile;
  const TileView &a = rec.ops[1].tile, &b = rec.ops[2].tile;
  check_dtype(d, o.dtype, target);
  auto same = [&](const TileView& x) { return x.valid_rows == o.valid_rows && x.valid_cols == o.valid_cols; };
  auto inside = [&](const TileView& x) { return x.valid_rows <= o.valid_rows && x.valid_cols <= o.valid_cols; };
  if (o.valid_rows == 0 || o.valid_cols == 0) {
    for (int k = 0; k < 3; ++k) rec.ops[k].tile.valid_rows = rec.ops[k].tile.valid_cols = 0;  // the chips write nothing
  } else if (!((same(a) && inside(b)) || (same(b) && inside(a)))) {
    fail(d.name, ": operands src0 ", a, " and src1 ", b, " with dst ", o,
         ": one source's valid region must be dst's and the other's must lie inside it (the NPUs' rule)");
  }
  if (target == Target::A5 && o.elem_bytes() == 8 && o.valid_cols > 64)
    fail(d.name, ": operand dst ", o, ": A5's 64-bit path handles at most 64 valid columns (one register of lanes per row)");
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
}  // namespace detail

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
