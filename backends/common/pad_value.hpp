// The element a TLOAD or TFILLPAD writes into the padded part of a tile (spec §1.2 PadValueMap): one
// definition for the CPU kernels and the device paths.
#pragma once
#include <cstring>
#include <limits>
#include <type_traits>

#include <pto/common/constants.hpp>

namespace pto {

template <class T>
T pad_element(PadValue pad) {
  if constexpr (sizeof(T) == 8) {
    return T{0};  // 64-bit types always pad with 0
  } else if (isCustomPadValue(pad)) {
    // Custom pads carry raw bits; an element takes the low sizeof(T) bytes.
    std::uint32_t bits = getCustomPadBits(pad);
    T v;
    std::memcpy(static_cast<void*>(&v), &bits, sizeof(T));
    return v;
  } else if (pad == PadValue::Max || pad == PadValue::Min) {
    const bool max = pad == PadValue::Max;
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, float>)
      return T(max ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity());  // no numeric_limits<half> in g++ 12
    else if constexpr (std::is_same_v<T, bfloat16_t>)
      return bfloat16_t::from_bits(max ? 0x7f80 : 0xff80);
    else
      return max ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
  }
  return T{0};
}

}  // namespace pto
