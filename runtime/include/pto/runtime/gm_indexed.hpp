// MGATHER and MSCATTER (pto-isa docs/isa/MGATHER.md, MSCATTER.md; a2a3 / a5 MGather.hpp, MScatter.hpp):
// GM addressed through a UB index tile of 32-bit integers (read as unsigned, so a negative index is past
// the table).
//  - MGATHER<Coalesce::Row>(dst, table, idx): dst row r = table row idx[r] (dst's valid columns of it).
//    MGATHER<Coalesce::Elem>(dst, table, idx): dst[r][c] = the table's flat element idx[r][c].
//  - MSCATTER<Coalesce::Row, Atomic, Oob, Conflict>(table, src, idx): table row idx[r] = src row r;
//    Elem: the table's flat element idx[r][c] = src[r][c]. Atomic Add / Max / Min combine with what is
//    there; a plain write to a slot named twice keeps the later source element (A2A3's sequential walk,
//    A5's ScatterConflict::Last; Default may keep any, and here keeps the later too).
// A table "row" differs by target, as the chips address it: A2A3 counts rows over dims 0-3 (the table
// has s0*s1*s2*s3) at stride 3; A5 counts shape[3] rows of exactly dst's valid columns, packed (shape[4]
// must equal them). The flat element index runs over all five dims' product, from the table's base.
// An index past the table: Undefined is an error here (the chips read or write whatever lies there),
// Clamp takes the last, Wrap the index modulo the count, Zero (gather) writes 0, Skip (scatter) drops it.
// Both run on the vector pipe, as pto-isa's op table has them (MGATHER_VEC, MSCATTER): order their index
// tile's TLOAD with MTE2 -> V and their GM with the other pipes' transfers.
// A2A3 also pairs an NZ table (shape (s0, s1, s2, 16, C0)) with an NZ tile: its logical rows are the
// s2 * 16 fractal rows, its columns the s0 * s1 * C0 ones (GmView::map). Row mode moves whole logical
// rows (every column, whatever the tile's valid width; GatherOOB::Zero first zeroes the whole tile);
// Elem mode maps a flat logical index (row * columns + column) through the NZ strides and walks the tile
// by column blocks, rows, then the block's columns. The L1 (Mat) form arrives with the cube.
#pragma once
#include <cstdint>
#include <type_traits>

#include <pto/isa/enums.hpp>
#include <pto/isa/global_tensor.hpp>
#include <pto/isa/instr_desc.hpp>
#include <pto/isa/operand.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {

