// Compare and select (pto-isa docs/isa/TCMP.md, TCMPS.md, TSEL.md, TSELS.md):
//  - TCMP(dst, src0, src1, mode), TCMPS(dst, src0, scalar, mode): dst receives a packed predicate mask,
//    one bit per source element (row i of dst: bit j in byte j / 8 at bit j % 8, least significant
//    first). dst is an integer tile used as bytes (uint8 on A2A3, uint32 on A5 in the NPU's tests).
//  - TSEL(dst, mask, src0, src1, tmp): dst = bit ? src0 : src1; TSELS(dst, mask, src, tmp, scalar):
//    dst = bit ? src : scalar, with the same mask layout. tmp is the chips' scratch for CMPMASK.
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
// A mask operand as the bytes it spans: `bytes` per row from the row's start, for `rows` rows.
inline void as_mask(const InstrDesc& d, const char* operand, TileView& m, int rows, std::size_t bytes, const char* why) {
  const std::size_t row_bytes = std::size_t(m.cols) * m.elem_bytes();
  if (m.rows < rows || row_bytes < bytes)
    fail(d.name, ": operand ", operand, " ", m, " is too small: ", why, " ", bytes, " bytes in each of ", rows,
         " rows, and its rows hold ", row_bytes);
  m.valid_rows = rows;
  m.valid_cols = int((bytes + m.elem_bytes() - 1) / m.elem_bytes());
}

// The rules of TCMP / TCMPS (dst, src0[, src1]) on their operands' views, shared with the PTO IR reader.
inline void compare_checks(InstrRecord& rec, Target target, CmpMode mode, bool has_src1) {
  const TileView& a = rec.ops[1].tile;
  check_dtype(*rec.desc, "src0", a.dtype, target, rec.desc->dtypes);
  if (has_src1) check_same_valid(*rec.desc, "src0", a, "src1", rec.ops[2].tile);
  if (target == Target::A2A3 && a.dtype == DType::I32 && mode != CmpMode::EQ && mode != CmpMode::NE)
    fail(rec.desc->name, ": operand src0 ", a, ": the A2A3 algorithm compares int32 for equality whatever the mode "
         "(pto-isa a2a3 TCmp.hpp / TCmps.hpp), so this ordered comparison would silently be EQ on the chip; compare as "
         "float, or on A5");
  if (rec.ops[0].tile.valid_rows != a.valid_rows)
    fail(rec.desc->name, ": operand dst ", rec.ops[0].tile, " must have as many valid rows as src0 ", a);
  // The chips write whole 256-byte repeats of bits: ceil(C / E) * E / 8 bytes per row.
  const std::size_t epr = 256 / a.elem_bytes();
  as_mask(*rec.desc, "dst", rec.ops[0].tile, a.valid_rows, (std::size_t(a.valid_cols) + epr - 1) / epr * epr / 8,
          "the chip writes its predicate bits in whole repeats,");
}

template <Op O, class Dst, class Src0, class Src1, class... W>
Issue compare(Dst& dst, Src0& src0, Src1* src1, typename Src0::DType scalar, CmpMode mode, W&... events) {
  static_assert(Dst::Loc == TileType::Vec && Src0::Loc == TileType::Vec && Src1::Loc == TileType::Vec,
                "TCMP/TCMPS: dst and the sources must be Vec tiles");
  static_assert(std::is_same_v<typename Src0::DType, typename Src1::DType>, "TCMP: src0 and src1 must have the same DType");
  static_assert(std::is_integral_v<typename Dst::DType> && sizeof(typename Dst::DType) <= 4,
                "TCMP/TCMPS: dst holds the packed predicate bits: an 8-, 16- or 32-bit integer tile (uint8 on A2A3, "
                "uint32 on A5)");
  static_assert(Dst::isRowMajor && Src0::isRowMajor && Src1::isRowMajor && !Dst::isBoxedLayout && !Src0::isBoxedLayout,
                "TCMP/TCMPS: dst and the sources must be RowMajor NoneBox tiles");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src0);
  if (src1) add_tile(core, rec, *src1);
  compare_checks(rec, core_target(core), mode, src1 != nullptr);
  if (!src1) rec.scalar = ScalarValue::of(scalar);
  rec.variant = std::uint8_t(rec.variant | (std::uint8_t(mode) << kVariantCmpShift));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

