// One descriptor per instruction: name, Op, pipe (from the op list), operand roles and counts, the
// scalar operand, per-target dtype rules. The public instruction functions, the scheduler (auto-mode
// dependencies), the checker, the cost model, the trace and (later) the assembler read these.
#pragma once
#include <array>
#include <iterator>
#include <optional>
#include <cstdint>

#include <pto/isa/dtype.hpp>
#include <pto/isa/enums.hpp>
#include <pto/isa/op.hpp>

namespace pto {

enum class Role : std::uint8_t { Read, Write, ReadWrite };

// Tile operands an instruction may take (TMRGSORT of 4 lists: dst, tmp, src0..src3).
inline constexpr int kMaxOperands = 6;

struct OperandDesc {
  const char* name = nullptr;
  Role role = Role::Read;
};

// The dtypes an instruction's dst may have, per target (the A2A3 / A5 columns of the ISA's tables).
// Both empty: the instruction's rule is static (a static_assert on the tile types) or family-specific.
struct DTypeRule {
  DTypeSet a2a3, a5;
  constexpr DTypeSet on(Target t) const { return t == Target::A5 ? a5 : a2a3; }
  constexpr bool empty() const { return a2a3.empty() && a5.empty(); }
};

// How the pipeline model prices an instruction: Transfer by the bytes it moves along its (source,
// destination) memories (CostTable::transfer); Stream by the intrinsic stream its target's device
// algorithm records (on whatever pipe it runs); None costs nothing beyond issue (sync, bookkeeping).
// Cube: the M pipe's mad, priced by its (m, k, n) in fractals (CostTable::mad_setup_cycles, mad_cycles_per_block).
// How the pipeline model prices an instruction (runtime/src/cost_model.cpp). The DMA forms with a walk
// of their own are classes of their own, so the model reads the descriptor, not the Op.
enum class CostClass : std::uint8_t {
  None,
  Transfer,   // one DMA: its path's setup per call, its bytes at the path's rate
  Stream,     // the vector pipe: the target algorithm's intrinsic stream
  Cube,       // the mad
  GmIndexed,  // MGATHER / MSCATTER: GM through an index tile (scalar loop on A2A3, SIMT on A5)
  Prefetch,   // TPREFETCH: its own chunked walk of the tensor
  PadZeros    // TFILLPAD of an NZ Mat tile: MTE2 writing zero lines into L1 at the GM -> L1 rate
};

// The class an instruction has unless its descriptor says otherwise: the DMA pipes move bytes, the
// vector pipe runs intrinsic streams.
constexpr CostClass default_cost_class(pipe_t p) {
  return p == PIPE_V ? CostClass::Stream
         : p == PIPE_M ? CostClass::Cube
         : p == PIPE_MTE1 || p == PIPE_MTE2 || p == PIPE_MTE3 || p == PIPE_FIX ? CostClass::Transfer
                                                                              : CostClass::None;
}

struct InstrDesc {
  Op op;
  const char* name;  // PTO spelling, as users write it
  pipe_t pipe;       // always pipe_of(op): the op list (isa/op.hpp) is where a pipe is written
  std::array<OperandDesc, kMaxOperands> operands{};
  int operand_count = 0;  // operands the public function adds (a record never holds more)
  bool has_scalar = false;  // a scalar operand (ScalarValue), shown in traces
  DTypeRule dtypes{};
  CostClass cost = CostClass::None;
};

// A descriptor; its pipe comes from the op list, its cost class from the pipe unless given.
constexpr InstrDesc instr(Op op, const char* name, std::array<OperandDesc, kMaxOperands> operands, int count,
                          bool scalar = false, DTypeRule dtypes = {}, std::optional<CostClass> cost = std::nullopt) {
  return InstrDesc{op, name, pipe_of(op), operands, count, scalar, dtypes, cost.value_or(default_cost_class(pipe_of(op)))};
}

namespace dtypes {
using D = DType;
// ISA dtype tables (A2A3 and A5 columns), named by the instructions that share them.
inline constexpr DTypeSet kVecA2A3{D::I32, D::I16, D::F16, D::F32};
inline constexpr DTypeSet kFloats{D::F16, D::F32};
inline constexpr DTypeSet kBcastA5{D::I32, D::U32, D::F32, D::I16, D::U16, D::F16, D::BF16, D::U8, D::I8};
inline constexpr DTypeSet kBcastA5Add = kBcastA5 | DTypeSet{D::I64, D::U64};  // A5 TCOLEXPANDADD (seed 000)
inline constexpr DTypeSet kAddsA5{D::U8, D::I8, D::U16, D::I16, D::U32, D::I32, D::I64, D::U64, D::F16, D::F32, D::BF16};
inline constexpr DTypeSet kMulsA5{D::U16, D::I16, D::U32, D::I32, D::I64, D::U64, D::F16, D::F32, D::BF16};
inline constexpr DTypeSet kDivsA5{D::U16, D::I16, D::U32, D::I32, D::I64, D::U64, D::F16, D::F32};
inline constexpr DTypeSet kMaxsA5 = kAddsA5;
inline constexpr DTypeRule kBcast{kVecA2A3, kBcastA5};
inline constexpr DTypeRule kBcastDiv{kFloats, kBcastA5};
inline constexpr DTypeRule kExpDif{kFloats, kFloats};
inline constexpr DTypeSet kUpTo32{D::U8, D::I8, D::U16, D::I16, D::U32, D::I32, D::F16, D::BF16, D::F32};
inline constexpr DTypeRule kExpandS{kUpTo32, kUpTo32 | DTypeSet{D::I64, D::U64}};
inline constexpr DTypeRule kBinary{kVecA2A3, kAddsA5};  // TADD TSUB TMAX TMIN (a2a3/TAdd.hpp, a5/TAdd.hpp, ...)
inline constexpr DTypeRule kMul{kVecA2A3, kMulsA5};     // TMUL: no 8-bit on A5
inline constexpr DTypeRule kDiv{kFloats, kDivsA5};      // TDIV: floats on A2A3; no bf16 or 8-bit on A5
inline constexpr DTypeRule kFloatOnly{kFloats, kFloats};  // TSQRT TRSQRT TLOG (TUnaryOp's float check)
inline constexpr DTypeRule kAbs{kFloats, kFloats | DTypeSet{D::I8, D::I16, D::I32}};
inline constexpr DTypeRule kRelu{kFloats | DTypeSet{D::I32}, kFloats | DTypeSet{D::I32}};
inline constexpr DTypeSet kInts8to32{D::I8, D::U8, D::I16, D::U16, D::I32, D::U32};
inline constexpr DTypeRule kNot{kInts8to32, kInts8to32};
inline constexpr DTypeRule kBitwise{kInts8to32, kInts8to32};  // TAND TOR TXOR TSHL TSHR (a2a3 TAnd.hpp, TShl.hpp; a5 TXor.hpp)
// TSHLS / TSHRS: a2a3 TBitwiseSOp.hpp TShiftCheck (16- and 32-bit), a5 TShlS.hpp / TShrS.hpp (8- to 64-bit).
inline constexpr DTypeRule kShiftS{{D::I16, D::U16, D::I32, D::U32}, kInts8to32 | DTypeSet{D::I64, D::U64}};
inline constexpr DTypeRule kNeg{kVecA2A3, kMulsA5};     // TNEG = TMULS by -1
inline constexpr DTypeRule kRecip{kVecA2A3, kDivsA5};   // TRECIP = TDIVS(dst, 1, src)
// Reductions (a2a3/TRowReduceOps.hpp TRowReduceCheck, a5/TRowReduce.hpp and Int64Reduce.hpp,
// a2a3 and a5 TColReduceOps.hpp TColReduceCheck).
inline constexpr DTypeSet kWide{D::I64, D::U64};
inline constexpr DTypeRule kRowSum{kVecA2A3, kVecA2A3 | kWide};
inline constexpr DTypeRule kRowMinMax{kVecA2A3, kVecA2A3 | kWide | DTypeSet{D::I8, D::U8}};
inline constexpr DTypeRule kColReduce{kVecA2A3, kUpTo32 | kWide};
// Products (a2a3 TRowProd.hpp / TColProd.hpp, a5 TRowProd.hpp / TColProd.hpp) and the index reductions
// (a2a3 TRowReduceIdxOps.hpp / TColReduceIdx.hpp, a5 TRowReduceIdx.hpp / TColReduceIdx.hpp): the
// source's dtype.
inline constexpr DTypeRule kRowProd{kVecA2A3, kVecA2A3};
inline constexpr DTypeRule kColProd{kVecA2A3, {D::F32, D::F16, D::BF16, D::I16, D::U16, D::I32, D::U32}};
inline constexpr DTypeSet k16and32{D::F16, D::BF16, D::F32, D::I16, D::U16, D::I32, D::U32};
inline constexpr DTypeRule kRowArg{kVecA2A3, k16and32};
inline constexpr DTypeRule kColArg{{D::F16, D::U16, D::F32, D::U32}, k16and32 | DTypeSet{D::I8, D::U8}};
// Compare (the sources' dtype; a2a3/TCmp.hpp, TCmps.hpp, a5/TCmp.hpp) and select (a2a3/TSel.hpp: 16- and
// 32-bit elements; a5/TSel.hpp: 8- to 64-bit).
inline constexpr DTypeRule kCmp{{D::I32, D::F16, D::F32}, kUpTo32 | kWide};
inline constexpr DTypeRule kSel{{D::F16, D::BF16, D::F32, D::I16, D::U16, D::I32, D::U32}, kUpTo32 | kWide};
// Compound element-wise ops (pto-isa a2a3 / a5 TRem.hpp, TRemS.hpp, TFMod.hpp, TFModS.hpp, TPow.hpp,
// TPrelu.hpp, TFusedMulAdd.hpp, ...). TADDC / TSUBC / TADDSC / TSUBSC have no NPU implementation in
// pto-isa: the set its TADDSC page lists, on both targets (docs/compound.md).
inline constexpr DTypeSet kInts16to32{D::I16, D::U16, D::I32, D::U32};
inline constexpr DTypeRule kRem{{D::F32, D::I32}, kFloats | kInts16to32 | kWide};
inline constexpr DTypeRule kFmod{{D::F32}, kFloats | kInts16to32};
inline constexpr DTypeSet kPowSet{D::F32, D::I32, D::U32, D::I16, D::U16, D::I8, D::U8};
inline constexpr DTypeRule kPow{kPowSet, kPowSet | DTypeSet{D::F16}};  // bf16 on A5 with HIGH_PRECISION only
inline constexpr DTypeRule kCarry{kVecA2A3, kVecA2A3};
// Sorting (a2a3 / a5 TSort32.hpp, TMrgSort.hpp: half and float, their records 8 bytes) and gathering
// (a2a3 TGather.hpp: 2- and 4-byte data; a5 TGather.hpp: 1- to 8-byte data).
inline constexpr DTypeRule kSort{kFloats, kFloats};
inline constexpr DTypeSet k2and4{D::I16, D::U16, D::I32, D::U32, D::F16, D::BF16, D::F32};
inline constexpr DTypeRule kGather{k2and4, k2and4 | DTypeSet{D::I8, D::U8} | kWide};
// Generators (a2a3 TCI.hpp: 2- and 4-byte types; a5 Tci.hpp: 16- and 32-bit integers; a2a3 / a5 TTri.hpp).
inline constexpr DTypeRule kTci{k2and4, kInts16to32};
inline constexpr DTypeRule kTri{{D::I32, D::I16, D::U32, D::U16, D::F16, D::F32}, kUpTo32 | kWide};
// Partial element-wise ops (a2a3 TPartAdd.hpp ... : int16/32, half, float; a5 TPartAdd.hpp ...: 8- to
// 64-bit integers and the floats, TPARTMUL without the 64-bit ones).
inline constexpr DTypeRule kPart{kVecA2A3, kAddsA5};
inline constexpr DTypeRule kPartMul{kVecA2A3, kUpTo32};
// TPARTARGMAX / TPARTARGMIN (a2a3 TPartArgOp.hpp, a5 TPartArgBinOps.hpp): half and float values.
inline constexpr DTypeRule kPartArg{kFloats, kFloats};
// TSCATTER (a2a3 / a5 TScatter.hpp): every 1-, 2- and 4-byte type, A5 also the 64-bit integers; TGATHERB
// (a2a3 / a5 TGatherB.hpp) copies 32-byte blocks of any 1-, 2- or 4-byte type.
inline constexpr DTypeRule kScatter{kUpTo32, kUpTo32 | kWide};
inline constexpr DTypeRule kGatherB{kUpTo32, kUpTo32};
// MGATHER / MSCATTER (a2a3 / a5 MGather.hpp, MScatter.hpp): every 1-, 2- and 4-byte type but 64-bit; A5
// also the 8-bit floats.
inline constexpr DTypeRule kMGather{kUpTo32, kUpTo32 | DTypeSet{D::HF8, D::F8E4M3, D::F8E5M2}};
// Layout (a2a3 / a5 TTrans.hpp, TFillPad.hpp, TConcat.hpp): every 1-, 2- and 4-byte type. TEXTRACT /
// TINSERT between Vec tiles (a2a3 textract_common.hpp; a5 TExtract.hpp, TInsert.hpp): A5 has no u8, i16,
// u16 or u32 there, but the 8-bit floats (its fp4 forms are not implemented).
inline constexpr DTypeRule kLayout{kUpTo32, kUpTo32};
// The cube (a2a3 / a5 TMatmul.hpp, TExtract.hpp): what L0A / L0B hold, and the accumulator L0C holds.
inline constexpr DTypeRule kCubeIn{{D::I8, D::F16, D::BF16, D::F32},
                                    {D::I8, D::F16, D::BF16, D::F32, D::F8E4M3, D::F8E5M2, D::HF8, D::F4E2M1, D::F4E1M2}};
inline constexpr DTypeRule kAcc{{D::F32, D::I32}, {D::F32, D::I32}};
inline constexpr DTypeRule kWindow{kUpTo32, {D::F16, D::BF16, D::F32, D::I32, D::I8, D::F8E4M3, D::F8E5M2, D::F8E8M0, D::HF8}};
}  // namespace dtypes

// The instructions the runtime implements (their backends: backends/instructions/). Adding one: a line
// here, its entry and kernel there, its public function, tests (docs/adding-an-instruction.md).
#define PTO_D_W {"dst", Role::Write}
#define PTO_D_R(n) {n, Role::Read}
#define PTO_BIN {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1")}}, 3
#define PTO_UN {{PTO_D_W, PTO_D_R("src")}}, 2
#define PTO_ROW {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1"), {"tmp", Role::Write}}}, 4
#define PTO_RED {{PTO_D_W, PTO_D_R("src"), {"tmp", Role::Write}}}, 3
#define PTO_ARG {{PTO_D_W, PTO_D_R("src"), {"tmp", Role::Write}, {"dstVal", Role::Write}}}, 4
inline constexpr InstrDesc kInstrTable[] = {
    instr(Op::TLOAD, "TLOAD", {{PTO_D_W, PTO_D_R("src")}}, 2),
    instr(Op::TSTORE_VEC, "TSTORE", {{PTO_D_W, PTO_D_R("src")}}, 2),
    instr(Op::TSTORE_MAT, "TSTORE", {{PTO_D_W, PTO_D_R("src")}}, 2),  // from L1 (A2A3)
    instr(Op::TMOV_V2V, "TMOV", {{PTO_D_W, PTO_D_R("src")}}, 2),
    instr(Op::TEXPANDS, "TEXPANDS", {{PTO_D_W}}, 1, true, dtypes::kExpandS),
    // element-wise unary
    instr(Op::TABS, "TABS", PTO_UN, false, dtypes::kAbs),
    instr(Op::TRELU, "TRELU", PTO_UN, false, dtypes::kRelu),
    instr(Op::TNOT, "TNOT", PTO_UN, false, dtypes::kNot),
    instr(Op::TSQRT, "TSQRT", PTO_UN, false, dtypes::kFloatOnly),
    instr(Op::TRSQRT, "TRSQRT", PTO_UN, false, dtypes::kFloatOnly),
    instr(Op::TLOG, "TLOG", PTO_UN, false, dtypes::kFloatOnly),
    instr(Op::TNEG, "TNEG", PTO_UN, true, dtypes::kNeg),
    instr(Op::TRECIP, "TRECIP", PTO_UN, true, dtypes::kRecip),
    // element-wise tile-tile
    instr(Op::TADD, "TADD", PTO_BIN, false, dtypes::kBinary),
    instr(Op::TSUB, "TSUB", PTO_BIN, false, dtypes::kBinary),
    instr(Op::TMUL, "TMUL", PTO_BIN, false, dtypes::kMul),
    instr(Op::TDIV, "TDIV", PTO_BIN, false, dtypes::kDiv),
    instr(Op::TMAX, "TMAX", PTO_BIN, false, dtypes::kBinary),
    instr(Op::TMIN, "TMIN", PTO_BIN, false, dtypes::kBinary),
    instr(Op::TAND, "TAND", PTO_BIN, false, dtypes::kBitwise),
    instr(Op::TOR, "TOR", PTO_BIN, false, dtypes::kBitwise),
    instr(Op::TSHL, "TSHL", PTO_BIN, false, dtypes::kBitwise),
    instr(Op::TSHR, "TSHR", PTO_BIN, false, dtypes::kBitwise),
    instr(Op::TXOR, "TXOR", {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1"), {"tmp", Role::Write}}}, 4, false, dtypes::kBitwise),
    // column broadcast
    instr(Op::TCOLEXPAND, "TCOLEXPAND", {{PTO_D_W, PTO_D_R("src")}}, 2),
    instr(Op::TCOLEXPANDADD, "TCOLEXPANDADD", PTO_BIN, false, {dtypes::kVecA2A3, dtypes::kBcastA5Add}),
    instr(Op::TCOLEXPANDSUB, "TCOLEXPANDSUB", PTO_BIN, false, dtypes::kBcast),
    instr(Op::TCOLEXPANDMUL, "TCOLEXPANDMUL", PTO_BIN, false, dtypes::kBcast),
    instr(Op::TCOLEXPANDDIV, "TCOLEXPANDDIV", PTO_BIN, false, dtypes::kBcastDiv),
    instr(Op::TCOLEXPANDMAX, "TCOLEXPANDMAX", PTO_BIN, false, dtypes::kBcast),
    instr(Op::TCOLEXPANDMIN, "TCOLEXPANDMIN", PTO_BIN, false, dtypes::kBcast),
    instr(Op::TCOLEXPANDEXPDIF, "TCOLEXPANDEXPDIF", PTO_BIN, false, dtypes::kExpDif),
    // row broadcast; tmp is written on A2/A3 (vbrcb scratch)
    instr(Op::TROWEXPAND, "TROWEXPAND", {{PTO_D_W, PTO_D_R("src")}}, 2),
    instr(Op::TROWEXPANDADD, "TROWEXPANDADD", PTO_ROW, false, dtypes::kBcast),
    instr(Op::TROWEXPANDSUB, "TROWEXPANDSUB", PTO_ROW, false, dtypes::kBcast),
    instr(Op::TROWEXPANDMUL, "TROWEXPANDMUL", PTO_ROW, false, dtypes::kBcast),
    instr(Op::TROWEXPANDDIV, "TROWEXPANDDIV", PTO_ROW, false, dtypes::kBcastDiv),
    instr(Op::TROWEXPANDMAX, "TROWEXPANDMAX", PTO_ROW, false, dtypes::kBcast),
    instr(Op::TROWEXPANDMIN, "TROWEXPANDMIN", PTO_ROW, false, dtypes::kBcast),
    instr(Op::TROWEXPANDEXPDIF, "TROWEXPANDEXPDIF", PTO_ROW, false, dtypes::kExpDif),
    // reductions: the row family's tmp is the A2A3 algorithms' scratch (A5 ignores it)
    instr(Op::TROWSUM, "TROWSUM", PTO_RED, false, dtypes::kRowSum),
    instr(Op::TROWMAX, "TROWMAX", PTO_RED, false, dtypes::kRowMinMax),
    instr(Op::TROWMIN, "TROWMIN", PTO_RED, false, dtypes::kRowMinMax),
    instr(Op::TCOLSUM, "TCOLSUM", PTO_RED, false, dtypes::kColReduce),  // tmp only in the isBinary form
    instr(Op::TCOLMAX, "TCOLMAX", PTO_UN, false, dtypes::kColReduce),
    instr(Op::TCOLMIN, "TCOLMIN", PTO_UN, false, dtypes::kColReduce),
    instr(Op::TROWPROD, "TROWPROD", PTO_RED, false, dtypes::kRowProd),
    instr(Op::TCOLPROD, "TCOLPROD", PTO_UN, false, dtypes::kColProd),
    // the index forms: dst holds the indices; the value forms add dstVal (their dtype rule is src's)
    instr(Op::TROWARGMAX, "TROWARGMAX", PTO_ARG, false, dtypes::kRowArg),
    instr(Op::TROWARGMIN, "TROWARGMIN", PTO_ARG, false, dtypes::kRowArg),
    instr(Op::TCOLARGMAX, "TCOLARGMAX", PTO_ARG, false, dtypes::kColArg),
    instr(Op::TCOLARGMIN, "TCOLARGMIN", PTO_ARG, false, dtypes::kColArg),
    // compare and select: the mask is packed bits (backends/cpu/select.hpp)
    instr(Op::TCMP, "TCMP", PTO_BIN, false, dtypes::kCmp),
    instr(Op::TCMPS, "TCMPS", {{PTO_D_W, PTO_D_R("src0")}}, 2, true, dtypes::kCmp),
    instr(Op::TSEL, "TSEL", {{PTO_D_W, PTO_D_R("mask"), PTO_D_R("src0"), PTO_D_R("src1"), {"tmp", Role::Write}}}, 5, false, dtypes::kSel),
    instr(Op::TSELS, "TSELS", {{PTO_D_W, PTO_D_R("mask"), PTO_D_R("src"), {"tmp", Role::Write}}}, 4, true, dtypes::kSel),
    // conversion: the dtype rule is the pair's (isa/conversions.hpp); tmp only in its tmp forms (A2A3 scratch)
    instr(Op::TCVT, "TCVT", PTO_RED, false),
    // tile-scalar, TEXP, TAXPY
    instr(Op::TADDS, "TADDS", {{PTO_D_W, PTO_D_R("src0")}}, 2, true, {dtypes::kVecA2A3, dtypes::kAddsA5}),
    instr(Op::TSUBS, "TSUBS", {{PTO_D_W, PTO_D_R("src0")}}, 2, true, {dtypes::kVecA2A3, dtypes::kAddsA5}),
    instr(Op::TMULS, "TMULS", {{PTO_D_W, PTO_D_R("src0")}}, 2, true, {dtypes::kVecA2A3, dtypes::kMulsA5}),
    instr(Op::TDIVS, "TDIVS", {{PTO_D_W, PTO_D_R("src0")}}, 2, true, {dtypes::kVecA2A3, dtypes::kDivsA5}),
    instr(Op::TMAXS, "TMAXS", {{PTO_D_W, PTO_D_R("src")}}, 2, true, {dtypes::kVecA2A3, dtypes::kMaxsA5}),
    instr(Op::TMINS, "TMINS", {{PTO_D_W, PTO_D_R("src")}}, 2, true, {dtypes::kVecA2A3, dtypes::kAddsA5}),
    instr(Op::TLRELU, "TLRELU", {{PTO_D_W, PTO_D_R("src")}}, 2, true, dtypes::kFloatOnly),  // a2a3 / a5 TLRelu.hpp: half, float
    instr(Op::TANDS, "TANDS", {{PTO_D_W, PTO_D_R("src")}}, 2, true, dtypes::kBitwise),
    instr(Op::TORS, "TORS", {{PTO_D_W, PTO_D_R("src")}}, 2, true, dtypes::kBitwise),
    instr(Op::TXORS, "TXORS", {{PTO_D_W, PTO_D_R("src"), {"tmp", Role::Write}}}, 3, true, dtypes::kBitwise),
    instr(Op::TSHLS, "TSHLS", {{PTO_D_W, PTO_D_R("src")}}, 2, true, dtypes::kShiftS),
    instr(Op::TSHRS, "TSHRS", {{PTO_D_W, PTO_D_R("src")}}, 2, true, dtypes::kShiftS),
    // compound element-wise: tmp is the A2A3 algorithms' scratch (A5 ignores it)
    instr(Op::TREM, "TREM", PTO_ROW, false, dtypes::kRem),
    instr(Op::TREMS, "TREMS", {{PTO_D_W, PTO_D_R("src"), {"tmp", Role::Write}}}, 3, true, dtypes::kRem),
    instr(Op::TFMOD, "TFMOD", PTO_BIN, false, dtypes::kFmod),
    instr(Op::TFMODS, "TFMODS", {{PTO_D_W, PTO_D_R("src")}}, 2, true, dtypes::kFmod),
    instr(Op::TPOW, "TPOW", {{PTO_D_W, PTO_D_R("base"), PTO_D_R("exp"), {"tmp", Role::Write}}}, 4, false, dtypes::kPow),
    instr(Op::TPOWS, "TPOWS", {{PTO_D_W, PTO_D_R("base"), {"tmp", Role::Write}}}, 3, true, dtypes::kPow),
    instr(Op::TPRELU, "TPRELU", PTO_ROW, false, dtypes::kFloatOnly),
    instr(Op::TADDC, "TADDC", {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1"), PTO_D_R("src2")}}, 4, false, dtypes::kCarry),
    instr(Op::TSUBC, "TSUBC", {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1"), PTO_D_R("src2")}}, 4, false, dtypes::kCarry),
    instr(Op::TADDSC, "TADDSC", {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1")}}, 3, true, dtypes::kCarry),
    instr(Op::TSUBSC, "TSUBSC", {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1")}}, 3, true, dtypes::kCarry),
    instr(Op::TFUSEDMULADD, "TFUSEDMULADD", {{{"dst", Role::ReadWrite}, PTO_D_R("src0"), PTO_D_R("src1")}}, 3, false, dtypes::kFloatOnly),
    instr(Op::TFUSEDMULADDRELU, "TFUSEDMULADDRELU", {{{"dst", Role::ReadWrite}, PTO_D_R("src0"), PTO_D_R("src1")}}, 3, false, dtypes::kFloatOnly),
    instr(Op::TMULADDDST, "TMULADDDST", {{{"dst", Role::ReadWrite}, PTO_D_R("src0"), PTO_D_R("src1")}}, 3, false, dtypes::kFloatOnly),
    instr(Op::TSUBRELU, "TSUBRELU", PTO_BIN, false, dtypes::kFloatOnly),
    // A2A3 leaves its intermediates in src0, src1 and tmp (a2a3 TAddDeqRelu.hpp)
    instr(Op::TADDDEQRELU, "TADDDEQRELU", {{PTO_D_W, {"src0", Role::ReadWrite}, {"src1", Role::ReadWrite}, {"tmp", Role::Write}}}, 4, true,
          {{DType::F16}, {DType::F16}}),
    // sorting and gathering: tmp is the chips' scratch (TSORT32's padded tail, TMRGSORT's merge)
    instr(Op::TSORT32, "TSORT32", {{PTO_D_W, PTO_D_R("src"), PTO_D_R("idx"), {"tmp", Role::Write}}}, 4, false, dtypes::kSort),
    instr(Op::TMRGSORT, "TMRGSORT", {{PTO_D_W, {"tmp", Role::Write}, PTO_D_R("src0"), PTO_D_R("src1"), PTO_D_R("src2"), PTO_D_R("src3")}}, 6,
          true, dtypes::kSort),
    instr(Op::TGATHER, "TGATHER", {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("indices"), {"tmp", Role::Write}}}, 4, false, dtypes::kGather),
    // generators: TCI runs on the scalar pipe (pto-isa's op list), priced by the stream its NPU code
    // issues (the scalar loop; A2A3's tmp form a vector sequence; A5 vci)
    instr(Op::TCI, "TCI", {{PTO_D_W, {"tmp", Role::Write}}}, 2, true, dtypes::kTci, CostClass::Stream),
    instr(Op::TTRI, "TTRI", {{PTO_D_W}}, 1, true, dtypes::kTri),
    // TRANDOM: A5 only (pto-isa has no A2A3 code); the key in the scalar, the counter in its wide words
    instr(Op::TRANDOM, "TRANDOM", {{PTO_D_W}}, 1, true, {{}, {DType::I32, DType::U32}}),
    // THISTOGRAM: A5 only; dst is 256 uint32 bins per row of src, idx the filter bytes
    instr(Op::THISTOGRAM, "THISTOGRAM", {{PTO_D_W, PTO_D_R("src"), PTO_D_R("idx")}}, 3, false, {{}, {DType::U32}}),
    // partial element-wise ops: op where both sources are valid, the covering source elsewhere
    instr(Op::TPARTADD, "TPARTADD", PTO_BIN, false, dtypes::kPart),
    instr(Op::TPARTMUL, "TPARTMUL", PTO_BIN, false, dtypes::kPartMul),
    instr(Op::TPARTMAX, "TPARTMAX", PTO_BIN, false, dtypes::kPart),
    instr(Op::TPARTMIN, "TPARTMIN", PTO_BIN, false, dtypes::kPart),
    instr(Op::TPARTARGMAX, "TPARTARGMAX", {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1"), {"dstIdx", Role::Write}, PTO_D_R("src0Idx"),
                                            PTO_D_R("src1Idx")}}, 6, false, dtypes::kPartArg),
    instr(Op::TPARTARGMIN, "TPARTARGMIN", {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1"), {"dstIdx", Role::Write}, PTO_D_R("src0Idx"),
                                            PTO_D_R("src1Idx")}}, 6, false, dtypes::kPartArg),
    // scattering: dst is zeroed whole first (the index form and the patterns but P1111); TGATHERB reads
    // 32-byte blocks of src at byte offsets
    instr(Op::TSCATTER, "TSCATTER", {{PTO_D_W, PTO_D_R("src"), PTO_D_R("indexes")}}, 3, false, dtypes::kScatter),
    instr(Op::TGATHERB, "TGATHERB", {{PTO_D_W, PTO_D_R("src"), PTO_D_R("offset")}}, 3, false, dtypes::kGatherB),
    // quantisation: TQUANT INT8 (SYM / ASYM: two records, so offset has a place) rewrites src on A2A3
    // (its cast chain runs in src and tmp) and reads it on A5. TDEQUANT reads one scale and one offset
    // per row. The MX forms (A5): dst the 8- or 4-bit codes, exp one E8M0 byte per group of 32, max and
    // scaling scratch in src's type; a 16-bit src gets its pad columns zeroed.
    instr(Op::TQUANT, "TQUANT", {{PTO_D_W, {"src", Role::ReadWrite}, PTO_D_R("scale"), {"tmp", Role::Write}}}, 4, false,
          {{DType::I8}, {DType::I8}}),
    instr(Op::TQUANT_ASYM, "TQUANT", {{PTO_D_W, {"src", Role::ReadWrite}, PTO_D_R("scale"), PTO_D_R("offset"), {"tmp", Role::Write}}},
          5, false, {{DType::U8}, {DType::U8}}),
    instr(Op::TQUANT_MX, "TQUANT", {{PTO_D_W, {"src", Role::ReadWrite}, {"exp", Role::Write}, {"max", Role::Write}, {"scaling", Role::Write}}},
          5, false, {{}, {DType::I8, DType::U8, DType::F8E4M3, DType::F4E2M1}}),
    instr(Op::TDEQUANT, "TDEQUANT", {{PTO_D_W, PTO_D_R("src"), PTO_D_R("scale"), PTO_D_R("offset")}}, 4, false,
          {{DType::F32}, {DType::F32}}),
    // MGATHER / MSCATTER: GM through a UB index tile, priced as DMA (cost_model.cpp gm_indexed_cycles);
    // MSCATTER's table is read too (its atomic forms, and the slots no index names keep their bytes)
    instr(Op::MGATHER, "MGATHER", {{PTO_D_W, PTO_D_R("table"), PTO_D_R("idx")}}, 3, false, dtypes::kMGather, CostClass::GmIndexed),
    instr(Op::MSCATTER, "MSCATTER", {{{"table", Role::ReadWrite}, PTO_D_R("src"), PTO_D_R("idx")}}, 3, false, dtypes::kMGather,
          CostClass::GmIndexed),
    // TPREFETCH: an MTE2 DMA into a scratch tile (its contents are the chip's last chunk)
    instr(Op::TPREFETCH, "TPREFETCH", {{PTO_D_W, PTO_D_R("src")}}, 2, false, {}, CostClass::Prefetch),
    // TPRINT: host-side printing after a pipe_barrier(PIPE_ALL); no record of it reaches a pipe (it has no
    // kernel): its descriptor names the GlobalTensor it reads in the GM bounds check
    instr(Op::TPRINT, "TPRINT", {{PTO_D_R("src")}}, 1),
    // address rebinds (runtime/rebind.hpp): no operands, no kernel; a zero-cost scalar record that carries
    // the wait events
    instr(Op::TRESHAPE, "TRESHAPE", {}, 0),
    instr(Op::TSUBVIEW, "TSUBVIEW", {}, 0),
    instr(Op::TGET_SCALE_ADDR, "TGET_SCALE_ADDR", {}, 0),
    // layout: TTRANS's tmp is A2A3's staging (vnchwconv writes it, a copy moves it to dst); TFILLPAD_INPLACE
    // rewrites dst (= src) around its valid region
    instr(Op::TTRANS, "TTRANS", {{PTO_D_W, PTO_D_R("src"), {"tmp", Role::Write}}}, 3, false, dtypes::kLayout),
    instr(Op::TFILLPAD, "TFILLPAD", PTO_UN, false, dtypes::kLayout),
    instr(Op::TFILLPAD_INPLACE, "TFILLPAD_INPLACE", {{{"dst", Role::ReadWrite}, PTO_D_R("src")}}, 2, false, dtypes::kLayout),
    instr(Op::TFILLPAD_EXPAND, "TFILLPAD_EXPAND", PTO_UN, false, dtypes::kLayout),
    instr(Op::TFILLPAD_MAT, "TFILLPAD", PTO_UN, false, dtypes::kLayout, CostClass::PadZeros),  // an NZ Mat tile: zeroes on MTE2
    // TEXTRACT / TINSERT between Vec tiles: the big tile's operand is the window
    instr(Op::TEXTRACT_V2V, "TEXTRACT", PTO_UN, false, dtypes::kWindow),
    instr(Op::TINSERT_V2V, "TINSERT", {{{"dst", Role::Write}, PTO_D_R("src")}}, 2, false, dtypes::kWindow),
    // TCONCAT's forms: 3 operands, or 5 with the per-row byte counts, or 6 with dstIdx written
    instr(Op::TCONCAT, "TCONCAT", {{PTO_D_W, PTO_D_R("src0"), PTO_D_R("src1"), PTO_D_R("src0Idx"), PTO_D_R("src1Idx"),
                                    {"dstIdx", Role::Write}}}, 6, false, dtypes::kLayout),
    // the cube (runtime/cube_rules.hpp, runtime/matmul.hpp): Mat -> Left / Right / Bias on MTE1, the mad on M (TMATMUL_ACC accumulates
    // into dst: its cIn operand is not read, as on the NPUs), the fixpipe's store of L0C on FIX
    instr(Op::TEXTRACT_M2LR, "TEXTRACT", PTO_UN, false, dtypes::kCubeIn),
    instr(Op::TMOV_M2L, "TMOV", PTO_UN, false, dtypes::kCubeIn),
    instr(Op::TMOV_M2R, "TMOV", PTO_UN, false, dtypes::kCubeIn),
    instr(Op::TMOV_M2B, "TMOV", PTO_UN),  // Mat -> Bias: its pairs are static_asserts
    instr(Op::TMATMUL, "TMATMUL", {{PTO_D_W, PTO_D_R("a"), PTO_D_R("b")}}, 3, false, dtypes::kAcc),
    instr(Op::TMATMUL_ACC, "TMATMUL_ACC", {{{"dst", Role::ReadWrite}, PTO_D_R("a"), PTO_D_R("b")}}, 3, false, dtypes::kAcc),
    instr(Op::TMATMUL_BIAS, "TMATMUL_BIAS", {{PTO_D_W, PTO_D_R("a"), PTO_D_R("b"), PTO_D_R("bias")}}, 4, false, dtypes::kAcc),
    instr(Op::TGEMV, "TGEMV", {{PTO_D_W, PTO_D_R("a"), PTO_D_R("b")}}, 3, false, dtypes::kAcc),
    instr(Op::TGEMV_ACC, "TGEMV_ACC", {{{"dst", Role::ReadWrite}, PTO_D_R("a"), PTO_D_R("b")}}, 3, false, dtypes::kAcc),
    instr(Op::TGEMV_BIAS, "TGEMV_BIAS", {{PTO_D_W, PTO_D_R("a"), PTO_D_R("b"), PTO_D_R("bias")}}, 4, false, dtypes::kAcc),
    // the MX forms (A5): a and b scaled by their e8m0 scale tiles (operands after a, b and the bias)
    instr(Op::TMATMUL_MX, "TMATMUL_MX", {{PTO_D_W, PTO_D_R("a"), PTO_D_R("b"), PTO_D_R("aScale"), PTO_D_R("bScale")}}, 5, false, dtypes::kAcc),
    instr(Op::TMATMUL_MX_ACC, "TMATMUL_MX", {{{"dst", Role::ReadWrite}, PTO_D_R("a"), PTO_D_R("b"), PTO_D_R("aScale"), PTO_D_R("bScale")}}, 5, false, dtypes::kAcc),
    instr(Op::TMATMUL_MX_BIAS, "TMATMUL_MX", {{PTO_D_W, PTO_D_R("a"), PTO_D_R("b"), PTO_D_R("bias"), PTO_D_R("aScale"), PTO_D_R("bScale")}}, 6, false, dtypes::kAcc),
    instr(Op::TGEMV_MX, "TGEMV_MX", {{PTO_D_W, PTO_D_R("a"), PTO_D_R("b"), PTO_D_R("aScale"), PTO_D_R("bScale")}}, 5, false, dtypes::kAcc),
    instr(Op::TGEMV_MX_ACC, "TGEMV_MX", {{{"dst", Role::ReadWrite}, PTO_D_R("a"), PTO_D_R("b"), PTO_D_R("aScale"), PTO_D_R("bScale")}}, 5, false, dtypes::kAcc),
    instr(Op::TGEMV_MX_BIAS, "TGEMV_MX", {{PTO_D_W, PTO_D_R("a"), PTO_D_R("b"), PTO_D_R("bias"), PTO_D_R("aScale"), PTO_D_R("bScale")}}, 6, false, dtypes::kAcc),
    instr(Op::TMOV_M2S, "TMOV", PTO_UN),  // Mat -> Scaling: 64-bit quant words
    instr(Op::TSTORE_ACC, "TSTORE", {{PTO_D_W, PTO_D_R("src")}}, 2),
    instr(Op::TSTORE_ACC_FP, "TSTORE_FP", {{PTO_D_W, PTO_D_R("src"), PTO_D_R("fp")}}, 3),
    // out of L0C to L1 or UB through the fixpipe (TMOV; TEXTRACT a window of src; TINSERT into a window of dst)
    instr(Op::TMOV_A2M, "TMOV", PTO_UN),
    instr(Op::TMOV_A2M_FP, "TMOV_FP", {{PTO_D_W, PTO_D_R("src"), PTO_D_R("fp")}}, 3),
    instr(Op::TEXTRACT_A2M, "TEXTRACT", PTO_UN),
    instr(Op::TEXTRACT_A2M_FP, "TEXTRACT_FP", {{PTO_D_W, PTO_D_R("src"), PTO_D_R("fp")}}, 3),
    instr(Op::TINSERT_A2M, "TINSERT", PTO_UN),
    instr(Op::TINSERT_A2M_FP, "TINSERT_FP", {{PTO_D_W, PTO_D_R("src"), PTO_D_R("fp")}}, 3),
    instr(Op::TEXP, "TEXP", {{PTO_D_W, PTO_D_R("src")}}, 2),
    instr(Op::TAXPY, "TAXPY", {{{"dst", Role::ReadWrite}, PTO_D_R("src0")}}, 2, true),
    // synchronisation
    instr(Op::SET_FLAG, "set_flag", {}, 0),
    instr(Op::WAIT_FLAG, "wait_flag", {}, 0),
    instr(Op::PIPE_BARRIER, "pipe_barrier", {}, 0),
    instr(Op::WAIT_EVENT, "TSYNC", {}, 0),
    instr(Op::SYNCALL, "SYNCALL", {}, 0),
    instr(Op::FFTS_SYNC, "ffts_cross_core_sync", {}, 0),
    instr(Op::WAIT_FLAG_DEV, "wait_flag_dev", {}, 0),
    instr(Op::SET_INTRA_BLOCK, "set_intra_block", {}, 0),
    instr(Op::WAIT_INTRA_BLOCK, "wait_intra_block", {}, 0),
    instr(Op::TPUSH, "TPUSH", {}, 0),
    instr(Op::TPOP, "TPOP", {}, 0),
    instr(Op::TALLOC, "TALLOC", {}, 0),
    instr(Op::TFREE, "TFREE", {}, 0),
};
#undef PTO_D_W
#undef PTO_D_R
#undef PTO_BIN
#undef PTO_UN
#undef PTO_ROW
#undef PTO_RED
#undef PTO_ARG

// Index of op's descriptor in kInstrTable, or -1 (an index, not a pointer, so it is a constant
// expression under the sanitizers too).
// A table by Op, built once at compile time: a lookup with an Op known only at run time (a sync
// record's kind, a device path's name for messages) is one load, not a walk of ~200 descriptors
// (which cost a set_flag ~760 host instructions).
inline constexpr auto kDescIndex = [] {
  std::array<std::int16_t, std::size_t(kNumOps)> index{};
  for (auto& i : index) i = -1;
  for (int i = int(std::size(kInstrTable)); i-- > 0;) index[std::size_t(kInstrTable[i].op)] = std::int16_t(i);
  return index;
}();
constexpr int desc_index(Op op) {
  const auto i = std::size_t(op);
  return i < kDescIndex.size() ? kDescIndex[i] : -1;
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