namespace detail {
template <class TileT, class Idx, class G>
constexpr void static_check_gm_indexed() {
  using T = typename TileT::DType;
  using I = typename Idx::DType;
  static_assert(TileT::Loc == TileType::Vec,
                "MGATHER / MSCATTER: the data tile must be a Vec (UB) tile (the Mat / L1 form arrives with the cube)");
  static_assert(Idx::Loc == TileType::Vec, "MGATHER / MSCATTER: idx must be a Vec (UB) tile");
  static_assert(!Idx::isBoxedLayout, "MGATHER / MSCATTER: idx must be an ND (SLayout::NoneBox) tile");
  constexpr bool nz_tile = !TileT::isRowMajor && TileT::isInnerRowMajor && TileT::SFractalSize == 512;
  static_assert(G::layout == Layout::ND || G::layout == Layout::NZ, "MGATHER / MSCATTER: the table must be an ND or (A2A3) NZ GlobalTensor");
  static_assert((G::layout == Layout::ND && !TileT::isBoxedLayout) || (G::layout == Layout::NZ && nz_tile),
                "MGATHER / MSCATTER: an ND table pairs with an ND tile (SLayout::NoneBox), an NZ table (A2A3) with an NZ tile "
                "(BLayout::ColMajor, SLayout::RowMajor, SFractalSize 512)");
  static_assert(std::is_same_v<std::remove_cv_t<typename G::DType>, T>,
                "MGATHER / MSCATTER: the table's element type must be the tile's");
  static_assert(std::is_same_v<I, std::int32_t> || std::is_same_v<I, std::uint32_t>,
                "MGATHER / MSCATTER: idx must be an int32_t or uint32_t tile");
  static_assert(sizeof(T) <= 4, "MGATHER / MSCATTER: 64-bit elements are not supported (the NPUs' dtype lists)");
  if constexpr (G::layout == Layout::NZ) {
    static_assert(G::ShapeType::kStatic[3] == 16 && G::ShapeType::kStatic[4] == int(32 / sizeof(T)),
                  "MGATHER / MSCATTER: an NZ table's static shape dimensions 3 and 4 must be 16 and C0 = 32 / sizeof(T)");
    static_assert(TileT::Rows % 16 == 0 && TileT::Cols % int(32 / sizeof(T)) == 0,
                  "MGATHER / MSCATTER: an NZ tile's Rows must be a multiple of 16 and its Cols of C0 = 32 / sizeof(T)");
  }
}

// The NZ form (A2A3): the table's view stays whole (each index maps through its strides). Row mode: one
// index per row in a 1 x R line, fractal rows of C0 contiguous elements, whole logical rows that fit the
// tile.
inline void check_gm_indexed_nz(const InstrDesc& d, const char* data, const TileView& t, const GmView& g, const TileView& x,
                                bool elem, Target target) {
  if (target != Target::A2A3)
    fail(d.name, ": operand table ", g, ": A5 takes ND tables only (its MGatherCheck / MScatterCheck); the NZ pairing is A2A3's");
  if (!x.row_major) fail(d.name, ": operand idx ", x, ": A2A3 takes a RowMajor index tile");
  if (elem) {
    if (!same_valid(t, x))
      fail(d.name, ": operand idx ", x, ": Coalesce::Elem takes one index per element, so idx's valid region must be ", data,
           "'s ", t.valid_rows, 'x', t.valid_cols);
    return;
  }
  if (!(x.valid_rows == 1 && x.valid_cols == t.valid_rows))
    fail(d.name, ": operand idx ", x, ": Coalesce::Row takes one index per row of ", data, " (", t.valid_rows, "): a RowMajor 1x",
         t.valid_rows, " tile");
  if (g.stride[4] != 1) fail(d.name, ": operand table ", g, ": a fractal row moves as one burst of C0 elements, so stride dimension 4 must be 1");
  if (g.stride[1] < g.shape[4])
    fail(d.name, ": operand table ", g, ": the chip's gap between column blocks is stride dimension 1 minus C0 (", g.shape[4],
         "), an unsigned count: stride dimension 1 must be at least C0");
  if (g.tile_cols() > t.cols)
    fail(d.name, ": operand ", data, " ", t, ": the chip moves whole logical rows of the NZ table, ", g.tile_cols(),
         " elements (shape dimensions 0, 1 and 4), more than its ", t.cols, " columns");
}

// The rules both share, on the records' views: the index tile's shape for the mode, the data tile's
// layout per target, the table's row for the mode. The table's view becomes what the chip addresses: Row
// mode `count` rows of dst's valid columns at the target's row step, Elem mode `count` flat elements (the
// bytes the checker, auto mode and the GM bounds see; the kernel indexes that view).
inline void check_gm_indexed(const InstrDesc& d, const char* data, const TileView& t, GmView& g, const TileView& x,
                             bool elem, Target target) {
  const int R = t.valid_rows, C = t.valid_cols;
  if (R < 1 || C < 1) fail(d.name, ": operand ", data, " ", t, ": the valid region must have at least one row and column");
  if (g.layout == Layout::NZ) {
    check_gm_indexed_nz(d, data, t, g, x, elem, target);
    return;
  }
  if (target == Target::A2A3 && (!t.row_major || !x.row_major))
    fail(d.name, ": operand ", t.row_major ? "idx " : data, " ", t.row_major ? x : t, ": A2A3 takes RowMajor tiles with an ND "
         "table (A5 addresses ColMajor ones too)");
  GmView v = g;
  for (int k = 0; k < 5; ++k) v.shape[k] = v.stride[k] = 1;
  if (elem) {
    if (!same_valid(t, x))
      fail(d.name, ": operand idx ", x, ": Coalesce::Elem takes one index per element, so idx's valid region must be ", data,
           "'s ", R, 'x', C);
    v.shape[4] = g.shape[0] * g.shape[1] * g.shape[2] * g.shape[3] * g.shape[4];
    g = v;
    return;
  }
  const bool line = x.valid_rows == 1 && x.valid_cols == R && x.row_major;
  const bool column = x.valid_rows == R && x.valid_cols == 1 && !x.row_major && target == Target::A5;
  if (!line && !column)
    fail(d.name, ": operand idx ", x, ": Coalesce::Row takes one index per row of ", data, " (", R, "): a RowMajor 1x", R,
         " tile", target == Target::A5 ? " or a ColMajor Rx1 one" : " (A5 also takes a ColMajor column)");
  if (g.stride[4] != 1) fail(d.name, ": operand table ", g, ": a row moves as one burst, so stride dimension 4 must be 1");
  if (target == Target::A5 && g.shape[4] != C)
    fail(d.name, ": operand table ", g, ": A5 addresses table row i at i * ", C, " (", data, "'s valid columns), so shape "
         "dimension 4 must be ", C, " (its MGatherCheck / MScatterCheck)");
  if (target == Target::A2A3 && g.shape[4] < C)
    fail(d.name, ": operand table ", g, ": its rows have ", g.shape[4], " elements, fewer than ", data, "'s ", C,
         " valid columns (the chip's burst would run into the next row)");
  // A2A3: s0*s1*s2*s3 rows at stride 3 (its tableRows and tableRowStride); A5: shape[3] packed rows.
  v.shape[3] = target == Target::A5 ? g.shape[3] : g.shape[0] * g.shape[1] * g.shape[2] * g.shape[3];
  v.stride[3] = target == Target::A5 ? C : g.stride[3];
  v.shape[4] = C;
  g = v;
}
}  // namespace detail

