// Element-wise tile-tile arithmetic (TADD, TSUB, TMUL, TDIV, TMAX, TMIN) and bit operations (TAND, TOR,
// TXOR): one entry per instruction, with
// its CPU kernel and, per target, its device path (A2A3 TBinOp, A5 TBinOp and Int64Binary). Every form
// the public functions accept is covered by a device path, except A5 64-bit TDIV (planned).
#include "../a2a3/paths.hpp"
#include "../a5/paths.hpp"
#include "../common/planner.hpp"
#include "../cpu/binary.hpp"
#include "families.hpp"

namespace pto::backend {
namespace {
using device::Fn;
using lanes::BinOp;

template <Op O, BinOp B, Fn F>
constexpr InstrImpl binary() {
  return {O, cpu::binary::kBinary<B, O>, {{a2a3::binary_path<F, a2a3::kNumbers>, nullptr}, {a5::binary_path<F>, nullptr}}};
}

constexpr InstrImpl kTable[] = {
    binary<Op::TADD, BinOp::Add, Fn::Add>(),
    binary<Op::TSUB, BinOp::Sub, Fn::Sub>(),
    binary<Op::TMUL, BinOp::Mul, Fn::Mul>(),
    binary<Op::TMAX, BinOp::Max, Fn::Max>(),
    binary<Op::TMIN, BinOp::Min, Fn::Min>(),
    {Op::TDIV, cpu::binary::kBinary<BinOp::Div, Op::TDIV>,
     {{a2a3::binary_path<Fn::Div, a2a3::kFloats>, nullptr}, {a5::div_path, plan::a5::div64}}},
    // bitwise: A2A3 on 16-bit lanes (TXOR composed of vor, vand, vnot), A5 one op per chunk (TXOR's tmp unused)
    {Op::TAND, cpu::binary::kBinary<BinOp::And, Op::TAND>, {{a2a3::bitwise_path<Fn::And>, nullptr}, {a5::binary_path<Fn::And>, nullptr}}},
    {Op::TOR, cpu::binary::kBinary<BinOp::Or, Op::TOR>, {{a2a3::bitwise_path<Fn::Or>, nullptr}, {a5::binary_path<Fn::Or>, nullptr}}},
    {Op::TXOR, cpu::binary::kBinary<BinOp::Xor, Op::TXOR>, {{a2a3::xor_path, nullptr}, {a5::binary_path<Fn::Xor>, nullptr}}},
    // shifts: A2A3 on the scalar unit (planned; the CPU reference computes), A5 one vshl/vshr per chunk
    {Op::TSHL, cpu::binary::kBinary<BinOp::Shl, Op::TSHL>, {{{}, plan::a2a3::scalar_shift}, {a5::binary_path<Fn::Shl>, nullptr}}},
    {Op::TSHR, cpu::binary::kBinary<BinOp::Shr, Op::TSHR>, {{{}, plan::a2a3::scalar_shift}, {a5::binary_path<Fn::Shr>, nullptr}}},
};
}  // namespace

std::span<const InstrImpl> binary_instructions() { return kTable; }

}  // namespace pto::backend
