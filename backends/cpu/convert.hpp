// TCVT(dst, src[, tmp], mode[, satMode]): dst = convert(src) over dst's valid region, rounded by the
// RoundMode and saturated by the SaturationMode the public function resolved for the chip
// (pto/isa/conversions.hpp; the element rule is backends/common/convert.hpp). f32 -> f32 rounds to an
// integral value, as the chips' vconv_f322f32* / vtrc do. The pairs every kernel uses most have loops
// of their own (the F16C and native conversions agree with the element rule; test_convert checks).
#pragma once
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include <pto/backends/kernel_abi.hpp>
#include "../common/convert.hpp"
#include "elementwise.hpp"

namespace pto::cpu::cvt {

using convert::at;

// Float (f32, f16, bf16) -> integer of at most 32 bits, the element rule in float arithmetic (the
// source and every rounding of it to an integer are exact in float): M rounds; NaN gives 0; On
// saturates to D's range, else the value saturated to int32 keeps its low bits. One loop per (source,
// destination, mode, saturation), so each vectorises on its own.
template <RoundMode M>
inline float round_as(float v) {
  if constexpr (M == RoundMode::CAST_FLOOR) return std::floor(v);
  else if constexpr (M == RoundMode::CAST_CEIL) return std::ceil(v);
  else if constexpr (M == RoundMode::CAST_TRUNC) return std::trunc(v);
  else if constexpr (M == RoundMode::CAST_ROUND) {  // ties away from zero
    const float t = std::trunc(v);
    return std::fabs(v - t) >= 0.5f ? t + std::copysign(1.0f, v) : t;
  } else {
    return std::nearbyint(v);  // ties to even (the default environment)
  }
}
template <class D, RoundMode M, bool On>
inline D float_to_int(float v) {
  const float r = round_as<M>(v);
  if (r != r) return D(0);
  if constexpr (On && sizeof(D) == 4 && std::is_unsigned_v<D>) {
    return r <= 0.0f ? D(0) : r >= 4294967296.0f ? std::numeric_limits<D>::max() : D(std::int64_t(r));
  } else if constexpr (On && sizeof(D) < 4) {
    return D(std::int32_t(std::min(std::max(r, float(std::numeric_limits<D>::min())), float(std::numeric_limits<D>::max()))));
  } else {  // int32's range (2^31 is not a float below it), then D's low bits
    const std::int32_t i = r >= 2147483648.0f ? std::numeric_limits<std::int32_t>::max()
                           : r < -2147483648.0f ? std::numeric_limits<std::int32_t>::min()
                                                : std::int32_t(r);
    return D(i);
  }
}
template <class S, class D, RoundMode M, bool On>
void float_to_int_row(std::byte* o, const std::byte* x, int n) {
  auto* d = reinterpret_cast<D*>(o);
  if constexpr (std::is_same_v<S, float>) {
    const auto* a = reinterpret_cast<const float*>(x);
    for (int j = 0; j < n; ++j) d[j] = float_to_int<D, M, On>(a[j]);
  } else {  // widened in chunks through F16C (half) or by shifts (bf16)
    float buf[256];
    for (int j0 = 0; j0 < n; j0 += 256) {
      const int k = std::min(256, n - j0);
      lanes::to_float(reinterpret_cast<const S*>(x) + j0, buf, k);
      for (int j = 0; j < k; ++j) d[j0 + j] = float_to_int<D, M, On>(buf[j]);
    }
  }
}

// Integer -> integer: saturated into D (On) or its low bits.
template <class S, class D, bool On>
void int_to_int_row(std::byte* o, const std::byte* x, int n) {
  auto* d = reinterpret_cast<D*>(o);
  const auto* a = reinterpret_cast<const S*>(x);
  constexpr std::uint64_t umax = std::uint64_t(std::numeric_limits<D>::max());
  for (int j = 0; j < n; ++j) {
    if constexpr (!On) {
      d[j] = D(std::uint64_t(std::int64_t(a[j])));
    } else if constexpr (std::is_unsigned_v<S>) {
      const std::uint64_t v = a[j];
      d[j] = v > umax ? std::numeric_limits<D>::max() : D(v);
    } else {
      constexpr std::int64_t lo = std::is_unsigned_v<D> ? 0 : std::int64_t(std::numeric_limits<D>::min());
      constexpr std::int64_t hi = umax > std::uint64_t(std::numeric_limits<std::int64_t>::max()) ? std::numeric_limits<std::int64_t>::max()
                                                                                             : std::int64_t(umax);
      const std::int64_t v = a[j];
      d[j] = D(v < lo ? lo : v > hi ? hi : v);
    }
  }
}

constexpr bool is_int(DType t) { return !is_float(t) && !is_narrow(t); }

// f(T{}) for an integer DType; false for the others.
template <class F>
bool visit_int(DType t, F f) {
  switch (t) {
    case DType::I8: f(std::int8_t{}); return true;
    case DType::U8: f(std::uint8_t{}); return true;
    case DType::I16: f(std::int16_t{}); return true;
    case DType::U16: f(std::uint16_t{}); return true;
    case DType::I32: f(std::int32_t{}); return true;
    case DType::U32: f(std::uint32_t{}); return true;
    case DType::I64: f(std::int64_t{}); return true;
    case DType::U64: f(std::uint64_t{}); return true;
    default: return false;
  }
}

using RowFn = void (*)(std::byte*, const std::byte*, int);

// The float -> integer row loop for (sd, dd, m, sat), or nullptr (CAST_ODD, 64-bit destinations).
inline RowFn float_to_int_fn(DType sd, DType dd, RoundMode m, SaturationMode sat) {
  if (!(sd == DType::F32 || sd == DType::F16 || sd == DType::BF16) || !is_int(dd) || size_of(dd) > 4) return nullptr;
  RowFn fn = nullptr;
  auto pick = [&](auto si, auto di) {
    using S = decltype(si);
    using D = decltype(di);
    auto with = [&]<RoundMode M>() {
      fn = sat == SaturationMode::ON ? float_to_int_row<S, D, M, true> : float_to_int_row<S, D, M, false>;
    };
    switch (m) {
      case RoundMode::CAST_RINT: with.template operator()<RoundMode::CAST_RINT>(); break;
      case RoundMode::CAST_ROUND: with.template operator()<RoundMode::CAST_ROUND>(); break;
      case RoundMode::CAST_FLOOR: with.template operator()<RoundMode::CAST_FLOOR>(); break;
      case RoundMode::CAST_CEIL: with.template operator()<RoundMode::CAST_CEIL>(); break;
      case RoundMode::CAST_TRUNC: with.template operator()<RoundMode::CAST_TRUNC>(); break;
      default: break;
    }
  };
  visit_int(dd, [&](auto di) {
    if (sd == DType::F32) pick(float{}, di);
    else if (sd == DType::F16) pick(half{}, di);
    else pick(bfloat16_t{}, di);
  });
  return fn;
}
// The integer -> integer row loop for (sd, dd, sat), or nullptr.
inline RowFn int_to_int_fn(DType sd, DType dd, SaturationMode sat) {
  RowFn fn = nullptr;
  visit_int(dd, [&](auto di) {
    visit_int(sd, [&](auto si) {
      using S = decltype(si);
      using D = decltype(di);
      fn = sat == SaturationMode::ON ? int_to_int_row<S, D, true> : int_to_int_row<S, D, false>;
    });
  });
  return fn;
}

// A dedicated loop for the common pairs, when it computes what the element rule does; false otherwise.
inline bool fast_rows(const TileView& d, const TileView& s, RoundMode m, SaturationMode sat, int r0, int r1, int c0, int c1) {
  const DType sd = s.dtype, dd = d.dtype;
  const int n = c1 - c0;
  if (!d.row_major || !s.row_major) return false;
  auto rows = [&](auto row_fn) {
    for (int i = r0; i < r1; ++i) row_fn(at(d, i, c0), at(s, i, c0));
  };
  if (sd == DType::F32 && dd == DType::F16 && m == RoundMode::CAST_RINT) {
    rows([&](std::byte* o, std::byte* x) { lanes::from_float(reinterpret_cast<const float*>(x), reinterpret_cast<half*>(o), n); });
  } else if (sd == DType::F16 && dd == DType::F32) {
    rows([&](std::byte* o, std::byte* x) { lanes::to_float(reinterpret_cast<const half*>(x), reinterpret_cast<float*>(o), n); });
  } else if (sd == DType::F32 && dd == DType::BF16 && m == RoundMode::CAST_RINT) {
    rows([&](std::byte* o, std::byte* x) { lanes::from_float(reinterpret_cast<const float*>(x), reinterpret_cast<bfloat16_t*>(o), n); });
  } else if (sd == DType::BF16 && dd == DType::F32) {
    rows([&](std::byte* o, std::byte* x) { lanes::to_float(reinterpret_cast<const bfloat16_t*>(x), reinterpret_cast<float*>(o), n); });
  } else if (sd == DType::I32 && dd == DType::F32 && m == RoundMode::CAST_RINT) {
    rows([&](std::byte* o, std::byte* x) {
      const auto* a = reinterpret_cast<const std::int32_t*>(x);
      auto* b = reinterpret_cast<float*>(o);
      for (int j = 0; j < n; ++j) b[j] = float(a[j]);  // the default (nearest, ties to even) environment
    });
  } else if (const RowFn fn = float_to_int_fn(sd, dd, m, sat); fn) {
    rows([&](std::byte* o, std::byte* x) { fn(o, x, n); });
  } else if (const RowFn f2 = int_to_int_fn(sd, dd, sat); f2) {
    rows([&](std::byte* o, std::byte* x) { f2(o, x, n); });
  } else {
    return false;
  }
  return true;
}

inline void convert_kernel(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  std::vector<std::byte> copy;
  const TileView s = stable_source(ctx.ops[1].tile, d, copy);
  const RoundMode m = cvt_mode_of(ctx.variant);
  const SaturationMode sat = cvt_sat_of(ctx.variant);
  const bool round_only = s.dtype == DType::F32 && d.dtype == DType::F32;  // vconv_f322f32*: to an integral value
  const bool ps = is_packed4(s.dtype), pd = is_packed4(d.dtype);
  auto rows = [&](auto real, int r0, int r1, int c0, int c1) {
    using R = decltype(real);
    for (int i = r0; i < r1; ++i)
      for (int j = c0; j < c1; ++j)  // a packed type by its row and the element's index in it
        convert::element<R>(s.dtype, ps ? at(s, i, 0) : at(s, i, j), ps ? j : 0, d.dtype, pd ? at(d, i, 0) : at(d, i, j), pd ? j : 0, m, sat);
  };
  const bool wide = s.elem_bytes() == 8 || d.elem_bytes() == 8;  // 64-bit values need long double
  auto block = [&](int r0, int r1, int c0, int c1) {
    if (!round_only && fast_rows(d, s, m, sat, r0, r1, c0, c1)) return;
    if (wide) rows(0.0L, r0, r1, c0, c1);
    else rows(0.0, r0, r1, c0, c1);
  };
  if (pd) block(0, d.valid_rows, 0, d.valid_cols);  // two elements share a byte: one thread writes a row
  else for_each_block(d.valid_rows, d.valid_cols, block);
}

inline constexpr BackendKernel kConvert{nullptr, convert_kernel};

}  // namespace pto::cpu::cvt
