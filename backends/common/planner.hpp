// The stream planner: the intrinsic stream of a vector instruction derived from its operands' shapes
// alone, per target machine. The pipeline model prices an instruction by a recording run of its device
// algorithm; this planner serves the forms no device algorithm covers (ColMajor tile-scalar operands,
// 64-bit A5 division, ...), and a randomised test (test_cost_model) checks that the two agree where
// both exist. Static shape tests of the algorithms (Dst::Cols == Dst::ValidCol, ...) are taken on
// the tile type as the view carries it, through the predicates the device paths use
// (backends/common/path_choice.hpp); runtime tests on the runtime valid shape.
#pragma once
#include <algorithm>
#include <span>
#include <vector>

#include <pto/isa/error.hpp>
#include <pto/isa/intrinsics.hpp>
#include <pto/backends/kernel_abi.hpp>

#include "path_choice.hpp"

namespace pto::plan {

using I = Intrinsic;

inline std::uint32_t ceil_div(std::uint64_t a, std::uint64_t b) { return std::uint32_t((a + b - 1) / b); }

// A tile seen along its major direction: `lines` of `len` valid elements, `stride` elements apart.
using Lines = TileLines;

// ---------------------------------------------------------------------------------------------------
// A2/A3: the repeat machine.
class A2A3 {
public:
  A2A3(IntrinsicStream& s, std::size_t elem_bytes) : s_(s), es_(elem_bytes ? elem_bytes : 1), epr_(256 / es_), be_(32 / es_) {}

  void norm(I op, std::uint32_t repeats, std::uint64_t lanes = 0, std::uint32_t calls = 1) {
    if (repeats == 0 || calls == 0) return;
    s_.add({.op = op, .lanes = std::uint16_t(lanes), .repeats = repeats, .calls = calls});
  }
  void count(I op, std::uint64_t elems, std::uint32_t calls = 1) {
    if (elems == 0 || calls == 0) return;
    s_.add({.op = op, .count_mode = true, .lanes = std::uint16_t(elems % epr_), .repeats = ceil_div(elems, epr_), .calls = calls});
  }
  // Repeats over `rows` rows of C columns, the row-repeat way: one instruction per EPR-column chunk.
  void row_repeat(I op, std::uint32_t rows, int c) {
    norm(op, rows, 0, std::uint32_t(std::size_t(c) / epr_));
    if (std::size_t(c) % epr_) norm(op, rows, std::size_t(c) % epr_);
  }

