// Element-wise tile-tile arithmetic: TADD, TSUB, TMUL, TDIV, TMAX, TMIN (dst = src0 op src1 over dst's
// valid region). Computed in the element type (half and bfloat16 through float, one rounding per
// operation, as the chip's lanes; integers wrap), with the lane operations the device paths use.
#pragma once
#include <vector>

#include <pto/backends/kernel_abi.hpp>
#include "elementwise.hpp"

namespace pto::cpu::binary {

template <BinOp O, Op Name>
void binary(ExecContext& ctx) {
  std::vector<std::byte> a_copy, b_copy;
  TileView d = ctx.ops[0].tile;
  TileView a = stable_source(ctx.ops[1].tile, d, a_copy);  // a source dst partly overlaps is read first
  TileView b = stable_source(ctx.ops[2].tile, d, b_copy);
  if (dense(d) && dense(a) && dense(b)) d = as_one_row(d), a = as_one_row(a), b = as_one_row(b);
  visit_dtype(d.dtype, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (O == BinOp::Div && std::is_integral_v<T>) check_divisor_tile<T>(Name, "src1", ctx.ops[2].tile);
    if constexpr (O == BinOp::Shl || O == BinOp::Shr) lanes::check_shift_tile<T>(Name, "src1", ctx.ops[2].tile);
    for_each_block(d.valid_rows, d.valid_cols, [&](int r0, int r1, int c0, int c1) {
      for (int i = r0; i < r1; ++i)
        bin_row<O>(d.ptr<T>(i, c0), Ptr<T>{a.ptr<T>(i, c0)}, Ptr<T>{b.ptr<T>(i, c0)}, c1 - c0);
    });
  });
}

template <BinOp O, Op Name> inline constexpr BackendKernel kBinary{nullptr, binary<O, Name>};

}  // namespace pto::cpu::binary
