// TCVT and the 8- and 4-bit element types.
//  - Every code of every 8- and 4-bit format against a decoder written here from the format's
//    definition (bit fields, docs/conversions.md), with the known extremes; every value re-encodes to
//    its code; every midpoint and quarter point between neighbours, and the overflow region, rounds as
//    a brute-force nearest-value search says, in every RoundMode.
//  - The IEEE-style 8- and 4-bit formats: the table-driven encoder against numeric::round_binary (two
//    independent roundings) on random values.
//  - TCVT through a kernel, for every pair each target has, every RoundMode, the default and both
//    SaturationModes, on pto-isa's CPU test shapes (valid regions smaller than the tile included):
//    against references computed here (the hardware's directed float conversions for float results,
//    exact integer arithmetic for integer ones). Errors: a pair the target lacks, a tmp too small.
#define BOOST_TEST_MODULE convert
#include <boost/test/unit_test.hpp>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#if defined(__F16C__)
#include <immintrin.h>
#endif

#include <pto/pto-inst.hpp>

#include "element_ref.hpp"

using namespace pto;
using pto_test::contains;
using pto_test::error_of;

namespace {
using numeric::Narrow;
constexpr RoundMode kModes[] = {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_ROUND, RoundMode::CAST_FLOOR,
                                RoundMode::CAST_CEIL, RoundMode::CAST_TRUNC, RoundMode::CAST_ODD};
constexpr Narrow kNarrow[] = {Narrow::E4M3, Narrow::E5M2, Narrow::E8M0, Narrow::HiF8, Narrow::E2M1, Narrow::E1M2};

// ---- the formats, decoded from their definitions ------------------------------------------------------
struct Bits {
  int e, m, bias;
};
double ieee_like(unsigned c, Bits b) {  // sign, exponent, mantissa; exponent 0 is subnormal
  const unsigned s = c >> (b.e + b.m), e = (c >> b.m) & ((1u << b.e) - 1), f = c & ((1u << b.m) - 1);
  const double mag = e ? std::ldexp(1.0 + f / double(1u << b.m), int(e) - b.bias) : std::ldexp(f / double(1u << b.m), 1 - b.bias);
  return s ? -mag : mag;
}
double reference_decode(Narrow k, unsigned c) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  switch (k) {
    case Narrow::E4M3: return (c & 0x7F) == 0x7F ? nan : ieee_like(c, {4, 3, 7});
    case Narrow::E5M2:
      if ((c & 0x7C) == 0x7C) return (c & 3) ? nan : (c & 0x80 ? -inf : inf);
      return ieee_like(c, {5, 2, 15});
    case Narrow::E8M0: return c == 0xFF ? nan : std::exp2(double(c) - 127);
    case Narrow::E2M1: return ieee_like(c, {2, 1, 1});
    case Narrow::E1M2: return ieee_like(c, {1, 2, 1});
    case Narrow::HiF8: {
      // Listed by field widths: (prefix, prefix bits, exponent bits, mantissa bits).
      const double sign = (c & 0x80) ? -1 : 1;
      const unsigned p = c & 0x7F;
      if (p == 0) return (c & 0x80) ? nan : 0.0;
      struct Field { unsigned prefix, pbits, ebits, mbits; };
      constexpr Field fields[] = {{3, 2, 4, 1}, {2, 2, 3, 2}, {1, 2, 2, 3}, {1, 3, 1, 3}, {1, 4, 0, 3}, {0, 4, 0, 3}};
      for (const Field& f : fields) {
        if ((p >> (7 - f.pbits)) != f.prefix) continue;
        const unsigned m = p & ((1u << f.mbits) - 1), ef = (p >> f.mbits) & ((1u << f.ebits) - 1);
        if (f.prefix == 0) return sign * std::exp2(double(m) - 23);  // denormal
        int e = 0;
        if (f.ebits) {  // sign-magnitude, the magnitude's top bit implicit
          const int mag = int((1u << (f.ebits - 1)) | (ef & ((1u << (f.ebits - 1)) - 1)));
          e = (ef >> (f.ebits - 1)) ? -mag : mag;
        }
        if (f.ebits == 4 && e == 15 && m == 1) return sign * inf;
        return sign * std::ldexp(1.0 + m / double(1u << f.mbits), e);
      }
      return nan;
    }
  }
  return nan;
}
unsigned ncodes(Narrow k) { return 1u << numeric::format(k).bits; }