  // The calls of the TBinSInstr / TUnaryOp drivers (§3.6), as shapes: `count` elements in counter
  // mode, or `repeats` norm repeats with `lanes` active in each (0: all); `calls` identical calls.
  struct Call {
    bool count_mode;
    std::uint64_t n;  // counter mode: elements; norm: repeats
    std::uint64_t lanes;
    std::uint32_t calls;
  };
  using Calls = std::vector<Call>;
  void one_level(Calls& out, std::uint64_t n, bool count_mode) {
    if (count_mode) {
      out.push_back({true, n, 0, 1});
      return;
    }
    if (n / epr_) out.push_back({false, n / epr_, 0, 1});
    if (n % epr_) out.push_back({false, 1, n % epr_, 1});
  }
  // Row-repeat, or head and tail passes (TBinSInstr's and TUnaryOp's shared tail of the decision).
  void row_passes(Calls& out, const Lines& d, const Lines& s, bool row_repeat, bool rows_beyond_255) {
    const auto rows = std::uint32_t(d.count);
    const std::size_t c = std::size_t(d.len);
    if (row_repeat) {
      if (c / epr_) out.push_back({false, rows, 0, std::uint32_t(c / epr_)});
      if (c % epr_) out.push_back({false, rows, c % epr_, 1});
      return;
    }
    std::size_t tail_from = 0;
    if (std::size_t(d.cap_count) > epr_) {
      const std::size_t per_row = c / epr_;
      if (per_row / 255) out.push_back({false, 255, 0, std::uint32_t(per_row / 255) * rows});
      if (per_row % 255) out.push_back({false, per_row % 255, 0, rows});
      tail_from = per_row * epr_;
    }
    if (tail_from >= c) return;
    const std::uint64_t lanes = c - tail_from;
    const bool overflow = std::size_t(d.step) / be_ > 255 || std::size_t(s.step) / be_ > 255;
    if (overflow) {
      out.push_back({false, 1, lanes, rows});
      return;
    }
    const std::uint32_t runs = rows_beyond_255 ? rows / 255 : 0, rest = rows - runs * 255;
    if (runs) out.push_back({false, 255, lanes, runs});
    if (rest) out.push_back({false, rest, lanes, 1});
  }
  // TBinSInstr (include/pto/npu/a2a3/TBinSOp.hpp): tile-scalar ops, TDIVS, TAXPY of one type.
  Calls tbins(const TileView& dst, const TileView& src) {
    const Lines d = lines_of(dst), s = lines_of(src);
    Calls out;
    if (device::static_contiguous(dst, src)) {
      const std::uint64_t total = ceil_div(std::uint64_t(d.cap_count) * d.cap_len, epr_);
      const bool non_aligned = d.cap_len % epr_ != 0 && std::size_t(d.cap_len) > epr_;
      one_level(out, std::uint64_t(d.count) * d.len, non_aligned || total > 255);
      return out;
    }
    const std::size_t ncr = std::size_t(d.cap_len) / epr_;
    const auto rows = std::uint32_t(d.count);
    if ((ncr > 1 && d.cap_count * ncr < 4 && s.cap_count * ncr < 4) ||
        (std::size_t(d.cap_count) < ncr + 1 && std::size_t(s.cap_count) < ncr + 1 && d.len % epr_)) {
      out.push_back({true, std::uint64_t(d.len), 0, rows});  // per-row counter mode
    } else if (std::size_t(d.cap_count) < ncr + 1 && std::size_t(s.cap_count) < ncr + 1) {
      out.push_back({false, std::uint64_t(d.len) / epr_, 0, rows});  // per-row norm mode
    } else {
      const bool row_repeat = d.cap_count <= 255 && d.step / be_ <= 255 && s.step / be_ <= 255;
      row_passes(out, d, s, row_repeat, d.cap_count > 255);
    }
    return out;
  }
  // TUnaryOp (include/pto/npu/a2a3/TUnaryOp.hpp): TEXP.
  Calls tunary(const TileView& dst, const TileView& src) {
    const Lines d = lines_of(dst), s = lines_of(src);
    Calls out;
    if (device::unary_one_level(dst, src)) {
      const std::uint64_t n = std::uint64_t(d.count) * d.len;
      const std::uint64_t cap = device::static_contiguous(dst, src) ? std::uint64_t(d.cap_count) * d.cap_len : n;
      one_level(out, n, ceil_div(cap, epr_) > 255);
      return out;
    }
    const std::size_t ncr = std::size_t(d.cap_len) / epr_;
    const auto rows = std::uint32_t(d.count);
    if ((ncr > 1 && d.cap_count * ncr < 4) || (std::size_t(d.cap_count) < ncr + 1 && d.len % epr_)) {
      out.push_back({true, std::uint64_t(d.len), 0, rows});
    } else if (std::size_t(d.cap_count) < ncr + 1) {
      out.push_back({false, std::uint64_t(d.len) / epr_, 0, rows});
    } else {
      const bool row_repeat = d.cap_count <= 255 && s.cap_count <= 255 && d.step / be_ <= 255 && s.step / be_ <= 255;
      row_passes(out, d, s, row_repeat, d.cap_count > 255 || s.cap_count > 255);
    }
    return out;
  }
  void emit(I op, const Call& c, std::uint32_t calls) {
    if (c.count_mode) count(op, c.n, calls);
    else norm(op, std::uint32_t(c.n), c.lanes, calls);
  }
  void elementwise(I op, const TileView& dst, const TileView& src) {
    for (const Call& c : tbins(dst, src)) emit(op, c, c.calls);
  }
  void unary(I op, const TileView& dst, const TileView& src) {
    for (const Call& c : tunary(dst, src)) emit(op, c, c.calls);
  }

  // TCOLEXPAND* (§3.2, §3.4).
  void colexpand(I op, bool expdif, const TileView& dst, const TileView& full) {
    const Lines d = lines_of(dst), f = lines_of(full);
    const auto rows = std::uint32_t(d.count);
    auto pair = [&](auto&& emit) {
      emit(op);
      if (expdif) {
        s_.barrier();
        emit(I::vexp);
      }
    };
    if (device::colexpand_norm(dst)) {  // norm mode
      if (std::size_t(d.step) < epr_ && std::size_t(f.step) < epr_) {
        pair([&](I o) { norm(o, rows, std::size_t(d.len)); });
      } else {
        for (std::size_t k = 0; k < std::size_t(d.len) / epr_; ++k) pair([&](I o) { norm(o, rows); });
        if (std::size_t(d.len) % epr_) pair([&](I o) { norm(o, rows, std::size_t(d.len) % epr_); });
      }
    } else {  // counter mode, one row at a time
      for (std::uint32_t i = 0; i < rows; ++i) pair([&](I o) { count(o, std::uint64_t(d.len)); });
    }
  }

