// PTO's A2/A3 algorithms (spec §3.2-3.7) written against the emulated vector unit: the same intrinsic
// calls, masks, repeats and strides as include/pto/npu/a2a3/*.hpp, so the bytes they write (also past
// the valid region) and the stream they issue are the chip's. No algorithm touches UB except through an
// intrinsic. Static shape tests of the originals (Dst::Cols == Dst::ValidCol, Rows < 256, ...) are
// taken on the tile type as the view carries it (capacity, and whether the valid shape is static:
// backends/common/path_choice.hpp), runtime tests on the runtime valid shape.
#pragma once
#include <cmath>
#include <cstring>
#include <type_traits>

#include <pto/common/constants.hpp>

#include "../common/path_choice.hpp"
#include "../common/fast_exp.hpp"
#include "../common/gather_index.hpp"
#include "vector_unit.hpp"

namespace pto::a2a3 {

using I = Intrinsic;

template <class T> constexpr unsigned kBE = 32 / sizeof(T);
template <class T> constexpr unsigned kEPR = 256 / sizeof(T);

// Lane functions run in the compute type (float for half: the unit rounds once when it stores).
using device::apply;
using device::Fn;
using device::intrinsic_of;

template <class T> T* at(const TileView& t, int r, int c) { return reinterpret_cast<T*>(t.base) + t.elem_offset(r, c); }

// The kernel-object layer: v<op>(dst, a, b, ...) with the vector unit's lane function for Fn.
// Lane functions take the compute type (float for half: the unit rounds once when it stores).
template <Fn F, class T>
void vbin(VectorUnit& vu, T* dst, const T* a, const T* b, unsigned repeat, Strides s) {
  vu.binary<T>(intrinsic_of(F), dst, a, b, repeat, s, [](auto x, auto y) { return apply<F, decltype(x)>(x, y); });
}
template <class T>
void vexp(VectorUnit& vu, T* dst, const T* src, unsigned repeat, Strides s) {
  vu.unary<T>(I::vexp, dst, src, repeat, s, [](auto x) { return decltype(x)(lanes::fast_expf(float(x))); });
}


// ---------------------------------------------------------------------------------------------------
// TCOLEXPAND* (§3.2, §3.4). `swap`: the vector operand is src0, so the math is v op f (Op2).
template <Fn F, bool ExpDif, class T>
void colexpand_op(VectorUnit& vu, const ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const bool swap = ctx.variant & kVariantSwap;
  const TileView& full = swap ? ctx.ops[2].tile : ctx.ops[1].tile;
  const TileView& vec = swap ? ctx.ops[1].tile : ctx.ops[2].tile;
  const int R = d.valid_rows, C = d.valid_cols;
  constexpr unsigned BE = kBE<T>, EPR = kEPR<T>;
  // One instruction (or an EXPDIF pair): Op puts the full operand first, Op2 the vector operand;
  // the vector operand has repeat stride 0, so every repeat (row) reads the same columns.
  // vrs: the vector operand's repeat stride, 0 in norm mode (every row reads row 0); counter mode
  // issues one row per call with contiguous strides (8, 8, 8).
  auto kernel = [&](T* dst, const T* f, const T* v, unsigned repeat, unsigned drs, unsigned frs, unsigned vrs) {
    if (!swap) vbin<F, T>(vu, dst, f, v, repeat, {1, 1, 1, drs, frs, vrs});
    else vbin<F, T>(vu, dst, v, f, repeat, {1, 1, 1, drs, vrs, frs});
    if constexpr (ExpDif) {
      vu.barrier();
      vexp<T>(vu, dst, dst, repeat, {1, 1, 1, drs, drs, 0});
    }
  };
  T* dst = at<T>(d, 0, 0);
  const T* f = at<T>(full, 0, 0);
  const T* v = at<T>(vec, 0, 0);
  if (device::colexpand_norm(d)) {  // norm mode: one repeat per row (the type says the rows are whole)
    // Repeat strides in blocks: uint8 fields the intrinsics check where a second repeat uses them.
    const unsigned drs = unsigned(d.row_stride) / BE, frs = unsigned(full.row_stride) / BE;
    if (unsigned(d.row_stride) < EPR && unsigned(full.row_stride) < EPR) {
      vu.set_cont_mask(unsigned(C));
      kernel(dst, f, v, unsigned(R), drs, frs, 0);
      vu.set_full_mask();
    } else {
      int c = 0;
      for (; c + int(EPR) <= C; c += int(EPR)) kernel(dst + c, f + c, v + c, unsigned(R), drs, frs, 0);
      if (c < C) {
        vu.set_cont_mask(unsigned(C - c));
        kernel(dst + c, f + c, v + c, unsigned(R), drs, frs, 0);
        vu.set_full_mask();
      }
    }
  } else {  // counter mode, one row at a time; the vector pointer stays on row 0
    vu.set_mask_count();
    vu.set_vector_count(std::uint64_t(C));
    for (int i = 0; i < R; ++i) kernel(at<T>(d, i, 0), at<T>(full, i, 0), v, 0, 8, 8, 8);
    vu.set_mask_norm();
    vu.set_full_mask();
  }
}

// TCOLEXPAND: per row, copy_ubuf_to_ubuf of whole 32-byte blocks of src row 0 (may write up to BE - 1
// elements past C).
inline void colexpand(VectorUnit& vu, const ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const TileView& s = ctx.ops[1].tile;
  const auto blocks = unsigned((std::size_t(d.valid_cols) * d.elem_bytes() + 31) / 32);
  for (int i = 0; i < d.valid_rows; ++i)
    vu.copy_ubuf_to_ubuf(d.base + d.elem_offset(i, 0) * std::ptrdiff_t(d.elem_bytes()), s.base, 1, blocks, 0, 0);
}

// Pure TROWEXPAND (§3.3): dst[i][j] = src[i][0]. A [M,1] ColMajor source into [M, BE], both valid
// shapes static and full, is one vbrcb per 8 rows (chunks of 254 repeats); otherwise, per row, the
// scalar unit reads src[i][0] between V<->S flags and a counter-mode vector_dup fills the row (8-bit
// values as 16-bit lanes: the value twice, ceil(C/2) lanes, so an odd C writes one element more).
inline void rowexpand_pure(VectorUnit& vu, const ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const TileView& s = ctx.ops[1].tile;
  const std::size_t es = d.elem_bytes(), be = 32 / es;
  if (device::rowexpand_brcb(d, s)) {
    const unsigned rep = unsigned(d.rows / 8);  // ColMajor [M,1]: M * es is a multiple of 32, so M of 8
    auto go = [&](auto u) {
      using U = decltype(u);
      U* dst = reinterpret_cast<U*>(d.base);
      const U* src = reinterpret_cast<const U*>(s.base);
      for (unsigned done = 0; done < rep; done += 254)
        vu.vbrcb<U>(dst + std::size_t(done) * 8 * be, src + std::size_t(done) * 8, 1, 8, std::min(254u, rep - done));
    };
    if (es == 2) go(std::uint16_t{});
    else go(std::uint32_t{});
    return;
  }
  auto rows = [&](auto u) {
    using U = decltype(u);  // the lane type: 8-bit elements go as 16-bit lanes
    const unsigned lanes = es == 1 ? unsigned((d.valid_cols + 1) / 2) : unsigned(d.valid_cols);
    for (int i = 0; i < d.valid_rows; ++i) {
      vu.scalar_round_trip();
      U v{};
      if (es == 1) {
        const auto b = vu.scalar_read(reinterpret_cast<const std::uint8_t*>(s.base) + s.elem_offset(i, 0));
        v = U(b | (b << 8));
      } else {
        v = vu.scalar_read(reinterpret_cast<const U*>(s.base) + s.elem_offset(i, 0));
      }
      vu.set_mask_count();
      vu.set_vector_count(lanes);
      vu.vector_dup<U>(reinterpret_cast<U*>(d.base + d.elem_offset(i, 0) * std::ptrdiff_t(es)), v, 0, Strides{});
      vu.set_mask_norm();
      vu.set_full_mask();
    }
  };
  if (es == 4) rows(std::uint32_t{});
  else rows(std::uint16_t{});
}

using Lines = TileLines;
inline std::byte* line(const TileView& t, const Lines& l, int a) { return t.base + std::ptrdiff_t(a) * l.step * std::ptrdiff_t(t.elem_bytes()); }

// TEXPANDS (§2.8, §3.7): counter-mode vector_dup, one call over count * len elements when the type
// makes the lines contiguous (or there is one line, or the valid length is static:
// device::expands_one_call), else one per line; 8-bit values as 16-bit lanes holding the byte twice
// (ceil(n / 2) lanes).
inline void expands(VectorUnit& vu, const ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const std::size_t es = d.elem_bytes();
  const Lines l = lines_of(d);
  auto fill = [&](auto u, auto value) {
    using U = decltype(u);
    auto lanes = [&](std::uint64_t n) { return es == 1 ? (n + 1) / 2 : n; };
    vu.set_mask_count();
    if (device::expands_one_call(d)) {
      vu.set_vector_count(lanes(std::uint64_t(l.count) * std::uint64_t(l.len)));
      vu.vector_dup<U>(reinterpret_cast<U*>(d.base), U(value), 0, Strides{});
    } else {
      vu.set_vector_count(lanes(std::uint64_t(l.len)));
      for (int a = 0; a < l.count; ++a) vu.vector_dup<U>(reinterpret_cast<U*>(line(d, l, a)), U(value), 0, Strides{});
    }
    vu.set_mask_norm();
    vu.set_full_mask();
  };
  if (es == 4) fill(std::uint32_t{}, ctx.scalar.as<std::uint32_t>());
  else if (es == 2) fill(std::uint16_t{}, ctx.scalar.as<std::uint16_t>());
  else fill(std::uint16_t{}, std::uint16_t(ctx.scalar.as<std::uint8_t>() * 0x101u));
}

// TMOV Vec -> Vec (§2.8): copy_ubuf_to_ubuf of whole 32-byte blocks, one burst when both tiles' lines
// are contiguous, else one per line (the last block of each line is copied whole).
inline void tmov(VectorUnit& vu, const ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const TileView& s = ctx.ops[1].tile;
  const Lines l = lines_of(d), ls = lines_of(s);
  const std::size_t bytes = std::size_t(l.len) * d.elem_bytes();
  if (l.cap_len == l.len && ls.cap_len == l.len) {
    vu.copy_ubuf_to_ubuf(d.base, s.base, 1, unsigned((bytes * std::size_t(l.count) + 31) / 32), 0, 0);
    return;
  }
  for (int a = 0; a < l.count; ++a) vu.copy_ubuf_to_ubuf(line(d, l, a), line(s, ls, a), 1, unsigned((bytes + 31) / 32), 0, 0);
}

// ---------------------------------------------------------------------------------------------------
// TBinSInstr (§3.6, include/pto/npu/a2a3/TBinSOp.hpp): one element-wise intrinsic over a tile (tile-
// scalar ops, TDIVS, TAXPY of one type). `issue(dst, src, repeat, strides)` is the intrinsic.
template <class T, class Issue>
void count_1level(VectorUnit& vu, T* dst, const T* src, std::uint64_t n, Issue& issue) {
  vu.set_mask_count();
  vu.set_vector_count(n);
  issue(dst, src, 0u, Strides{1, 1, 1, 8, 8, 8});
  vu.set_mask_norm();
  vu.set_full_mask();
}
template <class T, class Issue>
void norm_1level(VectorUnit& vu, T* dst, const T* src, std::uint64_t n, Issue& issue) {
  constexpr unsigned EPR = kEPR<T>;
  if (n / EPR) issue(dst, src, unsigned(n / EPR), Strides{1, 1, 1, 8, 8, 8});
  if (n % EPR) {
    vu.set_cont_mask(unsigned(n % EPR));
    issue(dst + n / EPR * EPR, src + n / EPR * EPR, 1u, Strides{1, 1, 1, 8, 8, 8});
    vu.set_full_mask();
  }
}
template <class T, class Issue>
void per_row_count(VectorUnit& vu, const TileView& d, const TileView& s, Issue& issue) {
  vu.set_mask_count();
  vu.set_vector_count(std::uint64_t(d.valid_cols));
  for (int i = 0; i < d.valid_rows; ++i) issue(at<T>(d, i, 0), at<T>(s, i, 0), 0u, Strides{1, 1, 1, 8, 8, 8});
  vu.set_mask_norm();
  vu.set_full_mask();
}
// The row-repeat / head / tail passes of both drivers once the per-row shortcuts are ruled out.
// `rows_beyond_255`: the static row count that splits the tail pass into 255-row runs (TBinS: dst's
// Rows; TUnaryOp: dst's or src's).
template <class T, class Issue>
void row_passes(VectorUnit& vu, const TileView& d, const TileView& s, bool row_repeat, bool rows_beyond_255, Issue& issue) {
  constexpr unsigned BE = kBE<T>, EPR = kEPR<T>;
  const int R = d.valid_rows, C = d.valid_cols;
  T* dst = at<T>(d, 0, 0);
  const T* src = at<T>(s, 0, 0);
  const unsigned drs = unsigned(d.row_stride) / BE, srs = unsigned(s.row_stride) / BE;
  if (row_repeat) {  // per EPR-column chunk one instruction with repeat = R
    int c = 0;
    for (; c + int(EPR) <= C; c += int(EPR)) issue(dst + c, src + c, unsigned(R), Strides{1, 1, 1, drs, srs, 8});
    if (c < C) {
      vu.set_cont_mask(unsigned(C - c));
      issue(dst + c, src + c, unsigned(R), Strides{1, 1, 1, drs, srs, 8});
      vu.set_full_mask();
    }
    return;
  }
  // Rows or strides beyond 8 bits: a head pass (whole EPR chunks per row, runs of <= 255 repeats)
  // when the tile has more rows than EPR, then a tail pass over the remaining columns: runs of 255
  // rows with repeat strides, or one row at a time when a stride does not fit its 8-bit field.
  int tail_from = 0;
  if (d.rows > int(EPR)) {
    for (int i = 0; i < R; ++i)
      for (unsigned done = 0; done < unsigned(C) / EPR; done += 255)
        issue(at<T>(d, i, int(done * EPR)), at<T>(s, i, int(done * EPR)), std::min(255u, unsigned(C) / EPR - done),
              Strides{1, 1, 1, 8, 8, 8});
    tail_from = C / int(EPR) * int(EPR);
  }
  if (tail_from >= C) return;
  const bool stride_overflow = drs > 255 || srs > 255;
  auto run = [&](int r0, int rows) {
    if (stride_overflow)
      for (int j = 0; j < rows; ++j) issue(at<T>(d, r0 + j, tail_from), at<T>(s, r0 + j, tail_from), 1u, Strides{1, 1, 1, 1, 1, 8});
    else
      issue(at<T>(d, r0, tail_from), at<T>(s, r0, tail_from), unsigned(rows), Strides{1, 1, 1, drs, srs, 8});
  };
  vu.set_cont_mask(unsigned(C - tail_from));
  int r0 = 0;
  if (rows_beyond_255)
    for (; r0 + 255 <= R; r0 += 255) run(r0, 255);
  if (r0 < R) run(r0, R - r0);
  vu.set_full_mask();
}

template <class T, class Issue>
void elementwise(VectorUnit& vu, const TileView& d, const TileView& s, Issue issue) {
  constexpr unsigned BE = kBE<T>, EPR = kEPR<T>;
  const int R = d.valid_rows, C = d.valid_cols;
  T* dst = at<T>(d, 0, 0);
  const T* src = at<T>(s, 0, 0);
  if (device::static_contiguous(d, s)) {  // tileDataContinue: one level over R * C packed elements
    const std::uint64_t n = std::uint64_t(R) * std::uint64_t(C);
    const std::uint64_t total = (std::uint64_t(d.rows) * std::uint64_t(d.cols) + EPR - 1) / EPR;
    const bool non_aligned = d.cols % int(EPR) != 0 && d.cols > int(EPR);
    if (non_aligned || total > 255) count_1level(vu, dst, src, n, issue);
    else norm_1level(vu, dst, src, n, issue);
    return;
  }
  const unsigned ncr = unsigned(d.cols) / EPR;
  if (ncr > 1 && unsigned(d.rows) * ncr < 4 && unsigned(s.rows) * ncr < 4) {
    per_row_count<T>(vu, d, s, issue);
  } else if (unsigned(d.rows) < ncr + 1 && unsigned(s.rows) < ncr + 1) {
    if (C % int(EPR)) per_row_count<T>(vu, d, s, issue);
    else
      for (int i = 0; i < R; ++i) issue(at<T>(d, i, 0), at<T>(s, i, 0), unsigned(C) / EPR, Strides{1, 1, 1, 8, 8, 8});
  } else {
    const bool row_repeat = d.rows <= 255 && unsigned(d.row_stride) / BE <= 255 && unsigned(s.row_stride) / BE <= 255;
    row_passes<T>(vu, d, s, row_repeat, d.rows > 255, issue);
  }
}

// TUnaryOp (§3.6, include/pto/npu/a2a3/TUnaryOp.hpp): TEXP. Like TBinSInstr, but two tiles of one shape
// also take the one-level path at run time when the valid rows are whole (device::unary_one_level), the
// one-level path has no non-aligned rule, and the per-row tests read dst's rows only.
template <class T, class Issue>
void unary(VectorUnit& vu, const TileView& d, const TileView& s, Issue issue) {
  constexpr unsigned BE = kBE<T>, EPR = kEPR<T>;
  const int R = d.valid_rows, C = d.valid_cols;
  if (device::unary_one_level(d, s)) {
    const std::uint64_t n = std::uint64_t(R) * std::uint64_t(C);
    const std::uint64_t cap = device::static_contiguous(d, s) ? std::uint64_t(d.rows) * std::uint64_t(d.cols) : n;
    if ((cap + EPR - 1) / EPR > 255) count_1level(vu, at<T>(d, 0, 0), at<T>(s, 0, 0), n, issue);
    else norm_1level(vu, at<T>(d, 0, 0), at<T>(s, 0, 0), n, issue);
    return;
  }
  const unsigned ncr = unsigned(d.cols) / EPR;
  if (ncr > 1 && unsigned(d.rows) * ncr < 4) {
    per_row_count<T>(vu, d, s, issue);
  } else if (unsigned(d.rows) < ncr + 1) {
    if (C % int(EPR)) per_row_count<T>(vu, d, s, issue);
    else
      for (int i = 0; i < R; ++i) issue(at<T>(d, i, 0), at<T>(s, i, 0), unsigned(C) / EPR, Strides{1, 1, 1, 8, 8, 8});
  } else {
    const bool row_repeat = d.rows <= 255 && s.rows <= 255 && unsigned(d.row_stride) / BE <= 255 && unsigned(s.row_stride) / BE <= 255;
    row_passes<T>(vu, d, s, row_repeat, d.rows > 255 || s.rows > 255, issue);
  }
}

template <Fn F, class T>
void tile_scalar(VectorUnit& vu, const ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const TileView& s = ctx.ops[1].tile;
  T k = ctx.scalar.as<T>();
  I id = F == Fn::Add ? I::vadds : F == Fn::Mul ? I::vmuls : F == Fn::Max ? I::vmaxs : F == Fn::Shl ? I::vshl : F == Fn::Shr ? I::vshr : F == Fn::LRelu ? I::vlrelu : I::vmins;
  if constexpr (F == Fn::Sub) {  // TSUBS: vadds with the scalar negated through float
    if constexpr (std::is_integral_v<T>) {  // spec §6 item 14: what the chip would get wrong silently
      const double neg = -double(float(k));
      if (double(float(k)) != double(k))
        detail::fail(vu.instruction(), ": the A2A3 algorithm adds T(-(float)scalar); the ", name_of(dtype_v<T>), " scalar ",
                     std::int64_t(k), " is not exact in float, so the chip would subtract ", std::int64_t(float(k)),
                     " (use TADDS with the negated scalar)");
      if (neg > double(std::numeric_limits<T>::max()))
        detail::fail(vu.instruction(), ": the A2A3 algorithm adds T(-(float)scalar); the ", name_of(dtype_v<T>), " scalar ",
                     std::int64_t(k), " negated does not fit ", name_of(dtype_v<T>));
    }
    k = T(-float(k));
    id = I::vadds;
  }
  using G = std::integral_constant<Fn, F == Fn::Sub ? Fn::Add : F>;
  elementwise<T>(vu, d, s, [&](T* dst, const T* src, unsigned repeat, Strides st) {
    vu.scalar<T>(id, dst, src, k, repeat, st, [](auto x, auto y) { return apply<G::value, decltype(x)>(x, y); });
  });
}

// TDIVS, floats (DivSOp / SDivOp, include/pto/npu/a2a3/TDivS.hpp): the TBinSInstr driver; each call
// in place (dst == src) multiplies by T(1 / scalar), any other duplicates the scalar into dst, a
// barrier, and divides (scalar / src for the reversed form).
// Integers: the scalar unit divides element by element (C truncation) between a V->S and an S->V flag.
template <class T>
void divs(VectorUnit& vu, const ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const TileView& s = ctx.ops[1].tile;
  const T k = ctx.scalar.as<T>();
  const bool scalar_first = ctx.variant & kVariantScalarFirst;
  if constexpr (std::is_integral_v<T>) {
    if (vu.executes()) device::check_int_division<T>(ctx);
    vu.scalar_round_trip();
    vu.scalar_loop<T>(at<T>(d, 0, 0), at<T>(s, 0, 0), d.valid_rows, d.valid_cols, d.row_stride, s.row_stride,
                      [&](T x) { return scalar_first ? apply<Fn::Div, T>(k, x) : apply<Fn::Div, T>(x, k); });
    vu.scalar_round_trip();
    return;
  }
  const T inv = T(1.0f / float(k));
  elementwise<T>(vu, d, s, [&](T* dst, const T* src, unsigned repeat, Strides st) {
    if (!scalar_first && dst == src) {
      vu.scalar<T>(I::vmuls, dst, src, inv, repeat, {1, 1, 1, st.drs, st.drs, 8},
                   [](auto x, auto y) { return apply<Fn::Mul, decltype(x)>(x, y); });
      return;
    }
    vu.vector_dup<T>(dst, k, repeat, {1, 1, 1, st.drs, 0, 0});
    vu.barrier();
    if (scalar_first) vbin<Fn::Div, T>(vu, dst, dst, src, repeat, {1, 1, 1, st.drs, st.drs, st.ars});
    else vbin<Fn::Div, T>(vu, dst, src, dst, repeat, {1, 1, 1, st.drs, st.ars, st.drs});
  });
}

template <class T>
void texp(VectorUnit& vu, const ExecContext& ctx) {
  unary<T>(vu, ctx.ops[0].tile, ctx.ops[1].tile,
           [&](T* dst, const T* src, unsigned repeat, Strides st) { vexp<T>(vu, dst, src, repeat, st); });
}

// ---------------------------------------------------------------------------------------------------
// TAXPY (§3.5): dst = scalar * src + dst. Same type: the TBinS driver with vaxpy (half rounds the
// product, then the sum). float <- half: 64 f32 lanes per repeat, src repeat = 4 blocks of half.
template <class T>
void axpy_same(VectorUnit& vu, const ExecContext& ctx) {
  const T k = ctx.scalar.as<T>();
  elementwise<T>(vu, ctx.ops[0].tile, ctx.ops[1].tile, [&](T* dst, const T* src, unsigned repeat, Strides st) {
    // Two roundings for half: the product to half, then the sum (at the store).
    vu.axpy<T, T>(dst, src, repeat, st, [k](auto acc, auto x) {
      using Cc = decltype(acc);
      return Cc(T(Cc(k) * x)) + acc;
    });
  });
}

inline void axpy_widening(VectorUnit& vu, const ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const TileView& s = ctx.ops[1].tile;
  const float k = float(ctx.scalar.as<half>());
  const int R = d.valid_rows, C = d.valid_cols;
  auto f = [k](float acc, float x) { return k * x + acc; };  // x: the half, widened exactly
  const bool overflow = d.row_stride / 8 > 255 || s.row_stride / 16 > 255;
  if (overflow || C / 64 > R) {
    vu.set_mask_count();
    vu.set_vector_count(std::uint64_t(C));
    for (int i = 0; i < R; ++i) vu.axpy<float, half>(at<float>(d, i, 0), at<half>(s, i, 0), 0, {1, 1, 1, 8, 4, 8}, f);
    vu.set_mask_norm();
    vu.set_full_mask();
    return;
  }
  for (int r0 = 0; r0 < R; r0 += 255) {
    const unsigned rows = unsigned(std::min(255, R - r0));
    const unsigned drs = unsigned(d.row_stride) / 8, srs = unsigned(s.row_stride) / 16;
    float* dst = at<float>(d, r0, 0);
    const half* src = at<half>(s, r0, 0);
    if (d.row_stride < 64 || s.row_stride < 64) {
      vu.set_cont_mask(unsigned(C));
      vu.axpy<float, half>(dst, src, rows, {1, 1, 1, drs, srs, 8}, f);
      vu.set_full_mask();
    } else {
      int c = 0;
      for (; c + 64 <= C; c += 64) vu.axpy<float, half>(dst + c, src + c, rows, {1, 1, 1, drs, srs, 8}, f);
      if (c < C) {
        vu.set_cont_mask(unsigned(C - c));
        vu.axpy<float, half>(dst + c, src + c, rows, {1, 1, 1, drs, srs, 8}, f);
        vu.set_full_mask();
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// TROWEXPAND* (§3.3, §3.4). The expand operand E feeds one 32-byte block per row: mode 2 reads E's
// own blocks, block i at byte 32 * i from E's base (block stride 0, repeat stride 1; counter mode
// i * BE), whatever E's row stride, and its 255-row chunks step 255 rows of E's row stride (an E wider
// than one block with 256 or more rows is an error at issue: the two readings disagree); mode 1 first
// broadcasts E's per-row scalars into blocks with vbrcb, into the tmp tile or the fixed scratch at
// UB + 184 KiB.
// Mode-1 TROWEXPAND* with R >= 256 rows (spec §3.3): vbrcb fills 30 repeats = 240 rows per chunk.
// When ceil(R/8) is a multiple of 30 the last chunk is a full 240 rows, so rows up to the next multiple
// of 240 are computed (spec §6 item 6: R % 240 > 232). The rows the algorithm computes:
inline int chunked_rows(int R) {
  if (R < 256) return R;
  const unsigned rep = unsigned((R + 7) / 8);
  return rep % 30 == 0 ? int(rep / 30) * 240 : R;
}

template <Fn F, bool ExpDif, class T>
void rowexpand_op(VectorUnit& vu, const ExecContext& ctx, std::byte* ub) {
  const TileView& d = ctx.ops[0].tile;
  const bool swap = ctx.variant & kVariantSwap;
  const bool mode2 = ctx.variant & kVariantMode2;
  const TileView& full = swap ? ctx.ops[2].tile : ctx.ops[1].tile;
  const TileView& e = swap ? ctx.ops[1].tile : ctx.ops[2].tile;
  constexpr unsigned BE = kBE<T>, EPR = kEPR<T>;
  const int R = d.valid_rows, C = d.valid_cols;
  // Op2 (SUB, DIV when E is src0) puts the block operand first; ADD/MUL/MAX/MIN are symmetric.
  const bool op2 = swap && (F == Fn::Sub || F == Fn::Div);
  auto k4 = [&](T* dst, const T* f, const T* blk) {  // counter mode, one row
    if (!op2) vbin<F, T>(vu, dst, f, blk, 0, {1, 1, 0, 8, 8, 0});
    else vbin<F, T>(vu, dst, blk, f, 0, {1, 0, 1, 8, 0, 8});
  };
  auto k6 = [&](T* dst, const T* f, const T* blk, unsigned rows, unsigned drs, unsigned frs) {
    if (!op2) vbin<F, T>(vu, dst, f, blk, rows, {1, 1, 0, drs, frs, 1});
    else vbin<F, T>(vu, dst, blk, f, rows, {1, 0, 1, drs, 1, frs});
  };
  const bool overflow = unsigned(d.row_stride) / BE > 255 || unsigned(full.row_stride) / BE > 255;
  const bool use_count = overflow || unsigned(C) / EPR > unsigned(R);
  // Rows [r0, r0 + rows) with the blocks at `blk` (block i for row r0 + i).
  auto norm_tail = [&](int r0, int rows, const T* blk) {
    // Repeat strides in blocks: uint8 fields the intrinsics check where a second repeat uses them.
    const unsigned drs = unsigned(d.row_stride) / BE, frs = unsigned(full.row_stride) / BE;
    T* dst = at<T>(d, r0, 0);
    const T* f = at<T>(full, r0, 0);
    if (unsigned(d.row_stride) < EPR || unsigned(full.row_stride) < EPR) {
      vu.set_cont_mask(unsigned(C));
      k6(dst, f, blk, unsigned(rows), drs, frs);
      vu.set_full_mask();
      return;
    }
    int c = 0;
    for (; c + int(EPR) <= C; c += int(EPR)) k6(dst + c, f + c, blk, unsigned(rows), drs, frs);
    if (c < C) {
      vu.set_cont_mask(unsigned(C - c));
      k6(dst + c, f + c, blk, unsigned(rows), drs, frs);
      vu.set_full_mask();
    }
  };
  auto body = [&](const T* blk) {
    if (use_count) {
      vu.set_mask_count();
      vu.set_vector_count(std::uint64_t(C));
      for (int i = 0; i < R; ++i) k4(at<T>(d, i, 0), at<T>(full, i, 0), blk + std::size_t(i) * BE);
      vu.set_mask_norm();
      vu.set_full_mask();
    } else {
      norm_tail(0, R, blk);
    }
  };
  using U = std::conditional_t<sizeof(T) == 2, std::uint16_t, std::uint32_t>;
  if (mode2) {
    const T* blk = at<T>(e, 0, 0);
    if (d.rows < 256 || R < 256) {
      body(blk);
    } else {
      const std::size_t e_step = std::size_t(e.row_stride);
      int r = 0;
      for (; r + 255 <= R; r += 255) norm_tail(r, 255, blk + std::size_t(r) * e_step);
      if (r < R) norm_tail(r, R - r, blk + std::size_t(r) * e_step);
    }
  } else {
    // The scratch: the tmp tile (4-argument form) or UB + TMP_UB_OFFSET.
    T* tmp = ctx.nops > 3 ? reinterpret_cast<T*>(ctx.ops[3].tile.base) : reinterpret_cast<T*>(ub + TMP_UB_OFFSET);
    const auto* col = reinterpret_cast<const U*>(at<T>(e, 0, 0));  // E's per-row scalars, as raw lanes
    if (d.rows < 256 || R < 256) {
      vu.vbrcb<U>(reinterpret_cast<U*>(tmp), col, 1, 8, unsigned((R + 7) / 8));
      vu.barrier();
      body(tmp);
    } else {
      const unsigned rep = unsigned((R + 7) / 8), loops = rep / 30, rem = rep % 30;
      if (chunked_rows(R) > d.rows)
        detail::fail(vu.instruction(), ": the A2A3 mode-1 algorithm works in 240-row chunks; for ", R, " rows its last chunk "
                     "computes rows up to ", loops * 240, ", past the tile's ", d.rows, " rows (the chip would write beyond the tile)");
      int r0 = 0;
      for (unsigned k = 0; k < loops; ++k, r0 += 240) {
        vu.vbrcb<U>(reinterpret_cast<U*>(tmp), col + r0, 1, 8, 30);
        vu.barrier();
        norm_tail(r0, 240, tmp);
        vu.barrier();
      }
      if (rem) {
        vu.vbrcb<U>(reinterpret_cast<U*>(tmp), col + r0, 1, 8, rem);
        vu.barrier();
        norm_tail(r0, R % 240, tmp);
      }
    }
  }
  if constexpr (ExpDif) {  // the whole SUB, a barrier, then TEXP(dst, dst)
    vu.barrier();
    unary<T>(vu, d, d, [&](T* dst, const T* src, unsigned repeat, Strides st) { vexp<T>(vu, dst, src, repeat, st); });
  }
}

// ---------------------------------------------------------------------------------------------------
// TBinOp (include/pto/npu/a2a3/TBinOp.hpp): TADD TSUB TMUL TDIV TMAX TMIN, one v<op> per call. With the
// three row strides equal, BinaryInstr chooses by dst's static shape (small tile, static or runtime
// contiguity, then the two-level forms); with different strides, the per-operand row-repeat form.
template <Fn F, class T>
void binary(VectorUnit& vu, const ExecContext& ctx) {
  constexpr unsigned BE = kBE<T>, EPR = kEPR<T>, kMax = 255;
  const TileView &d = ctx.ops[0].tile, &a = ctx.ops[1].tile, &b = ctx.ops[2].tile;
  const unsigned R = unsigned(d.valid_rows), C = unsigned(d.valid_cols);
  const unsigned ds = unsigned(d.row_stride), as = unsigned(a.row_stride), bs = unsigned(b.row_stride);
  T* dp = at<T>(d, 0, 0);
  const T *ap = at<T>(a, 0, 0), *bp = at<T>(b, 0, 0);
  // One v<op> at row r, column c of every operand.
  auto op = [&](unsigned r, unsigned c, unsigned repeat, Strides st) {
    vbin<F, T>(vu, dp + std::size_t(r) * ds + c, ap + std::size_t(r) * as + c, bp + std::size_t(r) * bs + c, repeat, st);
  };
  const Strides flat{1, 1, 1, 8, 8, 8};
  const Strides rows_apart{1, 1, 1, ds / BE, as / BE, bs / BE};
  auto count_mode = [&](std::uint64_t n, unsigned rows) {  // Bin1LCountMode (rows 1) / Bin2LCountMode
    vu.set_mask_count();
    vu.set_vector_count(n);
    for (unsigned i = 0; i < rows; ++i) op(i, 0, 0u, flat);
    vu.set_mask_norm();
    vu.set_full_mask();
  };
  auto one_level = [&](bool count) {  // Bin1LCountMode / Bin1LNormMode over R * C packed elements
    const std::uint64_t n = std::uint64_t(R) * C;
    if (count) return count_mode(n, 1);
    op(0, 0, unsigned(n / EPR), flat);  // the chip issues it even with 0 repeats
    if (n % EPR) {
      vu.set_cont_mask(unsigned(n % EPR));
      vbin<F, T>(vu, dp + n / EPR * EPR, ap + n / EPR * EPR, bp + n / EPR * EPR, 1u, flat);
      vu.set_full_mask();
    }
  };
  // Bin2LNormModeTail: the columns from `c` on, `width` of them, in runs of at most 255 rows
  // (`batched`: the static row count exceeds 255), one row per call when a stride overflows 8 bits.
  auto tail = [&](unsigned c, unsigned width, bool batched) {
    const bool overflow = ds / BE > kMax || as / BE > kMax || bs / BE > kMax;
    vu.set_cont_mask(width);
    auto run = [&](unsigned r0, unsigned rows) {
      if (overflow)
        for (unsigned j = 0; j < rows; ++j) op(r0 + j, c, 1u, Strides{1, 1, 1, 1, 1, 1});
      else
        op(r0, c, rows, rows_apart);
    };
    unsigned r0 = 0;
    if (batched)
      for (; r0 + kMax <= R; r0 += kMax) run(r0, kMax);
    if (r0 < R) run(r0, R - r0);
    vu.set_full_mask();
  };
  auto head = [&]() {  // Bin2LNormModeHead: whole EPR chunks of each row, runs of <= 255 repeats
    for (unsigned i = 0; i < R; ++i)
      for (unsigned done = 0; done < C / EPR; done += kMax) op(i, done * EPR, std::min(kMax, C / EPR - done), flat);
  };
  if (!(ds == as && ds == bs)) {  // different row strides: Bin2LNormModeRowRpt over each operand's stride
    head();
    if (C % EPR) tail(C / EPR * EPR, C % EPR, true);
    return;
  }
  const unsigned rows = unsigned(d.rows), cols = unsigned(d.cols);
  if (rows <= kMax && cols < EPR) {  // Bin1LNormModeSmall: one call, a row per repeat
    vu.set_cont_mask(C);
    op(0, 0, R, rows_apart);
    vu.set_full_mask();
    return;
  }
  if (d.static_full_cols() || rows == 1) {  // compile-time contiguous
    const bool non_aligned = cols % EPR != 0 && cols > EPR;
    return one_level(non_aligned || (std::uint64_t(rows) * cols + EPR - 1) / EPR > kMax);
  }
  if (cols == C || R == 1) {  // contiguous at run time
    const bool non_aligned = C > EPR && C % EPR != 0;
    return one_level(non_aligned || (std::uint64_t(R) * C + EPR - 1) / EPR > kMax);
  }
  const unsigned ncr = cols / EPR;
  if (ncr > 1 && rows * ncr < 4) return count_mode(C, R);  // Bin2LCountMode
  if (rows < ncr + 1) {
    if (C % EPR) return count_mode(C, R);
    for (unsigned i = 0; i < R; ++i) op(i, 0, C / EPR, flat);  // Bin2LNormModeColVLAlign
    return;
  }
  // Bin2LNormModeRowRpt.
  if (rows <= kMax && ds / BE <= kMax) {  // per EPR-column chunk one call with a repeat per row
    for (unsigned c = 0; c + EPR <= C; c += EPR) op(0, c, R, rows_apart);
    if (C % EPR) {
      vu.set_cont_mask(C % EPR);
      op(0, C / EPR * EPR, R, rows_apart);
      vu.set_full_mask();
    }
    return;
  }
  // The head pass runs only when the static Rows (not Cols) exceed EPR; otherwise the tail pass gets
  // the whole valid width, as the NPU code does (a width past 128 lanes is an error there too).
  unsigned from = 0;
  if (rows > EPR) {
    head();
    from = C / EPR * EPR;
  }
  if (from < C) tail(from, C - from, rows > kMax);
}

// TABS TRELU TSQRT TRSQRT TLOG (TUnaryOp, include/pto/npu/a2a3/TUnaryOp.hpp): one v<op> per call over
// the unary driver. TNOT runs on 16-bit lanes whatever the width (a 32-bit tile as twice the int16
// elements; an 8-bit one as half as many, rounded up: one byte past an odd valid width is written).
constexpr Intrinsic intrinsic_of(lanes::UnOp u) {
  constexpr Intrinsic t[] = {I::vabs, I::vrelu, I::vnot, I::vsqrt, I::vrsqrt, I::vln};
  return t[int(u)];
}
template <lanes::UnOp U, class T>
void unary_op(VectorUnit& vu, const ExecContext& ctx) {
  if constexpr (lanes::valid<U, T>)  // the dtype sets keep the other pairs out
    unary<T>(vu, ctx.ops[0].tile, ctx.ops[1].tile, [&](T* dst, const T* src, unsigned repeat, Strides st) {
      vu.unary<T>(intrinsic_of(U), dst, src, repeat, st, [](auto x) { return lanes::apply<U, decltype(x)>(x); });
    });
}
// A tile seen as int16 lanes (TNOT): columns scaled by the element width over 2 bytes.
inline TileView as_int16(const TileView& t) {
  TileView v = t;
  v.dtype = DType::I16;
  if (t.elem_bytes() == 4) {
    v.cols *= 2, v.valid_cols *= 2, v.row_stride *= 2;
  } else if (t.elem_bytes() == 1) {
    v.cols /= 2, v.valid_cols = (t.valid_cols + 1) / 2, v.row_stride /= 2;
  }
  return v;
}
inline void tnot(VectorUnit& vu, const ExecContext& ctx) {
  unary<std::int16_t>(vu, as_int16(ctx.ops[0].tile), as_int16(ctx.ops[1].tile),
                      [&](std::int16_t* dst, const std::int16_t* src, unsigned repeat, Strides st) {
                        vu.unary<std::int16_t>(I::vnot, dst, src, repeat, st, [](auto x) { return decltype(x)(~x); });
                      });
}

// ---------------------------------------------------------------------------------------------------
// Reductions. Rows: include/pto/npu/a2a3/TRowReduceOps.hpp with TRowSum / TRowMax / TRowMin.hpp;
// columns: TColReduceOps.hpp with TColMax / TColMin.hpp, and TColSum.hpp.
using lanes::BinOp;
template <BinOp O> constexpr Intrinsic kReduceId = O == BinOp::Add ? I::vcadd : O == BinOp::Max ? I::vcmax : I::vcmin;
template <BinOp O> constexpr Intrinsic kGroupId = O == BinOp::Add ? I::vcgadd : O == BinOp::Max ? I::vcgmax : I::vcgmin;
template <BinOp O> constexpr Fn kFnOf = O == BinOp::Add ? Fn::Add : O == BinOp::Max ? Fn::Max : Fn::Min;

// The chip writes its tmp tile wherever the strides say: a tmp too small for what the algorithm puts
// there is an error, not a silent overwrite of the bytes after it.
inline void need_tmp(const VectorUnit& vu, const TileView& t, int rows, int cols, const char* what) {
  if (t.rows < rows || t.cols < cols)
    detail::fail(vu.instruction(), ": operand tmp ", t, " is too small: the A2A3 algorithm writes ", what, " there (", rows,
                 " rows of ", cols, " elements); give tmp at least that shape");
}

// v<op>(dst, a, b) of BinInstrByMode: counter mode over `rows` repeats of EPR lanes (a row each), or
// one row per call when a repeat stride does not fit its 8-bit field (dst / a / b step their rows).
template <BinOp O, class T>
void bin_by_rows(VectorUnit& vu, T* dst, const T* a, const T* b, unsigned rows, unsigned ds, unsigned as, unsigned bs, bool count) {
  constexpr unsigned BE = kBE<T>, EPR = kEPR<T>;
  if (ds / BE > 255 || as / BE > 255 || bs / BE > 255) {
    for (unsigned i = 0; i < rows; ++i) vbin<kFnOf<O>, T>(vu, dst + i * ds, a + i * as, b + i * bs, 1, Strides{1, 1, 1, 0, 0, 0});
  } else if (count) {
    vu.set_mask_count();
    vu.set_vector_count(std::uint64_t(rows) * EPR);
    vbin<kFnOf<O>, T>(vu, dst, a, b, 0, Strides{1, 1, 1, ds / BE, as / BE, bs / BE});
    vu.set_mask_norm();
    vu.set_full_mask();
  } else {
    vbin<kFnOf<O>, T>(vu, dst, a, b, rows, Strides{1, 1, 1, ds / BE, as / BE, bs / BE});
  }
}

// vcadd / vcmax / vcmin of ReduceInstrByMode: one result per row at dst + i * dstride.
template <BinOp O, class T>
void reduce_by_rows(VectorUnit& vu, T* dst, const T* src, unsigned rows, unsigned dstride, unsigned sstride, bool count) {
  constexpr unsigned BE = kBE<T>, EPR = kEPR<T>;
  if (dstride > 65535) {
    for (unsigned i = 0; i < rows; ++i) vu.reduce<O, T>(kReduceId<O>, dst + std::size_t(i) * dstride, src + std::size_t(i) * sstride, 1, 0, 1, 0);
  } else if (count) {
    vu.set_mask_count();
    vu.set_vector_count(std::uint64_t(rows) * EPR);
    vu.reduce<O, T>(kReduceId<O>, dst, src, 0, dstride, 1, sstride / BE);
    vu.set_mask_norm();
    vu.set_full_mask();
  } else {
    vu.reduce<O, T>(kReduceId<O>, dst, src, rows, dstride, 1, sstride / BE);
  }
}

// The fp32 shortcuts of TryOptimizeFP32Reduce (a DN [R,1] dst of static valid width 1, a static full
// source of exactly 64x128, 32x256, 16x512 or 8x1024): group reductions to 8 per row, then one.
template <BinOp O>
bool row_reduce_fp32_shortcut(VectorUnit& vu, const TileView& d, const TileView& s, const TileView& t) {
  if (d.row_major || !(d.static_valid_cols && d.valid_cols == 1) || !s.static_full_rows() || !s.static_full_cols()) return false;
  const int R = s.rows, C = s.cols;
  if (!((R == 64 && C == 128) || (R == 32 && C == 256) || (R == 16 && C == 512) || (R == 8 && C == 1024))) return false;
  if (std::size_t(t.rows) * std::size_t(t.cols) < std::size_t(R) * C / 8)
    detail::fail(vu.instruction(), ": operand tmp ", t, " is too small: the A2A3 algorithm writes the group reductions' ",
                 R * C / 8, " partial results there; give tmp at least that many elements");
  float* tmp = reinterpret_cast<float*>(t.base);
  const float* src = reinterpret_cast<const float*>(s.base);
  float* dst = reinterpret_cast<float*>(d.base);
  auto group = [&](float* to, const float* from, unsigned repeats) {
    vu.reduce<O, float>(kGroupId<O>, to, from, repeats, 1, 1, 8, true);
    vu.barrier();
  };
  auto halve = [&](unsigned repeats) {  // [n, 16] -> [n, 8]: each row's two blocks combined
    vbin<kFnOf<O>, float>(vu, tmp, tmp, tmp + 8, repeats, Strides{1, 2, 2, 8, 16, 16});
    vu.barrier();
  };
  group(tmp, src, unsigned(R * C / 64));  // -> [R, C / 8]
  if (C == 128) halve(unsigned(R / 8));
  if (C == 256) halve(unsigned(R / 4)), halve(unsigned(R / 8));
  if (C >= 512) group(tmp, tmp, unsigned(R * C / 512));  // -> [R, C / 64]
  if (C == 1024) halve(unsigned(R / 8));
  group(dst, tmp, unsigned(R / 8));
  return true;
}

// Floats (TRowReduceInstr): a row within one repeat is one vcadd/vcmax/vcmin; a longer row is
// folded repeat by repeat into tmp first (sums pairwise, max/min in order), then reduced.
template <BinOp O, class T>
void row_reduce_float(VectorUnit& vu, const TileView& d, const TileView& s, const TileView& t) {
  if constexpr (std::is_same_v<T, float>)
    if (row_reduce_fp32_shortcut<O>(vu, d, s, t)) return;
  constexpr unsigned BE = kBE<T>, EPR = kEPR<T>;
  const unsigned rows = unsigned(s.valid_rows), cols = unsigned(s.valid_cols);
  const unsigned dstride = unsigned(d.cols), sstride = unsigned(s.cols), tstride = unsigned(t.cols);
  const unsigned k = cols / EPR, remain = cols % EPR;
  int row_runs = int(rows / 255);  // runs of at most 255 rows (an 8-bit repeat field)
  T* dst = reinterpret_cast<T*>(d.base);
  const T* src = reinterpret_cast<const T*>(s.base);
  T* tmp = reinterpret_cast<T*>(t.base);
  if (cols <= EPR) {  // OneRepeatProc
    if (cols == EPR) {
      reduce_by_rows<O, T>(vu, dst, src, rows, dstride, sstride, true);
      vu.barrier();
      return;
    }
    vu.set_cont_mask(remain);
    T* dp = dst;
    const T* sp = src;
    do {
      const unsigned n = row_runs == 0 ? rows % 255 : 255;
      reduce_by_rows<O, T>(vu, dp, sp, n, dstride, sstride, false);
      vu.barrier();
      --row_runs;
      dp += std::size_t(n) * dstride;
      sp += std::size_t(n) * sstride;
    } while (row_runs >= 0);
    vu.set_full_mask();
    return;
  }
  need_tmp(vu, t, int(rows), int(std::max(1u, O == BinOp::Add ? k / 2 : 1u) * EPR), "the row's partial results");
  if (cols < 2 * EPR) {  // the first repeat of every row copied into tmp
    vu.copy_ubuf_to_ubuf(tmp, src, rows, 8, sstride / BE - 8, tstride / BE - 8);
    vu.barrier();
  }
  if constexpr (O == BinOp::Add) {  // FillTmp: repeat pairs
    for (unsigned i = 0; i < k / 2; ++i) {
      bin_by_rows<O, T>(vu, tmp + i * EPR, src + 2 * i * EPR, src + (2 * i + 1) * EPR, rows, tstride, sstride, sstride, true);
      vu.barrier();
    }
    if (k != 1 && k % 2 == 1) {
      bin_by_rows<O, T>(vu, tmp, tmp, src + (k - 1) * EPR, rows, tstride, tstride, sstride, true);
      vu.barrier();
    }
  } else if (cols >= 2 * EPR) {
    bin_by_rows<O, T>(vu, tmp, src, src + EPR, rows, tstride, sstride, sstride, true);
    vu.barrier();
  }
  if (remain > 0) {  // the partial last repeat, under a mask, in runs of at most 255 rows
    T* tp = tmp;
    const T* sp = src;
    vu.set_cont_mask(remain);
    do {
      const unsigned n = row_runs == 0 ? rows % 255 : 255;
      bin_by_rows<O, T>(vu, tp, tp, sp + k * EPR, n, tstride, tstride, sstride, false);
      --row_runs;
      sp += std::size_t(n) * sstride;
      tp += std::size_t(n) * tstride;
    } while (row_runs >= 0);
    vu.set_full_mask();
    vu.barrier();
  }
  if constexpr (O == BinOp::Add) {  // TmpProc: a pairwise tree over tmp's repeats
    for (unsigned cur = k / 2; cur > 1;) {
      for (unsigned i = 0; i < cur / 2; ++i) {
        bin_by_rows<O, T>(vu, tmp + i * EPR, tmp + 2 * i * EPR, tmp + (2 * i + 1) * EPR, rows, tstride, tstride, tstride, true);
        vu.barrier();
      }
      const bool odd = cur % 2;
      cur /= 2;
      if (odd) {
        bin_by_rows<O, T>(vu, tmp + (cur - 1) * EPR, tmp + (cur - 1) * EPR, tmp + 2 * cur * EPR, rows, tstride, tstride, tstride, true);
        vu.barrier();
      }
    }
  } else {
    for (unsigned i = 2; i < k; ++i) {
      bin_by_rows<O, T>(vu, tmp, tmp, src + i * EPR, rows, tstride, tstride, sstride, true);
      vu.barrier();
    }
  }
  reduce_by_rows<O, T>(vu, dst, tmp, rows, dstride, tstride, true);
  vu.barrier();
}

// int16 / int32: per row, one 32-byte accumulator block in tmp (0, or the type's min / max), the
// row's blocks folded into it in counter mode, then the scalar unit folds the block.
template <BinOp O, class T>
void row_reduce_int(VectorUnit& vu, const TileView& d, const TileView& s, const TileView& t) {
  constexpr unsigned BE = kBE<T>;
  need_tmp(vu, t, 1, int(BE), "one 32-byte accumulator block");
  const T init = O == BinOp::Add ? T(0) : O == BinOp::Max ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
  const unsigned blocks = unsigned(s.valid_cols) / BE, less = unsigned(s.valid_cols) % BE;
  T* tmp = reinterpret_cast<T*>(t.base);
  const Strides acc{0, 0, 1, 0, 0, 1};
  vu.set_mask_count();
  for (int i = 0; i < s.valid_rows; ++i) {
    const T* src = s.ptr<T>(i, 0);
    vu.set_vector_count(BE);
    vu.vector_dup<T>(tmp, init, 1, Strides{1, 1, 1, 0, 0, 0});
    vu.barrier();
    for (unsigned b = 0; b < blocks; ++b) {
      vbin<kFnOf<O>, T>(vu, tmp, tmp, src + b * BE, 1, acc);
      vu.barrier();
    }
    if (less) {
      vu.set_vector_count(less);
      vbin<kFnOf<O>, T>(vu, tmp, tmp, src + blocks * BE, 1, acc);
      vu.barrier();
    }
    vu.scalar_round_trip();
    vu.scalar_fold<T>(d.ptr<T>(i, 0), tmp, BE, [](T a, T b) { return lanes::combine<O, T>(a, b); });
  }
  vu.set_mask_norm();
  vu.set_full_mask();
}

template <BinOp O, class T>
void row_reduce(VectorUnit& vu, const ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile, &t = ctx.ops[2].tile;
  if constexpr (std::is_integral_v<T>) row_reduce_int<O, T>(vu, d, s, t);
  else row_reduce_float<O, T>(vu, d, s, t);
}

// dst row 0 = src row 0, whole 32-byte blocks (TCOL*'s first step; the last block is copied whole).
template <class T>
void copy_first_row(VectorUnit& vu, T* dst, const T* src, int cols) {
  vu.copy_ubuf_to_ubuf(dst, src, 1, unsigned((std::size_t(cols) * sizeof(T) + 31) / 32), 0, 0);
  vu.barrier();
}

// TCOLMAX / TCOLMIN (ColReduceInstr): dst = row 0, then each next row folded in: the whole repeats
// in counter mode, the partial one under a mask. Rows step in whole 32-byte blocks.
template <BinOp O, class T>
void col_reduce(VectorUnit& vu, const ExecContext& ctx) {
  constexpr unsigned BE = kBE<T>, EPR = kEPR<T>;
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile;
  const unsigned R = unsigned(s.valid_rows), C = unsigned(s.valid_cols);
  T* dst = reinterpret_cast<T*>(d.base);
  const T* src = reinterpret_cast<const T*>(s.base);
  copy_first_row<T>(vu, dst, src, int(C));
  if (R == 1) return;
  const std::size_t step = (std::size_t(s.row_stride) * sizeof(T) + 31) / 32 * BE;
  const unsigned whole = C / EPR * EPR, remain = C % EPR;
  const Strides flat{1, 1, 1, 8, 8, 8};
  if (whole) {
    vu.set_mask_count();
    vu.set_vector_count(whole);
    for (unsigned i = 1; i < R; ++i) {
      vbin<kFnOf<O>, T>(vu, dst, dst, src + i * step, 0, flat);
      vu.barrier();
    }
    vu.set_mask_norm();
    vu.set_full_mask();
  }
  if (remain) {
    vu.set_cont_mask(remain);
    for (unsigned i = 1; i < R; ++i) {
      vbin<kFnOf<O>, T>(vu, dst + whole, dst + whole, src + whole + i * step, 1, flat);
      vu.barrier();
    }
    vu.set_full_mask();
  }
  vu.barrier();
}

// TCOLSUM (TColSum.hpp): dst = row 0 then each next row added (counter mode over the valid width),
// or with isBinary a pairwise tree over rows in tmp (an odd row into tmp row 0), copied to dst.
template <class T>
void col_sum(VectorUnit& vu, const ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile;
  const bool binary = ctx.variant & kVariantBinary;
  const unsigned R = unsigned(s.valid_rows), C = unsigned(s.valid_cols);
  T* dst = reinterpret_cast<T*>(d.base);
  const T* src = reinterpret_cast<const T*>(s.base);
  const Strides flat{1, 1, 1, 8, 8, 8};
  auto add = [&](T* to, const T* a, const T* b) { vbin<Fn::Add, T>(vu, to, a, b, 0, flat); };
  auto counted = [&](auto body) {
    vu.set_mask_count();
    vu.set_vector_count(C);
    body();
    vu.set_mask_norm();
    vu.set_full_mask();
  };
  if (!binary || R == 1) {
    copy_first_row<T>(vu, dst, src, int(C));
    if (R > 1)
      counted([&] {
        for (unsigned i = 1; i < R; ++i) {
          add(dst, dst, src + std::size_t(i) * s.row_stride);
          vu.barrier();
        }
      });
    return;
  }
  const TileView& t = ctx.ops[2].tile;
  need_tmp(vu, t, int(R / 2), int(C), "the pairwise sums of the rows");
  T* tmp = reinterpret_cast<T*>(t.base);
  // BinarySum(to, from, n): to[i] = from[2i] + from[2i+1], an odd last row into to[0].
  auto pairs = [&](const T* from, std::size_t from_stride, unsigned n) {
    counted([&] {
      for (unsigned i = 0; i < n / 2; ++i)
        add(tmp + std::size_t(i) * t.row_stride, from + 2 * i * from_stride, from + (2 * i + 1) * from_stride);
      vu.barrier();
      if (n % 2) {
        add(tmp, tmp, from + (n - 1) * from_stride);
        vu.barrier();
      }
    });
  };
  pairs(src, std::size_t(s.row_stride), R);
  for (unsigned cnt = R / 2; cnt > 1; cnt /= 2) {
    pairs(tmp, std::size_t(t.row_stride), cnt);
    vu.barrier();
  }
  copy_first_row<T>(vu, dst, tmp, int(C));
}

// ---------------------------------------------------------------------------------------------------
// TSEL (include/pto/npu/a2a3/TSel.hpp): per row, the mask row's UB address duplicated into tmp (two
// 32-bit lanes for 32-bit elements, four for 16-bit), loaded into CMPMASK, then one counter-mode vsel
// (tensor-tensor) over the valid width. TSELS (TSels.hpp): the scalar stored into tmp by the scalar
// unit and loaded into CMPMASK once, then one vsel (tensor-scalar) per row. U: the lanes (the chip
// selects half or float lanes; either way a bit-exact copy).
template <class U>
void tsel(VectorUnit& vu, const ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &m = ctx.ops[1].tile, &a = ctx.ops[2].tile;
  auto row = [](const TileView& t, int i) { return reinterpret_cast<U*>(t.base + t.elem_offset(i, 0) * std::ptrdiff_t(t.elem_bytes())); };
  const std::byte* mask0 = m.base;
  vu.set_mask_count();
  if (ctx.op == Op::TSEL) {
    const TileView &b = ctx.ops[3].tile, &t = ctx.ops[4].tile;
    auto* tmp = reinterpret_cast<std::uint32_t*>(t.base);
    for (int i = 0; i < d.valid_rows; ++i) {
      vu.set_vector_count(sizeof(U) == 2 ? 4 : 2);
      const auto at = std::uint32_t((mask0 + m.elem_offset(i, 0) * std::ptrdiff_t(m.elem_bytes())) - vu.ub_base());
      vu.vector_dup<std::uint32_t>(tmp, at, 1, Strides{1, 1, 1, 8, 0, 0});
      vu.barrier();
      vu.set_cmpmask(tmp);
      vu.barrier();
      vu.set_vector_count(std::uint64_t(d.valid_cols));
      vu.vsel<U>(row(d, i), row(a, i), row(b, i), 2);
    }
  } else {
    const TileView& t = ctx.ops[3].tile;
    U* tmp = reinterpret_cast<U*>(t.base);
    vu.scalar_write<U>(tmp, ctx.scalar.as<U>());
    vu.set_vector_count(std::uint64_t(d.valid_cols));
    vu.scalar_round_trip();
    vu.set_cmpmask(tmp);
    vu.barrier();
    for (int i = 0; i < d.valid_rows; ++i) vu.vsel<U>(row(d, i), row(a, i), mask0 + m.elem_offset(i, 0) * std::ptrdiff_t(m.elem_bytes()), 1);
  }
  vu.set_mask_norm();
  vu.set_full_mask();
}

// TAND / TOR (TAnd.hpp, TOr.hpp): the TBinOp driver on 16-bit lanes (32-bit elements as twice the
// columns, 8-bit ones as half, rounded up). TXOR (TXor.hpp): tmp = a | b, dst = a & b, dst = ~dst,
// dst &= tmp, a barrier between the steps.
template <Fn F>
void bitwise_on(VectorUnit& vu, const ExecContext& ctx, const TileView& d, const TileView& a, const TileView& b) {
  Operand ops[3];
  const TileView views[3] = {d, a, b};
  for (int i = 0; i < 3; ++i) {
    ops[i] = ctx.ops[i];
    ops[i].tile = views[i];
  }
  ExecContext c = ctx;
  c.ops = ops;
  c.nops = 3;
  binary<F, std::int16_t>(vu, c);
}
template <Fn F>
void bitwise(VectorUnit& vu, const ExecContext& ctx) {
  bitwise_on<F>(vu, ctx, as_int16(ctx.ops[0].tile), as_int16(ctx.ops[1].tile), as_int16(ctx.ops[2].tile));
}
inline void txor(VectorUnit& vu, const ExecContext& ctx) {
  const TileView d = as_int16(ctx.ops[0].tile), a = as_int16(ctx.ops[1].tile), b = as_int16(ctx.ops[2].tile);
  const TileView t = as_int16(ctx.ops[3].tile);
  bitwise_on<Fn::Or>(vu, ctx, t, a, b);
  vu.barrier();
  bitwise_on<Fn::And>(vu, ctx, d, a, b);
  vu.barrier();
  unary<std::int16_t>(vu, d, d, [&](std::int16_t* dst, const std::int16_t* src, unsigned repeat, Strides st) {
    vu.unary<std::int16_t>(I::vnot, dst, src, repeat, st, [](auto x) { return decltype(x)(~x); });
  });
  vu.barrier();
  bitwise_on<Fn::And>(vu, ctx, d, d, t);
}

// TANDS / TORS (TBitwiseSOp.hpp): TEXPANDS(d, scalar), a barrier, then TAND / TOR(d, s, d) on 16-bit
// lanes. TXORS: tmp = TORS(src, scalar), dst = TANDS(src, scalar), dst = ~dst, dst &= tmp, a barrier
// between the steps (so dst, src and tmp must not share bytes: the public function checks).
template <Fn F>
void bitwise_scalar_into(VectorUnit& vu, const ExecContext& ctx, const TileView& d, const TileView& s) {
  Operand op = ctx.ops[0];
  op.tile = d;
  ExecContext c = ctx;
  c.ops = &op;
  c.nops = 1;
  expands(vu, c);
  vu.barrier();
  bitwise_on<F>(vu, ctx, as_int16(d), as_int16(s), as_int16(d));
}
template <Fn F>
void bitwise_scalar(VectorUnit& vu, const ExecContext& ctx) {
  bitwise_scalar_into<F>(vu, ctx, ctx.ops[0].tile, ctx.ops[1].tile);
}
inline void txors(VectorUnit& vu, const ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile, &t = ctx.ops[2].tile;
  bitwise_scalar_into<Fn::Or>(vu, ctx, t, s);
  vu.barrier();
  bitwise_scalar_into<Fn::And>(vu, ctx, d, s);
  vu.barrier();
  const TileView d16 = as_int16(d);
  unary<std::int16_t>(vu, d16, d16, [&](std::int16_t* dst, const std::int16_t* src, unsigned repeat, Strides st) {
    vu.unary<std::int16_t>(I::vnot, dst, src, repeat, st, [](auto x) { return decltype(x)(~x); });
  });
  vu.barrier();
  bitwise_on<Fn::And>(vu, ctx, d16, d16, as_int16(t));
}

// TCVT (TCvt.hpp): ComputeTCvtRepeatConfig's lanes (256 / the wider element's bytes, 128 with int4b)
// and repeat strides; TCvtHead per row in calls of at most 255 repeats under the full mask; TCvtTail the
// remaining columns under a continuous mask, one call per 255 rows at the rows' strides. int32 -> half
// (vconv_deq) sets its scale behind a barrier first. The tmp forms with SaturationMode::OFF run the
// PyTorch-compatible paths: f32 -> int16 as f32 -> int32 saturating into tmp (at the source's strides),
// a barrier, int32 -> int16 wrapping; half -> int16 / int8 per repeat and 64-lane sub-chunk through
// int32 in tmp (int8 further: int16 in place, & 0xFF, half, then the truncating int8 vconv), a barrier
// after each step. Each vconv rounds and saturates as the element rule (backends/common/convert.hpp).
inline void tcvt(VectorUnit& vu, const ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &x = ctx.ops[1].tile;
  const DType dd = d.dtype, sd = x.dtype;
  const RoundMode m = cvt_mode_of(ctx.variant);
  const SaturationMode sat = cvt_sat_of(ctx.variant);
  const bool torch = ctx.variant & kVariantCvtTmp;  // set only for those three pairs, OFF, on A2A3
  const bool packed = is_packed4(dd) || is_packed4(sd);
  const unsigned epr = packed ? 128 : unsigned(256 / std::max(size_of(dd), size_of(sd)));
  auto repeat_blocks = [&](DType t) { return packed ? (is_packed4(t) ? 2u : 8u) : unsigned(epr * size_of(t) / 32); };
  auto row_blocks = [](const TileView& t) {
    return unsigned((is_packed4(t.dtype) ? std::size_t(t.row_stride) : std::size_t(t.row_stride) * t.elem_bytes()) / 32);
  };
  std::byte* tmp = torch ? ctx.ops[2].tile.base : nullptr;
  const std::size_t out_bytes = size_of(dd);
  auto call = [&](std::byte* dp, const std::byte* sp, unsigned repeats, Strides s, unsigned row_elems) {
    if (!torch) {
      if (sd == DType::I32 && dd == DType::F16) vu.barrier();  // set_deqscale(1.0), then the barrier
      vu.vconv(dd, dp, sd, sp, repeats, s, m, sat);
      return;
    }
    if (sd == DType::F32) {
      vu.vconv(DType::I32, tmp, sd, sp, repeats, Strides{s.abs, s.abs, 1, s.ars, s.ars, 8}, m, SaturationMode::ON);
      vu.barrier();
      vu.vconv(dd, dp, DType::I32, tmp, repeats, s, m, SaturationMode::OFF);
      return;
    }
    const unsigned per_row = row_elems ? row_elems : 128, subs = (per_row + 63) / 64, last = per_row - (subs - 1) * 64;
    const Strides one{s.abs, s.abs, s.abs, 8, 8, 8}, out{s.dbs, s.abs, 1, 8, 8, 8};
    auto* t16 = reinterpret_cast<std::int16_t*>(tmp);
    for (unsigned r = 0; r < repeats; ++r)
      for (unsigned c = 0; c < subs; ++c) {
        const std::byte* cs = sp + std::size_t(r) * s.ars * 32 + std::size_t(c) * 64 * 2;
        std::byte* cd = dp + std::size_t(r) * s.drs * 32 + std::size_t(c) * 64 * out_bytes;
        vu.set_cont_mask(c + 1 == subs ? last : 64);
        vu.vconv(DType::I32, tmp, sd, cs, 1, one, m, SaturationMode::ON);
        vu.barrier();
        if (dd == DType::I16) {
          vu.vconv(dd, cd, DType::I32, tmp, 1, out, m, SaturationMode::OFF);
          vu.barrier();
          continue;
        }
        vu.vconv(DType::I16, t16, DType::I32, tmp, 1, one, m, SaturationMode::OFF);
        vu.barrier();
        vu.vector_dup<std::int16_t>(t16 + 64, 255, 1, one);
        vu.barrier();
        vbin<Fn::And, std::int16_t>(vu, t16, t16, t16 + 64, 1, one);
        vu.barrier();
        vu.vconv(DType::F16, t16 + 64, DType::I16, t16, 1, one, RoundMode::CAST_RINT, SaturationMode::OFF);
        vu.barrier();
        vu.vconv(dd, cd, DType::F16, t16 + 64, 1, out, RoundMode::CAST_TRUNC, SaturationMode::OFF);
        vu.barrier();
      }
    vu.set_full_mask();
  };
  const unsigned R = unsigned(d.valid_rows), C = unsigned(d.valid_cols), rpl = C / epr, rem = C % epr;
  const Strides head{1, 1, 1, repeat_blocks(dd), repeat_blocks(sd), 8};
  for (unsigned i = 0; i < R && rpl; ++i)  // TCvtHead
    for (unsigned j = 0; j < rpl; j += 255) {
      const unsigned n = std::min(rpl - j, 255u);
      call(convert::at(d, int(i), int(j * epr)), convert::at(x, int(i), int(j * epr)), n, head, 0);
    }
  if (rem == 0 || R == 0) return;
  vu.set_cont_mask(rem);  // TCvtTail
  const Strides tail{1, 1, 1, row_blocks(d), row_blocks(x), 8};
  for (unsigned i = 0; i < R; i += 255)
    call(convert::at(d, int(i), int(rpl * epr)), convert::at(x, int(i), int(rpl * epr)), std::min(R - i, 255u), tail, rem);
  vu.set_full_mask();
}

// ---- sorting (a2a3 TSort32.hpp, TMrgSort.hpp: backends/common/sort_paths.hpp) -----------------------
// A2A3's part: rows up to 8160 elements are staged whole; the padding is one masked vector_dup over
// lanes tail..31 (the mask's 32-bit complement), behind a barrier; barriers between the steps.
struct SortChip {
  static bool small(unsigned cols, std::size_t) { return cols <= 8160; }
  template <class T>
  static void pad(VectorUnit& vu, T* block, unsigned tail) {
    vu.set_mask_norm();
    vu.set_vector_mask(0, std::uint64_t(~((std::uint32_t(1) << tail) - 1)));
    vu.vector_dup(block, T(-std::numeric_limits<float>::quiet_NaN()), 1, Strides{1, 1, 1, 8, 0, 0});  // -(0.0 / 0.0)
    vu.barrier();
    vu.set_full_mask();
  }
  static void barrier(VectorUnit& vu) { vu.barrier(); }
};

// TGATHER, index form (a2a3 TGather.hpp): per row, in counter mode over dst's valid columns, vmuls of
// the indices by the element size into byte offsets (32-bit data: into dst's row; 16-bit data: into
// tmp's row at dst's row stride), a barrier, vgather from src0's base. Every index is checked against
// src0 first (gather_index.hpp).
template <class U>  // uint32_t or uint16_t: the data as bits
void tgather_index(VectorUnit& vu, const ExecContext& c) {
  const TileView &d = c.ops[0].tile, &s = c.ops[1].tile, &x = c.ops[2].tile;
  if (vu.executes())
    for (int i = 0; i < d.valid_rows; ++i)
      for (int j = 0; j < d.valid_cols; ++j) gather_index::at(x, s, i, j);
  auto* offsets = reinterpret_cast<std::int32_t*>(sizeof(U) == 4 ? d.base : c.ops[3].tile.base);
  vu.set_mask_count();
  for (int i = 0; i < d.valid_rows; ++i) {
    vu.set_vector_count(std::uint64_t(d.valid_cols));
    std::int32_t* row = offsets + std::ptrdiff_t(i) * d.row_stride;  // TShape1: dst's Cols, for tmp too
    vu.scalar<std::int32_t>(I::vmuls, row, reinterpret_cast<const std::int32_t*>(x.base) + std::ptrdiff_t(i) * x.row_stride,
                            std::int32_t(sizeof(U)), 0, Strides{1, 1, 1, 8, 8, 8},
                            [](auto a, auto b) { return apply<Fn::Mul, decltype(a)>(a, b); });
    vu.barrier();
    vu.vgather(reinterpret_cast<U*>(d.base) + std::ptrdiff_t(i) * d.row_stride, reinterpret_cast<const std::uint32_t*>(row), s.base);
  }
  vu.set_mask_norm();
  vu.set_full_mask();
}

}  // namespace pto::a2a3