template <Coalesce CMode = Coalesce::Row, GatherOOB Oob = GatherOOB::Undefined, class Dst, class Table, class Idx, class... W>
  requires TileLike<Dst> && GlobalLike<Table> && TileLike<Idx> && (detail::WaitEvent<W> && ...)
detail::Issue MGATHER(Dst& dst, Table& table, Idx& idx, W&... events) {
  using namespace detail;
  static_check_gm_indexed<Dst, Idx, Table>();
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::MGATHER>());
  add_tile(core, rec, dst);
  add_gm(rec, table);
  add_tile(core, rec, idx);
  const Target target = core_target(core);
  check_dtype(*rec.desc, rec.ops[0].tile.dtype, target);
  check_gm_indexed(*rec.desc, "dst", rec.ops[0].tile, rec.ops[1].gm, rec.ops[2].tile, CMode == Coalesce::Elem, target);
  if constexpr (Table::layout == Layout::NZ && CMode == Coalesce::Row) {  // what is written: whole rows, or (Zero) the tile
    TileView& o = rec.ops[0].tile;
    o.valid_cols = int(rec.ops[1].gm.tile_cols());
    if (Oob == GatherOOB::Zero) o.valid_rows = o.rows, o.valid_cols = o.cols;
  }
  rec.variant = std::uint8_t((CMode == Coalesce::Elem ? kVariantElem : 0) | (std::uint8_t(Oob) << kVariantOobShift));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

template <Coalesce CMode = Coalesce::Row, ScatterAtomicOp Atomic = ScatterAtomicOp::None, ScatterOOB Oob = ScatterOOB::Undefined,
          ScatterConflict Conflict = ScatterConflict::Last, class Table, class Src, class Idx, class... W>
  requires GlobalLike<Table> && TileLike<Src> && TileLike<Idx> && (detail::WaitEvent<W> && ...)
detail::Issue MSCATTER(Table& table, Src& src, Idx& idx, W&... events) {
  using namespace detail;
  static_check_gm_indexed<Src, Idx, Table>();
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::MSCATTER>());
  add_gm(rec, table);
  add_tile(core, rec, src);
  add_tile(core, rec, idx);
  const Target target = core_target(core);
  const InstrDesc& d = *rec.desc;
  const TileView& s = rec.ops[1].tile;
  check_dtype(d, "src", s.dtype, target, d.dtypes);
  check_gm_indexed(d, "src", s, rec.ops[0].gm, rec.ops[2].tile, CMode == Coalesce::Elem, target);
  if constexpr (Table::layout == Layout::NZ && CMode == Coalesce::Row)
    rec.ops[1].tile.valid_cols = int(rec.ops[0].gm.tile_cols());  // whole logical rows are read
  if constexpr (Atomic != ScatterAtomicOp::None) {
    using D = DType;
    const DTypeSet ok = Atomic == ScatterAtomicOp::Add
                            ? (target == Target::A2A3 ? DTypeSet{D::I8, D::I16, D::I32, D::F16, D::BF16, D::F32}
                                                      : DTypeSet{D::I32, D::U32, D::F32, D::F16, D::BF16})
                            : (target == Target::A2A3 ? DTypeSet{} : DTypeSet{D::I32, D::U32, D::F32});
    if (!ok.has(s.dtype))
      fail(d.name, ": operand src dtype ", name_of(s.dtype), ": atomic ", Atomic == ScatterAtomicOp::Add ? "Add" : Atomic == ScatterAtomicOp::Max ? "Max" : "Min",
           " on ", name_of(target), ok.empty() ? " does not exist (A2A3's MTE3 has an atomic add only)" : " takes ", dtype_list(ok));
  }
  (void)Conflict;  // Last and the scheduler's Default both keep the later element here (see the top)
  rec.variant = std::uint8_t((CMode == Coalesce::Elem ? kVariantElem : 0) | (std::uint8_t(Oob) << kVariantOobShift) |
                             (std::uint8_t(Atomic) << kVariantAtomicShift));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

}  // namespace pto
