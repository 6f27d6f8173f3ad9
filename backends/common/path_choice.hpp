// The path choices the PTO algorithms make from the tile *types* (their static Rows, Cols, ValidRow,
// ValidCol; ValidCol is -1 for a dynamic valid shape, so `Cols == ValidCol` is false for it whatever
// the runtime valid width), shared by the device code paths (which run them) and the pipeline model's
// planner (which prices them when the CPU reference runs), so the two cannot choose differently.
#pragma once
#include <pto/isa/views.hpp>

namespace pto::device {

// A2/A3 TBinSInstr (include/pto/npu/a2a3/TBinSOp.hpp, `tileDataContinue`) and A5 BinaryInstr /
// TUnaryOp (include/pto/npu/a5/TBinSOp.hpp, TUnaryOp.hpp): one pass over R * C packed elements iff
// both types fix the valid width to the tile's Cols, or both tiles have one row.
inline bool static_contiguous(const TileView& d, const TileView& s) {
  return (d.static_full_cols() && s.static_full_cols()) || (d.rows == 1 && s.rows == 1);
}

// A2/A3 TUnaryOp (include/pto/npu/a2a3/TUnaryOp.hpp): static_contiguous, or else, for two tiles of one
// shape, at run time when the valid rows are whole or there is one.
inline bool unary_one_level(const TileView& d, const TileView& s) {
  return static_contiguous(d, s) || (d.rows == s.rows && d.cols == s.cols && (d.valid_cols == d.cols || d.valid_rows == 1));
}

// A2/A3 ColExpandBinaryInstr (include/pto/npu/a2a3/TColExpandBinOp.hpp): norm mode (one repeat per row)
// iff dst's type fixes its valid width to Cols or dst has one row; else counter mode row by row.
inline bool colexpand_norm(const TileView& d) { return d.static_full_cols() || d.rows == 1; }

// A2/A3 TExpandS (include/pto/npu/a2a3/TExpandS.hpp): one counter-mode vector_dup over count * len
// elements when the type makes the lines contiguous (one line of capacity, or a static valid length
// equal to it), else at run time when there is one valid line or the valid length is static (then the
// chip fills count * len packed elements: with more lines and a shorter static length that is not the
// valid region, an error at issue, a2a3_expands_fills_wrong_elements).
inline bool expands_one_call(const TileView& d) {
  const TileLines l = lines_of(d);
  const bool static_len = d.row_major ? d.static_valid_cols : d.static_valid_rows;
  return l.cap_count == 1 || l.static_full || l.count == 1 || static_len;
}
inline bool a2a3_expands_fills_wrong_elements(const TileView& d) {
  const TileLines l = lines_of(d);
  return expands_one_call(d) && l.count > 1 && l.len != l.cap_len;
}

// Pure TROWEXPAND, A2/A3 TRowExpandBrcb (include/pto/npu/a2a3/TRowExpand.hpp): vbrcb for 16- and 32-bit
// elements from a [M, 1] ColMajor source into [M, BE] when both types' valid shapes are static and full.
inline bool rowexpand_brcb(const TileView& d, const TileView& s) {
  const std::size_t es = d.elem_bytes();
  return (es == 2 || es == 4) && d.static_full_rows() && d.static_full_cols() && s.static_full_rows() && s.static_full_cols() &&
         !s.row_major && s.cols == 1 && s.rows == d.rows && std::size_t(d.cols) * es == 32;
}

// A5 RowExpandBinaryInstr (include/pto/npu/a5/TRowExpandBinOp.hpp): a 1-D loop over the rows (no outer
// loop) when dst's Cols is under one register and its type makes the rows contiguous.
inline bool a5_rowexpand_one_d(const TileView& d) {
  return std::size_t(d.cols) * d.elem_bytes() < 256 && (d.static_full_cols() || d.rows == 1);
}

}  // namespace pto::device
