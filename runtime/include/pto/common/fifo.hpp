// The names of cube <-> vector FIFOs, as pto-isa's kernels spell them (`pto/common/fifo.hpp`): how a
// tile is split between a cluster's two vector cores, which way a pipe carries tiles, and the slot ring
// a TPipe describes. TPipe and TPUSH / TPOP / TALLOC / TFREE are in <pto/runtime/tpipe.hpp>.
#pragma once
#include <cstdint>

namespace pto {

// How a tile passed between the cube core and the two vector cores of a cluster is shared: not at all
// (AIV0's, or both AIVs each see the whole tile), by rows (AIV0 the upper half, AIV1 the lower), by
// columns (AIV0 the left half). The _ODD forms give AIV0 the extra row / column of an odd count.
enum TileSplitAxis : std::uint8_t {
  TILE_NO_SPLIT = 0,
  TILE_UP_DOWN = 1,
  TILE_LEFT_RIGHT = 2,
  TILE_UP_DOWN_ODD = 3,
  TILE_LEFT_RIGHT_ODD = 4,
};

// Which way a pipe carries tiles. On A2/A3 every direction goes through the GM slot ring; A5 has local
// rings (C2V into the AIVs' UB, V2C into the AIC's L1) and the _GM forms through GM.
enum Direction : std::uint8_t {
  UNDEFINED = 0,
  DIR_C2V = 1,
  DIR_V2C = 2,
  DIR_BOTH = 3,
  DIR_V2C_CTRL = 4,
  DIR_C2V_GM = 5,
  DIR_V2C_GM = 6,
  DIR_BOTH_GM = 7,
};

// The slot ring of a pipe: SlotNum slots of SlotSize bytes in GM (and LocalSlotNum slots of the
// consumer's own buffer at C2V_CONSUMER_BUF in UB / V2C_CONSUMER_BUF in L1, byte offsets).
template <int SlotSize, int SlotNum, int LocalSlotNum>
struct RingFIFO {
  static constexpr int SLOT_SIZE = SlotSize;
  static constexpr int SLOT_NUM = SlotNum;
  static constexpr int LOCAL_SLOT_NUM = LocalSlotNum;
  void* GM_SLOT_BUFFER = nullptr;
  std::uint32_t C2V_CONSUMER_BUF = 0;
  std::uint32_t V2C_CONSUMER_BUF = 0;
  RingFIFO() = default;
  RingFIFO(void* gmSlotBuf, std::uint32_t c2vConsBuf, std::uint32_t v2cConsBuf)
      : GM_SLOT_BUFFER(gmSlotBuf), C2V_CONSUMER_BUF(c2vConsBuf), V2C_CONSUMER_BUF(v2cConsBuf) {}
};

enum class FIFOType : std::uint8_t { GM_FIFO = 0, VEC_FIFO = 1, MAT_FIFO = 2, CTRL_FIFO = 3 };
enum class VecCubeRatio : std::uint8_t { V1C1_VEC0 = 0, V1C1_VEC1 = 1, V2C1_VECS = 2 };

}  // namespace pto
