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
