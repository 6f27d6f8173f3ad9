// Conversion (TCVT): its CPU kernel (backends/cpu/convert.hpp) and, per target, its device path (A2A3
// TCvtHead / TCvtTail and the PyTorch-compatible tmp paths; A5 the 1-D and per-row vcvt loops) with the
// planner of the same stream for operands outside UB (backends/common/planner.hpp).
#include "../a2a3/paths.hpp"
#include "../a5/paths.hpp"
#include "../common/planner.hpp"
#include "../cpu/convert.hpp"
#include "families.hpp"

namespace pto::backend {
namespace {
constexpr InstrImpl kTable[] = {
    {Op::TCVT, cpu::cvt::kConvert, {{a2a3::convert_path, plan::a2a3::convert}, {a5::convert_path, plan::a5::convert}}},
};
}  // namespace

std::span<const InstrImpl> convert_instructions() { return kTable; }

}  // namespace pto::backend