// Brute force: the code a rounding of x gives, over every code (no table, no search).
unsigned brute_encode(Narrow k, double x, RoundMode m, SaturationMode sat) {
  const auto& f = numeric::format(k);
  if (std::isnan(x)) return f.nan_code >= 0 ? unsigned(f.nan_code) : 0u;
  double best_lo = -INFINITY, best_hi = INFINITY;
  unsigned lo_c = 0, hi_c = 0;
  const bool neg = std::signbit(x);
  for (unsigned c = 0; c < ncodes(k); ++c) {
    const double v = reference_decode(k, c);
    if (!std::isfinite(v)) continue;
    if (f.has_sign && (c >> (f.bits - 1)) != unsigned(neg) && !(v == 0 && f.neg_zero_code < 0)) continue;  // the sign's own half (keeps -0 / +0 apart)
    if (v <= x && v > best_lo) best_lo = v, lo_c = c;
    if (v >= x && v < best_hi) best_hi = v, hi_c = c;
  }
  const double ax = std::fabs(x);
  const double max = reference_decode(k, f.mag[f.nmag - 1]);
  if (ax > max) {  // beyond the largest value: rounds back to it only toward zero or below the midpoint
    const double next = double(f.above_max), mid = (max + next) / 2;
    const unsigned maxc = f.mag[f.nmag - 1] | (neg && f.has_sign ? 1u << (f.bits - 1) : 0);
    bool back;
    switch (m) {
      case RoundMode::CAST_TRUNC: case RoundMode::CAST_ODD: back = true; break;
      case RoundMode::CAST_FLOOR: back = !neg; break;
      case RoundMode::CAST_CEIL: back = neg; break;
      case RoundMode::CAST_ROUND: back = ax < mid; break;
      default: back = ax < mid || (ax == mid && (f.mag[f.nmag - 1] & 1) == 0);
    }
    if (back || sat == SaturationMode::ON) return maxc;
    if (f.inf_code >= 0) return unsigned(f.inf_code) | (neg ? 0x80u : 0u);
    return f.nan_code >= 0 ? unsigned(f.nan_code) : maxc;
  }
  if (best_lo == x) return lo_c;
  if (best_hi == x) return hi_c;
  if (best_lo == -INFINITY) return hi_c;  // e8m0 below its smallest value
  const double dl = x - best_lo, dh = best_hi - x;
  switch (m) {
    case RoundMode::CAST_FLOOR: return lo_c;
    case RoundMode::CAST_CEIL: return hi_c;
    case RoundMode::CAST_TRUNC: return neg ? hi_c : lo_c;
    case RoundMode::CAST_ODD: return (lo_c & 1) ? lo_c : hi_c;
    case RoundMode::CAST_ROUND: return dl < dh ? lo_c : dh < dl ? hi_c : (neg ? lo_c : hi_c);
    default: return dl < dh ? lo_c : dh < dl ? hi_c : ((lo_c & 1) == 0 ? lo_c : hi_c);
  }
}

BOOST_AUTO_TEST_CASE(every_code_decodes_as_its_format_defines) {
  for (Narrow k : kNarrow)
    for (unsigned c = 0; c < ncodes(k); ++c) {
      const double got = double(numeric::decode(k, std::uint8_t(c))), want = reference_decode(k, c);
      BOOST_TEST_CONTEXT(numeric::format(k).name << " code " << c) {
        BOOST_TEST((std::isnan(got) ? std::isnan(want) : got == want));
      }
    }
  // The extremes the formats are known by.
  BOOST_TEST(double(float8_e4m3_t::FromRaw(0x7E)) == 448.0);
  BOOST_TEST(double(float8_e4m3_t::FromRaw(0x01)) == std::exp2(-9));
  BOOST_TEST(std::isnan(double(float8_e4m3_t::FromRaw(0xFF))));
  BOOST_TEST(double(float8_e5m2_t::FromRaw(0x7B)) == 57344.0);
  BOOST_TEST(std::isinf(double(float8_e5m2_t::FromRaw(0xFC))));
  BOOST_TEST(double(hifloat8_t::FromRaw(0x6E)) == 32768.0);
  BOOST_TEST(std::isinf(double(hifloat8_t::FromRaw(0x6F))));
  BOOST_TEST(std::isnan(double(hifloat8_t::FromRaw(0x80))));
  BOOST_TEST(double(hifloat8_t::FromRaw(0x08)) == 1.0);
  BOOST_TEST(double(hifloat8_t::FromRaw(0x01)) == std::exp2(-22));
  BOOST_TEST(double(hifloat8_t::FromRaw(0x7E)) == std::exp2(-15));
  BOOST_TEST(double(float8_e8m0_t::FromRaw(0x7F)) == 1.0);
  BOOST_TEST(double(float4_e2m1x2_t::FromRaw(0x7)) == 6.0);
  BOOST_TEST(double(float4_e1m2x2_t::FromRaw(0x7)) == 1.75);
  BOOST_TEST(int(std::int8_t(int4b_t(-8))) == -8);
  BOOST_TEST(int(std::int8_t(int4b_t(7))) == 7);
  BOOST_TEST(int(std::int8_t(int4b_t(9))) == -7);  // the low four bits
}

