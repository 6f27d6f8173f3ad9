// The cube's kernels on the CPU (docs/cube.md): the MTE1 moves (Mat -> Left / Right / Bias), the mad
// (TMATMUL and its forms: cube.cpp, through a BLAS sgemm for the floating-point inputs) and the
// fixpipe's store of an Acc tile to GM. Legality was checked at issue (runtime/cube_rules.hpp,
// runtime/matmul.hpp); the operand views are exactly the regions read and written.
#pragma once
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>

#include <pto/isa/dtype.hpp>
#include <pto/isa/kernel_abi.hpp>

namespace pto::cpu::cube {

// dst(r, c) = src(r, c) over dst's view (src's view is the window). Fractals with the same inner order
// copy in runs of a fractal line (32 bytes); the transposing moves go element by element.
inline void l0_copy(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const TileView& s = ctx.ops[1].tile;
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
  } else {  // 16-bit floats: compare-and-swap on the bits, the sum rounded once
    std::atomic_ref<std::uint16_t> bits(*reinterpret_cast<std::uint16_t*>(p));
    std::uint16_t old = bits.load(std::memory_order_relaxed), next;
    do {
      const E cur = std::bit_cast<E>(old);
      next = std::bit_cast<std::uint16_t>(E(float(cur) + float(v)));
    } while (!bits.compare_exchange_weak(old, next, std::memory_order_relaxed));
  }
}

inline void store_acc(ExecContext& ctx) {
  const GmView& g = ctx.ops[0].gm;
  const TileView& t = ctx.ops[1].tile;
  const bool relu = ctx.variant & kVariantRelu, atomic = ctx.variant & kVariantAtomicAdd;
  auto run = [&]<class A, class E>() {
    for (int r = 0; r < t.valid_rows; ++r)
      for (int c = 0; c < t.valid_cols; ++c) {
        E v = E(*t.ptr<A>(r, c));
        if (relu && v < E(0)) v = E(0);
        E* out = reinterpret_cast<E*>(g.base) + g.map(r, c);
        if (atomic) add_atomic(out, v);
        else *out = v;
      }
  };
  if (t.dtype == DType::I32) return run.template operator()<std::int32_t, std::int32_t>();
  switch (g.dtype) {
    case DType::F16: return run.template operator()<float, half>();
    case DType::BF16: return run.template operator()<float, bfloat16_t>();
    default: return run.template operator()<float, float>();
  }
}

inline constexpr BackendKernel kL0Copy{nullptr, l0_copy};
inline constexpr BackendKernel kBiasMove{nullptr, bias_move};
inline constexpr BackendKernel kMad{nullptr, mad};
inline constexpr BackendKernel kStoreAcc{nullptr, store_acc};

}  // namespace pto::cpu::cube
