// The CPU reference backend: one kernel per instruction, over type-erased operand views.
#pragma once
#include <pto/isa/kernel_abi.hpp>
#include <pto/isa/op.hpp>

namespace pto::cpu {

// The CPU kernel for `op`, or nullptr when the CPU backend has none.
const BackendKernel* kernel_for(Op op);

// Per family (each file owns its instructions).
const BackendKernel* data_movement_kernel(Op op);
const BackendKernel* broadcast_kernel(Op op);
const BackendKernel* tile_scalar_kernel(Op op);

}  // namespace pto::cpu
