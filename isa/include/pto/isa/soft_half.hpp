// soft_half: IEEE binary16 for compilers without _Float16 in C++ on this target (clang before 15 on
// x86-64, g++ 12 on aarch64).
// dtype.hpp makes it pto::half only there; g++ and newer clang keep the native _Float16.
//
// It behaves as g++'s _Float16 does, so results do not depend on the compiler:
// - conversions round to nearest, ties to even, once (F16C's vcvtps2ph); a double is first narrowed to
//   float rounding to odd, so that the second rounding cannot land on a tie the first one made;
// - + - * / compute in float and round once to half: exact-equivalent to a binary16 operation, since
//   float's 24 bits are at least 2 * 11 + 2 (one rounding per operation, as fp16 hardware does);
// - mixed with an integer the integer becomes a half first; mixed with float or double the half widens
//   and the result is float or double (the usual arithmetic conversions, _Float16 ranking below float);
// - like g++ 12's _Float16 it is not std::is_floating_point and has no std::numeric_limits.
#pragma once
#include <bit>
#include <compare>
#include <cstdint>
#include <type_traits>

#if defined(__F16C__)
#include <immintrin.h>
#elif !defined(__aarch64__)
#error "soft_half converts with F16C (x86-64: build with -mf16c) or aarch64's fcvt (__fp16)"
#endif

namespace pto {

struct soft_half {
  std::uint16_t bits;

  soft_half() = default;  // trivial, as _Float16: uninitialised unless value-initialised (half{} is 0)
  soft_half(float f) : bits(round_from(f)) {}  // NOLINT: implicit, like a float type (and from bfloat16_t)
  template <class A>
    requires std::is_arithmetic_v<A>
  soft_half(A a) : bits(round_from(a)) {}  // NOLINT: int, double, ... as _Float16 converts them
#if defined(__F16C__)
  operator float() const { return _cvtsh_ss(bits); }
#else  // aarch64: __fp16 is the storage type whose conversions are fcvt (exact widening, nearest-even narrowing)
  operator float() const { return float(std::bit_cast<__fp16>(bits)); }
#endif

  static constexpr soft_half from_bits(std::uint16_t b) {
    soft_half r;
    r.bits = b;
    return r;
  }
#if defined(__F16C__)
  static std::uint16_t round_from(float f) { return std::uint16_t(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT)); }
#else
  static std::uint16_t round_from(float f) { return std::bit_cast<std::uint16_t>(static_cast<__fp16>(f)); }
#endif
  template <class A> static std::uint16_t round_from(A a) {
    if constexpr (std::is_integral_v<A>) return round_from(static_cast<float>(a));  // exact < 2^24; beyond: inf anyway
    else return round_from(to_float_odd(a));
  }
  // x narrowed to float rounding to odd (toward zero, the last bit set when inexact): float keeps
  // 13 bits more than half, so rounding this to half gives x rounded to half directly.
  template <class F> static float to_float_odd(F x) {
    const float f = static_cast<float>(x);  // nearest; NaN stays NaN
    if (F(f) == x || x != x) return f;
    std::uint32_t u = std::bit_cast<std::uint32_t>(f);
    if ((F(f) < 0 ? -F(f) : F(f)) > (x < 0 ? -x : x)) --u;  // rounded away from zero (inf included): one step back
    return std::bit_cast<float>(u | 1u);
  }

  friend bool operator==(soft_half a, soft_half b) { return float(a) == float(b); }
  friend std::partial_ordering operator<=>(soft_half a, soft_half b) { return float(a) <=> float(b); }
  friend soft_half operator+(soft_half a, soft_half b) { return float(a) + float(b); }
  friend soft_half operator-(soft_half a, soft_half b) { return float(a) - float(b); }
  friend soft_half operator*(soft_half a, soft_half b) { return float(a) * float(b); }
  friend soft_half operator/(soft_half a, soft_half b) { return float(a) / float(b); }
  soft_half operator-() const { return -float(*this); }  // via float, as g++ does: a signalling NaN comes out quiet
  constexpr soft_half operator+() const { return *this; }
  template <class B> soft_half& operator+=(B b) { return *this = soft_half(*this + b); }
  template <class B> soft_half& operator-=(B b) { return *this = soft_half(*this - b); }
  template <class B> soft_half& operator*=(B b) { return *this = soft_half(*this * b); }
  template <class B> soft_half& operator/=(B b) { return *this = soft_half(*this / b); }
};

// Mixed with an arithmetic type: the type _Float16 would compute in (half for an integer, else the other).
template <class A>
using soft_half_common = std::conditional_t<std::is_integral_v<A>, soft_half, A>;

template <class A> requires std::is_arithmetic_v<A>
soft_half_common<A> operator+(soft_half a, A b) { return soft_half_common<A>(a) + soft_half_common<A>(b); }
template <class A> requires std::is_arithmetic_v<A>
soft_half_common<A> operator+(A a, soft_half b) { return soft_half_common<A>(a) + soft_half_common<A>(b); }
template <class A> requires std::is_arithmetic_v<A>
soft_half_common<A> operator-(soft_half a, A b) { return soft_half_common<A>(a) - soft_half_common<A>(b); }
template <class A> requires std::is_arithmetic_v<A>
soft_half_common<A> operator-(A a, soft_half b) { return soft_half_common<A>(a) - soft_half_common<A>(b); }
template <class A> requires std::is_arithmetic_v<A>
soft_half_common<A> operator*(soft_half a, A b) { return soft_half_common<A>(a) * soft_half_common<A>(b); }
template <class A> requires std::is_arithmetic_v<A>
soft_half_common<A> operator*(A a, soft_half b) { return soft_half_common<A>(a) * soft_half_common<A>(b); }
template <class A> requires std::is_arithmetic_v<A>
soft_half_common<A> operator/(soft_half a, A b) { return soft_half_common<A>(a) / soft_half_common<A>(b); }
template <class A> requires std::is_arithmetic_v<A>
soft_half_common<A> operator/(A a, soft_half b) { return soft_half_common<A>(a) / soft_half_common<A>(b); }
// Comparisons: the reversed forms (0 < h) come from C++20's rewritten candidates.
template <class A> requires std::is_arithmetic_v<A>
bool operator==(soft_half a, A b) { return soft_half_common<A>(a) == soft_half_common<A>(b); }
template <class A> requires std::is_arithmetic_v<A>
std::partial_ordering operator<=>(soft_half a, A b) { return soft_half_common<A>(a) <=> soft_half_common<A>(b); }

}  // namespace pto
