// Generators (TCI, TTRI, TRANDOM) and THISTOGRAM: the CPU kernel (backends/cpu/generate.hpp) and, per target, the planner of the
// stream its NPU code issues (backends/common/plan_generate.hpp). No device path yet.
#include "../common/plan_generate.hpp"
#include "../cpu/generate.hpp"
#include "../cpu/histogram.hpp"
#include "families.hpp"

namespace pto::backend {
namespace {
constexpr InstrImpl kTable[] = {
    {Op::TCI, cpu::generate::kTci, {{{}, plan::a2a3::tci}, {{}, plan::a5::tci}}},
    {Op::TTRI, cpu::generate::kTri, {{{}, plan::a2a3::ttri}, {{}, plan::a5::ttri}}},
    {Op::TRANDOM, cpu::generate::kRandom, {{}, {{}, plan::a5::trandom}}},  // A5 only
    {Op::THISTOGRAM, cpu::histogram::kHistogram, {{}, {{}, plan::a5::thistogram}}},  // A5 only
};
}  // namespace

std::span<const InstrImpl> generate_instructions() { return kTable; }

}  // namespace pto::backend
