// Compound element-wise instructions (pto-isa docs/isa/<NAME>.md; semantics and sequences:
// docs/compound.md):
//  - TREM(dst, src0, src1, tmp) / TREMS(dst, src, scalar, tmp): remainder with the divisor's sign
//    (floor quotient); TFMOD(dst, src0, src1) / TFMODS(dst, src, scalar): remainder with the dividend's
//    sign (quotient toward zero).
//  - TPOW(dst, base, exp, tmp) / TPOWS(dst, base, exp, tmp): base ^ exp.
//  - TPRELU(dst, src0, src1, tmp): src0 > 0 ? src0 : src0 * src1.
//  - TADDC(dst, src0, src1, src2) = src0 + src1 + src2, TSUBC = src0 - src1 + src2; TADDSC(dst, src0,
//    scalar, src1) = src0 + scalar + src1, TSUBSC = src0 - scalar + src1.
//  - TFUSEDMULADD(dst, src0, src1): dst = src0 * dst + src1; TFUSEDMULADDRELU: its ReLU; TMULADDDST:
//    dst = src0 * src1 + dst; TSUBRELU(dst, src0, src1) = max(src0 - src1, 0).
//  - TADDDEQRELU(dst, src0, src1, deqScale, tmp): half(max(0, (src0 + src1) * deqScale)) from int32.
// Static rules are static_asserts naming the instruction; the per-target ones pto::Error.
#pragma once
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include <pto/isa/instr_desc.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>
#include <pto/runtime/select.hpp>

