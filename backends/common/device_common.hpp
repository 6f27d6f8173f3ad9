// What the A2/A3 and A5 device code paths share: the element-wise operations of their lanes (in the
// compute type: float for half, the element type otherwise; integers wrap) and the UB window every
// intrinsic checks its bytes against.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include <pto/isa/error.hpp>
#include <pto/backends/kernel_abi.hpp>
#include <pto/backends/registry.hpp>
#include <pto/isa/intrinsics.hpp>

#include "lane_ops.hpp"

namespace pto::device {

// The lane operations are the CPU reference's element operations (integers wrap; the one overflowing
// signed quotient wraps), so a device path and the CPU reference agree lane for lane.
using Fn = lanes::BinOp;

template <Fn F, class C>
C apply(C a, C b) {
  if constexpr (F == Fn::Div && std::is_integral_v<C>)
    if (b == C(0)) return C(0);  // inactive lanes only: active divisors are checked before the algorithm runs
  return lanes::apply<F, C>(a, b);
}

// Integer division by zero has no result on any target: the divisor operand is checked before an
// executing algorithm runs, with the CPU reference's message (a recording run reads no data: the
// pipeline model runs ahead of the data and model-only runs have none). The divisor is src1 of the math (TCOLEXPANDDIV: the
// vector row, or the full tile when the vector is src0; TROWEXPANDDIV: E, or the full tile), TDIVS's
// scalar, or src for scalar / src.
template <class T>
void check_int_division(const ExecContext& ctx) {
  if constexpr (std::is_integral_v<T>) {
    const Op op = ctx.op;
    const bool swap = ctx.variant & kVariantSwap;
    if (op == Op::TDIVS || op == Op::TRECIP) {
      if (ctx.variant & kVariantScalarFirst) lanes::check_divisor_tile<T>(op, "src0", ctx.ops[1].tile);
      else if (ctx.scalar.as<T>() == T(0))
        detail::fail(op_name(op), ": integer division by zero: the scalar divisor is 0 (dtype ", name_of(dtype_v<T>), ")");
    } else if (op == Op::TCOLEXPANDDIV && !swap) {
      lanes::check_divisor_row(op, "src1", ctx.ops[2].tile.ptr<T>(0, 0), ctx.ops[0].tile.valid_cols, 0, 0);
    } else if (op == Op::TROWEXPANDDIV && !swap && (ctx.variant & kVariantMode2)) {
      lanes::check_divisor_blocks<T>(op, "src1", ctx.ops[2].tile);
    } else if (op == Op::TCOLEXPANDDIV || op == Op::TROWEXPANDDIV) {
      lanes::check_divisor_tile<T>(op, "src1", ctx.ops[2].tile);
    }
  }
}

constexpr Intrinsic intrinsic_of(Fn f) {
  switch (f) {
    case Fn::Add: return Intrinsic::vadd;
    case Fn::Sub: return Intrinsic::vsub;
    case Fn::Mul: return Intrinsic::vmul;
    case Fn::Div: return Intrinsic::vdiv;
    case Fn::Max: return Intrinsic::vmax;
    case Fn::Min: return Intrinsic::vmin;
    case Fn::ExpDif: return Intrinsic::vexpdif;
    case Fn::And: return Intrinsic::vand;
    case Fn::Or: return Intrinsic::vor;
    case Fn::Xor: return Intrinsic::vxor;
    case Fn::Shl: return Intrinsic::vshl;
    case Fn::Shr: return Intrinsic::vshr;
    case Fn::LRelu: return Intrinsic::vlrelu;
  }
  return Intrinsic::vadd;
}

using backend::Overrun;  // what an algorithm writes past the valid region (registry.hpp)


// Whether every tile operand lies in the core's UB. Auto mode gives tiles that were never TASSIGNed
// storage of their own outside UB; the device algorithms address UB, so those run the CPU reference.
inline bool operands_in_ub(const ExecContext& ctx) {
  const auto lo = reinterpret_cast<std::uintptr_t>(ctx.ub), hi = lo + ctx.ub_bytes;
  for (int i = 0; i < ctx.nops; ++i) {
    if (ctx.ops[i].kind != Operand::Kind::Tile) continue;
    const ByteRange r = ctx.ops[i].tile.footprint();
    if (!r.empty() && (r.lo < lo || r.hi > hi)) return false;
  }
  return true;
}

// The common part of a device path's covers(): every tile in UB, dst's dtype in D, no boxed (NZ / ZN)
// operand (the algorithms address tiles by strides), and (unless the family addresses ColMajor tiles
// itself: AnyLayout) RowMajor full operands (the first three).
template <DTypeSet D, bool AnyLayout = false>
bool covers(const ExecContext& ctx) {
  if (!operands_in_ub(ctx) || !D.has(ctx.ops[0].tile.dtype)) return false;
  for (int i = 0; i < ctx.nops; ++i) {
    const Operand& o = ctx.ops[i];
    if (o.kind != Operand::Kind::Tile) continue;
    if (o.tile.boxed || (!AnyLayout && i < 3 && !o.tile.row_major)) return false;
  }
  return true;
}

// The core's UB as an instruction's intrinsics address it.
struct UbWindow {
  std::byte* base;
  std::size_t bytes;
  const char* instruction;
  // Host addresses [lo, hi) must lie inside UB.
  void check(const char* intrinsic, const char* verb, std::uintptr_t lo, std::uintptr_t hi) const {
    const auto u = reinterpret_cast<std::uintptr_t>(base);
    if (lo < u || hi > u + bytes)
      detail::fail(instruction, ": ", intrinsic, " ", verb, " UB bytes [", std::int64_t(lo - u), ", ", std::int64_t(hi - u),
                   "), outside the ", bytes / 1024, " KiB UB");
  }
};

// copy_ubuf_to_ubuf(dst, src, 0, nBurst, lenBurst, srcGap, dstGap) on either machine: nBurst bursts of
// lenBurst 32-byte blocks, srcGap / dstGap blocks skipped after each; the bytes checked against UB, and
// moved when `execute`.
inline void ub_copy(const UbWindow& ub, void* dst, const void* src, unsigned n_burst, unsigned len_burst, unsigned src_gap,
                    unsigned dst_gap, bool execute) {
  if (n_burst == 0 || len_burst == 0) return;
  const auto* s = static_cast<const std::byte*>(src);
  auto* d = static_cast<std::byte*>(dst);
  const auto s0 = reinterpret_cast<std::uintptr_t>(s), d0 = reinterpret_cast<std::uintptr_t>(d);
  ub.check("copy_ubuf_to_ubuf", "reads", s0, s0 + (std::uintptr_t(n_burst) * (len_burst + src_gap) - src_gap) * 32);
  ub.check("copy_ubuf_to_ubuf", "writes", d0, d0 + (std::uintptr_t(n_burst) * (len_burst + dst_gap) - dst_gap) * 32);
  if (!execute) return;
  for (unsigned k = 0; k < n_burst; ++k, s += (len_burst + src_gap) * 32, d += (len_burst + dst_gap) * 32)
    std::memmove(d, s, std::size_t(len_burst) * 32);
}

}  // namespace pto::device
