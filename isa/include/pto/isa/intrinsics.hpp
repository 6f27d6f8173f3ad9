// The intrinsics of the two vector machines and an instruction's intrinsic stream: what a device
// algorithm issues (recorded when it runs), what the pipeline model prices (pto/runtime/cost_table.hpp).
// Plain descriptions, shared by the backends (which produce streams) and the runtime (which prices them).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pto {

#define PTO_INTRINSIC_LIST(X)                                                                          \
  X(vadd) X(vsub) X(vmul) X(vdiv) X(vmax) X(vmin) X(vadds) X(vmuls) X(vmaxs) X(vmins) X(vaxpy) X(vexp) \
  X(vexpdif) X(vector_dup) X(vbrcb) X(copy_ubuf_to_ubuf) X(vconv) X(vcvt) X(vaddc) X(vsubc) X(vmull)   \
  X(vsel) X(vcmp) X(vlds) X(vsts) X(sync_roundtrip) X(scalar_elem) X(plt) X(vbr) X(vloop)     \
  X(vabs) X(vrelu) X(vnot) X(vsqrt) X(vrsqrt) X(vln) X(vcadd) X(vcmax) X(vcmin) X(vcgadd) X(vcgmax) X(vcgmin) X(vand) X(vor) X(vxor) X(vshl) X(vshr) X(vlrelu) \
  X(vmadd) X(vmaddrelu) X(vmla) X(vsubrelu) X(vprelu) X(vmod) X(vtrc) X(vbitsort) X(vmrgsort4) X(vgather) X(vreducev2) \
  X(vsqz) X(vci) X(vnchwconv) X(vscatter) X(vcopy) X(vgatherb) X(vintlv) X(vdintlv) X(chistv2)

enum class Intrinsic : std::uint8_t {
#define PTO_INTRINSIC_ENUM(name) name,
  PTO_INTRINSIC_LIST(PTO_INTRINSIC_ENUM)
#undef PTO_INTRINSIC_ENUM
  kCount
};
inline constexpr int kNumIntrinsics = static_cast<int>(Intrinsic::kCount);

constexpr const char* intrinsic_name(Intrinsic i) {
  constexpr const char* names[] = {
#define PTO_INTRINSIC_NAME(name) #name,
      PTO_INTRINSIC_LIST(PTO_INTRINSIC_NAME)
#undef PTO_INTRINSIC_NAME
  };
  return names[std::size_t(i)];
}

enum class VectorMachine : std::uint8_t {
  Repeat,   // A2/A3: 256-byte repeats under a 128-bit mask, norm or counter mode
  Register  // A5: 256-byte registers in a vector-function loop (loads, ALU, stores overlap)
};

// One call in an instruction's intrinsic stream. `calls` identical back-to-back calls are one entry.
struct IntrinsicCall {
  Intrinsic op = Intrinsic::vadd;
  bool count_mode = false;       // Repeat: counter mode (the repeat count comes from the element count)
  bool barrier_before = false;   // a pipe_barrier(PIPE_V) precedes it: the pipe drains first
  std::uint16_t lanes = 0;       // active lanes of the last repeat (0 = all)
  std::uint32_t repeats = 1;     // Repeat: repeats per call; Register: loop iterations
  std::uint32_t calls = 1;
  std::uint64_t bytes = 0;       // copy_ubuf_to_ubuf: bytes per call
  // Repeat machine: block strides (dst, src0, src1) then repeat strides (dst, src0, src1), in 32-byte
  // blocks, as the call passed them (device paths; planned streams leave them 0).
  std::array<std::uint16_t, 6> strides{};
};

// An instruction's intrinsic stream, as its algorithm issues it.
class IntrinsicStream {
public:
  void clear() {
    calls_.clear();
    barrier_ = false;
  }
  // Appends a call; one identical to the previous (and not behind a barrier) only bumps its count.
  void add(IntrinsicCall c) {
    c.barrier_before = barrier_;
    barrier_ = false;
    if (!calls_.empty()) {
      IntrinsicCall& p = calls_.back();
      if (!c.barrier_before && p.op == c.op && p.count_mode == c.count_mode && p.lanes == c.lanes &&
          p.repeats == c.repeats && p.bytes == c.bytes && p.strides == c.strides) {
        p.calls += c.calls;
        return;
      }
    }
    calls_.push_back(c);
  }
  void barrier() { barrier_ = !calls_.empty(); }  // pipe_barrier(PIPE_V) inside the instruction
  const std::vector<IntrinsicCall>& calls() const { return calls_; }

private:
  std::vector<IntrinsicCall> calls_;
  bool barrier_ = false;
};

}  // namespace pto