namespace pto {

namespace detail {
// The rules every instruction of the family states (pto-isa: Vec tiles, RowMajor, one DType).
template <class T, class... Tiles>
inline constexpr bool kAllVec = ((Tiles::Loc == TileType::Vec) && ...);
template <class T, class... Tiles>
inline constexpr bool kAllOf = (std::is_same_v<typename Tiles::DType, T> && ...);
template <class... Tiles>
inline constexpr bool kAllRowMajor = ((Tiles::isRowMajor && !Tiles::isBoxedLayout) && ...);
#define PTO_COMPOUND_RULES(NAME, T, ...)                                                                          \
  static_assert(::pto::detail::kAllVec<T, __VA_ARGS__>, NAME ": every operand must be a Vec tile");               \
  static_assert(::pto::detail::kAllOf<T, __VA_ARGS__>, NAME ": dst and the sources must have the same DType");    \
  static_assert(::pto::detail::kAllRowMajor<__VA_ARGS__>, NAME ": every operand must be a RowMajor NoneBox tile " \
                                                               "(the NPU implementations take no other layout)")

// A2A3 works in its operands' bytes step by step (a later step re-reads a source an earlier one may
// have overwritten), so there no two operands may share bytes.
inline void apart_on_a2a3(const InstrRecord& rec, Target target, const char* why) {
  if (target != Target::A2A3) return;
  for (int i = 0; i < rec.nops; ++i)
    for (int j = i + 1; j < rec.nops; ++j)
      if (rec.ops[i].tile.footprint().overlaps(rec.ops[j].tile.footprint()))
        fail(rec.desc->name, ": operand ", rec.desc->operands[i].name, " ", rec.ops[i].tile, " shares bytes with operand ",
             rec.desc->operands[j].name, " ", rec.ops[j].tile, ": ", why, " (pto-isa a2a3 ", rec.desc->name,
             "), so on A2A3 every operand needs its own bytes");
}

// Operands 1 to n - 1 have dst's valid shape.
inline void same_valid_as_dst(const InstrRecord& rec, int n) {
  for (int i = 1; i < n; ++i) check_same_valid(*rec.desc, "dst", rec.ops[0].tile, rec.desc->operands[i].name, rec.ops[i].tile);
}

// Records dst and the tile sources, checks the dtype for the target and the sources' valid shapes.
template <Op O, class Dst, class... Srcs>
InstrRecord compound_record(Core& core, Dst& dst, Srcs&... srcs) {
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, dst);
  (add_tile(core, rec, srcs), ...);
  same_valid_as_dst(rec, rec.nops);
  return rec;
}

// The scratch tile: A2A3's algorithm writes it (its footprint is the bytes given), A5 ignores it (no
// dependency on it).
inline void scratch(InstrRecord& rec, int k, Target target) {
  if (target == Target::A5) rec.ops[k].tile.valid_rows = rec.ops[k].tile.valid_cols = 0;
}

// The rules on the views after compound_record's: rec holds dst, src0[, src1][, tmp] (TREM and TREMS
// carry tmp, TFMOD and TFMODS do not). Shared with the PTO IR reader.
inline void remainder_checks(InstrRecord& rec, Target target, bool high_precision) {
  const Op op = rec.desc->op;
  check_dtype(*rec.desc, rec.ops[0].tile.dtype, target);
  const TileView& d = rec.ops[0].tile;
  if (op == Op::TREM || op == Op::TREMS) {
    const TileView& t = rec.ops[rec.nops - 1].tile;
    // TRem.hpp keeps the quotient in a row of tmp and the compare mask after it; TRemS.hpp a row of tmp
    const int need = op == Op::TREM ? d.row_stride + (d.row_stride + 63) / 64 * 2 : d.valid_cols;
    if (target == Target::A2A3 && (t.valid_rows < 1 || t.valid_cols < need))
      fail(rec.desc->name, ": operand tmp ", t, " is too small: A2A3 needs at least one valid row of ", need, " elements (",
           op == Op::TREM ? "dst's row stride plus 2 per 64 of it: the quotient and the compare mask" : "dst's valid columns",
           ", pto-isa a2a3 ", rec.desc->name, ")");
    scratch(rec, rec.nops - 1, target);
  }
  apart_on_a2a3(rec, target, "the algorithm writes dst and tmp before it has read every source");
  if (high_precision) rec.variant |= kVariantHighPrecision;
}

template <Op O, class Dst, class Src0, class Src1, class Tmp, class... W>
Issue remainder(Dst& dst, Src0& src0, Src1* src1, typename Dst::DType scalar, Tmp& tmp, bool high_precision, W&... events) {
  Core& core = current_core();
  InstrRecord rec = src1 ? compound_record<O>(core, dst, src0, *src1) : compound_record<O>(core, dst, src0);
  const Target target = core_target(core);
  if constexpr (O == Op::TREM || O == Op::TREMS) {
    if (target == Target::A5) add_unused_tile(rec, tmp);  // A5 never reads tmp: it needs no address
    else add_tile(core, rec, tmp);
  } else {
    (void)tmp;
  }
  remainder_checks(rec, target, high_precision);
  if (!src1) rec.scalar = ScalarValue::of(scalar);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

// The rules on the views after compound_record's: rec holds dst, base[, exp], tmp. Shared with the PTO
// IR reader.
inline void power_checks(InstrRecord& rec, Target target, bool high_precision) {
  const TileView& d = rec.ops[0].tile;
  if (d.dtype == DType::BF16 && target == Target::A5 && !high_precision)
    fail(rec.desc->name, ": bfloat16_t needs PowAlgorithm::HIGH_PRECISION on A5 (pto-isa a5 TPow.hpp); A2A3 has no bfloat16_t ", rec.desc->name);
  if (!(d.dtype == DType::BF16 && target == Target::A5)) check_dtype(*rec.desc, d.dtype, target);
  const int k = rec.nops - 1;
  const bool floats = d.dtype == DType::F32 || d.dtype == DType::F16 || d.dtype == DType::BF16;
  if (target == Target::A2A3 && floats) check_same_valid(*rec.desc, "dst", d, "tmp", rec.ops[k].tile);  // |base| ^ exp lives there
  else scratch(rec, k, Target::A5);
  apart_on_a2a3(rec, target, "the algorithm writes dst and tmp before it has read base and exp");
  if (high_precision) rec.variant |= kVariantHighPrecision;
}

template <Op O, class Dst, class Base, class Exp, class Tmp, class... W>
Issue power(Dst& dst, Base& base, Exp* exp, typename Dst::DType scalar, Tmp& tmp, bool high_precision, W&... events) {
  Core& core = current_core();
  InstrRecord rec = exp ? compound_record<O>(core, dst, base, *exp) : compound_record<O>(core, dst, base);
  add_tile(core, rec, tmp);
  power_checks(rec, core_target(core), high_precision);
  if (!exp) rec.scalar = ScalarValue::of(scalar);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

// TPRELU's rules on the views (dst, src0, src1, tmp; dst and sources checked by compound_record),
// shared with the PTO IR reader.
inline void prelu_checks(InstrRecord& rec, Target target) {
  check_dtype(*rec.desc, rec.ops[0].tile.dtype, target);
  if (target == Target::A2A3) {
    const TileView& d = rec.ops[0].tile;
    if (rec.ops[3].tile.dtype != DType::U8)
      fail("TPRELU: operand tmp ", rec.ops[3].tile, ": A2A3 keeps TCMPS's packed comparison bits there, so tmp must be a "
           "uint8_t tile (pto-isa a2a3 TPrelu.hpp)");
    const std::size_t epr = 256 / d.elem_bytes();
    const std::size_t bits = (std::size_t(d.valid_cols) + epr - 1) / epr * epr / 8;
    as_mask(*rec.desc, "tmp", rec.ops[3].tile, d.valid_rows + 1, std::max<std::size_t>(bits, 32),
            "A2A3 writes the comparison bits of each row and TSEL's 32-byte scratch in the row after them,");
  } else {
    scratch(rec, 3, target);
  }
  apart_on_a2a3(rec, target, "the algorithm writes dst (TMUL) before TCMPS and TSEL read src0");
}

// The carry and fused forms: one element-wise pass, any operand in place.
template <Op O, class Dst, class... Srcs>
InstrRecord element_record(Core& core, Dst& dst, Srcs&... srcs) {
  InstrRecord rec = compound_record<O>(core, dst, srcs...);
  check_dtype(*rec.desc, rec.ops[0].tile.dtype, core_target(core));
  return rec;
}
}  // namespace detail

template <auto PrecisionType = RemAlgorithm::DEFAULT, class Dst, class Src0, class Src1, class Tmp, class... W>
  requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1> && TileLike<Tmp>
detail::Issue TREM(Dst& dst, Src0& src0, Src1& src1, Tmp& tmp, W&... events) {
  PTO_COMPOUND_RULES("TREM", typename Dst::DType, Dst, Src0, Src1, Tmp);
  return detail::remainder<Op::TREM>(dst, src0, &src1, {}, tmp, PrecisionType == RemAlgorithm::HIGH_PRECISION, events...);
}
template <auto PrecisionType = RemSAlgorithm::DEFAULT, class Dst, class Src, class Tmp, class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Tmp>
detail::Issue TREMS(Dst& dst, Src& src, typename Src::DType scalar, Tmp& tmp, W&... events) {
  PTO_COMPOUND_RULES("TREMS", typename Dst::DType, Dst, Src, Tmp);
  return detail::remainder<Op::TREMS>(dst, src, static_cast<Src*>(nullptr), scalar, tmp,
                                      PrecisionType == RemSAlgorithm::HIGH_PRECISION, events...);
}
template <auto PrecisionType = FmodAlgorithm::DEFAULT, class Dst, class Src0, class Src1, class... W>
  requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1>
detail::Issue TFMOD(Dst& dst, Src0& src0, Src1& src1, W&... events) {
  PTO_COMPOUND_RULES("TFMOD", typename Dst::DType, Dst, Src0, Src1);
  return detail::remainder<Op::TFMOD>(dst, src0, &src1, {}, dst, PrecisionType == FmodAlgorithm::HIGH_PRECISION, events...);
}
template <auto PrecisionType = FmodSAlgorithm::DEFAULT, class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src>
detail::Issue TFMODS(Dst& dst, Src& src, typename Src::DType scalar, W&... events) {
  PTO_COMPOUND_RULES("TFMODS", typename Dst::DType, Dst, Src);
  return detail::remainder<Op::TFMODS>(dst, src, static_cast<Src*>(nullptr), scalar, dst,
                                       PrecisionType == FmodSAlgorithm::HIGH_PRECISION, events...);
}

template <auto PrecisionType = PowAlgorithm::DEFAULT, class Dst, class Base, class Exp, class Tmp, class... W>
  requires TileLike<Dst> && TileLike<Base> && TileLike<Exp> && TileLike<Tmp>
detail::Issue TPOW(Dst& dst, Base& base, Exp& exp, Tmp& tmp, W&... events) {
  PTO_COMPOUND_RULES("TPOW", typename Dst::DType, Dst, Base, Exp, Tmp);
  return detail::power<Op::TPOW>(dst, base, &exp, {}, tmp, PrecisionType == PowAlgorithm::HIGH_PRECISION, events...);
}
template <auto PrecisionType = PowAlgorithm::DEFAULT, class Dst, class Base, class Tmp, class... W>
  requires TileLike<Dst> && TileLike<Base> && TileLike<Tmp>
detail::Issue TPOWS(Dst& dst, Base& base, typename Dst::DType exp, Tmp& tmp, W&... events) {
  PTO_COMPOUND_RULES("TPOWS", typename Dst::DType, Dst, Base, Tmp);
  return detail::power<Op::TPOWS>(dst, base, static_cast<Base*>(nullptr), exp, tmp, PrecisionType == PowAlgorithm::HIGH_PRECISION,
                                  events...);
}

// TPRELU: A2A3 composes TMUL, TCMPS(tmp, src0, 0, GT) and TSEL, so there tmp is a uint8 tile holding the
// packed comparison bits (whole 256-byte repeats per row) and, in the row after dst's valid rows, TSEL's
// 32-byte scratch; A5 issues one vprelu and ignores tmp.
template <class Dst, class Src0, class Src1, class Tmp, class... W>
  requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1> && TileLike<Tmp>
detail::Issue TPRELU(Dst& dst, Src0& src0, Src1& src1, Tmp& tmp, W&... events) {
  using namespace detail;
  PTO_COMPOUND_RULES("TPRELU", typename Dst::DType, Dst, Src0, Src1);
  static_assert(Tmp::Loc == TileType::Vec && Tmp::isRowMajor, "TPRELU: tmp must be a RowMajor Vec tile");
  Core& core = current_core();
  InstrRecord rec = compound_record<Op::TPRELU>(core, dst, src0, src1);
  add_tile(core, rec, tmp);
  prelu_checks(rec, core_target(core));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

// No NPU implements TADDC / TSUBC / TADDSC / TSUBSC in pto-isa (its CPU simulator does): computed as
// two element-wise steps, each rounded to the element type, priced as two vadd / vsub (docs/compound.md).
#define PTO_CARRY(NAME)                                                                               \
  template <class Dst, class Src0, class Src1, class Src2, class... W>                                 \
    requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1> && TileLike<Src2>                       \
  detail::Issue NAME(Dst& dst, Src0& src0, Src1& src1, Src2& src2, W&... events) {                     \
    PTO_COMPOUND_RULES(#NAME, typename Dst::DType, Dst, Src0, Src1, Src2);                              \
    detail::Core& core = detail::current_core();                                                       \
    detail::InstrRecord rec = detail::element_record<Op::NAME>(core, dst, src0, src1, src2);           \
    detail::add_waits(core, rec, events...);                                                           \
    return detail::Issue(core, rec);                                                                   \
  }
PTO_CARRY(TADDC)  // src0 + src1 + src2
PTO_CARRY(TSUBC)  // src0 - src1 + src2
#undef PTO_CARRY
#define PTO_CARRY_S(NAME)                                                                                      \
  template <class Dst, class Src0, class Src1, class... W>                                                     \
    requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1>                                                 \
  detail::Issue NAME(Dst& dst, Src0& src0, typename Dst::DType scalar, Src1& src1, W&... events) {             \
    PTO_COMPOUND_RULES(#NAME, typename Dst::DType, Dst, Src0, Src1);                                            \
    detail::Core& core = detail::current_core();                                                               \
    detail::InstrRecord rec = detail::element_record<Op::NAME>(core, dst, src0, src1);                         \
    rec.scalar = ScalarValue::of(scalar);                                                              \
    detail::add_waits(core, rec, events...);                                                                   \
    return detail::Issue(core, rec);                                                                           \
  }
PTO_CARRY_S(TADDSC)  // src0 + scalar + src1
PTO_CARRY_S(TSUBSC)  // src0 - scalar + src1
#undef PTO_CARRY_S

// The fused forms (half, float): one vmadd / vmaddrelu / vmla / vsubrelu on A2A3; each step rounded to
// the element type (the ISA does not say the chips fuse the rounding; the tolerance covers either).
#define PTO_FUSED(NAME)                                                                               \
  template <class Dst, class Src0, class Src1, class... W>                                             \
    requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1>                                         \
  detail::Issue NAME(Dst& dst, Src0& src0, Src1& src1, W&... events) {                                 \
    PTO_COMPOUND_RULES(#NAME, typename Dst::DType, Dst, Src0, Src1);                                    \
    detail::Core& core = detail::current_core();                                                       \
    detail::InstrRecord rec = detail::element_record<Op::NAME>(core, dst, src0, src1);                 \
    detail::add_waits(core, rec, events...);                                                           \
    return detail::Issue(core, rec);                                                                   \
  }
PTO_FUSED(TFUSEDMULADD)      // dst = src0 * dst + src1
PTO_FUSED(TFUSEDMULADDRELU)  // dst = max(src0 * dst + src1, 0)
PTO_FUSED(TMULADDDST)        // dst = src0 * src1 + dst
PTO_FUSED(TSUBRELU)          // dst = max(src0 - src1, 0)
#undef PTO_FUSED

// TADDDEQRELU(dst, src0, src1, deqScale, tmp): dst (half) = max(0, float(src0 + src1) * 2^-17 * deqScale
// * 2^17) from int32 sources, each step rounded to float. A2A3 leaves its intermediates in its operands'
// bytes (TAddDeqRelu.hpp): src0 holds the scaled floats, src1 the clamped ones, tmp zeros.
template <class Dst, class Src0, class Src1, class Tmp, class... W>
  requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1> && TileLike<Tmp>
detail::Issue TADDDEQRELU(Dst& dst, Src0& src0, Src1& src1, float deqScale, Tmp& tmp, W&... events) {
  using namespace detail;
  static_assert(kAllVec<void, Dst, Src0, Src1, Tmp>, "TADDDEQRELU: every operand must be a Vec tile");
  static_assert(std::is_same_v<typename Dst::DType, half>, "TADDDEQRELU: dst must be half");
  static_assert(kAllOf<std::int32_t, Src0, Src1, Tmp>, "TADDDEQRELU: src0, src1 and tmp must be int32_t");
  static_assert(kAllRowMajor<Dst, Src0, Src1, Tmp>, "TADDDEQRELU: every operand must be a RowMajor NoneBox tile");
  Core& core = current_core();
  InstrRecord rec = compound_record<Op::TADDDEQRELU>(core, dst, src0, src1, tmp);
  const Target target = core_target(core);
  scratch(rec, 3, target);
  for (int i = 1; i < 4; ++i)
    if (rec.ops[0].tile.footprint().overlaps(rec.ops[i].tile.footprint()))
      fail("TADDDEQRELU: operand dst ", rec.ops[0].tile, " shares bytes with operand ", rec.desc->operands[i].name, " ",
           rec.ops[i].tile, ": dst (half) and the int32 operands need their own bytes");
  apart_on_a2a3(rec, target, "the algorithm writes its intermediates into src0, src1 and tmp");
  rec.scalar = ScalarValue::of(deqScale);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

}  // namespace pto