  // TROWEXPAND* (§3.3, §3.4).
  void rowexpand(I op, bool expdif, const TileView& dst, const TileView& full, bool mode2) {
    const Lines d = lines_of(dst), f = lines_of(full);
    const int rows = d.count, c = d.len;
    const bool overflow = std::size_t(d.step) / be_ > 255 || std::size_t(f.step) / be_ > 255;
    const bool use_count = overflow || std::size_t(c) / epr_ > std::size_t(rows);
    auto tail = [&](int r) {  // NormModeTail
      if (std::size_t(d.step) < epr_ || std::size_t(f.step) < epr_) norm(op, std::uint32_t(r), std::size_t(c));
      else row_repeat(op, std::uint32_t(r), c);
    };
    auto body = [&](int r) {
      if (use_count) count(op, std::uint64_t(c), std::uint32_t(r));
      else tail(r);
    };
    if (mode2) {
      if (rows < 256) {
        body(rows);
      } else {
        for (int k = 0; k < rows / 255; ++k) tail(255);
        if (rows % 255) tail(rows % 255);
      }
    } else if (rows < 256) {
      norm(I::vbrcb, ceil_div(std::uint64_t(rows), 8));
      s_.barrier();
      body(rows);
    } else {
      const std::uint32_t rep = ceil_div(std::uint64_t(rows), 8), loops = rep / 30, rem = rep % 30;
      for (std::uint32_t k = 0; k < loops; ++k) {
        norm(I::vbrcb, 30);
        s_.barrier();
        tail(240);
        s_.barrier();
      }
      if (rem) {
        norm(I::vbrcb, rem);
        s_.barrier();
        tail(rows % 240);
      }
    }
    if (expdif) {
      s_.barrier();
      unary(I::vexp, dst, dst);
    }
  }

  // TAXPY float <- half (§3.5): 64 f32 lanes per repeat, src repeat 4 blocks.
  void axpy_widening(const TileView& dst, const TileView& src) {
    const Lines d = lines_of(dst), s = lines_of(src);
    const bool use_count = d.step / 8 > 255 || s.step / 16 > 255 || d.len / 64 > d.count;
    if (use_count) {
      count(I::vaxpy, std::uint64_t(d.len), std::uint32_t(d.count));
      return;
    }
    for (int done = 0; done < d.count; done += 255) {
      const auto r = std::uint32_t(std::min(255, d.count - done));
      if (d.step < 64 || s.step < 64) norm(I::vaxpy, r, std::size_t(d.len));
      else row_repeat(I::vaxpy, r, d.len);
    }
  }

  // TDIVS (§2.5): float, per TBinSInstr call: in place a vmuls by the reciprocal, else vector_dup, a
  // barrier and vdiv; integers divide element by element on the scalar unit between V->S and S->V flags.
  void divs(const TileView& dst, const TileView& src, bool scalar_first) {
    if (!is_float(dst.dtype)) {
      s_.add({.op = I::sync_roundtrip});  // V -> S before the loop, S -> V after it
      s_.add({.op = I::scalar_elem, .repeats = std::uint32_t(std::uint64_t(dst.valid_rows) * dst.valid_cols)});
      s_.add({.op = I::sync_roundtrip});
      return;
    }
    const bool in_place = !scalar_first && dst.base == src.base && dst.row_stride == src.row_stride;
    for (const Call& c : tbins(dst, src)) {
      if (in_place) {
        emit(I::vmuls, c, c.calls);
        continue;
      }
      for (std::uint32_t k = 0; k < c.calls; ++k) {
        emit(I::vector_dup, c, 1);
        s_.barrier();
        emit(I::vdiv, c, 1);
      }
    }
  }

  // TEXPANDS (§3.7): vector_dup in counter mode, one call when contiguous, else one per line.
  void expands(const TileView& dst) {
    const Lines d = lines_of(dst);
    const std::size_t widen = es_ == 1 ? 2 : 1;  // 8-bit values are duplicated as 16-bit lanes
    A2A3 lanes(s_, es_ * widen);                 // ... so repeats hold 16-bit lanes
    if (device::expands_one_call(dst)) lanes.count(I::vector_dup, (std::uint64_t(d.count) * d.len + widen - 1) / widen);
    else lanes.count(I::vector_dup, (std::uint64_t(d.len) + widen - 1) / widen, std::uint32_t(d.count));
  }

  // copy_ubuf_to_ubuf in whole 32-byte blocks: TMOV V2V (§2.8) and pure TCOLEXPAND (§3.2).
  void ub_copy(std::uint64_t bytes, std::uint32_t calls) {
    if (bytes == 0 || calls == 0) return;
    s_.add({.op = I::copy_ubuf_to_ubuf, .repeats = 1, .calls = calls, .bytes = (bytes + 31) / 32 * 32});
  }
  void tmov(const TileView& dst, const TileView& src) {
    const Lines d = lines_of(dst), s = lines_of(src);
    const int lines = std::min(d.count, s.count), len = std::min(d.len, s.len);
    if (d.cap_len == s.cap_len && d.cap_len == len) ub_copy(std::uint64_t(lines) * len * es_, 1);
    else ub_copy(std::uint64_t(len) * es_, std::uint32_t(lines));
  }

