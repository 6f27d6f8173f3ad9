#include "registry.hpp"

#include "../../backends/a2a3/a2a3_backend.hpp"
#include "../../backends/a5/a5_backend.hpp"
#include "../../backends/cpu/cpu_backend.hpp"
#include <pto/isa/error.hpp>

namespace pto::detail {

const BackendKernel& backend_kernel(const InstrRecord& rec, Target target, bool device, std::byte* ub, std::size_t ub_bytes) {
  const Op op = rec.desc->op;
  if (device && target == Target::A2A3 && rec.pipe == PIPE_V) {
    const ExecContext ctx{rec.ops, rec.nops, rec.scalar, rec.variant, target, nullptr, op, ub, ub_bytes};
    if (a2a3::covers(op, ctx)) return a2a3::device_kernel();
  }
  if (device && target == Target::A5 && rec.pipe == PIPE_V) {
    const ExecContext ctx{rec.ops, rec.nops, rec.scalar, rec.variant, target, nullptr, op, ub, ub_bytes};
    if (a5::covers(op, ctx)) return a5::device_kernel();
  }
  if (const BackendKernel* k = cpu::kernel_for(op)) return *k;
  fail(op_name(op), ": no backend implements this instruction for target ", name_of(target));
}

std::string declare_device_writes(InstrRecord& rec, Target target, std::byte* ub, std::size_t ub_bytes) {
  if (target != Target::A2A3 || rec.pipe != PIPE_V || rec.nops == 0) return {};  // A5 stores are predicated
  const Op op = rec.desc->op;
  const ExecContext ctx{rec.ops, rec.nops, rec.scalar, rec.variant, target, nullptr, op, ub, ub_bytes};
  device::Overrun o = a2a3::write_overrun(op, ctx);  // cheap: most instructions write nothing extra
  if ((o.tail_bytes == 0 && o.extra_lines == 0) || !a2a3::covers(op, ctx)) return {};
  rec.ops[0].write_tail_bytes = o.tail_bytes;
  rec.ops[0].write_extra_lines = o.extra_lines;
  return std::move(o.warning);
}

}  // namespace pto::detail
