// The cube's matrix multiply on the M pipe (pto-isa docs/isa/TMATMUL.md and its siblings; a2a3 / a5
// TMatmul.hpp; docs/cube.md):
//  - TMATMUL(c, a, b):            c = a * b
//  - TMATMUL_ACC(c, a, b):        c += a * b; TMATMUL_ACC(cOut, cIn, a, b) accumulates into cOut and does not
//                                 read cIn, as on both NPUs (pto-isa's CPU simulator adds cIn instead)
//  - TMATMUL_BIAS(c, a, b, bias): c = a * b + bias, bias one row broadcast over c's rows
//  - TGEMV, TGEMV_ACC, TGEMV_BIAS: the same with one row of a (m = 1)
// The shape comes from the valid dims, as on the NPUs: m and k from a's valid rows and columns, n from b's
// valid columns; each in [1, 4095]. b supplies k rows whatever its valid rows. c is float for half,
// bfloat16_t, float (and A5's 8-bit floats) inputs, int32_t for int8_t ones.
// The AccPhase overloads set the L0C unit flag: the fixpipe's next read of the result waits for the mad
// (pto-isa's UF mode, with TSTORE<STPhase>), as on the chip; without a phase, order M -> FIX with flags.
#pragma once
#include <cstdint>
#include <type_traits>

#include <pto/isa/instr_desc.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/cube_rules.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {

