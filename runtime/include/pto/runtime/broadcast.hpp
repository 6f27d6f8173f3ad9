// The TCOLEXPAND and TROWEXPAND families (spec §2.1, §2.2): compile-time rules, role selection by
// valid shape, per-target dtype sets, then one record for the backend.
#pragma once
#include <type_traits>

#include <pto/common/constants.hpp>
#include <pto/isa/instr_desc.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {

namespace detail {
template <class Dst, class... Srcs>
constexpr void static_check_bcast() {
  static_assert(((Dst::Loc == TileType::Vec) && ... && (Srcs::Loc == TileType::Vec)),
                "TCOLEXPAND*/TROWEXPAND*: every operand must be a Vec tile");
  static_assert((std::is_same_v<typename Dst::DType, typename Srcs::DType> && ...),
                "TCOLEXPAND*/TROWEXPAND*: dst, src0 and src1 must have the same DType");
  static_assert(Dst::isRowMajor && !Dst::isBoxedLayout, "TCOLEXPAND*/TROWEXPAND*: dst must be a RowMajor NoneBox tile");
}

// The record of a binary broadcast: dst, src0, src1 checked and placed, the dtype rule applied.
template <Op O, class Dst, class S0, class S1>
InstrRecord bcast_record(Core& core, Dst& dst, S0& src0, S1& src1) {
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src0);
  add_tile(core, rec, src1);
  check_dtype(*rec.desc, rec.ops[0].tile.dtype, core_target(core));
  return rec;
}

// ---- column family ----
// TCOLEXPAND* (dst, src0, src1) on the views, after the dtype rule (shared with the PTO IR reader): the
// role selection (A2A3/A5 TCOLEXPANDOP_IMPL: src0 is the full operand iff its valid shape is dst's).
inline void colexpand_checks(InstrRecord& rec) {
  const InstrDesc& d = *rec.desc;
  const TileView &tv = rec.ops[0].tile, &t0 = rec.ops[1].tile, &t1 = rec.ops[2].tile;
  const bool src0_full = same_valid(t0, tv);
  const TileView& full = src0_full ? t0 : t1;
  const TileView& vec = src0_full ? t1 : t0;
  if (!same_valid(full, tv))
    fail(d.name, ": neither operand src0 ", t0, " nor operand src1 ", t1, " has dst's valid shape ", tv.valid_rows, 'x',
         tv.valid_cols, "; one of them must be the full operand");
  if (vec.valid_rows < 1 || vec.valid_cols < tv.valid_cols)
    fail(d.name, ": operand ", src0_full ? "src1 " : "src0 ", vec, " must provide one value per column of dst (",
         tv.valid_cols, " columns in row 0)");
  if (!src0_full) rec.variant |= kVariantSwap;
}

