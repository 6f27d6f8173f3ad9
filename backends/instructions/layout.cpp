// Layout instructions (TTRANS, TFILLPAD, TFILLPAD_INPLACE, TFILLPAD_EXPAND, TCONCAT; TEXTRACT and TINSERT
// between Vec tiles, whose CPU kernel is TMOV's: their operands are the window and its copy): the CPU kernels
// (backends/cpu/layout.hpp) and, per target, the planner of the stream the NPU code issues
// (backends/common/plan_layout.hpp). No device paths yet.
#include "../common/plan_layout.hpp"
#include "../cpu/data_movement.hpp"
#include "../cpu/layout.hpp"
#include "families.hpp"

namespace pto::backend {
namespace {
constexpr InstrImpl kTable[] = {
    {Op::TTRANS, cpu::layout::kTrans, {{{}, plan::a2a3::ttrans}, {{}, plan::a5::ttrans}}},
    {Op::TFILLPAD, cpu::layout::kFillPad, {{{}, plan::a2a3::tfillpad}, {{}, plan::a5::tfillpad}}},
    {Op::TFILLPAD_INPLACE, cpu::layout::kFillPad, {{{}, plan::a2a3::tfillpad}, {{}, plan::a5::tfillpad}}},
    {Op::TFILLPAD_EXPAND, cpu::layout::kFillPad, {{{}, plan::a2a3::tfillpad}, {{}, plan::a5::tfillpad}}},
    {Op::TEXTRACT_V2V, cpu::move::kTMov, {{{}, plan::a2a3::twindow}, {{}, plan::a5::twindow<false>}}},
    {Op::TINSERT_V2V, cpu::move::kTMov, {{{}, plan::a2a3::twindow}, {{}, plan::a5::twindow<true>}}},
    {Op::TCONCAT, cpu::layout::kConcat, {{{}, plan::a2a3::tconcat}, {{}, plan::a5::tconcat}}},
};
}  // namespace

std::span<const InstrImpl> layout_instructions() { return kTable; }

}  // namespace pto::backend
