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
#define PTO_D_W {"dst", Role::Write}
#define PTO_D_R(n) {n, Role::Read}
inline constexpr InstrDesc kInstrTable[] = {
    {Op::TLOAD, "TLOAD", PIPE_MTE2, {{PTO_D_W, PTO_D_R("src")}}, 2},
    {Op::TSTORE_VEC, "TSTORE", PIPE_MTE3, {{PTO_D_W, PTO_D_R("src")}}, 2},
    {Op::TMOV_V2V, "TMOV", PIPE_V, {{PTO_D_W, PTO_D_R("src")}}, 2},
    {Op::TEXPANDS, "TEXPANDS", PIPE_V, {{PTO_D_W}}, 1, true},
    // column broadcast (spec §2.1)
    {Op::TCOLEXPAND, "TCOLEXPAND", PIPE_V, {{PTO_D_W, PTO_D_R("src")}}, 2},
    {Op::TCOLEXPANDADD, "TCOLEXPANDADD", PIPE_V, {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1")}}, 3},
    {Op::TCOLEXPANDSUB, "TCOLEXPANDSUB", PIPE_V, {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1")}}, 3},
    {Op::TCOLEXPANDMUL, "TCOLEXPANDMUL", PIPE_V, {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1")}}, 3},
    {Op::TCOLEXPANDDIV, "TCOLEXPANDDIV", PIPE_V, {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1")}}, 3},
    {Op::TCOLEXPANDMAX, "TCOLEXPANDMAX", PIPE_V, {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1")}}, 3},
    {Op::TCOLEXPANDMIN, "TCOLEXPANDMIN", PIPE_V, {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1")}}, 3},
    {Op::TCOLEXPANDEXPDIF, "TCOLEXPANDEXPDIF", PIPE_V, {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1")}}, 3},
    // row broadcast (spec §2.2); tmp is written on A2/A3 (vbrcb scratch)
    {Op::TROWEXPAND, "TROWEXPAND", PIPE_V, {{PTO_D_W, PTO_D_R("src")}}, 2},
    {Op::TROWEXPANDADD, "TROWEXPANDADD", PIPE_V, {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1"), {"tmp", Role::Write}}}, 4},
    {Op::TROWEXPANDSUB, "TROWEXPANDSUB", PIPE_V, {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1"), {"tmp", Role::Write}}}, 4},
    {Op::TROWEXPANDMUL, "TROWEXPANDMUL", PIPE_V, {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1"), {"tmp", Role::Write}}}, 4},
    {Op::TROWEXPANDDIV, "TROWEXPANDDIV", PIPE_V, {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1"), {"tmp", Role::Write}}}, 4},
    {Op::TROWEXPANDMAX, "TROWEXPANDMAX", PIPE_V, {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1"), {"tmp", Role::Write}}}, 4},
    {Op::TROWEXPANDMIN, "TROWEXPANDMIN", PIPE_V, {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1"), {"tmp", Role::Write}}}, 4},
    {Op::TROWEXPANDEXPDIF, "TROWEXPANDEXPDIF", PIPE_V, {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1"), {"tmp", Role::Write}}}, 4},
    // tile-scalar (spec §2.5), TEXP (§2.4), TAXPY (§2.3)
    {Op::TADDS, "TADDS", PIPE_V, {{PTO_D_W, PTO_D_R("src0")}}, 2, true},
    {Op::TSUBS, "TSUBS", PIPE_V, {{PTO_D_W, PTO_D_R("src0")}}, 2, true},
    {Op::TMULS, "TMULS", PIPE_V, {{PTO_D_W, PTO_D_R("src0")}}, 2, true},
    {Op::TDIVS, "TDIVS", PIPE_V, {{PTO_D_W, PTO_D_R("src0")}}, 2, true},
    {Op::TMAXS, "TMAXS", PIPE_V, {{PTO_D_W, PTO_D_R("src")}}, 2, true},
    {Op::TMINS, "TMINS", PIPE_V, {{PTO_D_W, PTO_D_R("src")}}, 2, true},
    {Op::TEXP, "TEXP", PIPE_V, {{PTO_D_W, PTO_D_R("src")}}, 2},
    {Op::TAXPY, "TAXPY", PIPE_V, {{{"dst", Role::ReadWrite}, PTO_D_R("src0")}}, 2, true},
    // synchronisation
    {Op::SET_FLAG, "set_flag", PIPE_ALL, {}, 0},
    {Op::WAIT_FLAG, "wait_flag", PIPE_ALL, {}, 0},
    {Op::PIPE_BARRIER, "pipe_barrier", PIPE_ALL, {}, 0},
    {Op::WAIT_EVENT, "TSYNC", PIPE_ALL, {}, 0},
    {Op::SYNCALL, "SYNCALL", PIPE_S, {}, 0},
};
#undef PTO_D_W
#undef PTO_D_R

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