BOOST_AUTO_TEST_CASE(every_value_re_encodes_to_its_code_in_every_mode) {
  for (Narrow k : kNarrow)
    for (unsigned c = 0; c < ncodes(k); ++c) {
      const double v = reference_decode(k, c);
      if (std::isnan(v)) continue;
      for (RoundMode m : kModes)
        for (SaturationMode s : {SaturationMode::OFF, SaturationMode::ON}) {
          const unsigned want = std::isinf(v) && s == SaturationMode::ON ? brute_encode(k, v, m, s) : c;
          BOOST_TEST_CONTEXT(numeric::format(k).name << " code " << c << " mode " << int(m)) {
            BOOST_TEST(unsigned(numeric::encode(k, v, m, s)) == want);
          }
        }
    }
}

BOOST_AUTO_TEST_CASE(midpoints_quarters_and_overflow_round_as_the_nearest_value_search_says) {
  for (Narrow k : kNarrow) {
    const auto& f = numeric::format(k);
    std::vector<double> probes;
    for (int i = 0; i + 1 <= f.nmag; ++i) {
      const double lo = double(f.value[f.mag[i]]);
      const double hi = i + 1 < f.nmag ? double(f.value[f.mag[i + 1]]) : double(f.above_max) * 1.5;
      for (double t : {0.25, 0.5, 0.75}) probes.push_back(lo + (hi - lo) * t);
    }
    probes.push_back(double(f.above_max));
    probes.push_back(1e30);
    for (double x : probes)
      for (double sx : {x, -x}) {
        if (!f.has_sign && sx < 0) continue;
        for (RoundMode m : kModes)
          for (SaturationMode s : {SaturationMode::OFF, SaturationMode::ON}) {
            const RoundMode rm = m == RoundMode::CAST_NONE ? RoundMode::CAST_RINT : m;
            BOOST_TEST_CONTEXT(f.name << " x " << sx << " mode " << int(m) << " sat " << int(s)) {
              BOOST_TEST(unsigned(numeric::encode(k, sx, m, s)) == brute_encode(k, sx, rm, s));
            }
          }
      }
    // NaN and infinities.
    BOOST_TEST(int(numeric::encode(k, NAN, RoundMode::CAST_RINT, SaturationMode::ON)) == (f.nan_code >= 0 ? f.nan_code : 0));
  }
}

BOOST_AUTO_TEST_CASE(table_rounding_agrees_with_round_binary_on_the_ieee_style_formats) {
  struct F { Narrow k; int man, emin; };
  constexpr F fs[] = {{Narrow::E4M3, 3, -6}, {Narrow::E5M2, 2, -14}, {Narrow::E2M1, 1, 0}, {Narrow::E1M2, 2, 0}};
  std::mt19937_64 rng(7);
  for (const F& f : fs) {
    const auto& fmt = numeric::format(f.k);
    const double max = double(fmt.value[fmt.mag[fmt.nmag - 1]]);
    std::uniform_real_distribution<double> u(-std::log2(max) - 12, std::log2(max));
    for (int n = 0; n < 20000; ++n) {
      const double x = (rng() & 1 ? -1 : 1) * std::exp2(u(rng));
      for (RoundMode m : kModes) {
        const long double r = numeric::round_binary(x, f.man, f.emin, m);
        if (std::fabs(r) > max) continue;  // overflow: the previous case covers it
        BOOST_TEST_CONTEXT(fmt.name << " x " << x << " mode " << int(m)) {
          BOOST_TEST(double(numeric::decode(f.k, numeric::encode(f.k, x, m, SaturationMode::ON))) == double(r));
        }
      }
    }
  }
}
}  // namespace

