// The backends' one face to the runtime: per instruction, everything that runs or prices it.
//
// An instruction is registered once, in its family's registration file (backends/instructions/), as an
// InstrImpl: its CPU reference kernel and, per target, the device algorithm (covers / execute / record
// / overrun, declared together) and the stream planner for forms no device algorithm covers. What the
// instruction *is* (name, pipe, operands, dtype rules) is its descriptor (pto/isa/instr_desc.hpp).
// The runtime finds everything here by Op; it includes nothing else from backends/.
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include <pto/isa/enums.hpp>
#include <pto/isa/intrinsics.hpp>
#include <pto/backends/kernel_abi.hpp>
#include <pto/isa/op.hpp>

namespace pto::backend {

// What a device algorithm writes past its destination's valid region while staying inside the tile:
// the runtime adds it to the instruction's write footprint (the checker, auto mode and snapshots see
// it) and puts `warning` in the run report.
struct Overrun {
  std::uint32_t tail_bytes = 0;   // past the end of each valid line
  std::uint32_t extra_lines = 0;  // whole lines past the valid ones
  std::string warning;            // empty: nothing written outside the valid region
};

// A target's device code path for one instruction: the chip's algorithm on the emulated unit.
struct DevicePath {
  bool (*covers)(const ExecContext&) = nullptr;  // null: no device path on this target
  PhaseFn execute = nullptr;                     // runs the algorithm on the bytes (the kernel's finish phase)
  void (*record)(const ExecContext&, IntrinsicStream&) = nullptr;  // the same run, computing nothing: its stream
  Overrun (*overrun)(const ExecContext&) = nullptr;                // null: writes nothing past the valid region
};

// The stream a target's algorithm would issue, derived from shapes alone (forms no DevicePath covers).
using PlanFn = void (*)(const ExecContext&, IntrinsicStream&);

struct TargetImpl {
  DevicePath path;
  PlanFn plan = nullptr;
};

struct InstrImpl {
  Op op = Op::kCount;
  BackendKernel cpu;            // the CPU reference (finish is null: none)
  TargetImpl target[kNumTargets];
};

// The registered implementation of `op`, or nullptr.
const InstrImpl* find(Op op);
// Every registered instruction, in Op order.
std::span<const InstrImpl* const> all();

// The kernel that runs `ctx` (built for op on target): the target's device path when `device` is set
// and it covers the operands, else the CPU reference; a pto::Error naming the op when there is none.
const BackendKernel& kernel_for(const ExecContext& ctx, bool device);

// Whether the target's device path covers `ctx`.
bool device_covers(const ExecContext& ctx);

// The intrinsic stream ctx's instruction issues on its target: a recording run of the device algorithm
// where one covers it, else the planner. A form the chip's algorithm rejects (a pto::Error naming what
// the chip would get wrong) propagates with `chip_errors`, else is planned (a CPU-reference run need
// not fail for a chip's limit). Returns false when the instruction has neither (not a vector
// instruction of that target).
bool record_stream(const ExecContext& ctx, IntrinsicStream& out, bool chip_errors = true);

// What the covering device path writes past dst's valid region (empty when none covers it).
Overrun device_overrun(const ExecContext& ctx);

}  // namespace pto::backend
