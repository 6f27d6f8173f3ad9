// <pto/common/constants.hpp>: the constants header PTO kernels include (spec §1.5).
#pragma once
#include <cstdint>

#include <pto/isa/dtype.hpp>
#include <pto/isa/enums.hpp>
#include <pto/isa/pipes.hpp>

namespace pto {
inline constexpr std::uint32_t REPEAT_BYTE = 256;
inline constexpr std::uint32_t BLOCK_BYTE_SIZE = 32;
inline constexpr std::uint32_t BLOCK_MAX_PER_REPEAT = 8;
inline constexpr std::uint32_t REPEAT_MAX = 255;
inline constexpr std::uint32_t REPEAT_STRIDE_MAX = 255;
inline constexpr std::uint32_t MASK_LEN = 64;
inline constexpr std::uint32_t C0_SIZE_BYTE = 32;
inline constexpr std::uint32_t FRACTAL_NZ_ROW = 16;
inline constexpr std::uint32_t TMP_UB_SIZE = 8 * 1024;
inline constexpr std::uint32_t TMP_UB_OFFSET = 184 * 1024;  // A2/A3 implicit scratch: UB [184 KiB, 192 KiB)
// The other constants of pto-isa's constants.hpp that kernels spell (values as there).
inline constexpr int FIXP_BURST_UNIT_LEN = 64;
inline constexpr std::uint32_t SHIFT_BLOCK_LEN = 4, SHIFT_BLOCK_BYTE = 5, SHIFT_FRACTAL_BYTE = 9;
inline constexpr int BLOCK_LEN = 16, CUBE_BLOCK_SIZE = 512, FRACTAL_ZZ_ROW = 16, ACC_C0_SIZE = 16;
inline constexpr std::uint32_t B4_C0_SIZE = 64;
inline constexpr int MX_COL_LEN = 2, MX_ROW_LEN = 16, MX_BLOCK_SIZE = 32;
inline constexpr int HIF4_COL_LEN = 4, HIF4_ROW_LEN = 16, HIF4_BLOCK_SIZE = 64;
inline constexpr int B8_DATA_TYPE_OFFSET = 8, PAD_SHIFT_LENGTH = 32;
inline constexpr std::uint16_t PTO_TIME_1 = 1, PTO_TIME_2 = 2, PTO_TIME_4 = 4;
inline constexpr std::uint16_t PTO_IDX_0 = 0, PTO_IDX_1 = 1, PTO_IDX_2 = 2, PTO_IDX_3 = 3;
inline constexpr int NUM_1 = 1, NUM_4 = 4, NUM_8 = 8, NUM_12 = 12, NUM_16 = 16, NUM_32 = 32, NUM_64 = 64, NUM_77 = 77,
                     NUM_96 = 96, NUM_128 = 128, NUM_256 = 256, NUM_512 = 512;

constexpr bool isCustomPadValue(PadValue v) {
  return (static_cast<std::uint64_t>(v) & static_cast<std::uint64_t>(PadValue::CustomBase)) != 0;
}
constexpr std::uint32_t getCustomPadBits(PadValue v) {
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(v) & 0xffffffffull);
}
constexpr PadValue PadValueCustom16(std::uint16_t bits) {
  return static_cast<PadValue>(static_cast<std::uint64_t>(PadValue::CustomBase) | bits);
}
constexpr PadValue PadValueCustom(float v) {
  return static_cast<PadValue>(static_cast<std::uint64_t>(PadValue::CustomBase) | std::bit_cast<std::uint32_t>(v));
}
constexpr PadValue PadValueCustom(std::int32_t v) {
  return static_cast<PadValue>(static_cast<std::uint64_t>(PadValue::CustomBase) | static_cast<std::uint32_t>(v));
}
template <auto V> inline constexpr PadValue PadCustom = PadValueCustom(V);
}  // namespace pto
