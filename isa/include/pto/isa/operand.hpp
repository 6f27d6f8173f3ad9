// What an instruction record holds besides its descriptor: its operands (tile and GM views with their
// roles), its scalar, and the form bits (kVariant*) that tell a backend which form of the instruction
// was called. Part of InstrRecord (pto/runtime/record.hpp); not an API of its own.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include <pto/isa/enums.hpp>
#include <pto/isa/instr_desc.hpp>
#include <pto/isa/op.hpp>
#include <pto/isa/views.hpp>

namespace pto {

struct Operand {
  enum class Kind : std::uint8_t { None, Tile, Gm };
  Kind kind = Kind::None;
  Role role = Role::Read;
  union {  // `kind` says which; a union keeps records small (they are copied on every issue)
    TileView tile;
    GmView gm;
  };
  std::uint32_t write_tail_bytes = 0;   // bytes written past the end of each valid line (TLOAD's pad)
  std::uint32_t write_extra_lines = 0;  // whole lines written past the valid ones (a device algorithm's chunks)
  Operand() : tile() {}

  // Bounding box of the bytes the operand reads (write = false) or writes (write = true).
  ByteRange footprint(bool write = false) const {
    if (kind == Kind::Gm) return gm.footprint();
    if (kind != Kind::Tile) return {};
    ByteRange r = tile.footprint();
    if (!write || r.empty()) return r;
    r.hi += write_tail_bytes;
    if (write_extra_lines) {
      TileView t = tile;
      (tile.row_major ? t.valid_rows : t.valid_cols) += int(write_extra_lines);
      r.hi = std::max(r.hi, t.footprint().hi + write_tail_bytes);
    }
    return r;
  }
  bool reads() const { return role != Role::Write; }
  bool writes() const { return role != Role::Read; }
};

// A scalar operand, stored in the bits of the instruction's element type; `wide` holds the further
// words of an instruction whose immediate is wider than 64 bits (TRANDOM's 128-bit counter).
struct ScalarValue {
  std::uint64_t bits = 0;
  std::uint64_t wide[2] = {0, 0};
  template <class T> static ScalarValue of(T v) {
    ScalarValue s;
    std::memcpy(&s.bits, static_cast<const void*>(&v), sizeof(T));
    return s;
  }
  template <class T> T as() const {
    T v;
    std::memcpy(static_cast<void*>(&v), &bits, sizeof(T));
    return v;
  }
};

// Form bits an instruction's record carries to its backend (ExecContext::variant).
inline constexpr std::uint8_t kVariantSwap = 1;         // the broadcast / expand operand is src0, not src1
inline constexpr std::uint8_t kVariantMode2 = 2;        // row expansion by one 32-byte block per row
inline constexpr std::uint8_t kVariantScalarFirst = 4;  // scalar op tile (TDIVS(dst, scalar, src))
inline constexpr std::uint8_t kVariantBinary = 8;       // TCOLSUM(dst, src, tmp, isBinary = true): a tree over rows
// TCMP / TCMPS: the CmpMode in bits 4-6.
inline constexpr std::uint8_t kVariantHighPrecision = 1;  // TREM/TFMOD/TPOW...(*Algorithm::HIGH_PRECISION)
inline constexpr int kVariantCmpShift = 4;
constexpr CmpMode cmp_mode_of(std::uint8_t variant) { return CmpMode((variant >> kVariantCmpShift) & 7); }
// TCVT: the RoundMode the chip applies in bits 4-6, SaturationMode::OFF as bit 7, a tmp tile given as bit 0.
inline constexpr int kVariantCvtShift = 4;
inline constexpr std::uint8_t kVariantCvtSatOff = 0x80;
inline constexpr std::uint8_t kVariantCvtTmp = 1;
constexpr RoundMode cvt_mode_of(std::uint8_t variant) { return RoundMode((variant >> kVariantCvtShift) & 7); }
constexpr SaturationMode cvt_sat_of(std::uint8_t variant) {
  return (variant & kVariantCvtSatOff) ? SaturationMode::OFF : SaturationMode::ON;
}

// TSORT32: the tmp form (a partial last block is padded). TMRGSORT: the single-list form (blockLen is the
// scalar), the exhausted mode (the scalar is the host address of the MrgSortExecutedNumList). TGATHER:
// the mask-pattern form, its MaskPattern in bits 4-6 and GATHER_COL as bit 7.
inline constexpr std::uint8_t kVariantSortTmp = 1;
inline constexpr std::uint8_t kVariantSingleList = 1;
inline constexpr std::uint8_t kVariantExhausted = 2;
inline constexpr std::uint8_t kVariantGatherMask = 1;
inline constexpr int kVariantPatternShift = 4;
inline constexpr std::uint8_t kVariantGatherCol = 0x80;
constexpr MaskPattern pattern_of(std::uint8_t variant) { return MaskPattern((variant >> kVariantPatternShift) & 7); }
// TCI: descending (bit 0), the A2A3 tmp form (bit 1: its vector path negates start + k).
// TTRANS (A2A3): the strides allow the vnchwconv path; TFILLPAD: dst is src (in place), and on A2A3 dst
// and src have the same PadVal, so the rest of src's last 32-byte block is copied rather than padded.
inline constexpr std::uint8_t kVariantTransAligned = 1;
inline constexpr std::uint8_t kVariantFillInPlace = 1;
inline constexpr std::uint8_t kVariantKeepBlock = 2;
inline constexpr std::uint8_t kVariantFillRowAligned = 4;  // TFILLPAD of a Mat tile: CompactMode::RowAlignedPadding
// TCONCAT (A2A3's basic form): src0's rows, and src1's where they start on a block, move as whole 32-byte
// blocks (copy_ubuf_to_ubuf), so the rest of each block is the source's bytes.
inline constexpr std::uint8_t kVariantConcatBlocks = 1;
// TEXTRACT / TINSERT (Vec): the window tile's static ValidCol fills whole 32-byte blocks (the NPUs' DMA
// path); its static valid shape is 1 x 1 (their scalar path).
inline constexpr std::uint8_t kVariantWindowAligned = 1;
inline constexpr std::uint8_t kVariantWindowScalar = 2;
inline constexpr std::uint8_t kVariantDescending = 1;
inline constexpr std::uint8_t kVariantTciTmp = 2;
inline constexpr std::uint8_t kVariantUpper = 1;  // TTRI: the upper triangle
inline constexpr std::uint8_t kVariantRounds7 = 1;  // TRANDOM: 7 Philox rounds (else 10)
// THISTOGRAM: the HistByte counted in bits 0-1.
inline constexpr std::uint8_t kVariantSrc1Strict = 1;  // TPARTARG*: src1 only when strictly better (A5; A2A3 keeps src0 unless it loses)

// TQUANT (INT8): the tmp form (A2A3's scratch).
inline constexpr std::uint8_t kVariantQuantTmp = 1;
// TQUANT (MX): e2m1 codes (else e4m3), the NV scale rule (else OCP), an exp tile of several rows
// (the chip's per-row path, else the flat one), the DN grouping (groups of 32 rows; else ND), its
// interleaved exponent store (group pairs side by side; else linear).
inline constexpr std::uint8_t kVariantMxFp4 = 1;
inline constexpr std::uint8_t kVariantMxNv = 2;
inline constexpr std::uint8_t kVariantMxExp2D = 4;
inline constexpr std::uint8_t kVariantMxDn = 8;
inline constexpr std::uint8_t kVariantMxInterleave = 16;
// TQUANT (MX, DN): the scalar's `bits` hold src's valid columns (low 32 bits) and rows, wide[0] dst's row stride in bytes,
// wide[1] dst's rows (the fp16 MXFP4 path's scratch lies past them) and exp's row stride << 32.

// MGATHER / MSCATTER: Coalesce::Elem (bit 0), the GatherOOB / ScatterOOB in bits 1-2, MSCATTER's
// ScatterAtomicOp in bits 3-4.
inline constexpr std::uint8_t kVariantElem = 1;
inline constexpr int kVariantOobShift = 1;
inline constexpr int kVariantAtomicShift = 3;

// The mad (TMATMUL, TGEMV): float inputs rounded to TF32 first, by CAST_ROUND or (with kVariantTf32Rint) CAST_RINT.
inline constexpr std::uint8_t kVariantTf32 = 1;
inline constexpr std::uint8_t kVariantTf32Rint = 2;
// TSTORE from an Acc tile (the fixpipe): ReluPreMode::NormalRelu, AtomicType::AtomicAdd, and the quant
// word: the scalar's bits (one for every element) or one per column from the Scaling tile (operand 2).
inline constexpr std::uint8_t kVariantRelu = 1;
inline constexpr std::uint8_t kVariantAtomicAdd = 2;
inline constexpr std::uint8_t kVariantQuantScalar = 4;
inline constexpr std::uint8_t kVariantQuantVector = 8;

}  // namespace pto
