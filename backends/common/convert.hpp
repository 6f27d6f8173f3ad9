// TCVT's element conversion, shared by the CPU reference and the device paths so they agree bit for
// bit: a source element read exactly (every PTO element type fits long double's 64-bit significand),
// rounded once by the RoundMode to the destination's grid, then saturated or wrapped
// (docs/conversions.md states the rules and where the chips' documentation is silent).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include <pto/isa/dtype.hpp>
#include <pto/isa/enums.hpp>
#include <pto/backends/kernel_abi.hpp>
#include <pto/isa/low_precision.hpp>

namespace pto::convert {

// R: the type the value is carried in: long double (exact for every element type), or double when no
// operand is 64-bit (exact for those, and several times faster).

// Address of element (i, j) of a RowMajor tile (a packed 4-bit type: of the byte holding it; its row
// stride counts bytes).
inline std::byte* at(const TileView& t, int i, int j) {
  if (is_packed4(t.dtype)) return t.base + std::ptrdiff_t(i) * t.row_stride + j / 2;
  return t.base + t.elem_offset(i, j) * std::ptrdiff_t(t.elem_bytes());
}

// Element c of a row starting at `row` (a packed 4-bit type: nibble c % 2 of byte c / 2, low first).
template <class R = long double>
inline R load(DType t, const std::byte* row, int c) {
  if (is_packed4(t)) {
    const unsigned b = unsigned(row[c / 2]), nib = (c % 2) ? (b >> 4) & 0xF : b & 0xF;
    if (t == DType::I4) return (nib & 8) ? int(nib) - 16 : int(nib);
    return R(numeric::decode(narrow_of(t), std::uint8_t(nib)));
  }
  if (is_narrow(t)) return R(numeric::decode(narrow_of(t), std::uint8_t(row[c])));
  return visit_dtype(t, [&](auto zero) -> R {
    using T = decltype(zero);
    T v;
    std::memcpy(static_cast<void*>(&v), row + std::size_t(c) * sizeof(T), sizeof(T));
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) return float(v);
    else return static_cast<R>(v);
  });
}

// A binary float result: rounded to `man` mantissa bits above exponent emin; past max, IEEE overflow.
template <class R>
inline R to_float_grid(R x, int man, int emin, R max, RoundMode m) {
  if (!std::isfinite(x)) return x;
  const R r = numeric::round_binary(x, man, emin, m);
  return std::fabs(r) > max ? numeric::ieee_overflow(r, max, m) : r;
}

// An integer result of `bits` bits (signed or not): x rounded by m; NaN gives 0. SaturationMode::ON
// clamps to the destination's range; OFF keeps the low `bits` bits, two's complement (the chips'
// non-saturating narrowing), of an integer source's value or of a float source's clamped to the int32
// range (int64 for 64-bit destinations), as the A2A3 PyTorch-compatible paths convert through int32.
template <class R>
inline std::int64_t to_int_bits(R x, int bits, bool is_signed, RoundMode m, SaturationMode sat, bool float_src = true) {
  if (std::isnan(x)) return 0;
  const R r = numeric::round_integer(x, m);
  // The bounds from integers (ldexp per element is a libm call): exact in long double, and in double for
  // the destinations under 64 bits it is used with.
  const std::uint64_t top = std::uint64_t(1) << (bits - 1);
  const R lo = is_signed ? -R(top) : R(0);
  const R hi = is_signed ? R(top - 1) : R(top - 1 + top);
  if (sat == SaturationMode::ON) {
    const R c = r < lo ? lo : r > hi ? hi : r;
    return is_signed ? std::int64_t(c) : std::int64_t(std::uint64_t(c));
  }
  const bool wide = bits == 64 || !float_src;  // an integer source: its own value (at most 64 bits)
  const R wlo = wide ? -R(std::uint64_t(1) << 63) : -R(std::uint64_t(1) << 31);
  const R whi = wide ? R(~std::uint64_t(0)) : R((std::uint64_t(1) << 31) - 1);
  const R c = r < wlo ? wlo : r > whi ? whi : r;
  const std::uint64_t u = c < 0 ? std::uint64_t(std::int64_t(c)) : std::uint64_t(c);
  const std::uint64_t low = bits == 64 ? u : u & ((std::uint64_t(1) << bits) - 1);
  if (!is_signed || bits == 64) return std::int64_t(low);
  return (low >> (bits - 1)) & 1 ? std::int64_t(low) - (std::int64_t(1) << bits) : std::int64_t(low);
}

