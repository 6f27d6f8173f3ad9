// Gathering (pto-isa docs/isa/TGATHER.md), bit copies of the elements:
//  - TGATHER(dst, src0, indices, tmp): dst[i][j] = src0's element number indices[i][j] (row-major over
//    src0's storage). tmp is A2A3's scratch for the byte offsets (indices' DType and valid shape); A5
//    ignores it.
//  - TGATHER<Dst, Src, MaskPattern, GatherAxis>(dst, src): GATHER_ROW packs the columns the pattern
//    keeps from every row of src into dst from its first element (row after row); GATHER_COL takes
//    src's rows times * i + position into dst's row i.
#pragma once
#include <cstdint>
#include <type_traits>

#include <pto/isa/enums.hpp>
#include <pto/isa/instr_desc.hpp>
#include <pto/isa/kernel_abi.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {

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
  const Target target = core_target(core);
  const InstrDesc& d = *rec.desc;
  const TileView &o = rec.ops[0].tile, &x = rec.ops[2].tile;
  check_dtype(d, o.dtype, target);
  check_same_valid(d, "dst", o, "indices", x);
  const std::size_t es = sizeof(typename Dst::DType);
  if (target == Target::A2A3) {
    if (sizeof(I) != 4) fail(d.name, ": operand indices ", x, ": A2A3 takes 32-bit indices (a2a3 TGather.hpp)");
    if (!std::is_same_v<typename Tmp::DType, I>)
      fail(d.name, ": operand tmp ", rec.ops[3].tile, ": A2A3 keeps the byte offsets there: tmp must have indices' DType");
    check_same_valid(d, "indices", x, "tmp", rec.ops[3].tile);
  } else {
    if (es == 1 && sizeof(I) != 2)
      fail(d.name, ": operand indices ", x, ": A5 gathers 8-bit data with 16-bit indices (a5 TGather.hpp)");
    if (es >= 4 && sizeof(I) != 4)
      fail(d.name, ": operand indices ", x, ": A5 gathers ", es * 8, "-bit data with 32-bit indices (a5 TGather.hpp)");
    if (es == 8 && o.valid_cols > 64)
      fail(d.name, ": operand dst ", o, ": A5 gathers at most 64 columns of 64-bit data per row (Int64Gather takes one "
           "register pair per row); the chip would leave the rest unwritten");
    rec.ops[3].tile.valid_rows = rec.ops[3].tile.valid_cols = 0;  // A5 ignores tmp
  }
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
  const Target target = core_target(core);
  const InstrDesc& d = *rec.desc;
  const TileView &o = rec.ops[0].tile, &s = rec.ops[1].tile;
  check_dtype(d, "src", s.dtype, target, d.dtypes);
  constexpr int times = mask_period(P), at = mask_position(P);
  const int R = s.valid_rows, C = s.valid_cols;
  if constexpr (A == GatherAxis::GATHER_COL) {
    if (o.valid_cols != C || R != times * o.valid_rows)
      fail(d.name, ": operand dst ", o, ": by columns dst row i is src row ", times, " * i + ", at, ", so dst needs src's valid "
           "columns and a ", times, "th of its rows (src ", s, ")");
    if (target == Target::A5 && s.elem_bytes() == 8) fail(d.name, ": A5 gathers 64-bit data by rows only (Int64GatherPattern)");
  } else {
    const std::int64_t per_row = C > at ? (C - at + times - 1) / times : 0, n = per_row * R;
    if (o.valid_cols != o.cols && o.valid_rows > 1)
      fail(d.name, ": operand dst ", o, ": by rows the chip packs the kept elements one after another from dst's first "
           "element, so dst's valid rows must be whole rows of the tile (or one row)");
    if (std::int64_t(o.valid_rows) * o.valid_cols < n)
      fail(d.name, ": operand dst ", o, " holds ", std::int64_t(o.valid_rows) * o.valid_cols, " elements in its valid region, "
           "and the pattern keeps ", n, " of src ", s, " (the chip would write past dst's valid region)");
    if (target == Target::A5 && s.elem_bytes() == 8 && per_row > 64)
      fail(d.name, ": operand src ", s, ": A5 keeps at most 64 64-bit elements per row (Int64GatherPattern)");
  }
  rec.variant = std::uint8_t(kVariantGatherMask | (std::uint8_t(P) << kVariantPatternShift) |
                             (A == GatherAxis::GATHER_COL ? kVariantGatherCol : 0));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

}  // namespace pto
