// A5's MX matrix multiply on the M pipe (pto-isa docs/isa/TMATMUL_MX.md, a5 TMatmul.hpp's mad_mx; docs/cube.md
// "MX"): a and b are 8-bit floats (float8_e4m3_t / float8_e5m2_t, any pair) or 4-bit ones (float4_e2m1x2_t /
// float4_e1m2x2_t, any pair, packed two a byte in L1 / L0 and GM), each group of 32 along K scaled
// by a power of two from its e8m0 scale tile:
//   c[i][j] (=, +=, = bias[j] +) sum over p of a[i][p] * 2^(aScale[i][p / 32] - 127) * b[p][j] * 2^(bScale[p / 32][j] - 127)
// in float. The scale tiles are ScaleLeft (M x ceil(K / 32), TileLeftScale) and ScaleRight (ceil(K / 32) x N,
// TileRightScale), filled by TMOV / TEXTRACT from Mat tiles TLOADed with the MX scale layouts. The forms:
//   TMATMUL_MX(c, a, aScale, b, bScale), TMATMUL_MX(cOut, cIn, a, aScale, b, bScale) (accumulates into cOut,
//   as TMATMUL_ACC), TMATMUL_MX(c, a, aScale, b, bScale, bias); TGEMV_MX the same with one row of a; each with
//   an AccPhase overload.
#pragma once
#include <cstdint>
#include <type_traits>

#include <pto/runtime/matmul.hpp>

