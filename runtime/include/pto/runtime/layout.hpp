// Layout instructions (pto-isa docs/isa/TTRANS.md, TFILLPAD.md; docs/layout.md):
//  - TTRANS(dst, src, tmp): dst[j][i] = src[i][j] over src's valid region (the 2-D form; the NCHW /
//    NC1HWC0 convolution tiles are not implemented). tmp is A2A3's staging; A5 ignores it.
//  - TFILLPAD<mode>(dst, src), TFILLPAD_INPLACE, TFILLPAD_EXPAND: src's valid elements, then dst's PadVal
//    over the rest of each of src's valid rows up to dst's capacity width, and over every column of the
//    rows from there to dst's valid rows.
//  - TCONCAT(dst, src0, src1[, src0Idx, src1Idx[, dstIdx]]) (TCONCAT.md): each of dst's valid rows is
//    src0's row then src1's; the index forms take the two lengths per row from the index tiles.
#pragma once
#include <algorithm>
#include <tuple>
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
template <class T>
inline constexpr bool kLayoutElem = sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4;
}  // namespace detail

namespace detail {
// TTRANS on the views (dst, src, tmp in rec), shared with the PTO IR reader.
inline void ttrans_checks(InstrRecord& rec, Target target) {
  const InstrDesc& d = *rec.desc;
  TileView &o = rec.ops[0].tile, &t = rec.ops[2].tile;
  const TileView& s = rec.ops[1].tile;
  check_dtype(d, "src", s.dtype, target, d.dtypes);
  const int R = s.valid_rows, C = s.valid_cols;
  if (o.rows < C || o.cols < R)
    fail(d.name, ": operand dst ", o, " cannot hold src ", s, " transposed: it needs at least ", C, " rows and ", R, " columns");
  const std::size_t es = size_of(s.dtype);
  if (target == Target::A5) {
    // a5/TTrans.hpp: the gather (scatter) offsets are 16-bit lanes for 1- and 2-byte elements.
    const TileView& ix = s.rows < s.cols ? o : s;
    const std::uint64_t last = std::uint64_t(ix.rows - 1) * std::uint64_t(ix.row_stride) + std::uint64_t(ix.cols - 1);
    if (es < 4 && last > 0xFFFF)
      fail(d.name, ": operand ", s.rows < s.cols ? "dst " : "src ", ix, ": on A5 the ", s.rows < s.cols ? "scatter" : "gather",
           " offsets of ", es, "-byte elements are 16-bit, and this tile's last element is at ", last, " (> 65535)");
    // a5/TTrans.hpp counts a line's chunks as ceil(n / lanes) - 1 in 16 bits: an empty inner dimension
    // under a non-empty outer one wraps to 65535 chunks a line, far past dst
    const bool row_wise = s.rows < s.cols;
    if ((row_wise ? C : R) == 0 && (row_wise ? R : C) > 0)
      fail(d.name, ": operand src ", s, ": on A5 a ", row_wise ? "row-wise" : "column-wise", " transpose with no valid ",
           row_wise ? "columns" : "rows", " but ", row_wise ? R : C, " valid ", row_wise ? "rows" : "columns",
           " would run its chunk counter from 65535 (a 16-bit ceil(n / lanes) - 1) and store far past dst");
    t.valid_rows = t.valid_cols = 0;  // not touched
  } else {
    const int be = int(32 / es), y = es == 1 ? 32 : 16;
    if (o.row_stride % y == 0 && s.row_stride % be == 0) {
      rec.variant = kVariantTransAligned;
      const int tmp_stride = (R + y - 1) / y * y, tmp_rows = (C + be - 1) / be * be;
      if (std::size_t(t.rows) * std::size_t(t.cols) < std::size_t(tmp_rows) * std::size_t(tmp_stride))
        fail(d.name, ": operand tmp ", t, " is too small: A2A3 stages src's ", (C + be - 1) / be, " column blocks there: ",
             tmp_rows, " x ", tmp_stride, " elements (validCol rounded up to ", be, ", validRow to ", y, ")");
      scratch_elems(t, std::size_t(tmp_rows) * std::size_t(tmp_stride));
      // tmp -> dst moves each row's validRow elements as whole 32-byte blocks
      rec.ops[0].write_tail_bytes = std::uint32_t((std::size_t(R) * es + 31) / 32 * 32 - std::size_t(R) * es);
    } else {
      t.valid_rows = t.valid_cols = 0;  // the scalar element loop does not use tmp
    }
  }
  o.valid_rows = C;  // what is written
  o.valid_cols = R;
}
}  // namespace detail