// ---- TCVT through a kernel -----------------------------------------------------------------------------
namespace {
using Rng = std::mt19937_64;

// The exact value of element j of a row of type t (packed 4-bit types: nibble j % 2 of byte j / 2).
long double value_at(DType t, const std::uint8_t* row, int j) {
  auto rd = [&](auto zero) {
    decltype(zero) v;
    std::memcpy(&v, row + std::size_t(j) * sizeof(v), sizeof(v));
    return v;
  };
  switch (t) {
    case DType::F32: return rd(0.0f);
    case DType::F16: return float(rd(half{}));
    case DType::BF16: return float(rd(bfloat16_t{}));
    case DType::I8: return rd(std::int8_t{});
    case DType::U8: return rd(std::uint8_t{});
    case DType::I16: return rd(std::int16_t{});
    case DType::U16: return rd(std::uint16_t{});
    case DType::I32: return rd(std::int32_t{});
    case DType::U32: return rd(std::uint32_t{});
    case DType::I64: return rd(std::int64_t{});
    case DType::U64: return rd(std::uint64_t{});
    case DType::I4: {
      const unsigned n = (row[j / 2] >> (j % 2 ? 4 : 0)) & 0xF;
      return n >= 8 ? int(n) - 16 : int(n);
    }
    case DType::F4E2M1: case DType::F4E1M2:
      return reference_decode(narrow_of(t), (row[j / 2] >> (j % 2 ? 4 : 0)) & 0xF);
    default: return reference_decode(narrow_of(t), row[j]);
  }
}

// A random source value of type t, its bytes written at element j of a row.
void random_at(DType t, std::uint8_t* row, int j, Rng& rng) {
  std::uniform_int_distribution<int> pick(0, 9);
  const int kind = pick(rng);
  auto wr = [&](auto v) { std::memcpy(row + std::size_t(j) * sizeof(v), &v, sizeof(v)); };
  std::uniform_real_distribution<double> u(-1, 1);
  // Floats: mostly moderate values with fractions (ties included), some huge, some tiny, a few specials.
  auto fval = [&](double range) -> double {
    if (kind == 0) return std::ldexp(u(rng), 40);
    if (kind == 1) return u(rng) * 1e-6;
    if (kind == 2) return std::round(u(rng) * 64) + 0.5;
    if (kind == 3 && (rng() % 8) == 0) return (rng() & 1) ? NAN : (rng() & 2 ? INFINITY : -INFINITY);
    return u(rng) * range;
  };
  switch (t) {
    case DType::F32: wr(float(fval(70000))); return;
    case DType::F16: wr(half(float(fval(300)))); return;
    case DType::BF16: wr(bfloat16_t(float(fval(70000)))); return;
    case DType::I8: wr(std::int8_t(rng())); return;
    case DType::U8: wr(std::uint8_t(rng())); return;
    case DType::I16: wr(std::int16_t(rng())); return;
    case DType::I32: wr(std::int32_t(kind < 5 ? std::int32_t(rng()) : std::int32_t(rng() % (1 << 25)) - (1 << 24))); return;
    case DType::U32: wr(std::uint32_t(rng())); return;
    case DType::I64: wr(std::int64_t(kind < 5 ? std::int64_t(rng()) : std::int64_t(rng() % 100000) - 50000)); return;
    case DType::I4: case DType::F4E2M1: case DType::F4E1M2: {
      const unsigned shift = j % 2 ? 4 : 0;
      row[j / 2] = std::uint8_t((row[j / 2] & ~(0xFu << shift)) | ((rng() & 0xF) << shift));
      return;
    }
    default: row[j] = std::uint8_t(rng()); return;
  }
}

// The reference result of converting x to a float type: hardware directed conversions (F16C's and
// the x87's under fesetround), ties-away and round-to-odd from the toward-zero result and its
// neighbour away from zero.
long double toward_zero(DType t, long double x) {
  if (t == DType::F16) {
    const float f = float(x);  // exact: the sources to half fit in float (test data keeps int32 within 2^24)
#if defined(__F16C__)
    return float(std::bit_cast<half>(std::uint16_t(_mm_extract_epi16(_mm_cvtps_ph(_mm_set_ss(f), _MM_FROUND_TO_ZERO), 0))));
#else  // no directed-rounding hardware conversion here (aarch64): nearest, then one step toward zero if it went away
    half h = half(f);
    if (std::isfinite(f) && std::fabs(float(h)) > std::fabs(f))
      h = std::bit_cast<half>(std::uint16_t(std::bit_cast<std::uint16_t>(h) - 1));
    return float(h);
#endif
  }
  if (t == DType::BF16) {
    const std::uint32_t b = std::bit_cast<std::uint32_t>(float(x)) & 0xFFFF0000u;  // float(x) exact: bf16 comes from f32
    return std::bit_cast<float>(b);
  }
  std::fesetround(FE_TOWARDZERO);
  volatile long double vx = x;
  const float r = float(vx);
  std::fesetround(FE_TONEAREST);
  return r;
}
long double away_neighbour(DType t, long double tz) {  // the next value of t away from zero (inf past the largest)
  if (t == DType::F32) return std::nextafter(float(tz), std::signbit(tz) ? -INFINITY : INFINITY);
  if (t == DType::F16) {
    std::uint16_t b = std::bit_cast<std::uint16_t>(half(float(tz)));
    return float(std::bit_cast<half>(std::uint16_t(b + 1)));
  }
  const std::uint16_t b = bfloat16_t(float(tz)).bits;
  return float(bfloat16_t::from_bits(std::uint16_t(b + 1)));
}
long double float_ref(DType t, long double x, RoundMode m) {
  if (std::isnan(x) || std::isinf(x)) return x;
  const long double tz = toward_zero(t, x);
  if (tz == x) return x;
  const long double aw0 = away_neighbour(t, tz);
  // Past the largest finite value the grid continues at 2^(emax + 1); landing there is infinity.
  const long double top = std::ldexp(1.0L, t == DType::F16 ? 16 : 128);
  const long double aw = std::isinf(aw0) ? std::copysign(top, x) : aw0;
  const bool neg = x < 0;
  const long double dt = std::fabs(x - tz), da = std::fabs(aw - x);
  auto odd = [&](long double v) {
    if (t == DType::F32) return (std::bit_cast<std::uint32_t>(float(v)) & 1) != 0;
    if (t == DType::F16) return (std::bit_cast<std::uint16_t>(half(float(v))) & 1) != 0;
    return (bfloat16_t(float(v)).bits & 1) != 0;
  };
  long double r;
  switch (m) {
    case RoundMode::CAST_TRUNC: r = tz; break;
    case RoundMode::CAST_FLOOR: r = neg ? aw : tz; break;
    case RoundMode::CAST_CEIL: r = neg ? tz : aw; break;
    case RoundMode::CAST_ODD: r = odd(tz) || std::isinf(aw0) ? tz : aw; break;
    case RoundMode::CAST_ROUND: r = dt < da ? tz : aw; break;
    default: r = dt < da ? tz : da < dt ? aw : (odd(tz) ? aw : tz);
  }
  return r == aw && std::isinf(aw0) ? aw0 : r;
}
long double integral_ref(long double x, RoundMode m) {
  switch (m) {
    case RoundMode::CAST_ROUND: return std::round(x);
    case RoundMode::CAST_FLOOR: return std::floor(x);
    case RoundMode::CAST_CEIL: return std::ceil(x);
    case RoundMode::CAST_TRUNC: return std::trunc(x);
    default: return std::nearbyint(x);  // the default environment: nearest, ties to even
  }
}
// An integer result: NaN -> 0; ON clamps; OFF clamps a float source to int32 and wraps modulo 2^bits.
long double int_ref(long double x, int bits, bool is_signed, RoundMode m, SaturationMode s, bool float_src) {
  if (std::isnan(x)) return 0;
  long double r = integral_ref(x, m);
  const long double lo = is_signed ? -std::ldexp(1.0L, bits - 1) : 0, hi = is_signed ? std::ldexp(1.0L, bits - 1) - 1 : std::ldexp(1.0L, bits) - 1;
  if (s == SaturationMode::ON || bits >= 64) return std::clamp(r, lo, hi);
  if (float_src) r = std::clamp(r, -2147483648.0L, 2147483647.0L);
  const long double mod = std::ldexp(1.0L, bits);
  long double w = std::fmod(r, mod);
  if (w < 0) w += mod;
  if (is_signed && w > hi) w -= mod;
  return w;
}

struct Case { DType src, dst; };

// The bits TCVT must write for element (i, j): from the rules above, with the chip's resolution of the
// mode and saturation (the library's, checked by name in `the_chips_defaults_...`).
long double expected(const CvtPair& p, long double x, RoundMode m0, bool sat_given, SaturationMode s0) {
  const RoundMode m = cvt_effective_mode(p, m0);
  const SaturationMode s = cvt_effective_sat(p.src, p.dst, sat_given, s0);
  const DType d = p.dst;
  if (p.src == DType::F32 && d == DType::F32) return std::isfinite(x) ? integral_ref(x, m) : x;
  if (d == DType::F32 || d == DType::F16 || d == DType::BF16) {
    const long double r = float_ref(d, x, m);
    return r;  // overflow to infinity comes out of the neighbour search (inf past the largest)
  }
  if (is_narrow(d) && d != DType::I4) return reference_decode(narrow_of(d), brute_encode(narrow_of(d), double(x), m, s));
  const bool sgn = d == DType::I8 || d == DType::I16 || d == DType::I32 || d == DType::I64 || d == DType::I4;
  const int bits = d == DType::I4 ? 4 : int(size_of(d)) * 8;
  return int_ref(x, bits, sgn, m, s, is_float(p.src));
}
}  // namespace

