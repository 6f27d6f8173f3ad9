// Op: every tile operation PTO names (spec §1.7, event.hpp of pto-isa), and the pipe each runs on.
#pragma once
#include <cstdint>

#include <pto/isa/pipes.hpp>

namespace pto {

#define PTO_OP_LIST(X)                                                                                      \
  /* MTE2 */ X(TLOAD, PIPE_MTE2) X(TPREFETCH, PIPE_MTE2) X(TEXPANDS_MAT, PIPE_MTE2) X(TFILLPAD_MAT, PIPE_MTE2) \
  X(MGATHER_MAT, PIPE_MTE2)                                                                                  \
  /* MTE3 */ X(TSTORE_VEC, PIPE_MTE3) X(TSTORE_MAT, PIPE_MTE3)                                                \
  /* S */ X(SCALAR, PIPE_S) X(TRESHAPE, PIPE_S) X(TSUBVIEW, PIPE_S) X(TGET_SCALE_ADDR, PIPE_S) X(TCI, PIPE_S) X(SETFMATRIX, PIPE_S) X(TPRINT, PIPE_S)                          \
  /* FIX */ X(TSTORE_ACC, PIPE_FIX) X(TSTORE_ACC_FP, PIPE_FIX) X(TMOV_A2M_FP, PIPE_FIX) X(TMOV_A2V, PIPE_FIX) X(TMOV_A2M, PIPE_FIX) X(TMOV_V2M, PIPE_FIX)         \
  X(TEXTRACT_V2M, PIPE_FIX) X(TMOV_M2S, PIPE_FIX) X(TEXTRACT_A2M, PIPE_FIX) X(TEXTRACT_A2M_FP, PIPE_FIX) X(TINSERT_A2M, PIPE_FIX) X(TINSERT_A2M_FP, PIPE_FIX)         \
  /* MTE1 */ X(TMOV_M2L, PIPE_MTE1) X(TMOV_M2R, PIPE_MTE1) X(TMOV_M2B, PIPE_MTE1) X(TEXTRACT_M2LR, PIPE_MTE1) \
  X(TIMG2COL, PIPE_MTE1)                                                                                      \
  /* M */ X(TMATMUL, PIPE_M) X(TMATMUL_ACC, PIPE_M) X(TMATMUL_BIAS, PIPE_M) X(TGEMV, PIPE_M) X(TGEMV_ACC, PIPE_M) \
  X(TGEMV_BIAS, PIPE_M) X(TMATMUL_MX, PIPE_M) X(TMATMUL_MX_ACC, PIPE_M) X(TMATMUL_MX_BIAS, PIPE_M)           \
  X(TGEMV_MX, PIPE_M) X(TGEMV_MX_ACC, PIPE_M) X(TGEMV_MX_BIAS, PIPE_M)                                       \
  /* V */ X(VECTOR, PIPE_V) X(TADD, PIPE_V) X(TADDS, PIPE_V) X(TAXPY, PIPE_V) X(TSUB, PIPE_V)                \
  X(TSUBS, PIPE_V) X(TMUL, PIPE_V) X(TMULS, PIPE_V) X(TDIV, PIPE_V) X(TDIVS, PIPE_V) X(TMIN, PIPE_V)         \
  X(TMINS, PIPE_V) X(TMAX, PIPE_V) X(TMAXS, PIPE_V) X(TEXP, PIPE_V) X(TEXPANDS, PIPE_V) X(TROWSUM, PIPE_V)   \
  X(TROWMAX, PIPE_V) X(TROWMIN, PIPE_V) X(TROWEXPAND, PIPE_V) X(TCOLSUM, PIPE_V) X(TCOLMAX, PIPE_V)         \
  X(TCOLMIN, PIPE_V) X(TMOV_V2V, PIPE_V) X(TCOLEXPAND, PIPE_V) X(TCOLEXPANDDIV, PIPE_V)                     \
  X(TCOLEXPANDMUL, PIPE_V) X(TCOLEXPANDADD, PIPE_V) X(TCOLEXPANDMAX, PIPE_V) X(TCOLEXPANDMIN, PIPE_V)       \
  X(TCOLEXPANDSUB, PIPE_V) X(TCOLEXPANDEXPDIF, PIPE_V) X(TROWEXPANDDIV, PIPE_V) X(TROWEXPANDMUL, PIPE_V)    \
  X(TROWEXPANDSUB, PIPE_V) X(TROWEXPANDADD, PIPE_V) X(TROWEXPANDMAX, PIPE_V) X(TROWEXPANDMIN, PIPE_V)       \
  X(TROWEXPANDEXPDIF, PIPE_V) X(TABS, PIPE_V) X(TNEG, PIPE_V) X(TRELU, PIPE_V) X(TNOT, PIPE_V) X(TLOG, PIPE_V)       \
  X(TRECIP, PIPE_V) X(TSQRT, PIPE_V) X(TRSQRT, PIPE_V) X(TCMP, PIPE_V) X(TCMPS, PIPE_V) X(TSEL, PIPE_V)       \
  X(TSELS, PIPE_V) X(TAND, PIPE_V) X(TOR, PIPE_V) X(TXOR, PIPE_V) X(TSHL, PIPE_V) X(TSHR, PIPE_V) X(TCVT, PIPE_V) \
  X(TANDS, PIPE_V) X(TORS, PIPE_V) X(TXORS, PIPE_V) X(TSHLS, PIPE_V) X(TSHRS, PIPE_V) X(TLRELU, PIPE_V)      \
  X(TREM, PIPE_V) X(TREMS, PIPE_V) X(TFMOD, PIPE_V) X(TFMODS, PIPE_V) X(TPOW, PIPE_V) X(TPOWS, PIPE_V)          \
  X(TPRELU, PIPE_V) X(TADDC, PIPE_V) X(TSUBC, PIPE_V) X(TADDSC, PIPE_V) X(TSUBSC, PIPE_V) X(TFUSEDMULADD, PIPE_V) \
  X(TFUSEDMULADDRELU, PIPE_V) X(TMULADDDST, PIPE_V) X(TSUBRELU, PIPE_V) X(TADDDEQRELU, PIPE_V)                \
  X(TROWPROD, PIPE_V) X(TCOLPROD, PIPE_V) X(TROWARGMAX, PIPE_V) X(TROWARGMIN, PIPE_V) X(TCOLARGMAX, PIPE_V)     \
  X(TCOLARGMIN, PIPE_V) X(TSORT32, PIPE_V) X(TMRGSORT, PIPE_V) X(TGATHER, PIPE_V)                          \
  X(TTRANS, PIPE_V) X(TFILLPAD, PIPE_V) X(TFILLPAD_INPLACE, PIPE_V) X(TFILLPAD_EXPAND, PIPE_V) X(TCONCAT, PIPE_V)          \
  X(TEXTRACT_V2V, PIPE_V) X(TINSERT_V2V, PIPE_V) X(TTRI, PIPE_V) X(TRANDOM, PIPE_V) X(THISTOGRAM, PIPE_V)                         \
  X(TPARTADD, PIPE_V) X(TPARTMUL, PIPE_V) X(TPARTMAX, PIPE_V) X(TPARTMIN, PIPE_V)                          \
  X(TPARTARGMAX, PIPE_V) X(TPARTARGMIN, PIPE_V) X(TGATHERB, PIPE_V) X(TSCATTER, PIPE_V)                   \
  X(TQUANT, PIPE_V) X(TQUANT_ASYM, PIPE_V) X(TQUANT_MX, PIPE_V) X(TDEQUANT, PIPE_V)                 \
  /* GM-indexed: pto-isa's op table (MGATHER_VEC) puts them on V */ X(MGATHER, PIPE_V) X(MSCATTER, PIPE_V) \
  /* synchronisation pseudo-ops (ours): the pipe is an operand, not fixed */                                  \
  X(SET_FLAG, PIPE_ALL) X(WAIT_FLAG, PIPE_ALL) X(PIPE_BARRIER, PIPE_ALL) X(WAIT_EVENT, PIPE_ALL) X(SYNCALL, PIPE_S) \
  /* cross-core flags (FFTS on A2/A3, intra-block on A5): the set's pipe is an operand, the wait blocks S */   \
  X(FFTS_SYNC, PIPE_ALL) X(WAIT_FLAG_DEV, PIPE_S) X(SET_INTRA_BLOCK, PIPE_ALL) X(WAIT_INTRA_BLOCK, PIPE_S) \
  /* the cube <-> vector FIFO operations: their flag records carry these names (TPOP's wait, TPUSH's set) */    \
  X(TPUSH, PIPE_ALL) X(TPOP, PIPE_ALL) X(TALLOC, PIPE_ALL) X(TFREE, PIPE_ALL)

enum class Op : std::uint16_t {
#define PTO_OP_ENUM(name, pipe) name,
  PTO_OP_LIST(PTO_OP_ENUM)
#undef PTO_OP_ENUM
  kCount
};

inline constexpr int kNumOps = static_cast<int>(Op::kCount);

// Op -> pipe table (OpPipeEntry in pto-isa). PIPE_ALL for ops whose pipe is an operand.
constexpr pipe_t pipe_of(Op op) {
  constexpr pipe_t table[] = {
#define PTO_OP_PIPE(name, pipe) pipe,
      PTO_OP_LIST(PTO_OP_PIPE)
#undef PTO_OP_PIPE
  };
  return table[static_cast<int>(op)];
}

constexpr const char* op_name(Op op) {
  constexpr const char* table[] = {
#define PTO_OP_NAME(name, pipe) #name,
      PTO_OP_LIST(PTO_OP_NAME)
#undef PTO_OP_NAME
  };
  return table[static_cast<int>(op)];
}

template <Op O> struct OpPipeEntry { static constexpr pipe_t pipe = pipe_of(O); };

}  // namespace pto
