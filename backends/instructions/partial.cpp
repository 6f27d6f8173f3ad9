// Partial element-wise ops (TPARTADD, TPARTMUL, TPARTMAX, TPARTMIN, TPARTARGMAX, TPARTARGMIN): the CPU kernel
// (backends/cpu/partial.hpp) and, per target, the planner of the stream the NPU code issues
// (backends/common/plan_partial.hpp). No device paths yet.
#include "../common/plan_partial.hpp"
#include "../cpu/partial.hpp"
#include "families.hpp"

namespace pto::backend {
namespace {
using lanes::BinOp;
constexpr InstrImpl kTable[] = {
    {Op::TPARTADD, cpu::partial::kPart<BinOp::Add>, {{{}, plan::a2a3::tpart<Intrinsic::vadd>}, {{}, plan::a5::tpart<Intrinsic::vadd>}}},
    {Op::TPARTMUL, cpu::partial::kPart<BinOp::Mul>, {{{}, plan::a2a3::tpart<Intrinsic::vmul>}, {{}, plan::a5::tpart<Intrinsic::vmul>}}},
    {Op::TPARTMAX, cpu::partial::kPart<BinOp::Max>, {{{}, plan::a2a3::tpart<Intrinsic::vmax>}, {{}, plan::a5::tpart<Intrinsic::vmax>}}},
    {Op::TPARTMIN, cpu::partial::kPart<BinOp::Min>, {{{}, plan::a2a3::tpart<Intrinsic::vmin>}, {{}, plan::a5::tpart<Intrinsic::vmin>}}},
    {Op::TPARTARGMAX, cpu::partial::kPartArg<true>, {{{}, plan::a2a3::tpartarg}, {{}, plan::a5::tpartarg}}},
    {Op::TPARTARGMIN, cpu::partial::kPartArg<false>, {{{}, plan::a2a3::tpartarg}, {{}, plan::a5::tpartarg}}},
};
}  // namespace

std::span<const InstrImpl> partial_instructions() { return kTable; }

}  // namespace pto::backend