// Stores x (exact) into element c of a dst row, rounded by m and saturated by sat (float_src: x comes
// from a float type).
template <class R>
inline void store(DType t, std::byte* row, int c, R x, RoundMode m, SaturationMode sat, bool float_src = true) {
  auto put = [&](auto v) { std::memcpy(row + std::size_t(c) * sizeof(v), &v, sizeof(v)); };
  switch (t) {
    case DType::F32: put(float(to_float_grid<R>(x, 23, -126, std::numeric_limits<float>::max(), m))); return;
    case DType::F16: put(half(float(to_float_grid<R>(x, 10, -14, R(65504), m)))); return;
    case DType::BF16: put(bfloat16_t(float(to_float_grid<R>(x, 7, -126, std::ldexp(R(255), 120), m)))); return;
    case DType::I8: put(std::int8_t(to_int_bits(x, 8, true, m, sat, float_src))); return;
    case DType::U8: put(std::uint8_t(to_int_bits(x, 8, false, m, sat, float_src))); return;
    case DType::I16: put(std::int16_t(to_int_bits(x, 16, true, m, sat, float_src))); return;
    case DType::U16: put(std::uint16_t(to_int_bits(x, 16, false, m, sat, float_src))); return;
    case DType::I32: put(std::int32_t(to_int_bits(x, 32, true, m, sat, float_src))); return;
    case DType::U32: put(std::uint32_t(to_int_bits(x, 32, false, m, sat, float_src))); return;
    case DType::I64: put(std::int64_t(to_int_bits(x, 64, true, m, sat, float_src))); return;
    case DType::U64: put(std::uint64_t(to_int_bits(x, 64, false, m, sat, float_src))); return;
    default: break;
  }
  std::uint8_t code;
  if (t == DType::I4) code = std::uint8_t(to_int_bits(x, 4, true, m, sat, float_src) & 0xF);
  else code = numeric::encode(narrow_of(t), static_cast<long double>(x), m, sat);
  if (!is_packed4(t)) {
    row[c] = std::byte(code);
    return;
  }
  const unsigned shift = (c % 2) ? 4 : 0;
  row[c / 2] = std::byte((unsigned(row[c / 2]) & ~(0xFu << shift)) | (unsigned(code) << shift));
}

template <class From, class To>
inline void host_convert(const std::byte* srow, int sc, std::byte* drow, int dc) {
  From v;
  std::memcpy(static_cast<void*>(&v), srow + std::size_t(sc) * sizeof(From), sizeof(From));
  const To r = To(float(v));
  std::memcpy(drow + std::size_t(dc) * sizeof(To), static_cast<const void*>(&r), sizeof(To));
}

// One TCVT element: element sc of a source row into element dc of a destination row. f32 -> f32 rounds
// to an integral value, as the chips' vconv_f322f32* do.
template <class R>
inline void element(DType sd, const std::byte* srow, int sc, DType dd, std::byte* drow, int dc, RoundMode m, SaturationMode sat) {
  // Widening to f32 is exact, and f32 -> f16 / bf16 rounded to nearest even is the host's own IEEE
  // conversion (F16C, or half / bfloat16_t's constructors): the same bits as the exact path below,
  // NaN and infinities included, without its libm calls (TCVT f32 -> f16 took 141 us per 64 x 64 tile
  // that way). test_convert checks both against hardware conversions.
  if (dd == DType::F32 && sd == DType::F16) return host_convert<half, float>(srow, sc, drow, dc);
  if (dd == DType::F32 && sd == DType::BF16) return host_convert<bfloat16_t, float>(srow, sc, drow, dc);
  if (sd == DType::F32 && m == RoundMode::CAST_RINT) {
    if (dd == DType::F16) return host_convert<float, half>(srow, sc, drow, dc);
    if (dd == DType::BF16) return host_convert<float, bfloat16_t>(srow, sc, drow, dc);
  }
  R x = load<R>(sd, srow, sc);
  if (sd == DType::F32 && dd == DType::F32 && std::isfinite(x)) x = numeric::round_integer(x, m);
  store<R>(dd, drow, dc, x, m, sat, is_float(sd) || (is_narrow(sd) && sd != DType::I4));
}

}  // namespace pto::convert
