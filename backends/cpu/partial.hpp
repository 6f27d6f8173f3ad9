// TPARTADD / TPARTMUL / TPARTMAX / TPARTMIN on the CPU: over dst's valid region, src0 op src1 where both
// sources are valid (the smaller one's region), the larger source's element elsewhere. The public
// function has checked the NPUs' shape rule (one source's valid region is dst's, the other inside it).
#pragma once
#include <cstring>
#include <vector>

#include <pto/isa/kernel_abi.hpp>
#include "elementwise.hpp"

namespace pto::cpu::partial {

template <BinOp O>
void tpart(ExecContext& ctx) {
  std::vector<std::byte> a_copy, b_copy;
  const TileView d = ctx.ops[0].tile;
  const TileView a = stable_source(ctx.ops[1].tile, d, a_copy);
  const TileView b = stable_source(ctx.ops[2].tile, d, b_copy);
  const bool a_big = a.valid_rows == d.valid_rows && a.valid_cols == d.valid_cols;
  const TileView& big = a_big ? a : b;
  const TileView& small = a_big ? b : a;
  const std::size_t es = d.elem_bytes();
  visit_dtype(d.dtype, [&](auto zero) {
    using T = decltype(zero);
    for (int i = 0; i < d.valid_rows; ++i) {
      const int n = i < small.valid_rows ? small.valid_cols : 0;
      if (n) bin_row<O>(d.ptr<T>(i, 0), Ptr<T>{a.ptr<T>(i, 0)}, Ptr<T>{b.ptr<T>(i, 0)}, n);
      if (n < d.valid_cols) std::memmove(d.ptr<T>(i, n), big.ptr<T>(i, n), std::size_t(d.valid_cols - n) * es);
    }
  });
}

template <BinOp O> inline constexpr BackendKernel kPart{nullptr, tpart<O>};

}  // namespace pto::cpu::partial
