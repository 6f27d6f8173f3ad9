// Enumerations PTO kernels spell directly (TileType::Vec, BLayout::RowMajor, PadValue::Zero, ...),
// plus our Target and Mode. Values follow include/pto/common/type.hpp of pto-isa (spec §1.2, §1.4).
#pragma once
#include <cstdint>

namespace pto {

enum class TileType : int { Vec, Mat, Left, Right, Acc, Bias, Scaling, ScaleLeft, ScaleRight, Ctrl };
enum class BLayout : int { RowMajor = 0, ColMajor = 1 };
enum class SLayout : int { NoneBox = 0, RowMajor = 1, ColMajor = 2 };
enum class CompactMode : int { Null, Normal, RowPlusOne, RowAlignedPadding };

enum class PadValue : std::uint64_t { Null = 0, Zero = 1, Max = 2, Min = 3, CustomBase = 0x100000000ull };

enum class Layout : int {
  ND, DN, NZ, SCALE, MX_A_ND, MX_A_DN, MX_A_ZZ, MX_B_ND, MX_B_DN, MX_B_NN, HIF4_A_ZZ, HIF4_B_NN,
  NC1HWC0, GNC1HWC0, NCHW, GNCHW, NHWC, NDC1HWC0, NCDHW, FRACTAL_Z, FRACTAL_Z_S16S8, FRACTAL_Z_3D, MAX
};

enum class GlobalTensorDim : int { DIM_0 = 0, DIM_1 = 1, DIM_2 = 2, DIM_3 = 3, DIM_4 = 4, TOTAL_DIM = 5 };

enum class DivAlgorithm : int { DEFAULT, HIGH_PRECISION };
enum class ExpAlgorithm : int { DEFAULT, HIGH_PRECISION };
enum class SqrtAlgorithm : int { DEFAULT, HIGH_PRECISION };
enum class RsqrtAlgorithm : int { DEFAULT, HIGH_PRECISION };
enum class RecipAlgorithm : int { DEFAULT, HIGH_PRECISION };
enum class LogAlgorithm : int { DEFAULT, HIGH_PRECISION };
enum class RemAlgorithm : int { DEFAULT, HIGH_PRECISION };
enum class RemSAlgorithm : int { DEFAULT, HIGH_PRECISION };
enum class FmodAlgorithm : int { DEFAULT, HIGH_PRECISION };
enum class FmodSAlgorithm : int { DEFAULT, HIGH_PRECISION };
enum class PowAlgorithm : int { DEFAULT, HIGH_PRECISION };
// TCMP / TCMPS comparison (pto-isa include/pto/common/type.hpp spells the same values).
enum class CmpMode : std::uint8_t { EQ = 0, NE = 1, LT = 2, LE = 3, GT = 4, GE = 5 };

// TCVT rounding (values as pto-isa's type.hpp): CAST_NONE is each conversion's default on the chip (RINT
// for float -> float, TRUNC for float -> int); CAST_ODD is von Neumann rounding (truncate, then set the
// last bit if anything was lost).
enum class RoundMode : std::uint8_t { CAST_NONE = 0, CAST_RINT = 1, CAST_ROUND = 2, CAST_FLOOR = 3, CAST_CEIL = 4, CAST_TRUNC = 5, CAST_ODD = 6 };
// TCVT saturation of out-of-range results (the chip's CTRL bit 59): ON clamps to the destination's range,
// OFF keeps the low bits of the integer (PyTorch's wrap-around).
enum class SaturationMode : std::uint8_t { ON = 0, OFF = 1 };

// TGATHER's mask-pattern form (values as pto-isa's type.hpp; the pattern reads right to left): the
// element of every 2 (P0101: the first, P1010: the second) or 4 (P0001 ... P1000) kept, or all (P1111).
enum class MaskPattern : std::uint8_t { P0101 = 1, P1010 = 2, P0001 = 3, P0010 = 4, P0100 = 5, P1000 = 6, P1111 = 7 };
// A pattern keeps one element of every `mask_period(p)`, the one at `mask_position(p)` (P1111: all).
constexpr int mask_period(MaskPattern p) { return p == MaskPattern::P1111 ? 1 : p <= MaskPattern::P1010 ? 2 : 4; }
constexpr int mask_position(MaskPattern p) {
  return p == MaskPattern::P1010 || p == MaskPattern::P0010 ? 1 : p == MaskPattern::P0100 ? 2 : p == MaskPattern::P1000 ? 3 : 0;
}
// TGATHER's mask-pattern axis: columns of every row (packed across rows), or rows.
enum class GatherAxis : std::uint8_t { GATHER_ROW = 0, GATHER_COL = 1 };
// TSCATTER's mask-pattern axis: spread the columns of every row, or the rows.
enum class ScatterAxis : std::uint8_t { SCATTER_ROW = 0, SCATTER_COL = 1 };

// MGATHER / MSCATTER (values as pto-isa's type.hpp): whole rows through a 1-D index, or elements through
// an index of the tile's shape; what an index past the table does; MSCATTER's write (plain or atomic) and,
// on A5, which of several writers to one slot wins.
enum class Coalesce : std::uint8_t { Row = 0, Elem = 1 };
enum class GatherOOB : std::uint8_t { Undefined = 0, Clamp = 1, Wrap = 2, Zero = 3 };
enum class ScatterAtomicOp : std::uint8_t { None = 0, Add = 1, Max = 2, Min = 3 };
enum class ScatterOOB : std::uint8_t { Undefined = 0, Skip = 1, Clamp = 2, Wrap = 3 };
enum class ScatterConflict : std::uint8_t { Last = 0, Default = 1 };

// TRANDOM's key and counter (pto-isa's type.hpp): Philox-4x32's 64-bit key and 128-bit counter, as
// 32-bit words, lowest first.
inline constexpr int PTO_RANDOM_KEY_SIZE = 2;
inline constexpr int PTO_RANDOM_COUNTER_SIZE = 4;
using TRandomKey = std::uint32_t[PTO_RANDOM_KEY_SIZE];
using TRandomCounter = std::uint32_t[PTO_RANDOM_COUNTER_SIZE];

// THISTOGRAM's byte (pto-isa's type.hpp): which byte of each element is counted, 0 the least significant.
enum class HistByte : std::uint8_t { BYTE_0 = 0, BYTE_1 = 1, BYTE_2 = 2, BYTE_3 = 3 };

// TPRINT's number format (pto-isa's type.hpp): floats %8.4f, %8.2f, %10.6f; integers %8d / %8u, or %10.
enum class PrintFormat : std::uint8_t { Width8_Precision4 = 0, Width8_Precision2 = 1, Width10_Precision6 = 2 };

// TQUANT's forms (values as pto-isa's type.hpp): the destination format, the MX shared-exponent rule,
// the two combined (the <grp_axis, MxQuantAlg> form; Hif4 is the a6 chip's and is not modelled) and
// where the legacy MX form stores its second copy of the exponents.
enum class QuantType : std::uint8_t { MXFP8 = 0, MXFP4_E2M1 = 1, INT8_SYM = 2, INT8_ASYM = 3 };
enum class QuantScaleAlg : std::uint8_t { OCP = 0, NV = 1 };
enum class MxQuantAlg : std::uint8_t { OcpMxFp8E4M3 = 0, NvMxFp8E4M3 = 1, OcpMxFp4E2M1 = 2, NvMxFp4E2M1 = 3, Hif4 = 4 };
enum class VecStoreMode : std::uint8_t { ND = 0, NZ = 1 };

// TFILLPAD's forms (values as pto-isa's type.hpp): dst and src of one static shape, dst being src, or
// dst larger than src.
enum class TFillPadMode : std::uint8_t { Normal = 0, InPlace = 1, Expand = 2 };

// TMRGSORT's exhausted mode: the records it took from each list before one ran out.
struct MrgSortExecutedNumList {
  std::uint16_t mrgSortList0 = 0, mrgSortList1 = 0, mrgSortList2 = 0, mrgSortList3 = 0;
};

inline constexpr int DYNAMIC = -1;

// The cube's template parameters (values as pto-isa's type.hpp). AccPhase / STPhase select the unit
// flag that lets TMATMUL and the fixpipe hand over L0C fractal by fractal; ReluPreMode applies ReLU in
// the fixpipe (after any cast); AtomicType::AtomicAdd makes TSTORE add into GM instead of overwriting.
enum class AccPhase : std::uint8_t { Unspecified = 0, Unknown = Unspecified, Partial = 2, Final = 3 };
enum class STPhase : std::uint8_t { Unspecified = 0, Partial = 2, Final = 3 };
enum class ReluPreMode : std::uint8_t { NoRelu = 0, NormalRelu = 1 };
enum class AtomicType : std::uint8_t { AtomicNone = 0, AtomicAdd = 1 };
enum class AccToVecMode : std::uint8_t { SingleModeVec0 = 0, SingleModeVec1 = 1, DualModeSplitM = 2, DualModeSplitN = 3 };

// SYNCALL's template parameters (values as in pto-isa's type.hpp): how the barrier is implemented on the
// chip (Hard: FFTS flags; Soft: a GM counter) and which cores take part.
enum class SyncAllMode : std::uint8_t { Hard = 0, Soft = 1 };
enum class SyncCoreType : std::uint8_t { AIVOnly = 0, AICOnly = 1, Mix = 2 };

// Which engines an emulated core has. A launch's cores are Any (every pipe and buffer: a vector kernel,
// a cube kernel, or both on one core, as the runtime always ran them); a cluster launch
// (pto::launch_mix) gives each cluster one Cube core (AIC: MTE2, MTE1, M, FIX; L1, L0A/B/C, BT, FB) and
// two Vector cores (AIV: MTE2, V, MTE3; UB), as A2/A3 and A5 chips pair them.
enum class CoreKind : std::uint8_t { Any, Cube, Vector };

// The hardware profile a launch emulates: buffer capacities, dtype rules and (later) costs.
enum class Target : std::uint8_t { A2A3, A5 };
inline constexpr int kNumTargets = 2;
// Manual: the kernel orders pipes with flags/events. Auto: the runtime derives the order from the bytes
// each instruction reads and writes (RAW, WAR, WAW), as ptoas --enable-insert-sync does on device.
enum class Mode : std::uint8_t { Manual, Auto };

constexpr const char* name_of(Target t) { return t == Target::A2A3 ? "A2A3" : "A5"; }
constexpr const char* name_of(TileType t) {
  constexpr const char* names[] = {"Vec",  "Mat",     "Left",      "Right",      "Acc",
                                   "Bias", "Scaling", "ScaleLeft", "ScaleRight", "Ctrl"};
  return names[static_cast<int>(t)];
}

}  // namespace pto
