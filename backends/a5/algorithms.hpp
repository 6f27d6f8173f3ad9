// PTO's A5 algorithms (spec §3.9) on the emulated register machine: for each row and 256-byte column
// chunk, load, compute under a plt predicate (MODE_ZEROING), store the active lanes. Stores are
// predicated, so nothing outside the valid region is written.
#pragma once
#include <bit>
#include <limits>
#include <type_traits>

#include "../common/path_choice.hpp"
#include "../common/fast_exp.hpp"
#include "../common/gather_index.hpp"
#include "../common/pad_value.hpp"
#include "register_unit.hpp"

namespace pto::a5 {

using I = Intrinsic;
using device::apply;
using device::Fn;
using device::intrinsic_of;

template <class T> T* row(const TileView& t, int r) { return reinterpret_cast<T*>(t.base) + std::ptrdiff_t(r) * t.row_stride; }

// d = op(x, y) for the binary ops, exp(x - y) for EXPDIF (float: fused vexpdif; half: vsub + vexp).
template <Fn F, bool ExpDif, class T>
Reg<T> combine(RegisterUnit& u, const Reg<T>& x, const Reg<T>& y, const Mask& p) {
  if constexpr (ExpDif) {
    if constexpr (std::is_same_v<T, float>) {
      return u.binary<T>(I::vexpdif, x, y, p, [](float a, float b) { return lanes::fast_expf(a - b); });
    } else {
      const Reg<T> diff = u.binary<T>(I::vsub, x, y, p, [](auto a, auto b) { return a - b; });
      return u.unary<T>(I::vexp, diff, p, [](auto a) { return decltype(a)(lanes::fast_expf(float(a))); });
    }
  } else {
    return u.binary<T>(intrinsic_of(F), x, y, p, [](auto a, auto b) { return apply<F, decltype(a)>(a, b); });
  }
}

// TCOLEXPAND*: per row i and chunk j: v = vec chunk j, f = full row i chunk j, d = op(f, v) (Op2: op(v, f)).
template <Fn F, bool ExpDif, class T>
void colexpand_op(RegisterUnit& u, const ExecContext& ctx) {
  if constexpr (F == Fn::Div)
    if (u.executes()) device::check_int_division<T>(ctx);
  const TileView& d = ctx.ops[0].tile;
  const bool swap = ctx.variant & kVariantSwap;
  const TileView& full = swap ? ctx.ops[2].tile : ctx.ops[1].tile;
  const TileView& vec = swap ? ctx.ops[1].tile : ctx.ops[2].tile;
  constexpr unsigned epr = Reg<T>::kLanes;
  for (int i = 0; i < d.valid_rows; ++i) {
    u.vloop();
    std::uint32_t left = std::uint32_t(d.valid_cols);
    for (unsigned j = 0; j * epr < unsigned(d.valid_cols); ++j) {
      const Reg<T> v = u.vlds(row<T>(vec, 0), j * epr);
      const Reg<T> f = u.vlds(row<T>(full, i), j * epr);
      const Mask p = u.plt<T>(left);
      u.vsts(swap ? combine<F, ExpDif, T>(u, v, f, p) : combine<F, ExpDif, T>(u, f, v, p), row<T>(d, i), j * epr, p);
    }
  }
}

// int64 / uint64 TCOLEXPANDADD (and SUB): 32-element chunks as de-interleaved low/high word registers,
// vaddc + vaddcs, re-interleaved on store: exact two's complement.
template <Fn F, class T>
void colexpand64(RegisterUnit& u, const ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const bool swap = ctx.variant & kVariantSwap;
  const TileView& full = swap ? ctx.ops[2].tile : ctx.ops[1].tile;
  const TileView& vec = swap ? ctx.ops[1].tile : ctx.ops[2].tile;
  for (int i = 0; i < d.valid_rows; ++i) {
    u.vloop();
    std::uint32_t left = std::uint32_t(d.valid_cols);
    for (unsigned j = 0; j * 32 < unsigned(d.valid_cols); ++j) {
      Reg<std::uint32_t> vlo, vhi, flo, fhi;
      u.vlds_dintlv(row<T>(vec, 0), j * 32, vlo, vhi);
      u.vlds_dintlv(row<T>(full, i), j * 32, flo, fhi);
      Mask p = u.plt64(left);  // 32 elements per chunk
      if (swap) {
        u.op64<T, F>(vlo, vhi, flo, fhi, p);
        u.vsts_intlv(vlo, vhi, row<T>(d, i), j * 32, p);
      } else {
        u.op64<T, F>(flo, fhi, vlo, vhi, p);
        u.vsts_intlv(flo, fhi, row<T>(d, i), j * 32, p);
      }
    }
  }
}

// TROWEXPAND*: per row a broadcast register (mode 1: BRC of E[i][0]; mode 2: BLK of E's block i, the
// 32 bytes at byte 32 * i from E's base whatever E's row stride), then per chunk d = op(f, b) (Op2:
// op(b, f)). A ColMajor E of more than one column is an error at issue (the chip reads i * Cols).
template <Fn F, bool ExpDif, class T>
void rowexpand_op(RegisterUnit& u, const ExecContext& ctx) {
  if constexpr (F == Fn::Div)
    if (u.executes()) device::check_int_division<T>(ctx);
  const TileView& d = ctx.ops[0].tile;
  const bool swap = ctx.variant & kVariantSwap;
  const bool mode2 = ctx.variant & kVariantMode2;
  const TileView& full = swap ? ctx.ops[2].tile : ctx.ops[1].tile;
  const TileView& e = swap ? ctx.ops[1].tile : ctx.ops[2].tile;
  constexpr unsigned epr = Reg<T>::kLanes, be = 32 / sizeof(T);
  const T* e0 = reinterpret_cast<const T*>(e.base);
  const bool one_d = device::a5_rowexpand_one_d(d);  // one loop over the rows: no outer iterations
  for (int i = 0; i < d.valid_rows; ++i) {
    if (!one_d) u.vloop();
    const Reg<T> b = mode2 ? u.vlds_blk(e0, std::size_t(i) * be) : u.vlds_brc(e0, std::size_t(e.elem_offset(i, 0)));
    std::uint32_t left = std::uint32_t(d.valid_cols);
    for (unsigned j = 0; j * epr < unsigned(d.valid_cols); ++j) {
      const Reg<T> f = u.vlds(row<T>(full, i), j * epr);
      const Mask p = u.plt<T>(left);
      u.vsts(swap ? combine<F, ExpDif, T>(u, b, f, p) : combine<F, ExpDif, T>(u, f, b, p), row<T>(d, i), j * epr, p);
    }
  }
}

// Pure TROWEXPAND: per row a BRC load of src[i][0], then predicated stores over the row's chunks;
// 64-bit elements broadcast their low and high words and store interleaved.
template <class T>
void rowexpand_pure(RegisterUnit& u, const ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile;
  for (int i = 0; i < d.valid_rows; ++i) {
    u.vloop();
    std::uint32_t left = std::uint32_t(d.valid_cols);
    if constexpr (sizeof(T) == 8) {
      const auto* w = reinterpret_cast<const std::uint32_t*>(s.base) + 2 * s.elem_offset(i, 0);
      const Reg<std::uint32_t> lo = u.vlds_brc(w, 0), hi = u.vlds_brc(w, 1);
      for (std::size_t off = 0; left > 0; off += 32) u.vsts_intlv(lo, hi, row<T>(d, i), off, u.plt64(left));
    } else {
      const Reg<T> b = u.vlds_brc(reinterpret_cast<const T*>(s.base), std::size_t(s.elem_offset(i, 0)));
      for (std::size_t off = 0; left > 0; off += Reg<T>::kLanes) u.vsts(b, row<T>(d, i), off, u.plt<T>(left));
    }
  }
}

// Pure TCOLEXPAND: each chunk of src row 0 is loaded once and stored to every dst row (64-bit elements
// move as pairs of 32-bit words: a copy).
template <class T>
void colexpand_pure(RegisterUnit& u, const ExecContext& ctx) {
  using W = std::conditional_t<sizeof(T) == 8, std::uint32_t, T>;
  constexpr unsigned per = sizeof(T) / sizeof(W);
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile;
  std::uint32_t left = std::uint32_t(d.valid_cols) * per;
  for (std::size_t off = 0; left > 0; off += Reg<W>::kLanes) {
    u.vloop();  // the outer loop walks the chunks, the inner one the rows
    const Reg<W> v = u.vlds(reinterpret_cast<const W*>(s.base), off);
    const Mask p = u.plt<W>(left);
    for (int i = 0; i < d.valid_rows; ++i) u.vsts(v, reinterpret_cast<W*>(row<T>(d, i)), off, p);
  }
}

// TEXPANDS: a splat register stored over the valid region, 1-D when the type makes the rows contiguous
// (BinaryInstr, device::static_contiguous); 64-bit values row by row as a low-word and a high-word
// splat stored interleaved (Int64Fill). TMOV: load, store, chunk by chunk, row by row (TMovVecToVec).
template <class T>
void expands(RegisterUnit& u, const ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const bool one_d = sizeof(T) != 8 && device::static_contiguous(d, d);
  const int lines = one_d ? 1 : d.valid_rows;
  const auto len = std::uint32_t(one_d ? d.valid_rows * d.valid_cols : d.valid_cols);
  if constexpr (sizeof(T) == 8) {
    Reg<std::uint32_t> lo, hi;
    u.vbr64(ctx.scalar.bits, lo, hi);
    for (int i = 0; i < lines; ++i) {
      if (!one_d) u.vloop();
      std::uint32_t left = len;
      for (std::size_t off = 0; left > 0; off += 32) u.vsts_intlv(lo, hi, row<T>(d, i), off, u.plt64(left));
    }
  } else {
    const Reg<T> v = u.vbr(ctx.scalar.as<T>());
    for (int i = 0; i < lines; ++i) {
      if (!one_d) u.vloop();
      std::uint32_t left = len;
      for (std::size_t off = 0; left > 0; off += Reg<T>::kLanes) u.vsts(v, row<T>(d, i), off, u.plt<T>(left));
    }
  }
}
template <class T>
void tmov(RegisterUnit& u, const ExecContext& ctx) {
  using W = std::conditional_t<sizeof(T) == 8, std::uint32_t, T>;  // 64-bit elements move as word pairs
  constexpr std::uint32_t per = sizeof(T) / sizeof(W);
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile;
  for (int i = 0; i < d.valid_rows; ++i) {
    u.vloop();
    std::uint32_t left = std::uint32_t(d.valid_cols) * per;
    for (std::size_t off = 0; left > 0; off += Reg<W>::kLanes) {
      const Reg<W> x = u.vlds(reinterpret_cast<const W*>(row<T>(s, i)), off);
      u.vsts(x, reinterpret_cast<W*>(row<T>(d, i)), off, u.plt<W>(left));
    }
  }
}

// The 1-D / 2-D element-wise loop (BinaryInstr, TUnaryOp): 1-D over R * C when the types make the rows
// contiguous (device::static_contiguous), else row by row.
template <class T, class Body>
void each_chunk(RegisterUnit& u, const TileView& d, const TileView& s, Body body) {
  constexpr unsigned epr = Reg<T>::kLanes;
  const bool one_d = device::static_contiguous(d, s);
  if (one_d) {
    std::uint32_t left = std::uint32_t(d.valid_rows) * std::uint32_t(d.valid_cols);
    for (std::size_t off = 0; left > 0; off += epr) body(row<T>(d, 0), row<T>(s, 0), off, u.plt<T>(left));
    return;
  }
  for (int i = 0; i < d.valid_rows; ++i) {
    u.vloop();
    std::uint32_t left = std::uint32_t(d.valid_cols);
    for (std::size_t off = 0; left > 0; off += epr) body(row<T>(d, i), row<T>(s, i), off, u.plt<T>(left));
  }
}

template <Fn F, class T>
void tile_scalar(RegisterUnit& u, const ExecContext& ctx) {
  using C = RegisterUnit::C<T>;
  if constexpr (F == Fn::Div)
    if (u.executes()) device::check_int_division<T>(ctx);
  const C k = C(ctx.scalar.as<T>());
  const bool scalar_first = ctx.variant & kVariantScalarFirst;
  // TSUBS is vadds of the negated scalar (include/pto/npu/a5/TSubS.hpp); the lanes compute a - k either way.
  const I id = F == Fn::Add ? I::vadds : F == Fn::Sub ? I::vadds : F == Fn::Mul ? I::vmuls : F == Fn::Max ? I::vmaxs : F == Fn::Min ? I::vmins
               : F == Fn::Div ? I::vdiv : device::intrinsic_of(F);  // TANDS / TORS / TXORS / TSHLS / TSHRS: vands, vshls, ...
  u.vbr();
  each_chunk<T>(u, ctx.ops[0].tile, ctx.ops[1].tile, [&](T* dst, const T* src, std::size_t off, const Mask& p) {
    const Reg<T> x = u.vlds(src, off);
    u.vsts(u.unary<T>(id, x, p, [&](C a) { return scalar_first ? apply<F, C>(k, a) : apply<F, C>(a, k); }), dst, off, p);
  });
}

// 64-bit tile-scalar ops (TADDS TSUBS TMULS TMAXS TMINS on int64 / uint64): row by row (Int64Scalar,
// include/pto/npu/a5/Int64Binary.hpp, has no 1-D form), 32-element chunks as de-interleaved register
// pairs, the scalar splat into a low-word and a high-word register.
template <Fn F, class T>
void tile_scalar64(RegisterUnit& u, const ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile;
  Reg<std::uint32_t> klo, khi;
  u.vbr64(std::uint64_t(ctx.scalar.as<T>()), klo, khi);
  auto run = [&](T* dst, const T* src, std::uint32_t n) {
    for (std::size_t off = 0; n > 0; off += 32) {
      Reg<std::uint32_t> lo, hi;
      u.vlds_dintlv(src, off, lo, hi);
      const Mask p = u.plt64(n);
      u.op64<T, F>(lo, hi, klo, khi, p);
      u.vsts_intlv(lo, hi, dst, off, p);
    }
  };
  for (int i = 0; i < d.valid_rows; ++i) {
    u.vloop();
    run(row<T>(d, i), row<T>(s, i), std::uint32_t(d.valid_cols));
  }
}

template <class T>
void texp(RegisterUnit& u, const ExecContext& ctx) {
  each_chunk<T>(u, ctx.ops[0].tile, ctx.ops[1].tile, [&](T* dst, const T* src, std::size_t off, const Mask& p) {
    const Reg<T> x = u.vlds(src, off);
    u.vsts(u.unary<T>(I::vexp, x, p, [](auto a) { return decltype(a)(lanes::fast_expf(float(a))); }), dst, off, p);
  });
}

// TAXPY: acc = vlds dst, x = vlds src (float <- half: UNPK_B16 + vcvt, exact), vaxpy, store; half
// rounds the product, then the sum, as the CPU reference and A2/A3 do.
template <class T>
void axpy_same(RegisterUnit& u, const ExecContext& ctx) {
  using C = RegisterUnit::C<T>;
  const T k = ctx.scalar.as<T>();
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile;
  constexpr unsigned epr = Reg<T>::kLanes;
  for (int i = 0; i < d.valid_rows; ++i) {
    u.vloop();
    std::uint32_t left = std::uint32_t(d.valid_cols);
    for (std::size_t off = 0; left > 0; off += epr) {
      const Reg<T> x = u.vlds(row<T>(s, i), off);
      Reg<T> acc = u.vlds(row<T>(d, i), off);
      const Mask p = u.plt<T>(left);
      u.axpy<T>(acc, x, p, [k](C a, C b) { return C(T(C(k) * b)) + a; });  // half: product rounded, then sum
      u.vsts(acc, row<T>(d, i), off, p);
    }
  }
}
inline void axpy_widening(RegisterUnit& u, const ExecContext& ctx) {
  const float k = float(ctx.scalar.as<half>());
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile;
  for (int i = 0; i < d.valid_rows; ++i) {
    u.vloop();
    std::uint32_t left = std::uint32_t(d.valid_cols);
    for (std::size_t off = 0; left > 0; off += 64) {
      const Reg<float> x = u.vlds_unpk_cvt(row<half>(s, i), off);
      Reg<float> acc = u.vlds(row<float>(d, i), off);
      const Mask p = u.plt<float>(left);
      u.axpy<float>(acc, x, p, [k](float a, float b) { return k * b + a; });
      u.vsts(acc, row<float>(d, i), off, p);
    }
  }
}

// TBinOp (include/pto/npu/a5/TBinOp.hpp): TADD TSUB TMUL TDIV TMAX TMIN. Per chunk vlds src0, vlds src1,
// v<op>, vsts: 1-D over R * C packed elements when all three types fix the valid width to Cols (or all
// three have one row), else row by row.
template <Fn F, class T>
void binary(RegisterUnit& u, const ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &a = ctx.ops[1].tile, &b = ctx.ops[2].tile;
  if constexpr (F == Fn::Div && std::is_integral_v<T>)
    if (u.executes()) lanes::check_divisor_tile<T>(ctx.op, "src1", b);
  if constexpr (F == Fn::Shl || F == Fn::Shr)
    if (u.executes()) lanes::check_shift_tile<T>(ctx.op, "src1", b);
  constexpr unsigned epr = Reg<T>::kLanes;
  auto chunk = [&](int r, std::size_t off, const Mask& p) {
    const Reg<T> x = u.vlds(row<T>(a, r), off), y = u.vlds(row<T>(b, r), off);
    u.vsts(combine<F, false, T>(u, x, y, p), row<T>(d, r), off, p);
  };
  const bool one_d = (d.static_full_cols() && a.static_full_cols() && b.static_full_cols()) ||
                     (d.rows == 1 && a.rows == 1 && b.rows == 1);
  if (one_d) {
    std::uint32_t left = std::uint32_t(d.valid_rows) * std::uint32_t(d.valid_cols);
    for (std::size_t off = 0; left > 0; off += epr) chunk(0, off, u.plt<T>(left));
    return;
  }
  for (int i = 0; i < d.valid_rows; ++i) {
    u.vloop();
    std::uint32_t left = std::uint32_t(d.valid_cols);
    for (std::size_t off = 0; left > 0; off += epr) chunk(i, off, u.plt<T>(left));
  }
}

// 64-bit TADD TSUB TMUL TMAX TMIN (Int64Binary, include/pto/npu/a5/Int64Binary.hpp): row by row,
// 32-element chunks of both sources as de-interleaved register pairs, re-interleaved on store.
template <Fn F, class T>
void binary64(RegisterUnit& u, const ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &a = ctx.ops[1].tile, &b = ctx.ops[2].tile;
  for (int i = 0; i < d.valid_rows; ++i) {
    u.vloop();
    std::uint32_t left = std::uint32_t(d.valid_cols);
    for (std::size_t off = 0; left > 0; off += 32) {
      Reg<std::uint32_t> xlo, xhi, ylo, yhi;
      u.vlds_dintlv(row<T>(a, i), off, xlo, xhi);
      u.vlds_dintlv(row<T>(b, i), off, ylo, yhi);
      const Mask p = u.plt64(left);
      u.op64<T, F>(xlo, xhi, ylo, yhi, p);
      u.vsts_intlv(xlo, xhi, row<T>(d, i), off, p);
    }
  }
}

// TABS TRELU TNOT TSQRT TLOG (TUnaryOp, include/pto/npu/a5/TUnaryOp.hpp): per chunk vlds, v<op>, vsts,
// 1-D or per row as TEXP. TRSQRT (a5/TRsqrt.hpp): a register of ones once, then vsqrt and vdiv.
template <lanes::UnOp U, class T>
void unary_op(RegisterUnit& u, const ExecContext& ctx) {
  using U_ = lanes::UnOp;
  constexpr Intrinsic id = U == U_::Abs ? I::vabs : U == U_::Relu ? I::vrelu : U == U_::Not ? I::vnot : U == U_::Log ? I::vln : I::vsqrt;
  if constexpr (lanes::valid<U, T>) {  // the dtype sets keep the other pairs out
    Reg<T> ones{};
    if constexpr (U == U_::Rsqrt) ones = u.vbr<T>(T(1.0f));
    each_chunk<T>(u, ctx.ops[0].tile, ctx.ops[1].tile, [&](T* dst, const T* src, std::size_t off, const Mask& p) {
      const Reg<T> x = u.vlds(src, off);
      if constexpr (U == U_::Rsqrt) {
        const Reg<T> r = u.unary<T>(I::vsqrt, x, p, [](auto a) { return lanes::apply<U_::Sqrt, decltype(a)>(a); });
        u.vsts(u.binary<T>(I::vdiv, ones, r, p, [](auto a, auto b) { return a / b; }), dst, off, p);
      } else {
        u.vsts(u.unary<T>(id, x, p, [](auto a) { return lanes::apply<U, decltype(a)>(a); }), dst, off, p);
      }
    });
  }
}

// ---------------------------------------------------------------------------------------------------
// Reductions (include/pto/npu/a5/TRowReduce.hpp, TColReduceOps.hpp, TColSum.hpp).
using lanes::BinOp;
template <BinOp O> constexpr Intrinsic kReduceId = O == BinOp::Add ? I::vcadd : O == BinOp::Max ? I::vcmax : I::vcmin;
template <BinOp O> constexpr Fn kFnOf = O == BinOp::Add ? Fn::Add : O == BinOp::Max ? Fn::Max : Fn::Min;
template <BinOp O, class T>
Reg<T> fold(RegisterUnit& u, const Reg<T>& a, const Reg<T>& b, const Mask& p) {
  return u.binary<T>(intrinsic_of(kFnOf<O>), a, b, p, [](auto x, auto y) { return apply<kFnOf<O>, decltype(x)>(x, y); });
}

// TROWSUM / TROWMAX / TROWMIN: per row an accumulator (0, or the type's min / max), per 256-byte
// chunk a load, an in-register reduction and one add into lane 0; one single-lane store per row.
// int16 sums reduce into int32 and convert back (wrapping: the same value); 8-bit max / min reduce
// their even and odd halves as 16-bit lanes (two vcvt, two reductions, a vmax, a vcvt).
template <BinOp O, class T>
void row_reduce(RegisterUnit& u, const ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile;
  constexpr unsigned epr = Reg<T>::kLanes;
  constexpr float kInf = std::numeric_limits<float>::infinity();  // (numeric_limits has no half here)
  T init = T(0);
  if constexpr (O != BinOp::Add) {
    if constexpr (std::is_integral_v<T>) init = O == BinOp::Max ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
    else init = T(O == BinOp::Max ? -kInf : kInf);
  }
  const Mask one{1};
  for (int i = 0; i < s.valid_rows; ++i) {
    u.vloop();
    Reg<T> acc = u.vbr(init);
    std::uint32_t left = std::uint32_t(s.valid_cols);
    for (unsigned j = 0; j * epr < unsigned(s.valid_cols); ++j) {
      const Mask p = u.plt<T>(left);
      const Reg<T> x = u.vlds(row<T>(s, i), j * epr);
      if constexpr (sizeof(T) == 1) {
        u.also(I::vcvt, 3);
        u.also(kReduceId<O>);
        u.also(intrinsic_of(kFnOf<O>));
      }
      acc = fold<O, T>(u, acc, u.reduce<O, T>(kReduceId<O>, x, p), one);
    }
    if constexpr (O == BinOp::Add && std::is_same_v<T, std::int16_t>) u.also(I::vcvt);
    u.vsts(acc, reinterpret_cast<T*>(d.base), std::size_t(d.elem_offset(i, 0)), one);
  }
}

// TCOLMAX / TCOLMIN / TCOLSUM (TColReduceInstr_PostUpdate): per 256-byte column chunk, row 0 loaded,
// then each next pair of rows combined and folded in, an odd last row folded alone.
template <BinOp O, class T>
void col_reduce(RegisterUnit& u, const ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile;
  constexpr unsigned epr = Reg<T>::kLanes;
  const int R = s.valid_rows;
  std::uint32_t left = std::uint32_t(s.valid_cols);
  for (unsigned c = 0; c < unsigned(s.valid_cols); c += epr) {
    u.vloop();
    const Mask p = u.plt<T>(left);
    Reg<T> acc = u.vlds(row<T>(s, 0), c);
    int i = 1;
    for (; i + 1 < R; i += 2) acc = fold<O, T>(u, acc, fold<O, T>(u, u.vlds(row<T>(s, i), c), u.vlds(row<T>(s, i + 1), c), p), p);
    if (i < R) acc = fold<O, T>(u, acc, u.vlds(row<T>(s, i), c), p);
    u.vsts(acc, row<T>(d, 0), c, p);
  }
}

// TCOLSUM isBinary (TColSum_Binary): per chunk, pairs of rows summed into tmp rows (an odd last row
// into the last pair), then tmp halved level by level (an odd partial sum into the last new one); the
// register holding the last sum is stored to dst. tmp is reused by every chunk (its first columns).
template <class T>
void col_sum_binary(RegisterUnit& u, const ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile, &t = ctx.ops[2].tile;
  constexpr unsigned epr = Reg<T>::kLanes;
  const int R = s.valid_rows, pairs = R / 2;
  if (t.rows < std::max(1, pairs) || t.row_stride < s.valid_cols)
    detail::fail(find_desc(ctx.op)->name, ": operand tmp ", t, " is too small: the A5 algorithm stores ", std::max(1, pairs),
                 " rows of partial sums there, each as wide as src's ", s.valid_cols, " valid columns");
  T* tmp = reinterpret_cast<T*>(t.base);
  auto trow = [&](int k) { return std::size_t(k) * std::size_t(t.row_stride); };
  std::uint32_t left = std::uint32_t(s.valid_cols);
  for (unsigned c = 0; c < unsigned(s.valid_cols); c += epr) {
    u.vloop();
    const Mask p = u.plt<T>(left);
    Reg<T> acc = u.vbr(T(0));
    for (int j = 0; j < pairs; ++j) {
      acc = fold<BinOp::Add, T>(u, u.vlds(row<T>(s, 2 * j), c), u.vlds(row<T>(s, 2 * j + 1), c), p);
      u.vsts(acc, tmp, trow(j), p);
    }
    if (R % 2) {
      acc = fold<BinOp::Add, T>(u, u.vlds(row<T>(s, R - 1), c), acc, p);
      u.vsts(acc, tmp, trow(pairs > 0 ? pairs - 1 : 0), p);
    }
    int n = pairs;
    for (int level = n > 0 ? std::bit_width(unsigned(n)) - 1 : 0; level > 0; --level) {
      const bool odd = n % 2;
      n /= 2;
      for (int j = 0; j < n; ++j) {
        acc = fold<BinOp::Add, T>(u, u.vlds(tmp, trow(2 * j)), u.vlds(tmp, trow(2 * j + 1)), p);
        u.vsts(acc, tmp, trow(j), p);
      }
      if (odd) {
        acc = fold<BinOp::Add, T>(u, u.vlds(tmp, trow(2 * n)), acc, p);
        u.vsts(acc, tmp, trow(n - 1), p);
      }
    }
    u.vsts(acc, row<T>(d, 0), c, p);
  }
}

template <class T>
void col_sum(RegisterUnit& u, const ExecContext& ctx) {
  if (ctx.variant & kVariantBinary) col_sum_binary<T>(u, ctx);
  else col_reduce<BinOp::Add, T>(u, ctx);
}

// TCVT (a5/TCvt.hpp): a 1-D loop over all R x C elements when both tiles fix the valid width to Cols
// (or both have one row), else a loop per row. Per iteration 256 / the wider element's bytes elements:
// a load, the vcvt, a predicated store. The shapes and extra intrinsics of the pairs' own loops: the
// 2-D narrowing pairs de-interleave 512 source bytes per iteration (two vcvts and a vor); 8-bit ->
// 32-bit and fp8 / hifloat8 -> f32 interleave (two vcvts and stores per 128 elements); f32 -> fp8 /
// hifloat8 select the packed bytes (a vsel); fp4 -> bf16 widens 256 nibbles in two halves; the 1-D
// SaturationMode::OFF paths of f32 / half -> int16 (two vcvts) and half -> int8 (three vcvts, a
// vector_dup and a vand). Each lane converts as the element rule does (backends/common/convert.hpp).
inline void tcvt(RegisterUnit& u, const ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &x = ctx.ops[1].tile;
  const DType sd = x.dtype, dd = d.dtype;
  const RoundMode mode = cvt_mode_of(ctx.variant);
  const SaturationMode sat = cvt_sat_of(ctx.variant);
  const bool one_d = (d.static_full_cols() && x.static_full_cols()) || (d.rows == 1 && x.rows == 1);
  const bool off = sat == SaturationMode::OFF;
  unsigned per = unsigned(256 / std::max(d.elem_bytes(), x.elem_bytes())), cvts = 1, stores = 1, ors = 0, sels = 0;
  const bool widen8 = x.elem_bytes() == 1 && d.elem_bytes() == 4;
  const bool narrow2d = !one_d && x.elem_bytes() > d.elem_bytes() && !is_narrow(dd) && sd != DType::I64;
  if (widen8) per = 128, cvts = 2, stores = 2, ors = 1;
  else if (is_packed4(sd)) per = 256, cvts = 2, stores = 2, ors = 1;
  else if (is_packed4(dd)) per = 128, sels = 1;
  else if (is_narrow(dd)) sels = x.elem_bytes() == 4;
  else if (narrow2d) per = 512 / unsigned(x.elem_bytes()), cvts = 2, ors = 1;
  else if (one_d && off && dd == DType::I16) per = 64, cvts = 2;
  const bool to_int8 = one_d && off && sd == DType::F16 && dd == DType::I8;
  if (to_int8) per = 128, cvts = 3;
  auto chunk = [&](std::byte* dp, const std::byte* sp, unsigned n) {
    u.also(I::plt);
    const Bytes r = u.vcvt(u.vlds_elems(sp, sd, n), sd, dd, n, mode, sat, cvts);
    if (ors) u.also(I::vor);
    if (sels) u.also(I::vsel);
    if (to_int8) u.also(I::vector_dup), u.also(I::vand);
    u.vsts_elems(r, dp, dd, n, stores);
  };
  const std::uint64_t R = std::uint64_t(d.valid_rows), C = std::uint64_t(d.valid_cols);
  if (one_d) {  // flat: element k of the valid region is element k from the tile's base
    auto flat = [](const TileView& t, std::uint64_t k) { return t.base + std::ptrdiff_t(bytes_of(t.dtype, unsigned(k))); };
    for (std::uint64_t k = 0; k < R * C; k += per) chunk(flat(d, k), flat(x, k), unsigned(std::min<std::uint64_t>(per, R * C - k)));
    return;
  }
  for (std::uint64_t i = 0; i < R; ++i) {
    u.vloop();
    for (std::uint64_t j = 0; j < C; j += per)
      chunk(convert::at(d, int(i), int(j)), convert::at(x, int(i), int(j)), unsigned(std::min<std::uint64_t>(per, C - j)));
  }
}

// TSEL / TSELS (a5/TSel.hpp, TSels.hpp) on U, the elements' bits. 32-bit elements: per row, pairs of
// 64-lane chunks share one 16-byte mask load (plds, pintlv), then a second row loop for an odd last
// chunk; 8- and 16-bit: per row and 256-byte chunk a mask load of E / 8 bytes. Per chunk the sources'
// loads (TSELS: the scalar splatted once), one vsel, the predicated store.
template <class U>
void tsel(RegisterUnit& u, const ExecContext& ctx) {
  const bool scalar = ctx.op == Op::TSELS;
  const TileView &d = ctx.ops[0].tile, &m = ctx.ops[1].tile, &a = ctx.ops[2].tile;
  const TileView* b = scalar ? nullptr : &ctx.ops[3].tile;
  constexpr unsigned epr = Reg<U>::kLanes;
  const Reg<U> splat = scalar ? u.vbr(ctx.scalar.as<U>()) : Reg<U>{};
  auto mask_row = [&](int i) { return m.base + m.elem_offset(i, 0) * std::ptrdiff_t(m.elem_bytes()); };
  auto one = [&](int i, unsigned col, const Bytes& pred, unsigned first, std::uint32_t& left) {
    const Reg<U> x = u.vlds(row<U>(a, i), col);
    const Reg<U> y = scalar ? splat : u.vlds(row<U>(*b, i), col);
    const Reg<U> r = u.vsel(x, y, pred, first);
    u.vsts(r, row<U>(d, i), col, u.plt<U>(left));
  };
  const unsigned C = unsigned(d.valid_cols), chunks = (C + epr - 1) / epr;
  if constexpr (sizeof(U) == 4) {
    const unsigned pairs = chunks / 2;
    for (int i = 0; i < d.valid_rows && pairs; ++i) {
      u.vloop();
      std::uint32_t left = C;
      for (unsigned j = 0; j < pairs; ++j) {
        const Bytes pred = u.plds(mask_row(i) + 16 * j, 16);
        one(i, 2 * j * epr, pred, 0, left);
        one(i, (2 * j + 1) * epr, pred, epr, left);
      }
    }
    if (chunks % 2 == 0) return;
    for (int i = 0; i < d.valid_rows; ++i) {
      u.vloop();
      std::uint32_t left = C - 2 * pairs * epr;
      one(i, 2 * pairs * epr, u.plds(mask_row(i) + 16 * pairs, 8), 0, left);
    }
  } else {
    for (int i = 0; i < d.valid_rows; ++i) {
      u.vloop();
      std::uint32_t left = C;
      for (unsigned j = 0; j < chunks; ++j) one(i, j * epr, u.plds(mask_row(i) + j * (epr / 8), epr / 8), 0, left);
    }
  }
}

// TGATHER (a5 TGather.hpp). Index form: per row, chunks of the index register's lanes: a load of the
// indices, vgather2, a packed predicated store (every index checked against src0 first,
// gather_index.hpp). Mask form by rows: per row and chunk, a load, the pattern's lanes squeezed out
// (vsqz) and stored unaligned one after another from dst's first element.
template <class T, class I>  // T: the data as bits; I: the index type
void tgather_index(RegisterUnit& u, const ExecContext& c) {
  const TileView &d = c.ops[0].tile, &s = c.ops[1].tile, &x = c.ops[2].tile;
  if (u.executes())
    for (int i = 0; i < d.valid_rows; ++i)
      for (int j = 0; j < d.valid_cols; ++j) gather_index::at(x, s, i, j);
  for (int i = 0; i < d.valid_rows; ++i) {
    u.vloop();
    std::uint32_t left = std::uint32_t(d.valid_cols);
    for (std::size_t off = 0; left > 0; off += Reg<I>::kLanes) {
      const Mask m = u.plt<I>(left);
      const Reg<I> idx = u.vlds(row<I>(x, i), off);
      u.vsts(u.vgather2(reinterpret_cast<const T*>(s.base), idx, m), row<T>(d, i), off, m);
    }
  }
}
template <class T>
void tgather_mask(RegisterUnit& u, const ExecContext& c) {
  const TileView &d = c.ops[0].tile, &s = c.ops[1].tile;
  const MaskPattern p = pattern_of(c.variant);
  const unsigned times = unsigned(mask_period(p)), at = unsigned(mask_position(p));
  T* out = reinterpret_cast<T*>(d.base);
  for (int i = 0; i < s.valid_rows; ++i) {
    u.vloop();
    std::uint32_t left = std::uint32_t(s.valid_cols);
    for (std::size_t off = 0; left > 0; off += Reg<T>::kLanes) {
      const Mask m = u.plt<T>(left);
      u.vsqz_vstur(u.vlds(row<T>(s, i), off), m, [&](unsigned k) { return k % times == at; }, out);
    }
  }
}

// TTRANS (a5 TTrans.hpp): a src tile with fewer static rows than columns goes row-wise (per valid row
// and chunk: a load, the index ramp vci -> vmins -> vmuls -> vadds to dst's column positions, a
// vscatter), any other column-wise (per valid column and chunk of rows: the ramp to src's positions, a
// vgather2, a store into dst's row). Indices are 32-bit lanes for 4-byte data and 16-bit otherwise, so a
// chunk is 64 or 128 elements; 8-bit data rides in 16-bit lanes (UNPK_B8 loads, PK_B16 stores).
template <class W>  // std::uint32_t, std::uint16_t or std::uint8_t: the element's bits
void ttrans(RegisterUnit& u, const ExecContext& c) {
  using I = std::conditional_t<sizeof(W) == 4, std::uint32_t, std::uint16_t>;
  constexpr unsigned epr = Reg<I>::kLanes;
  const TileView &d = c.ops[0].tile, &s = c.ops[1].tile;
  const auto* src = reinterpret_cast<const W*>(s.base);
  auto* dst = reinterpret_cast<W*>(d.base);
  const unsigned rows = unsigned(s.valid_rows), cols = unsigned(s.valid_cols);
  // lane k of chunk `ch`: min(ch * epr + k, n - 1) * mul + add
  auto ramp = [&](unsigned ch, unsigned n, std::uint64_t mul, unsigned add, const Mask& m) {
    Reg<I> x = u.vci<I>(I(ch * epr));
    x = u.scalar_op(Intrinsic::vmins, x, I(n - 1), m, [](I a, I b) { return std::min(a, b); });
    x = u.scalar_op(Intrinsic::vmuls, x, I(mul), m, [](I a, I b) { return I(std::uint32_t(a) * b); });  // wraps in I
    return u.scalar_op(Intrinsic::vadds, x, I(add), m, [](I a, I b) { return a + b; });
  };
  if (s.rows < s.cols) {
    for (unsigned r = 0; r < rows; ++r) {
      u.vloop();
      std::uint32_t left = cols;
      for (unsigned ch = 0; left > 0; ++ch) {
        const Mask m{std::min(left, epr)};
        left -= m.count;
        const Reg<W> v = u.vlds(src + std::size_t(r) * std::size_t(s.row_stride), std::size_t(ch) * epr);
        u.vscatter(v, dst, ramp(ch, cols, std::uint64_t(d.row_stride), r, m), m);
      }
    }
    return;
  }
  for (unsigned col = 0; col < cols; ++col) {
    u.vloop();
    std::uint32_t left = rows;
    for (unsigned ch = 0; left > 0; ++ch) {
      const Mask m{std::min(left, epr)};
      left -= m.count;
      const Reg<W> v = u.vgather2(src, ramp(ch, rows, std::uint64_t(s.row_stride), col, m), m);
      u.vsts(v, dst + std::size_t(col) * std::size_t(d.row_stride), std::size_t(ch) * epr, m);
    }
  }
}

// TFILLPAD / TFILLPAD_INPLACE / TFILLPAD_EXPAND (a5 TFillPad.hpp), one vector function: src's valid
// region copied row by row (not in place), then per src row dst's PadVal from the valid columns to
// Cols by unaligned stores (vstus, a register of the value at a time, then vstas), then the rows down
// to dst's valid rows as one 1-D run of predicated stores.
template <class T>  // the element type (the pad value's bits come from it)
void tfillpad(RegisterUnit& u, const ExecContext& c) {
  using W = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::conditional_t<sizeof(T) == 2, std::uint16_t, std::uint8_t>>;
  const TileView &d = c.ops[0].tile, &s = c.ops[1].tile;
  constexpr unsigned epr = Reg<W>::kLanes;
  if (!(c.variant & kVariantFillInPlace))
    for (int i = 0; i < s.valid_rows; ++i) {
      u.vloop();
      std::uint32_t left = std::uint32_t(s.valid_cols);
      for (std::size_t off = 0; left > 0; off += epr) {
        const Mask m = u.plt<W>(left);
        u.vsts(u.vlds(row<W>(s, i), off), row<W>(d, i), off, m);
      }
    }
  Reg<W> pad;
  const T value = pad_element<T>(d.pad);
  W bits;
  std::memcpy(&bits, &value, sizeof(W));
  pad.v.fill(bits);
  u.vbr();
  for (int i = 0; i < s.valid_rows; ++i) {
    u.vloop();
    std::uint32_t left = std::uint32_t(d.cols - s.valid_cols);
    for (std::size_t off = 0; left > 0; off += epr) {
      const Mask m{std::min(left, epr)};
      u.vsts(pad, row<W>(d, i) + s.valid_cols, off, m);
      left -= m.count;
    }
    u.also(Intrinsic::vsts);  // vstas: the unaligned register's flush (its bytes are the last vstus's)
  }
  std::uint32_t left = std::uint32_t(d.valid_rows - s.valid_rows) * std::uint32_t(d.row_stride);
  for (std::size_t off = 0; left > 0; off += epr) u.vsts(pad, row<W>(d, s.valid_rows), off, u.plt<W>(left));
}

}  // namespace pto::a5
