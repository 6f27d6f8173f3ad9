// The narrow, type-erased interface between the runtime and a backend: a record of operand views and
// a scalar, and two phases. `start` runs when the instruction starts on its pipe (it may copy what it
// reads into `staging`, as a DMA engine does); `finish` runs when it ends and makes its writes visible.
// A backend header: the package does not install it (users never see it).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include <pto/isa/enums.hpp>
#include <pto/isa/op.hpp>
#include <pto/isa/operand.hpp>

namespace pto {

// Scratch bytes a kernel keeps from `start` to `finish` (a DMA's in-flight data). Growing leaves the
// contents undefined - no zero-fill, which would cost as much as the copy itself - and the runtime
// reuses buffers across instructions.
class Staging {
public:
  std::byte* resize(std::size_t n) {
    if (n > cap_) {
      buf_.reset(new std::byte[n]);
      cap_ = n;
    }
    size_ = n;
    return buf_.get();
  }
  std::byte* data() { return buf_.get(); }
  const std::byte* data() const { return buf_.get(); }
  std::size_t size() const { return size_; }

private:
  std::unique_ptr<std::byte[]> buf_;
  std::size_t size_ = 0, cap_ = 0;
};

struct ExecContext {
  const Operand* ops = nullptr;
  int nops = 0;
  ScalarValue scalar{};
  std::uint8_t variant = 0;
  Target target = Target::A2A3;
  Staging* staging = nullptr;  // owned by the runtime, alive from start to finish
  Op op = Op::kCount;          // the instruction
  std::byte* ub = nullptr;     // the core's UB (device code paths address it directly)
  std::size_t ub_bytes = 0;
};

using PhaseFn = void (*)(ExecContext&);

// How a backend runs an instruction that reads at its start and writes at its end.
//  - finish: required; makes the writes, reading the inputs (or what `start` staged).
//  - start: optional; copies what the instruction reads into ctx.staging. With `direct` present the
//    runtime calls it only when another instruction overwrites those inputs while this one runs
//    (copy on write); without `direct` it is called at every start.
//  - direct: optional; the whole instruction in one step, used when nothing overwrote its inputs.
// Kernels without `start` get their inputs snapshotted by the runtime when that is needed.
struct BackendKernel {
  PhaseFn start = nullptr;
  PhaseFn finish = nullptr;
  PhaseFn direct = nullptr;
};

}  // namespace pto
