// bfloat16_t: g++ 12 has no __bf16 arithmetic, so bf16 is our own 16-bit storage type.
// Conversion from float rounds to nearest, ties to even; NaN stays NaN (quiet bit forced).
#pragma once
#include <bit>
#include <compare>
#include <cstdint>

namespace pto {

struct bfloat16_t {
  std::uint16_t bits = 0;

  constexpr bfloat16_t() = default;
  constexpr bfloat16_t(float f) : bits(round_from(f)) {}  // NOLINT: implicit, like a float type
  constexpr bfloat16_t(double d) : bfloat16_t(static_cast<float>(d)) {}
  constexpr bfloat16_t(int i) : bfloat16_t(static_cast<float>(i)) {}
  constexpr operator float() const { return std::bit_cast<float>(std::uint32_t(bits) << 16); }

  static constexpr bfloat16_t from_bits(std::uint16_t b) {
    bfloat16_t r;
    r.bits = b;
    return r;
  }
  static constexpr std::uint16_t round_from(float f) {
    std::uint32_t u = std::bit_cast<std::uint32_t>(f);
    if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu) != 0)  // NaN: keep sign, force quiet
      return static_cast<std::uint16_t>((u >> 16) | 0x0040u);
    std::uint32_t lsb = (u >> 16) & 1u;  // ties go to the even neighbour
    return static_cast<std::uint16_t>((u + 0x7fffu + lsb) >> 16);
  }

  friend constexpr bool operator==(bfloat16_t a, bfloat16_t b) { return float(a) == float(b); }
  friend constexpr auto operator<=>(bfloat16_t a, bfloat16_t b) { return float(a) <=> float(b); }
  // Arithmetic rounds once per operation, as a bf16 ALU does.
  friend constexpr bfloat16_t operator+(bfloat16_t a, bfloat16_t b) { return float(a) + float(b); }
  friend constexpr bfloat16_t operator-(bfloat16_t a, bfloat16_t b) { return float(a) - float(b); }
  friend constexpr bfloat16_t operator*(bfloat16_t a, bfloat16_t b) { return float(a) * float(b); }
  friend constexpr bfloat16_t operator/(bfloat16_t a, bfloat16_t b) { return float(a) / float(b); }
  constexpr bfloat16_t operator-() const { return from_bits(bits ^ 0x8000u); }
};

}  // namespace pto