namespace detail {
template <class T> inline constexpr bool kFp8 = std::is_same_v<T, float8_e4m3_t> || std::is_same_v<T, float8_e5m2_t>;
template <class T> inline constexpr bool kFp4 = std::is_same_v<T, float4_e2m1x2_t> || std::is_same_v<T, float4_e1m2x2_t>;

template <class C, class A, class B>
constexpr bool mad_static() {
  using TA = typename A::DType;
  using TB = typename B::DType;
  using TC = typename C::DType;
  static_assert(kAccTile<C>, "TMATMUL / TGEMV: the result must be an Acc tile, NZ with 16 x 16 fractals (TileAcc)");
  static_assert(kLeftTile<A>, "TMATMUL / TGEMV: a must be a Left tile with SLayout::RowMajor 512-byte fractals (TileLeft)");
  static_assert(kRightTile<B>, "TMATMUL / TGEMV: b must be a Right tile, ZN (TileRight)");
  static_assert(std::is_same_v<TA, TB> || (kFp8<TA> && kFp8<TB>),
                "TMATMUL / TGEMV: a and b must have the same DType (A5 mixes float8_e4m3_t and float8_e5m2_t)");
  static_assert(std::is_same_v<TA, std::int8_t> || std::is_same_v<TA, half> || std::is_same_v<TA, bfloat16_t> ||
                    std::is_same_v<TA, float> || kFp8<TA> || std::is_same_v<TA, hifloat8_t>,
                "TMATMUL / TGEMV: the inputs are int8_t, half, bfloat16_t, float, or (A5) float8_e4m3_t, float8_e5m2_t, "
                "hifloat8_t");
  static_assert(std::is_same_v<TA, std::int8_t> ? std::is_same_v<TC, std::int32_t> : std::is_same_v<TC, float>,
                "TMATMUL / TGEMV: the result is int32_t for int8_t inputs and float for the floating-point ones");
  return true;
}

// mad_static's rules on views (the IR front door); `bias` null without one.
inline void mad_type_rules(const TileView& c, const TileView& a, const TileView& b, const TileView* bias) {
  const DType ta = a.dtype, tb = b.dtype, tc = c.dtype;
  auto fp8 = [](DType t) { return t == DType::F8E4M3 || t == DType::F8E5M2; };
  if (!acc_view(c)) fail("TMATMUL / TGEMV: the result must be an Acc tile, NZ with 16 x 16 fractals (TileAcc)");
  if (!left_view(a)) fail("TMATMUL / TGEMV: a must be a Left tile with SLayout::RowMajor 512-byte fractals (TileLeft)");
  if (!right_view(b)) fail("TMATMUL / TGEMV: b must be a Right tile, ZN (TileRight)");
  if (!(ta == tb || (fp8(ta) && fp8(tb))))
    fail("TMATMUL / TGEMV: a and b must have the same DType (A5 mixes float8_e4m3_t and float8_e5m2_t)");
  if (!(ta == DType::I8 || ta == DType::F16 || ta == DType::BF16 || ta == DType::F32 || fp8(ta) || ta == DType::HF8))
    fail("TMATMUL / TGEMV: the inputs are int8_t, half, bfloat16_t, float, or (A5) float8_e4m3_t, float8_e5m2_t, hifloat8_t");
  if (ta == DType::I8 ? tc != DType::I32 : tc != DType::F32)
    fail("TMATMUL / TGEMV: the result is int32_t for int8_t inputs and float for the floating-point ones");
  if (bias && !(bias->loc == TileType::Bias && bias->rows == 1 && bias->row_major))
    fail("TMATMUL_BIAS / TGEMV_BIAS: bias must be a 1-row RowMajor Bias tile (TMOV Mat -> Bias fills one)");
  if (bias && bias->dtype != tc) fail("TMATMUL_BIAS / TGEMV_BIAS: bias must have the result's DType (float or int32_t)");
}

// m, k, n from the valid dims (a GEMV: one row of a); every operand's view becomes the region the
// instruction reads or writes.
inline void mad_shape(InstrRecord& rec, Target target, bool gemv, bool bias) {
  const InstrDesc& d = *rec.desc;
  TileView& c = rec.ops[0].tile;
  TileView& a = rec.ops[1].tile;
  TileView& b = rec.ops[2].tile;
  check_dtype(d, "dst", c.dtype, target, d.dtypes);
  check_dtype(d, "a", a.dtype, target, dtypes::kCubeIn);
  check_dtype(d, "b", b.dtype, target, dtypes::kCubeIn);
  const int m = gemv ? 1 : a.valid_rows, k = a.valid_cols, n = b.valid_cols;
  auto range = [&](const char* what, int v, const char* from, const TileView& t) {
    if (v < 1 || v > 4095)
      fail(d.name, ": ", what, " = ", v, " (", from, " ", t, ") must be in [1, 4095], the cube's limit");
  };
  range("m", m, "the valid rows of operand a", a);
  range("k", k, "the valid columns of operand a", a);
  range("n", n, "the valid columns of operand b", b);
  if (k > b.rows)
    fail(d.name, ": operand b ", b, " has ", b.rows, " rows, fewer than k = ", k, " (operand a's valid columns)");
  if (m > c.rows || n > c.cols)
    fail(d.name, ": operand dst ", c, " cannot hold the ", m, " x ", n, " result");
  a.valid_rows = m;
  b.valid_rows = k;
  c.valid_rows = m;
  c.valid_cols = n;
  if (bias) {
    TileView& t = rec.ops[3].tile;
    if (n > t.cols) fail(d.name, ": operand bias ", t, " has fewer than n = ", n, " columns");
    t.valid_rows = 1;
    t.valid_cols = n;
  }
  for (int i = 0; i < rec.nops; ++i) rec.ops[i].tile.static_valid_rows = rec.ops[i].tile.static_valid_cols = false;
}

// The core's TF32 mode (Tile::SetMadTF32Mode) applies to float inputs, as the cube's does.
inline void mad_mode(Core& core, InstrRecord& rec) {
  const int mode = core_mad_mode(core);
  if (mode >= 0 && rec.ops[1].tile.dtype == DType::F32)
    rec.variant = RoundMode(mode) == RoundMode::CAST_RINT ? std::uint8_t(kVariantTf32 | kVariantTf32Rint) : kVariantTf32;
}

// UnitFlag: an AccPhase form, which sets the L0C unit flag the fixpipe's next read of c waits for.
template <Op O, bool UnitFlag = false, class C, class A, class B, class... W>
Issue mad(C& c, A& a, B& b, W&... events) {
  static_assert(mad_static<C, A, B>());
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, c);
  add_tile(core, rec, a);
  add_tile(core, rec, b);
  mad_shape(rec, core_target(core), O == Op::TGEMV || O == Op::TGEMV_ACC, false);
  mad_mode(core, rec);
  rec.unit_flag = UnitFlag;
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

template <Op O, bool UnitFlag = false, class C, class A, class B, class Bias, class... W>
Issue mad_bias(C& c, A& a, B& b, Bias& bias, W&... events) {
  static_assert(mad_static<C, A, B>());
  static_assert(Bias::Loc == TileType::Bias && Bias::Rows == 1 && Bias::isRowMajor,
                "TMATMUL_BIAS / TGEMV_BIAS: bias must be a 1-row RowMajor Bias tile (TMOV Mat -> Bias fills one)");
  static_assert(std::is_same_v<typename Bias::DType, typename C::DType>,
                "TMATMUL_BIAS / TGEMV_BIAS: bias must have the result's DType (float or int32_t)");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, c);
  add_tile(core, rec, a);
  add_tile(core, rec, b);
  add_tile(core, rec, bias);
  mad_shape(rec, core_target(core), O == Op::TGEMV_BIAS, true);
  mad_mode(core, rec);
  rec.unit_flag = UnitFlag;
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
}  // namespace detail

