// Tile-scalar arithmetic (spec §2.5), TEXP (§2.4) and TAXPY (§2.3).
#pragma once
#include <type_traits>

#include <pto/isa/instr_desc.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {

namespace detail {
// The rules of a tile-scalar instruction (dst, src) on its operands' views, shared with the PTO IR reader.
inline void tile_scalar_checks(const InstrRecord& rec, Target target) {
  check_dtype(*rec.desc, rec.ops[0].tile.dtype, target);
  check_same_valid(*rec.desc, "dst", rec.ops[0].tile, rec.desc->operands[1].name, rec.ops[1].tile);
}

template <Op O, class Dst, class Src, class... W>
Issue tile_scalar(Dst& dst, Src& src, typename Src::DType scalar, bool scalar_first, W&... events) {
  static_assert(Dst::Loc == TileType::Vec && Src::Loc == TileType::Vec, "TADDS/TSUBS/TMULS/TDIVS/TMAXS/TMINS/TLRELU: dst and src must be Vec tiles");
  static_assert(std::is_same_v<typename Dst::DType, typename Src::DType>,
                "TADDS/TSUBS/TMULS/TDIVS/TMAXS/TMINS/TLRELU: dst and src must have the same DType");
  static_assert(Dst::isRowMajor == Src::isRowMajor && !Dst::isBoxedLayout && !Src::isBoxedLayout,
                "TADDS/TSUBS/TMULS/TDIVS/TMAXS/TMINS/TLRELU: dst and src must share one NoneBox layout (both RowMajor or both ColMajor)");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  tile_scalar_checks(rec, core_target(core));
  rec.scalar = ScalarValue::of(scalar);
  if (scalar_first) rec.variant |= kVariantScalarFirst;
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
}  // namespace detail

#define PTO_TILE_SCALAR(NAME)                                                                 \
  template <class Dst, class Src, class... W>                                                  \
    requires TileLike<Dst> && TileLike<Src>                                                    \
  detail::Issue NAME(Dst& dst, Src& src, typename Src::DType scalar, W&... events) {           \
    return detail::tile_scalar<Op::NAME>(dst, src, scalar, false, events...);                  \
  }
PTO_TILE_SCALAR(TADDS)
PTO_TILE_SCALAR(TSUBS)
PTO_TILE_SCALAR(TMULS)
PTO_TILE_SCALAR(TMAXS)
PTO_TILE_SCALAR(TMINS)
PTO_TILE_SCALAR(TLRELU)  // dst = src > 0 ? src : src * scalar (the slope); half, float
#undef PTO_TILE_SCALAR

namespace detail {
// TANDS / TORS / TXORS(dst, src, scalar[, tmp]) and TSHLS / TSHRS(dst, src, count): integer RowMajor
// tiles of one dtype and equal valid shapes. A shift count must lie in [0, bits) (neither chip defines
// the others). A2A3 fills dst with the scalar before combining it with src (and TXORS uses tmp between
// its steps), so there dst, src and tmp must not share bytes.
// The rules of TANDS / TORS / TXORS / TSHLS / TSHRS (dst, src[, tmp]) on their operands' views and the
// scalar's value, shared with the PTO IR reader.
inline void bit_scalar_checks(InstrRecord& rec, Target target, std::int64_t scalar, bool has_tmp) {
  const TileView &d = rec.ops[0].tile, &s = rec.ops[1].tile;
  check_dtype(*rec.desc, d.dtype, target);
  check_same_valid(*rec.desc, "dst", d, "src", s);
  if (has_tmp) check_same_valid(*rec.desc, "dst", d, "tmp", rec.ops[2].tile);
  const Op o = rec.desc->op;
  if (o == Op::TSHLS || o == Op::TSHRS) {
    const std::int64_t bits = 8 * std::int64_t(d.elem_bytes());
    if (scalar < 0 || scalar >= bits)
      fail(rec.desc->name, ": the scalar shift count is ", scalar, ": a shift count must be in [0, ", bits - 1, "] for dtype ",
           name_of(d.dtype));
  } else if (target == Target::A2A3) {
    auto apart = [&](const char* a, const TileView& x, const char* b, const TileView& y) {
      if (x.footprint().overlaps(y.footprint()))
        fail(rec.desc->name, ": operand ", a, " ", x, " overlaps ", b, " ", y, ": the A2A3 algorithm fills ", a,
             " with the scalar before it combines it with src (pto-isa TBitwiseSOp.hpp requires them apart); give it its own bytes");
    };
    if (has_tmp) apart("tmp", rec.ops[2].tile, "src", s), apart("dst", d, "tmp", rec.ops[2].tile);
    apart("dst", d, "src", s);
  } else if (has_tmp) {
    rec.ops[2].tile.valid_rows = rec.ops[2].tile.valid_cols = 0;  // A5 ignores tmp: no dependency on it
  }
}

template <Op O, class Dst, class Src, class Tmp, class... W>
Issue bit_scalar(Dst& dst, Src& src, typename Src::DType scalar, Tmp* tmp, W&... events) {
  using T = typename Dst::DType;
  static_assert(Dst::Loc == TileType::Vec && Src::Loc == TileType::Vec && Tmp::Loc == TileType::Vec,
                "TANDS/TORS/TXORS/TSHLS/TSHRS: dst, src and tmp must be Vec tiles");
  static_assert(std::is_same_v<T, typename Src::DType> && std::is_same_v<T, typename Tmp::DType>,
                "TANDS/TORS/TXORS/TSHLS/TSHRS: dst, src and tmp must have the same DType");
  static_assert(std::is_integral_v<T>, "TANDS/TORS/TXORS/TSHLS/TSHRS: the DType must be an integer type");
  static_assert(Dst::isRowMajor && Src::isRowMajor && !Dst::isBoxedLayout && !Src::isBoxedLayout,
                "TANDS/TORS/TXORS/TSHLS/TSHRS: dst and src must be RowMajor NoneBox tiles");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  if (tmp) add_tile(core, rec, *tmp);
  bit_scalar_checks(rec, core_target(core), std::int64_t(scalar), tmp != nullptr);
  rec.scalar = ScalarValue::of(scalar);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
}  // namespace detail

#define PTO_BIT_SCALAR(NAME)                                                                   \
  template <class Dst, class Src, class... W>                                                  \
    requires TileLike<Dst> && TileLike<Src>                                                    \
  detail::Issue NAME(Dst& dst, Src& src, typename Src::DType scalar, W&... events) {           \
    return detail::bit_scalar<Op::NAME, Dst, Src, Src>(dst, src, scalar, nullptr, events...);  \
  }
PTO_BIT_SCALAR(TANDS)
PTO_BIT_SCALAR(TORS)
PTO_BIT_SCALAR(TSHLS)
PTO_BIT_SCALAR(TSHRS)
#undef PTO_BIT_SCALAR
template <class Dst, class Src, class Tmp, class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Tmp>
detail::Issue TXORS(Dst& dst, Src& src, typename Src::DType scalar, Tmp& tmp, W&... events) {
  return detail::bit_scalar<Op::TXORS>(dst, src, scalar, &tmp, events...);
}

// TDIVS(dst, src, scalar) = src / scalar; TDIVS(dst, scalar, src) = scalar / src.
template <auto PrecisionType = DivAlgorithm::DEFAULT, class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src>
detail::Issue TDIVS(Dst& dst, Src& src, typename Src::DType scalar, W&... events) {
  return detail::tile_scalar<Op::TDIVS>(dst, src, scalar, false, events...);
}
template <auto PrecisionType = DivAlgorithm::DEFAULT, class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src>
detail::Issue TDIVS(Dst& dst, typename Dst::DType scalar, Src& src, W&... events) {
  return detail::tile_scalar<Op::TDIVS>(dst, src, scalar, true, events...);
}

// TEXP(dst, src): dst = exp(src). ExpAlgorithm::HIGH_PRECISION only changes the A5 device algorithm.
template <auto PrecisionType = ExpAlgorithm::DEFAULT, class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src>
detail::Issue TEXP(Dst& dst, Src& src, W&... events) {
  using namespace detail;
  static_assert(Dst::Loc == TileType::Vec && Src::Loc == TileType::Vec, "TEXP: dst and src must be Vec tiles");
  static_assert(Dst::isRowMajor && Src::isRowMajor && !Dst::isBoxedLayout && !Src::isBoxedLayout,
                "TEXP: dst and src must be RowMajor NoneBox tiles");
  static_assert(std::is_same_v<typename Dst::DType, typename Src::DType>, "TEXP: dst and src must have the same DType");
  static_assert(std::is_same_v<typename Dst::DType, half> || std::is_same_v<typename Dst::DType, float>,
                "TEXP: DType must be half or float");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TEXP>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  check_same_valid(*rec.desc, "dst", rec.ops[0].tile, "src", rec.ops[1].tile);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

// TAXPY(dst, src0, scalar): dst = scalar * src0 + dst (dst is read, modified and written).
template <class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src>
detail::Issue TAXPY(Dst& dst, Src& src0, typename Src::DType scalar, W&... events) {
  using namespace detail;
  using DT = typename Dst::DType;
  using ST = typename Src::DType;
  static_assert(Dst::Loc == TileType::Vec && Src::Loc == TileType::Vec, "TAXPY: dst and src0 must be Vec tiles");
  static_assert(std::is_same_v<DT, half> || std::is_same_v<DT, float>, "TAXPY: dst must be half or float");
  static_assert(!(std::is_same_v<DT, half> && std::is_same_v<ST, float>),
                "TAXPY: dst half with src0 float is not a legal combination (only half<-half, float<-float and float<-half widen)");
  static_assert(std::is_same_v<DT, ST> || (std::is_same_v<DT, float> && std::is_same_v<ST, half>),
                "TAXPY: src0 must have dst's DType, or be half with a float dst");
  static_assert(Dst::isRowMajor && Src::isRowMajor && !Dst::isBoxedLayout && !Src::isBoxedLayout,
                "TAXPY: dst and src0 must be RowMajor NoneBox tiles");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TAXPY>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src0);
  check_same_valid(*rec.desc, "dst", rec.ops[0].tile, "src0", rec.ops[1].tile);
  rec.scalar = ScalarValue::of(scalar);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

}  // namespace pto
