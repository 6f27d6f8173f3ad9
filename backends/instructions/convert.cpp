// Conversion (TCVT): its CPU kernel (backends/cpu/convert.hpp) and, per target, the planner of its
// intrinsic stream (backends/common/planner.hpp: plan::a2a3::convert mirrors TCvtHead / TCvtTail and
// the PyTorch-compatible tmp paths, plan::a5::convert the 1-D and per-row vcvt loops).
#include "../common/planner.hpp"
#include "../cpu/convert.hpp"
#include "families.hpp"

namespace pto::backend {
namespace {
constexpr InstrImpl kTable[] = {
    {Op::TCVT, cpu::cvt::kConvert, {{{}, plan::a2a3::convert}, {{}, plan::a5::convert}}},
};
}  // namespace

std::span<const InstrImpl> convert_instructions() { return kTable; }

}  // namespace pto::backend