#define PTO_MAD_REQUIRES requires TileLike<C> && TileLike<A> && TileLike<B> && (detail::WaitEvent<W> && ...)

template <class C, class A, class B, class... W>
  PTO_MAD_REQUIRES
detail::Issue TMATMUL(C& c, A& a, B& b, W&... events) {
  return detail::mad<Op::TMATMUL>(c, a, b, events...);
}
template <AccPhase Phase, class C, class A, class B, class... W>
  PTO_MAD_REQUIRES
detail::Issue TMATMUL(C& c, A& a, B& b, W&... events) {
  return detail::mad<Op::TMATMUL, Phase != AccPhase::Unspecified>(c, a, b, events...);
}
template <AccPhase Phase = AccPhase::Unspecified, class C, class A, class B, class... W>
  PTO_MAD_REQUIRES
detail::Issue TMATMUL_ACC(C& c, A& a, B& b, W&... events) {
  return detail::mad<Op::TMATMUL_ACC, Phase != AccPhase::Unspecified>(c, a, b, events...);
}
template <class C, class A, class B, class... W>
  PTO_MAD_REQUIRES
detail::Issue TMATMUL_ACC(C& cOut, C& /*cIn: not read (the NPUs accumulate into cOut)*/, A& a, B& b, W&... events) {
  return detail::mad<Op::TMATMUL_ACC>(cOut, a, b, events...);
}
template <AccPhase Phase, class C, class A, class B, class... W>
  PTO_MAD_REQUIRES
detail::Issue TMATMUL_ACC(C& cOut, C& /*cIn*/, A& a, B& b, W&... events) {
  return detail::mad<Op::TMATMUL_ACC, Phase != AccPhase::Unspecified>(cOut, a, b, events...);
}
template <class C, class A, class B, class Bias, class... W>
  PTO_MAD_REQUIRES && TileLike<Bias>
detail::Issue TMATMUL_BIAS(C& c, A& a, B& b, Bias& bias, W&... events) {
  return detail::mad_bias<Op::TMATMUL_BIAS>(c, a, b, bias, events...);
}
template <AccPhase Phase, class C, class A, class B, class Bias, class... W>
  PTO_MAD_REQUIRES && TileLike<Bias>
detail::Issue TMATMUL_BIAS(C& c, A& a, B& b, Bias& bias, W&... events) {
  return detail::mad_bias<Op::TMATMUL_BIAS, Phase != AccPhase::Unspecified>(c, a, b, bias, events...);
}
template <class C, class A, class B, class... W>
  PTO_MAD_REQUIRES
detail::Issue TGEMV(C& c, A& a, B& b, W&... events) {
  return detail::mad<Op::TGEMV>(c, a, b, events...);
}
template <AccPhase Phase, class C, class A, class B, class... W>
  PTO_MAD_REQUIRES
detail::Issue TGEMV(C& c, A& a, B& b, W&... events) {
  return detail::mad<Op::TGEMV, Phase != AccPhase::Unspecified>(c, a, b, events...);
}
template <class C, class A, class B, class... W>
  PTO_MAD_REQUIRES
detail::Issue TGEMV_ACC(C& cOut, C& /*cIn*/, A& a, B& b, W&... events) {
  return detail::mad<Op::TGEMV_ACC>(cOut, a, b, events...);
}
template <AccPhase Phase, class C, class A, class B, class... W>
  PTO_MAD_REQUIRES
detail::Issue TGEMV_ACC(C& cOut, C& /*cIn*/, A& a, B& b, W&... events) {
  return detail::mad<Op::TGEMV_ACC, Phase != AccPhase::Unspecified>(cOut, a, b, events...);
}
template <class C, class A, class B, class Bias, class... W>
  PTO_MAD_REQUIRES && TileLike<Bias>
detail::Issue TGEMV_BIAS(C& c, A& a, B& b, Bias& bias, W&... events) {
  return detail::mad_bias<Op::TGEMV_BIAS>(c, a, b, bias, events...);
}
template <AccPhase Phase, class C, class A, class B, class Bias, class... W>
  PTO_MAD_REQUIRES && TileLike<Bias>
detail::Issue TGEMV_BIAS(C& c, A& a, B& b, Bias& bias, W&... events) {
  return detail::mad_bias<Op::TGEMV_BIAS, Phase != AccPhase::Unspecified>(c, a, b, bias, events...);
}
#undef PTO_MAD_REQUIRES

}  // namespace pto
