// Sorting, gathering and scattering (TSORT32, TMRGSORT, TGATHER, TGATHERB, TSCATTER): the CPU kernels (backends/cpu/sort.hpp,
// backends/cpu/gather.hpp), the device paths of TSORT32 and TMRGSORT on both targets (backends/common/sort_paths.hpp) and of
// TGATHER (A2A3: the index form; A5: the index form and the row patterns) and,
// per target, the planner of the stream the NPU code issues for every form no device path covers
// (backends/common/plan_sort.hpp).
#include "../a2a3/paths.hpp"
#include "../a5/paths.hpp"
#include "../common/plan_sort.hpp"
#include "../cpu/gather.hpp"
#include "../cpu/sort.hpp"
#include "families.hpp"

namespace pto::backend {
namespace {
constexpr InstrImpl kTable[] = {
    {Op::TSORT32, cpu::sort::kSort32, {{a2a3::sort32_path, plan::a2a3::tsort32}, {a5::sort32_path, plan::a5::tsort32}}},
    {Op::TMRGSORT, cpu::sort::kMrgSort, {{a2a3::mrgsort_path, plan::a2a3::tmrgsort}, {a5::mrgsort_path, plan::a5::tmrgsort}}},
    {Op::TGATHER, cpu::gather::kGather, {{a2a3::gather_path, plan::a2a3::tgather}, {a5::gather_path, plan::a5::tgather}}},
    {Op::TGATHERB, cpu::gather::kGatherB, {{{}, plan::a2a3::tgatherb}, {{}, plan::a5::tgatherb}}},
    {Op::TSCATTER, cpu::gather::kScatter, {{{}, plan::a2a3::tscatter}, {{}, plan::a5::tscatter}}},
};
}  // namespace

std::span<const InstrImpl> sort_instructions() { return kTable; }

}  // namespace pto::backend
