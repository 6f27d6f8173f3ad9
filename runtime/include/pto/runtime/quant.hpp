// TQUANT (INT8 and MX forms) and TDEQUANT (pto-isa docs/isa/TQUANT.md, TDEQUANT.md; the NPU code a2a3
// TQuant.hpp, a5 TQuant.hpp, a2a3 TDequant.hpp, a5 TDeQuant.hpp). Of the MX forms (A5) the ND grouping
// (groups of 32 columns) and the DN grouping (groups of 32 rows, linear or interleaved exponents) are
// modelled: MXFP8 from float / bfloat16 / half, MXFP4 from bfloat16 / half, OCP and NV scales. The ZZ
// exponent store is not an A5 form.
//
// TQUANT<INT8_SYM>(dst, src, scale[, tmp]) and TQUANT<INT8_ASYM>(dst, src, scale[, tmp], &offset): per
// valid element, v = src * scale[r] (+ offset[r]) in float, then dst = v rounded to nearest-even and
// saturated to int8 (SYM) or uint8 (ASYM); NaN gives 0. `scale` multiplies: it is the reciprocal of the
// quantisation step (the chips multiply; the ISA page writes x / scale). scale and offset hold one float
// per valid row of src (ColMajor, column 0).
//  - A2A3 runs the chain in place (TROWEXPANDMUL / TROWEXPANDADD into src, then fp32 -> s32 into tmp,
//    s32 -> fp16 back into src's bytes, fp16 -> int8 into dst): afterwards src holds the scaled values
//    with the fp16 codes over them, tmp the rounded int32s. It needs the tmp form (its only one) with a
//    tmp of src's size.
//  - A5 reads src and ignores tmp.
//
// TDEQUANT(dst, src, scale, offset): dst = (float(src) - offset[r]) * scale[r] in float, src int8 or
// int16, dst float; the parameters are read at column 0 of each row (element r * RowStride).
#pragma once
#include <cstdint>
#include <type_traits>

