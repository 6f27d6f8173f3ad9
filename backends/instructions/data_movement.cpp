// TLOAD (to Vec or Mat), TPREFETCH, TSTORE (from Vec or Mat), MGATHER / MSCATTER (GM through an index
// tile), TMOV (Vec -> Vec) and TEXPANDS: one entry per instruction. The transfers have only a CPU kernel (the pipeline model prices them by bytes); TMOV and TEXPANDS run on the vector
// pipe and have device paths.
#include "../a2a3/paths.hpp"
#include "../a5/paths.hpp"
#include "../common/planner.hpp"
#include "../cpu/data_movement.hpp"
#include "../cpu/gm_indexed.hpp"
#include "families.hpp"

namespace pto::backend {
namespace {

constexpr InstrImpl kTable[] = {
    {Op::TLOAD, cpu::move::kTLoad, {}},
    {Op::TPREFETCH, cpu::move::kTPrefetch, {}},
    {Op::MGATHER, cpu::gm_indexed::kMGather, {}},
    {Op::MSCATTER, cpu::gm_indexed::kMScatter, {}},
    {Op::TSTORE_VEC, cpu::move::kTStore, {}},
    {Op::TSTORE_MAT, cpu::move::kTStore, {}},
    {Op::TMOV_V2V, cpu::move::kTMov,
     {{a2a3::path<a2a3::tmov, a2a3::covers_tmov, a2a3::overrun_tmov>, plan::a2a3::tmov},
      {a5::path<a5::typed<a5::Mov, a5::kEvery, a5::Mov>, a5::covers<a5::kEvery>>, plan::a5::tmov}}},
    {Op::TEXPANDS, cpu::move::kTExpandS,
     {{a2a3::path<a2a3::expands, a2a3::covers<a2a3::kUpTo32, true>, a2a3::overrun_expands>, plan::a2a3::expands},
      {a5::path<a5::typed<a5::ExpandS, a5::kEvery, a5::ExpandS>, a5::covers<a5::kEvery>>, plan::a5::expands}}},
};
}  // namespace

std::span<const InstrImpl> data_movement_instructions() { return kTable; }

}  // namespace pto::backend
