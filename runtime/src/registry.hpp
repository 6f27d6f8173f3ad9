// The runtime reaches backends only here: (instruction, target) -> kernel.
#pragma once
#include <pto/isa/enums.hpp>
#include <pto/isa/kernel_abi.hpp>
#include <pto/isa/op.hpp>

namespace pto::detail {

// The kernel that runs `op` for `target`; throws pto::Error naming the op when none exists.
const BackendKernel& backend_kernel(Op op, Target target);

}  // namespace pto::detail
