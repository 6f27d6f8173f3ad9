// TSYNC_CVID (pto-isa's custom TSyncCVID.hpp, A2/A3 and A5): a cluster's AIC tells its AIVs which
// communication slot it uses. The AIC writes its slot number into the block's record of `cv_comm_buf`
// and signals flag 12 (CV_COMM_CTRL, FFTS mode 2) from MTE2; each AIV waits for the flag and reads the
// number: the AIC's core id (get_coreid(), the chip core its block runs on) modulo CV_MAX_CORES, so two
// blocks that run at once never share a slot.
#pragma once
#include <cstddef>
#include <cstdint>

#include <pto/isa/error.hpp>
#include <pto/runtime/block.hpp>
#include <pto/runtime/qualifiers.hpp>
#include <pto/runtime/sync.hpp>

namespace pto {
// FFTS flag ids 12-15 are reserved for this handshake.
enum CVCommFftsEvent : std::uint16_t { CV_COMM_CTRL = 12, CV_COMM_RSVD_13, CV_COMM_RSVD_14, CV_COMM_RSVD_15 };
inline constexpr int kCvCommSlotBytes = 512;
inline constexpr int kCvMaxCores = 25;
enum CVSyncMode : std::uint16_t { C_ALL_CORE_SYNC = 0, V_ALL_CORE_SYNC = 0, V_SUBCORES_SYNC = 1, CV_CORE_SYNC = 2 };

// An ffts_cross_core_sync config: bits 0-3 the base, 4-5 the mode, 8-11 the flag id.
inline std::uint16_t _getFFTSMsg(CVSyncMode mode, std::uint16_t flag_id, std::uint16_t base_const = 0x1) {
  return std::uint16_t((base_const & 0xF) | ((mode & 0x3) << 4) | ((flag_id & 0xF) << 8));
}

template <int CV_COMM_SLOT_BYTES = kCvCommSlotBytes, int CV_MAX_CORES = kCvMaxCores>
int TSYNC_CVID(int block_idx, __gm__ std::uint8_t* cv_comm_buf) {
  static_assert(CV_MAX_CORES > 0, "TSYNC_CVID: CV_MAX_CORES must be positive");
  static_assert(CV_COMM_SLOT_BYTES >= 4, "TSYNC_CVID: a slot record holds a uint32 (CV_COMM_SLOT_BYTES >= 4)");
  if (!cv_comm_buf) detail::fail("TSYNC_CVID: operand cv_comm_buf is a null GM pointer");
  auto* record = reinterpret_cast<volatile std::uint32_t*>(cv_comm_buf + std::size_t(block_idx) * CV_COMM_SLOT_BYTES);
  if (detail::core_kind(detail::current_core()) == CoreKind::Cube) {
    const int slot = int(get_coreid() % CV_MAX_CORES);
    *record = std::uint32_t(slot);
    ffts_cross_core_sync(PIPE_MTE2, _getFFTSMsg(CV_CORE_SYNC, CV_COMM_CTRL));
    return slot;
  }
  wait_flag_dev(CV_COMM_CTRL);
  return int(*record);
}
}  // namespace pto
