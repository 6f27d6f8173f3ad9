// TEXTRACT into Left / Right tiles is the cube's (cube_rules.hpp). TEXTRACT and TINSERT between Vec tiles (pto-isa docs/isa/TEXTRACT.md, TINSERT.md; docs/layout.md):
//  - TEXTRACT(dst, src, indexRow, indexCol): dst(r, c) = src(indexRow + r, indexCol + c) over dst's valid
//    region;
//  - TINSERT(dst, src, indexRow, indexCol): dst(indexRow + r, indexCol + c) = src(r, c) over src's valid
//    region; the rest of dst is untouched.
// Rules from a2a3 / a5 TExtract.hpp and TInsert.hpp (the Vec -> Vec branch): one dtype, both tiles ND
// or both NZ, the small tile no larger than the big one, the window inside the big tile's storage; A2A3
// also needs indexCol on a 32-byte boundary (NZ: a stripe's start on both, and on A2A3 whole fractals). The large tile's operand is the window itself, so the copy, the
// dependencies and the checker see exactly the bytes moved.
#pragma once
#include <cstdint>
#include <type_traits>

#include <pto/isa/instr_desc.hpp>
#include <pto/isa/operand.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/cube_rules.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {

namespace detail {
template <class T> inline constexpr bool kNd = T::isRowMajor && !T::isBoxedLayout;

// Small and Big: the window's tile and the tile it lies in (TEXTRACT: dst and src; TINSERT: src and dst).
template <class Small, class Big>
constexpr bool window_static() {
  static_assert(Small::Loc == TileType::Vec && Big::Loc == TileType::Vec,
                "TEXTRACT / TINSERT: the forms are Vec -> Vec, (TEXTRACT) Mat -> Left / Right / scale tiles, and out of an "
                "Acc tile (the fixpipe); the NPUs move nothing Mat -> Mat or Mat -> Vec here (pto-isa's CPU simulator does)");
  static_assert(std::is_same_v<typename Small::DType, typename Big::DType>,
                "TEXTRACT / TINSERT (Vec -> Vec): dst and src must have the same DType (the NPUs convert nothing here)");
  static_assert((kNd<Small> && kNd<Big>) || (kNzTile<Small> && kNzTile<Big>),
                "TEXTRACT / TINSERT (Vec -> Vec): dst and src must both be ND (RowMajor NoneBox) or both NZ (ColMajor, "
                "SLayout::RowMajor, 512-byte fractals); the NPUs reject the other layouts and mixed pairs");
  static_assert(Small::Rows <= Big::Rows && Small::Cols <= Big::Cols,
                "TEXTRACT / TINSERT (Vec -> Vec): the window's tile (TEXTRACT's dst, TINSERT's src) must be no larger than "
                "the other in Rows and Cols");
  return true;
}

// `small` is rec.ops[small_at], `big` the other operand: checks the window at (r0, c0), then makes the
// big operand's view that window.
// window_static on views (the IR front door).
inline void window_type_rules(const TileView& small, const TileView& big) {
  if (small.loc != TileType::Vec || big.loc != TileType::Vec)
    fail("TEXTRACT / TINSERT: the forms are Vec -> Vec, (TEXTRACT) Mat -> Left / Right / scale tiles, and out of an Acc tile (the "
         "fixpipe); the NPUs move nothing Mat -> Mat or Mat -> Vec here (pto-isa's CPU simulator does)");
  if (small.dtype != big.dtype)
    fail("TEXTRACT / TINSERT (Vec -> Vec): dst and src must have the same DType (the NPUs convert nothing here)");
  if (!((nd_view(small) && nd_view(big)) || (nz_view(small) && nz_view(big))))
    fail("TEXTRACT / TINSERT (Vec -> Vec): dst and src must both be ND (RowMajor NoneBox) or both NZ (ColMajor, SLayout::RowMajor, "
         "512-byte fractals); the NPUs reject the other layouts and mixed pairs");
  if (small.rows > big.rows || small.cols > big.cols)
    fail("TEXTRACT / TINSERT (Vec -> Vec): the window's tile (TEXTRACT's dst, TINSERT's src) must be no larger than the other in "
         "Rows and Cols");
}

// The window's small tile's static valid shape (its type's ValidRow / ValidCol) picks the NPUs' paths.
inline void window_rules(Core& core, InstrRecord& rec, int small_at, std::uint16_t r0, std::uint16_t c0) {
  const InstrDesc& d = *rec.desc;
  const Target target = core_target(core);
  TileView& big = rec.ops[1 - small_at].tile;
  const TileView& small = rec.ops[small_at].tile;
  const char* bn = small_at == 0 ? "src" : "dst";
  check_dtype(d, small.dtype, target);
  if (r0 + small.valid_rows > big.rows || c0 + small.valid_cols > big.cols)
    fail(d.name, ": operand ", bn, " ", big, ": the ", small.valid_rows, " x ", small.valid_cols, " window at (indexRow ", r0,
         ", indexCol ", c0, ") runs past its ", big.rows, " x ", big.cols, " elements");
  const bool svr = small.static_valid_rows, svc = small.static_valid_cols;
  const int valid_col = svc ? small.valid_cols : -1;
  const bool one = svr && svc && small.valid_rows == 1 && small.valid_cols == 1;  // the NPUs' scalar path
  if (one) rec.variant |= kVariantWindowScalar;
  if (valid_col != -1 && std::size_t(valid_col) * big.elem_bytes() % 32 == 0) rec.variant |= kVariantWindowAligned;
  if (target == Target::A2A3 && !one) {
    const std::size_t es = big.elem_bytes();
    if (std::size_t(c0) * es % 32 != 0)
      fail(d.name, ": indexCol ", c0, " is ", std::size_t(c0) * es, " bytes into a row of operand ", bn, " ", big,
           "; A2A3 copies whole 32-byte blocks, so indexCol * sizeof(T) must be a multiple of 32");
    if (es == 1 && (valid_col == -1 || valid_col % 2 != 0))
      fail(d.name, ": operand ", small_at == 0 ? "dst " : "src ", small,
           ": A2A3 moves 1-byte elements in pairs and needs an even static ValidCol (its check rejects a dynamic one too)");
  }
  if (small.boxed && !one) {  // (a 1 x 1 window is one scalar access: any position)
    // NZ: one copy of column stripes (a burst of validRow 32-byte rows each) from the window's first
    // block: indexCol must start a stripe; A2A3 also wants whole fractal rows.
    const int c0n = int(32 / big.elem_bytes());
    TileView& sm = rec.ops[small_at].tile;
    if (c0 % c0n != 0)
      fail(d.name, ": indexCol ", c0, " of operand ", bn, " ", big, " is inside a column block of ", c0n,
           " elements; the NZ copy moves whole stripes, so indexCol must be a multiple of ", c0n);
    if (target == Target::A2A3 && (r0 % 16 != 0 || big.rows % 16 != 0 || sm.rows % 16 != 0))
      fail(d.name, ": operands dst ", rec.ops[0].tile, " and src ", rec.ops[1].tile, " with indexRow ", r0,
           ": A2A3's NZ copy needs Rows and indexRow to be multiples of 16 (whole fractals)");
    if (target == Target::A5) {
      // A5 copies the last stripe whole: its 32-byte rows past the valid columns move too
      const int wide = std::min((sm.valid_cols + c0n - 1) / c0n * c0n, std::min(sm.cols, big.cols - c0));
      sm.valid_cols = wide;
    }
  }
  big.base += big.elem_offset(r0, c0) * std::ptrdiff_t(big.elem_bytes());
  big.offset += std::uint32_t(big.elem_offset(r0, c0) * std::ptrdiff_t(big.elem_bytes()));
  big.valid_rows = small.valid_rows;
  big.valid_cols = small.valid_cols;
  big.static_valid_rows = big.static_valid_cols = false;
}

template <class Dst, class Src, class... W>
Issue vec_window_extract(Dst& dst, Src& src, std::uint16_t indexRow, std::uint16_t indexCol, W&... events) {
  static_assert(window_static<Dst, Src>());
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TEXTRACT_V2V>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  window_rules(core, rec, 0, indexRow, indexCol);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
}  // namespace detail

template <class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src> && (detail::WaitEvent<W> && ...)
detail::Issue TEXTRACT(Dst& dst, Src& src, std::uint16_t indexRow = 0, std::uint16_t indexCol = 0, W&... events) {
  using namespace detail;
  if constexpr (Src::Loc == TileType::Acc)  // the fixpipe, out of L0C (cube_rules.hpp)
    return acc_move<Op::TEXTRACT_A2M, ReluPreMode::NoRelu>(dst, src, indexRow, indexCol, events...);
  else if constexpr (Dst::Loc == TileType::Left || Dst::Loc == TileType::Right)  // the cube's L1 -> L0A / L0B (cube_rules.hpp)
    return l0_move<Op::TEXTRACT_M2LR, false>(dst, src, indexRow, indexCol, events...);
  else if constexpr (Dst::Loc == TileType::ScaleLeft || Dst::Loc == TileType::ScaleRight)  // A5's MX scales
    return scale_move<Op::TEXTRACT_M2LR, false>(dst, src, indexRow, indexCol, events...);
  else
    return vec_window_extract(dst, src, indexRow, indexCol, events...);
}

// TEXTRACT's fixpipe forms (an Acc source): with ReLU, with one quant word, with per-column words.
template <class Dst, class Src, ReluPreMode Relu, class... W>
  requires TileLike<Dst> && TileLike<Src> && (detail::WaitEvent<W> && ...)
detail::Issue TEXTRACT(Dst& dst, Src& src, std::uint16_t indexRow, std::uint16_t indexCol, W&... events) {
  static_assert(Src::Loc == TileType::Acc, "TEXTRACT<..., ReluPreMode>: the ReLU form reads an Acc tile (the fixpipe)");
  return detail::acc_move<Op::TEXTRACT_A2M, Relu>(dst, src, indexRow, indexCol, events...);
}
template <class Dst, class Src, ReluPreMode Relu = ReluPreMode::NoRelu, class... W>
  requires TileLike<Dst> && TileLike<Src> && (detail::WaitEvent<W> && ...)
detail::Issue TEXTRACT(Dst& dst, Src& src, std::uint64_t preQuantScalar, std::uint16_t indexRow, std::uint16_t indexCol,
                       W&... events) {
  static_assert(Src::Loc == TileType::Acc, "TEXTRACT(dst, src, preQuantScalar, ...): the quant forms read an Acc tile (the fixpipe)");
  return detail::acc_move_scalar<Op::TEXTRACT_A2M, Relu>(dst, src, preQuantScalar, indexRow, indexCol, events...);
}
template <class Dst, class Src, class Fp, ReluPreMode Relu = ReluPreMode::NoRelu, class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Fp> && (detail::WaitEvent<W> && ...)
detail::Issue TEXTRACT_FP(Dst& dst, Src& src, Fp& fp, std::uint16_t indexRow, std::uint16_t indexCol, W&... events) {
  static_assert(Src::Loc == TileType::Acc, "TEXTRACT_FP: src must be an Acc tile (the fixpipe)");
  return detail::acc_move_fp<Op::TEXTRACT_A2M_FP, Relu>(dst, src, fp, indexRow, indexCol, events...);
}

namespace detail {
template <class Dst, class Src, class... W>
Issue vec_window_insert(Dst& dst, Src& src, std::uint16_t indexRow, std::uint16_t indexCol, W&... events) {
  static_assert(window_static<Src, Dst>());
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TINSERT_V2V>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  window_rules(core, rec, 1, indexRow, indexCol);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
}  // namespace detail

template <class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src> && (detail::WaitEvent<W> && ...)
detail::Issue TINSERT(Dst& dst, Src& src, std::uint16_t indexRow, std::uint16_t indexCol, W&... events) {
  using namespace detail;
  if constexpr (Src::Loc == TileType::Acc)  // the fixpipe, out of L0C (cube_rules.hpp)
    return acc_move<Op::TINSERT_A2M, ReluPreMode::NoRelu>(dst, src, indexRow, indexCol, events...);
  else
    return vec_window_insert(dst, src, indexRow, indexCol, events...);
}

// TINSERT's fixpipe forms (an Acc source): with ReLU, with one quant word, with per-column words.
template <class Dst, class Src, ReluPreMode Relu, class... W>
  requires TileLike<Dst> && TileLike<Src> && (detail::WaitEvent<W> && ...)
detail::Issue TINSERT(Dst& dst, Src& src, std::uint16_t indexRow, std::uint16_t indexCol, W&... events) {
  static_assert(Src::Loc == TileType::Acc, "TINSERT<..., ReluPreMode>: the ReLU form reads an Acc tile (the fixpipe)");
  return detail::acc_move<Op::TINSERT_A2M, Relu>(dst, src, indexRow, indexCol, events...);
}
template <class Dst, class Src, ReluPreMode Relu = ReluPreMode::NoRelu, class... W>
  requires TileLike<Dst> && TileLike<Src> && (detail::WaitEvent<W> && ...)
detail::Issue TINSERT(Dst& dst, Src& src, std::uint64_t preQuantScalar, std::uint16_t indexRow, std::uint16_t indexCol,
                      W&... events) {
  static_assert(Src::Loc == TileType::Acc, "TINSERT(dst, src, preQuantScalar, ...): the quant forms read an Acc tile (the fixpipe)");
  return detail::acc_move_scalar<Op::TINSERT_A2M, Relu>(dst, src, preQuantScalar, indexRow, indexCol, events...);
}
template <class Dst, class Src, class Fp, ReluPreMode Relu = ReluPreMode::NoRelu, class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Fp> && (detail::WaitEvent<W> && ...)
detail::Issue TINSERT_FP(Dst& dst, Src& src, Fp& fp, std::uint16_t indexRow, std::uint16_t indexCol, W&... events) {
  static_assert(Src::Loc == TileType::Acc, "TINSERT_FP: src must be an Acc tile (the fixpipe)");
  return detail::acc_move_fp<Op::TINSERT_A2M_FP, Relu>(dst, src, fp, indexRow, indexCol, events...);
}


}  // namespace pto
