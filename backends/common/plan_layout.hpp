// The intrinsic streams of TTRANS and the TFILLPAD family as their NPU code issues them (pto-isa a2a3 /
// a5 TTrans.hpp, TFillPad.hpp); each intrinsic's cost is the pipeline model's table. No device path runs
// them yet: these planners price every form (docs/layout.md).
#pragma once
#include "planner.hpp"

namespace pto::plan {

namespace a2a3 {
// TTRANS: with aligned strides, per 32-byte column block of src one scatter_vnchwconv call over its
// whole 16-row (8-bit: 32-row) groups (8-bit: four calls, one per half of source and destination), one
// more call set over the groups' row tail, then a barrier and one copy_ubuf_to_ubuf from tmp to dst
// (validCol bursts of validRow's 32-byte blocks). Unaligned strides: a scalar element loop between flags.
inline void ttrans(const ExecContext& c, IntrinsicStream& s) {
  const TileView& x = c.ops[1].tile;
  const std::uint64_t es = x.elem_bytes(), be = 32 / es, y = es == 1 ? 32 : 16;
  const std::uint64_t rows = std::uint64_t(x.valid_rows), cols = std::uint64_t(x.valid_cols);
  if (rows == 0 || cols == 0) return;
  if (!(c.variant & kVariantTransAligned)) {
    s.add({.op = I::sync_roundtrip});
    s.add({.op = I::scalar_elem, .repeats = std::uint32_t(rows * cols)});
    s.add({.op = I::sync_roundtrip});
    return;
  }
  A2A3 p(s, es);
  const std::uint64_t sub_x = ceil_div(cols, be), sub_y = rows / y, per = es == 1 ? 4 : 1;
  if (sub_y) p.norm(I::vnchwconv, std::uint32_t(sub_y), 0, std::uint32_t(sub_x * per));
  if (rows % y) p.norm(I::vnchwconv, std::uint32_t(sub_x), 0, std::uint32_t(per));
  s.barrier();
  p.ub_copy(cols * ceil_div(rows * es, 32) * 32, 1);
}

// TFILLPAD: counter-mode vcopy of src's rows (255 a call); unless the pad values agree, a vector_dup of
// the rest of each row's last block (8-bit: a scalar loop); a vector_dup of the first row's right pad,
// vcopy of it to the other rows; one counter-mode vector_dup over the bottom rows.
inline void tfillpad(const ExecContext& c, IntrinsicStream& s) {
  const TileView &d = c.ops[0].tile, &x = c.ops[1].tile;
  const std::uint64_t es = d.elem_bytes(), be = 32 / es;
  const std::uint64_t rows = std::uint64_t(x.valid_rows), vc = std::uint64_t(x.valid_cols);
  A2A3 p(s, es);
  auto by_255 = [&](I op, std::uint64_t n) {
    for (std::uint64_t r = 0; r < n; r += 255) p.norm(op, std::uint32_t(std::min<std::uint64_t>(255, n - r)));
  };
  if (!(c.variant & kVariantFillInPlace)) by_255(I::vcopy, rows);
  if (!(c.variant & kVariantKeepBlock) && vc % be && rows) {
    if (es == 1) {
      s.add({.op = I::sync_roundtrip});
      s.add({.op = I::scalar_elem, .repeats = std::uint32_t(rows * (be - vc % be))});
      s.add({.op = I::sync_roundtrip});
    } else {
      by_255(I::vector_dup, rows);
    }
  }
  if (rows && std::uint64_t(d.cols) > ceil_div(vc, be) * be) {
    p.norm(I::vector_dup, 1);
    by_255(I::vcopy, rows - 1);
  }
  if (d.valid_rows > x.valid_rows) p.count(I::vector_dup, std::uint64_t(d.valid_rows - x.valid_rows) * std::uint64_t(d.cols));
}
}  // namespace a2a3

namespace a5 {
// TTRANS: src tiles with fewer rows than columns go row-wise (per source row and 256-byte chunk a load,
// the index vector vci -> vmins -> vmuls -> vadds, a vscatter), the others column-wise (per source column
// and chunk of rows the index vector, a vgather2, a store). 8-bit elements move as 16-bit lanes.
inline void ttrans(const ExecContext& c, IntrinsicStream& s) {
  const TileView& x = c.ops[1].tile;
  const std::uint64_t es = x.elem_bytes(), epr = 256 / std::max<std::uint64_t>(es, 2);
  const bool row_wise = x.rows < x.cols;
  const std::uint64_t lines = std::uint64_t(row_wise ? x.valid_rows : x.valid_cols);
  const std::uint64_t chunks = lines * ceil_div(std::uint64_t(row_wise ? x.valid_cols : x.valid_rows), epr);
  A5 p(s, es);
  p.add(I::vloop, lines);
  for (I op : {I::vci, I::vmins, I::vmuls, I::vadds}) p.add(op, chunks);
  p.add(row_wise ? I::vlds : I::vgather, chunks);
  p.add(row_wise ? I::vscatter : I::vsts, chunks);
}
// TFILLPAD: src's valid elements row by row (load, store), a splat of the pad, per row the right pad in
// unaligned stores (and their flush), the bottom rows as one 1-D run of stores.
inline void tfillpad(const ExecContext& c, IntrinsicStream& s) {
  const TileView &d = c.ops[0].tile, &x = c.ops[1].tile;
  const std::uint64_t epr = 256 / d.elem_bytes(), rows = std::uint64_t(x.valid_rows);
  A5 p(s, d.elem_bytes());
  if (!(c.variant & kVariantFillInPlace)) {
    const std::uint64_t n = rows * ceil_div(std::uint64_t(x.valid_cols), epr);
    p.add(I::vloop, rows);
    p.add(I::vlds, n);
    p.add(I::vsts, n);
  }
  p.add(I::vbr, 1);
  p.add(I::vloop, rows);
  p.add(I::vsts, rows * (ceil_div(std::uint64_t(d.cols - x.valid_cols), epr) + 1));
  if (d.valid_rows > x.valid_rows) p.add(I::vsts, ceil_div(std::uint64_t(d.valid_rows - x.valid_rows) * std::uint64_t(d.cols), epr));
}
}  // namespace a5

}  // namespace pto::plan
