// TQUANT (INT8) and TDEQUANT on the CPU (runtime/quant.hpp has the rules). The arithmetic is the chips': a float multiply (and add),
// one rounding to an integer at float precision, saturation; A2A3 also leaves its intermediates in src
// and tmp, as its in-place chain does.
#pragma once
#include <algorithm>
#include <bit>
#include <limits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <pto/isa/bfloat16.hpp>
#include <pto/backends/kernel_abi.hpp>
#include <pto/isa/low_precision.hpp>


namespace pto::cpu::quant {

inline float load_f32(const TileView& t, int r, int c) {
  float v;
  std::memcpy(&v, t.base + t.elem_offset(r, c) * 4, 4);
  return v;
}
inline void store_f32(const TileView& t, int r, int c, float v) { std::memcpy(t.base + t.elem_offset(r, c) * 4, &v, 4); }

// float -> int32 as the chips' saturating round-to-nearest-even conversion: NaN gives 0.
inline std::int32_t to_s32_rint(float v) {
  if (std::isnan(v)) return 0;
  if (v >= 2147483648.0f) return INT32_MAX;
  if (v < -2147483648.0f) return INT32_MIN;
  return std::int32_t(std::nearbyint(v));
}

// TQUANT<INT8_SYM | INT8_ASYM>: ops dst, src, scale[, offset][, tmp].
inline void tquant_int8(ExecContext& ctx) {
  const bool asym = ctx.op == Op::TQUANT_ASYM;
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile, &sc = ctx.ops[2].tile;
  const TileView* off = asym ? &ctx.ops[3].tile : nullptr;
  const int R = d.valid_rows, C = d.valid_cols;
  const int lo = asym ? 0 : -128, hi = asym ? 255 : 127;
  const bool a2a3 = ctx.target == Target::A2A3;
  std::vector<std::int32_t> q(std::size_t(R) * std::size_t(C));
  for (int r = 0; r < R; ++r) {
    const float k = load_f32(sc, r, 0), o = asym ? load_f32(*off, r, 0) : 0.0f;
    for (int c = 0; c < C; ++c) {
      float v = load_f32(s, r, c) * k;
      if (asym) v = v + o;
      if (a2a3) store_f32(s, r, c, v);  // TROWEXPANDMUL / TROWEXPANDADD write src in place
      q[std::size_t(r) * std::size_t(C) + std::size_t(c)] = to_s32_rint(v);
    }
  }
  if (a2a3) {
    // tmp (the last operand) gets the int32s at src's row stride; then the fp16 of each lands in src's
    // bytes at row stride ceil(Cols / 16) * 16 (the half tile the chip lays over src).
    const TileView& t = ctx.ops[ctx.nops - 1].tile;
    const std::size_t pad = (std::size_t(s.cols) + 15) / 16 * 16;
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < C; ++c) {
        const std::int32_t i = q[std::size_t(r) * std::size_t(C) + std::size_t(c)];
        std::memcpy(t.base + (std::size_t(r) * std::size_t(s.cols) + std::size_t(c)) * 4, &i, 4);
      }
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < C; ++c) {
        // |i| <= 2^31 rounds to fp16 by nearest-even; past 65504 it is infinity (vconv_deq overflows)
        const half h = half(float(q[std::size_t(r) * std::size_t(C) + std::size_t(c)]));
        std::memcpy(s.base + (std::size_t(r) * pad + std::size_t(c)) * 2, &h, 2);
      }
  }
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      // the fp16 step is exact inside int8's range and saturates outside it on both chips
      const std::int32_t i = std::clamp(q[std::size_t(r) * std::size_t(C) + std::size_t(c)], lo, hi);
      const std::uint8_t b = std::uint8_t(i & 0xff);
      std::memcpy(d.base + d.elem_offset(r, c), &b, 1);
    }
}

