// TQUANT (INT8 forms) and TDEQUANT (pto-isa docs/isa/TQUANT.md, TDEQUANT.md; the NPU code a2a3 TQuant.hpp,
// a5 TQuant.hpp, a2a3 TDequant.hpp, a5 TDeQuant.hpp). The MX forms (A5: MXFP8 / MXFP4 with OCP / NV
// scales) are not modelled yet: calling them does not compile.
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

#include <pto/isa/enums.hpp>
#include <pto/isa/instr_desc.hpp>
#include <pto/isa/kernel_abi.hpp>
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
      x.tile = TileView{t.base, t.offset, DType::U8, TileType::Vec, 1, int(need), 1, int(need), int(need), 1, true, false, PadValue::Null, true, true};
      rec.variant |= kVariantQuantTmp;
    }
  } else {
    rec.ops[1].role = Role::Read;  // A5 reads src and leaves tmp alone
  }
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

// The MX forms, spelled as pto-isa's pto_instr.hpp does: not modelled yet, a readable error instead of
// "no matching function".
template <class T> inline constexpr bool kMxNotModelled = false;
template <QuantType Q, class Dst, class Src, class Exp, class Max, class Scaling, QuantScaleAlg A = QuantScaleAlg::OCP,
          class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Exp>
void TQUANT(Dst&, Src&, Exp*, Max*, Scaling*, W&...) {
  static_assert(kMxNotModelled<Dst>, "TQUANT: the MX forms (MXFP8, MXFP4_E2M1; A5) are not modelled yet; INT8_SYM and "
                                     "INT8_ASYM are (dst, src, scale[, tmp][, &offset])");
}
template <int GrpAxis, MxQuantAlg A, class Dst, class Src, class Exp, class Max, class Scaling, class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Exp>
void TQUANT(Dst&, Src&, Exp*, Max*, Scaling*, W&...) {
  static_assert(kMxNotModelled<Dst>, "TQUANT: the MX forms (<grp_axis, MxQuantAlg>; A5) are not modelled yet");
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
  const InstrDesc& d = *rec.desc;
  const TileView& o = rec.ops[0].tile;
  check_same_valid(d, "dst", o, "src", rec.ops[1].tile);
  check_row_param(d, "scale", rec.ops[2].tile, o.valid_rows, false);
  check_row_param(d, "offset", rec.ops[3].tile, o.valid_rows, false);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

}  // namespace pto
