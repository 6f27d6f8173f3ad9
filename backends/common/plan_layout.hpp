// The intrinsic streams of TTRANS, the TFILLPAD family and TCONCAT as their NPU code issues them (pto-isa
// a2a3 / a5 TTrans.hpp, TFillPad.hpp, TConcat.hpp); each intrinsic's cost is the pipeline model's table. They price
// the forms no device path covers: TTRANS's A2A3 scalar loop, A2A3's TFILLPAD family, TCONCAT, the Vec
// windows (docs/layout.md); a test holds the covered forms' streams equal to these.
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

// TEXTRACT / TINSERT (Vec): ops[0] and ops[1] have the window's shape. A static 1 x 1 window: one element
// on the scalar unit between flags. A static ValidCol of whole blocks: one copy_ubuf_to_ubuf of
// validRow bursts. Otherwise the bursts' whole blocks, then the rest of each row by a counter-mode vcopy
// (255 rows a call).
inline void twindow(const ExecContext& c, IntrinsicStream& s) {
  const TileView& w = c.ops[0].tile;
  const std::uint64_t es = w.elem_bytes(), rows = std::uint64_t(w.valid_rows), bytes = std::uint64_t(w.valid_cols) * es;
  if (rows == 0 || bytes == 0) return;
  if (c.variant & kVariantWindowScalar) {
    s.add({.op = I::sync_roundtrip});
    s.add({.op = I::scalar_elem, .repeats = 1});
    s.add({.op = I::sync_roundtrip});
    return;
  }
  A2A3 p(s, es);
  if (c.variant & kVariantWindowAligned) return p.ub_copy(rows * ceil_div(bytes, 32) * 32, 1);
  p.ub_copy(rows * (bytes / 32) * 32, 1);
  A2A3 half_lanes(s, 2);
  for (std::uint64_t r = 0; r < rows; r += 255)
    half_lanes.norm(I::vcopy, std::uint32_t(std::min<std::uint64_t>(255, rows - r)), (bytes % 32 + 1) / 2);
}

// TCONCAT's per-row counts. The basic form: src0's and src1's valid widths. The index forms read theirs
// from the index tiles at run time, which a model-only run does not have: they are priced as full rows
// (each source's Cols, clamped to dst's valid columns as the chips clamp the counts).
struct ConcatCounts {
  std::uint64_t rows, n0, n1;
};
inline ConcatCounts concat_counts(const ExecContext& c) {
  const TileView &d = c.ops[0].tile, &a = c.ops[1].tile, &b = c.ops[2].tile;
  if (c.nops == 3) return {std::uint64_t(d.valid_rows), std::uint64_t(a.valid_cols), std::uint64_t(b.valid_cols)};
  const std::uint64_t w = std::uint64_t(d.valid_cols), n0 = std::min<std::uint64_t>(std::uint64_t(a.cols), w);
  return {std::uint64_t(d.valid_rows), n0, std::min<std::uint64_t>(std::uint64_t(b.cols), w - n0)};
}

