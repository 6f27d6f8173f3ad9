// TCI(dst, start[, tmp]) with `descending`: dst[0][j] = start + j (descending: start - j) for j below
// dst's valid columns, in the element type's arithmetic (integers wrap; 16-bit and 32-bit floats, A2A3
// only, round once from the exact value). A2A3's tmp form builds start + j with vector adds and then
// multiplies by -1 for the descending order (pto-isa a2a3 TCI.hpp), so there descending gives
// -(start + j): that is what the chip computes, reproduced here (docs/sort-gather.md).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <pto/isa/bfloat16.hpp>
#include <pto/isa/dtype.hpp>
#include <pto/isa/kernel_abi.hpp>

namespace pto::cpu::generate {

template <class T>
void tci(const TileView& d, ScalarValue start, bool descending, bool negate) {
  T* row = d.ptr<T>(0, 0);
  const T s = start.as<T>();
  for (int j = 0; j < d.valid_cols; ++j) {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      U v = U(s);
      v = descending && !negate ? U(v - U(j)) : U(v + U(j));
      if (descending && negate) v = U(U(0) - v);
      row[j] = T(v);
    } else {
      const double v = descending ? double(float(s)) - j : double(float(s)) + j;
      row[j] = T(float(v));  // exact for |v| < 2^24, then one rounding to T
    }
  }
}

inline void tci_kernel(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const bool desc = ctx.variant & kVariantDescending, neg = (ctx.variant & kVariantTciTmp) && ctx.target == Target::A2A3;
  switch (d.dtype) {
    case DType::I16: return tci<std::int16_t>(d, ctx.scalar, desc, neg);
    case DType::U16: return tci<std::uint16_t>(d, ctx.scalar, desc, neg);
    case DType::I32: return tci<std::int32_t>(d, ctx.scalar, desc, neg);
    case DType::U32: return tci<std::uint32_t>(d, ctx.scalar, desc, neg);
    case DType::F32: return tci<float>(d, ctx.scalar, desc, neg);
    case DType::F16: return tci<_Float16>(d, ctx.scalar, desc, neg);
    case DType::BF16: return tci<bfloat16_t>(d, ctx.scalar, desc, neg);
    default: break;
  }
}

// TTRI: 1 inside the triangle (lower: j <= i + diagonal; upper: j >= i + diagonal), 0 outside, over dst's
// valid region.
inline void ttri_kernel(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const bool upper = ctx.variant & kVariantUpper;
  const std::int64_t diag = ctx.scalar.as<std::int32_t>();
  visit_dtype(d.dtype, [&](auto zero) {
    using T = decltype(zero);
    for (int i = 0; i < d.valid_rows; ++i) {
      T* row = d.ptr<T>(i, 0);
      for (int j = 0; j < d.valid_cols; ++j) row[j] = (upper ? j >= i + diag : j <= i + diag) ? T(1.0f) : T(0.0f);
    }
  });
}

inline constexpr BackendKernel kTci{nullptr, tci_kernel};
inline constexpr BackendKernel kTri{nullptr, ttri_kernel};

}  // namespace pto::cpu::generate
