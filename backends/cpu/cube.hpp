// The cube's kernels on the CPU (docs/cube.md): the MTE1 moves (Mat -> Left / Right / Bias), the mad
// (TMATMUL and its forms: cube.cpp, through a BLAS sgemm for the floating-point inputs) and the
// fixpipe's store of an Acc tile to GM. Legality was checked at issue (runtime/cube_rules.hpp,
// runtime/matmul.hpp); the operand views are exactly the regions read and written.
#pragma once
#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>

#include <pto/isa/dtype.hpp>
#include <pto/backends/kernel_abi.hpp>

namespace pto::cpu::cube {

// dst(r, c) = src(r, c) over dst's view (src's view is the window). Fractals with the same inner order
// copy in runs of a fractal line (32 bytes); the transposing moves go element by element.
inline void l0_copy(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const TileView& s = ctx.ops[1].tile;
  if (d.nibbles()) {  // the 4-bit types: nibble by nibble
    for (int r = 0; r < d.valid_rows; ++r)
      for (int c = 0; c < d.valid_cols; ++c) nibble_set(d.base, d.elem_offset(r, c), nibble_get(s.base, s.elem_offset(r, c)));
    return;
  }
  const std::size_t eb = d.elem_bytes();
  if (d.inner_row_major == s.inner_row_major) {
    const bool rows = d.inner_row_major;  // runs along a row (row-major fractals) or down a column
    const int run = rows ? d.inner_cols : d.inner_rows;
    const int outer = rows ? d.valid_rows : d.valid_cols, inner = rows ? d.valid_cols : d.valid_rows;
    for (int a = 0; a < outer; ++a)
      for (int b = 0; b < inner; b += run) {
        const int r = rows ? a : b, c = rows ? b : a;
        std::memcpy(d.base + d.elem_offset(r, c) * std::ptrdiff_t(eb), s.base + s.elem_offset(r, c) * std::ptrdiff_t(eb),
                    std::size_t(std::min(run, inner - b)) * eb);
      }
    return;
  }
  for (int r = 0; r < d.valid_rows; ++r)
    for (int c = 0; c < d.valid_cols; ++c)
      std::memcpy(d.base + d.elem_offset(r, c) * std::ptrdiff_t(eb), s.base + s.elem_offset(r, c) * std::ptrdiff_t(eb), eb);
}

// TMOV Mat -> Bias: one row, widened to float where src is half or bfloat16_t.
inline void bias_move(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const TileView& s = ctx.ops[1].tile;
  if (d.dtype == s.dtype) {
    std::memcpy(d.base, s.base, std::size_t(s.valid_cols) * s.elem_bytes());
    return;
  }
  visit_dtype(s.dtype, [&](auto zero) {
    using S = decltype(zero);
    if constexpr (std::is_same_v<S, half> || std::is_same_v<S, bfloat16_t>) {
      const S* in = reinterpret_cast<const S*>(s.base);
      float* out = reinterpret_cast<float*>(d.base);
      for (int c = 0; c < s.valid_cols; ++c) out[c] = float(in[c]);
    }
  });
}

// The mad (cube.cpp): c = a * b, c += a * b or c = a * b + bias over the views' m x k x n.
void mad(ExecContext& ctx);

// The fixpipe's store of an Acc tile's valid region to an ND tensor: cast (round to nearest even), ReLU,
// then a write or an atomic add (GM may be shared by cores storing concurrently).
template <class E>
void add_atomic(E* p, E v) {
  if constexpr (std::is_same_v<E, float> || std::is_same_v<E, std::int32_t>) {
    std::atomic_ref<E>(*p).fetch_add(v, std::memory_order_relaxed);
  } else if constexpr (std::is_same_v<E, std::int8_t>) {  // wraps, as pto-isa's CPU simulator adds (the chip's rule is not documented)
    std::atomic_ref<std::uint8_t> byte(*reinterpret_cast<std::uint8_t*>(p));
    std::uint8_t old = byte.load(std::memory_order_relaxed);
    while (!byte.compare_exchange_weak(old, std::uint8_t(old + std::uint8_t(v)), std::memory_order_relaxed)) {
    }
  } else {  // 16-bit floats: compare-and-swap on the bits, the sum rounded once
    std::atomic_ref<std::uint16_t> bits(*reinterpret_cast<std::uint16_t*>(p));
    std::uint16_t old = bits.load(std::memory_order_relaxed), next;
    do {
      const E cur = std::bit_cast<E>(old);
      next = std::bit_cast<std::uint16_t>(E(float(cur) + float(v)));
    } while (!bits.compare_exchange_weak(old, next, std::memory_order_relaxed));
  }
}

// The fixpipe's conversion of one accumulator value (docs/cube.md "Quant words"): a cast, or with a quant
// word w the product by M1 (the float of w's bits 31-13), then per output type: int8 / uint8 through
// int16 (rounded to nearest even, clamped to [-256, 255]) plus the 9-bit offset of bits 45-37, clamped to
// int8 (bit 46 set) or uint8; half, bfloat16_t and the 8-bit floats saturating; float as is. int32 -> int16
// (A2A3, to L1) is a shift instead: right by bits 35-32 plus one, saturated.
template <class A, class E>
E fixpipe_convert(A x, std::uint64_t w, bool quant) {
  if (!quant) return E(x);
  if constexpr (std::is_same_v<E, std::int16_t>) {  // A2A3's shift mode: int32 >> (bits 35-32 + 1), saturated
    const int shift = int((w >> 32) & 0xF) + 1;
    return E(std::clamp<std::int64_t>(std::int64_t(x) >> shift, -32768, 32767));
  }
  const float v = float(x) * std::bit_cast<float>(std::uint32_t(w) & 0xFFFFE000u);
  if constexpr (std::is_same_v<E, std::int8_t> || std::is_same_v<E, std::uint8_t>) {
    const float t = v != v ? 0.0f : std::nearbyint(std::clamp(v, -256.0f, 255.0f));
    const int s = int(t) + int((w >> 37) & 0x1FF);
    const bool sign = (w >> 46) & 1;
    return E(std::uint8_t(std::clamp(s, sign ? -128 : 0, sign ? 127 : 255)));
  } else if constexpr (std::is_same_v<E, half>) {
    return E(std::clamp(v, -65504.0f, 65504.0f));
  } else if constexpr (std::is_same_v<E, bfloat16_t>) {
    constexpr float kMax = 3.38953139e38f;  // the largest finite bfloat16
    return E(std::clamp(v, -kMax, kMax));
  } else if constexpr (std::is_same_v<E, float8_e4m3_t>) {
    return E(std::clamp(v, -448.0f, 448.0f));
  } else if constexpr (std::is_same_v<E, hifloat8_t>) {
    return E(std::clamp(v, -32768.0f, 32768.0f));
  } else {
    return E(v);
  }
}

// Every element of the Acc view t through the fixpipe to where `at(r, c)` points (E*), by the record's form.
template <class At>
void fixpipe_each(const ExecContext& ctx, const TileView& t, DType out, At at) {
  const bool relu = ctx.variant & kVariantRelu, atomic = ctx.variant & kVariantAtomicAdd;
  const bool vector = ctx.variant & kVariantQuantVector, quant = vector || (ctx.variant & kVariantQuantScalar);
  const std::uint64_t* words = vector ? reinterpret_cast<const std::uint64_t*>(ctx.ops[2].tile.base) : nullptr;
  auto run = [&]<class A, class E>() {
    for (int r = 0; r < t.valid_rows; ++r)
      for (int c = 0; c < t.valid_cols; ++c) {
        E v = fixpipe_convert<A, E>(*t.ptr<A>(r, c), vector ? words[c] : ctx.scalar.bits, quant);
        if (relu && v < E(0)) v = E(0);
        E* dst = static_cast<E*>(at(r, c));
        if constexpr (std::is_same_v<E, float> || std::is_same_v<E, half> || std::is_same_v<E, bfloat16_t> ||
                      std::is_same_v<E, std::int32_t> || std::is_same_v<E, std::int8_t>)
          if (atomic) {
            add_atomic(dst, v);
            continue;
          }
        *dst = v;
      }
  };
  auto to = [&]<class A>() {
    switch (out) {
      case DType::F16: return run.template operator()<A, half>();
      case DType::BF16: return run.template operator()<A, bfloat16_t>();
      case DType::I8: return run.template operator()<A, std::int8_t>();
      case DType::I16:
        if constexpr (std::is_same_v<A, std::int32_t>) return run.template operator()<A, std::int16_t>();
        else return run.template operator()<A, float>();  // not a pair (the front end's static rules)
      case DType::U8: return run.template operator()<A, std::uint8_t>();
      case DType::HF8: return run.template operator()<A, hifloat8_t>();
      case DType::F8E4M3: return run.template operator()<A, float8_e4m3_t>();
      case DType::I32: return run.template operator()<A, std::int32_t>();
      default: return run.template operator()<A, float>();
    }
  };
  if (t.dtype == DType::I32) return to.template operator()<std::int32_t>();
  return to.template operator()<float>();
}

// TSTORE from an Acc tile: to the tensor's elements (ND, NZ, the convolution outputs: GmView::map).
inline void store_acc(ExecContext& ctx) {
  const GmView& g = ctx.ops[0].gm;
  const std::size_t eb = size_of(g.dtype);
  fixpipe_each(ctx, ctx.ops[1].tile, g.dtype, [&](int r, int c) -> void* { return g.base + g.map(r, c) * std::int64_t(eb); });
}
// TMOV / TEXTRACT out of an Acc tile: to the dst tile's elements (any layout).
inline void move_acc(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const std::size_t eb = d.elem_bytes();
  fixpipe_each(ctx, ctx.ops[1].tile, d.dtype, [&](int r, int c) -> void* { return d.base + d.elem_offset(r, c) * std::ptrdiff_t(eb); });
}

// TFILLPAD of an NZ Mat tile (runtime/layout.hpp fillpad_mat): zero 32-byte lines around src's valid region.
inline void fillpad_mat(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const TileView& s = ctx.ops[1].tile;
  if (d.valid_rows == 0) return;
  const int c0 = block_elems(d.dtype), vr = s.valid_rows, vc = (s.valid_cols + c0 - 1) / c0 * c0;
  const bool aligned = ctx.variant & kVariantFillRowAligned;
  const int last = aligned ? std::min(d.rows, (vr + 15) / 16 * 16) : d.rows;
  for (int c = 0; c < d.cols; c += c0)
    for (int r = c < vc ? vr : (aligned ? d.rows : 0); r < (c < vc ? last : d.rows); ++r)
      std::memset(d.base + d.byte_offset(r, c), 0, 32);
}

inline constexpr BackendKernel kFillPadMat{nullptr, fillpad_mat};
inline constexpr BackendKernel kL0Copy{nullptr, l0_copy};
inline constexpr BackendKernel kBiasMove{nullptr, bias_move};
inline constexpr BackendKernel kMad{nullptr, mad};
inline constexpr BackendKernel kStoreAcc{nullptr, store_acc};
inline constexpr BackendKernel kMoveAcc{nullptr, move_acc};
// TMOV Mat -> Scaling: the words as they are.
inline void words_move(ExecContext& ctx) {
  std::memcpy(ctx.ops[0].tile.base, ctx.ops[1].tile.base, std::size_t(ctx.ops[1].tile.valid_cols) * 8);
}
inline constexpr BackendKernel kWordsMove{nullptr, words_move};

}  // namespace pto::cpu::cube
