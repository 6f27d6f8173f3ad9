// The runtime reaches backends only here: (instruction, target) -> kernel.
#pragma once
#include <string>

#include <pto/isa/enums.hpp>
#include <pto/isa/kernel_abi.hpp>
#include <pto/isa/op.hpp>
#include <pto/runtime/record.hpp>

namespace pto::detail {

// The kernel that runs `rec` for `target`: the target's device code path when one covers it and
// `device` is set, else the CPU reference; throws pto::Error naming the op when none exists.
const BackendKernel& backend_kernel(const InstrRecord& rec, Target target, bool device, std::byte* ub, std::size_t ub_bytes);

// When the target's device path runs (call it only when device paths are on) `rec` and writes past dst's valid region (inside the tile), adds
// those bytes to dst's write footprint and returns the warning for the run report; else "".
std::string declare_device_writes(InstrRecord& rec, Target target, std::byte* ub, std::size_t ub_bytes);

}  // namespace pto::detail