namespace {
template <class T, int R, int C> using DynTile = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1>;
template <int R, int CB> using ByteTile = Tile<TileType::Vec, std::uint8_t, R, CB, BLayout::RowMajor>;
template <int R, int CB> using ByteGm = GlobalTensor<std::uint8_t, Shape<1, 1, 1, R, CB>, pto::Stride<1, 1, 1, CB, 1>>;

struct Call {
  RoundMode mode;
  bool sat_given;
  SaturationMode sat;
  bool tmp;
};

// TCVT of a [R, C] tile (valid vr x vc) on `target`; the tiles move as bytes (the 4-bit types too, as
// pto-isa's int4b_t kernels move them), the typed tiles alias them.
template <class D, class S, int R, int C>
std::vector<std::uint8_t> run_cvt(Target target, int vr, int vc, const std::vector<std::uint8_t>& src, Call c, bool cpu = false) {
  constexpr int SB = C * int(sizeof(S)), DB = C * int(sizeof(D));
  constexpr int kDst = (R * SB + 31) / 32 * 32, kTmp = kDst + (R * DB + 31) / 32 * 32;
  std::vector<std::uint8_t> out(static_cast<std::size_t>(R * DB), 0xA5), in = src;
  launch({.target = target, .check = SyncCheck::Throw, .cpu_reference = cpu}, [=](std::uint8_t* o, std::uint8_t* s) {
    ByteTile<R, SB> sb;
    ByteTile<R, DB> db;
    DynTile<S, R, C> st(vr, vc);
    DynTile<D, R, C> dt(vr, vc);
    Tile<TileType::Vec, std::int32_t, 64, 64> tmp;
    TASSIGN(sb, 0);
    TASSIGN(st, 0);
    TASSIGN(db, kDst);
    TASSIGN(dt, kDst);
    TASSIGN(tmp, kTmp);
    ByteGm<R, SB> gs(s);
    ByteGm<R, DB> gd(o);
    TLOAD(sb, gs);
    TLOAD(db, gd);
    pipe_barrier(PIPE_ALL);
    if (c.tmp && c.sat_given) TCVT(dt, st, tmp, c.mode, c.sat);
    else if (c.tmp) TCVT(dt, st, tmp, c.mode);
    else if (c.sat_given) TCVT(dt, st, c.mode, c.sat);
    else TCVT(dt, st, c.mode);
    pipe_barrier(PIPE_ALL);
    TSTORE(gd, db);
  }, out, in);
  return out;
}

bool same_value(long double got, long double want, bool signed_zero) {
  if (std::isnan(want)) return std::isnan(got);
  return got == want && (!signed_zero || std::signbit(got) == std::signbit(want));
}

template <class D, class S, int R, int C>
void check_pair(Target target, int vr, int vc, unsigned seed) {
  const DType sd = dtype_v<S>, dd = dtype_v<D>;
  const CvtPair* p = find_cvt(target, sd, dd);
  if (!p) return;
  constexpr int SB = C * int(sizeof(S)), DB = C * int(sizeof(D));
  Rng rng(seed);
  std::vector<std::uint8_t> src(static_cast<std::size_t>(R * SB), 0);
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) random_at(sd, src.data() + i * SB, j, rng);
  const bool float_dst = dd == DType::F32 || dd == DType::F16 || dd == DType::BF16;
  // The call forms: mode; mode, ON; mode, OFF; tmp, mode, ON; tmp, mode (the pair's default: OFF for
  // the narrowing pairs, A2A3's PyTorch-compatible paths); tmp, mode, OFF. Each through the target's
  // device path and through the CPU reference.
  for (bool cpu : {false, true})
  for (RoundMode m : kModes)
    for (int form = 0; form < 6; ++form) {
      const bool tmp = form >= 3;
      const Call call{m, form != 0 && form != 4, form == 2 || form == 5 ? SaturationMode::OFF : SaturationMode::ON, tmp};
      const std::vector<std::uint8_t> got = run_cvt<D, S, R, C>(target, vr, vc, src, call, cpu);
      std::size_t bad = 0, untouched = 0;
      for (int i = 0; i < R; ++i)
        for (int j = 0; j < C; ++j) {
          const std::uint8_t* grow = got.data() + i * DB;
          if (i >= vr || j >= vc) {  // outside the valid region: the bytes (nibbles) stay
            const bool nib = is_packed4(dd);
            const unsigned v = nib ? (grow[j / 2] >> (j % 2 ? 4 : 0)) & 0xF : grow[j * sizeof(D)];
            untouched += v != (nib ? ((0xA5u >> (j % 2 ? 4 : 0)) & 0xF) : 0xA5u);
            continue;
          }
          const long double x = value_at(sd, src.data() + i * SB, j);
          const long double want = expected(*p, x, m, call.sat_given, call.sat);
          const long double have = value_at(dd, grow, j);
          if (!same_value(have, want, float_dst) && bad++ < 3)
            BOOST_TEST_MESSAGE(name_of(target) << (cpu ? " CPU reference " : " ") << name_of(sd) << "->" << name_of(dd) << " mode " << int(m) << " form " << form
                                                << " (" << i << "," << j << ") x=" << double(x) << " want " << double(want) << " got "
                                                << double(have));
        }
      BOOST_TEST_CONTEXT(name_of(target) << (cpu ? " CPU reference " : " ") << name_of(sd) << " -> " << name_of(dd) << " mode " << int(m) << " form " << form) {
        BOOST_TEST(bad == 0u);
        BOOST_TEST(untouched == 0u);
      }
    }
}

