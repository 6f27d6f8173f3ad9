// The 8- and 4-bit element types PTO spells (float8_e4m3_t, float8_e5m2_t, float8_e8m0_t, hifloat8_t,
// float4_e2m1x2_t, float4_e1m2x2_t, int4b_t) and the exact rounding every conversion into a narrower
// type uses (numeric::round_binary for the IEEE-style 16/32-bit floats, a table of all codes for the
// 8- and 4-bit ones). Encodings: docs/conversions.md.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

#include <pto/isa/enums.hpp>

namespace pto {

namespace numeric {

// s rounded to an integer by m (CAST_NONE rounds as CAST_RINT: callers resolve a pair's default first).
// A zero result keeps the sign of s, as IEEE rounding does. R: long double, or double where the value
// has at most 53 significant bits (faster, the same result).
template <class R>
inline R round_integer(R s, RoundMode m) {
  R r;
  switch (m) {
    case RoundMode::CAST_ROUND: r = std::round(s); break;
    case RoundMode::CAST_FLOOR: r = std::floor(s); break;
    case RoundMode::CAST_CEIL: r = std::ceil(s); break;
    case RoundMode::CAST_TRUNC: r = std::trunc(s); break;
    case RoundMode::CAST_ODD:
      r = std::trunc(s);
      if (r != s && std::fmod(r, R(2)) == 0) r += s > 0 ? 1 : -1;
      break;
    default: {
      const R f = std::floor(s), d = s - f;
      r = d > R(0.5) ? f + 1 : d < R(0.5) ? f : (std::fmod(f, R(2)) == 0 ? f : f + 1);
    }
  }
  return r == 0 ? std::copysign(R(0), s) : r;
}

// x rounded by m to a binary floating-point grid of `man` stored mantissa bits whose smallest normal
// exponent is emin (gradual underflow below it), with no upper bound: the caller handles overflow.
// Exact for every x with at most 64 significant bits (long double's significand), i.e. every value of
// every PTO element type.
template <class R>
inline R round_binary(R x, int man, int emin, RoundMode m) {
  if (x == 0 || !std::isfinite(x)) return x;
  const int q = std::max(std::ilogb(x), emin) - man;  // exponent of one unit in the last place
  return std::ldexp(round_integer(std::ldexp(x, -q), m), q);
}

// IEEE 754 overflow of a rounded result r (|r| beyond max) under each rounding direction.
template <class R>
inline R ieee_overflow(R r, R max, RoundMode m) {
  const bool neg = r < 0;
  const R inf = std::numeric_limits<R>::infinity();
  switch (m) {
    case RoundMode::CAST_TRUNC: case RoundMode::CAST_ODD: return neg ? -max : max;
    case RoundMode::CAST_FLOOR: return neg ? -inf : max;
    case RoundMode::CAST_CEIL: return neg ? -max : inf;
    default: return neg ? -inf : inf;
  }
}

// The 8- and 4-bit formats, as tables of every code.
enum class Narrow : std::uint8_t { E4M3, E5M2, E8M0, HiF8, E2M1, E1M2 };
inline constexpr int kNumNarrow = 6;

struct NarrowFormat {
  const char* name;
  int bits;               // 8 or 4 (a 4-bit code in the low nibble)
  bool has_sign;          // e8m0 is unsigned
  int nan_code;           // -1: no NaN (the 4-bit types)
  int inf_code;           // +inf (-1: none); -inf is it with the sign bit
  int neg_zero_code;      // -1: no negative zero (hifloat8 spends 0x80 on NaN)
  long double above_max;  // the value the grid would have next above the largest finite one
  std::array<long double, 256> value{};  // by code (NaN / inf codes hold NaN / inf)
  std::array<std::uint8_t, 256> mag{};   // codes of the non-negative finite values, ascending
  int nmag = 0;
};

namespace detail {
inline long double decode_formula(Narrow k, unsigned c) {
  const long double nan = std::numeric_limits<long double>::quiet_NaN(), inf = std::numeric_limits<long double>::infinity();
  auto ieee = [&](int eb, int mb, int bias, bool fn) -> long double {  // fn: OCP E4M3FN (no inf, one NaN)
    const unsigned s = (c >> (eb + mb)) & 1, e = (c >> mb) & ((1u << eb) - 1), f = c & ((1u << mb) - 1);
    const long double sign = s ? -1 : 1;
    if (fn && e == (1u << eb) - 1 && f == (1u << mb) - 1) return nan;
    if (!fn && eb == 5 && e == 31) return f ? nan : sign * inf;
    if (e == 0) return sign * std::ldexp((long double)f, 1 - bias - mb);
    return sign * std::ldexp((long double)((1u << mb) | f), int(e) - bias - mb);
  };
  switch (k) {
    case Narrow::E4M3: return ieee(4, 3, 7, true);
    case Narrow::E5M2: return ieee(5, 2, 15, false);
    case Narrow::E2M1: return ieee(2, 1, 1, false);
    case Narrow::E1M2: return ieee(1, 2, 1, false);
    case Narrow::E8M0: return c == 0xFF ? nan : std::ldexp(1.0L, int(c) - 127);
    case Narrow::HiF8: {
      // Sign, a prefix-coded dot field D (11: 4 exponent bits, 10: 3, 01: 2, 001: 1, 0001: 0, 0000:
      // denormal), the exponent in sign-magnitude with an implicit leading 1 in its magnitude, and the
      // remaining bits of mantissa (1, 2, 3, 3, 3).
      const long double sign = (c & 0x80) ? -1 : 1;
      const unsigned p = c & 0x7F;
      if (p == 0) return (c & 0x80) ? nan : 0.0L;
      if ((p >> 3) == 0) return sign * std::ldexp(1.0L, int(p & 7) - 23);  // denormal: 2^(M - 23)
      int d, mb;
      if ((p >> 5) == 3) d = 4, mb = 1;
      else if ((p >> 5) == 2) d = 3, mb = 2;
      else if ((p >> 5) == 1) d = 2, mb = 3;
      else if ((p >> 4) == 1) d = 1, mb = 3;
      else d = 0, mb = 3;
      const unsigned rest = p & ((1u << (d + mb)) - 1), m = rest & ((1u << mb) - 1), eb = rest >> mb;
      int e = 0;
      if (d > 0) {
        const unsigned sbit = 1u << (d - 1);
        e = int(sbit | (eb & (sbit - 1)));
        if (eb & sbit) e = -e;
      }
      if (d == 4 && e == 15 && m == 1) return sign * inf;
      return sign * std::ldexp((long double)((1u << mb) | m), e - mb);
    }
  }
  return nan;
}

inline NarrowFormat make_format(Narrow k) {
  NarrowFormat f{};
  switch (k) {
    case Narrow::E4M3: f = {"float8_e4m3", 8, true, 0x7F, -1, 0x80, 480.0L}; break;
    case Narrow::E5M2: f = {"float8_e5m2", 8, true, 0x7F, 0x7C, 0x80, 65536.0L}; break;
    case Narrow::E8M0: f = {"float8_e8m0", 8, false, 0xFF, -1, -1, std::ldexp(1.0L, 128)}; break;
    case Narrow::HiF8: f = {"hifloat8", 8, true, 0x80, 0x6F, -1, 49152.0L}; break;
    case Narrow::E2M1: f = {"float4_e2m1", 4, true, -1, -1, 0x8, 8.0L}; break;
    case Narrow::E1M2: f = {"float4_e1m2", 4, true, -1, -1, 0x8, 2.0L}; break;
  }
  const unsigned n = 1u << f.bits, half = f.has_sign ? n / 2 : n;
  for (unsigned c = 0; c < n; ++c) f.value[c] = decode_formula(k, c);
  for (unsigned c = 0; c < half; ++c)
    if (std::isfinite(f.value[c])) f.mag[f.nmag++] = std::uint8_t(c);
  std::sort(f.mag.begin(), f.mag.begin() + f.nmag, [&](std::uint8_t a, std::uint8_t b) { return f.value[a] < f.value[b]; });
  return f;
}
}  // namespace detail

inline const NarrowFormat& format(Narrow k) {
  static const std::array<NarrowFormat, kNumNarrow> table = [] {
    std::array<NarrowFormat, kNumNarrow> t{};
    for (int i = 0; i < kNumNarrow; ++i) t[i] = detail::make_format(Narrow(i));
    return t;
  }();
  return table[int(k)];
}

inline long double decode(Narrow k, std::uint8_t code) {
  const NarrowFormat& f = format(k);
  return f.value[code & ((1u << f.bits) - 1)];
}

// x (exact) to the nearest code by m. Out of range: SaturationMode::ON gives the largest finite value
// of the right sign, OFF infinity where the format has one, else NaN, else (4-bit) the largest value.
// NaN gives the format's NaN (0 for the 4-bit types, which have none); a negative x to e8m0 gives NaN.
inline std::uint8_t encode(Narrow k, long double x, RoundMode m, SaturationMode sat) {
  const NarrowFormat& f = format(k);
  const std::uint8_t sign = (f.has_sign && std::signbit(x)) ? std::uint8_t(1u << (f.bits - 1)) : 0;
  const std::uint8_t max_code = f.mag[f.nmag - 1];
  // A magnitude's code with x's sign (zero stays +0 where the format has no -0: hifloat8's 0x80 is NaN).
  auto signed_code = [&](std::uint8_t c) { return std::uint8_t(f.value[c] == 0 && f.neg_zero_code < 0 ? c : c | sign); };
  auto overflow = [&]() -> std::uint8_t {
    if (sat == SaturationMode::ON) return max_code | sign;
    if (f.inf_code >= 0) return std::uint8_t(f.inf_code) | sign;
    return f.nan_code >= 0 ? std::uint8_t(f.nan_code) : std::uint8_t(max_code | sign);
  };
  if (std::isnan(x)) return f.nan_code >= 0 ? std::uint8_t(f.nan_code) : 0;
  if (!f.has_sign && x < 0) return std::uint8_t(f.nan_code);
  if (std::isinf(x)) return overflow();
  const long double a = std::fabs(x);
  // The magnitude's rounding direction: FLOOR / CEIL of a negative x round its magnitude the other way.
  RoundMode mm = m;
  if (sign && m == RoundMode::CAST_FLOOR) mm = RoundMode::CAST_CEIL;
  else if (sign && m == RoundMode::CAST_CEIL) mm = RoundMode::CAST_FLOOR;
  const long double* v = f.value.data();
  const std::uint8_t* mag = f.mag.data();
  // The neighbours lo <= a < hi on the grid extended by above_max (index nmag).
  const int i = int(std::upper_bound(mag, mag + f.nmag, a, [&](long double val, std::uint8_t c) { return val < v[c]; }) - mag) - 1;
  if (i < 0) return mag[0];  // below the smallest magnitude: only e8m0, which has no zero
  const long double lo = v[mag[i]];
  if (lo == a) return signed_code(mag[i]);
  const bool top = i + 1 == f.nmag;
  const long double hi = top ? f.above_max : v[mag[i + 1]];
  const bool lo_even = (mag[i] & 1) == 0;
  bool up;
  switch (mm) {
    case RoundMode::CAST_TRUNC: case RoundMode::CAST_FLOOR: up = false; break;
    case RoundMode::CAST_CEIL: up = true; break;
    case RoundMode::CAST_ODD: up = lo_even && !top; break;  // the odd neighbour; never past the largest value
    case RoundMode::CAST_ROUND: up = a - lo >= hi - a; break;
    default: up = (a - lo > hi - a) || (a - lo == hi - a && !lo_even); break;
  }
  if (!up) return signed_code(mag[i]);
  return top ? overflow() : signed_code(mag[i + 1]);
}

}  // namespace numeric

// An 8-bit float, or a 4-bit one in the low nibble of its byte (the x2 types pack two elements per
// byte in a tile: element 2k in the low nibble). Conversion from a number rounds to nearest, ties to
// even; out of range it gives infinity, else NaN, else (4-bit) the largest value, as TCVT with
// SaturationMode::OFF does.
template <numeric::Narrow K>
struct NarrowFloat {
  std::uint8_t data = 0;

