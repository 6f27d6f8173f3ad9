// Element-wise tile-tile arithmetic: TADD, TSUB, TMUL, TDIV, TMAX, TMIN (dst = src0 op src1 over dst's
// valid region; pto-isa docs/isa/TADD.md and the others). The NPU implementations are the law on
// dtypes (the descriptors' sets) and layouts: RowMajor tiles of one DType, valid shapes equal.
#pragma once
#include <type_traits>

#include <pto/isa/instr_desc.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {

namespace detail {
// The rules binary instructions check on their operands' views (dst, src0, src1[, tmp]), shared by the
// C++ functions below (after their static_asserts) and the PTO IR reader.
inline void binary_checks(const InstrRecord& rec, Target target) {
  const InstrDesc& d = *rec.desc;
  check_dtype(d, rec.ops[0].tile.dtype, target);
  check_same_valid(d, "dst", rec.ops[0].tile, "src0", rec.ops[1].tile);
  check_same_valid(d, "dst", rec.ops[0].tile, "src1", rec.ops[2].tile);
  if (rec.nops > 3) {  // TXOR: A2A3 computes tmp = a | b first, then dst = ~(a & b) & tmp
    check_same_valid(d, "dst", rec.ops[0].tile, "tmp", rec.ops[3].tile);
    constexpr int kPairs[][2] = {{3, 0}, {3, 1}, {3, 2}, {0, 1}, {0, 2}};
    if (target == Target::A2A3)
      for (const auto& p : kPairs) {
        const Operand &x = rec.ops[p[0]], &y = rec.ops[p[1]];
        if (x.tile.footprint().overlaps(y.tile.footprint()))
          fail("TXOR: operand ", d.operands[p[0]].name, " ", x.tile, " shares bytes with operand ", d.operands[p[1]].name, " ",
               y.tile, ": the A2A3 algorithm writes tmp and dst before it has read all of src0 and src1 (pto-isa a2a3 "
               "TXor.hpp requires dst, src0, src1 and tmp in different memory)");
      }
  }
  if (d.op == Op::TDIV && target == Target::A5 && size_of(rec.ops[0].tile.dtype) == 8 && rec.ops[0].tile.valid_cols > 64)
    fail("TDIV: operand dst ", rec.ops[0].tile, ": A5 divides 64-bit integers with one 64-lane predicate per row "
         "(pto-isa a5 Int64Div has no column loop), so columns past 64 would be left unwritten on the chip; split the "
         "tile into at most 64 valid columns");
}

template <Op O, class Dst, class Src0, class Src1, class Tmp, class... W>
Issue binary_tmp(Dst& dst, Src0& src0, Src1& src1, Tmp* tmp, W&... events) {
  static_assert(Dst::Loc == TileType::Vec && Src0::Loc == TileType::Vec && Src1::Loc == TileType::Vec,
                "TADD/TSUB/TMUL/TDIV/TMAX/TMIN/TAND/TOR/TXOR/TSHL/TSHR: dst, src0 and src1 must be Vec tiles");
  static_assert(std::is_same_v<typename Dst::DType, typename Src0::DType> &&
                    std::is_same_v<typename Dst::DType, typename Src1::DType>,
                "TADD/TSUB/TMUL/TDIV/TMAX/TMIN/TAND/TOR/TXOR/TSHL/TSHR: dst, src0 and src1 must have the same DType");
  static_assert(Dst::isRowMajor && Src0::isRowMajor && Src1::isRowMajor && !Dst::isBoxedLayout &&
                    !Src0::isBoxedLayout && !Src1::isBoxedLayout,
                "TADD/TSUB/TMUL/TDIV/TMAX/TMIN/TAND/TOR/TXOR/TSHL/TSHR: dst, src0 and src1 must be RowMajor NoneBox tiles (the NPU "
                "implementations take no ColMajor operand)");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src0);
  add_tile(core, rec, src1);
  if (tmp) {
    static_assert(Tmp::Loc == TileType::Vec && std::is_same_v<typename Tmp::DType, typename Dst::DType>,
                  "TXOR: tmp must be a Vec tile of dst's DType");
    add_tile(core, rec, *tmp);
  }
  binary_checks(rec, core_target(core));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
template <Op O, class Dst, class Src0, class Src1, class... W>
Issue binary(Dst& dst, Src0& src0, Src1& src1, W&... events) {
  return binary_tmp<O>(dst, src0, src1, static_cast<Dst*>(nullptr), events...);
}
}  // namespace detail

#define PTO_BINARY(NAME)                                                                          \
  template <class Dst, class Src0, class Src1, class... W>                                         \
    requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1>                                     \
  detail::Issue NAME(Dst& dst, Src0& src0, Src1& src1, W&... events) {                             \
    return detail::binary<Op::NAME>(dst, src0, src1, events...);                                   \
  }
PTO_BINARY(TADD)
PTO_BINARY(TSUB)
PTO_BINARY(TMUL)
PTO_BINARY(TMAX)
PTO_BINARY(TMIN)
PTO_BINARY(TAND)
PTO_BINARY(TOR)
PTO_BINARY(TSHL)  // dst = src0 << src1 per element; counts in [0, bits) (others are an error)
PTO_BINARY(TSHR)  // dst = src0 >> src1: arithmetic for signed types, logical for unsigned
#undef PTO_BINARY

// TXOR(dst, src0, src1, tmp): dst = src0 ^ src1; tmp receives src0 | src1 on A2A3 (A5 ignores it).
template <class Dst, class Src0, class Src1, class Tmp, class... W>
  requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1> && TileLike<Tmp>
detail::Issue TXOR(Dst& dst, Src0& src0, Src1& src1, Tmp& tmp, W&... events) {
  return detail::binary_tmp<Op::TXOR>(dst, src0, src1, &tmp, events...);
}

// TDIV(dst, src0, src1) = src0 / src1. Integers truncate toward zero (A5 only); an integer divisor of 0
// is an error. DivAlgorithm::HIGH_PRECISION selects A5's compensated algorithm on the chip; both compute
// the IEEE quotient here (A2A3 ignores it, as the NPU does).
template <auto PrecisionType = DivAlgorithm::DEFAULT, class Dst, class Src0, class Src1, class... W>
  requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1>
detail::Issue TDIV(Dst& dst, Src0& src0, Src1& src1, W&... events) {
  return detail::binary<Op::TDIV>(dst, src0, src1, events...);
}

}  // namespace pto
