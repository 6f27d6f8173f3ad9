// Layout instructions (TTRANS, TFILLPAD, TFILLPAD_INPLACE, TFILLPAD_EXPAND, TCONCAT; TEXTRACT and TINSERT
// between Vec tiles, whose CPU kernel is TMOV's: their operands are the window and its copy): the CPU kernels
// (backends/cpu/layout.hpp), the device paths (TTRANS on both targets, A5's TFILLPAD family:
// backends/a2a3/paths.hpp, backends/a5/paths.hpp) and, per target, the planner of the stream the NPU code
// issues for the forms no device path covers (backends/common/plan_layout.hpp).
#include "../a2a3/paths.hpp"
#include "../a5/paths.hpp"
#include "../common/plan_layout.hpp"
#include "../cpu/data_movement.hpp"
#include "../cpu/layout.hpp"
#include "families.hpp"

namespace pto::backend {
namespace {
constexpr InstrImpl kTable[] = {
    {Op::TTRANS, cpu::layout::kTrans, {{a2a3::trans_path, plan::a2a3::ttrans}, {a5::trans_path, plan::a5::ttrans}}},
    {Op::TFILLPAD, cpu::layout::kFillPad, {{{}, plan::a2a3::tfillpad}, {a5::fillpad_path, plan::a5::tfillpad}}},
    {Op::TFILLPAD_INPLACE, cpu::layout::kFillPad, {{{}, plan::a2a3::tfillpad}, {a5::fillpad_path, plan::a5::tfillpad}}},
    {Op::TFILLPAD_EXPAND, cpu::layout::kFillPad, {{{}, plan::a2a3::tfillpad}, {a5::fillpad_path, plan::a5::tfillpad}}},
    {Op::TEXTRACT_V2V, cpu::move::kTMov, {{{}, plan::a2a3::twindow}, {{}, plan::a5::twindow<false>}}},
    {Op::TINSERT_V2V, cpu::move::kTMov, {{{}, plan::a2a3::twindow}, {{}, plan::a5::twindow<true>}}},
    {Op::TCONCAT, cpu::layout::kConcat, {{{}, plan::a2a3::tconcat}, {{}, plan::a5::tconcat}}},
};
}  // namespace

std::span<const InstrImpl> layout_instructions() { return kTable; }

}  // namespace pto::backend
