// The runtime reaches backends only here, through the backend registry (pto/backends/registry.hpp):
// (instruction record, target) -> kernel, device write footprint, intrinsic stream.
#pragma once
#include <string>

#include <pto/backends/registry.hpp>
#include <pto/isa/enums.hpp>
#include <pto/backends/registry.hpp>
#include <pto/runtime/record.hpp>

namespace pto::detail {

// The one way an instruction record becomes a backend's ExecContext. `ub`: the core's UB (device
// algorithms address it directly); `staging`: the runtime's in-flight buffer (null when none).
inline ExecContext make_context(const InstrRecord& rec, Target target, std::byte* ub, std::size_t ub_bytes,
                                Staging* staging = nullptr) {
  ExecContext c;
  c.ops = rec.ops;
  c.nops = rec.nops;
  c.scalar = rec.scalar;
  c.variant = rec.variant;
  c.target = target;
  c.staging = staging;
  c.op = rec.desc->op;
  c.ub = ub;
  c.ub_bytes = ub_bytes;
  return c;
}

// The kernel that runs `rec` for `target`: the target's device code path when one covers it and
// `device` is set, else the CPU reference; throws pto::Error naming the op when none exists.
inline const BackendKernel& backend_kernel(const InstrRecord& rec, Target target, bool device, std::byte* ub, std::size_t ub_bytes) {
  return backend::kernel_for(make_context(rec, target, ub, ub_bytes), device);
}

// When the target's device path runs (call it only when device paths are on) `rec` and writes past
// dst's valid region (inside the tile), adds those bytes to dst's write footprint and returns the
// warning for the run report; else "".
inline std::string declare_device_writes(InstrRecord& rec, Target target, std::byte* ub, std::size_t ub_bytes) {
  if (rec.nops == 0) return {};
  backend::Overrun o = backend::device_overrun(make_context(rec, target, ub, ub_bytes));
  if (o.tail_bytes == 0 && o.extra_lines == 0) return {};
  rec.ops[0].write_tail_bytes = o.tail_bytes;
  rec.ops[0].write_extra_lines = o.extra_lines;
  return std::move(o.warning);
}

}  // namespace pto::detail
