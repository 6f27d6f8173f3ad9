// Quantisation (TQUANT INT8 SYM / ASYM and MX, TDEQUANT): the CPU kernels (backends/cpu/quant.hpp)
// and, per target, the planner of the stream its NPU code issues (backends/common/plan_quant.hpp).
#include "../common/plan_quant.hpp"
#include "../cpu/quant.hpp"
#include "families.hpp"

namespace pto::backend {
namespace {
constexpr InstrImpl kTable[] = {
    {Op::TQUANT, cpu::quant::kQuantInt8, {{{}, plan::a2a3::tquant_int8}, {{}, plan::a5::tquant_int8}}},
    {Op::TQUANT_ASYM, cpu::quant::kQuantInt8, {{{}, plan::a2a3::tquant_int8}, {{}, plan::a5::tquant_int8}}},
    {Op::TQUANT_MX, cpu::quant::kQuantMx, {{}, {{}, plan::a5::tquant_mx}}},  // A5 only
    {Op::TDEQUANT, cpu::quant::kDequant, {{{}, plan::a2a3::tdequant}, {{}, plan::a5::tdequant}}},
};
}  // namespace

std::span<const InstrImpl> quant_instructions() { return kTable; }

}  // namespace pto::backend
