// Tile-scalar arithmetic (TADDS, TSUBS, TMULS, TDIVS, TMAXS, TMINS), bitwise (TANDS, TORS, TXORS,
// TSHLS, TSHRS), TEXP and TAXPY: one entry per
// instruction, with its CPU kernel and, per target, its device path and the planner for forms no path
// covers (ColMajor operands, 64-bit A5 division, float scalar / src in place on A2A3).
#include "../a2a3/paths.hpp"
#include "../a5/paths.hpp"
#include "../common/planner.hpp"
#include "../cpu/tile_scalar.hpp"
#include "families.hpp"

namespace pto::backend {
namespace {
using device::Fn;
using I = Intrinsic;
using lanes::BinOp;

// dst = src op scalar; the A2A3 vector intrinsic In (TSUBS adds the negated scalar).
template <Op O, BinOp B, Fn F, I In>
constexpr InstrImpl tile_scalar() {
  return {O, cpu::scalar::kTileScalar<B, O>,
          {{a2a3::tile_scalar_path<F>, plan::a2a3::elementwise<In>}, {a5::tile_scalar_path<F>, plan::a5::elementwise<In>}}};
}

constexpr InstrImpl kTable[] = {
    tile_scalar<Op::TADDS, BinOp::Add, Fn::Add, I::vadds>(),
    tile_scalar<Op::TSUBS, BinOp::Sub, Fn::Sub, I::vadds>(),
    tile_scalar<Op::TMULS, BinOp::Mul, Fn::Mul, I::vmuls>(),
    tile_scalar<Op::TMAXS, BinOp::Max, Fn::Max, I::vmaxs>(),
    tile_scalar<Op::TMINS, BinOp::Min, Fn::Min, I::vmins>(),
    tile_scalar<Op::TLRELU, BinOp::LRelu, Fn::LRelu, I::vlrelu>(),  // dst = x > 0 ? x : x * slope
    // integers: the scalar loop on A2A3; no 64-bit register-pair division on A5 (CPU reference)
    {Op::TDIVS, cpu::scalar::kTileScalar<BinOp::Div, Op::TDIVS>,
     {{a2a3::path<a2a3::typed<a2a3::Divs, a2a3::kNumbers>, a2a3::covers_divs>, plan::a2a3::divs},
      {a5::path<a5::typed<a5::TileScalar<Fn::Div>, a5::kFloatsInts>, a5::covers<a5::kFloatsInts>>,
       plan::a5::elementwise<I::vdiv>}}},
    // TNEG is TMULS by -1 and TRECIP is TDIVS(dst, 1, src) on both NPUs (pto-isa pto_instr.hpp)
    tile_scalar<Op::TNEG, BinOp::Mul, Fn::Mul, I::vmuls>(),
    {Op::TRECIP, cpu::scalar::kTileScalar<BinOp::Div, Op::TRECIP>,
     {{a2a3::path<a2a3::typed<a2a3::Divs, a2a3::kNumbers>, a2a3::covers_divs>, plan::a2a3::divs},
      {a5::path<a5::typed<a5::TileScalar<Fn::Div>, a5::kFloatsInts>, a5::covers<a5::kFloatsInts>>,
       plan::a5::elementwise<I::vdiv>}}},
    // bitwise with a scalar (A2A3 TBitwiseSOp.hpp: TEXPANDS then TAND / TOR / the TXOR sequence on
    // 16-bit lanes; vshl / vshr of a scalar count; A5 TAndS.hpp ... TShrS.hpp: one op per chunk)
    {Op::TANDS, cpu::scalar::kTileScalar<BinOp::And, Op::TANDS>, {{a2a3::bitwise_scalar_path<Fn::And>, nullptr}, {a5::bits_scalar_path<Fn::And>, nullptr}}},
    {Op::TORS, cpu::scalar::kTileScalar<BinOp::Or, Op::TORS>, {{a2a3::bitwise_scalar_path<Fn::Or>, nullptr}, {a5::bits_scalar_path<Fn::Or>, nullptr}}},
    {Op::TXORS, cpu::scalar::kTileScalar<BinOp::Xor, Op::TXORS>, {{a2a3::xors_path, nullptr}, {a5::bits_scalar_path<Fn::Xor>, nullptr}}},
    {Op::TSHLS, cpu::scalar::kTileScalar<BinOp::Shl, Op::TSHLS>, {{a2a3::shift_scalar_path<Fn::Shl>, nullptr}, {a5::bits_scalar_path<Fn::Shl>, plan::a5::elementwise<I::vshl>}}},
    {Op::TSHRS, cpu::scalar::kTileScalar<BinOp::Shr, Op::TSHRS>, {{a2a3::shift_scalar_path<Fn::Shr>, nullptr}, {a5::bits_scalar_path<Fn::Shr>, plan::a5::elementwise<I::vshr>}}},
    {Op::TEXP, cpu::scalar::kTEXP,
     {{a2a3::path<a2a3::typed<a2a3::Exp, a2a3::kFloats>, a2a3::covers<a2a3::kFloats>>, plan::a2a3::exp},
      {a5::path<a5::typed<a5::Exp, a5::kFloats>, a5::covers<a5::kFloats>>, plan::a5::elementwise<I::vexp>}}},
    {Op::TAXPY, cpu::scalar::kTAXPY,
     {{a2a3::path<a2a3::axpy, a2a3::covers<a2a3::kFloats>>, plan::a2a3::axpy},
      {a5::path<a5::axpy, a5::covers<a5::kFloats>>, plan::a5::axpy}}},
};
}  // namespace

std::span<const InstrImpl> tile_scalar_instructions() { return kTable; }

}  // namespace pto::backend