// TDEQUANT: ops dst, src, scale, offset.
inline void tdequant(ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile, &sc = ctx.ops[2].tile, &of = ctx.ops[3].tile;
  const bool b8 = s.elem_bytes() == 1;
  const std::size_t C = std::size_t(d.valid_cols);
  std::vector<float> out(std::size_t(d.valid_rows) * C);  // every element read first: dst may share bytes with src
  for (int r = 0; r < d.valid_rows; ++r) {
    const float k = load_f32(sc, r, 0), o = load_f32(of, r, 0);
    for (int c = 0; c < d.valid_cols; ++c) {
      float x;
      if (b8) {
        std::int8_t v;
        std::memcpy(&v, s.base + s.elem_offset(r, c), 1);
        x = float(v);
      } else {
        std::int16_t v;
        std::memcpy(&v, s.base + s.elem_offset(r, c) * 2, 2);
        x = float(v);
      }
      const float t = x - o;  // A2A3 adds -offset: the same IEEE result
      out[std::size_t(r) * C + std::size_t(c)] = t * k;
    }
  }
  for (int r = 0; r < d.valid_rows; ++r)
    for (int c = 0; c < d.valid_cols; ++c) store_f32(d, r, c, out[std::size_t(r) * C + std::size_t(c)]);
}

