// The A2/A3 device code paths as the registry holds them (backends/instructions/*.cpp): an algorithm
// over the vector unit, the predicate saying which operands it covers, and what it writes past the
// valid region, wrapped into one backend::DevicePath that executes or records the same run.
#pragma once
#include <pto/backends/registry.hpp>

#include "../common/sort_paths.hpp"
#include "algorithms.hpp"
#include "transpose.hpp"

namespace pto::a2a3 {

using RunFn = void (*)(VectorUnit&, const ExecContext&);

template <RunFn Run>
void execute(ExecContext& ctx) {
  VectorUnit vu(ctx.ub, ctx.ub_bytes, op_name(ctx.op), nullptr, true);
  Run(vu, ctx);
}
// A recording run reads no data (the pipeline model runs ahead of the data; model-only runs have none).
template <RunFn Run>
void record(const ExecContext& ctx, IntrinsicStream& s) {
  VectorUnit vu(ctx.ub, ctx.ub_bytes, find_desc(ctx.op)->name, &s, false);
  Run(vu, ctx);
}
template <RunFn Run, bool (*Covers)(const ExecContext&), backend::Overrun (*Over)(const ExecContext&) = nullptr>
inline constexpr backend::DevicePath path{Covers, execute<Run>, record<Run>, Over};

// ---- element types ---------------------------------------------------------------------------------
using dtypes::kFloats;  // the ISA's sets (isa/instr_desc.hpp), defined once
using dtypes::kUpTo32;
inline constexpr DTypeSet kInts{DType::I32, DType::I16};
inline constexpr DTypeSet kNumbers = kFloats | kInts;
inline constexpr DTypeSet kEvery = kUpTo32 | DTypeSet{DType::I64, DType::U64};

// Algo::run<T> for the operand's dtype (the covering predicate has admitted it).
template <class Algo, DTypeSet Lanes>
void typed(VectorUnit& vu, const ExecContext& ctx) {
  const DType t = ctx.ops[0].tile.dtype;
  if (!Lanes.has(t)) detail::fail(op_name(ctx.op), ": no A2A3 device path for dtype ", name_of(t));
  switch (t) {
    case DType::F32: return Algo::template run<float>(vu, ctx);
    case DType::F16: return Algo::template run<half>(vu, ctx);
    case DType::I32: return Algo::template run<std::int32_t>(vu, ctx);
    case DType::I16: return Algo::template run<std::int16_t>(vu, ctx);
    case DType::U32:  // unsigned lanes only where a family admits them (TSHLS / TSHRS)
      if constexpr (Lanes.has(DType::U32)) return Algo::template run<std::uint32_t>(vu, ctx);
      break;
    case DType::U16:
      if constexpr (Lanes.has(DType::U16)) return Algo::template run<std::uint16_t>(vu, ctx);
      break;
    default: break;
  }
  detail::fail(op_name(ctx.op), ": no A2A3 device path for dtype ", name_of(t));
}

template <Fn F, bool ExpDif> struct ColExpandOp {
  template <class T> static void run(VectorUnit& vu, const ExecContext& c) { colexpand_op<F, ExpDif, T>(vu, c); }
};
template <Fn F, bool ExpDif> struct RowExpandOp {
  template <class T> static void run(VectorUnit& vu, const ExecContext& c) { rowexpand_op<F, ExpDif, T>(vu, c, c.ub); }
};
template <Fn F> struct TileScalar {
  template <class T> static void run(VectorUnit& vu, const ExecContext& c) { tile_scalar<F, T>(vu, c); }
};
struct Divs {
  template <class T> static void run(VectorUnit& vu, const ExecContext& c) { divs<T>(vu, c); }
};
template <Fn F> struct Binary {
  template <class T> static void run(VectorUnit& vu, const ExecContext& c) { binary<F, T>(vu, c); }
};
template <lanes::UnOp U> struct Unary {
  template <class T> static void run(VectorUnit& vu, const ExecContext& c) { unary_op<U, T>(vu, c); }
};
struct Exp {
  template <class T> static void run(VectorUnit& vu, const ExecContext& c) { texp<T>(vu, c); }
};
struct AxpySame {
  template <class T> static void run(VectorUnit& vu, const ExecContext& c) { axpy_same<T>(vu, c); }
};
inline void axpy(VectorUnit& vu, const ExecContext& ctx) {
  if (ctx.ops[1].tile.dtype != ctx.ops[0].tile.dtype) return axpy_widening(vu, ctx);
  typed<AxpySame, kFloats>(vu, ctx);
}

// ---- what a path covers ----------------------------------------------------------------------------
// The A2/A3 algorithms address RowMajor tiles; the row family's expand operand, TROWEXPAND, TEXPANDS and
// TMOV address ColMajor ones too (AnyLayout).
using device::covers;
// TMOV: the algorithm needs both tiles of one shape and layout (its static rule).
inline bool covers_tmov(const ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile;
  return covers<kEvery, true>(ctx) && d.row_major == s.row_major && d.rows == s.rows && d.cols == s.cols;
}
// TDIVS: integers take the scalar loop; floats scalar / src in place would be clobbered by dup-then-divide.
inline bool covers_divs(const ExecContext& ctx) {
  if (!covers<kNumbers>(ctx)) return false;
  return !is_float(ctx.ops[0].tile.dtype) ||
         !((ctx.variant & kVariantScalarFirst) && ctx.ops[0].tile.footprint().overlaps(ctx.ops[1].tile.footprint()));
}

// ---- what a path writes past the valid region ------------------------------------------------------
// Pure TCOLEXPAND: whole 32-byte blocks of row 0 per dst row.
inline backend::Overrun overrun_colexpand(const ExecContext& ctx) {
  backend::Overrun o;
  const TileView& d = ctx.ops[0].tile;
  const std::size_t bytes = std::size_t(d.valid_cols) * d.elem_bytes();
  o.tail_bytes = std::uint32_t((bytes + 31) / 32 * 32 - bytes);
  if (o.tail_bytes && d.valid_rows > 0)
    o.warning = detail::cat("TCOLEXPAND: the A2A3 algorithm copies whole 32-byte blocks, so each of dst's ", d.valid_rows,
                            " valid rows is also written ", o.tail_bytes / d.elem_bytes(), " element(s) past its ", d.valid_cols,
                            " valid columns (inside the tile, with src row 0's values)");
  return o;
}
// TMOV: whole 32-byte blocks per line unless the lines are contiguous.
inline backend::Overrun overrun_tmov(const ExecContext& ctx) {
  backend::Overrun o;
  const TileView& d = ctx.ops[0].tile;
  const Lines l = lines_of(d), ls = lines_of(ctx.ops[1].tile);
  const std::size_t bytes = std::size_t(l.len) * d.elem_bytes();
  if (!(l.cap_len == l.len && ls.cap_len == l.len) && bytes % 32 && l.count > 0) {
    o.tail_bytes = std::uint32_t((bytes + 31) / 32 * 32 - bytes);
    o.warning = detail::cat("TMOV: the A2A3 algorithm copies whole 32-byte blocks, so each of dst's ", l.count, " valid ",
                            d.row_major ? "rows" : "columns", " is also written ", o.tail_bytes / d.elem_bytes(),
                            " element(s) past its ", l.len, " valid elements (inside the tile, with src's bytes there)");
  }
  return o;
}
// TEXPANDS: 8-bit values go as 16-bit lanes.
inline backend::Overrun overrun_expands(const ExecContext& ctx) {
  backend::Overrun o;
  const TileView& d = ctx.ops[0].tile;
  const Lines l = lines_of(d);
  const bool one_call = device::expands_one_call(d);
  if (d.elem_bytes() == 1 && (one_call ? std::uint64_t(l.count) * std::uint64_t(l.len) : std::uint64_t(l.len)) % 2) {
    o.tail_bytes = 1;
    o.warning = detail::cat("TEXPANDS: the A2A3 algorithm duplicates 8-bit values as 16-bit lanes, so ",
                            one_call ? "the valid region is" : "each valid line is", " also written 1 element further (inside the tile)");
  }
  return o;
}
// Pure TROWEXPAND: 8-bit values go as 16-bit lanes.
inline backend::Overrun overrun_rowexpand(const ExecContext& ctx) {
  backend::Overrun o;
  const TileView& d = ctx.ops[0].tile;
  if (d.elem_bytes() == 1 && d.valid_cols % 2 && d.valid_rows > 0) {
    o.tail_bytes = 1;
    o.warning = detail::cat("TROWEXPAND: the A2A3 algorithm duplicates 8-bit values as 16-bit lanes, so each of dst's ",
                            d.valid_rows, " valid rows is also written 1 element past its ", d.valid_cols,
                            " valid columns (inside the tile)");
  }
  return o;
}
// TROWEXPAND<op> with a ColMajor expand operand (mode 1): 240-row chunks.
inline backend::Overrun overrun_rowexpand_op(const ExecContext& ctx) {
  backend::Overrun o;
  if (ctx.variant & kVariantMode2) return o;
  const TileView& d = ctx.ops[0].tile;
  const int rows = chunked_rows(d.valid_rows);
  if (rows > d.valid_rows && rows <= d.rows) {
    o.extra_lines = std::uint32_t(rows - d.valid_rows);
    o.warning = detail::cat(op_name(ctx.op), ": the A2A3 mode-1 algorithm works in 240-row chunks, so for ", d.valid_rows,
                            " valid rows it also computes and writes dst rows ", d.valid_rows, "..", rows - 1,
                            " (inside the tile's ", d.rows, " rows), reading the operands' rows there too");
  }
  return o;
}

// ---- the paths of each family ------------------------------------------------------------------------
template <Fn F, bool ExpDif, DTypeSet D>
inline constexpr backend::DevicePath colexpand_path = path<typed<ColExpandOp<F, ExpDif>, D>, covers<D>>;
template <Fn F, bool ExpDif, DTypeSet D>
inline constexpr backend::DevicePath rowexpand_path =
    path<typed<RowExpandOp<F, ExpDif>, D>, covers<D, true>, overrun_rowexpand_op>;
template <lanes::UnOp U, DTypeSet D>
inline constexpr backend::DevicePath unary_path = path<typed<Unary<U>, D>, covers<D>>;
// TNOT: 8-bit tiles run as int16 lanes over half the bytes rounded up.
inline backend::Overrun overrun_tnot(const ExecContext& ctx) {
  backend::Overrun o;
  const TileView& d = ctx.ops[0].tile;
  if (d.elem_bytes() == 1 && d.valid_cols % 2 && d.valid_rows > 0) {
    o.tail_bytes = 1;
    o.warning = detail::cat(find_desc(ctx.op)->name, ": the A2A3 algorithm works on 16-bit lanes, so each of dst's ", d.valid_rows,
                            " valid rows is also written 1 element past its ", d.valid_cols, " valid columns (inside the tile)");
  }
  return o;
}
inline constexpr DTypeSet kNotTypes{DType::I8, DType::U8, DType::I16, DType::U16, DType::I32, DType::U32};
inline constexpr backend::DevicePath not_path = path<tnot, covers<kNotTypes>, overrun_tnot>;
template <Fn F, DTypeSet D>
inline constexpr backend::DevicePath binary_path = path<typed<Binary<F>, D>, covers<D>>;
template <Fn F>
inline constexpr backend::DevicePath tile_scalar_path = path<typed<TileScalar<F>, kNumbers>, covers<kNumbers>>;


// Reductions: rows on every dtype of the family (dst may be a DN [R,1] tile); columns RowMajor.
template <lanes::BinOp O> struct RowReduce {
  template <class T> static void run(VectorUnit& vu, const ExecContext& c) { row_reduce<O, T>(vu, c); }
};
template <lanes::BinOp O> struct ColReduce {
  template <class T> static void run(VectorUnit& vu, const ExecContext& c) { col_reduce<O, T>(vu, c); }
};
struct ColSum {
  template <class T> static void run(VectorUnit& vu, const ExecContext& c) { col_sum<T>(vu, c); }
};
// What TCOL*'s row copy writes past dst's valid width: the rest of its last 32-byte block.
inline backend::Overrun overrun_col_reduce(const ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const std::size_t bytes = std::size_t(ctx.ops[1].tile.valid_cols) * d.elem_bytes();
  backend::Overrun o;
  o.tail_bytes = std::uint32_t((bytes + 31) / 32 * 32 - bytes);
  if (o.tail_bytes)
    o.warning = detail::cat(op_name(ctx.op), ": the A2A3 algorithm copies src row 0 into dst in whole 32-byte blocks, so dst's "
                            "row is also written ", o.tail_bytes, " bytes past its ", d.valid_cols, " valid columns (inside the tile)");
  return o;
}
template <lanes::BinOp O>
inline constexpr backend::DevicePath row_reduce_path = path<typed<RowReduce<O>, kNumbers>, covers<kNumbers, true>>;
template <lanes::BinOp O>
inline constexpr backend::DevicePath col_reduce_path = path<typed<ColReduce<O>, kNumbers>, covers<kNumbers>, overrun_col_reduce>;
inline constexpr backend::DevicePath col_sum_path = path<typed<ColSum, kNumbers>, covers<kNumbers>, overrun_col_reduce>;

// TSEL / TSELS: 16- and 32-bit elements as bit copies; the mask and every tile in UB.
inline void tsel_run(VectorUnit& vu, const ExecContext& ctx) {
  if (ctx.ops[0].tile.elem_bytes() == 2) tsel<std::uint16_t>(vu, ctx);
  else tsel<std::uint32_t>(vu, ctx);
}
inline bool covers_select(const ExecContext& ctx) {
  const std::size_t es = ctx.ops[0].tile.elem_bytes();
  return device::operands_in_ub(ctx) && (es == 2 || es == 4);
}
inline constexpr backend::DevicePath select_path = path<tsel_run, covers_select>;

// TCVT: every pair the target has (the public function has checked the pair), operands in UB.
inline constexpr backend::DevicePath convert_path = path<tcvt, device::operands_in_ub>;

// TAND / TOR / TXOR: 16-bit lanes (an odd 8-bit width writes one byte more, as TNOT's).
template <Fn F>
inline constexpr backend::DevicePath bitwise_path = path<bitwise<F>, covers<kNotTypes>, overrun_tnot>;
inline constexpr backend::DevicePath xor_path = path<txor, covers<kNotTypes>, overrun_tnot>;
// TANDS / TORS / TXORS: TEXPANDS then the tile-tile op on 16-bit lanes; TSHLS / TSHRS: TBinSInstr with
// vshl / vshr of the scalar count on 16- and 32-bit elements.
template <Fn F>
inline constexpr backend::DevicePath bitwise_scalar_path = path<bitwise_scalar<F>, covers<kNotTypes>, overrun_tnot>;
inline constexpr backend::DevicePath xors_path = path<txors, covers<kNotTypes>, overrun_tnot>;
inline constexpr DTypeSet kShiftS{DType::I16, DType::U16, DType::I32, DType::U32};
template <Fn F>
inline constexpr backend::DevicePath shift_scalar_path = path<typed<TileScalar<F>, kShiftS>, covers<kShiftS>>;

// TSORT32 / TMRGSORT (backends/common/sort_paths.hpp).
inline constexpr backend::DevicePath sort32_path = path<typed<sort_paths::Sort32<SortChip>, kFloats>, sort_paths::covers, sort_paths::overrun>;
inline constexpr backend::DevicePath mrgsort_path = path<typed<sort_paths::MrgSort<SortChip>, kFloats>, sort_paths::covers, sort_paths::overrun>;

// TGATHER's index form (the mask patterns run the CPU reference: their vreducev2 / vcopy calls pass a
// repeat count in counter mode, whose meaning docs/sort-gather.md leaves open). 16-bit data keeps its
// byte offsets in tmp at dst's row stride, which tmp's capacity must hold.
inline void tgather_run(VectorUnit& vu, const ExecContext& ctx) {
  if (ctx.ops[0].tile.elem_bytes() == 4) tgather_index<std::uint32_t>(vu, ctx);
  else tgather_index<std::uint16_t>(vu, ctx);
}
inline bool covers_gather(const ExecContext& ctx) {
  if ((ctx.variant & kVariantGatherMask) || !device::operands_in_ub(ctx)) return false;
  const TileView &d = ctx.ops[0].tile, &t = ctx.ops[3].tile;
  const std::size_t es = d.elem_bytes();
  if (es == 4) return true;
  return es == 2 && (std::size_t(d.valid_rows - 1) * std::size_t(d.row_stride) + std::size_t(d.valid_cols)) * 4 <= t.capacity_bytes();
}
inline constexpr backend::DevicePath gather_path = path<tgather_run, covers_gather>;

// TTRANS: the vnchwconv path of aligned strides (transpose.hpp; the scalar element loop the chip runs
// otherwise is the CPU reference's transpose), dst, src and tmp in UB and apart (what the chip makes of
// overlapping operands is not modelled).
inline bool covers_trans(const ExecContext& ctx) {
  if (!(ctx.variant & kVariantTransAligned) || !device::operands_in_ub(ctx)) return false;
  const ByteRange d = ctx.ops[0].footprint(true), s = ctx.ops[1].footprint(), t = ctx.ops[2].footprint(true);
  return !d.overlaps(s) && !d.overlaps(t) && !s.overlaps(t);
}
// The copy from tmp moves each of dst's written rows as whole 32-byte blocks: the rest of the last one
// takes tmp's padding columns (UB's first bytes, transpose.hpp).
inline backend::Overrun overrun_trans(const ExecContext& ctx) {
  const TileView& s = ctx.ops[1].tile;
  const std::size_t bytes = std::size_t(s.valid_rows) * s.elem_bytes();
  backend::Overrun o;
  o.tail_bytes = std::uint32_t((bytes + 31) / 32 * 32 - bytes);
  if (o.tail_bytes && s.valid_cols > 0)
    o.warning = detail::cat("TTRANS: the A2A3 algorithm copies tmp into dst in whole 32-byte blocks, so each of dst's ", s.valid_cols,
                            " written rows is also written ", o.tail_bytes, " bytes past its ", s.valid_rows,
                            " columns (inside the tile, with tmp's padding: bytes the chip reads from the start of UB)");
  return o;
}
inline constexpr backend::DevicePath trans_path = path<ttrans, covers_trans, overrun_trans>;

}  // namespace pto::a2a3
