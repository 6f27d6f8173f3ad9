// Modeled cycles of one instruction on a target. Provisional per-instruction formulas from the
// reference cost model's calibrated numbers (../shared/spec/cost-model-reference.md §2); the pipeline
// model issue replaces them with a full per-target table and, later, the device intrinsic stream.
#pragma once
#include <cstdint>

#include <pto/isa/enums.hpp>
#include <pto/runtime/record.hpp>

namespace pto::detail {

struct CostTable {
  double clock_ghz;              // cycles per nanosecond
  double gm_to_ub_bytes_per_cycle;
  double ub_to_gm_bytes_per_cycle;
  std::uint64_t vector_head_cycles;
  std::uint64_t vector_cycles_per_repeat;  // one repeat = 256 bytes of the destination
  std::uint64_t scalar_issue_cycles;       // paid by PIPE_S for every instruction it issues
};

const CostTable& cost_table(Target t);
std::uint64_t cost_cycles(const InstrRecord& rec, Target t);

}  // namespace pto::detail
