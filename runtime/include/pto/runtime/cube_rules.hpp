// The rules of the cube's data moves (docs/cube.md; facts in docs/research/cube-facts.md B.2, A.4, B.5):
//  - TEXTRACT / TMOV Mat (L1) -> Left (L0A) / Right (L0B) on MTE1;
//  - TMOV Mat -> Bias (BT) on MTE1;
//  - TMOV Mat -> Scaling (FB) on FIX;
//  - TSTORE Acc (L0C) -> GM on FIX (the fixpipe: cast or quantisation, ReLU, atomic add);
//  - TMOV / TEXTRACT Acc -> Mat (L1) or Vec (UB, A5) on FIX, converted alike.
// TEXTRACT (extract.hpp), TMOV and TSTORE (data_movement.hpp) dispatch here by the tiles' TileType.
#pragma once
#include <cstdint>
#include <type_traits>

#include <pto/isa/global_tensor.hpp>
#include <pto/isa/instr_desc.hpp>
#include <pto/isa/operand.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {

namespace detail {
// The cube's tile layouts: Left is 16 x C0 row-major fractals, in either block order (A2A3's TileLeft is
// zZ, A5's and pto-isa's CPU simulator's nZ: both are accepted on both targets); Right is ZN; Acc is NZ
// of 16 x 16 fractals.
template <class T> inline constexpr bool kLeftTile = T::Loc == TileType::Left && T::isInnerRowMajor && T::SFractalSize == 512;
template <class T> inline constexpr bool kRightTile = T::Loc == TileType::Right && kZnTile<T>;
template <class T> inline constexpr bool kAccTile =
    T::Loc == TileType::Acc && !T::isRowMajor && T::isInnerRowMajor && T::SFractalSize == 1024;

// GEMV's source: a 1-row ND Mat tile moved into a 1-row Left tile (its vector, flat in L0A).
template <class Dst, class Src>
inline constexpr bool kGemvVector = Dst::Loc == TileType::Left && Dst::Rows == 1 && Src::Loc == TileType::Mat &&
                                    Src::Rows == 1 && Src::isRowMajor && !Src::isBoxedLayout;

// The side of the square fractals a transposing MTE1 move goes in (a5 TExtract.hpp's c0Size for 1-byte
// and 4-bit types).
constexpr int transpose_fractal(DType t) { return is_packed4(t) ? 64 : size_of(t) == 1 ? 32 : 16; }

template <class Dst, class Src, bool Mov>
constexpr bool l0_move_static() {
  if constexpr (kGemvVector<Dst, Src>) {
    // GEMV's row vector (a2a3 / a5 TExtractToAVector): whole 512-byte blocks of a 1-row ND Mat tile.
    static_assert(std::is_same_v<typename Dst::DType, typename Src::DType>,
                  "TEXTRACT / TMOV Mat -> Left (GEMV's row vector): dst and src must have the same DType");
    static_assert(Src::Cols % (16 * kBlockElems<typename Src::DType>) == 0 && Dst::Cols % (16 * kBlockElems<typename Dst::DType>) == 0,
                  "TEXTRACT / TMOV Mat -> Left (GEMV's row vector, a 1-row ND Mat tile): src's and dst's Cols must be "
                  "multiples of 512 bytes (the move copies whole 512-byte blocks)");
    static_assert(!Mov || Dst::Cols == Src::Cols, "TMOV Mat -> Left (GEMV's row vector): dst and src must have the same Cols");
    return true;
  } else {
  static_assert(Src::Loc == TileType::Mat,
                "TEXTRACT / TMOV into a Left or Right tile: src must be a Mat (L1) tile (MTE1 moves L1 -> L0A / L0B)");
  static_assert(std::is_same_v<typename Dst::DType, typename Src::DType>,
                "TEXTRACT / TMOV Mat -> Left / Right: dst and src must have the same DType (MTE1 converts nothing)");
  static_assert(kNzTile<Src> || kZnTile<Src>,
                "TEXTRACT / TMOV Mat -> Left / Right: src must be an NZ or a ZN Mat tile (512-byte fractals; TLOAD ND -> NZ "
                "or DN -> ZN fills one), or, for GEMV, a 1-row ND Mat tile into a 1-row Left tile");
  static_assert(Dst::Loc != TileType::Left || kLeftTile<Dst>,
                "TEXTRACT / TMOV: a Left dst needs SLayout::RowMajor 512-byte fractals (TileLeft's nZ, or A2A3's zZ)");
  static_assert(Dst::Loc != TileType::Right || kRightTile<Dst>,
                "TEXTRACT / TMOV: a Right dst must be ZN (BLayout::RowMajor, SLayout::ColMajor, 512-byte fractals: TileRight)");
  static_assert(Dst::Rows <= Src::Rows && Dst::Cols <= Src::Cols,
                "TEXTRACT / TMOV Mat -> Left / Right: dst may be no larger than src in Rows and Cols");
  static_assert(!Mov || (Dst::Rows == Src::Rows && Dst::Cols == Src::Cols),
                "TMOV Mat -> Left / Right: dst and src must have the same static Rows and Cols (TEXTRACT takes a window)");
  // The transposing moves (Left from ZN, Right from NZ) go in square fractals of 16 (32 for 1-byte types,
  // 64 for 4-bit ones).
  constexpr bool transpose = Dst::Loc == TileType::Left ? kZnTile<Src> : kNzTile<Src>;
  constexpr int fs = transpose_fractal(dtype_v<typename Dst::DType>);
  static_assert(!transpose || (Dst::Rows % fs == 0 && Dst::Cols % fs == 0 && Src::Rows % fs == 0 && Src::Cols % fs == 0),
                "TEXTRACT / TMOV Mat -> Left / Right: the transposing form (Left from ZN, Right from NZ) needs every Rows "
                "and Cols a multiple of 16 (32 for 1-byte types, 64 for 4-bit ones)");
  return true;
  }
}

// l0_move_static on views (the IR front door; the same rules and messages).
inline void l0_move_type_rules(const TileView& dst, const TileView& src, bool mov) {
  auto rule = [](bool ok, const char* what) {
    if (!ok) fail(what);
  };
  if (dst.loc == TileType::Left && dst.rows == 1 && src.loc == TileType::Mat && src.rows == 1 && nd_view(src)) {
    const int blk = 16 * block_elems(dst.dtype);
    rule(dst.dtype == src.dtype, "TEXTRACT / TMOV Mat -> Left (GEMV's row vector): dst and src must have the same DType");
    rule(src.cols % blk == 0 && dst.cols % blk == 0,
         "TEXTRACT / TMOV Mat -> Left (GEMV's row vector, a 1-row ND Mat tile): src's and dst's Cols must be multiples of 512 "
         "bytes (the move copies whole 512-byte blocks)");
    rule(!mov || dst.cols == src.cols, "TMOV Mat -> Left (GEMV's row vector): dst and src must have the same Cols");
    return;
  }
  rule(src.loc == TileType::Mat, "TEXTRACT / TMOV into a Left or Right tile: src must be a Mat (L1) tile (MTE1 moves L1 -> L0A / L0B)");
  rule(dst.dtype == src.dtype, "TEXTRACT / TMOV Mat -> Left / Right: dst and src must have the same DType (MTE1 converts nothing)");
  rule(nz_view(src) || zn_view(src),
       "TEXTRACT / TMOV Mat -> Left / Right: src must be an NZ or a ZN Mat tile (512-byte fractals; TLOAD ND -> NZ or DN -> ZN "
       "fills one), or, for GEMV, a 1-row ND Mat tile into a 1-row Left tile");
  rule(dst.loc != TileType::Left || left_view(dst),
       "TEXTRACT / TMOV: a Left dst needs SLayout::RowMajor 512-byte fractals (TileLeft's nZ, or A2A3's zZ)");
  rule(dst.loc != TileType::Right || right_view(dst),
       "TEXTRACT / TMOV: a Right dst must be ZN (BLayout::RowMajor, SLayout::ColMajor, 512-byte fractals: TileRight)");
  rule(dst.rows <= src.rows && dst.cols <= src.cols, "TEXTRACT / TMOV Mat -> Left / Right: dst may be no larger than src in Rows and Cols");
  rule(!mov || (dst.rows == src.rows && dst.cols == src.cols),
       "TMOV Mat -> Left / Right: dst and src must have the same static Rows and Cols (TEXTRACT takes a window)");
  const bool transpose = dst.loc == TileType::Left ? zn_view(src) : nz_view(src);
  const int fs = transpose_fractal(dst.dtype);
  rule(!transpose || (dst.rows % fs == 0 && dst.cols % fs == 0 && src.rows % fs == 0 && src.cols % fs == 0),
       "TEXTRACT / TMOV Mat -> Left / Right: the transposing form (Left from ZN, Right from NZ) needs every Rows and Cols a "
       "multiple of 16 (32 for 1-byte types, 64 for 4-bit ones)");
}
// The move of dst's whole static shape from the window at (r0, c0) of src: the MTE1 moves whole
// fractals, so the window starts on src's fractal grid (the transposing form: on 16 x 16, or 32 x 32
// for 1-byte types). src's operand becomes the window itself (its rows and columns unchanged, so
// the fractal addressing holds), dst is written whole.
inline void l0_window(InstrRecord& rec, std::uint16_t r0, std::uint16_t c0, bool transpose) {
  const InstrDesc& d = *rec.desc;
  TileView& dst = rec.ops[0].tile;
  TileView& src = rec.ops[1].tile;
  if (int(r0) + dst.rows > src.rows || int(c0) + dst.cols > src.cols)
    fail(d.name, ": operand src ", src, ": the ", dst.rows, " x ", dst.cols, " window of dst's shape at (indexRow ", r0,
         ", indexCol ", c0, ") runs past its ", src.rows, " x ", src.cols, " elements");
  const int fs = transpose_fractal(dst.dtype);
  const int ar = transpose ? fs : src.inner_rows, ac = transpose ? fs : src.inner_cols;
  if (r0 % ar != 0 || c0 % ac != 0)
    fail(d.name, ": operand src ", src, ": indexRow ", r0, " and indexCol ", c0, " must be multiples of ", ar, " and ", ac,
         transpose ? " (the transposing move goes in square fractals)" : " (MTE1 moves whole fractals of src)");
  const std::ptrdiff_t off = src.byte_offset(r0, c0);
  src.base += off;
  src.offset += std::uint32_t(off);
  dst.valid_rows = src.valid_rows = dst.rows;
  dst.valid_cols = src.valid_cols = dst.cols;
  dst.static_valid_rows = dst.static_valid_cols = src.static_valid_rows = src.static_valid_cols = false;
}

// GEMV's row vector: ceil(dst's valid columns / block) whole 512-byte blocks from src's column c0 on, as
// the chips copy them (a block's elements past dst's valid columns come along).
inline void gemv_window(InstrRecord& rec, std::uint16_t r0, std::uint16_t c0) {
  const InstrDesc& d = *rec.desc;
  TileView& dst = rec.ops[0].tile;
  TileView& src = rec.ops[1].tile;
  const int blk = 16 * block_elems(dst.dtype);  // a 512-byte block's elements
  const int n = std::min(dst.cols, (dst.valid_cols + blk - 1) / blk * blk);
  if (r0 != 0 || c0 % blk != 0)
    fail(d.name, ": operand src ", src, " (GEMV's row vector): indexRow ", r0, " must be 0 and indexCol ", c0,
         " a multiple of ", blk, " (whole 512-byte blocks)");
  if (int(c0) + n > src.cols)
    fail(d.name, ": operand src ", src, " (GEMV's row vector): the ", n, " elements from indexCol ", c0, " run past its ", src.cols,
         " columns");
  const std::ptrdiff_t off = src.byte_offset(0, c0);
  src.base += off;
  src.offset += std::uint32_t(off);
  dst.valid_rows = src.valid_rows = 1;
  dst.valid_cols = src.valid_cols = n;
  dst.static_valid_rows = dst.static_valid_cols = src.static_valid_rows = src.static_valid_cols = false;
}

// The move's window on its operands' views (after the type rules): GEMV's row vector, or fractals,
// transposing (Left from ZN, Right from NZ) or not.
inline void l0_move_views(InstrRecord& rec, Target target, std::uint16_t r0, std::uint16_t c0) {
  const TileView& dst = rec.ops[0].tile;
  const TileView& src = rec.ops[1].tile;
  check_dtype(*rec.desc, dst.dtype, target);
  if (dst.loc == TileType::Left && dst.rows == 1 && src.loc == TileType::Mat && src.rows == 1 && nd_view(src)) gemv_window(rec, r0, c0);
  else l0_window(rec, r0, c0, dst.loc == TileType::Left ? zn_view(src) : nz_view(src));
}

template <Op O, bool Mov, class Dst, class Src, class... W>
Issue l0_move(Dst& dst, Src& src, std::uint16_t r0, std::uint16_t c0, W&... events) {
  static_assert(l0_move_static<Dst, Src, Mov>());
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  l0_move_views(rec, core_target(core), r0, c0);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

// TMOV / TEXTRACT Mat -> ScaleLeft / ScaleRight (a5 TExtract.hpp, load_cbuf_to_ca_mx / cb_mx): A5's MX
// scales, a ZZ Mat tile into a ScaleLeft tile, an NN one into a ScaleRight tile, whole 16 x 2 (2 x 16)
// fractals from the window at (r0, c0).
template <Op O, bool Mov, class Dst, class Src, class... W>
Issue scale_move(Dst& dst, Src& src, std::uint16_t r0, std::uint16_t c0, W&... events) {
  constexpr bool left = Dst::Loc == TileType::ScaleLeft;
  static_assert(Src::Loc == TileType::Mat && sizeof(typename Src::DType) == 1 && std::is_same_v<typename Dst::DType, typename Src::DType>,
                "TMOV / TEXTRACT into a scale tile: src must be a Mat tile of the same 1-byte scale type (float8_e8m0_t)");
  static_assert(Src::SFractalSize == 32 && Dst::SFractalSize == 32 && Src::isRowMajor == left && Dst::isRowMajor == left &&
                    Src::isInnerRowMajor == left && Dst::isInnerRowMajor == left,
                "TMOV / TEXTRACT into a scale tile: ScaleLeft from a ZZ Mat tile (RowMajor / RowMajor, 32-byte fractals: "
                "TileLeftScale), ScaleRight from an NN one (ColMajor / ColMajor: TileRightScale)");
  static_assert(Dst::Rows <= Src::Rows && Dst::Cols <= Src::Cols && (!Mov || (Dst::Rows == Src::Rows && Dst::Cols == Src::Cols)),
                "TMOV / TEXTRACT into a scale tile: dst no larger than src (TMOV: the same static Rows and Cols)");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  if (core_target(core) == Target::A2A3)
    fail(rec.desc->name, ": operand dst ", rec.ops[0].tile, ": the MX scale tiles are A5's");
  l0_window(rec, r0, c0, false);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

// bias_move's static rules on views (the IR front door).
inline void bias_move_type_rules(const TileView& dst, const TileView& src) {
  const DType d = dst.dtype, s = src.dtype;
  if (src.loc != TileType::Mat || src.rows != 1 || !nd_view(src)) fail("TMOV Mat -> Bias: src must be a 1-row RowMajor NoneBox Mat (L1) tile");
  if (dst.rows != 1 || !dst.row_major) fail("TMOV Mat -> Bias: dst must be a 1-row RowMajor Bias tile");
  if (!((d == DType::I32 && s == DType::I32) || (d == DType::F32 && (s == DType::F32 || s == DType::F16 || s == DType::BF16))))
    fail("TMOV Mat -> Bias: the pairs are int32_t -> int32_t, float -> float, half -> float and (A5) bfloat16_t -> float");
  if (src.cols * int(size_of(s)) % 64 != 0 && dst.cols * int(size_of(d)) % 64 != 0)
    fail("TMOV Mat -> Bias: src's row (A2A3) or dst's (A5) must be a multiple of 64 bytes (Cols * sizeof)");
}
// The move's checks on its operands' views (rec: dst Bias, src Mat): the target's 64-byte unit, its pairs.
inline void bias_move_views(InstrRecord& rec, Target target) {
  TileView& d = rec.ops[0].tile;
  TileView& s = rec.ops[1].tile;
  const bool a2 = target == Target::A2A3;
  if (a2 ? s.cols * int(size_of(s.dtype)) % 64 != 0 : d.cols * int(size_of(d.dtype)) % 64 != 0)
    fail("TMOV: operand ", a2 ? "src " : "dst ", a2 ? s : d, ": the bias table moves 64-byte units, so ", a2 ? "src" : "dst",
         "'s row must be a multiple of 64 bytes on ", name_of(target), " (a2a3 checks src, a5 dst)");
  if (s.dtype == DType::BF16 && a2) fail("TMOV: operand src ", s, ": bfloat16_t -> float into the bias table is A5's (A2A3 converts half only)");
  if (s.cols > d.cols) fail("TMOV: operand dst ", d, " is narrower than operand src ", s, " (the move takes src's whole row)");
  d.valid_cols = s.valid_cols = s.cols;
  d.valid_rows = s.valid_rows = 1;
}

// TMOV Mat -> Bias (a2a3 / a5 TMov.hpp): one row into the bias table, int32 -> int32, float -> float,
// half -> float (A5 also bf16 -> float); the row's bytes a multiple of 64 (A2A3 src's, A5 dst's, at most
// 4 KiB, the table).
template <class Dst, class Src, class... W>
Issue bias_move(Dst& dst, Src& src, W&... events) {
  using D = typename Dst::DType;
  using S = typename Src::DType;
  static_assert(Src::Loc == TileType::Mat && Src::Rows == 1 && Src::isRowMajor && !Src::isBoxedLayout,
                "TMOV Mat -> Bias: src must be a 1-row RowMajor NoneBox Mat (L1) tile");
  static_assert(Dst::Rows == 1 && Dst::isRowMajor, "TMOV Mat -> Bias: dst must be a 1-row RowMajor Bias tile");
  static_assert((std::is_same_v<D, std::int32_t> && std::is_same_v<S, std::int32_t>) ||
                    (std::is_same_v<D, float> && (std::is_same_v<S, float> || std::is_same_v<S, half> ||
                                                  std::is_same_v<S, bfloat16_t>)),
                "TMOV Mat -> Bias: the pairs are int32_t -> int32_t, float -> float, half -> float and (A5) bfloat16_t -> float");
  static_assert(Src::Cols * sizeof(S) % 64 == 0 || Dst::Cols * sizeof(D) % 64 == 0,
                "TMOV Mat -> Bias: src's row (A2A3) or dst's (A5) must be a multiple of 64 bytes (Cols * sizeof)");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TMOV_M2B>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  bias_move_views(rec, core_target(core));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

// TMOV Mat -> Scaling (the fixpipe buffer, FB): one row of 64-bit quant words (docs/cube.md "Quant
// words"), moved in bursts of 128 bytes on A2A3 (64 on A5).
template <class Dst, class Src, class... W>
Issue scaling_move(Dst& dst, Src& src, W&... events) {
  static_assert(Src::Loc == TileType::Mat && Src::Rows == 1 && Src::isRowMajor && !Src::isBoxedLayout,
                "TMOV Mat -> Scaling: src must be a 1-row RowMajor NoneBox Mat (L1) tile");
  static_assert(Dst::Rows == 1 && Dst::isRowMajor && !Dst::isBoxedLayout, "TMOV Mat -> Scaling: dst must be a 1-row RowMajor Scaling tile");
  static_assert(sizeof(typename Src::DType) == 8 && sizeof(typename Dst::DType) == 8 && std::is_integral_v<typename Src::DType> &&
                    std::is_integral_v<typename Dst::DType>,
                "TMOV Mat -> Scaling: the quant words are uint64_t (or int64_t)");
  static_assert(Src::Cols * 8 % 64 == 0, "TMOV Mat -> Scaling: src's row must be a multiple of 64 bytes (8 words)");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TMOV_M2S>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  TileView& d = rec.ops[0].tile;
  TileView& s = rec.ops[1].tile;
  if (core_target(core) == Target::A2A3 && s.cols * 8 % 128 != 0)
    fail("TMOV: operand src ", s, ": A2A3 moves quant words to the fixpipe buffer in 128-byte bursts, so Cols must be a "
         "multiple of 16");
  if (s.cols > d.cols)
    fail("TMOV: operand dst ", d, " is narrower than operand src ", s, " (the move takes src's whole row)");
  d.valid_cols = s.valid_cols = s.cols;
  d.valid_rows = s.valid_rows = 1;
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

// TSTORE Acc -> GM (a2a3 / a5 TStore.hpp, the fixpipe's nz2nd and nz2nz): Acc's valid m x n to an ND tensor
// of the same 2-D shape or an NZ one ([S0, S1, S2, 16, C0]: m = S2 * 16, n = S0 * S1 * C0), converted (a cast, or a quantisation by one 64-bit word: the scalar form, or one word per
// column from a Scaling tile: TSTORE_FP), then ReLU, then written or (AtomicAdd) added.
enum class FixQuant : std::uint8_t { None, Scalar, Vector };

// The fixpipe's conversions out of L0C (a2a3 / a5 TStore.hpp, TMov.hpp): the union of both targets'
// pairs; a5_only_pair names those A2A3 lacks (for a store to GM, or a move to L1). On DTypes, so that the
// static rules below and the IR front door's checks of a file's types read the same table.
constexpr bool fixpipe_pair(FixQuant q, DType a, DType e) {
  if (q == FixQuant::None)
    return (a == DType::F32 && (e == DType::F32 || e == DType::F16 || e == DType::BF16)) || (a == DType::I32 && e == DType::I32);
  const bool b8 = e == DType::I8 || e == DType::U8;
  return (a == DType::F32 && (b8 || e == DType::F16 || e == DType::BF16 || e == DType::F32 || e == DType::HF8 || e == DType::F8E4M3)) ||
         (a == DType::I32 && (b8 || e == DType::F16 || e == DType::BF16 || e == DType::I16));
}
constexpr bool a5_only_pair(FixQuant q, bool to_l1, DType a, DType e) {
  if (to_l1) {  // a2a3 TMov.hpp, Acc -> Mat: casts to half / bf16; quant float -> int8, int32 -> int8 / uint8 / half
    if (q == FixQuant::None) return !(a == DType::F32 && (e == DType::F16 || e == DType::BF16));
    return !(e == DType::I8 || (a == DType::I32 && (e == DType::U8 || e == DType::F16 || e == DType::I16)));
  }
  // a2a3 TStore.hpp: every cast; quant to int8 / uint8, int32 -> half
  if (q == FixQuant::None) return false;
  return !(e == DType::I8 || e == DType::U8 || (a == DType::I32 && e == DType::F16));
}
inline void fixpipe_pair_rule(FixQuant q, DType a, DType e) {
  if (fixpipe_pair(q, a, e)) return;
  if (q == FixQuant::None)
    fail("the fixpipe (TSTORE / TMOV from an Acc tile): the pairs without a quant parameter are float -> float / half / "
         "bfloat16_t and int32_t -> int32_t (", name_of(a), " -> ", name_of(e), ")");
  fail("the fixpipe (TSTORE / TMOV from an Acc tile) with a quant parameter: float -> int8_t / uint8_t, half, bfloat16_t, float, "
       "hifloat8_t, float8_e4m3_t; int32_t -> int8_t / uint8_t / half / bfloat16_t / int16_t (", name_of(a), " -> ", name_of(e), ")");
}
template <FixQuant Q, class A, class E>
constexpr bool fixpipe_pair_static() {
  static_assert(Q != FixQuant::None || fixpipe_pair(Q, dtype_v<A>, dtype_v<E>),
                "the fixpipe (TSTORE / TMOV from an Acc tile): the pairs without a quant parameter are float -> float / "
                "half / bfloat16_t and int32_t -> int32_t");
  static_assert(Q == FixQuant::None || fixpipe_pair(Q, dtype_v<A>, dtype_v<E>),
                "the fixpipe (TSTORE / TMOV from an Acc tile) with a quant parameter: float -> int8_t / uint8_t, half, "
                "bfloat16_t, float, hifloat8_t, float8_e4m3_t; int32_t -> int8_t / uint8_t / half / bfloat16_t / int16_t "
                "(A2A3 has fewer: docs/cube.md)");
  return true;
}

template <FixQuant Q, AtomicType Atomic, class G, class T>
constexpr bool acc_store_static() {
  using E = typename G::DType;
  static_assert(kAccTile<T>, "TSTORE from an Acc tile: src must be NZ with 16 x 16 fractals (TileAcc)");
  constexpr bool conv = GmView::is_conv_output(G::layout);
  static_assert(G::layout == Layout::ND || G::layout == Layout::NZ || conv,
                "TSTORE Acc -> GM: an ND or NZ GlobalTensor, or a convolution output (A2A3 NC1HWC0 / NDC1HWC0, A5 NHWC / "
                "NCHW / NCDHW)");
  static_assert(!conv || (T::Cols % 16 == 0 && T::Rows <= 65535),
                "TSTORE Acc -> a convolution output: the Acc tile's Cols must be a multiple of 16 and its Rows at most 65535");
  // NC1HWC0's C0 is dim 4, static (a2a3 TStore.hpp's rule, its OR'ed clauses as written): 8 or 16 floats, 16
  // int32s, or 32 bytes' elements.
  static_assert(G::layout != Layout::NC1HWC0 || G::ShapeType::kStatic[4] == int(32 / sizeof(E)) ||
                    (std::is_same_v<E, float> && (G::ShapeType::kStatic[4] == 8 || G::ShapeType::kStatic[4] == 16)) ||
                    (std::is_same_v<E, std::int32_t> && G::ShapeType::kStatic[4] == 16),
                "TSTORE Acc -> NC1HWC0 GM: dim 4 (C0) must be static: 8 or 16 for float, 16 for int32_t, 32 bytes' elements "
                "for the others");
  static_assert(G::layout != Layout::NDC1HWC0 || std::is_same_v<E, float> || std::is_same_v<E, std::int32_t> ||
                    std::is_same_v<E, half> || std::is_same_v<E, bfloat16_t> || std::is_same_v<E, std::int8_t> ||
                    std::is_same_v<E, std::uint8_t>,
                "TSTORE Acc -> NDC1HWC0 GM: float, int32_t, half, bfloat16_t, int8_t or uint8_t outputs");
  // NZ: fractals of 16 rows and C0 output elements (32 bytes; 16 for int32 and float, or 8 for float ->
  // float with the channel split), [S0, S1, S2, 16, C0].
  constexpr int c0 = sizeof(E) == 1 ? 32 : 16;
  static_assert(G::layout != Layout::NZ ||
                    (G::ShapeType::kStatic[3] == 16 &&
                     (G::ShapeType::kStatic[4] == c0 ||
                      (G::ShapeType::kStatic[4] == 8 && std::is_same_v<E, float> && std::is_same_v<typename T::DType, float>))),
                "TSTORE Acc -> NZ GM: dims 3 and 4 must be static 16 and C0: 32 for 1-byte outputs, 16 for the others (8 for "
                "float -> float with the channel split)");
  static_assert(fixpipe_pair_static<Q, typename T::DType, E>());
  static_assert(!std::is_same_v<E, std::int16_t>,
                "TSTORE Acc -> GM: int32_t -> int16_t is the fixpipe's shift mode into L1 only (TMOV / TEXTRACT / TINSERT to "
                "a Mat tile, A2A3)");
  static_assert(Atomic == AtomicType::AtomicNone || std::is_same_v<E, float> || std::is_same_v<E, half> ||
                    std::is_same_v<E, bfloat16_t> || std::is_same_v<E, std::int32_t> || std::is_same_v<E, std::int8_t>,
                "TSTORE Acc -> GM: the atomic add takes float, half, bfloat16_t, int32_t and int8_t outputs (the NPUs' "
                "atomic types)");
  static_assert(T::Cols <= 4095, "TSTORE Acc -> GM: the Acc tile's Cols must be at most 4095 (the fixpipe's n field)");
  return true;
}

// acc_store_static's rules on views, for the ND and NZ tensors (the IR front door).
inline void acc_store_type_rules(DType out, Layout layout, const TileView& src, FixQuant q, bool atomic) {
  if (!acc_view(src)) fail("TSTORE from an Acc tile: src must be NZ with 16 x 16 fractals (TileAcc)");
  if (layout != Layout::ND && layout != Layout::NZ) fail("TSTORE Acc -> GM: an ND or NZ tensor view");
  fixpipe_pair_rule(q, src.dtype, out);
  if (out == DType::I16)
    fail("TSTORE Acc -> GM: int32_t -> int16_t is the fixpipe's shift mode into L1 only (TMOV / TEXTRACT / TINSERT to a Mat "
         "tile, A2A3)");
  if (atomic && !(out == DType::F32 || out == DType::F16 || out == DType::BF16 || out == DType::I32 || out == DType::I8))
    fail("TSTORE Acc -> GM: the atomic add takes float, half, bfloat16_t, int32_t and int8_t outputs (the NPUs' atomic types)");
  if (src.cols > 4095) fail("TSTORE Acc -> GM: the Acc tile's Cols must be at most 4095 (the fixpipe's n field)");
}

// What an Acc -> GM store's tensor maps: rows x columns of the Acc tile.
constexpr const char* gm_rows_cols(Layout l) {
  switch (l) {
    case Layout::NZ: return "rows = s2*s3, cols = s0*s1*s4";
    case Layout::NC1HWC0: return "NC1HWC0: rows = N*H*W = s0*s2*s3, cols = C1*C0 = s1*s4";
    case Layout::NDC1HWC0: return "NDC1HWC0: rows = N*H*W = s0*s3*s4, cols = D*C1*C0 = s1*s2*C0";
    case Layout::NHWC: return "NHWC: rows = N*H*W = s1*s2*s3, cols = C = s4";
    case Layout::NCHW: return "NCHW: rows = N*H*W = s1*s3*s4, cols = C = s2";
    case Layout::NCDHW: return "NCDHW: rows = N*H*W = s0*s3*s4, cols = C = s1";
    default: return "rows = s0*s1*s2*s3, cols = s4";
  }
}
// The convolution outputs: each target's own, and the pitches the chips read.
inline void conv_store_check(const GmView& g, const TileView& t, Target target) {
  const bool a2a3_layout = g.layout == Layout::NC1HWC0 || g.layout == Layout::NDC1HWC0;
  if (a2a3_layout != (target == Target::A2A3))
    fail("TSTORE: operand dst ", g, ": the fixpipe writes ", a2a3_layout ? "NC1HWC0 / NDC1HWC0 on A2A3" : "NHWC / NCHW / NCDHW on A5",
         " only (", name_of(target), " has ", target == Target::A2A3 ? "NC1HWC0 and NDC1HWC0" : "NHWC, NCHW and NCDHW", ")");
  if (g.layout == Layout::NC1HWC0 && (g.stride[3] <= 0 || g.stride[1] % g.stride[3] != 0))
    fail("TSTORE: operand dst ", g, ": NC1HWC0's block pitch is N * (stride 1 / stride 3) * C0, so stride 1 must be a "
         "positive multiple of stride 3");
  if (g.layout == Layout::NDC1HWC0 && (g.stride[4] <= 0 || g.stride[2] % g.stride[4] != 0))
    fail("TSTORE: operand dst ", g, ": NDC1HWC0's block pitch is N * (stride 2 / stride 4) * C0, so stride 2 must be a "
         "positive multiple of stride 4");
  if (g.layout == Layout::NHWC && g.shape[0] != 1)
    fail("TSTORE: operand dst ", g, ": NHWC's dim 0 (the fixpipe's outer loop count, 1 in every pto-isa kernel) must be 1");
  if (t.valid_rows > 65535) fail("TSTORE: operand src ", t, ": the fixpipe moves at most 65535 rows");
}

// The store's checks on its operands' views (rec: dst GM, src Acc), and its variant bits.
inline void acc_store_views(InstrRecord& rec, Target target, FixQuant q, bool atomic, bool relu) {
  const GmView& g = rec.ops[0].gm;
  const TileView& t = rec.ops[1].tile;
  if (GmView::is_conv_output(g.layout)) conv_store_check(g, t, target);
  if (g.tile_rows() != t.valid_rows || g.tile_cols() != t.valid_cols)
    fail("TSTORE: operand dst ", g, " maps ", g.tile_rows(), 'x', g.tile_cols(), " (", gm_rows_cols(g.layout),
         ") but operand src ", t, " has valid shape ", t.valid_rows, 'x', t.valid_cols, "; they must be equal");
  if (g.layout == Layout::ND && target == Target::A2A3 && (g.shape[0] != 1 || g.shape[1] != 1 || g.shape[2] != 1))
    fail("TSTORE: operand dst ", g, ": A2A3's fixpipe store (nz2nd) takes a 2-D tensor: dims 0-2 must be 1");
  if (g.layout == Layout::ND && t.valid_rows > 8192)
    fail("TSTORE: operand src ", t, ": the fixpipe's nz2nd store moves at most 8192 rows");
  if (a5_only_pair(q, false, t.dtype, g.dtype) && target == Target::A2A3)
    fail("TSTORE: operand dst ", g, ": the quantising store ", name_of(t.dtype), " -> ", name_of(g.dtype),
         " is A5's (A2A3 quantises float to int8 / uint8 and int32 to int8 / uint8 / half)");
  rec.variant = std::uint8_t((relu ? kVariantRelu : 0) | (atomic ? kVariantAtomicAdd : 0) |
                             (q == FixQuant::Scalar ? kVariantQuantScalar : q == FixQuant::Vector ? kVariantQuantVector : 0));
  if (atomic) rec.ops[0].role = Role::ReadWrite;
}

template <Op O, FixQuant Q, AtomicType Atomic, ReluPreMode Relu, class G, class T>
InstrRecord acc_store_record(Core& core, G& dst, T& src) {
  static_assert(acc_store_static<Q, Atomic, G, T>());
  InstrRecord rec = compute_record(desc_of<O>());
  add_gm(rec, dst);
  add_tile(core, rec, src);
  acc_store_views(rec, core_target(core), Q, Atomic == AtomicType::AtomicAdd, Relu == ReluPreMode::NormalRelu);
  return rec;
}

template <AtomicType Atomic, ReluPreMode Relu, class G, class T, class... W>
Issue acc_store(G& dst, T& src, W&... events) {
  Core& core = current_core();
  InstrRecord rec = acc_store_record<Op::TSTORE_ACC, FixQuant::None, Atomic, Relu>(core, dst, src);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

// The scalar quant form: one word for every element.
template <AtomicType Atomic, ReluPreMode Relu, class G, class T, class... W>
Issue acc_store_scalar(G& dst, T& src, std::uint64_t word, W&... events) {
  Core& core = current_core();
  InstrRecord rec = acc_store_record<Op::TSTORE_ACC, FixQuant::Scalar, Atomic, Relu>(core, dst, src);
  rec.scalar = ScalarValue::of(word);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

// TSTORE_FP: word c of the Scaling tile quantises column c.
template <AtomicType Atomic, ReluPreMode Relu, class G, class T, class Fp, class... W>
Issue acc_store_fp(G& dst, T& src, Fp& fp, W&... events) {
  static_assert(Fp::Loc == TileType::Scaling && Fp::Rows == 1 && sizeof(typename Fp::DType) == 8,
                "TSTORE_FP: fp must be a 1-row Scaling tile of 64-bit quant words (TMOV Mat -> Scaling fills one)");
  Core& core = current_core();
  InstrRecord rec = acc_store_record<Op::TSTORE_ACC_FP, FixQuant::Vector, Atomic, Relu>(core, dst, src);
  add_tile(core, rec, fp);
  TileView& f = rec.ops[2].tile;
  const int n = rec.ops[1].tile.valid_cols;
  if (n > f.cols) fail("TSTORE_FP: operand fp ", f, " holds fewer than the ", n, " words the store's columns need");
  f.valid_rows = 1;
  f.valid_cols = n;
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
// TMOV / TEXTRACT / TINSERT out of L0C through the fixpipe (a2a3 / a5 TMov.hpp, TExtract.hpp, TInsert.hpp):
// Acc -> Mat (both targets; A2A3 writes NZ only) and Acc -> Vec (A5), converted as TSTORE converts. TMOV
// moves src's valid region from (0, 0); TEXTRACT dst's valid region from (r0, c0) of src (c0 on a 16-column
// fractal boundary); TINSERT src's valid region to (r0, c0) of dst (an NZ dst: c0 on a C0 block). An NZ
// dst of TMOV is written as the chips write it: all of src's Rows and the columns rounded up to dst's C0.
template <class D> inline constexpr bool kFixpipeDst =
    (D::Loc == TileType::Mat || D::Loc == TileType::Vec) && ((!D::isBoxedLayout) || kNzTile<D>);

// The move's checks and window on its operands' views (rec: dst, src Acc; TMOV, TEXTRACT or TINSERT by
// rec.desc->op), and its variant bits.
inline void acc_move_views(InstrRecord& rec, Target target, FixQuant q, bool relu, std::uint16_t r0, std::uint16_t c0) {
  const InstrDesc& d = *rec.desc;
  TileView& dv = rec.ops[0].tile;
  TileView& sv = rec.ops[1].tile;
  const DType a = sv.dtype, e = dv.dtype;
  const bool nz_dst = nz_view(dv);
  if (target == Target::A2A3 && (dv.loc != TileType::Mat || !nz_dst))
    fail(d.name, ": operand dst ", dv, ": A2A3's fixpipe moves L0C to L1 only, as NZ (Acc -> Vec and the ND / DN "
         "outputs are A5's)");
  if (e == DType::I16 && target == Target::A5)
    fail(d.name, ": operand dst ", dv, ": int32_t -> int16_t (the fixpipe's shift mode) is A2A3's; A5's fixpipe has no int16 output");
  if (a5_only_pair(q, true, a, e) && target == Target::A2A3)
    fail(d.name, ": operand dst ", dv, ": the move ", name_of(a), " -> ", name_of(e), q == FixQuant::None ? "" : " with a quant parameter",
         " out of L0C is A5's (A2A3 casts float to half / bfloat16_t and quantises float to int8, int32 to int8 / uint8 / half, "
         "and shifts int32 to int16)");
  const Op o = d.op;
  const bool insert = o == Op::TINSERT_A2M || o == Op::TINSERT_A2M_FP, extract = o == Op::TEXTRACT_A2M || o == Op::TEXTRACT_A2M_FP;
  const bool mov = !insert && !extract;
  int rows = extract ? dv.valid_rows : sv.valid_rows, cols = extract ? dv.valid_cols : sv.valid_cols;
  if (nz_dst && mov) {  // the chips' nz2nz: src's static rows, the columns in whole C0 blocks
    rows = sv.rows;
    const int c0n = e == DType::F32 ? 8 : int(32 / size_of(e));
    cols = std::min((cols + c0n - 1) / c0n * c0n, dv.cols);
  }
  // The window: in src for TEXTRACT (on a 16-column fractal boundary), in dst for TINSERT (an NZ dst: on a
  // C0 column block boundary); TMOV's is at (0, 0).
  TileView& big = insert ? dv : sv;
  const char* big_name = insert ? "dst" : "src";
  const int align = insert ? (nz_dst ? int(32 / size_of(e)) : 1) : 16;
  if (c0 % align != 0)
    fail(d.name, ": operand ", big_name, " ", big, ": indexCol ", c0, " must be a multiple of ", align,
         insert ? " (the fixpipe writes whole C0 column blocks of an NZ tile)" : " (the fixpipe reads whole 16-column fractals)");
  if (int(r0) + rows > big.rows || int(c0) + cols > big.cols)
    fail(d.name, ": operand ", big_name, " ", big, ": the ", rows, " x ", cols, " region at (indexRow ", r0, ", indexCol ", c0,
         ") runs past its ", big.rows, " x ", big.cols, " elements");
  TileView& small = insert ? sv : dv;
  if (rows > small.rows || cols > small.cols)
    fail(d.name, ": operand ", insert ? "src " : "dst ", small, " cannot hold the ", rows, " x ", cols, " region the fixpipe moves");
  const std::ptrdiff_t off = big.elem_offset(r0, c0) * std::ptrdiff_t(big.elem_bytes());
  big.base += off;
  big.offset += std::uint32_t(off);
  dv.valid_rows = sv.valid_rows = rows;
  dv.valid_cols = sv.valid_cols = cols;
  dv.static_valid_rows = dv.static_valid_cols = sv.static_valid_rows = sv.static_valid_cols = false;
  rec.variant = std::uint8_t((relu ? kVariantRelu : 0) |
                             (q == FixQuant::Scalar ? kVariantQuantScalar : q == FixQuant::Vector ? kVariantQuantVector : 0));
}

// acc_move_record's static rules on views (the IR front door).
inline void acc_move_type_rules(const TileView& dst, const TileView& src, FixQuant q) {
  if (!acc_view(src)) fail("TMOV / TEXTRACT from an Acc tile: src must be NZ with 16 x 16 fractals (TileAcc)");
  if (!((dst.loc == TileType::Mat || dst.loc == TileType::Vec) && (!dst.boxed || nz_view(dst))))
    fail("TMOV / TEXTRACT from an Acc tile: dst must be a Mat or Vec tile, ND (RowMajor NoneBox), DN (ColMajor NoneBox) or NZ "
         "(512-byte fractals)");
  fixpipe_pair_rule(q, src.dtype, dst.dtype);
}

template <Op O, FixQuant Q, ReluPreMode Relu, class D, class S>
InstrRecord acc_move_record(Core& core, D& dst, S& src, std::uint16_t r0, std::uint16_t c0) {
  static_assert(kAccTile<S>, "TMOV / TEXTRACT from an Acc tile: src must be NZ with 16 x 16 fractals (TileAcc)");
  static_assert(kFixpipeDst<D>, "TMOV / TEXTRACT from an Acc tile: dst must be a Mat or Vec tile, ND (RowMajor NoneBox), DN "
                                "(ColMajor NoneBox) or NZ (512-byte fractals)");
  static_assert(fixpipe_pair_static<Q, typename S::DType, typename D::DType>());
  InstrRecord rec = compute_record(desc_of<O>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  acc_move_views(rec, core_target(core), Q, Relu == ReluPreMode::NormalRelu, r0, c0);
  return rec;
}

template <Op O, ReluPreMode Relu, class D, class S, class... W>
Issue acc_move(D& dst, S& src, std::uint16_t r0, std::uint16_t c0, W&... events) {
  Core& core = current_core();
  InstrRecord rec = acc_move_record<O, FixQuant::None, Relu>(core, dst, src, r0, c0);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
template <Op O, ReluPreMode Relu, class D, class S, class... W>
Issue acc_move_scalar(D& dst, S& src, std::uint64_t word, std::uint16_t r0, std::uint16_t c0, W&... events) {
  Core& core = current_core();
  InstrRecord rec = acc_move_record<O, FixQuant::Scalar, Relu>(core, dst, src, r0, c0);
  rec.scalar = ScalarValue::of(word);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
template <Op O, ReluPreMode Relu, class D, class S, class Fp, class... W>
Issue acc_move_fp(D& dst, S& src, Fp& fp, std::uint16_t r0, std::uint16_t c0, W&... events) {
  static_assert(Fp::Loc == TileType::Scaling && Fp::Rows == 1 && sizeof(typename Fp::DType) == 8,
                "TMOV_FP / TINSERT_FP: fp must be a 1-row Scaling tile of 64-bit quant words (TMOV Mat -> Scaling fills one)");
  Core& core = current_core();
  InstrRecord rec = acc_move_record<O, FixQuant::Vector, Relu>(core, dst, src, r0, c0);
  add_tile(core, rec, fp);
  TileView& f = rec.ops[2].tile;
  // TEXTRACT_FP reads the words of src's columns: the fixpipe's parameter address moves indexCol words on
  const int first = O == Op::TEXTRACT_A2M_FP ? c0 : 0, n = rec.ops[1].tile.valid_cols;
  if (first + n > f.cols)
    fail(rec.desc->name, ": operand fp ", f, " holds fewer than the ", first + n, " words the move's columns need");
  f.base += std::ptrdiff_t(first) * 8;
  f.offset += std::uint32_t(first) * 8;
  f.valid_rows = 1;
  f.valid_cols = n;
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
}  // namespace detail

}  // namespace pto