template <class D, class S>
void check_pair_shapes(unsigned seed) {
  for (Target t : {Target::A2A3, Target::A5}) {
    check_pair<D, S, 4, 128>(t, 4, 65, seed);   // pto-isa tcvt: 4x128 valid 4x65
    check_pair<D, S, 2, 64>(t, 2, 64, seed + 1);  // 2x64 full
    check_pair<D, S, 1, 256>(t, 1, 129, seed + 2);  // 1x256 valid 1x129
  }
}
}  // namespace

#define PTO_CVT_PAIRS(X)                                                                                               \
  X(half, float) X(float, float) X(std::int64_t, float) X(std::int32_t, float) X(std::int16_t, float)                  \
  X(bfloat16_t, float) X(float8_e4m3_t, float) X(float8_e5m2_t, float) X(hifloat8_t, float)                            \
  X(float, half) X(std::int32_t, half) X(std::int16_t, half) X(std::int8_t, half) X(std::uint8_t, half) X(int4b_t, half) \
  X(hifloat8_t, half) X(float, bfloat16_t) X(std::int32_t, bfloat16_t) X(half, bfloat16_t) X(float4_e1m2x2_t, bfloat16_t) \
  X(float4_e2m1x2_t, bfloat16_t) X(half, std::int16_t) X(float, std::int16_t) X(std::uint32_t, std::int16_t)           \
  X(std::int32_t, std::int16_t) X(std::uint8_t, std::int16_t) X(float, std::int32_t) X(std::int16_t, std::int32_t)     \
  X(std::int64_t, std::int32_t) X(half, std::int32_t) X(std::uint16_t, std::int32_t) X(std::uint8_t, std::int32_t)     \
  X(float, std::int64_t) X(std::int32_t, std::int64_t) X(std::uint16_t, std::uint32_t) X(std::int16_t, std::uint32_t)  \
  X(std::uint8_t, std::uint32_t) X(half, std::uint8_t) X(std::uint16_t, std::uint8_t) X(half, std::int8_t)             \
  X(std::int16_t, std::int8_t) X(std::int32_t, std::int8_t) X(half, int4b_t) X(float, float8_e4m3_t)                  \
  X(float, float8_e5m2_t) X(float, hifloat8_t) X(bfloat16_t, float4_e1m2x2_t) X(bfloat16_t, float4_e2m1x2_t)

