// One descriptor per instruction: name, Op, pipe and operand roles. The scheduler (auto-mode
// dependencies), the cost model, the trace and (later) the checker and assembler read these.
#pragma once
#include <array>
#include <iterator>
#include <cstdint>

#include <pto/isa/op.hpp>

namespace pto {

enum class Role : std::uint8_t { Read, Write, ReadWrite };

struct OperandDesc {
  const char* name = nullptr;
  Role role = Role::Read;
};

struct InstrDesc {
  Op op;
  const char* name;  // PTO spelling, as users write it
  pipe_t pipe;
  std::array<OperandDesc, 4> operands{};
  int operand_count = 0;
  bool has_scalar = false;
};

// The instructions the runtime implements. Adding one = one line here, one backend kernel, tests.
inline constexpr InstrDesc kInstrTable[] = {
    {Op::TLOAD, "TLOAD", PIPE_MTE2, {{{"dst", Role::Write}, {"src", Role::Read}}}, 2},
    {Op::TSTORE_VEC, "TSTORE", PIPE_MTE3, {{{"dst", Role::Write}, {"src", Role::Read}}}, 2},
    {Op::TMOV_V2V, "TMOV", PIPE_V, {{{"dst", Role::Write}, {"src", Role::Read}}}, 2},
    {Op::TEXPANDS, "TEXPANDS", PIPE_V, {{{"dst", Role::Write}}}, 1, true},
    {Op::SET_FLAG, "set_flag", PIPE_ALL, {}, 0},
    {Op::WAIT_FLAG, "wait_flag", PIPE_ALL, {}, 0},
    {Op::PIPE_BARRIER, "pipe_barrier", PIPE_ALL, {}, 0},
    {Op::WAIT_EVENT, "TSYNC", PIPE_ALL, {}, 0},
};

// Index of op's descriptor in kInstrTable, or -1 (an index, not a pointer, so it is a constant
// expression under the sanitizers too).
constexpr int desc_index(Op op) {
  for (int i = 0; i < int(std::size(kInstrTable)); ++i)
    if (kInstrTable[i].op == op) return i;
  return -1;
}

constexpr const InstrDesc* find_desc(Op op) {
  const int i = desc_index(op);
  return i < 0 ? nullptr : &kInstrTable[i];
}

template <Op O>
constexpr const InstrDesc& desc_of() {
  static_assert(desc_index(O) >= 0, "desc_of<Op>: this Op has no descriptor in isa/instr_desc.hpp yet");
  return kInstrTable[desc_index(O)];
}

}  // namespace pto
