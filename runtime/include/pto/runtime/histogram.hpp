// THISTOGRAM<HistByte>(dst, src, idx) (pto-isa docs/isa/THISTOGRAM.md; a5 THistogram.hpp, A5 only): per
// valid row r of src (uint16 or uint32), dst row r gets 256 uint32 bins of an ascending cumulative
// histogram: bin b counts the row's valid elements whose selected byte is at most b and whose upper bytes
// pass the cascaded filter (the byte pass of a most-significant-first radix sort; the chip's chistv2
// accumulates, as pto-isa's A5 test goldens and its CPU simulator show, though its page says "count"):
//  - uint16 src: BYTE_1 counts the high byte of every element; BYTE_0 counts the low byte of the
//    elements whose high byte equals idx's byte r (idx a ColMajor R x 1 uint8 tile: one byte per row).
//  - uint32 src: BYTE_3 counts every element's top byte; BYTE_2 those whose byte 3 equals idx[0][0];
//    BYTE_1 also byte 2 == idx[1][0]; BYTE_0 also byte 1 == idx[2][0]. idx is a RowMajor uint8 tile of
//    3 - byte rows and src's Cols; the chip reads column 0 of each row, the same filter for every src
//    row (pto-isa's doc writes idx_{r,k}, a per-row filter; its NPU code broadcasts one byte per level).
// The chip stores row r's bins at element 256 * r of dst, so dst has exactly 256 columns.
#pragma once
#include <cstdint>
#include <type_traits>

#include <pto/isa/enums.hpp>
#include <pto/isa/instr_desc.hpp>
#include <pto/isa/operand.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {

namespace detail {
// THISTOGRAM on the views (dst, src, idx in rec; the static rules hold), shared with the PTO IR reader.
inline void histogram_checks(InstrRecord& rec, Target target, HistByte byte) {
  const bool u16 = rec.ops[1].tile.dtype == DType::U16;
  const int levels = u16 ? (byte == HistByte::BYTE_0 ? 1 : 0) : 3 - int(byte);
  const InstrDesc& d = *rec.desc;
  TileView &o = rec.ops[0].tile, &x = rec.ops[2].tile;
  const TileView& s = rec.ops[1].tile;
  a5_only(rec, target);
  if (o.rows < s.valid_rows)
    fail(d.name, ": operand dst ", o, " has ", o.rows, " rows, fewer than src ", s, "'s ", s.valid_rows, " valid rows (one row of bins each)");
  if (u16 && levels && x.rows < s.valid_rows)
    fail(d.name, ": operand idx ", x, ": one filter byte per src row, and src has ", s.valid_rows, " valid rows");
  o.valid_rows = s.valid_rows;  // the rows written, whole
  o.valid_cols = 256;
  x.valid_rows = u16 ? (levels ? s.valid_rows : 0) : levels;  // the filter bytes read
  x.valid_cols = levels ? 1 : 0;
  rec.variant = std::uint8_t(byte);
}
}  // namespace detail

template <HistByte Byte, class Dst, class Src, class Idx, class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Idx> && (detail::WaitEvent<W> && ...)
detail::Issue THISTOGRAM(Dst& dst, Src& src, Idx& idx, W&... events) {
  using namespace detail;
  using S = typename Src::DType;
  constexpr bool u16 = std::is_same_v<S, std::uint16_t>;
  constexpr int levels = u16 ? (Byte == HistByte::BYTE_0 ? 1 : 0) : 3 - int(Byte);
  static_assert(std::is_same_v<typename Dst::DType, std::uint32_t>, "THISTOGRAM: dst must be uint32_t (the bin counts)");
  static_assert(std::is_same_v<typename Idx::DType, std::uint8_t>, "THISTOGRAM: idx must be uint8_t (the filter bytes)");
  static_assert(u16 || std::is_same_v<S, std::uint32_t>, "THISTOGRAM: src must be uint16_t or uint32_t");
  static_assert(Dst::Loc == TileType::Vec && Src::Loc == TileType::Vec && Idx::Loc == TileType::Vec,
                "THISTOGRAM: dst, src and idx must be Vec tiles");
  static_assert(kVecRowMajor<Dst, Src>, "THISTOGRAM: dst and src must be RowMajor NoneBox tiles");
  static_assert(Dst::Cols == 256, "THISTOGRAM: dst must have 256 columns (the chip stores row r's 256 bins at element 256 * r)");
  static_assert(!u16 || Byte == HistByte::BYTE_0 || Byte == HistByte::BYTE_1,
                "THISTOGRAM: a uint16 src has BYTE_0 and BYTE_1 only");
  static_assert(!u16 || (!Idx::isRowMajor && !Idx::isBoxedLayout && Idx::Cols == 1),
                "THISTOGRAM: with a uint16 src, idx is a ColMajor NoneBox tile of one column (one byte per row)");
  static_assert(u16 || levels == 0 || (Idx::isRowMajor && Idx::Rows == levels && Idx::Cols == Src::Cols),
                "THISTOGRAM: with a uint32 src, idx is RowMajor with 3 - byte rows and src's Cols (a5 THistogram.hpp)");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::THISTOGRAM>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  add_tile(core, rec, idx);
  histogram_checks(rec, core_target(core), Byte);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

}  // namespace pto