  // Pure TROWEXPAND (§3.3): vbrcb for a static [M,1] -> [M,BE] shape, else per row a scalar read
  // bracketed by V<->S flags and a counter-mode vector_dup.
  void rowexpand_pure(const TileView& dst, const TileView& src) {
    if (device::rowexpand_brcb(dst, src)) {
      const std::uint32_t rep = ceil_div(std::uint64_t(dst.rows) * dst.cols, 8 * be_);
      norm(I::vbrcb, 254, 0, rep / 254);
      norm(I::vbrcb, rep % 254);
      return;
    }
    const std::size_t widen = es_ == 1 ? 2 : 1;
    for (int i = 0; i < dst.valid_rows; ++i) {
      s_.add({.op = I::sync_roundtrip});
      A2A3(s_, es_ * widen).count(I::vector_dup, (std::uint64_t(dst.valid_cols) + widen - 1) / widen);  // 16-bit lanes
    }
  }

private:
  IntrinsicStream& s_;
  std::size_t es_, epr_, be_;
};

// ---------------------------------------------------------------------------------------------------
// A5: the register machine. Each instruction is one vector-function loop; the stream counts each
// intrinsic's issues over the whole loop.
class A5 {
public:
  A5(IntrinsicStream& s, std::size_t elem_bytes) : s_(s), es_(elem_bytes ? elem_bytes : 1), epr_(256 / es_) {}

  void add(I op, std::uint64_t n) {
    if (n) s_.add({.op = op, .repeats = std::uint32_t(n)});
  }
  // Iterations of a 2-D loop over lines x EPR chunks (64-bit elements: 32 per chunk, register pairs).
  // A 2-D loop also pays its outer (row) iterations: `vloop` per line, as the device algorithms count.
  std::uint64_t iterations_2d(const Lines& d) {
    add(I::vloop, std::uint64_t(d.count));
    return std::uint64_t(d.count) * ceil_div(std::uint64_t(d.len), es_ == 8 ? 32 : epr_);
  }
  // BinaryInstr / TUnaryOp: 1-D over R * C when the types make the rows contiguous; 64-bit elements
  // (Int64Scalar, Int64Fill) row by row.
  std::uint64_t iterations(const TileView& dst, const TileView& src) {
    const Lines d = lines_of(dst);
    const bool one_d = es_ != 8 && device::static_contiguous(dst, src);
    return one_d ? ceil_div(std::uint64_t(d.count) * d.len, epr_) : iterations_2d(d);
  }
  // The ALU issues one element-wise op takes per iteration (64-bit integers work on register pairs).
  void alu(I in, std::uint64_t n) {
    if (in == I::vexp && es_ == 2) n *= 2;  // a 16-bit vexp issues as two f32 halves (the TEXP f16 fit)
    if (es_ != 8 || in == I::vexp) {
      add(in, n);
      return;
    }
    switch (in) {
      case I::vadd: case I::vadds: add(I::vaddc, 2 * n); break;
      case I::vsub: add(I::vsubc, 2 * n); break;
      case I::vmul: case I::vmuls: add(I::vmull, 3 * n); break;
      case I::vmax: case I::vmin: case I::vmaxs: case I::vmins:
        add(I::vcmp, 2 * n);
        add(I::vsel, 2 * n);
        break;
      default: add(in, 2 * n);
    }
  }
  // Loads (stores) of one operand per iteration: 64-bit elements use a de-interleaving pair.
  std::uint64_t mem(std::uint64_t n) const { return es_ == 8 ? 2 * n : n; }

  void expdif_ops(const TileView& dst, std::uint64_t n) {
    if (dst.dtype == DType::F32) {
      add(I::vexpdif, n);
    } else {
      add(I::vsub, n);
      alu(I::vexp, n);
    }
  }