BOOST_AUTO_TEST_CASE(every_pair_every_mode_matches_the_reference) {
  unsigned seed = 100;
#define PTO_CHECK_PAIR(D, S) check_pair_shapes<D, S>(seed += 10);
  PTO_CVT_PAIRS(PTO_CHECK_PAIR)
#undef PTO_CHECK_PAIR
}

// The chips' resolution of modes and saturation (pto-isa a2a3/a5 TCvt.hpp), spelled out.
BOOST_AUTO_TEST_CASE(the_chips_defaults_for_modes_and_saturation) {
  auto mode = [](Target t, DType s, DType d, RoundMode m) { return cvt_effective_mode(*find_cvt(t, s, d), m); };
  BOOST_TEST(int(mode(Target::A2A3, DType::F32, DType::I32, RoundMode::CAST_NONE)) == int(RoundMode::CAST_TRUNC));
  BOOST_TEST(int(mode(Target::A2A3, DType::F32, DType::I32, RoundMode::CAST_ODD)) == int(RoundMode::CAST_TRUNC));
  BOOST_TEST(int(mode(Target::A2A3, DType::F32, DType::F16, RoundMode::CAST_NONE)) == int(RoundMode::CAST_RINT));
  BOOST_TEST(int(mode(Target::A2A3, DType::F32, DType::F16, RoundMode::CAST_ODD)) == int(RoundMode::CAST_ODD));
  BOOST_TEST(int(mode(Target::A2A3, DType::F32, DType::BF16, RoundMode::CAST_ODD)) == int(RoundMode::CAST_RINT));
  BOOST_TEST(int(mode(Target::A2A3, DType::F16, DType::I4, RoundMode::CAST_NONE)) == int(RoundMode::CAST_RINT));
  BOOST_TEST(int(mode(Target::A5, DType::F32, DType::HF8, RoundMode::CAST_TRUNC)) == int(RoundMode::CAST_ROUND));
  BOOST_TEST(int(mode(Target::A5, DType::F32, DType::F8E4M3, RoundMode::CAST_CEIL)) == int(RoundMode::CAST_RINT));
  BOOST_TEST(int(cvt_effective_sat(DType::F16, DType::I8, false, SaturationMode::ON)) == int(SaturationMode::OFF));
  BOOST_TEST(int(cvt_effective_sat(DType::F16, DType::I8, true, SaturationMode::ON)) == int(SaturationMode::ON));
  BOOST_TEST(int(cvt_effective_sat(DType::F32, DType::I32, true, SaturationMode::OFF)) == int(SaturationMode::ON));
  // What that means for values: 300.0 -> int8 wraps to 44 by default, saturates to 127 when asked.
  std::vector<std::uint8_t> src(2 * 64 * 2, 0);
  for (int j = 0; j < 128; ++j) {
    const half v = half(j % 2 ? -300.0f : 300.0f);
    std::memcpy(src.data() + 2 * j, &v, 2);
  }
  auto first = [&](Call c) {
    const auto out = run_cvt<std::int8_t, half, 2, 64>(Target::A2A3, 2, 64, src, c);
    return std::pair<int, int>(std::int8_t(out[0]), std::int8_t(out[1]));
  };
  BOOST_TEST((first({RoundMode::CAST_RINT, false, SaturationMode::ON, false}) == std::pair<int, int>(44, -44)));
  BOOST_TEST((first({RoundMode::CAST_RINT, true, SaturationMode::ON, false}) == std::pair<int, int>(127, -128)));
  BOOST_TEST((first({RoundMode::CAST_RINT, false, SaturationMode::ON, true}) == std::pair<int, int>(44, -44)));
}

