// The CPU reference backend: one kernel per instruction, over type-erased operand views.
#pragma once
#include <pto/isa/kernel_abi.hpp>
#include <pto/isa/op.hpp>

namespace pto::cpu {

// The CPU kernel for `op`, or nullptr when the CPU backend has none.
const BackendKernel* kernel_for(Op op);

}  // namespace pto::cpu