// ---- TQUANT, MX forms (A5; runtime/quant.hpp has the rules, docs/quant.md the chip's steps) ----------
namespace mx {
inline std::uint32_t f32_bits(float f) { return std::bit_cast<std::uint32_t>(f); }
inline float bf16_value(std::uint16_t b) { return std::bit_cast<float>(std::uint32_t(b) << 16); }
inline float f16_value(std::uint16_t b) { return float(std::bit_cast<half>(b)); }
// A bf16 multiply's result: the exact product rounded once to bf16 (ties to even, subnormals kept).
inline float bf16_round(double v) {
  if (std::isnan(v) || std::isinf(v)) return float(v);
  if (std::fabs(v) < 0x1p-126) return float(std::nearbyint(v * 0x1p133) * 0x1p-133);
  return float(bfloat16_t(float(v)));  // a bf16 times a power of two: exact in float, then one rounding
}
// The group maximum's bits as the chip keeps them: fp32 a float; bf16 its 16 bits; fp16 with OCP its
// bf16 truncation (infinity and NaN kept), fp16 with NV its own 16 bits.
struct GroupMax {
  std::uint32_t bits;  // float bits (fp32) or 16 bits
  float value;         // the maximum as a number (NV scales it)
};
// Folds a group's elements into its maximum magnitude: fp32 compares floats (a NaN wins), 16-bit
// sources compare magnitude bits (so NaN beats infinity).
class MaxFold {
public:
  MaxFold(DType t, bool nv) : b16_(t != DType::F32), f16_(t == DType::F16), nv_(nv) {}
  void add_f32(float v) {
    v = std::fabs(v);
    nan_ = nan_ || std::isnan(v);
    a_ = std::max(a_, v);
  }
  void add_bits16(std::uint16_t b) {
    if (f16_ && !nv_) {  // fp16 -> bf16 by truncation, infinity and NaN kept
      const float v = f16_value(b);
      b = std::isnan(v) ? std::uint16_t(0x7FC0) : std::uint16_t(f32_bits(v) >> 16);
    }
    bits_ = std::max<std::uint16_t>(bits_, b & 0x7FFF);
  }
  GroupMax result() const {
    if (!b16_) {
      const float v = nan_ ? std::numeric_limits<float>::quiet_NaN() : a_;
      return {f32_bits(v), v};
    }
    return {bits_, (f16_ && nv_) ? f16_value(bits_) : bf16_value(bits_)};
  }

private:
  bool b16_, f16_, nv_, nan_ = false;
  float a_ = 0.0f;
  std::uint16_t bits_ = 0;
};
// A group's shared exponent X (an E8M0 code) and its scaling 2^(127 - X), as fp32 bits (a float
// source) or bf16 bits (both 16-bit sources).
struct SharedScale {
  std::uint8_t X;
  std::uint32_t bits32;
  std::uint16_t bits16;
  float value;  // the scaling as the chip reads it back
};
inline SharedScale shared_scale(const GroupMax& m, bool b16, bool fp4, bool nv) {
  const unsigned emax = fp4 ? 2 : 8;
  unsigned X;
  bool nan = false, top = false;
  if (!nv) {
    const unsigned E = b16 ? (m.bits >> 7) & 0xFF : (m.bits >> 23) & 0xFF;
    const unsigned M = b16 ? m.bits & 0x7F : m.bits & 0x7FFFFF;
    nan = E == 0xFF && M != 0;
    X = nan ? 0xFF : E <= emax ? 0 : E - emax;
  } else {
    const float y = m.value * (fp4 ? 1.0f / 6.0f : 1.0f / 448.0f);
    const std::uint32_t yb = f32_bits(y), Ey = (yb >> 23) & 0xFF, My = yb & 0x7FFFFF;
    nan = std::isnan(y);
    top = std::isinf(y);
    X = nan ? 0xFF : top ? 0xFE : Ey + ((My != 0 && Ey > 0 && Ey < 0xFE) || (Ey == 0 && My > 0x400000) ? 1 : 0);
  }
  SharedScale s;
  s.X = std::uint8_t(X);
  s.bits32 = nan ? 0x7FC00000u : top ? 0x00400000u : (0xFEu - X) << 23;
  s.bits16 = nan ? std::uint16_t(fp4 ? 0x7FC0 : 0x7F81) : top ? std::uint16_t(0x0040) : std::uint16_t((0xFEu - X) << 7);
  s.value = b16 ? bf16_value(s.bits16) : std::bit_cast<float>(s.bits32);
  return s;
}
// A scaled element's code: e4m3 or e2m1 with ties to even and saturation (NaN: e4m3's NaN, e2m1's 6).
inline std::uint8_t code(float p, bool fp4) {
  if (!fp4) return numeric::encode(numeric::Narrow::E4M3, p, RoundMode::CAST_RINT, SaturationMode::ON);
  return std::isnan(p) ? std::uint8_t(0x7) : numeric::encode(numeric::Narrow::E2M1, p, RoundMode::CAST_RINT, SaturationMode::ON);
}
// Writes an e2m1 code into its nibble (the even element in the low one).
inline void put_nibble(std::byte* at, bool high, std::uint8_t q) {
  std::uint8_t byte;
  std::memcpy(&byte, at, 1);
  byte = high ? std::uint8_t((byte & 0x0F) | (q << 4)) : std::uint8_t((byte & 0xF0) | q);
  std::memcpy(at, &byte, 1);
}
// Stores a group's maximum and scaling at element `slot` of their tiles.
inline void store_group(const TileView& mx_t, const TileView& sc, std::size_t slot, bool b16, const GroupMax& m, const SharedScale& k) {
  if (b16) {
    const std::uint16_t mb = std::uint16_t(m.bits);
    std::memcpy(mx_t.base + slot * 2, &mb, 2);
    std::memcpy(sc.base + slot * 2, &k.bits16, 2);
  } else {
    std::memcpy(mx_t.base + slot * 4, &m.bits, 4);
    std::memcpy(sc.base + slot * 4, &k.bits32, 4);
  }
}
}  // namespace mx

