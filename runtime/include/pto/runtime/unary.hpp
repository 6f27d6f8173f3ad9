// Element-wise unary instructions: TABS, TNEG, TRELU, TNOT, TSQRT, TRSQRT, TRECIP, TLOG (dst = f(src) over
// dst's valid region; pto-isa docs/isa/<NAME>.md). RowMajor Vec tiles of one DType, equal valid
// shapes. TNEG is TMULS(dst, src, -1) and TRECIP is TDIVS(dst, 1, src), as the NPU implements them.
#pragma once
#include <type_traits>

#include <pto/isa/instr_desc.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {

namespace detail {
// The rules and scalar of a unary instruction (dst, src) on its operands' views, shared with the PTO IR
// reader. TEXP takes its dtypes from a static_assert (half, float), not the descriptor.
inline void unary_checks(InstrRecord& rec, Target target) {
  const Op o = rec.desc->op;
  const DType t = rec.ops[0].tile.dtype;
  if (o != Op::TEXP) check_dtype(*rec.desc, t, target);
  check_same_valid(*rec.desc, "dst", rec.ops[0].tile, "src", rec.ops[1].tile);
  if (o == Op::TNEG) rec.scalar = scalar_of(t, -1);
  if (o == Op::TRECIP) {
    rec.scalar = scalar_of(t, 1);
    rec.variant |= kVariantScalarFirst;
    // A2A3 duplicates the 1s into dst before dividing: dst over src would divide 1 by 1.
    if (target == Target::A2A3 && is_float(t) && rec.ops[0].tile.footprint().overlaps(rec.ops[1].tile.footprint()))
      fail("TRECIP: operand dst ", rec.ops[0].tile, " overlaps src: the A2A3 algorithm writes 1 into dst before it "
           "divides by src, so the chip would compute 1 / 1 there; give dst its own bytes");
  }
}

template <Op O, class Dst, class Src, class... W>
Issue unary(Dst& dst, Src& src, W&... events) {
  static_assert(Dst::Loc == TileType::Vec && Src::Loc == TileType::Vec,
                "TABS/TNEG/TRELU/TNOT/TSQRT/TRSQRT/TRECIP/TLOG: dst and src must be Vec tiles");
  static_assert(std::is_same_v<typename Dst::DType, typename Src::DType>,
                "TABS/TNEG/TRELU/TNOT/TSQRT/TRSQRT/TRECIP/TLOG: dst and src must have the same DType");
  static_assert(Dst::isRowMajor && Src::isRowMajor && !Dst::isBoxedLayout && !Src::isBoxedLayout,
                "TABS/TNEG/TRELU/TNOT/TSQRT/TRSQRT/TRECIP/TLOG: dst and src must be RowMajor NoneBox tiles");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  unary_checks(rec, core_target(core));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
}  // namespace detail

#define PTO_UNARY(NAME)                                                                           \
  template <class Dst, class Src, class... W>                                                      \
    requires TileLike<Dst> && TileLike<Src>                                                        \
  detail::Issue NAME(Dst& dst, Src& src, W&... events) {                                           \
    return detail::unary<Op::NAME>(dst, src, events...);                                           \
  }
PTO_UNARY(TABS)
PTO_UNARY(TNEG)
PTO_UNARY(TRELU)
PTO_UNARY(TNOT)
#undef PTO_UNARY

// The precision parameter selects A5's high-precision algorithms on the chip; here every precision
// computes the same result (the correctly rounded square root and log of libm, TRSQRT as 1 / sqrt
// rounded twice, TRECIP as the IEEE quotient), and A2A3 ignores it as the NPU does.
#define PTO_UNARY_PRECISION(NAME, ALGORITHM)                                                      \
  template <auto PrecisionType = ALGORITHM::DEFAULT, class Dst, class Src, class... W>             \
    requires TileLike<Dst> && TileLike<Src>                                                        \
  detail::Issue NAME(Dst& dst, Src& src, W&... events) {                                           \
    return detail::unary<Op::NAME>(dst, src, events...);                                           \
  }
PTO_UNARY_PRECISION(TSQRT, SqrtAlgorithm)
PTO_UNARY_PRECISION(TRSQRT, RsqrtAlgorithm)
PTO_UNARY_PRECISION(TRECIP, RecipAlgorithm)
PTO_UNARY_PRECISION(TLOG, LogAlgorithm)
#undef PTO_UNARY_PRECISION

}  // namespace pto