  constexpr NarrowFloat() = default;
  NarrowFloat(double v) : data(numeric::encode(K, v, RoundMode::CAST_RINT, SaturationMode::OFF)) {}  // NOLINT
  NarrowFloat(float v) : NarrowFloat(double(v)) {}                                                 // NOLINT
  NarrowFloat(int v) : NarrowFloat(double(v)) {}                                                   // NOLINT
  static constexpr NarrowFloat FromRaw(std::uint8_t raw) {
    NarrowFloat r;
    r.data = raw;
    return r;
  }
  constexpr std::uint8_t RawData() const { return data; }
  operator double() const { return double(numeric::decode(K, data)); }  // NOLINT
  friend bool operator==(NarrowFloat a, NarrowFloat b) { return double(a) == double(b); }
};

using float8_e4m3_t = NarrowFloat<numeric::Narrow::E4M3>;    // OCP E4M3FN: no infinity, NaN S.1111.111, max 448
using float8_e5m2_t = NarrowFloat<numeric::Narrow::E5M2>;    // IEEE-style: infinities, max 57344
using float8_e8m0_t = NarrowFloat<numeric::Narrow::E8M0>;    // MX scale: 2^(e - 127), NaN 0xFF
using hifloat8_t = NarrowFloat<numeric::Narrow::HiF8>;       // Ascend HiFloat8: tapered, max 32768
using float4_e2m1x2_t = NarrowFloat<numeric::Narrow::E2M1>;  // max 6
using float4_e1m2x2_t = NarrowFloat<numeric::Narrow::E1M2>;  // max 1.75

// A signed 4-bit integer (two per byte in a tile, element 2k in the low nibble), as pto-isa's
// type.hpp declares it.
struct int4b_t {
  std::uint8_t storage = 0;
  int4b_t() = default;
  explicit constexpr int4b_t(std::int32_t v) : storage(std::uint8_t(v) & 0x0F) {}
  constexpr operator std::int8_t() const {  // NOLINT
    return std::int8_t((storage & 0x08) ? (storage | 0xF0) : (storage & 0x0F));
  }
};

}  // namespace pto