// The DN grouping (ops as tquant_mx's; the scalar also holds dst's row stride and rows, exp's row
// stride): a group is 32 rows of one valid column, whole groups read (rows past the valid ones too).
inline void tquant_mx_dn(ExecContext& ctx) {
  using namespace mx;
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile, &e = ctx.ops[2].tile, &mx_t = ctx.ops[3].tile,
                 &sc = ctx.ops[4].tile;
  const bool fp4 = ctx.variant & kVariantMxFp4, nv = ctx.variant & kVariantMxNv, inter = ctx.variant & kVariantMxInterleave;
  const DType t = s.dtype;
  const bool b16 = t != DType::F32, f16 = t == DType::F16;
  const int VC = ctx.scalar.as<int>(), VR = int(ctx.scalar.bits >> 32), SC = s.cols, groups = s.valid_rows / 32;
  const std::size_t DC = ctx.scalar.wide[0], DR = ctx.scalar.wide[1] & 0xFFFFFFFFu, EC = ctx.scalar.wide[1] >> 32;
  auto bits16 = [&](int r, int c) {
    std::uint16_t v;
    std::memcpy(&v, s.base + (std::size_t(r) * std::size_t(s.row_stride) + std::size_t(c)) * 2, 2);
    return v;
  };
  auto value = [&](int r, int c) -> float {
    if (!b16) return load_f32(s, r, c);
    return f16 ? f16_value(bits16(r, c)) : bf16_value(bits16(r, c));
  };
  // A 16-bit src has its pad columns zeroed in every valid row first.
  if (b16)
    for (int r = 0; r < VR; ++r)
      for (int c = VC; c < SC; ++c) std::memset(s.base + (std::size_t(r) * std::size_t(s.row_stride) + std::size_t(c)) * 2, 0, 2);
  std::vector<float> scale(std::size_t(groups) * std::size_t(VC));
  for (int g = 0; g < groups; ++g)
    for (int c = 0; c < VC; ++c) {
      MaxFold f(t, nv);
      for (int r = 32 * g; r < 32 * g + 32; ++r) {
        if (b16) f.add_bits16(bits16(r, c));
        else f.add_f32(load_f32(s, r, c));
      }
      const GroupMax m = f.result();
      const SharedScale k = shared_scale(m, b16, fp4, nv);
      const std::size_t slot = std::size_t(g) * std::size_t(SC) + std::size_t(c);
      store_group(mx_t, sc, slot, b16, m, k);
      scale[std::size_t(g) * std::size_t(VC) + std::size_t(c)] = k.value;
      if (!inter) {
        std::memcpy(e.base + slot, &k.X, 1);
      } else {
        std::memcpy(e.base + std::size_t(g / 2) * EC + 2 * std::size_t(c) + std::size_t(g % 2), &k.X, 1);
        if (!b16)  // staged in dst first, a row per group at align32(Cols)
          std::memcpy(d.base + std::size_t(g) * ((std::size_t(SC) + 31) / 32 * 32) + std::size_t(c), &k.X, 1);
      }
    }
  // The codes, in the chip's order: per vector of columns (64 fp32, 128 16-bit), group, row.
  const int vl = b16 ? 128 : 64;
  const bool scratch = fp4 && f16 && (SC / 2) % 32 != 0;
  for (int c0 = 0; c0 < VC; c0 += vl) {
    const int c1 = std::min(c0 + vl, VC);
    for (int g = 0; g < groups; ++g)
      for (int r = 32 * g; r < 32 * g + 32; ++r)
        for (int c = c0; c < c1; ++c) {
          const float x = value(r, c), k = scale[std::size_t(g) * std::size_t(VC) + std::size_t(c)];
          // bf16 to e2m1 multiplies in bf16; every other source in fp32
          const float p = fp4 && t == DType::BF16 ? bf16_round(double(x) * double(k)) : x * k;
          const std::uint8_t q = code(p, fp4);
          if (!fp4) {
            std::memcpy(d.base + std::size_t(r) * DC + std::size_t(c), &q, 1);
            continue;
          }
          const std::size_t n = std::size_t(r) * std::size_t(SC) + std::size_t(c);
          if (scratch) put_nibble(d.base + DR * std::size_t(SC) / 2 + std::size_t(c - c0) / 2, c % 2, q);
          put_nibble(d.base + n / 2, n % 2, q);
        }
  }
}

