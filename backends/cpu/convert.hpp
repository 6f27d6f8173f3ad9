// TCVT(dst, src[, tmp], mode[, satMode]): dst = convert(src) over dst's valid region, rounded by the
// RoundMode and saturated by the SaturationMode the public function resolved for the chip
// (pto/isa/conversions.hpp; the element rule is backends/common/convert.hpp). f32 -> f32 rounds to an
// integral value, as the chips' vconv_f322f32* / vtrc do. The pairs every kernel uses most have loops
// of their own (the F16C and native conversions agree with the element rule; test_convert checks).
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include <pto/isa/kernel_abi.hpp>
#include "../common/convert.hpp"
#include "elementwise.hpp"

namespace pto::cpu::cvt {

using convert::at;

// A dedicated loop for the common pairs, when it computes what the element rule does; false otherwise.
inline bool fast_rows(const TileView& d, const TileView& s, RoundMode m, int r0, int r1, int c0, int c1) {
  const DType sd = s.dtype, dd = d.dtype;
  const int n = c1 - c0;
  if (!d.row_major || !s.row_major) return false;
  auto rows = [&](auto row_fn) {
    for (int i = r0; i < r1; ++i) row_fn(at(d, i, c0), at(s, i, c0));
  };
  if (sd == DType::F32 && dd == DType::F16 && m == RoundMode::CAST_RINT) {
    rows([&](std::byte* o, std::byte* x) { lanes::from_float(reinterpret_cast<const float*>(x), reinterpret_cast<_Float16*>(o), n); });
  } else if (sd == DType::F16 && dd == DType::F32) {
    rows([&](std::byte* o, std::byte* x) { lanes::to_float(reinterpret_cast<const _Float16*>(x), reinterpret_cast<float*>(o), n); });
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
  } else if (sd == DType::F32 && dd == DType::I32 && m == RoundMode::CAST_TRUNC) {
    rows([&](std::byte* o, std::byte* x) {
      const auto* a = reinterpret_cast<const float*>(x);
      auto* b = reinterpret_cast<std::int32_t*>(o);
      for (int j = 0; j < n; ++j) {  // NaN -> 0, saturating
        const float v = a[j];
        b[j] = v != v ? 0 : v >= 2147483648.0f ? std::numeric_limits<std::int32_t>::max()
               : v <= -2147483648.0f           ? std::numeric_limits<std::int32_t>::min()
                                               : std::int32_t(v);
      }
    });
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
    if (!round_only && fast_rows(d, s, m, r0, r1, c0, c1)) return;
    if (wide) rows(0.0L, r0, r1, c0, c1);
    else rows(0.0, r0, r1, c0, c1);
  };
  if (pd) block(0, d.valid_rows, 0, d.valid_cols);  // two elements share a byte: one thread writes a row
  else for_each_block(d.valid_rows, d.valid_cols, block);
}

inline constexpr BackendKernel kConvert{nullptr, convert_kernel};

}  // namespace pto::cpu::cvt
