// Compare and select (TCMP, TCMPS, TSEL, TSELS): one entry per instruction, with its CPU kernel and,
// per target, its device path (A2A3 TSel / TSels; A5 TSel / TSels up to 32-bit elements) or the
// planner of its intrinsic stream (TCMP and TCMPS, A5 64-bit and wide 8-bit TSEL:
// backends/common/planner.hpp documents each formula).
#include "../a2a3/paths.hpp"
#include "../a5/paths.hpp"
#include "../common/planner.hpp"
#include "../cpu/select.hpp"
#include "families.hpp"

namespace pto::backend {
namespace {
using cpu::select::kCompare;
using cpu::select::kSelect;

constexpr InstrImpl kTable[] = {
    {Op::TCMP, kCompare, {{{}, plan::a2a3::compare}, {{}, plan::a5::compare}}},
    {Op::TCMPS, kCompare, {{{}, plan::a2a3::compare}, {{}, plan::a5::compare}}},
    {Op::TSEL, kSelect, {{a2a3::select_path, nullptr}, {a5::select_path, plan::a5::select}}},
    {Op::TSELS, kSelect, {{a2a3::select_path, nullptr}, {a5::select_path, plan::a5::select}}},
};
}  // namespace

std::span<const InstrImpl> select_instructions() { return kTable; }

}  // namespace pto::backend
