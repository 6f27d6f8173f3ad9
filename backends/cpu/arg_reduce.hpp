// Index reductions: TROWARGMAX / TROWARGMIN (the column of each row's max / min) and TCOLARGMAX /
// TCOLARGMIN (the row of each column's), over src's valid region, with the value forms that also
// write the max / min. Operands: ctx.ops[0] the index tile, [1] src, [2] tmp, [3] the value tile (the
// value forms only).
//
// Ties: the first occurrence wins (both chips compare strictly as they scan: pto-isa a5
// TRowReduceIdx.hpp, TColReduceIdx.hpp, a2a3 TColReduceIdx.hpp). NaN: never chosen, unless the first
// element is one (the chips' vcmax NaN rule is not documented). A2A3's column forms compare the bits
// of uint16 / uint32 sources as half / float (its algorithm runs vcmp on f16 / f32 lanes).
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include <pto/backends/kernel_abi.hpp>
#include "elementwise.hpp"

namespace pto::cpu::arg {

// The key an element is compared by.
template <class T>
double key(T x, bool as_float_bits) {
  if constexpr (std::is_same_v<T, std::uint16_t>) {
    if (as_float_bits) return double(float(std::bit_cast<half>(x)));
  } else if constexpr (std::is_same_v<T, std::uint32_t>) {
    if (as_float_bits) return double(std::bit_cast<float>(x));
  }
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) return double(float(x));
  else return double(x);
}

inline void put_index(const TileView& t, int r, int c, std::int64_t v) {
  switch (t.dtype) {
    case DType::I16: *t.ptr<std::int16_t>(r, c) = std::int16_t(v); break;
    case DType::U16: *t.ptr<std::uint16_t>(r, c) = std::uint16_t(v); break;
    case DType::U32: *t.ptr<std::uint32_t>(r, c) = std::uint32_t(v); break;
    default: *t.ptr<std::int32_t>(r, c) = std::int32_t(v); break;
  }
}

template <bool Max, bool Row>
void arg_reduce(ExecContext& ctx) {
  const TileView idx = ctx.ops[0].tile, s = ctx.ops[1].tile;
  const bool with_value = ctx.nops > 3;
  const bool as_float_bits = !Row && ctx.target == Target::A2A3;
  visit_dtype(s.dtype, [&](auto zero) {
    using T = decltype(zero);
    const int lines = Row ? s.valid_rows : s.valid_cols, len = Row ? s.valid_cols : s.valid_rows;
    std::vector<int> at(static_cast<std::size_t>(lines));  // every result computed before any is written
    std::vector<T> val(static_cast<std::size_t>(lines));
    for (int l = 0; l < lines; ++l) {
      auto elem = [&](int k) { return Row ? *s.ptr<T>(l, k) : *s.ptr<T>(k, l); };
      int best = 0;
      double bk = key(elem(0), as_float_bits);
      for (int k = 1; k < len; ++k) {
        const double x = key(elem(k), as_float_bits);
        if (Max ? x > bk : x < bk) best = k, bk = x;
      }
      at[std::size_t(l)] = best;
      val[std::size_t(l)] = elem(best);
    }
    for (int l = 0; l < lines; ++l) {
      put_index(idx, Row ? l : 0, Row ? 0 : l, at[std::size_t(l)]);
      if (with_value) {
        const TileView& v = ctx.ops[3].tile;
        *v.ptr<T>(Row ? l : 0, Row ? 0 : l) = val[std::size_t(l)];
      }
    }
  });
}

template <bool Max, bool Row> inline constexpr BackendKernel kArgReduce{nullptr, arg_reduce<Max, Row>};

}  // namespace pto::cpu::arg
