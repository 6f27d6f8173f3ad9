// The A2/A3 device code paths: PTO's A2/A3 algorithms on the emulated vector unit.
#pragma once
#include <pto/isa/kernel_abi.hpp>
#include <pto/isa/op.hpp>

#include "vector_unit.hpp"

namespace pto::a2a3 {

// Whether a device path exists for this instruction and operand dtype.
bool covers(Op op, const ExecContext& ctx);
// Runs op's algorithm on `vu` (executing or only recording, as the unit was built); `ub` is the core's
// UB (the fixed scratch lives there). Returns false when no device path covers it.
bool run(Op op, VectorUnit& vu, const ExecContext& ctx, std::byte* ub);

// What the algorithm for this record writes past dst's valid region inside the tile (pure TCOLEXPAND's
// 32-byte blocks, the 240-row chunks of mode-1 TROWEXPAND*), known before it runs.
device::Overrun write_overrun(Op op, const ExecContext& ctx);

// The runtime's kernel for covered instructions: runs the algorithm on an executing unit over ctx.ub.
const BackendKernel& device_kernel();

}  // namespace pto::a2a3
