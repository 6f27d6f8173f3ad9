// The A5 device code paths: PTO's A5 algorithms on the emulated register machine.
#pragma once
#include <pto/isa/kernel_abi.hpp>
#include <pto/isa/op.hpp>

#include "register_unit.hpp"

namespace pto::a5 {

// Whether a device path exists for this instruction and operand dtype.
bool covers(Op op, const ExecContext& ctx);
// Runs op's algorithm on `u` (executing or only counting, as the unit was built) and appends the
// intrinsics it issued to the unit's stream. Returns false when no device path covers it.
bool run(Op op, RegisterUnit& u, const ExecContext& ctx);
// The runtime's kernel for covered instructions.
const BackendKernel& device_kernel();

}  // namespace pto::a5
