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