// ops: dst, src, exp, max, scaling (runtime/quant.hpp builds them: dst, max and scaling as flat byte
// views, src widened to its whole rows, exp as the tile for the per-row path); the scalar holds src's
// valid columns.
inline void tquant_mx(ExecContext& ctx) {
  using namespace mx;
  if (ctx.variant & kVariantMxDn) return tquant_mx_dn(ctx);
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile, &e = ctx.ops[2].tile, &mx_t = ctx.ops[3].tile,
                 &sc = ctx.ops[4].tile;
  const bool fp4 = ctx.variant & kVariantMxFp4, nv = ctx.variant & kVariantMxNv, exp2d = ctx.variant & kVariantMxExp2D;
  const DType t = s.dtype;
  const bool b16 = t != DType::F32, f16 = t == DType::F16;
  const int R = s.valid_rows, VC = ctx.scalar.as<int>(), C = s.cols, G = C / 32;
  auto src_bits16 = [&](int r, int c) {
    std::uint16_t v;
    std::memcpy(&v, s.base + s.elem_offset(r, c) * 2, 2);
    return v;
  };
  auto src_value = [&](int r, int c) -> float {
    if (!b16) return load_f32(s, r, c);
    const std::uint16_t b = src_bits16(r, c);
    return f16 ? f16_value(b) : bf16_value(b);
  };
  // A 16-bit src has its pad columns zeroed in place first (every valid row).
  if (b16)
    for (int r = 0; r < R; ++r)
      for (int c = VC; c < C; ++c) std::memset(s.base + s.elem_offset(r, c) * 2, 0, 2);
  // Which groups and columns of a row are computed (docs/quant.md, "What is written").
  int groups = G, cols = C;
  if (exp2d) groups = (VC + 31) / 32, cols = b16 ? groups * 32 : VC;
  else if (b16 && !fp4 && !nv && VC < C && C % 512 == 0) groups = (VC + 31) / 32, cols = VC;
  for (int r = 0; r < R; ++r)
    for (int g = 0; g < groups; ++g) {
      const int c0 = g * 32, c1 = std::min(c0 + 32, cols);
      // stage 1: the group's largest magnitude (the fp32 per-row path reads the valid columns only)
      MaxFold f(t, nv);
      for (int c = c0; c < (b16 ? c0 + 32 : std::min(c0 + 32, exp2d ? VC : C)); ++c) {
        if (b16) f.add_bits16(src_bits16(r, c));
        else f.add_f32(load_f32(s, r, c));
      }
      const GroupMax m = f.result();
      // stage 2: the shared exponent and the scaling, in the group's slots of exp, max and scaling
      const SharedScale k = shared_scale(m, b16, fp4, nv);
      const std::size_t slot = exp2d ? std::size_t(r) * std::size_t(groups) + std::size_t(g) : std::size_t(r) * std::size_t(G) + std::size_t(g);
      const std::size_t eslot = exp2d ? std::size_t(r) * std::size_t(e.row_stride) + std::size_t(g) : slot;
      std::memcpy(e.base + eslot, &k.X, 1);
      store_group(mx_t, sc, slot, b16, m, k);
      // stage 3: each element times the scaling (bf16 multiplies in bf16), cast
      for (int c = c0; c < c1; ++c) {
        const float x = src_value(r, c);
        const float p = t == DType::BF16 ? bf16_round(double(x) * double(k.value)) : x * k.value;
        const std::uint8_t q = code(p, fp4);
        if (!fp4) std::memcpy(d.base + std::size_t(r) * std::size_t(C) + std::size_t(c), &q, 1);
        else put_nibble(d.base + std::size_t(r) * std::size_t(C / 2) + std::size_t(c / 2), c % 2, q);
      }
    }
}

inline constexpr BackendKernel kQuantInt8{nullptr, tquant_int8};
inline constexpr BackendKernel kQuantMx{nullptr, tquant_mx};
inline constexpr BackendKernel kDequant{nullptr, tdequant};

}  // namespace pto::cpu::quant