template <Op O, class Dst, class S0, class S1, class... W>
Issue colexpand_op(Dst& dst, S0& src0, S1& src1, W&... events) {
  static_check_bcast<Dst, S0, S1>();
  static_assert(S0::isRowMajor && S1::isRowMajor && !S0::isBoxedLayout && !S1::isBoxedLayout,
                "TCOLEXPAND*: src0 and src1 must be RowMajor NoneBox tiles (the per-column operand is read by rows)");
  Core& core = current_core();
  InstrRecord rec = bcast_record<O>(core, dst, src0, src1);
  colexpand_checks(rec);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

// ---- row family ----
// Where the chips read the expand operand E (docs/device-paths.md, "The expand operand"). Mode 2 (E
// RowMajor, one 32-byte block per row): row i's block is the 32 bytes at byte 32 * i from E's base on
// both chips, whatever E's row stride, and the CPU reference reads the same bytes. The one exception
// is A2/A3 with 256 or more rows (dst_rows: dst's static Rows): its 255-row chunks step E by 255 rows of
// E's row stride, so an E with a wider row stride is read in two different ways. Mode 1 (E ColMajor):
// A2/A3's vbrcb reads column 0; A5 reads row i's value at element i * Cols, column 0 only when E has
// one column. Those two cases would give another result than the CPU reference: errors.
inline void check_expand_operand_reading(const InstrDesc& d, const char* e_name, const TileView& e, const TileView& dst,
                                         int dst_rows, Target target) {
  const std::size_t es = e.elem_bytes(), row_bytes = std::size_t(e.row_stride) * es;
  if (e.row_major && row_bytes != 32 && target == Target::A2A3 && dst_rows >= 256 && dst.valid_rows >= 256)
    fail(d.name, ": operand ", e_name, " ", e, " is the expand operand, with rows ", row_bytes,
         " bytes apart: the A2A3 mode-2 algorithm reads row i's 32-byte block at byte 32 * i inside each 255-row chunk but "
         "steps 255 rows of ", row_bytes, " bytes between chunks, so for ", dst.valid_rows,
         " rows it would read two different layouts (give the expand operand one 32-byte block per row: Cols == ", 32 / es, ")");
  if (!e.row_major && e.cols != 1 && target == Target::A5)
    fail(d.name, ": operand ", e_name, " ", e, " is the expand operand: the A5 algorithm reads row i's value at element i * Cols (i * ",
         e.cols, ") of a ColMajor tile, which is column 0 only when the tile has one column (use a [R, 1] ColMajor tile)");
}

// TROWEXPAND* (dst, src0, src1[, tmp]) on the views, after the dtype rule (shared with the PTO IR
// reader): which operand is full, the expand operand's mode, and the reading rules of both chips.
struct RowExpandRoles {
  bool src0_full = false, mode2 = false;
};
inline RowExpandRoles rowexpand_checks(InstrRecord& rec, Target target, bool has_tmp) {
  const InstrDesc& d = *rec.desc;
  const TileView &tv = rec.ops[0].tile, &t0 = rec.ops[1].tile, &t1 = rec.ops[2].tile;
  bool src0_full = same_valid(t0, tv);
  const bool src1_full = same_valid(t1, tv);
  // A2A3's 3-argument forms break a tie (C == 1 or C == 32/sizeof) by the larger static row stride.
  if (src0_full && src1_full && !has_tmp && target == Target::A2A3) src0_full = t0.row_stride >= t1.row_stride;
  if (!((src0_full && t0.row_major) || (!src0_full && src1_full && t1.row_major)))
    fail(d.name, ": neither operand src0 ", t0, " nor operand src1 ", t1, " is a RowMajor tile with dst's valid shape ",
         tv.valid_rows, 'x', tv.valid_cols, "; one of them must be the full operand");
  const TileView& e = src0_full ? t1 : t0;
  const char* e_name = src0_full ? "src1" : "src0";
  const int block = int(32 / e.elem_bytes());
  const bool mode2 = e.row_major;
  if (e.valid_rows != tv.valid_rows || (mode2 ? e.valid_cols != block : e.valid_cols != 1))
    fail(d.name, ": operand ", e_name, " ", e, " is the expand operand; it needs ", tv.valid_rows, " valid rows and ",
         mode2 ? "one 32-byte block per row (valid cols " : "one value per row (ColMajor, valid cols ",
         mode2 ? block : 1, ")");
  if (!src0_full) rec.variant |= kVariantSwap;
  if (mode2) rec.variant |= kVariantMode2;
  check_expand_operand_reading(d, e_name, e, tv, tv.rows, target);
  // A5's 1-D loop (dst Cols under one register, its valid width static and whole) reads the full
  // operand at row * validCol, as if its rows were dst's.
  const TileView& full = src0_full ? t0 : t1;
  if (target == Target::A5 && std::size_t(tv.cols) * tv.elem_bytes() < 256 && tv.static_full_cols() && tv.rows > 1 &&
      tv.valid_rows > 1 && full.row_stride != tv.valid_cols)
    fail(d.name, ": operand ", src0_full ? "src0 " : "src1 ", full, " is the full operand, with rows ", full.row_stride,
         " elements apart: the A5 algorithm's 1-D loop (dst's static valid width ", tv.valid_cols,
         " is its Cols, under one 256-byte register) reads it at row * ", tv.valid_cols, " (give it dst's Cols)");
  if (has_tmp && target == Target::A2A3 && mode2)
    fail(d.name, ": operand ", e_name, " ", e, ": the tmp-tile form on A2A3 needs a ColMajor (mode 1) expand operand");
  return {src0_full, mode2};
}
// The 3-argument form with a ColMajor expand operand on A2A3: the chip's scratch at UB [184 KiB, 192 KiB).
inline void rowexpand_scratch(Core& core, const InstrRecord& rec) {
  const InstrDesc& d = *rec.desc;
  for (int i = 0; i < 3; ++i) {  // an operand inside the scratch would be overwritten by the chip
    const TileView& o = rec.ops[i].tile;
    const std::size_t lo = o.offset, hi = o.offset + o.capacity_bytes();
    if (core_mode(core) != Mode::Auto && hi > TMP_UB_OFFSET && lo < TMP_UB_OFFSET + TMP_UB_SIZE)
      fail(d.name, ": operand ", d.operands[i].name, " ", o, " at UB offset ", lo,
           " overlaps UB [184 KiB, 192 KiB), which the 3-argument form with a ColMajor expand operand uses as "
           "scratch on A2A3; place the tile below 184 KiB or pass a tmp tile");
  }
  claim_a2a3_scratch(core, d.name);
}

// Bytes of the A2/A3 vbrcb scratch a mode-1 expansion of R rows uses (spec §2.2 tmp tile).
constexpr std::size_t rowexpand_tmp_bytes(int rows) { return rows < 256 ? std::size_t((rows + 7) / 8) * 256 : 30 * 256; }

template <Op O, bool HasTmp, class Dst, class S0, class S1, class Tmp, class... W>
Issue rowexpand_op(Dst& dst, S0& src0, S1& src1, Tmp* tmp, W&... events) {
  static_check_bcast<Dst, S0, S1>();
  static_assert(!S0::isBoxedLayout && !S1::isBoxedLayout, "TROWEXPAND*: src0 and src1 must be NoneBox tiles");
  Core& core = current_core();
  const Target target = core_target(core);
  InstrRecord rec = bcast_record<O>(core, dst, src0, src1);
  const InstrDesc& d = *rec.desc;
  const RowExpandRoles roles = rowexpand_checks(rec, target, HasTmp);
  const TileView& tv = rec.ops[0].tile;
  const TileView& e = roles.src0_full ? rec.ops[2].tile : rec.ops[1].tile;
  const char* e_name = roles.src0_full ? "src1" : "src0";
  const bool mode2 = roles.mode2;
  if (target == Target::A2A3 && !mode2) {
    if constexpr (HasTmp) {  // vbrcb writes ceil(R/8) 256-byte repeats (30 at most, reused) into tmp
      // Only the tmp tile's address matters (spec §2.2): the chip writes `need` bytes from it whatever
      // the tile's declared shape (the reference tests pass an E-shaped tile). Those bytes are this
      // instruction's write footprint; they must lie inside UB.
      const std::size_t need = rowexpand_tmp_bytes(tv.valid_rows);
      TileView t = tmp->view();
      if (t.base == nullptr)
        fail(d.name, ": operand tmp ", t, ": the tile has no buffer address; call TASSIGN first");
      if (core_mode(core) != Mode::Auto && t.offset + need > buffer_bytes(core, TileType::Vec))
        fail(d.name, ": operand tmp ", t, " at UB offset ", t.offset, ": A2A3 writes ", need, " bytes of vbrcb scratch from there (",
             tv.valid_rows, " rows), beyond the ", buffer_bytes(core, TileType::Vec) / 1024, " KiB UB");
      Operand& o = rec.ops[rec.nops++];
      o.kind = Operand::Kind::Tile;
      o.role = Role::Write;
      o.tile = byte_run(t, need);
    } else {
      rowexpand_scratch(core, rec);
    }
  }
  (void)e;
  (void)e_name;
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

struct NoTmp {
  static constexpr std::size_t GetSizeInBytes() { return 0; }
  TileView view() const { return {}; }
};
}  // namespace detail

// ---------------------------------------------------------------------------------------------------
// TCOLEXPAND(dst, src): dst[i][j] = src[0][j].
template <class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src>
detail::Issue TCOLEXPAND(Dst& dst, Src& src, W&... events) {
  using namespace detail;
  static_check_bcast<Dst, Src>();
  static_assert(Src::isRowMajor && !Src::isBoxedLayout, "TCOLEXPAND: src must be a RowMajor NoneBox tile");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TCOLEXPAND>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  const TileView &d = rec.ops[0].tile, &s = rec.ops[1].tile;
  check_elem_bytes(*rec.desc, "dst", d.dtype, core_target(core));
  if (s.valid_rows < 1 || (core_target(core) == Target::A5 ? s.valid_cols != d.valid_cols : s.valid_cols < d.valid_cols))
    fail("TCOLEXPAND: operand src ", s, " must have a valid row 0 ",
         core_target(core) == Target::A5 ? "with exactly" : "covering", " dst's ", d.valid_cols, " valid columns");
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

#define PTO_COLEXPAND_OP(NAME)                                                                  \
  template <class Dst, class S0, class S1, class... W>                                           \
    requires TileLike<Dst> && TileLike<S0> && TileLike<S1>                                       \
  detail::Issue NAME(Dst& dst, S0& src0, S1& src1, W&... events) {                               \
    return detail::colexpand_op<Op::NAME>(dst, src0, src1, events...);                           \
  }
PTO_COLEXPAND_OP(TCOLEXPANDADD)
PTO_COLEXPAND_OP(TCOLEXPANDSUB)
PTO_COLEXPAND_OP(TCOLEXPANDMUL)
PTO_COLEXPAND_OP(TCOLEXPANDMAX)
PTO_COLEXPAND_OP(TCOLEXPANDMIN)
PTO_COLEXPAND_OP(TCOLEXPANDEXPDIF)
#undef PTO_COLEXPAND_OP

// PrecisionType (DivAlgorithm) only changes the A5 device algorithm; every CPU result is IEEE division.
template <auto PrecisionType = DivAlgorithm::DEFAULT, class Dst, class S0, class S1, class... W>
  requires TileLike<Dst> && TileLike<S0> && TileLike<S1>
detail::Issue TCOLEXPANDDIV(Dst& dst, S0& src0, S1& src1, W&... events) {
  return detail::colexpand_op<Op::TCOLEXPANDDIV>(dst, src0, src1, events...);
}

// TROWEXPAND(dst, src): dst[i][j] = src[i][0].
template <class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src>
detail::Issue TROWEXPAND(Dst& dst, Src& src, W&... events) {
  using namespace detail;
  static_check_bcast<Dst, Src>();
  static_assert(!Src::isBoxedLayout, "TROWEXPAND: src must be a NoneBox tile");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TROWEXPAND>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  const TileView &d = rec.ops[0].tile, &s = rec.ops[1].tile;
  check_elem_bytes(*rec.desc, "dst", d.dtype, core_target(core));
  if (d.valid_rows == 0 || d.valid_cols == 0)
    fail("TROWEXPAND: operand dst ", d, ": the valid shape must not be empty");
  if (s.valid_rows != d.valid_rows || s.valid_cols == 0)
    fail("TROWEXPAND: operand src ", s, " must have dst's ", d.valid_rows, " valid rows and a valid column 0 (dst ", d, ")");
  if (!s.row_major && s.cols != 1 && core_target(core) == Target::A5)  // as for the expand operand of TROWEXPAND*
    fail("TROWEXPAND: operand src ", s, ": the A5 algorithm reads row i's value at element i * Cols (i * ", s.cols,
         ") of a ColMajor tile, which is column 0 only when the tile has one column (use a [R, 1] ColMajor tile)");
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

#define PTO_ROWEXPAND_OP(NAME)                                                                            \
  template <class Dst, class S0, class S1, class... W>                                                     \
    requires TileLike<Dst> && TileLike<S0> && TileLike<S1> && (!TileLike<W> && ...)                        \
  detail::Issue NAME(Dst& dst, S0& src0, S1& src1, W&... events) {                                         \
    return detail::rowexpand_op<Op::NAME, false>(dst, src0, src1, static_cast<detail::NoTmp*>(nullptr), events...); \
  }                                                                                                        \
  template <class Dst, class S0, class S1, class Tmp, class... W>                                          \
    requires TileLike<Dst> && TileLike<S0> && TileLike<S1> && TileLike<Tmp>                                \
  detail::Issue NAME(Dst& dst, S0& src0, S1& src1, Tmp& tmp, W&... events) {                               \
    return detail::rowexpand_op<Op::NAME, true>(dst, src0, src1, &tmp, events...);                         \
  }
PTO_ROWEXPAND_OP(TROWEXPANDADD)
PTO_ROWEXPAND_OP(TROWEXPANDSUB)
PTO_ROWEXPAND_OP(TROWEXPANDMUL)
PTO_ROWEXPAND_OP(TROWEXPANDMAX)
PTO_ROWEXPAND_OP(TROWEXPANDMIN)
PTO_ROWEXPAND_OP(TROWEXPANDEXPDIF)
#undef PTO_ROWEXPAND_OP

template <auto PrecisionType = DivAlgorithm::DEFAULT, class Dst, class S0, class S1, class... W>
  requires TileLike<Dst> && TileLike<S0> && TileLike<S1> && (!TileLike<W> && ...)
detail::Issue TROWEXPANDDIV(Dst& dst, S0& src0, S1& src1, W&... events) {
  return detail::rowexpand_op<Op::TROWEXPANDDIV, false>(dst, src0, src1, static_cast<detail::NoTmp*>(nullptr), events...);
}
template <auto PrecisionType = DivAlgorithm::DEFAULT, class Dst, class S0, class S1, class Tmp, class... W>
  requires TileLike<Dst> && TileLike<S0> && TileLike<S1> && TileLike<Tmp>
detail::Issue TROWEXPANDDIV(Dst& dst, S0& src0, S1& src1, Tmp& tmp, W&... events) {
  return detail::rowexpand_op<Op::TROWEXPANDDIV, true>(dst, src0, src1, &tmp, events...);
}

}  // namespace pto
