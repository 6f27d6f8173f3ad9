// The intrinsic streams of TQUANT and TDEQUANT, as their NPU code issues them (pto-isa a2a3 TQuant.hpp,
// TDequant.hpp; a5 TQuant.hpp, TDeQuant.hpp); the cost of each intrinsic is the pipeline model's table.
#pragma once
#include "planner.hpp"

namespace pto::plan {

namespace a2a3 {
// TQUANT INT8: TROWEXPANDMUL of src by the ColMajor scale in place (vbrcb into tmp, then vmul), for
// ASYM a TROWEXPANDADD of the offset the same way, then three TCVTs: fp32 -> int32 into tmp, int32 ->
// fp16 into src's bytes, fp16 -> int8 into dst; a barrier after each step.
inline void tquant_int8(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = dst_of(c);
  TileView x = src_of(c);
  x.valid_cols = d.valid_cols;  // the record widens src to whole rows (its write footprint)
  A2A3 p(s, 4);
  p.rowexpand(I::vmul, false, x, x, false);
  s.barrier();
  if (c.op == Op::TQUANT_ASYM) {
    p.rowexpand(I::vadd, false, x, x, false);
    s.barrier();
  }
  TileView i32 = x, f16 = x;
  i32.dtype = DType::I32;
  f16.dtype = DType::F16;
  f16.row_stride = (x.cols + 15) / 16 * 16;
  f16.cols = f16.row_stride;
  auto cvt = [&](const TileView& to, const TileView& from) {
    Operand ops[2];
    ops[0].kind = ops[1].kind = Operand::Kind::Tile;
    ops[0].tile = to;
    ops[1].tile = from;
    ExecContext sub{.ops = ops, .nops = 2, .target = Target::A2A3, .op = Op::TCVT};
    convert(sub, s);
    s.barrier();
  };
  cvt(i32, x);
  cvt(f16, i32);
  cvt(d, f16);
}

// TDEQUANT: per row the widening to fp32 under a counter mask (int8: vconv to fp16, then to fp32;
// int16: one vconv), a barrier after each; then per row a V -> S -> V round trip to read the row's
// offset and scale, vadds of -offset and vmuls by the scale, each behind a barrier.
inline void tdequant(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = dst_of(c);
  const bool b8 = src_of(c).elem_bytes() == 1;
  const std::uint64_t C = std::uint64_t(d.valid_cols);
  A2A3 f32(s, 4), f16(s, 2);
  for (int r = 0; r < d.valid_rows; ++r) {
    if (b8) {
      f16.count(I::vconv, C);
      s.barrier();
    }
    f32.count(I::vconv, C);
    s.barrier();
  }
  for (int r = 0; r < d.valid_rows; ++r) {
    s.add({.op = I::sync_roundtrip, .repeats = 2});
    f32.count(I::vadds, C);
    s.barrier();
    f32.count(I::vmuls, C);
    s.barrier();
  }
}
}  // namespace a2a3

namespace a5 {
// TQUANT INT8: per row and 64-element chunk a predicate, the scale's broadcast load (and the offset's),
// the source load, vmul (and vadd), four vcvt (fp32 -> int32 -> fp32 -> fp16 -> int8) and a packed store.
inline void tquant_int8(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = dst_of(c);
  const bool asym = c.op == Op::TQUANT_ASYM;
  const std::uint64_t R = std::uint64_t(d.valid_rows), n = R * ceil_div(std::uint64_t(d.valid_cols), 64);
  A5 p(s, 4);
  p.add(I::vloop, R);
  p.add(I::plt, n);
  p.add(I::vlds, n * (asym ? 3 : 2));
  p.add(I::vmul, n);
  if (asym) p.add(I::vadd, n);
  p.add(I::vcvt, 4 * n);
  p.add(I::vsts, n);
}

// TQUANT, MX forms: three passes of one vector function (mem_bar between them), counted as a5
// TQuant.hpp issues them. Pass 1, the group maxima: fp32 per 64 elements a predicate, a load, vabs, a
// select of the active lanes, two 32-lane vcmax and their stores; 16-bit per 256 elements two
// predicates, a de-interleaving load, the sign mask (vbr, two vand), vmax, vcgmax and a store (fp16
// under OCP also its truncation to bf16: 5 vbr, 6 vand, 6 vcmp, 2 vcvt, 4 vsel). Pass 2, the exponents
// and scalings: per vector of groups (64 for fp32, 128 for 16-bit; one group at a time with a
// several-row exp tile) a load, exponent extraction and the special cases (OCP 2 vand, vshr, 2 vsub,
// vshl, 3 vcmp, 4 vsel; NV adds a vmuls, a vadds, 2 vcmp and a vsel) and two stores. Pass 3, the cast:
// fp32 per 64 elements a predicate, two broadcast loads and the source load, 2 vmul, vor, vcvt, a store;
// 16-bit to e4m3 per 256 elements 7 predicates, 2 loads, 2 vmul (fp16: 4 and 5 widening vcvt), 8 vcvt,
// 3 vor, a store; bf16 to e2m1 per 256 2 loads, 2 vmul, 4 vbr, 2 vand, 2 vcmp, 2 vsel, vintlv, 2 vcvt,
// 2 stores; fp16 to e2m1 per 256 the software rounding (2 loads, 5 vcvt, 4 vmul, 24 vand, 24 vadd, 16
// vshr, 12 vsel, 12 vor, vintlv, a store).
inline void tquant_mx_dn(const ExecContext& c, IntrinsicStream& s);
inline void tquant_mx(const ExecContext& c, IntrinsicStream& s) {
  if (c.variant & kVariantMxDn) return tquant_mx_dn(c, s);
  const TileView& src = src_of(c);
  const bool fp4 = c.variant & kVariantMxFp4, nv = c.variant & kVariantMxNv, exp2d = c.variant & kVariantMxExp2D;
  const DType t = src.dtype;
  const bool b16 = t != DType::F32;
  const std::uint64_t R = std::uint64_t(src.valid_rows), C = std::uint64_t(src.cols);
  const std::uint64_t vc = std::uint64_t(c.scalar.as<int>()), groups = exp2d ? ceil_div(vc, 32) : C / 32;
  const std::uint64_t N = R * (exp2d ? groups * 32 : C), n = R * groups;
  A5 p(s, b16 ? 2 : 4);
  if (!b16) {
    const std::uint64_t k = ceil_div(N, 64);
    p.add(I::plt, 2 * k);
    p.add(I::vlds, 4 * k);
    p.add(I::vabs, k);
    p.add(I::vsel, k);
    p.add(I::vcmax, 2 * k);
    p.add(I::vmul, 2 * k);
    p.add(I::vor, k);
    p.add(I::vcvt, k);
    p.add(I::vsts, 3 * k);
  } else {
    const std::uint64_t k = ceil_div(N, 256);
    const bool f16 = t == DType::F16;
    p.add(I::plt, 2 * k + (fp4 ? 0 : 7 * k));
    p.add(I::vlds, 3 * k);
    p.add(I::vbr, k + (f16 && !nv ? 5 * k : 0) + (fp4 && !f16 ? 4 * k : 0));
    p.add(I::vand, 2 * k + (f16 && !nv ? 6 * k : 0) + (fp4 ? (f16 ? 24 * k : 2 * k) : 0));
    p.add(I::vmax, k);
    p.add(I::vcgmax, k);
    p.add(I::vcmp, (f16 && !nv ? 6 * k : 0) + (fp4 && !f16 ? 2 * k : 0));
    p.add(I::vsel, (f16 && !nv ? 4 * k : 0) + (fp4 ? (f16 ? 12 * k : 2 * k) : 0));
    p.add(I::vmul, (f16 ? 4 : 2) * k);
    p.add(I::vcvt, (f16 && !nv ? 2 * k : 0) + (fp4 ? (f16 ? 5 : 2) * k : (f16 ? 13 : 8) * k));
    if (fp4 && f16) {
      p.add(I::vadd, 24 * k);
      p.add(I::vshr, 16 * k);
    }
    p.add(I::vor, fp4 ? (f16 ? 12 * k : 0) : 3 * k);
    if (fp4) p.add(I::vintlv, k);
    p.add(I::vsts, 2 * k + (fp4 && !f16 ? k : 0));
  }
  // pass 2: per vector of groups, or per group with a several-row exp tile
  const std::uint64_t v = exp2d ? n : ceil_div(n, b16 ? 128 : 64);
  p.add(I::vlds, v);
  p.add(I::vand, 2 * v);
  p.add(I::vshr, v);
  p.add(I::vsub, 2 * v);
  p.add(I::vshl, v);
  p.add(I::vcmp, (nv ? 5 : 3) * v);
  p.add(I::vsel, (nv ? 5 : 4) * v);
  if (nv) {
    p.add(I::vmuls, v);
    p.add(I::vadds, v);
  }
  p.add(I::vsts, 2 * v);
  if (exp2d) p.add(I::vloop, R);
}

// TQUANT, MX DN grouping (a5 TQuant.hpp's *_DN functions), after the 16-bit pad zeroing (a store per
// 128 pad columns of each valid row, and one to flush). Pass 1, per vector of columns (64 fp32, 128
// 16-bit) and group: 4 vbr, 32 row loads, 32 vabs or vand and 35 vmax, a store (fp16 under OCP also
// the bf16 truncation per pair of loads: 5 vbr, 6 vand, 6 vcmp, 2 vcvt, 4 vsel). Pass 2, per group and
// vector of maxima (64, or 128 for 16-bit OCP): ND's exponent stream; the interleaved store pairs the
// groups' exponents (vshl, vor, one store for two; fp32 stages them in dst and pairs them in a fourth
// pass of 2 loads, vshl, vor and a store per pair and 128 columns). Pass 3, per vector of columns and
// group a scaling load (16-bit FP8 and fp16 FP4: 2 widening vcvt), then per row: fp32 vlds, vmul,
// vcvt, vsts; 16-bit FP8 vlds, 4 vcvt, 2 vmul, vor, vsts; bf16 FP4 vlds, vmul, vcmp, vsel, vcvt, vsts;
// fp16 FP4 vlds, 2 vcvt, 2 vmul, the software rounding of two fp32 vectors (12 vand, 12 vadd, 8 vshr,
// 6 vsel, 6 vor), vintlv and a store (through a scratch vector when Cols / 2 is not a multiple of 32:
// 2 more stores and a load).
inline void tquant_mx_dn(const ExecContext& c, IntrinsicStream& s) {
  const TileView& src = src_of(c);
  const bool fp4 = c.variant & kVariantMxFp4, nv = c.variant & kVariantMxNv, inter = c.variant & kVariantMxInterleave;
  const DType t = src.dtype;
  const bool b16 = t != DType::F32, f16 = t == DType::F16;
  const std::uint64_t vc = c.scalar.bits & 0xFFFFFFFFu, vr = c.scalar.bits >> 32, sc = std::uint64_t(src.cols);
  const std::uint64_t groups = std::uint64_t(src.valid_rows) / 32, vl = b16 ? 128 : 64;
  A5 p(s, b16 ? 2 : 4);
  if (b16 && vc < sc) p.add(I::vsts, vr * (ceil_div(sc - vc, 128) + 1));
  // pass 1: the group maxima
  const std::uint64_t n1 = ceil_div(vc, vl) * groups;
  p.add(I::plt, ceil_div(vc, vl));
  p.add(I::vbr, 4 * n1 + (f16 && !nv ? 80 * n1 : 0));
  p.add(I::vlds, 32 * n1);
  p.add(b16 ? I::vand : I::vabs, 32 * n1);
  p.add(I::vmax, 35 * n1);
  if (f16 && !nv) {
    p.add(I::vand, 96 * n1);
    p.add(I::vcmp, 96 * n1);
    p.add(I::vcvt, 32 * n1);
    p.add(I::vsel, 64 * n1);
  }
  p.add(I::vsts, n1);
  // pass 2: the exponents and scalings
  const std::uint64_t v = groups * ceil_div(vc, b16 && !nv ? 128 : 64);
  p.add(I::vlds, v);
  p.add(I::vand, 2 * v);
  p.add(I::vshr, v);
  p.add(I::vsub, 2 * v);
  p.add(I::vshl, v);
  p.add(I::vcmp, (nv ? 5 : 3) * v);
  p.add(I::vsel, (nv ? 5 : 4) * v);
  if (nv) {
    p.add(I::vmuls, v);
    p.add(I::vadds, v);
  }
  if (inter && b16) {
    p.add(I::vshl, v / 2);
    p.add(I::vor, v / 2);
    p.add(I::vsts, v + v / 2);
  } else {
    p.add(I::vsts, 2 * v);
  }
  if (inter && !b16) {
    const std::uint64_t w = groups / 2 * ceil_div(vc, 128);
    p.add(I::vlds, 2 * w);
    p.add(I::vshl, w);
    p.add(I::vor, w);
    p.add(I::vsts, w);
  }
  // pass 3: the codes
  const std::uint64_t g3 = ceil_div(vc, vl) * groups, r3 = 32 * g3;
  p.add(I::vlds, g3 + r3);
  if (b16 && (!fp4 || f16)) p.add(I::vcvt, 2 * g3);
  if (!b16) {
    p.add(I::vmul, r3);
    p.add(I::vcvt, r3);
    p.add(I::vsts, r3);
  } else if (!fp4) {
    p.add(I::vcvt, 4 * r3);
    p.add(I::vmul, 2 * r3);
    p.add(I::vor, r3);
    p.add(I::vsts, r3);
  } else if (!f16) {
    p.add(I::vmul, r3);
    p.add(I::vcmp, r3);
    p.add(I::vsel, r3);
    p.add(I::vcvt, r3);
    p.add(I::vsts, r3);
  } else {
    const bool scratch = (sc / 2) % 32 != 0;
    p.add(I::vcvt, 2 * r3);
    p.add(I::vmul, 2 * r3);
    p.add(I::vand, 12 * r3);
    p.add(I::vadd, 12 * r3);
    p.add(I::vshr, 8 * r3);
    p.add(I::vsel, 6 * r3);
    p.add(I::vor, 6 * r3);
    p.add(I::vintlv, r3);
    p.add(I::vsts, (scratch ? 3 : 1) * r3);
    if (scratch) p.add(I::vlds, r3);
  }
}

// TDEQUANT: per row the scale's and offset's broadcast loads; per 64-element chunk an unpacking load,
// the widening vcvt (int8: two), vsub, vmul and a store.
inline void tdequant(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = dst_of(c);
  const bool b8 = src_of(c).elem_bytes() == 1;
  const std::uint64_t R = std::uint64_t(d.valid_rows), n = R * ceil_div(std::uint64_t(d.valid_cols), 64);
  A5 p(s, 4);
  p.add(I::vloop, R);
  p.add(I::vlds, 2 * R + n);
  p.add(I::vcvt, (b8 ? 2 : 1) * n);
  p.add(I::vsub, n);
  p.add(I::vmul, n);
  p.add(I::vsts, n);
}
}  // namespace a5

}  // namespace pto::plan