BOOST_AUTO_TEST_CASE(errors_name_the_pair_the_target_and_the_rule) {
  std::vector<std::uint8_t> src(4 * 128 * 4, 0);
  std::string e = error_of([&] { run_cvt<float8_e4m3_t, float, 4, 128>(Target::A2A3, 4, 128, src, {RoundMode::CAST_RINT, false, SaturationMode::ON, false}); });
  BOOST_TEST(contains(e, "TCVT: operand src"));
  BOOST_TEST(contains(e, "A2A3 has no conversion from float to float8_e4m3 (supported on: A5"));
  e = error_of([&] { run_cvt<half, std::int32_t, 4, 128>(Target::A5, 4, 128, src, {RoundMode::CAST_RINT, false, SaturationMode::ON, false}); });
  BOOST_TEST(contains(e, "A5 has no conversion from int32 to half (supported on: A2A3"));
  e = error_of([&] { run_cvt<std::int8_t, float, 4, 128>(Target::A5, 4, 128, src, {RoundMode::CAST_RINT, false, SaturationMode::ON, false}); });
  BOOST_TEST(contains(e, "A5 has no conversion from float to int8 (no target supports it"));
  // A tmp smaller than the PyTorch-compatible path writes.
  e = error_of([&] {
    launch({.target = Target::A2A3}, [] {
      DynTile<float, 8, 256> s(8, 200);
      DynTile<std::int16_t, 8, 256> d(8, 200);
      Tile<TileType::Vec, std::int32_t, 1, 64> tmp;
      TASSIGN(s, 0);
      TASSIGN(d, 0x4000);
      TASSIGN(tmp, 0x8000);
      TCVT(d, s, tmp, RoundMode::CAST_RINT, SaturationMode::OFF);
    });
  });
  BOOST_TEST(contains(e, "TCVT: operand tmp"));
  BOOST_TEST(contains(e, "is too small: the A2A3 PyTorch-compatible float -> int16 path writes"));
  // Valid shapes that differ.
  e = error_of([&] {
    launch({.target = Target::A5}, [] {
      DynTile<float, 4, 64> s(4, 64);
      DynTile<half, 4, 64> d(4, 32);
      TASSIGN(s, 0);
      TASSIGN(d, 0x4000);
      TCVT(d, s, RoundMode::CAST_RINT);
    });
  });
  BOOST_TEST(contains(e, "TCVT: operand src"));
  BOOST_TEST(contains(e, "must have the same valid shape as operand dst"));
}

// Modeled vector-pipe cycles. pto-isa tests/costmodel/st/testcase/tcvt (hardware, 910B3): f32 -> f16
// and f16 -> f32 4x64 with dynamic valid shapes, 33 cycles each.
namespace {
template <class D, class S, int R, int C>
std::uint64_t cvt_cycles(Target target, int vr, int vc) {
  auto k = [=]() -> Kernel {
    DynTile<S, R, C> s(vr, vc);
    DynTile<D, R, C> d(vr, vc);
    TASSIGN(s, 0);
    TASSIGN(d, 0x8000);
    co_await TCVT(d, s, RoundMode::CAST_NONE);
  };
  return launch({.target = target, .model_only = true}, k).cores[0].pipes[PIPE_V].busy_cycles;
}
}  // namespace
BOOST_AUTO_TEST_CASE(modeled_cycles_follow_the_chips_stream) {
  const std::uint64_t narrow = cvt_cycles<half, float, 4, 64>(Target::A2A3, 4, 64), widen = cvt_cycles<float, half, 4, 64>(Target::A2A3, 4, 64);
  BOOST_TEST_MESSAGE("A2A3 TCVT 4x64 f32->f16 " << narrow << ", f16->f32 " << widen << " (chip 33 each)");
  BOOST_TEST(narrow == widen);  // one vconv call of 4 repeats either way
  BOOST_TEST((cvt_cycles<half, float, 4, 64>(Target::A5, 4, 64) > 0u));
}
