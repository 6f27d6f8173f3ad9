// The A5 device code paths as the registry holds them (backends/instructions/*.cpp): an algorithm on
// the register unit and the predicate saying which operands it covers, wrapped into one
// backend::DevicePath that executes or records the same run. A5 stores are predicated: no vector
// function writes past the valid region. Only TSORT32 and TMRGSORT declare an overrun: vbitsort and
// copy_ubuf_to_ubuf work outside the vector function, on whole blocks.
#pragma once
#include <pto/backends/registry.hpp>

#include "../common/sort_paths.hpp"
#include "algorithms.hpp"

namespace pto::a5 {

using RunFn = void (*)(RegisterUnit&, const ExecContext&);

template <RunFn Run>
void execute(ExecContext& ctx) {
  RegisterUnit u(ctx.ub, ctx.ub_bytes, op_name(ctx.op), nullptr, true);
  Run(u, ctx);
}
// A recording run counts the intrinsics of the vector-function loop and reads no data.
template <RunFn Run>
void record(const ExecContext& ctx, IntrinsicStream& s) {
  RegisterUnit u(ctx.ub, ctx.ub_bytes, find_desc(ctx.op)->name, &s, false);
  Run(u, ctx);
  u.flush();
}
template <RunFn Run, bool (*Covers)(const ExecContext&), backend::Overrun (*Over)(const ExecContext&) = nullptr>
inline constexpr backend::DevicePath path{Covers, execute<Run>, record<Run>, Over};

// ---- element types ---------------------------------------------------------------------------------
// The lane types a family runs on (the instruction's own dtype check has already applied the A5 column
// of the spec's tables): floats = f32 / f16; bf16; ints = (u)int16 / (u)int32; bytes = (u)int8; wide =
// (u)int64 as register pairs.
using dtypes::kFloats;  // the ISA's sets (isa/instr_desc.hpp), defined once
using dtypes::kUpTo32;
using dtypes::kWide;
inline constexpr DTypeSet kEvery = kUpTo32 | kWide;
inline constexpr DTypeSet kFloatsInts{DType::F32, DType::F16, DType::I16, DType::U16, DType::I32, DType::U32};

// Algo::run<T> for the operand's dtype; Algo64::run<T> for 64-bit ones where the family has a
// register-pair algorithm (Algo itself when it is written for every width).
template <class Algo, DTypeSet Lanes, class Algo64 = void>
void typed(RegisterUnit& u, const ExecContext& ctx) {
  const DType t = ctx.ops[0].tile.dtype;
  if (!Lanes.has(t)) detail::fail(op_name(ctx.op), ": no A5 device path for dtype ", name_of(t));
  switch (t) {
    case DType::F32: return Algo::template run<float>(u, ctx);
    case DType::F16: return Algo::template run<half>(u, ctx);
    case DType::BF16: return Algo::template run<bfloat16_t>(u, ctx);
    case DType::I32: return Algo::template run<std::int32_t>(u, ctx);
    case DType::U32: return Algo::template run<std::uint32_t>(u, ctx);
    case DType::I16: return Algo::template run<std::int16_t>(u, ctx);
    case DType::U16: return Algo::template run<std::uint16_t>(u, ctx);
    case DType::I8: return Algo::template run<std::int8_t>(u, ctx);
    case DType::U8: return Algo::template run<std::uint8_t>(u, ctx);
    case DType::I64:
    case DType::U64:
      if constexpr (!std::is_void_v<Algo64>) {
        if (t == DType::I64) return Algo64::template run<std::int64_t>(u, ctx);
        return Algo64::template run<std::uint64_t>(u, ctx);
      }
      [[fallthrough]];
    default: detail::fail(op_name(ctx.op), ": no A5 device path for dtype ", name_of(t));
  }
}

template <Fn F, bool ExpDif> struct ColExpandOp {
  template <class T> static void run(RegisterUnit& u, const ExecContext& c) { colexpand_op<F, ExpDif, T>(u, c); }
};
template <Fn F> struct ColExpand64 {
  template <class T> static void run(RegisterUnit& u, const ExecContext& c) { colexpand64<F, T>(u, c); }
};
template <Fn F, bool ExpDif> struct RowExpandOp {
  template <class T> static void run(RegisterUnit& u, const ExecContext& c) { rowexpand_op<F, ExpDif, T>(u, c); }
};
template <Fn F> struct TileScalar {
  template <class T> static void run(RegisterUnit& u, const ExecContext& c) { tile_scalar<F, T>(u, c); }
};
template <Fn F> struct TileScalar64 {
  template <class T> static void run(RegisterUnit& u, const ExecContext& c) { tile_scalar64<F, T>(u, c); }
};
template <Fn F> struct Binary {
  template <class T> static void run(RegisterUnit& u, const ExecContext& c) { binary<F, T>(u, c); }
};
template <Fn F> struct Binary64 {
  template <class T> static void run(RegisterUnit& u, const ExecContext& c) { binary64<F, T>(u, c); }
};
template <lanes::UnOp U> struct Unary {
  template <class T> static void run(RegisterUnit& u, const ExecContext& c) { unary_op<U, T>(u, c); }
};
struct Exp {
  template <class T> static void run(RegisterUnit& u, const ExecContext& c) { texp<T>(u, c); }
};
struct AxpySame {
  template <class T> static void run(RegisterUnit& u, const ExecContext& c) { axpy_same<T>(u, c); }
};
struct ExpandS {
  template <class T> static void run(RegisterUnit& u, const ExecContext& c) { expands<T>(u, c); }
};
struct Mov {
  template <class T> static void run(RegisterUnit& u, const ExecContext& c) { tmov<T>(u, c); }
};
struct RowExpand {
  template <class T> static void run(RegisterUnit& u, const ExecContext& c) { rowexpand_pure<T>(u, c); }
};
struct ColExpand {
  template <class T> static void run(RegisterUnit& u, const ExecContext& c) { colexpand_pure<T>(u, c); }
};
inline void axpy(RegisterUnit& u, const ExecContext& ctx) {
  if (ctx.ops[1].tile.dtype != ctx.ops[0].tile.dtype) return axpy_widening(u, ctx);
  typed<AxpySame, kFloats>(u, ctx);
}

// ---- what a path covers ----------------------------------------------------------------------------
// RowMajor full operands; the row family's expand operand and TROWEXPAND's source may be ColMajor
// (AnyLayout).
using device::covers;

// ---- the paths of each family ------------------------------------------------------------------------
template <Fn F, bool ExpDif, DTypeSet D>
inline constexpr backend::DevicePath colexpand_path = path<typed<ColExpandOp<F, ExpDif>, D>, covers<D>>;
template <Fn F, bool ExpDif, DTypeSet D>
inline constexpr backend::DevicePath rowexpand_path = path<typed<RowExpandOp<F, ExpDif>, D>, covers<D, true>>;
// Every dtype, 64-bit ones as register pairs.
template <lanes::UnOp U, DTypeSet D>
inline constexpr backend::DevicePath unary_path = path<typed<Unary<U>, D>, covers<D>>;
// TADD TSUB TMUL TMAX TMIN (64-bit as register pairs); TDIV: no 64-bit path (Int64Div is planned).
template <Fn F>
inline constexpr backend::DevicePath binary_path = path<typed<Binary<F>, kEvery, Binary64<F>>, covers<kEvery>>;
inline constexpr backend::DevicePath div_path = path<typed<Binary<Fn::Div>, kFloatsInts>, covers<kFloatsInts>>;
template <Fn F>
inline constexpr backend::DevicePath tile_scalar_path = path<typed<TileScalar<F>, kEvery, TileScalar64<F>>, covers<kEvery>>;
// TANDS / TORS / TXORS / TSHLS / TSHRS on 8- to 32-bit integers: one vands / vors / vxors / vshls /
// vshrs per chunk (64-bit shifts, Int64Scalar, are planned: plan::a5::elementwise).
inline constexpr DTypeSet kBits{DType::I8, DType::U8, DType::I16, DType::U16, DType::I32, DType::U32};
template <Fn F>
inline constexpr backend::DevicePath bits_scalar_path = path<typed<TileScalar<F>, kBits>, covers<kBits>>;


// Reductions: rows (dst may be a DN [R,1] tile) and columns, every width but 64 bits (planned).
inline constexpr DTypeSet kRowReduce{DType::F32, DType::F16, DType::I32, DType::I16};
inline constexpr DTypeSet kRowMinMax = kRowReduce | DTypeSet{DType::I8, DType::U8};
template <lanes::BinOp O> struct RowReduce {
  template <class T> static void run(RegisterUnit& u, const ExecContext& c) { row_reduce<O, T>(u, c); }
};
template <lanes::BinOp O> struct ColReduce {
  template <class T> static void run(RegisterUnit& u, const ExecContext& c) { col_reduce<O, T>(u, c); }
};
struct ColSum {
  template <class T> static void run(RegisterUnit& u, const ExecContext& c) { col_sum<T>(u, c); }
};
template <lanes::BinOp O, DTypeSet D>
inline constexpr backend::DevicePath row_reduce_path = path<typed<RowReduce<O>, D>, covers<D, true>>;
template <lanes::BinOp O>
inline constexpr backend::DevicePath col_reduce_path = path<typed<ColReduce<O>, kUpTo32>, covers<kUpTo32>>;
inline constexpr backend::DevicePath col_sum_path = path<typed<ColSum, kUpTo32>, covers<kUpTo32>>;

// TCVT: every pair the target has (the public function has checked the pair), operands in UB.
inline constexpr backend::DevicePath convert_path = path<tcvt, device::operands_in_ub>;

// TSEL / TSELS on 8- to 32-bit elements (64-bit, Int64Select, is planned). 8-bit TSEL only up to 256
// valid columns: a5/TSel.hpp steps its mask loads by 16 bytes per 256-lane chunk, so a second chunk
// would select by the first chunk's upper bits (the CPU reference computes what the ISA specifies).
inline void tsel_run(RegisterUnit& u, const ExecContext& ctx) {
  switch (ctx.ops[0].tile.elem_bytes()) {
    case 1: return tsel<std::uint8_t>(u, ctx);
    case 2: return tsel<std::uint16_t>(u, ctx);
    default: return tsel<std::uint32_t>(u, ctx);
  }
}
inline bool covers_select(const ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const std::size_t es = d.elem_bytes();
  if (!device::operands_in_ub(ctx) || es == 8) return false;
  return !(es == 1 && ctx.op == Op::TSEL && d.valid_cols > 256);
}
inline constexpr backend::DevicePath select_path = path<tsel_run, covers_select>;

// TSORT32 / TMRGSORT (backends/common/sort_paths.hpp). A5's part: rows up to 8160 bytes are staged
// whole; the padding is a vector function (a load of the block, a merging vdup of -NaN over lanes
// tail..31, a store of the 32 elements); no pipe barriers.
struct SortChip {
  static bool small(unsigned cols, std::size_t es) { return std::size_t(cols) * es <= 8160; }
  template <class T>
  static void pad(RegisterUnit& u, T* block, unsigned tail) {
    Reg<T> r = u.vlds(block, 0);
    u.vbr();
    if (u.executes()) std::fill(r.v.begin() + tail, r.v.begin() + 32, T(-std::numeric_limits<float>::quiet_NaN()));  // -(0.0 / 0.0)
    u.vsts(r, block, 0, Mask{32});
  }
  static void barrier(RegisterUnit&) {}
};
inline constexpr backend::DevicePath sort32_path = path<typed<sort_paths::Sort32<SortChip>, kFloats>, sort_paths::covers, sort_paths::overrun>;
inline constexpr backend::DevicePath mrgsort_path = path<typed<sort_paths::MrgSort<SortChip>, kFloats>, sort_paths::covers, sort_paths::overrun>;

// TGATHER: the index form and the mask patterns by rows, 1- to 4-byte data (64-bit data, Int64Gather,
// and the column axis, whose NPU loop runs over src's rows past dst's, run the CPU reference).
inline void tgather_run(RegisterUnit& u, const ExecContext& ctx) {
  const std::size_t es = ctx.ops[0].tile.elem_bytes();
  if (ctx.variant & kVariantGatherMask) {
    if (es == 4) return tgather_mask<std::uint32_t>(u, ctx);
    if (es == 2) return tgather_mask<std::uint16_t>(u, ctx);
    return tgather_mask<std::uint8_t>(u, ctx);
  }
  const bool wide = ctx.ops[2].tile.elem_bytes() == 4;
  if (es == 4) return tgather_index<std::uint32_t, std::uint32_t>(u, ctx);
  if (es == 2) return wide ? tgather_index<std::uint16_t, std::uint32_t>(u, ctx) : tgather_index<std::uint16_t, std::uint16_t>(u, ctx);
  tgather_index<std::uint8_t, std::uint16_t>(u, ctx);
}
inline bool covers_gather(const ExecContext& ctx) {
  if (!device::operands_in_ub(ctx) || ctx.ops[0].tile.elem_bytes() == 8) return false;
  return !(ctx.variant & kVariantGatherMask) || !(ctx.variant & kVariantGatherCol);
}
inline constexpr backend::DevicePath gather_path = path<tgather_run, covers_gather>;

// TFILLPAD, TFILLPAD_INPLACE, TFILLPAD_EXPAND: RowMajor tiles of 1- to 4-byte elements in UB (the
// 8-bit float types, whose pad values the NPUs define apart, run the CPU reference).
struct FillPad {
  template <class T> static void run(RegisterUnit& u, const ExecContext& c) { tfillpad<T>(u, c); }
};
// dst and src apart, or the same storage at one row stride (in place): the chip copies every row before
// it pads, the CPU reference row by row, which differ when the two only partly overlap.
inline bool covers_fillpad(const ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile;
  const bool same = d.base == s.base && d.row_stride == s.row_stride;
  return covers<kUpTo32>(ctx) && (same || !ctx.ops[0].footprint(true).overlaps(ctx.ops[1].footprint()));
}
inline constexpr backend::DevicePath fillpad_path = path<typed<FillPad, kUpTo32>, covers_fillpad>;

// TTRANS: every 1-, 2- and 4-byte type (moved as its bits), dst and src in UB and apart (the CPU reference
// reads an aliased src whole first; the chip's in-place result is not modelled).
inline void ttrans_run(RegisterUnit& u, const ExecContext& c) {
  const std::size_t es = c.ops[1].tile.elem_bytes();
  if (es == 4) ttrans<std::uint32_t>(u, c);
  else if (es == 2) ttrans<std::uint16_t>(u, c);
  else ttrans<std::uint8_t>(u, c);
}
inline bool covers_trans(const ExecContext& ctx) {
  return device::operands_in_ub(ctx) && !ctx.ops[0].footprint(true).overlaps(ctx.ops[1].footprint());
}
inline constexpr backend::DevicePath trans_path = path<ttrans_run, covers_trans>;

}  // namespace pto::a5
