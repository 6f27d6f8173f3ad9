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
#include <pto/backends/kernel_abi.hpp>

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
    case DType::F16: return tci<half>(d, ctx.scalar, desc, neg);
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
// TRANDOM: one Philox-4x32 block (Salmon et al., SC'11): per round the two products of words 0 and 2
// with their multipliers, mixed with words 1 and 3 and the key, then the key bumped by the Weyl constants.
struct Philox {
  std::uint32_t w[4];
};
inline Philox philox4x32(Philox c, std::uint32_t k0, std::uint32_t k1, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    const std::uint64_t p0 = std::uint64_t(0xD2511F53u) * c.w[0], p1 = std::uint64_t(0xCD9E8D57u) * c.w[2];
    c = {{std::uint32_t(p1 >> 32) ^ c.w[1] ^ k0, std::uint32_t(p1), std::uint32_t(p0 >> 32) ^ c.w[3] ^ k1, std::uint32_t(p0)}};
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}
// The 128-bit counter plus n (the chip's vaddc / vaddcs chain).
inline Philox add128(Philox c, std::uint64_t n) {
  std::uint64_t carry = n;
  for (auto& w : c.w) {
    const std::uint64_t s = std::uint64_t(w) + (carry & 0xffffffffu);
    w = std::uint32_t(s);
    carry = (carry >> 32) + (s >> 32);
  }
  return c;
}
// The chip's arrangement (runtime/generate.hpp): 64 lanes of four words per 256-element chunk, element
// k of a chunk word k % 4 of lane k / 4; the counter advances 64 per chunk and, at a row's end, by the
// last chunk's columns modulo 64 (1..64).
inline void trandom(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const int rounds = ctx.variant & kVariantRounds7 ? 7 : 10;
  const auto k0 = std::uint32_t(ctx.scalar.bits), k1 = std::uint32_t(ctx.scalar.bits >> 32);
  Philox c{{std::uint32_t(ctx.scalar.wide[0]), std::uint32_t(ctx.scalar.wide[0] >> 32), std::uint32_t(ctx.scalar.wide[1]),
            std::uint32_t(ctx.scalar.wide[1] >> 32)}};
  const int C = d.valid_cols;
  if (C <= 0) return;
  const int chunks = (C + 255) / 256;
  const std::uint64_t row_step = 64 * std::uint64_t(chunks - 1) + std::uint64_t((C - 1) % 64 + 1);
  for (int i = 0; i < d.valid_rows; ++i, c = add128(c, row_step)) {
    std::uint32_t* row = d.ptr<std::uint32_t>(i, 0);
    for (int k = 0; k < C; k += 4) {
      const Philox out = philox4x32(add128(c, std::uint64_t(k) / 4), k0, k1, rounds);
      for (int w = 0; w < 4 && k + w < C; ++w) row[k + w] = out.w[w];
    }
  }
}

inline constexpr BackendKernel kRandom{nullptr, trandom};

inline constexpr BackendKernel kTri{nullptr, ttri_kernel};

}  // namespace pto::cpu::generate
