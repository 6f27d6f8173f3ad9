// The intrinsic stream a vector instruction issues on a target, derived from the target's algorithm
// (spec §3.2-3.9) and the operands' shapes: which intrinsics, in which mask mode, how many repeats
// (A2/A3) or loop iterations (A5). The pipeline model prices the stream with the target's CostTable.
#pragma once
#include <vector>

#include <pto/runtime/cost_table.hpp>
#include <pto/runtime/record.hpp>

namespace pto::detail {

// The stream `rec` (a PIPE_V compute record) issues on `machine`'s algorithms.
void plan_vector(const InstrRecord& rec, VectorMachine machine, IntrinsicStream& out);

}  // namespace pto::detail