#include <pto/isa/dtype.hpp>
#include <pto/isa/enums.hpp>
#include <pto/isa/instr_desc.hpp>
#include <pto/isa/operand.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/broadcast.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {
namespace detail {

template <QuantType Q, class Dst, class Src, class Para>
constexpr void static_check_quant_int8() {
  static_assert(Q == QuantType::INT8_SYM || Q == QuantType::INT8_ASYM,
                "TQUANT: the (dst, src, scale[, tmp][, offset]) form is INT8_SYM or INT8_ASYM (the MX forms "
                "(dst, src, &exp, &max, &scaling) are not modelled yet)");
  static_assert(std::is_same_v<typename Src::DType, float>, "TQUANT: INT8 src must be float (fp32)");
  static_assert(Q != QuantType::INT8_SYM || std::is_same_v<typename Dst::DType, std::int8_t>,
                "TQUANT: INT8_SYM dst must be int8_t");
  static_assert(Q != QuantType::INT8_ASYM || std::is_same_v<typename Dst::DType, std::uint8_t>,
                "TQUANT: INT8_ASYM dst must be uint8_t");
  static_assert(std::is_same_v<typename Para::DType, float>, "TQUANT: scale and offset must be float tiles");
  static_assert(kVecRowMajor<Dst, Src>, "TQUANT: dst and src must be RowMajor NoneBox Vec tiles");
  static_assert(Para::Loc == TileType::Vec && !Para::isRowMajor && !Para::isBoxedLayout,
                "TQUANT: scale and offset must be ColMajor NoneBox Vec tiles (one float per row of src)");
}

// A per-row parameter (scale / offset): one value for each of src's valid rows, read from column 0.
inline void check_row_param(const InstrDesc& d, const char* name, TileView& p, int rows, bool one_col) {
  if (p.valid_rows != rows || (one_col && p.valid_cols != 1))
    fail(d.name, ": operand ", name, " ", p, " must hold one value per valid row of src: valid shape ", rows,
         one_col ? "x1" : "xN", " (column 0 is read)");
  p.valid_cols = 1;
}

template <QuantType Q, bool HasTmp, class Dst, class Src, class Para, class Tmp, class... W>
Issue quant_int8(Dst& dst, Src& src, Para& scale, Tmp* tmp, Para* offset, W&... events) {
  static_check_quant_int8<Q, Dst, Src, Para>();
  constexpr bool asym = Q == QuantType::INT8_ASYM;
  Core& core = current_core();
  const Target target = core_target(core);
  InstrRecord rec = compute_record(desc_of<asym ? Op::TQUANT_ASYM : Op::TQUANT>());
  const InstrDesc& d = *rec.desc;
  if (asym && offset == nullptr) fail(d.name, ": INT8_ASYM needs an offset tile (pass &offset)");
  if (!asym && offset != nullptr)
    fail(d.name, ": INT8_SYM takes no offset (the chips ignore it); use INT8_ASYM for a zero point");
  if (target == Target::A2A3 && !HasTmp)
    fail(d.name, ": A2A3 needs the tmp form TQUANT<Q>(dst, src, scale, tmp[, &offset]): its cast chain runs through a "
         "float tmp of src's size (pto-isa a2a3 TQuant.hpp has no other)");
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  add_tile(core, rec, scale);
  if constexpr (asym) add_tile(core, rec, *offset);
  TileView &o = rec.ops[0].tile, &s = rec.ops[1].tile;
  check_same_valid(d, "src", s, "dst", o);
  const bool a2a3 = target == Target::A2A3;
  check_row_param(d, "scale", rec.ops[2].tile, s.valid_rows, a2a3);
  if constexpr (asym) check_row_param(d, "offset", rec.ops[3].tile, s.valid_rows, a2a3);
  if (a2a3) {
    // src is rewritten in its valid rows, whole: the fp16 codes land at row stride ceil(Cols/16)*16.
    s.valid_cols = s.cols;
    if constexpr (HasTmp) {
      TileView t = tmp->view();
      const std::size_t need = std::max(rowexpand_tmp_bytes(s.valid_rows), std::size_t(s.valid_rows) * std::size_t(s.cols) * 4);
      if (t.base == nullptr) fail(d.name, ": operand tmp ", t, ": the tile has no buffer address; call TASSIGN first");
      if (t.capacity_bytes() < need)
        fail(d.name, ": operand tmp ", t, " holds ", t.capacity_bytes(), " bytes; A2A3 writes ", need,
             " there (the int32 copy of src's ", s.valid_rows, " valid rows of ", s.cols, " columns)");
      Operand& x = rec.ops[rec.nops++];
      x.kind = Operand::Kind::Tile;
      x.role = Role::Write;
      x.tile = byte_run(t, need);
      rec.variant |= kVariantQuantTmp;
    }
  } else {
    rec.ops[1].role = Role::Read;  // A5 reads src and leaves tmp alone
  }
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

template <QuantType Q, class Dst, class Src, class Exp, class Max, class Scaling, bool Nd = true>
constexpr void static_check_quant_mx() {
  using S = typename Src::DType;
  using D = typename Dst::DType;
  constexpr bool fp4 = Q == QuantType::MXFP4_E2M1;
  static_assert(Q == QuantType::MXFP8 || fp4, "TQUANT: the (dst, src, &exp, &max, &scaling) form is MXFP8 or MXFP4_E2M1");
  static_assert(fp4 || std::is_same_v<S, float> || std::is_same_v<S, bfloat16_t> || std::is_same_v<S, half>,
                "TQUANT: MXFP8 src must be float, bfloat16_t or half");
  static_assert(!fp4 || std::is_same_v<S, bfloat16_t> || std::is_same_v<S, half>,
                "TQUANT: MXFP4_E2M1 src must be bfloat16_t or half (A5 has no float path for it)");
  static_assert(fp4 || std::is_same_v<D, std::int8_t> || std::is_same_v<D, std::uint8_t> || std::is_same_v<D, float8_e4m3_t>,
                "TQUANT: MXFP8 dst holds e4m3 codes: int8_t, uint8_t or float8_e4m3_t");
  static_assert(!fp4 || std::is_same_v<D, float4_e2m1x2_t>, "TQUANT: MXFP4_E2M1 dst must be float4_e2m1x2_t (two codes a byte)");
  static_assert(std::is_same_v<typename Exp::DType, std::uint8_t> || std::is_same_v<typename Exp::DType, float8_e8m0_t>,
                "TQUANT: exp holds one E8M0 byte per group: uint8_t or float8_e8m0_t");
  static_assert(std::is_same_v<typename Max::DType, S> && std::is_same_v<typename Scaling::DType, S>,
                "TQUANT: max and scaling are scratch of src's element type (the chip writes them so)");
  static_assert(kVecRowMajor<Dst, Src> && kVecRowMajor<Exp, Max> && kVecRowMajor<Scaling, Scaling>,
                "TQUANT: the MX operands must be RowMajor NoneBox Vec tiles (ND; the NZ / ZZ layouts come from TMOV)");
  static_assert(!Nd || Src::Cols % 32 == 0, "TQUANT: the ND MX forms group 32 columns: src's Cols must be a multiple of 32");
}

template <QuantType Q, QuantScaleAlg A, class Dst, class Src, class Exp, class Max, class Scaling, class... W>
Issue quant_mx(Dst& dst, Src& src, Exp& exp, Max& max, Scaling& scaling, W&... events) {
  static_check_quant_mx<Q, Dst, Src, Exp, Max, Scaling>();
  constexpr bool fp4 = Q == QuantType::MXFP4_E2M1, nv = A == QuantScaleAlg::NV, exp2d = Exp::Rows > 1;
  constexpr bool b16 = !std::is_same_v<typename Src::DType, float>;
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TQUANT_MX>());
  const InstrDesc& d = *rec.desc;
  if (core_target(core) != Target::A5)
    fail(d.name, ": the MX forms (MXFP8, MXFP4_E2M1) exist on A5 only; A2A3's TQUANT has INT8_SYM and INT8_ASYM");
  if constexpr (fp4 && nv && !exp2d)
    fail(d.name, ": operand exp has one row: A5's flat-exp MXFP4 path computes OCP exponents whatever the scale "
         "algorithm (pto-isa a5 TQuant.hpp), so NV needs an exp tile of several rows (one per row of src)");
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  add_tile(core, rec, exp);
  add_tile(core, rec, max);
  add_tile(core, rec, scaling);
  TileView &o = rec.ops[0].tile, &s = rec.ops[1].tile, &e = rec.ops[2].tile, &m = rec.ops[3].tile, &k = rec.ops[4].tile;
  const int R = s.valid_rows, VC = s.valid_cols, C = s.cols, G = C / 32;
  // the groups of a row the chip computes (docs/quant.md, "What is written")
  int groups = G;
  if (exp2d || (b16 && !fp4 && !nv && VC < C && C % 512 == 0)) groups = (VC + 31) / 32;
  const std::size_t n = std::size_t(R) * std::size_t(exp2d ? groups : G), esz = sizeof(typename Src::DType);
  const std::size_t dst_bytes = std::size_t(R) * std::size_t(fp4 ? C / 2 : C);
  auto too_small = [&](const char* name, const TileView& t, std::size_t need, const char* what) {
    if (t.capacity_bytes() < need)
      fail(d.name, ": operand ", name, " ", t, " holds ", t.capacity_bytes(), " bytes; the chip writes ", need, " there (", what, ")");
  };
  too_small("dst", o, dst_bytes, fp4 ? "two e2m1 codes a byte at row stride Cols / 2 of src" : "one e4m3 code a byte at row stride Cols of src");
  too_small("max", m, n * esz, "one element per group of 32 columns");
  too_small("scaling", k, n * esz, "one element per group of 32 columns");
  if constexpr (exp2d) {
    if (e.rows < R || e.cols < groups)
      fail(d.name, ": operand exp ", e, " must have a row per valid row of src and a byte per group: at least ", R, "x", groups);
  } else {
    too_small("exp", e, n, "one E8M0 byte per group of 32 columns, rows packed");
  }
  // What the chip writes: the fp32 flat path stores whole 64-group vectors of exp and scaling, and
  // duplicates each scaling when it runs unrolled (a5 TQuant.hpp); those bytes are declared written.
  std::size_t e_bytes = n, k_elems = n;
  if constexpr (!b16 && !exp2d) {
    constexpr bool unroll = Src::Rows * Src::Cols > 1024 && Src::Rows * Src::Cols % 256 == 0;
    e_bytes = (n + 63) / 64 * 64;
    k_elems = unroll && (std::size_t(R) * std::size_t(C)) % 256 == 0 ? 2 * n : e_bytes;
  }
  rec.scalar = ScalarValue::of(VC);
  o = byte_run(o, dst_bytes);
  m = byte_run(m, n * esz);
  k = byte_run(k, k_elems * esz);
  if constexpr (exp2d) {
    e.valid_rows = R, e.valid_cols = groups;
  } else {
    e = byte_run(e, e_bytes);
  }
  s.valid_cols = C;  // 16-bit sources get their pad columns zeroed; fp32 ones are read whole
  if constexpr (!b16) rec.ops[1].role = Role::Read;
  rec.variant = std::uint8_t((fp4 ? kVariantMxFp4 : 0) | (nv ? kVariantMxNv : 0) | (exp2d ? kVariantMxExp2D : 0));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

// The DN grouping (grp_axis 0): a group is 32 rows of one column (docs/quant.md, "The DN grouping").
template <QuantType Q, QuantScaleAlg A, bool Interleave, class Dst, class Src, class Exp, class Max, class Scaling, class... W>
Issue quant_mx_dn(Dst& dst, Src& src, Exp& exp, Max& max, Scaling& scaling, W&... events) {
  static_check_quant_mx<Q, Dst, Src, Exp, Max, Scaling, false>();
  if constexpr (Interleave) {
    static_assert(Src::Rows % 64 == 0, "TQUANT: the DN interleaved exponents pair groups of 32 rows: src's Rows must be a multiple of 64");
    static_assert(Exp::Rows == (Src::Rows + 63) / 64 && Exp::Cols == (2 * Src::Cols + 31) / 32 * 32,
                  "TQUANT: the DN interleaved exp tile must be [Src::Rows / 64, align32(2 * Src::Cols)] bytes (one byte per "
                  "group of a pair and column)");
  }
  constexpr bool fp4 = Q == QuantType::MXFP4_E2M1, nv = A == QuantScaleAlg::NV;
  constexpr bool b16 = !std::is_same_v<typename Src::DType, float>;
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TQUANT_MX>());
  const InstrDesc& d = *rec.desc;
  if (core_target(core) != Target::A5)
    fail(d.name, ": the MX forms (MXFP8, MXFP4_E2M1) exist on A5 only; A2A3's TQUANT has INT8_SYM and INT8_ASYM");
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  add_tile(core, rec, exp);
  add_tile(core, rec, max);
  add_tile(core, rec, scaling);
  TileView &o = rec.ops[0].tile, &s = rec.ops[1].tile, &e = rec.ops[2].tile, &m = rec.ops[3].tile, &k = rec.ops[4].tile;
  const int VR = s.valid_rows, VC = s.valid_cols, SC = s.cols;
  const int groups = (VR + 31) / 32, rows = 32 * groups;  // whole groups are read, rows past VR included
  if (rows > s.rows)
    fail(d.name, ": operand src ", s, ": the DN grouping reads whole groups of 32 rows (", rows, " for ", VR,
         " valid rows; the chip has no row predicate), past the tile's ", s.rows, " rows");
  const std::size_t DC = std::size_t(o.row_stride), esz = sizeof(typename Src::DType);
  if (!fp4 && DC < std::size_t(VC))
    fail(d.name, ": operand dst ", o, ": its rows of ", DC, " bytes must hold src's ", VC, " valid columns (one e4m3 code each)");
  if (Interleave) {
    if (VR % 64 != 0)
      fail(d.name, ": operand src ", s, ": the DN interleaved exponents pair groups of 32 rows: the valid rows must be a multiple of 64");
    if (e.valid_rows != VR / 64 || e.valid_cols != 2 * VC)
      fail(d.name, ": operand exp ", e, ": the DN interleaved exponents' valid shape must be ", VR / 64, "x", 2 * VC,
           " (a row per pair of groups, two bytes per valid column of src)");
  }
  auto too_small = [&](const char* name, const TileView& t, std::size_t need, const char* what) {
    if (t.capacity_bytes() < need)
      fail(d.name, ": operand ", name, " ", t, " holds ", t.capacity_bytes(), " bytes; the chip writes ", need, " there (", what, ")");
  };
  // the extents of what is written (0 when there is no group)
  const std::size_t per_group = groups == 0 || VC == 0 ? 0 : (std::size_t(groups) - 1) * std::size_t(SC) + std::size_t(VC);
  const std::size_t EC = std::size_t(e.row_stride);
  const std::size_t e_bytes = !Interleave ? per_group : VR == 0 || VC == 0 ? 0 : (std::size_t(VR) / 64 - 1) * EC + 2 * std::size_t(VC);
  std::size_t dst_bytes = 0;
  if (groups > 0 && VC > 0) {
    const std::size_t last = std::size_t(rows) - 1;
    dst_bytes = fp4 ? (last * std::size_t(SC) + std::size_t(VC) + 1) / 2 : last * DC + std::size_t(VC);
    if (Interleave && !b16)  // the exponents are staged in dst first, a row per group at align32(Cols)
      dst_bytes = std::max(dst_bytes, (std::size_t(groups) - 1) * ((std::size_t(SC) + 31) / 32 * 32) + std::size_t(VC));
    if (fp4 && std::is_same_v<typename Src::DType, half> && (SC / 2) % 32 != 0) {
      // each row's packed bytes pass through a scratch vector at byte Dst::Rows * Cols / 2 (an aligned
      // store; the rows' addresses are not 32-byte aligned): the last chunk's bytes stay there
      const std::size_t at = std::size_t(o.rows) * std::size_t(SC) / 2, chunk = std::size_t(VC) - std::size_t((VC - 1) / 128) * 128;
      if (at < dst_bytes)
        fail(d.name, ": operand dst ", o, ": the fp16 MXFP4 DN path stages each row's codes at byte Dst::Rows * Cols / 2 = ", at,
             " (src's Cols / 2 = ", SC / 2, " is not a multiple of 32), inside the ", dst_bytes,
             " bytes of codes it writes: the rows would be overwritten; give dst at least ", (dst_bytes * 2 + std::size_t(SC) - 1) / std::size_t(SC),
             " rows of Cols / 2 bytes");
      dst_bytes = at + (chunk + 1) / 2;
    }
  }
  too_small("dst", o, dst_bytes, fp4 ? "two e2m1 codes a byte at row stride Cols / 2 of src, whole groups of 32 rows"
                                     : "one e4m3 code a byte at dst's row stride, whole groups of 32 rows");
  too_small("max", m, per_group * esz, "one element per group of 32 rows and column, at group * src's Cols + column");
  too_small("scaling", k, per_group * esz, "one element per group of 32 rows and column, at group * src's Cols + column");
  too_small("exp", e, e_bytes, Interleave ? "a byte per group and column, pairs of groups side by side in a row"
                                          : "one E8M0 byte per group of 32 rows and column, at group * src's Cols + column");
  rec.scalar.bits = std::uint64_t(std::uint32_t(VC)) | (std::uint64_t(VR) << 32);
  rec.scalar.wide[0] = DC;
  rec.scalar.wide[1] = std::uint64_t(o.rows) | (std::uint64_t(EC) << 32);
  o = byte_run(o, dst_bytes);
  m = byte_run(m, per_group * esz);
  k = byte_run(k, per_group * esz);
  e = byte_run(e, e_bytes);
  // src: the groups' rows are read whole; a 16-bit src has its valid rows' pad columns zeroed first
  s.valid_rows = rows;
  s.valid_cols = SC;
  if constexpr (!b16) rec.ops[1].role = Role::Read;
  rec.variant = std::uint8_t((fp4 ? kVariantMxFp4 : 0) | (nv ? kVariantMxNv : 0) | kVariantMxDn |
                             (Interleave ? kVariantMxInterleave : 0));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

template <class Dst, class Src, class Para>
constexpr void static_check_dequant() {
  static_assert(std::is_same_v<typename Dst::DType, float>, "TDEQUANT: dst must be float (fp32)");
  static_assert(std::is_same_v<typename Src::DType, std::int8_t> || std::is_same_v<typename Src::DType, std::int16_t>,
                "TDEQUANT: src must be int8_t or int16_t");
  static_assert(std::is_same_v<typename Para::DType, float>, "TDEQUANT: scale and offset must be float tiles (dst's dtype)");
  static_assert(kVecRowMajor<Dst, Src>, "TDEQUANT: dst and src must be RowMajor NoneBox Vec tiles");
  static_assert(Para::Loc == TileType::Vec && !Para::isBoxedLayout, "TDEQUANT: scale and offset must be NoneBox Vec tiles");
}

// TDEQUANT on the views (dst, src, scale, offset in rec), shared with the PTO IR reader.
inline void dequant_checks(InstrRecord& rec) {
  const InstrDesc& d = *rec.desc;
  const TileView& o = rec.ops[0].tile;
  check_same_valid(d, "dst", o, "src", rec.ops[1].tile);
  check_row_param(d, "scale", rec.ops[2].tile, o.valid_rows, false);
  check_row_param(d, "offset", rec.ops[3].tile, o.valid_rows, false);
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------------
// TQUANT<INT8_SYM | INT8_ASYM>(dst, src, scale[, &offset]): the form without tmp (A5 only).
template <QuantType Q, class Dst, class Src, class Para, class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Para> && (detail::WaitEvent<W> && ...)
detail::Issue TQUANT(Dst& dst, Src& src, Para& scale, Para* offset = nullptr, W&... events) {
  return detail::quant_int8<Q, false>(dst, src, scale, static_cast<detail::NoTmp*>(nullptr), offset, events...);
}

// TQUANT<INT8_SYM | INT8_ASYM>(dst, src, scale, tmp[, &offset]): both targets (A5 ignores tmp).
template <QuantType Q, class Dst, class Src, class Para, class Tmp, class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Para> && TileLike<Tmp> && (detail::WaitEvent<W> && ...)
detail::Issue TQUANT(Dst& dst, Src& src, Para& scale, Tmp& tmp, Para* offset = nullptr, W&... events) {
  return detail::quant_int8<Q, true>(dst, src, scale, &tmp, offset, events...);
}

// ---------------------------------------------------------------------------------------------------
// TQUANT<MXFP8 | MXFP4_E2M1[, ..., QuantScaleAlg]>(dst, src, &exp, &max, &scaling) and
// TQUANT<1, MxQuantAlg>(...): A5's microscaling quantisation, groups of 32 columns (docs/quant.md).
template <QuantType Q, class Dst, class Src, class Exp, class Max, class Scaling, QuantScaleAlg A = QuantScaleAlg::OCP,
          class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Exp> && TileLike<Max> && TileLike<Scaling> &&
           (detail::WaitEvent<W> && ...)
detail::Issue TQUANT(Dst& dst, Src& src, Exp* exp, Max* max, Scaling* scaling, W&... events) {
  return detail::quant_mx<Q, A>(dst, src, *exp, *max, *scaling, events...);
}
// TQUANT<GrpAxis, MxQuantAlg[, Interleave]>(...): grp_axis 1 is the ND form above; grp_axis 0 groups
// 32 rows of a column, its exponents at group * src's Cols + column, or with Interleave pairs of groups
// side by side (exp byte pair * Exp::Cols + 2 * column + group % 2).
template <int GrpAxis, MxQuantAlg A, bool Interleave, class Dst, class Src, class Exp, class Max, class Scaling, class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Exp> && TileLike<Max> && TileLike<Scaling> &&
           (detail::WaitEvent<W> && ...)
detail::Issue TQUANT(Dst& dst, Src& src, Exp* exp, Max* max, Scaling* scaling, W&... events) {
  static_assert(GrpAxis == 0 || GrpAxis == 1, "TQUANT: grp_axis is 0 (DN: groups of 32 rows) or 1 (ND: groups of 32 columns)");
  static_assert(GrpAxis == 0 || !Interleave, "TQUANT: the interleaved exponent store is the DN grouping's (grp_axis 0) only");
  static_assert(A != MxQuantAlg::Hif4, "TQUANT: HiF4 exists on the a6 chip only, which is not modelled");
  constexpr bool fp8 = A == MxQuantAlg::OcpMxFp8E4M3 || A == MxQuantAlg::NvMxFp8E4M3;
  constexpr bool nv = A == MxQuantAlg::NvMxFp8E4M3 || A == MxQuantAlg::NvMxFp4E2M1;
  constexpr QuantType Q = fp8 ? QuantType::MXFP8 : QuantType::MXFP4_E2M1;
  constexpr QuantScaleAlg S = nv ? QuantScaleAlg::NV : QuantScaleAlg::OCP;
  if constexpr (GrpAxis == 0)
    return detail::quant_mx_dn<Q, S, Interleave>(dst, src, *exp, *max, *scaling, events...);
  else
    return detail::quant_mx<Q, S>(dst, src, *exp, *max, *scaling, events...);
}
template <int GrpAxis, MxQuantAlg A, class Dst, class Src, class Exp, class Max, class Scaling, class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Exp> && TileLike<Max> && TileLike<Scaling> &&
           (detail::WaitEvent<W> && ...)
detail::Issue TQUANT(Dst& dst, Src& src, Exp* exp, Max* max, Scaling* scaling, W&... events) {
  return TQUANT<GrpAxis, A, false>(dst, src, exp, max, scaling, events...);
}

// The exp_zz store (TQUANT<Q, VecStoreMode>(dst, src, &exp, &max, &scaling, &exp_zz)): pto-isa's CPU
// simulator's only; its A5 code has no such form.
template <class T> inline constexpr bool kMxZzNotModelled = false;
template <QuantType Q, VecStoreMode M, class Dst, class Src, class Exp, class Max, class Scaling, class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Exp>
void TQUANT(Dst&, Src&, Exp*, Max*, Scaling*, Exp*, W&...) {
  static_assert(kMxZzNotModelled<Dst>, "TQUANT: the exp_zz store mode (the ZZ exponent layout) is not an A5 form: pto-isa's "
                                       "A5 code dropped it (exponents come out ND; TMOV converts them to ZZ); use "
                                       "TQUANT<Q>(dst, src, &exp, &max, &scaling)");
}

// TDEQUANT(dst, src, scale, offset).
template <class Dst, class Src, class Para, class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Para> && (detail::WaitEvent<W> && ...)
detail::Issue TDEQUANT(Dst& dst, Src& src, Para& scale, Para& offset, W&... events) {
  using namespace detail;
  static_check_dequant<Dst, Src, Para>();
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TDEQUANT>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  add_tile(core, rec, scale);
  add_tile(core, rec, offset);
  dequant_checks(rec);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

}  // namespace pto
