// Compound element-wise instructions (TREM, TREMS, TFMOD, TFMODS, TPOW, TPOWS, TPRELU), the carry forms
// (TADDC, TSUBC, TADDSC, TSUBSC), the fused ones (TFUSEDMULADD, TFUSEDMULADDRELU, TMULADDDST, TSUBRELU)
// and TADDDEQRELU: one entry per instruction, its CPU kernel and per target a planner. None has a
// device path: each is priced by its recipe, the intrinsics the NPU header issues per element chunk, in
// the family's formula (docs/compound.md):
//  - A2/A3 processes one row at a time in counter mode (TRem.hpp, TFmod.hpp, TPow.hpp ...): per step of
//    the recipe one counter-mode call of the row's valid columns per row, a pipe_barrier between steps;
//    TPOW's fix-ups and the integer TPOW run on the scalar unit (one scalar_elem per element).
//  - A5 runs one vector-function loop (a 2-D loop over rows x 256-byte chunks): per iteration one vlds
//    per tile source, the recipe's ALU ops, one vsts.
#include <initializer_list>

#include "../common/planner.hpp"
#include "../cpu/compound.hpp"
#include "families.hpp"

namespace pto::backend {
namespace {
using I = Intrinsic;
using cpu::compound::Kind;
using cpu::compound::kCompound;
using cpu::compound::kNone;
using cpu::compound::kScalar;

using Recipe = std::initializer_list<I>;


// ---- A2/A3 --------------------------------------------------------------------------------------------
// es: the lanes' element size (a width-changing recipe repeats by its wider type).
void a2a3_rows(const ExecContext& c, IntrinsicStream& s, Recipe steps, std::uint64_t scalar_per_elem = 0, std::size_t es = 0) {
  const TileView& d = c.ops[0].tile;
  plan::A2A3 m(s, es ? es : d.elem_bytes());
  for (I op : steps) {
    m.count(op, std::uint64_t(d.valid_cols), std::uint32_t(d.valid_rows));
    s.barrier();
  }
  if (scalar_per_elem) {
    s.add({.op = I::sync_roundtrip});
    s.add({.op = I::scalar_elem, .repeats = std::uint32_t(scalar_per_elem * std::uint64_t(d.valid_rows) * d.valid_cols)});
    s.add({.op = I::sync_roundtrip});
  }
}

// TRem.hpp: quotient, floor (vconv f32 -> f32), multiply back, subtract, the divisor-sign correction
// (vmul, vcmpvs, vadd, vsel); int32 first converts both sources to float and back, the result at the end.
void a2a3_rem(const ExecContext& c, IntrinsicStream& s) {
  if (c.ops[0].tile.dtype == DType::F32) return a2a3_rows(c, s, {I::vdiv, I::vconv, I::vmul, I::vsub, I::vmul, I::vcmp, I::vadd, I::vsel});
  a2a3_rows(c, s, {I::vconv, I::vconv, I::vdiv, I::vconv, I::vconv, I::vconv, I::vmul, I::vsub, I::vconv, I::vmul, I::vcmp, I::vadd,
                   I::vsel, I::vconv});
}
// TRemS.hpp: the same with the scalar splat first (vector_dup) and vmuls / vadds.
void a2a3_rems(const ExecContext& c, IntrinsicStream& s) {
  if (c.ops[0].tile.dtype == DType::F32)
    return a2a3_rows(c, s, {I::vector_dup, I::vdiv, I::vconv, I::vmuls, I::vsub, I::vmuls, I::vcmp, I::vadds, I::vsel});
  a2a3_rows(c, s, {I::vector_dup, I::vconv, I::vdiv, I::vconv, I::vconv, I::vmuls, I::vsub, I::vconv, I::vmuls, I::vcmp, I::vadds,
                   I::vsel, I::vconv});
}
void a2a3_fmod(const ExecContext& c, IntrinsicStream& s) { a2a3_rows(c, s, {I::vdiv, I::vconv, I::vmul, I::vsub}); }
void a2a3_fmods(const ExecContext& c, IntrinsicStream& s) { a2a3_rows(c, s, {I::vector_dup, I::vdiv, I::vconv, I::vmuls, I::vsub}); }
// TPow.hpp: floats exp(e * ln|b|) and exp(e * ln b) on the vector unit, the fix-ups on the scalar unit;
// integers square-and-multiply on the scalar unit (assumed one scalar step per exponent bit: 2 per
// element for the small exponents of the reference's tests).
template <bool Scalar>
void a2a3_pow(const ExecContext& c, IntrinsicStream& s) {
  if (!is_float(c.ops[0].tile.dtype)) return a2a3_rows(c, s, {}, 2);
  const I mul = Scalar ? I::vmuls : I::vmul;
  a2a3_rows(c, s, {I::vabs, I::vln, mul, I::vexp, I::vln, mul, I::vexp}, 1);
}
// TPrelu.hpp: TMUL, TCMPS(tmp, src0, 0, GT), TSEL.
void a2a3_prelu(const ExecContext& c, IntrinsicStream& s) { a2a3_rows(c, s, {I::vmul, I::vcmp, I::vsel}); }
template <I First>
void a2a3_carry(const ExecContext& c, IntrinsicStream& s) { a2a3_rows(c, s, {First, I::vadd}); }
template <I Op1>
void a2a3_fused(const ExecContext& c, IntrinsicStream& s) { a2a3_rows(c, s, {Op1}); }
// TAddDeqRelu.hpp: vadd, vconv s32 -> f32, three vmuls, vector_dup of 0, vmax, vconv f32 -> f16.
void a2a3_deq(const ExecContext& c, IntrinsicStream& s) {
  a2a3_rows(c, s, {I::vadd, I::vconv, I::vmuls, I::vmuls, I::vmuls, I::vector_dup, I::vmax, I::vconv}, 0, 4);
}

// ---- A5 -----------------------------------------------------------------------------------------------
void a5_loop(const ExecContext& c, IntrinsicStream& s, int loads, Recipe alu, std::size_t es = 0) {
  const TileView& d = c.ops[0].tile;
  plan::A5 m(s, es ? es : d.elem_bytes());
  const std::uint64_t n = m.iterations_2d(lines_of(d));
  m.add(I::vlds, m.mem(n) * std::uint64_t(loads));
  for (I op : alu) m.alu(op, n);
  m.add(I::vsts, m.mem(n));
}
// The half forms widen to float halves (vcvt even / odd), run the float steps twice and narrow back.
template <bool Fix, int Loads>
void a5_rem(const ExecContext& c, IntrinsicStream& s) {
  const DType t = c.ops[0].tile.dtype;
  const bool hp = (c.variant & kVariantHighPrecision) && t == DType::F32;
  if (hp) return a5_loop(c, s, Loads, {I::vabs, I::vabs, I::vdiv, I::vtrc, I::vmul, I::vsub, I::vcmp, I::vsel, I::vcmp, I::vsel, I::vcmp,
                                       I::vsel, I::vmul, I::vsub, I::vcmp, I::vsel, I::vcmp, I::vadd, I::vsel});
  if (t == DType::F32) {
    if (Fix) return a5_loop(c, s, Loads, {I::vdiv, I::vtrc, I::vmul, I::vsub, I::vmul, I::vcmp, I::vadd, I::vsel});
    return a5_loop(c, s, Loads, {I::vdiv, I::vtrc, I::vmul, I::vsub});
  }
  if (t == DType::F16) {
    if (Fix)
      return a5_loop(c, s, Loads, {I::vcvt, I::vcvt, I::vcvt, I::vcvt, I::vdiv, I::vdiv, I::vtrc, I::vtrc, I::vmul, I::vmul, I::vsub, I::vsub,
                                   I::vcvt, I::vcvt, I::vor, I::vmul, I::vcmp, I::vadd, I::vsel});
    return a5_loop(c, s, Loads, {I::vcvt, I::vcvt, I::vcvt, I::vcvt, I::vdiv, I::vdiv, I::vtrc, I::vtrc, I::vmul, I::vmul, I::vsub, I::vsub,
                                 I::vcvt, I::vcvt, I::vor});
  }
  a5_loop(c, s, Loads, {I::vmod});  // integers: vmod (64-bit: register pairs, Int64Rem's divide-multiply-subtract)
}
template <int Loads>
void a5_fmod(const ExecContext& c, IntrinsicStream& s) {
  if (!is_float(c.ops[0].tile.dtype)) return a5_loop(c, s, Loads, {I::vdiv, I::vmul, I::vsub});
  a5_rem<false, Loads>(c, s);
}
// TPow.hpp: the float core exp(e * ln|b|) and its special-value pass (compares and selects); half in
// two float halves; integers square-and-multiply over the type's bits (two vmul, a bit test and a select).
template <int Loads>
void a5_pow(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = c.ops[0].tile;
  if (is_float(d.dtype)) {
    Recipe core{I::vabs, I::vln, I::vmul, I::vexp, I::vcmp, I::vsel, I::vcmp, I::vsel, I::vcmp, I::vsel, I::vcmp, I::vsel, I::vcmp, I::vsel};
    if (d.dtype == DType::F32) return a5_loop(c, s, Loads, core);
    const TileView& dd = d;
    plan::A5 m(s, dd.elem_bytes());
    const std::uint64_t n = m.iterations_2d(lines_of(dd));
    m.add(I::vlds, n * std::uint64_t(Loads));
    m.alu(I::vcvt, 2 * std::uint64_t(Loads) * n);
    for (I op : core) m.alu(op, 2 * n);
    m.alu(I::vcvt, 2 * n);
    m.add(I::vsts, n);
    return;
  }
  plan::A5 m(s, d.elem_bytes());
  const std::uint64_t n = m.iterations_2d(lines_of(d));
  const std::uint64_t bits = 8 * std::uint64_t(std::max<std::size_t>(d.elem_bytes(), 2));
  m.add(I::vlds, n * std::uint64_t(Loads));
  for (I op : {I::vmul, I::vmul, I::vand, I::vcmp, I::vsel}) m.alu(op, bits * n);
  m.add(I::vsts, n);
}
template <int Loads, I... Ops>
void a5_fixed(const ExecContext& c, IntrinsicStream& s) { a5_loop(c, s, Loads, {Ops...}); }

// TADDDEQRELU: 64 int32 lanes per iteration (the sources' width).
void a5_deq(const ExecContext& c, IntrinsicStream& s) {
  a5_loop(c, s, 2, {I::vadd, I::vcvt, I::vmuls, I::vmuls, I::vmuls, I::vmaxs, I::vcvt}, 4);
}

// Operand positions of each instruction (ctx.ops): the element's a, b and c.
template <Op O, Kind K, int A, int B, int C>
constexpr InstrImpl entry(PlanFn a2a3, PlanFn a5) {
  return {O, kCompound<K, A, B, C>, {{{}, a2a3}, {{}, a5}}};
}

constexpr InstrImpl kTable[] = {
    entry<Op::TREM, Kind::Rem, 1, 2, kNone>(a2a3_rem, a5_rem<true, 2>),
    entry<Op::TREMS, Kind::Rem, 1, kScalar, kNone>(a2a3_rems, a5_rem<false, 1>),  // A5 TREMS: no sign correction
    entry<Op::TFMOD, Kind::Fmod, 1, 2, kNone>(a2a3_fmod, a5_fmod<2>),
    entry<Op::TFMODS, Kind::Fmod, 1, kScalar, kNone>(a2a3_fmods, a5_fmod<1>),
    entry<Op::TPOW, Kind::Pow, 1, 2, kNone>(a2a3_pow<false>, a5_pow<2>),
    entry<Op::TPOWS, Kind::Pow, 1, kScalar, kNone>(a2a3_pow<true>, a5_pow<1>),
    entry<Op::TPRELU, Kind::Prelu, 1, 2, kNone>(a2a3_prelu, a5_fixed<2, I::vprelu>),
    entry<Op::TADDC, Kind::AddAdd, 1, 2, 3>(a2a3_carry<I::vadd>, a5_fixed<3, I::vadd, I::vadd>),
    entry<Op::TSUBC, Kind::SubAdd, 1, 2, 3>(a2a3_carry<I::vsub>, a5_fixed<3, I::vsub, I::vadd>),
    entry<Op::TADDSC, Kind::AddAdd, 1, kScalar, 2>(a2a3_carry<I::vadds>, a5_fixed<2, I::vadds, I::vadd>),
    entry<Op::TSUBSC, Kind::SubAdd, 1, kScalar, 2>(a2a3_carry<I::vadds>, a5_fixed<2, I::vadds, I::vadd>),
    // dst = src0 * dst + src1 (vmadd); relu(src0 * dst + src1) (vmaddrelu; A5 vmadd + vrelu);
    // src0 * src1 + dst (vmla; A5 vmula); relu(src0 - src1) (vsubrelu; A5 vsub + vrelu)
    entry<Op::TFUSEDMULADD, Kind::MulAdd, 1, 0, 2>(a2a3_fused<I::vmadd>, a5_fixed<3, I::vmadd>),
    entry<Op::TFUSEDMULADDRELU, Kind::MulAddRelu, 1, 0, 2>(a2a3_fused<I::vmaddrelu>, a5_fixed<3, I::vmadd, I::vrelu>),
    entry<Op::TMULADDDST, Kind::MulAdd, 1, 2, 0>(a2a3_fused<I::vmla>, a5_fixed<3, I::vmla>),
    entry<Op::TSUBRELU, Kind::SubRelu, 1, 2, kNone>(a2a3_fused<I::vsubrelu>, a5_fixed<2, I::vsub, I::vrelu>),
    {Op::TADDDEQRELU, cpu::compound::kAddDeqRelu,
     {{{}, a2a3_deq}, {{}, a5_deq}}},
};
}  // namespace

std::span<const InstrImpl> compound_instructions() { return kTable; }

}  // namespace pto::backend
