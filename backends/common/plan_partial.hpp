// The intrinsic streams of TPARTADD / TPARTMUL / TPARTMAX / TPARTMIN as their NPU code issues them
// (pto-isa a2a3 TPartOp.hpp, a5 TPartBinOps.hpp and Int64Reduce.hpp); each intrinsic's cost is the
// pipeline model's table (docs/compound.md).
#pragma once
#include "planner.hpp"

namespace pto::plan {

struct PartShape {
  std::uint64_t rows, cols, small_rows, small_cols;  // dst's valid region, the smaller source's
};
inline PartShape part_shape(const ExecContext& c) {
  const TileView &d = c.ops[0].tile, &a = c.ops[1].tile, &b = c.ops[2].tile;
  const bool a_big = a.valid_rows == d.valid_rows && a.valid_cols == d.valid_cols;
  const TileView& s = a_big ? b : a;
  return {std::uint64_t(d.valid_rows), std::uint64_t(d.valid_cols), std::uint64_t(s.valid_rows), std::uint64_t(s.valid_cols)};
}

namespace a2a3 {
// The op over R x C (TPartOps): counter mode, one call per row, when the rows are fewer than the calls
// norm mode needs; else norm mode, per 255 rows a call per whole repeat of a row, and one masked call
// for its tail. Copies are copy_ubuf_to_ubuf of each row's blocks (one call when the rows are whole).
template <I Op>
inline void tpart(const ExecContext& c, IntrinsicStream& s) {
  const PartShape p = part_shape(c);
  if (p.rows == 0 || p.cols == 0) return;
  const TileView& d = c.ops[0].tile;
  const std::uint64_t es = d.elem_bytes(), epr = 256 / es;
  A2A3 a(s, es);
  auto ops = [&](std::uint64_t R, std::uint64_t C) {
    if (R == 0 || C == 0) return;
    const std::uint64_t groups = ceil_div(R, 255);
    if (R < ceil_div(C, epr) * groups) return a.count(Op, C, std::uint32_t(R));
    a.norm(Op, std::uint32_t(std::min<std::uint64_t>(255, R)), 0, std::uint32_t(C / epr * groups));
    if (C % epr) a.norm(Op, std::uint32_t(std::min<std::uint64_t>(255, R)), C % epr, std::uint32_t(groups));
  };
  auto copy = [&](std::uint64_t rows) {
    if (rows == 0) return;
    if (p.cols == std::uint64_t(d.cols)) a.ub_copy(rows * p.cols * es, 1);
    else a.ub_copy(p.cols * es, std::uint32_t(rows));
  };
  if (p.small_rows == p.rows && p.small_cols == p.cols) return ops(p.rows, p.cols);
  if (p.small_cols == p.cols) {  // fewer rows: the op, then the rest of the rows copied
    ops(p.small_rows, p.cols);
    copy(p.rows - p.small_rows);
    return;
  }
  copy(p.rows);  // fewer columns: all of the larger source, then the op in place
  s.barrier();
  ops(p.small_rows, p.small_cols);
}

// TPARTARGMAX / TPARTARGMIN (TPartArgOps): per row and per 256-byte chunk of the compared region a vcmp,
// a barrier, a vsel of the values and one of the indices, a barrier. The rest is TPartArgCopyInstr's:
// per operand (values, indices) one copy of whole rows when dst's and the source's strides agree, else
// one per row.
inline void tpartarg(const ExecContext& c, IntrinsicStream& s) {
  const PartShape p = part_shape(c);
  if (p.rows == 0 || p.cols == 0) return;
  const TileView &d = c.ops[0].tile, &a = c.ops[1].tile;
  const std::uint64_t es = d.elem_bytes(), epr = 256 / es;
  const bool a_big = a.valid_rows == d.valid_rows && a.valid_cols == d.valid_cols;
  A2A3 v(s, es);
  auto ops = [&](std::uint64_t R, std::uint64_t C) {
    for (std::uint64_t chunk = 0; chunk < ceil_div(C, epr); ++chunk) {
      const std::uint64_t lanes = chunk + 1 == ceil_div(C, epr) ? C % epr : 0;
      for (std::uint64_t r = 0; r < R; ++r) {
        v.norm(I::vcmp, 1, lanes);
        s.barrier();
        v.norm(I::vsel, 1, lanes);
        v.norm(I::vsel, 1, lanes);
        s.barrier();
      }
    }
  };
  auto copy = [&](std::uint64_t rows) {  // rows of the covering source
    if (rows == 0) return;
    for (int k : {0, 3}) {
      const TileView& o = c.ops[k].tile;
      const TileView& src = c.ops[(a_big ? 1 : 2) + k].tile;
      const std::uint64_t xs = o.elem_bytes();
      A2A3 m(s, xs);
      if (o.row_stride == src.row_stride) m.ub_copy(rows * std::uint64_t(o.row_stride) * xs, 1);
      else m.ub_copy(p.cols * xs, std::uint32_t(rows));
    }
  };
  if (p.small_cols == p.cols) {  // the compare over the smaller source's rows, then the rest copied
    ops(p.small_rows, p.cols);
    copy(p.rows - p.small_rows);
    return;
  }
  copy(p.rows);  // fewer columns: all of the covering source, then the compare over the smaller one
  ops(p.small_rows, p.small_cols);
}
}  // namespace a2a3

namespace a5 {
// Equal regions: per chunk two loads, the op, a store. Otherwise per row of the smaller source its
// chunks as three loads, the op, a merge (vsel) and a store, the rest of the row's chunks and the rows
// below it as a load and a store of the larger source's.
template <I Op>
inline void tpart(const ExecContext& c, IntrinsicStream& s) {
  const PartShape p = part_shape(c);
  if (p.rows == 0 || p.cols == 0) return;
  const std::uint64_t es = c.ops[0].tile.elem_bytes(), epr = 256 / std::min<std::uint64_t>(es, 4);
  A5 a(s, es);
  a.add(I::vloop, p.rows);
  const std::uint64_t dc = ceil_div(p.cols, epr);
  if (p.small_rows == p.rows && p.small_cols == p.cols) {
    a.add(I::vlds, 2 * p.rows * dc);
    a.add(Op, p.rows * dc);
    a.add(I::vsts, p.rows * dc);
    return;
  }
  const std::uint64_t sc = ceil_div(p.small_cols, epr), op_chunks = p.small_rows * sc;
  const std::uint64_t copies = p.small_rows * (dc - sc) + (p.rows - p.small_rows) * dc;
  a.add(I::vlds, 3 * op_chunks + copies);
  a.add(Op, op_chunks);
  a.add(I::vsel, op_chunks);
  a.add(I::vsts, op_chunks + copies);
}

// TPARTARGMAX / TPARTARGMIN (TPartArgProc): per row of the smaller source and per chunk of its columns,
// the values' two loads, the compare, the select, the covering source's load, the merge and the store;
// the indices the same but for the compare (two registers of them beside 16-bit values). The rest of
// dst, value and index chunks alike, is a load and a store of the covering source's.
inline void tpartarg(const ExecContext& c, IntrinsicStream& s) {
  const PartShape p = part_shape(c);
  if (p.rows == 0 || p.cols == 0) return;
  const std::uint64_t es = c.ops[0].tile.elem_bytes(), epr = 256 / es;
  const std::uint64_t per = c.ops[3].tile.elem_bytes() > es ? 2 : 1;  // index registers per value register
  A5 a(s, es);
  a.add(I::vloop, p.rows);
  const std::uint64_t dc = ceil_div(p.cols, epr), sc = ceil_div(p.small_cols, epr), op_chunks = p.small_rows * sc;
  const std::uint64_t copies = (p.small_rows * (dc - sc) + (p.rows - p.small_rows) * dc) * (1 + per);
  a.add(I::vlds, 3 * op_chunks * (1 + per) + copies);
  a.add(I::vcmp, op_chunks);
  a.add(I::vsel, 2 * op_chunks * (1 + per));
  a.add(I::vsts, op_chunks * (1 + per) + copies);
}
}  // namespace a5

}  // namespace pto::plan
