// The intrinsic streams of the generators (TCI, TTRI), as their NPU code issues them (pto-isa a2a3 TCI.hpp,
// a5 Tci.hpp); the cost of each intrinsic is the pipeline model's table.
#pragma once
#include "planner.hpp"

namespace pto::plan {

namespace a2a3 {
// TCI without tmp: the scalar unit stores start +- j, one element at a time. With tmp (integers): the
// base vector 0..E-1 built in float (a vector_dup per 8 lanes, vcgadd, vmuls, vbrcb, vadd, vconv to
// the integer type; 16-bit: twice the dups and group sums and a second vconv), then per repeat of E
// lanes one vadds of start + E * r (a masked one for the tail), and for the descending order the
// negation (vmuls by -1); a barrier between the steps.
inline void tci(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = dst_of(c);
  const std::uint64_t C = std::uint64_t(d.valid_cols);
  if (!(c.variant & kVariantTciTmp)) {
    s.add({.op = I::scalar_elem, .repeats = std::uint32_t(C)});
    return;
  }
  const bool b16 = d.elem_bytes() == 2, desc = c.variant & kVariantDescending;
  const std::uint64_t E = b16 ? 128 : 64, reps = C / E, rem = C % E;
  A2A3 f(s, 4), t(s, d.elem_bytes());
  f.norm(I::vector_dup, 1, 8, b16 ? 16 : 8);
  s.barrier();
  f.norm(I::vcgadd, 1, 64, b16 ? 2 : 1);
  s.barrier();
  if (b16) {
    f.norm(I::vconv, 1, 16);
    s.barrier();
  }
  f.norm(I::vmuls, 1, 8, b16 ? 1 : 8);
  s.barrier();
  f.norm(I::vbrcb, 1);
  s.barrier();
  f.norm(I::vadd, reps ? 8 : 1, 0, b16 ? 8 : 1);
  s.barrier();
  if (reps) {
    t.norm(I::vconv, 1);
    s.barrier();
    t.norm(I::vadds, 1, 0, std::uint32_t(reps));
    if (rem) t.norm(I::vadds, 1, rem);
  } else {
    t.count(I::vconv, C);
    s.barrier();
    t.count(I::vadds, C);
  }
  if (desc) {
    s.barrier();
    t.count(I::vmuls, C);
  }
}

// TTRI: in counter mode, per valid row a vector_dup of the background (upper: 1, lower: 0) over the
// row, a barrier, then where i + diagonal >= 0 a vector_dup of the other value over the triangle's
// part of the row (lower: i + diagonal + 1 elements, upper: i + diagonal, at most the row), a barrier.
inline void ttri(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = dst_of(c);
  const bool upper = c.variant & kVariantUpper;
  const std::int64_t diag = c.scalar.as<std::int32_t>(), C = d.valid_cols;
  A2A3 p(s, d.elem_bytes());
  for (std::int64_t i = 0; i < d.valid_rows && C > 0; ++i) {
    p.count(I::vector_dup, std::uint64_t(C));
    s.barrier();
    if (i + diag < 0) continue;
    p.count(I::vector_dup, std::uint64_t(std::min(C, upper ? i + diag : i + diag + 1)));
    s.barrier();
  }
}
}  // namespace a2a3

namespace a5 {
// TCI: one vector function, per chunk of 256 / sizeof(T) lanes a vci of its base and a predicated store.
inline void tci(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = dst_of(c);
  A5 p(s, d.elem_bytes());
  const std::uint64_t chunks = ceil_div(std::uint64_t(d.valid_cols), 256 / d.elem_bytes());
  p.add(I::plt, chunks);
  p.add(I::vci, chunks);
  p.add(I::vsts, chunks);
}

// TRANDOM: the splats of key, counter and constants, vci and the lane add; then per row and 256-element
// chunk the Philox rounds (2 vmull, 4 vxor, 2 vadds each), 4 vintlv, 4 predicated stores and the
// counter's advance (a splat, 4 carry adds).
inline void trandom(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = dst_of(c);
  const std::uint64_t n = std::uint64_t(d.valid_rows) * ceil_div(std::uint64_t(d.valid_cols), 256);
  const std::uint64_t rounds = c.variant & kVariantRounds7 ? 7 : 10;
  A5 p(s, 4);
  p.add(I::vbr, 9 + n);
  p.add(I::vci, 1);
  p.add(I::vaddc, 4 + 4 * n);
  p.add(I::vmull, 2 * rounds * n);
  p.add(I::vxor, 4 * rounds * n);
  p.add(I::vadds, 2 * rounds * n);
  p.add(I::vintlv, 4 * n);
  p.add(I::plt, 4 * n);
  p.add(I::vsts, 4 * n);
  p.add(I::vloop, std::uint64_t(d.valid_rows));
}

// THISTOGRAM: per row the filter-byte loads (one broadcast each) and four bin resets, per 256-element
// chunk two predicates, the byte loads (uint16: one deinterleaving load; uint32: two and two vdintlv),
// the filter compares, two chistv2, four vcvt, four vadd and two resets; per row two interleaved stores.
inline void thistogram(const ExecContext& c, IntrinsicStream& s) {
  const TileView& src = c.ops[1].tile;
  const bool u16 = src.elem_bytes() == 2;
  const int byte = c.variant & 3;
  const std::uint64_t levels = std::uint64_t(u16 ? (byte == 0 ? 1 : 0) : 3 - byte);
  const std::uint64_t R = std::uint64_t(src.valid_rows), n = R * ceil_div(std::uint64_t(src.valid_cols), 256);
  A5 p(s, 1);
  p.add(I::vbr, 2 + 4 * R + 2 * n);
  p.add(I::vlds, (u16 ? R : levels) + (u16 ? 1 : 2) * n);
  if (!u16) p.add(I::vdintlv, 2 * n);
  if (levels) p.add(I::vcmp, levels * n);
  p.add(I::plt, 2 * n);
  p.add(I::chistv2, 2 * n);
  p.add(I::vcvt, 4 * n);
  p.add(I::vadd, 4 * n);
  p.add(I::vsts, 2 * R);
  p.add(I::vloop, R);
}

// TTRI: two splats, then per valid row a store per 256-byte chunk of the background, and per row of the
// triangle's part (from the first row it reaches) a predicated store per chunk.
inline void ttri(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = dst_of(c);
  const bool upper = c.variant & kVariantUpper;
  const std::int64_t diag = c.scalar.as<std::int32_t>(), R = d.valid_rows;
  const std::uint64_t chunks = ceil_div(std::uint64_t(d.valid_cols), 256 / d.elem_bytes());
  const std::int64_t first = upper ? (diag > 0 ? 0 : 1 - diag) : std::max<std::int64_t>(0, -diag);
  A5 p(s, d.elem_bytes());
  p.add(I::vbr, 2);
  p.add(I::vloop, std::uint64_t(R));
  p.add(I::vsts, std::uint64_t(R) * chunks + std::uint64_t(std::max<std::int64_t>(0, R - first)) * chunks);
}
}  // namespace a5

}  // namespace pto::plan
