#include "registry.hpp"

#include "../../backends/cpu/cpu_backend.hpp"
#include <pto/isa/error.hpp>

namespace pto::detail {

const BackendKernel& backend_kernel(Op op, Target target) {
  // Device code paths (backends/a2a3, backends/a5) will be consulted first for their target.
  if (const BackendKernel* k = cpu::kernel_for(op)) return *k;
  fail(op_name(op), ": no backend implements this instruction for target ", name_of(target));
}

}  // namespace pto::detail
