// TQUANT (INT8) and TDEQUANT on the CPU (runtime/quant.hpp has the rules). The arithmetic is the chips': a float multiply (and add),
// one rounding to an integer at float precision, saturation; A2A3 also leaves its intermediates in src
// and tmp, as its in-place chain does.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <pto/isa/kernel_abi.hpp>


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
        const _Float16 h = _Float16(float(q[std::size_t(r) * std::size_t(C) + std::size_t(c)]));
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

inline constexpr BackendKernel kQuantInt8{nullptr, tquant_int8};
inline constexpr BackendKernel kDequant{nullptr, tdequant};

}  // namespace pto::cpu::quant