  void colexpand(I op, bool expdif, const TileView& dst) {
    const std::uint64_t n = iterations_2d(lines_of(dst));
    add(I::vlds, 2 * mem(n));
    if (expdif) expdif_ops(dst, n);
    else alu(op, n);
    add(I::vsts, mem(n));
  }
  void rowexpand(I op, bool expdif, const TileView& dst) {
    const Lines d = lines_of(dst);
    // 1-D (device::a5_rowexpand_one_d): the same iterations without the outer loop's.
    const std::uint64_t n = device::a5_rowexpand_one_d(dst) ? std::uint64_t(d.count) * ceil_div(std::uint64_t(d.len), epr_)
                                                            : iterations_2d(d);
    add(I::vlds, std::uint64_t(d.count) + n);  // one broadcast load per row, one full-operand load per chunk
    if (expdif) expdif_ops(dst, n);
    else alu(op, n);
    add(I::vsts, n);
  }
  void elementwise(I op, const TileView& dst, const TileView& src, bool reads_dst) {
    const std::uint64_t n = iterations(dst, src);
    add(I::vlds, mem(n) * (reads_dst ? 2 : 1));
    alu(op, n);
    add(I::vsts, mem(n));
  }
  void axpy(const TileView& dst, const TileView& src) {
    const std::uint64_t n = iterations_2d(lines_of(dst));
    add(I::vlds, 2 * n);
    if (src.dtype != dst.dtype) add(I::vcvt, n);
    add(I::vaxpy, n);
    add(I::vsts, n);
  }
  // Pure TCOLEXPAND: the outer loop walks row 0's 256-byte chunks (64-bit elements as 32-bit words), one
  // load each, stored into every row.
  void colexpand_pure(const TileView& dst) {
    const std::uint64_t chunks = ceil_div(std::uint64_t(dst.valid_cols) * es_, 256);
    add(I::vloop, chunks);
    add(I::vlds, chunks);
    add(I::vsts, chunks * std::uint64_t(dst.valid_rows));
  }
  // TMOV: a 2-D loop loading and storing each chunk once.
  void copy(const TileView& dst) {
    const std::uint64_t n = iterations_2d(lines_of(dst));
    add(I::vlds, mem(n));
    add(I::vsts, mem(n));
  }
  void stores_only(const TileView& dst, std::uint64_t loads, bool one_d = false) {
    add(I::vlds, loads);
    add(I::vsts, mem(one_d ? iterations(dst, dst) : iterations_2d(lines_of(dst))));
  }

private:
  IntrinsicStream& s_;
  std::size_t es_, epr_;
};

// ---------------------------------------------------------------------------------------------------
// Plan functions as the registry holds them (TargetImpl::plan), per family.
inline const TileView& dst_of(const ExecContext& c) { return c.ops[0].tile; }
inline const TileView& src_of(const ExecContext& c) { return c.ops[1].tile; }
// The full operand of a binary broadcast (src1 when the broadcast operand is src0).
inline const TileView& full_of(const ExecContext& c) {
  return (c.nops > 2 && (c.variant & kVariantSwap)) ? c.ops[2].tile : c.ops[1].tile;
}
inline std::size_t es_of(const ExecContext& c) { return dst_of(c).elem_bytes(); }

namespace a2a3 {
template <I Op, bool ExpDif>
void colexpand(const ExecContext& c, IntrinsicStream& s) { A2A3(s, es_of(c)).colexpand(Op, ExpDif, dst_of(c), full_of(c)); }
template <I Op, bool ExpDif>
void rowexpand(const ExecContext& c, IntrinsicStream& s) {
  A2A3(s, es_of(c)).rowexpand(Op, ExpDif, dst_of(c), full_of(c), c.variant & kVariantMode2);
}
inline void colexpand_pure(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = dst_of(c);
  A2A3(s, es_of(c)).ub_copy(std::uint64_t(d.valid_cols) * d.elem_bytes(), std::uint32_t(d.valid_rows));
}
inline void rowexpand_pure(const ExecContext& c, IntrinsicStream& s) { A2A3(s, es_of(c)).rowexpand_pure(dst_of(c), src_of(c)); }
template <I Op>
void elementwise(const ExecContext& c, IntrinsicStream& s) { A2A3(s, es_of(c)).elementwise(Op, dst_of(c), src_of(c)); }
inline void axpy(const ExecContext& c, IntrinsicStream& s) {
  A2A3 m(s, es_of(c));
  if (src_of(c).dtype != dst_of(c).dtype) m.axpy_widening(dst_of(c), src_of(c));
  else m.elementwise(I::vaxpy, dst_of(c), src_of(c));
}
inline void divs(const ExecContext& c, IntrinsicStream& s) {
  A2A3(s, es_of(c)).divs(dst_of(c), src_of(c), c.variant & kVariantScalarFirst);
}
inline void exp(const ExecContext& c, IntrinsicStream& s) { A2A3(s, es_of(c)).unary(I::vexp, dst_of(c), src_of(c)); }
inline void expands(const ExecContext& c, IntrinsicStream& s) { A2A3(s, es_of(c)).expands(dst_of(c)); }
inline void tmov(const ExecContext& c, IntrinsicStream& s) { A2A3(s, es_of(c)).tmov(dst_of(c), src_of(c)); }
// TSHL / TSHR (TShl.hpp, TShr.hpp): the scalar unit shifts element by element between a V->S and an
// S->V flag.
inline void scalar_shift(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = dst_of(c);
  s.add({.op = I::sync_roundtrip});
  s.add({.op = I::scalar_elem, .repeats = std::uint32_t(std::uint64_t(d.valid_rows) * std::uint64_t(d.valid_cols))});
  s.add({.op = I::sync_roundtrip});
}
// TCMP / TCMPS (TCmp.hpp, TCmps.hpp): per source row, vcmpv / vcmpvs over the row's repeats in calls
// of at most 240, full mask; NE then inverts the mask bytes with one counter-mode vnot (16-bit lanes
// over dst's rows).
inline void compare(const ExecContext& c, IntrinsicStream& s) {
  const TileView& a = src_of(c);
  A2A3 p(s, a.elem_bytes());
  const std::uint64_t reps = ceil_div(std::uint64_t(a.valid_cols), 256 / a.elem_bytes());
  for (int i = 0; i < a.valid_rows; ++i) {
    p.norm(I::vcmp, 240, 0, std::uint32_t(reps / 240));
    p.norm(I::vcmp, std::uint32_t(reps % 240));
  }
  if (cmp_mode_of(c.variant) == CmpMode::NE) {
    s.barrier();
    const TileView& d = dst_of(c);
    A2A3(s, 2).count(I::vnot, std::uint64_t(a.valid_rows) * std::uint64_t(d.row_stride) * d.elem_bytes() / 2);
  }
}


// TCVT (TCvt.hpp TCvtHead / TCvtTail): E = 256 / the wider element's bytes lanes per repeat (128 for
// int4b). Per row, the head's full repeats in calls of at most 255; then the tail's remaining columns
// under a continuous mask, one call per 255 rows. The tmp form with SaturationMode::OFF runs the
// PyTorch-compatible paths instead: f32 -> int16 two vconvs per call (to int32, saturating; then a
// wrapping narrow) with a barrier between; half -> int16 / int8 per row and 64-element sub-chunk 2 / 6
// single-repeat calls (vconv, vconv[, vector_dup, vand, vconv, vconv]), each behind a barrier.
// int32 -> half (vconv_deq) sets its scale behind a barrier first.
inline void convert(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = dst_of(c);
  const TileView& x = src_of(c);
  const bool packed = is_packed4(d.dtype) || is_packed4(x.dtype);
  const std::size_t wide = packed ? 2 : std::max(d.elem_bytes(), x.elem_bytes());
  A2A3 p(s, wide);
  const std::size_t epr = 256 / wide;
  const auto R = std::uint32_t(d.valid_rows);
  const std::size_t C = std::size_t(d.valid_cols), rpl = C / epr, rem = C % epr;
  const bool torch = (c.variant & kVariantCvtTmp) && cvt_sat_of(c.variant) == SaturationMode::OFF &&
                     (d.dtype == DType::I16 || d.dtype == DType::I8) && (x.dtype == DType::F32 || x.dtype == DType::F16);
  auto call = [&](std::uint32_t repeats, std::uint64_t lanes, std::uint32_t calls) {
    if (repeats == 0 || calls == 0) return;
    if (!torch) {
      if (x.dtype == DType::I32 && d.dtype == DType::F16) {
        for (std::uint32_t k = 0; k < calls; ++k) {
          s.barrier();
          p.norm(I::vconv, repeats, lanes);
        }
      } else {
        p.norm(I::vconv, repeats, lanes, calls);
      }
      return;
    }
    if (x.dtype == DType::F32) {
      for (std::uint32_t k = 0; k < calls; ++k) {
        p.norm(I::vconv, repeats, lanes);
        s.barrier();
        p.norm(I::vconv, repeats, lanes);
      }
      return;
    }
    const std::size_t per_row = lanes ? std::size_t(lanes) : 128, subs = (per_row + 63) / 64;
    const std::uint64_t last = per_row - (subs - 1) * 64;
    // The steps and their lanes per repeat: the int32 steps 64, the 16-bit and 8-bit ones 128.
    struct Step {
      I op;
      std::uint64_t epr;
    };
    static constexpr Step kTo16[] = {{I::vconv, 64}, {I::vconv, 64}};
    static constexpr Step kTo8[] = {{I::vconv, 64}, {I::vconv, 64}, {I::vector_dup, 128}, {I::vand, 128}, {I::vconv, 128}, {I::vconv, 128}};
    const std::span<const Step> steps = d.dtype == DType::I16 ? std::span<const Step>(kTo16) : std::span<const Step>(kTo8);
    for (std::uint64_t k = 0; k < std::uint64_t(calls) * repeats; ++k)
      for (std::size_t j = 0; j < subs; ++j) {
        const std::uint64_t n = j + 1 == subs ? last : 64;
        for (const Step& st : steps) {
          p.norm(st.op, 1, n % st.epr);
          s.barrier();
        }
      }
  };
  for (std::uint32_t i = 0; i < R; ++i) {  // TCvtHead
    call(255, 0, std::uint32_t(rpl / 255));
    call(std::uint32_t(rpl % 255), 0, 1);
  }
  if (rem) {  // TCvtTail
    call(255, rem, R / 255);
    call(R % 255, rem, 1);
  }
}
}  // namespace a2a3

namespace a5 {
template <I Op, bool ExpDif>
void colexpand(const ExecContext& c, IntrinsicStream& s) { A5(s, es_of(c)).colexpand(Op, ExpDif, dst_of(c)); }
template <I Op, bool ExpDif>
void rowexpand(const ExecContext& c, IntrinsicStream& s) { A5(s, es_of(c)).rowexpand(Op, ExpDif, dst_of(c)); }
inline void colexpand_pure(const ExecContext& c, IntrinsicStream& s) { A5(s, es_of(c)).colexpand_pure(dst_of(c)); }
inline void rowexpand_pure(const ExecContext& c, IntrinsicStream& s) {
  A5(s, es_of(c)).stores_only(dst_of(c), std::uint64_t(dst_of(c).valid_rows));
}
template <I Op>
void elementwise(const ExecContext& c, IntrinsicStream& s) { A5(s, es_of(c)).elementwise(Op, dst_of(c), src_of(c), false); }
inline void axpy(const ExecContext& c, IntrinsicStream& s) { A5(s, es_of(c)).axpy(dst_of(c), src_of(c)); }
inline void expands(const ExecContext& c, IntrinsicStream& s) { A5(s, es_of(c)).stores_only(dst_of(c), 0, true); }
inline void tmov(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = dst_of(c);
  if (!d.boxed) return A5(s, es_of(c)).copy(d);
  // ND -> NZ: per 256-byte column group and valid row, a load and a block-strided store (vsstb)
  A5 p(s, es_of(c));
  const std::uint64_t groups = ceil_div(std::uint64_t(d.valid_cols) * es_of(c), 256), n = groups * std::uint64_t(d.valid_rows);
  p.add(I::vloop, groups);
  p.add(I::vlds, n);
  p.add(I::vsts, n);
}
// TCMP / TCMPS (a5/TCmp.hpp, TCmps.hpp): per row and 256-byte chunk, the loads, a vcmp into a
// predicate register and its store (32-bit sources pair two chunks per store).
inline void compare(const ExecContext& c, IntrinsicStream& s) {
  const TileView& a = src_of(c);
  A5 p(s, a.elem_bytes());
  const std::uint64_t chunks = std::uint64_t(a.valid_rows) * ceil_div(std::uint64_t(a.valid_cols), 256 / a.elem_bytes());
  p.add(I::vloop, std::uint64_t(a.valid_rows));
  p.add(I::plt, chunks);
  p.add(I::vlds, (c.op == Op::TCMP ? 2 : 1) * chunks);
  p.add(I::vcmp, chunks);
  p.add(I::vsts, a.elem_bytes() == 4 ? (chunks + 1) / 2 : chunks);
}
// TSEL / TSELS (a5/TSel.hpp, TSels.hpp): per row and chunk the sources' loads, one vsel and the
// store, and a mask load per chunk (32-bit elements: one per pair of chunks, and the odd last chunk in
// a second row loop; its own load); TSELS splats its scalar once.
inline void select(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = dst_of(c);
  A5 p(s, d.elem_bytes());
  const std::uint64_t R = std::uint64_t(d.valid_rows), chunks = ceil_div(std::uint64_t(d.valid_cols), 256 / d.elem_bytes());
  std::uint64_t loops = R, masks = R * chunks;
  if (d.elem_bytes() == 4) {
    const std::uint64_t pairs = chunks / 2, odd = chunks % 2;
    loops = (pairs ? R : 0) + (odd ? R : 0);
    masks = R * (pairs + odd);
  }
  p.add(I::vloop, loops);
  p.add(I::plt, R * chunks);
  p.add(I::vlds, masks + (c.op == Op::TSEL ? 2 : 1) * R * chunks);
  p.add(I::vsel, R * chunks);
  p.add(I::vsts, R * chunks);
  if (c.op == Op::TSELS) p.add(I::vbr, 1);
}

// 64-bit TDIV (Int64Div: a float reciprocal estimate, Newton steps and two corrections per chunk) is
// not modelled intrinsic by intrinsic: priced as the binary loop with one vdiv per chunk, an underestimate.
inline void div64(const ExecContext& c, IntrinsicStream& s) { A5(s, es_of(c)).elementwise(I::vdiv, dst_of(c), src_of(c), true); }
// 64-bit reductions (Int64RowSum / Int64RowMinMax / Int64ColReduce: one register pair per row, at most
// 64 columns) are not modelled lane by lane. Rows: per row the de-interleaving load pair, three
// in-register reductions, and the sum's nine word operations (priced as vadd) or max/min's two
// compares and splats, a store pair. Columns: the load pair per row, the pair operation per row after
// the first, one store pair.
inline void row_reduce64(const ExecContext& c, IntrinsicStream& s) {
  A5 a(s, 8);
  const std::uint64_t R = std::uint64_t(src_of(c).valid_rows);
  a.add(I::vloop, R);
  a.add(I::vlds, 2 * R);
  a.add(c.op == Op::TROWSUM ? I::vcadd : c.op == Op::TROWMAX ? I::vcmax : I::vcmin, 3 * R);
  if (c.op == Op::TROWSUM) {
    a.add(I::vadd, 9 * R);
  } else {
    a.add(I::vcmp, 2 * R);
    a.add(I::vbr, 2 * R);
  }
  a.add(I::vsts, 2 * R);
}
inline void col_reduce64(const ExecContext& c, IntrinsicStream& s) {
  A5 a(s, 8);
  const std::uint64_t R = std::uint64_t(src_of(c).valid_rows);
  a.add(I::vlds, 2 * R);
  a.alu(c.op == Op::TCOLSUM ? I::vadd : I::vmax, R - 1);
  a.add(I::vsts, 2);
}

// TCVT (a5/TCvt.hpp): a 1-D loop over all R x C elements when both tiles are statically full width
// (or one row), else a loop per row (a vloop each). Per iteration 256 / the wider element's bytes
// elements: a load, a vcvt, a store and its predicate. The 2-D narrowing pairs de-interleave 512
// source bytes per iteration (two vcvts and a vor); 8-bit -> 32-bit and fp8 / hifloat8 -> f32
// interleave (two vcvts and stores per 128 elements); f32 -> fp8 / hifloat8 select the packed bytes
// (vsel); fp4 -> bf16 widens 256 nibbles per iteration in two halves; the 1-D SaturationMode::OFF
// paths of f32 / half -> int16 (two vcvts) and half -> int8 (three vcvts, a vector_dup, a vand).
inline void convert(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = dst_of(c);
  const TileView& x = src_of(c);
  A5 p(s, 1);
  const DType sd = x.dtype, dd = d.dtype;
  const bool one_d = (d.static_full_cols() && x.static_full_cols()) || (d.rows == 1 && x.rows == 1);
  const bool off = cvt_sat_of(c.variant) == SaturationMode::OFF;
  const std::size_t es = std::max(d.elem_bytes(), x.elem_bytes());
  std::size_t per = 256 / es;
  unsigned cvts = 1, stores = 1, extra_or = 0, sels = 0;
  const bool widen8 = x.elem_bytes() == 1 && d.elem_bytes() == 4;
  const bool narrow2d = !one_d && x.elem_bytes() > d.elem_bytes() && !is_narrow(dd) && sd != DType::I64;
  if (widen8) per = 128, cvts = 2, stores = 2, extra_or = 1;
  else if (is_packed4(sd)) per = 256, cvts = 2, stores = 2, extra_or = 1;
  else if (is_packed4(dd)) per = 128, sels = 1;
  else if (is_narrow(dd)) sels = x.elem_bytes() == 4;
  else if (narrow2d) per = 512 / x.elem_bytes(), cvts = 2, extra_or = 1;
  else if (one_d && off && dd == DType::I16) per = 64, cvts = 2;
  if (one_d && off && sd == DType::F16 && dd == DType::I8) per = 128, cvts = 3;
  const std::uint64_t R = std::uint64_t(d.valid_rows), C = std::uint64_t(d.valid_cols);
  std::uint64_t n;
  if (one_d) {
    n = ceil_div(R * C, per);
  } else {
    p.add(I::vloop, R);
    n = R * ceil_div(C, per);
  }
  p.add(I::plt, n);
  p.add(I::vlds, n);
  p.add(I::vcvt, cvts * n);
  if (extra_or) p.add(I::vor, n);
  if (sels) p.add(I::vsel, n);
  if (one_d && off && sd == DType::F16 && dd == DType::I8) {
    p.add(I::vector_dup, n);
    p.add(I::vand, n);
  }
  p.add(I::vsts, stores * n);
}
}  // namespace a5

}  // namespace pto::plan