// TCONCAT: the basic form per row one copy_ubuf_to_ubuf of src0's blocks, then one of src1's when src0's
// count ends on a block, else (after V -> S and MTE2 -> S flags) a scalar loop over src1's elements. The
// index forms per row: the counts read on the scalar unit between flags, then for each source a vcopy of
// its whole repeats and a masked vcopy of the last (src1's as a scalar loop when src0's count ends inside
// a block).
inline void tconcat(const ExecContext& c, IntrinsicStream& s) {
  const ConcatCounts n = concat_counts(c);
  if (n.rows == 0) return;
  const std::uint64_t es = c.ops[0].tile.elem_bytes(), be = 32 / es, epr = 256 / es;
  const bool aligned = n.n0 % be == 0;
  A2A3 p(s, es);
  if (c.nops == 3) {
    p.ub_copy(n.n0 * es, std::uint32_t(n.rows));
    if (aligned) {
      p.ub_copy(n.n1 * es, std::uint32_t(n.rows));
    } else if (n.n1) {
      s.add({.op = I::sync_roundtrip});
      s.add({.op = I::scalar_elem, .repeats = std::uint32_t(n.rows * n.n1)});
    }
    return;
  }
  const std::uint32_t rows = std::uint32_t(n.rows);
  s.add({.op = I::sync_roundtrip, .calls = rows});
  s.add({.op = I::scalar_elem, .repeats = c.nops == 6 ? 3u : 2u, .calls = rows});
  s.add({.op = I::sync_roundtrip, .calls = rows});
  auto copy = [&](std::uint64_t k) {
    if (ceil_div(k, epr) > 1) p.norm(I::vcopy, std::uint32_t(ceil_div(k, epr) - 1), 0, rows);
    if (k) p.norm(I::vcopy, 1, 0, rows);
  };
  copy(n.n0);
  if (aligned) {
    copy(n.n1);
  } else if (n.n1) {
    s.add({.op = I::sync_roundtrip, .calls = rows});
    s.add({.op = I::scalar_elem, .repeats = std::uint32_t(n.n1), .calls = rows});
    s.add({.op = I::sync_roundtrip, .calls = rows});
  }
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
// TEXTRACT / TINSERT (Vec): a static 1 x 1 window on the scalar unit; a window starting on a 32-byte
// boundary with whole-block rows by one copy_ubuf_to_ubuf; one starting on a boundary by per-row loads
// and predicated stores; any other by unaligned loads (TEXTRACT: vldas + vldus) or unaligned stores and
// a flush per row (TINSERT).
template <bool Insert>
inline void twindow(const ExecContext& c, IntrinsicStream& s) {
  const TileView& w = c.ops[0].tile;
  const TileView& big = c.ops[Insert ? 0 : 1].tile;
  const std::uint64_t es = w.elem_bytes(), rows = std::uint64_t(w.valid_rows), epr = 256 / es;
  if (rows == 0 || w.valid_cols == 0) return;
  if (c.variant & kVariantWindowScalar) {
    s.add({.op = I::sync_roundtrip});
    s.add({.op = I::scalar_elem, .repeats = 1});
    s.add({.op = I::sync_roundtrip});
    return;
  }
  const bool on_block = big.offset % 32 == 0;
  if (w.boxed) {  // NZ: one copy of the column stripes, the last one whole
    A2A3(s, es).ub_copy(rows * ceil_div(std::uint64_t(w.valid_cols) * es, 32) * 32, 1);
    return;
  }
  if (on_block && (c.variant & kVariantWindowAligned)) {
    A2A3(s, es).ub_copy(rows * std::uint64_t(w.valid_cols) * es, 1);
    return;
  }
  A5 p(s, es);
  const std::uint64_t n = rows * ceil_div(std::uint64_t(w.valid_cols), epr);
  p.add(I::vloop, rows);
  p.add(I::vlds, on_block || Insert ? n : 2 * n);
  p.add(I::vsts, on_block || !Insert ? n : n + rows);
}

// TCONCAT: per row, src0's elements by loads and predicated stores, then src1's by loads, an index ramp
// (vci) and vscatter; the index forms first read the two counts on the scalar unit (a2a3::concat_counts
// prices them as full rows).
inline void tconcat(const ExecContext& c, IntrinsicStream& s) {
  const a2a3::ConcatCounts n = a2a3::concat_counts(c);
  if (n.rows == 0) return;
  const std::uint64_t es = c.ops[0].tile.elem_bytes(), epr = 256 / es;
  A5 p(s, es);
  if (c.nops > 3) s.add({.op = I::scalar_elem, .repeats = std::uint32_t(n.rows * (c.nops == 6 ? 3 : 2))});
  p.add(I::vloop, n.rows);
  const std::uint64_t k0 = n.rows * ceil_div(n.n0, epr), k1 = n.rows * ceil_div(n.n1, epr);
  p.add(I::vlds, k0 + k1);
  p.add(I::vsts, k0);
  p.add(I::vci, k1);
  p.add(I::vscatter, k1);
}
}  // namespace a5

}  // namespace pto::plan