// The rules of TSEL / TSELS (dst, mask, src0[, src1], tmp) on their operands' views, shared with the PTO IR reader.
inline void select_checks(InstrRecord& rec, Target target, bool has_src1) {
  const TileView& d = rec.ops[0].tile;
  check_dtype(*rec.desc, d.dtype, target);
  check_same_valid(*rec.desc, "dst", d, has_src1 ? "src0" : "src", rec.ops[2].tile);
  if (has_src1) check_same_valid(*rec.desc, "dst", d, "src1", rec.ops[3].tile);
  as_mask(*rec.desc, "mask", rec.ops[1].tile, d.valid_rows, (std::size_t(d.valid_cols) + 7) / 8,
          "one bit per column of dst's valid region needs");
}

template <Op O, class Dst, class Mask, class Src0, class Src1, class Tmp, class... W>
Issue select(Dst& dst, Mask& mask, Src0& src0, Src1* src1, Tmp& tmp, typename Dst::DType scalar, W&... events) {
  static_assert(Dst::Loc == TileType::Vec && Mask::Loc == TileType::Vec && Src0::Loc == TileType::Vec &&
                    Src1::Loc == TileType::Vec && Tmp::Loc == TileType::Vec,
                "TSEL/TSELS: dst, mask, the sources and tmp must be Vec tiles");
  static_assert(std::is_same_v<typename Dst::DType, typename Src0::DType> && std::is_same_v<typename Dst::DType, typename Src1::DType>,
                "TSEL/TSELS: dst and the sources must have the same DType");
  static_assert(Dst::isRowMajor && Src0::isRowMajor && Src1::isRowMajor && Mask::isRowMajor && !Dst::isBoxedLayout &&
                    !Mask::isBoxedLayout,
                "TSEL/TSELS: dst, mask and the sources must be RowMajor NoneBox tiles");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, dst);
  add_tile(core, rec, mask);
  add_tile(core, rec, src0);
  if (src1) add_tile(core, rec, *src1);
  add_tile(core, rec, tmp);
  select_checks(rec, core_target(core), src1 != nullptr);
  if (!src1) rec.scalar = ScalarValue::of(scalar);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
}  // namespace detail

template <class Dst, class Src0, class Src1, class... W>
  requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1>
detail::Issue TCMP(Dst& dst, Src0& src0, Src1& src1, CmpMode mode, W&... events) {
  return detail::compare<Op::TCMP>(dst, src0, &src1, typename Src0::DType{}, mode, events...);
}

template <class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src>
detail::Issue TCMPS(Dst& dst, Src& src0, typename Src::DType scalar, CmpMode mode, W&... events) {
  return detail::compare<Op::TCMPS, Dst, Src, Src>(dst, src0, nullptr, scalar, mode, events...);
}

template <class Dst, class Mask, class Src0, class Src1, class Tmp, class... W>
  requires TileLike<Dst> && TileLike<Mask> && TileLike<Src0> && TileLike<Src1> && TileLike<Tmp>
detail::Issue TSEL(Dst& dst, Mask& mask, Src0& src0, Src1& src1, Tmp& tmp, W&... events) {
  return detail::select<Op::TSEL>(dst, mask, src0, &src1, tmp, typename Dst::DType{}, events...);
}

template <class Dst, class Mask, class Src, class Tmp, class... W>
  requires TileLike<Dst> && TileLike<Mask> && TileLike<Src> && TileLike<Tmp>
detail::Issue TSELS(Dst& dst, Mask& mask, Src& src, Tmp& tmp, typename Src::DType scalar, W&... events) {
  return detail::select<Op::TSELS, Dst, Mask, Src, Src>(dst, mask, src, nullptr, tmp, scalar, events...);
}

}  // namespace pto