namespace pto {

namespace detail {
template <class C, class A, class AS, class B, class BS>
constexpr bool mad_mx_static() {
  using TA = typename A::DType;
  using TB = typename B::DType;
  constexpr bool fp4 = kFp4<TA> && kFp4<TB>;
  static_assert((kFp8<TA> && kFp8<TB>) || fp4,
                "TMATMUL_MX / TGEMV_MX: a and b are both 8-bit floats (float8_e4m3_t / float8_e5m2_t, any pair) or both "
                "4-bit ones (float4_e2m1x2_t / float4_e1m2x2_t, any pair); the two widths do not mix");
  static_assert(kAccTile<C> && std::is_same_v<typename C::DType, float>,
                "TMATMUL_MX / TGEMV_MX: the result is a float Acc tile (TileAcc)");
  static_assert(kLeftTile<A> && kRightTile<B>, "TMATMUL_MX / TGEMV_MX: a must be a Left tile and b a Right tile");
  static_assert(A::Cols % 64 == 0, "TMATMUL_MX / TGEMV_MX: a's Cols must be a multiple of 64 (the MX mad takes K in pairs of 32-groups)");
  static_assert(AS::Loc == TileType::ScaleLeft && BS::Loc == TileType::ScaleRight,
                "TMATMUL_MX / TGEMV_MX: aScale must be a ScaleLeft tile (TileLeftScale) and bScale a ScaleRight tile "
                "(TileRightScale)");
  static_assert(sizeof(typename AS::DType) == 1 && sizeof(typename BS::DType) == 1,
                "TMATMUL_MX / TGEMV_MX: the scales are 1-byte e8m0 codes (float8_e8m0_t)");
  return true;
}

// The scale tiles' views become the groups the mad reads: m x ceil(k / 32) and ceil(k / 32) x n.
inline void mx_scales(InstrRecord& rec) {
  const InstrDesc& d = *rec.desc;
  const TileView& a = rec.ops[1].tile;
  const TileView& b = rec.ops[2].tile;
  TileView& as = rec.ops[rec.nops - 2].tile;
  TileView& bs = rec.ops[rec.nops - 1].tile;
  const int m = a.valid_rows, groups = (a.valid_cols + 31) / 32, n = b.valid_cols;
  if (as.valid_rows < m || as.valid_cols < groups)
    fail(d.name, ": operand aScale ", as, " must hold ", m, " x ", groups, " scales (a's valid rows x ceil(k / 32), k = ", a.valid_cols, ")");
  if (bs.valid_rows < groups || bs.valid_cols < n)
    fail(d.name, ": operand bScale ", bs, " must hold ", groups, " x ", n, " scales (ceil(k / 32) x b's valid columns)");
  as.valid_rows = m;
  as.valid_cols = groups;
  bs.valid_rows = groups;
  bs.valid_cols = n;
  as.static_valid_rows = as.static_valid_cols = bs.static_valid_rows = bs.static_valid_cols = false;
}

template <Op O, class C, class A, class AS, class B, class BS, class... Bias>
InstrRecord mad_mx_record(C& c, A& a, AS& as, B& b, BS& bs, Bias&... bias) {
  static_assert(mad_mx_static<C, A, AS, B, BS>());
  constexpr bool has_bias = sizeof...(Bias) == 1;
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, c);
  add_tile(core, rec, a);
  add_tile(core, rec, b);
  (add_tile(core, rec, bias), ...);
  add_tile(core, rec, as);
  add_tile(core, rec, bs);
  if (core_target(core) == Target::A2A3) fail(rec.desc->name, ": the MX matmul is A5's (A2A3's cube has no MX mode)");
  mad_shape(rec, core_target(core), O == Op::TGEMV_MX || O == Op::TGEMV_MX_ACC || O == Op::TGEMV_MX_BIAS, has_bias);
  mx_scales(rec);
  return rec;
}

template <Op O, class C, class A, class AS, class B, class BS, class... W>
Issue mad_mx(C& c, A& a, AS& as, B& b, BS& bs, W&... events) {
  Core& core = current_core();
  InstrRecord rec = mad_mx_record<O>(c, a, as, b, bs);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
template <Op O, class C, class A, class AS, class B, class BS, class Bias, class... W>
Issue mad_mx_bias(C& c, A& a, AS& as, B& b, BS& bs, Bias& bias, W&... events) {
  static_assert(Bias::Loc == TileType::Bias && Bias::Rows == 1 && std::is_same_v<typename Bias::DType, float>,
                "TMATMUL_MX / TGEMV_MX with bias: bias must be a 1-row float Bias tile (TMOV Mat -> Bias fills one)");
  Core& core = current_core();
  InstrRecord rec = mad_mx_record<O>(c, a, as, b, bs, bias);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
// The three forms share a name and an arity: (cOut, cIn, a, aScale, b, bScale) has two Acc tiles first;
// (c, a, aScale, b, bScale, bias) a Bias tile last.
template <Op Plain, Op Acc, Op WithBias, class C, class X, class Y, class Z, class U, class V, class... W>
Issue mad_mx_six(C& c, X& x, Y& y, Z& z, U& u, V& v, W&... events) {
  if constexpr (std::is_same_v<C, X>) return mad_mx<Acc>(c, y, z, u, v, events...);  // x: cIn, not read
  else return mad_mx_bias<WithBias>(c, x, y, z, u, v, events...);
}
}  // namespace detail

#define PTO_MX_REQUIRES requires TileLike<C> && TileLike<A> && TileLike<AS> && TileLike<B> && TileLike<BS>

template <class C, class A, class AS, class B, class BS, class... W>
  PTO_MX_REQUIRES && (detail::WaitEvent<W> && ...)
detail::Issue TMATMUL_MX(C& c, A& a, AS& aScale, B& b, BS& bScale, W&... events) {
  return detail::mad_mx<Op::TMATMUL_MX>(c, a, aScale, b, bScale, events...);
}
template <AccPhase Phase, class C, class A, class AS, class B, class BS, class... W>
  PTO_MX_REQUIRES && (detail::WaitEvent<W> && ...)
detail::Issue TMATMUL_MX(C& c, A& a, AS& aScale, B& b, BS& bScale, W&... events) {
  return detail::mad_mx<Op::TMATMUL_MX>(c, a, aScale, b, bScale, events...);
}
template <class C, class A, class AS, class B, class BS, class X, class... W>
  PTO_MX_REQUIRES && TileLike<X> && (detail::WaitEvent<W> && ...)
detail::Issue TMATMUL_MX(C& c, A& a, AS& as, B& b, BS& bs, X& x, W&... events) {
  return detail::mad_mx_six<Op::TMATMUL_MX, Op::TMATMUL_MX_ACC, Op::TMATMUL_MX_BIAS>(c, a, as, b, bs, x, events...);
}
template <AccPhase Phase, class C, class A, class AS, class B, class BS, class X, class... W>
  PTO_MX_REQUIRES && TileLike<X> && (detail::WaitEvent<W> && ...)
detail::Issue TMATMUL_MX(C& c, A& a, AS& as, B& b, BS& bs, X& x, W&... events) {
  return detail::mad_mx_six<Op::TMATMUL_MX, Op::TMATMUL_MX_ACC, Op::TMATMUL_MX_BIAS>(c, a, as, b, bs, x, events...);
}
template <class C, class A, class AS, class B, class BS, class... W>
  PTO_MX_REQUIRES && (detail::WaitEvent<W> && ...)
detail::Issue TGEMV_MX(C& c, A& a, AS& aScale, B& b, BS& bScale, W&... events) {
  return detail::mad_mx<Op::TGEMV_MX>(c, a, aScale, b, bScale, events...);
}
template <AccPhase Phase, class C, class A, class AS, class B, class BS, class... W>
  PTO_MX_REQUIRES && (detail::WaitEvent<W> && ...)
detail::Issue TGEMV_MX(C& c, A& a, AS& aScale, B& b, BS& bScale, W&... events) {
  return detail::mad_mx<Op::TGEMV_MX>(c, a, aScale, b, bScale, events...);
}
template <class C, class A, class AS, class B, class BS, class X, class... W>
  PTO_MX_REQUIRES && TileLike<X> && (detail::WaitEvent<W> && ...)
detail::Issue TGEMV_MX(C& c, A& a, AS& as, B& b, BS& bs, X& x, W&... events) {
  return detail::mad_mx_six<Op::TGEMV_MX, Op::TGEMV_MX_ACC, Op::TGEMV_MX_BIAS>(c, a, as, b, bs, x, events...);
}
template <AccPhase Phase, class C, class A, class AS, class B, class BS, class X, class... W>
  PTO_MX_REQUIRES && TileLike<X> && (detail::WaitEvent<W> && ...)
detail::Issue TGEMV_MX(C& c, A& a, AS& as, B& b, BS& bs, X& x, W&... events) {
  return detail::mad_mx_six<Op::TGEMV_MX, Op::TGEMV_MX_ACC, Op::TGEMV_MX_BIAS>(c, a, as, b, bs, x, events...);
}

#undef PTO_MX_REQUIRES

}  // namespace pto
