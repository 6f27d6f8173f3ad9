// Compare and select: TCMP / TCMPS write a packed predicate mask, TSEL / TSELS read one.
//
// The mask layout (the ISA calls it implementation-defined; this is the one both chips' select
// instructions read back): row i of the mask tile holds one bit per source column, bit j in byte j / 8
// at bit j % 8 (least significant first), from the row's first byte. TCMP writes the bytes holding the
// valid columns' bits; bits past the valid width in the last byte are 0. TSEL: dst = bit ? src0 : src1;
// TSELS: dst = bit ? src : scalar. Half and bfloat16 compare as their float values; NaN compares unequal.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include <pto/backends/kernel_abi.hpp>
#include "elementwise.hpp"

namespace pto::cpu::select {

template <class T>
bool compare(CmpMode m, T a, T b) {
  using C = std::conditional_t<kWidened<T>, float, T>;
  const C x = C(a), y = C(b);
  switch (m) {
    case CmpMode::EQ: return x == y;
    case CmpMode::NE: return x != y;
    case CmpMode::LT: return x < y;
    case CmpMode::LE: return x <= y;
    case CmpMode::GT: return x > y;
    case CmpMode::GE: return x >= y;
  }
  return false;
}

inline std::uint8_t* mask_row(const TileView& m, int i) {
  return reinterpret_cast<std::uint8_t*>(m.base + m.elem_offset(i, 0) * std::ptrdiff_t(m.elem_bytes()));
}

// TCMP(dst, src0, src1) and TCMPS(dst, src0, scalar): ops[0] the mask, ops[1] src0, ops[2] src1 (TCMP).
inline void compare_kernel(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const TileView& a = ctx.ops[1].tile;
  const bool scalar = ctx.op == Op::TCMPS;
  const CmpMode mode = cmp_mode_of(ctx.variant);
  visit_dtype(a.dtype, [&](auto zero) {
    using T = decltype(zero);
    const T k = ctx.scalar.as<T>();
    const int C = a.valid_cols, bytes = (C + 7) / 8;
    std::vector<std::uint8_t> rows(std::size_t(a.valid_rows) * std::size_t(bytes), 0);  // all read before dst is written
    for (int i = 0; i < a.valid_rows; ++i) {
      std::uint8_t* out = rows.data() + std::size_t(i) * std::size_t(bytes);
      const T* x = a.ptr<T>(i, 0);
      const T* y = scalar ? nullptr : ctx.ops[2].tile.ptr<T>(i, 0);
      for (int j = 0; j < C; ++j)
        if (compare<T>(mode, x[j], scalar ? k : y[j])) out[j / 8] = std::uint8_t(out[j / 8] | (1u << (j % 8)));
    }
    for (int i = 0; i < a.valid_rows; ++i) std::memcpy(mask_row(d, i), rows.data() + std::size_t(i) * std::size_t(bytes), std::size_t(bytes));
  });
}

// TSEL(dst, mask, src0, src1, tmp) and TSELS(dst, mask, src, tmp, scalar): copies elements, bit-exact,
// as unsigned words of the element's size, eight elements per mask byte (the loop vectorises to blends).
// A dst that shares bytes with an operand is written after every row is read.
template <class U, bool Scalar>
void select_words(const ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const TileView& m = ctx.ops[1].tile;
  const TileView& a = ctx.ops[2].tile;
  const TileView& b = ctx.ops[Scalar ? 2 : 3].tile;
  const U s = ctx.scalar.as<U>();
  const int R = d.valid_rows, C = d.valid_cols;
  const ByteRange df = d.footprint();
  const bool apart = !df.overlaps(a.footprint()) && !df.overlaps(b.footprint()) && !df.overlaps(m.footprint());
  std::vector<U> staged(apart ? 0 : std::size_t(R) * std::size_t(C));
  for (int i = 0; i < R; ++i) {
    const std::uint8_t* bits = mask_row(m, i);
    const U* __restrict x = a.ptr<U>(i, 0);
    const U* __restrict y = b.ptr<U>(i, 0);
    U* __restrict o = apart ? d.ptr<U>(i, 0) : staged.data() + std::size_t(i) * std::size_t(C);
    int j = 0;
    for (; j + 8 <= C; j += 8) {
      const unsigned byte = bits[j / 8];
      for (int t = 0; t < 8; ++t) o[j + t] = (byte >> t) & 1u ? x[j + t] : Scalar ? s : y[j + t];
    }
    for (; j < C; ++j) o[j] = (bits[j / 8] >> (j % 8)) & 1u ? x[j] : Scalar ? s : y[j];
  }
  if (!apart)
    for (int i = 0; i < R; ++i) std::memcpy(d.ptr<U>(i, 0), staged.data() + std::size_t(i) * std::size_t(C), std::size_t(C) * sizeof(U));
}
inline void select_kernel(ExecContext& ctx) {
  const bool scalar = ctx.op == Op::TSELS;
  auto run = [&](auto zero) {
    using U = decltype(zero);
    if (scalar) select_words<U, true>(ctx);
    else select_words<U, false>(ctx);
  };
  switch (ctx.ops[0].tile.elem_bytes()) {
    case 1: return run(std::uint8_t{});
    case 2: return run(std::uint16_t{});
    case 4: return run(std::uint32_t{});
    default: return run(std::uint64_t{});
  }
}

inline constexpr BackendKernel kCompare{nullptr, compare_kernel};
inline constexpr BackendKernel kSelect{nullptr, select_kernel};

}  // namespace pto::cpu::select