template <class Dst, class Src, class Tmp, class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Tmp> && (detail::WaitEvent<W> && ...)
detail::Issue TTRANS(Dst& dst, Src& src, Tmp& tmp, W&... events) {
  using namespace detail;
  using T = typename Src::DType;
  static_assert(kLayoutElem<T>, "TTRANS: elements of 1, 2 or 4 bytes");
  static_assert(sizeof(typename Dst::DType) == sizeof(T) && sizeof(typename Tmp::DType) == sizeof(T),
                "TTRANS: dst, src and tmp must have elements of one size");
  static_assert(kVecRowMajor<Dst, Src, Tmp>,
                "TTRANS: dst, src and tmp must be RowMajor NoneBox Vec tiles (the convolution-layout forms are not implemented)");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TTRANS>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  add_tile(core, rec, tmp);
  ttrans_checks(rec, core_target(core));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

namespace detail {
// TFILLPAD of an NZ Mat tile (a2a3 TFillPad.hpp, create_cbuf_matrix on MTE2): zeroes what lies outside the
// valid region in whole 32-byte lines: the rows below the valid rows in the column blocks the valid
// columns touch, then every column block past them (RowAlignedPadding: only the rows up to the next
// multiple of 16). The valid columns' last C0 block keeps its tail (TLOAD's nd2nz zeroes it).
template <class Dst, class Src, class... W>
Issue fillpad_mat(Dst& dst, Src& src, W&... events) {
  static_assert(std::is_same_v<Dst, Src>, "TFILLPAD (Mat): dst and src must be the same tile type (it pads dst in place)");
  static_assert(kNzTile<Dst>, "TFILLPAD (Mat): the tile must be NZ (BLayout::ColMajor, SLayout::RowMajor, 512-byte fractals)");
  static_assert(Dst::PadVal == PadValue::Zero || Dst::PadVal == PadValue::Null,
                "TFILLPAD (Mat): the pad is zero (PadValue::Zero or Null)");
  static_assert(kLayoutElem<typename Dst::DType>, "TFILLPAD (Mat): elements of 1, 2 or 4 bytes");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TFILLPAD_MAT>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  TileView& o = rec.ops[0].tile;
  constexpr int c0 = kBlockElems<typename Dst::DType>;  // a 32-byte line's elements
  const int vr = o.valid_rows, vc = (o.valid_cols + c0 - 1) / c0 * c0;
  const int tail_rows = Dst::Compact == CompactMode::RowAlignedPadding ? (vr + 15) / 16 * 16 - vr : o.rows - vr;
  const std::uint64_t lines = (vr == 0 || o.valid_cols == 0)
                                  ? 0
                                  : std::uint64_t(vc / c0) * std::uint64_t(tail_rows) +
                                        (Dst::Compact == CompactMode::RowAlignedPadding ? 0 : std::uint64_t(o.cols - vc) / c0 * o.rows);
  rec.scalar = ScalarValue::of(lines * 32);  // the bytes written (the model's cost)
  if (Dst::Compact == CompactMode::RowAlignedPadding) rec.variant |= kVariantFillRowAligned;
  // dst's footprint is the whole tile (the pads are not one rectangle); src's valid region says where they go
  o.valid_rows = lines ? o.rows : 0;
  o.valid_cols = lines ? o.cols : 0;
  o.static_valid_rows = o.static_valid_cols = false;
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
}  // namespace detail

namespace detail {
// The Vec form's static rules on views (the IR front door checks a file's types with them).
inline void fillpad_vec_type_rules(const TileView& dst, const TileView& src, TFillPadMode mode) {
  if (dst.loc != TileType::Vec || src.loc != TileType::Vec) fail("TFILLPAD: the Vec form (dst and src Vec tiles) or TFILLPAD of an NZ Mat tile");
  if (!nd_view(dst) || !nd_view(src)) fail("TFILLPAD: dst and src must be RowMajor NoneBox tiles");
  if (dst.pad == PadValue::Null) fail("TFILLPAD: dst's PadVal is the fill value and must not be PadValue::Null");
  const std::size_t e = dst.elem_bytes();
  if (e != src.elem_bytes() || !(e == 1 || e == 2 || e == 4)) fail("TFILLPAD: dst and src must have elements of one size, 1, 2 or 4 bytes");
  if (mode != TFillPadMode::Expand && (dst.rows != src.rows || dst.cols != src.cols))
    fail("TFILLPAD / TFILLPAD_INPLACE: dst and src must have the same static Rows and Cols (TFILLPAD_EXPAND: dst may be larger)");
  if (mode == TFillPadMode::Expand && (dst.rows < src.rows || dst.cols < src.cols))
    fail("TFILLPAD_EXPAND: dst's static Rows and Cols must be at least src's");
}
// The Vec form's checks on its operands' views (rec: dst, src) and its variant bits.
inline void fillpad_vec_views(InstrRecord& rec, Target target, TFillPadMode mode) {
  const InstrDesc& d = *rec.desc;
  TileView& o = rec.ops[0].tile;
  const TileView& s = rec.ops[1].tile;
  check_dtype(d, o.dtype, target);
  if (o.valid_rows < s.valid_rows)
    fail(d.name, ": operand dst ", o, " has fewer valid rows than operand src ", s,
         "; the pad covers rows from src's valid rows to dst's (on A5 the row count would underflow)");
  if (mode == TFillPadMode::InPlace && o.base != s.base)
    fail(d.name, ": operands dst ", o, " and src ", s, " must be the same storage (TFILLPAD_INPLACE pads src where it is)");
  if (mode == TFillPadMode::InPlace) rec.variant |= kVariantFillInPlace;
  if (target == Target::A2A3 && o.pad == s.pad) rec.variant |= kVariantKeepBlock;
  if (o.valid_rows == 0 || (target == Target::A2A3 && o.valid_cols == 0)) {
    o.valid_rows = o.valid_cols = 0;  // A2A3 returns at once (A5 reads no dst valid width: it pads to Cols)
    rec.ops[1].tile.valid_rows = rec.ops[1].tile.valid_cols = 0;
  } else {
    o.valid_cols = o.cols;  // every column of the written rows
  }
}
}  // namespace detail

template <TFillPadMode Mode = TFillPadMode::Normal, class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src> && (detail::WaitEvent<W> && ...)
detail::Issue TFILLPAD(Dst& dst, Src& src, W&... events) {
  using namespace detail;
  if constexpr (Dst::Loc == TileType::Mat && Mode == TFillPadMode::Normal) {
    return fillpad_mat(dst, src, events...);
  } else {
  static_assert(Dst::Loc == TileType::Vec && Src::Loc == TileType::Vec,
                "TFILLPAD: the Vec form (dst and src Vec tiles) or TFILLPAD of an NZ Mat tile");
  static_assert(kVecRowMajor<Dst, Src>, "TFILLPAD: dst and src must be RowMajor NoneBox tiles");
  static_assert(Dst::PadVal != PadValue::Null, "TFILLPAD: dst's PadVal is the fill value and must not be PadValue::Null");
  static_assert(sizeof(typename Dst::DType) == sizeof(typename Src::DType) && kLayoutElem<typename Dst::DType>,
                "TFILLPAD: dst and src must have elements of one size, 1, 2 or 4 bytes");
  static_assert(Mode == TFillPadMode::Expand || (Dst::Rows == Src::Rows && Dst::Cols == Src::Cols),
                "TFILLPAD / TFILLPAD_INPLACE: dst and src must have the same static Rows and Cols (TFILLPAD_EXPAND: dst may be larger)");
  static_assert(Mode != TFillPadMode::Expand || (Dst::Rows >= Src::Rows && Dst::Cols >= Src::Cols),
                "TFILLPAD_EXPAND: dst's static Rows and Cols must be at least src's");
  constexpr Op op = Mode == TFillPadMode::Normal ? Op::TFILLPAD : Mode == TFillPadMode::InPlace ? Op::TFILLPAD_INPLACE : Op::TFILLPAD_EXPAND;
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<op>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  fillpad_vec_views(rec, core_target(core), Mode);
  add_waits(core, rec, events...);
  return Issue(core, rec);
  }
}

template <class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src> && (detail::WaitEvent<W> && ...)
detail::Issue TFILLPAD_INPLACE(Dst& dst, Src& src, W&... events) {
  return TFILLPAD<TFillPadMode::InPlace>(dst, src, events...);
}
template <class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src> && (detail::WaitEvent<W> && ...)
detail::Issue TFILLPAD_EXPAND(Dst& dst, Src& src, W&... events) {
  return TFILLPAD<TFillPadMode::Expand>(dst, src, events...);
}

namespace detail {
template <class Dst, class Src0, class Src1>
constexpr bool tconcat_static() {
  static_assert(Dst::Loc == TileType::Vec && Src0::Loc == TileType::Vec && Src1::Loc == TileType::Vec,
                "TCONCAT: dst, src0 and src1 must be Vec tiles");
  static_assert(std::is_same_v<typename Dst::DType, typename Src0::DType> && std::is_same_v<typename Dst::DType, typename Src1::DType>,
                "TCONCAT: dst, src0 and src1 must have one DType");
  static_assert(kVecRowMajor<Dst, Src0, Src1>, "TCONCAT: dst, src0 and src1 must be RowMajor NoneBox tiles");
  return true;
}
template <class... Idx>
constexpr bool tconcat_idx_static() {
  using I0 = std::tuple_element_t<0, std::tuple<Idx...>>;
  static_assert(((Idx::Loc == TileType::Vec && !Idx::isBoxedLayout) && ...), "TCONCAT: the index tiles must be NoneBox Vec tiles");
  static_assert((std::is_same_v<typename Idx::DType, typename I0::DType> && ...), "TCONCAT: the index tiles must have one DType");
  static_assert(std::is_integral_v<typename I0::DType> && sizeof(typename I0::DType) <= 4,
                "TCONCAT: index tiles hold byte counts as 8-, 16- or 32-bit integers");
  return true;
}

// After dst, src0, src1 (and the index tiles) are operands: the rules of both forms, then what dst's
// operand covers (rows x the columns written; A2A3's basic form writes whole 32-byte blocks).
inline void tconcat_rules(Core& core, InstrRecord& rec) {
  const InstrDesc& d = *rec.desc;
  const Target target = core_target(core);
  TileView& o = rec.ops[0].tile;
  const TileView &a = rec.ops[1].tile, &b = rec.ops[2].tile;
  check_dtype(d, o.dtype, target);
  if (a.valid_rows != o.valid_rows || b.valid_rows != o.valid_rows)
    fail(d.name, ": operands src0 ", a, " and src1 ", b, " must have dst's ", o.valid_rows, " valid rows (dst ", o, ")");
  if (rec.nops == 3) {
    const int n = a.valid_cols + b.valid_cols;
    if (target == Target::A2A3 && n > o.cols)
      fail(d.name, ": operand dst ", o, " has ", o.cols, " columns; src0's and src1's valid columns are ", n,
           " (A2A3: their sum must fit dst's Cols)");
    if (target == Target::A5 && n != o.valid_cols)
      fail(d.name, ": operand dst ", o, " has ", o.valid_cols, " valid columns; src0's and src1's valid columns are ", n,
           " (A5: their sum must equal dst's valid columns)");
    if (target == Target::A2A3) {
      // copy_ubuf_to_ubuf moves whole blocks: src0's round up; src1's too when it starts on a block
      // (otherwise a scalar loop copies it exactly)
      const int be = int(32 / o.elem_bytes()), up0 = (a.valid_cols + be - 1) / be * be;
      const int end = a.valid_cols % be == 0 ? a.valid_cols + (b.valid_cols + be - 1) / be * be : std::max(up0, n);
      rec.variant |= kVariantConcatBlocks;
      rec.ops[0].write_tail_bytes = std::uint32_t(std::size_t(end - n) * o.elem_bytes());
    }
    o.valid_cols = n;
    return;
  }
  // the counts are data: src0 and src1 may be read up to their Cols
  rec.ops[1].tile.valid_cols = rec.ops[1].tile.cols;
  rec.ops[2].tile.valid_cols = rec.ops[2].tile.cols;
  for (int k = 3; k < rec.nops; ++k) {
    TileView& x = rec.ops[k].tile;
    const char* name = d.operands[k].name;
    if (x.rows < o.valid_rows)
      fail(d.name, ": operand ", name, " ", x, " has ", x.rows, " rows; dst has ", o.valid_rows,
           " valid rows and each takes its count from element (row, 0)");
    if (k == 5 && x.valid_cols != 1) fail(d.name, ": operand ", name, " ", x, " must have 1 valid column (the NPUs assert it)");
    if (x.valid_cols < 1) fail(d.name, ": operand ", name, " ", x, " has no valid column; each row's count is its element (row, 0)");
    x.valid_rows = o.valid_rows;  // what is read (written) of it: column 0 of dst's rows
    x.valid_cols = std::min(x.valid_cols, 1);
  }
}
}  // namespace detail

namespace detail {
// TCONCAT's record: its tiles as operands in the descriptor's order, then the rules of the form.
template <class... Tiles>
InstrRecord tconcat_record(Core& core, Tiles&... tiles) {
  InstrRecord rec = compute_record(desc_of<Op::TCONCAT>());
  (add_tile(core, rec, tiles), ...);
  tconcat_rules(core, rec);
  return rec;
}
}  // namespace detail

template <class Dst, class Src0, class Src1, class... W>
  requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1> && (detail::WaitEvent<W> && ...)
detail::Issue TCONCAT(Dst& dst, Src0& src0, Src1& src1, W&... events) {
  using namespace detail;
  static_assert(tconcat_static<Dst, Src0, Src1>());
  Core& core = current_core();
  InstrRecord rec = tconcat_record(core, dst, src0, src1);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

// The index forms: row i of dst is the first src0Idx(i, 0) / sizeof(index) elements of src0's row (at
// most dst's valid columns), then as many of src1's as fit; dstIdx(i, 0) = their count * sizeof(index).
template <class Dst, class Src0, class Src1, class Idx0, class Idx1, class... W>
  requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1> && TileLike<Idx0> && TileLike<Idx1> && (detail::WaitEvent<W> && ...)
detail::Issue TCONCAT(Dst& dst, Src0& src0, Src1& src1, Idx0& src0Idx, Idx1& src1Idx, W&... events) {
  using namespace detail;
  static_assert(tconcat_static<Dst, Src0, Src1>() && tconcat_idx_static<Idx0, Idx1>());
  Core& core = current_core();
  InstrRecord rec = tconcat_record(core, dst, src0, src1, src0Idx, src1Idx);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

template <class Dst, class Src0, class Src1, class DstIdx, class Idx0, class Idx1, class... W>
  requires TileLike<Dst> && TileLike<Src0> && TileLike<Src1> && TileLike<DstIdx> && TileLike<Idx0> && TileLike<Idx1> &&
           (detail::WaitEvent<W> && ...)
detail::Issue TCONCAT(Dst& dst, Src0& src0, Src1& src1, DstIdx& dstIdx, Idx0& src0Idx, Idx1& src1Idx, W&... events) {
  using namespace detail;
  static_assert(tconcat_static<Dst, Src0, Src1>() && tconcat_idx_static<DstIdx, Idx0, Idx1>());
  Core& core = current_core();
  InstrRecord rec = tconcat_record(core, dst, src0, src1, src0Idx, src1Idx, dstIdx);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

// pto-isa's tconcat test kernel calls the implementation's name directly; it issues as TCONCAT does.
template <class... Tiles>
  requires(TileLike<Tiles> && ...)
void TCONCAT_IMPL(Tiles&... tiles) {
  RecordEvent e = TCONCAT(tiles...);
  (void)e;
}

}  // namespace pto
