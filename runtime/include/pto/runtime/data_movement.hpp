// TLOAD and TSTORE (Vec and Mat tiles; Acc tiles through the fixpipe: cube_rules.hpp), TPREFETCH, TMOV (Vec -> Vec;
// Mat -> Left / Right / Bias: cube_rules.hpp) and TEXPANDS.
// Each: compile-time rules as static_asserts, runtime rules as pto::Error, then one record issued.
#pragma once
#include <algorithm>
#include <type_traits>
#include <pto/isa/global_tensor.hpp>
#include <pto/isa/instr_desc.hpp>
#include <pto/isa/prefetch.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/cube_rules.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {

namespace detail {
// TLOAD/TSTORE: the tile's valid shape must be exactly what the tensor maps (spec §1.4, §1.6).
inline void check_gm_tile(const InstrDesc& d, const char* gm_name, const GmView& g, const char* tile_name,
                          const TileView& t, Target target) {
  const bool dn = g.layout == Layout::DN, nz = g.layout == Layout::NZ;
  if (GmView::is_mx_scale(g.layout)) {  // an MX scale tensor into its ZZ / NN Mat tile (A5)
    if (target == Target::A2A3)
      fail(d.name, ": operand ", gm_name, " ", g, ": the MX scale layouts are A5's (A2A3 has no MX matmul)");
    if (g.tile_rows() != t.valid_rows || g.tile_cols() != t.valid_cols)
      fail(d.name, ": operand ", gm_name, " ", g, " maps ", g.tile_rows(), 'x', g.tile_cols(), " scales but operand ", tile_name,
           " ", t, " has valid shape ", t.valid_rows, 'x', t.valid_cols, "; they must be equal");
    return;
  }
  if (g.tile_rows() != t.valid_rows || g.tile_cols() != t.valid_cols)
    fail(d.name, ": operand ", gm_name, " ", g, " maps ", g.tile_rows(), 'x', g.tile_cols(),
         nz ? " (rows = s2*s3, cols = s0*s1*s4)" : dn ? " (rows = s3, cols = s0*s1*s2*s4)" : " (rows = s0*s1*s2*s3, cols = s4)",
         " but operand ", tile_name, " has valid shape ", t.valid_rows, 'x', t.valid_cols, "; they must be equal (",
         nz ? "NZ tensor <-> NZ tile" : dn ? "DN tensor <-> ColMajor tile" : "ND tensor <-> RowMajor tile", " rule)");
  if (!nz && t.boxed) {
    // ND -> NZ / DN -> ZN into L1: one nd2nz DMA call (rows = the tensor's d3, columns its d4; DN swapped)
    if (target == Target::A2A3 && (g.shape[0] != 1 || g.shape[1] != 1 || g.shape[2] != 1))
      fail(d.name, ": operand ", gm_name, " ", g, ": A2A3's ND -> NZ / DN -> ZN DMA (nd2nz) takes a 2-D tensor: dims 0-2 must be 1");
    const int lines = dn ? t.valid_cols : t.valid_rows, line_len = dn ? t.valid_rows : t.valid_cols;
    if ((dn ? t.cols : t.rows) > 16384 || lines > 16384 || line_len > 65535)
      fail(d.name, ": operand ", tile_name, " ", t, ": the nd2nz DMA moves at most 16384 lines of at most 65535 elements "
           "into a fractal tile of at most 16384 lines");
    return;
  }
  if (nz) {
    // The DMA moves each column block's valid rows as one run of validRow * 32 bytes (a burst per block
    // of s1, a call per s0): the tensor's dims 2-4 must be laid out that way.
    const std::int64_t c0 = g.shape[4];
    if (g.stride[4] != 1 || g.stride[3] != c0 || (g.shape[2] > 1 && g.stride[2] != 16 * c0))
      fail(d.name, ": operand ", gm_name, " ", g, ": the NZ DMA reads each column block's rows as one run, so strides 2, 3 "
           "and 4 must be ", 16 * c0, ", ", c0, " and 1 (16 rows of C0 = ", c0, " elements)");
    if (target == Target::A2A3 && t.elem_bytes() == 8)
      fail(d.name, ": operand ", tile_name, " ", t, ": A2A3 moves 64-bit elements only between ND and DN layouts (NZ is A5's)");
    if (target == Target::A2A3 && g.shape[1] >= 4096)
      fail(d.name, ": operand ", gm_name, " ", g, ": A2A3 DMA needs shape dimension 1 < 4096 (one burst per column block)");
    return;
  }
  if (target == Target::A2A3 && t.rows >= 4096)
    fail(d.name, ": operand ", tile_name, " ", t, ": A2A3 DMA needs a tile with Rows < 4096");
  if (target == Target::A2A3 && g.shape[3] >= 4096)
    fail(d.name, ": operand ", gm_name, " ", g, ": A2A3 DMA needs shape dimension 3 < 4096 (one burst per row)");
}

template <class TileT, class G, bool Load = false>
constexpr void static_check_gm_tile() {
  static_assert(TileT::Loc == TileType::Vec || TileT::Loc == TileType::Mat,
                "TLOAD/TSTORE: a Vec (UB) or Mat (L1) tile (TSTORE also an Acc tile, through the fixpipe); the NPUs' DMA "
                "fills no Left, Right, Acc or Bias tile: TEXTRACT / TMOV Mat -> Left / Right, TMATMUL and TMOV Mat -> Bias do "
                "(pto-isa's CPU simulator also TLOADs a Bias tile, which no NPU does)");
  static_assert(sizeof(typename TileT::DType) == sizeof(typename G::DType),
                "TLOAD/TSTORE: the tile's and the tensor's element types must have the same size");
  static_assert(!is_packed4(dtype_v<typename TileT::DType>) || (Load && TileT::Loc == TileType::Mat && TileT::PadVal == PadValue::Null),
                "TLOAD/TSTORE of the 4-bit types (float4_e2m1x2_t, float4_e1m2x2_t, int4b_t): TLOAD into a Mat tile (the MX "
                "matmul's data, two elements a byte) without a pad value; a Vec tile of them moves as bytes, through a uint8_t "
                "tile TASSIGNed at its address (docs/conversions.md)");
  constexpr bool mx_a = G::layout == Layout::MX_A_ZZ || G::layout == Layout::MX_A_ND || G::layout == Layout::MX_A_DN;
  constexpr bool mx_b = G::layout == Layout::MX_B_NN || G::layout == Layout::MX_B_ND || G::layout == Layout::MX_B_DN;
  if constexpr (mx_a || mx_b) {
    static_assert(Load && TileT::Loc == TileType::Mat && sizeof(typename TileT::DType) == 1 && TileT::SFractalSize == 32,
                  "TLOAD of MX scales (Layout::MX_A_* / MX_B_*): into a Mat tile of 1-byte scales (float8_e8m0_t) with "
                  "32-byte fractals (SFractalSize 32)");
    static_assert(!mx_a || (TileT::isRowMajor && TileT::isInnerRowMajor),
                  "TLOAD of A's MX scales: the Mat tile must be ZZ (BLayout::RowMajor, SLayout::RowMajor: 16 x 2 fractals)");
    static_assert(!mx_b || (!TileT::isRowMajor && TileT::isInnerColMajor),
                  "TLOAD of B's MX scales: the Mat tile must be NN (BLayout::ColMajor, SLayout::ColMajor: 2 x 16 fractals)");
    return;
  } else {
  static_assert(G::layout == Layout::ND || G::layout == Layout::DN || G::layout == Layout::NZ,
                "TLOAD/TSTORE: ND, DN and NZ GlobalTensors (and, for TLOAD, the MX scale layouts) are supported; the "
                "convolution layouts are TSTORE's from an Acc tile only");
  constexpr bool mat_load = Load && TileT::Loc == TileType::Mat;
  static_assert(G::layout != Layout::ND || (TileT::isRowMajor && !TileT::isBoxedLayout) || (mat_load && kNzTile<TileT>) ||
                    (mat_load && TileT::Rows == 1 && TileT::isRowMajor && TileT::isInnerRowMajor && TileT::SFractalSize == 32),
                "TLOAD/TSTORE: an ND GlobalTensor needs a RowMajor NoneBox tile (or, for TLOAD to a Mat tile, an NZ tile: "
                "BLayout::ColMajor, SLayout::RowMajor, 512-byte fractals, or a 1-row RowMajor one, contiguous: GEMV's MX "
                "scales)");
  static_assert(G::layout != Layout::DN || (!TileT::isRowMajor && !TileT::isBoxedLayout) || (mat_load && kZnTile<TileT>),
                "TLOAD/TSTORE: a DN GlobalTensor needs a ColMajor NoneBox tile (or, for TLOAD to a Mat tile, a ZN tile: "
                "BLayout::RowMajor, SLayout::ColMajor, 512-byte fractals)");
  static_assert(G::layout != Layout::NZ || kNzTile<TileT>,
                "TLOAD/TSTORE: an NZ GlobalTensor needs an NZ tile (BLayout::ColMajor, SLayout::RowMajor, 512-byte fractals)");
  static_assert(G::layout != Layout::NZ ||
                    (G::ShapeType::kStatic[3] == 16 && G::ShapeType::kStatic[4] == kBlockElems<typename TileT::DType>),
                "TLOAD/TSTORE: an NZ GlobalTensor's dims 3 and 4 must be static 16 and 32 / sizeof(T) (one fractal's rows and C0; "
                "64 for the 4-bit types)");
  }
}

// TLOAD (dst tile, src GM) and the Vec / Mat TSTORE (dst GM, src tile) on their operands' views, shared
// with the PTO IR reader: the mapping rules, and TLOAD's pad, which completes each line's last 32-byte
// block of a NoneBox tile (NZ tiles take no pad).
inline void tload_checks(InstrRecord& rec, Target target) {
  check_gm_tile(*rec.desc, "src", rec.ops[1].gm, "dst", rec.ops[0].tile, target);
  const TileView& t = rec.ops[0].tile;
  if (target == Target::A5 && t.elem_bytes() == 8 && t.pad != PadValue::Null && t.pad != PadValue::Zero)
    fail("TLOAD: operand dst ", t, ": on A5 a 64-bit tile may only pad with PadValue::Null or Zero");
  if (t.pad != PadValue::Null && !t.boxed) {
    const int len = t.row_major ? t.valid_cols : t.valid_rows, cap = t.row_major ? t.cols : t.rows;
    const int block = int(32 / t.elem_bytes());
    rec.ops[0].write_tail_bytes = std::uint32_t((std::min(cap, (len + block - 1) / block * block) - len) * t.elem_bytes());
  }
}
inline void vec_mat_store_checks(const InstrRecord& rec, Target target) {
  if (rec.desc->op == Op::TSTORE_MAT && target == Target::A5)
    fail("TSTORE: operand src ", rec.ops[1].tile, ": a Mat (L1) source is an A2A3 form; on A5 TSTORE takes Vec and Acc tiles");
  check_gm_tile(*rec.desc, "dst", rec.ops[0].gm, "src", rec.ops[1].tile, target);
}
}  // namespace detail

template <class TileData, class GlobalData, class... WaitEvents>
  requires TileLike<TileData> && GlobalLike<GlobalData>
detail::Issue TLOAD(TileData& dst, GlobalData& src, WaitEvents&... events) {
  using namespace detail;
  static_check_gm_tile<TileData, GlobalData, true>();
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TLOAD>());
  add_tile(core, rec, dst);
  add_gm(rec, src);
  tload_checks(rec, core_target(core));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

namespace detail {
template <class GlobalData, class TileData, class... WaitEvents>
Issue vec_mat_store(GlobalData& dst, TileData& src, WaitEvents&... events) {
  static_check_gm_tile<TileData, GlobalData>();
  Core& core = current_core();
  constexpr Op op = TileData::Loc == TileType::Mat ? Op::TSTORE_MAT : Op::TSTORE_VEC;
  InstrRecord rec = compute_record(desc_of<op>());
  add_gm(rec, dst);
  add_tile(core, rec, src);
  vec_mat_store_checks(rec, core_target(core));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
}  // namespace detail

template <class GlobalData, class TileData, class... WaitEvents>
  requires TileLike<TileData> && GlobalLike<GlobalData> && (detail::WaitEvent<WaitEvents> && ...)
detail::Issue TSTORE(GlobalData& dst, TileData& src, WaitEvents&... events) {
  using namespace detail;
  if constexpr (TileData::Loc == TileType::Acc)  // the fixpipe (cube_rules.hpp)
    return acc_store<AtomicType::AtomicNone, ReluPreMode::NoRelu>(dst, src, events...);
  else
    return vec_mat_store(dst, src, events...);
}

// TSTORE's fixpipe forms, in pto-isa's template order: TSTORE<TileT, GlobalT, AtomicType::AtomicAdd>(dst,
// src) adds into GM, and a ReluPreMode applies ReLU (Acc sources only).
template <class TileData, class GlobalData, AtomicType Atomic, class... WaitEvents>
  requires TileLike<TileData> && GlobalLike<GlobalData>
detail::Issue TSTORE(GlobalData& dst, TileData& src, WaitEvents&... events) {
  static_assert(TileData::Loc == TileType::Acc, "TSTORE<..., AtomicType>: the atomic forms store an Acc tile (the fixpipe)");
  return detail::acc_store<Atomic, ReluPreMode::NoRelu>(dst, src, events...);
}
template <class TileData, class GlobalData, AtomicType Atomic, ReluPreMode Relu, class... WaitEvents>
  requires TileLike<TileData> && GlobalLike<GlobalData>
detail::Issue TSTORE(GlobalData& dst, TileData& src, WaitEvents&... events) {
  static_assert(TileData::Loc == TileType::Acc, "TSTORE<..., AtomicType, ReluPreMode>: the ReLU forms store an Acc tile (the fixpipe)");
  return detail::acc_store<Atomic, Relu>(dst, src, events...);
}
// The quantising fixpipe stores: one 64-bit word for every element (TSTORE(dst, src, preQuantScalar)), or
// one per column from a Scaling tile (TSTORE_FP(dst, src, fp)); docs/cube.md "Quant words".
template <class TileData, class GlobalData, AtomicType Atomic = AtomicType::AtomicNone,
          ReluPreMode Relu = ReluPreMode::NoRelu, class... WaitEvents>
  requires TileLike<TileData> && GlobalLike<GlobalData> && (detail::WaitEvent<WaitEvents> && ...)
detail::Issue TSTORE(GlobalData& dst, TileData& src, std::uint64_t preQuantScalar, WaitEvents&... events) {
  static_assert(TileData::Loc == TileType::Acc, "TSTORE(dst, src, preQuantScalar): the quant forms store an Acc tile (the fixpipe)");
  return detail::acc_store_scalar<Atomic, Relu>(dst, src, preQuantScalar, events...);
}
template <class TileData, class GlobalData, class FpTileData, AtomicType Atomic = AtomicType::AtomicNone,
          ReluPreMode Relu = ReluPreMode::NoRelu, class... WaitEvents>
  requires TileLike<TileData> && GlobalLike<GlobalData> && TileLike<FpTileData> && (detail::WaitEvent<WaitEvents> && ...)
detail::Issue TSTORE_FP(GlobalData& dst, TileData& src, FpTileData& fp, WaitEvents&... events) {
  static_assert(TileData::Loc == TileType::Acc, "TSTORE_FP: src must be an Acc tile (the fixpipe)");
  return detail::acc_store_fp<Atomic, Relu>(dst, src, fp, events...);
}

// The STPhase forms (pto-isa's unit flag: the fixpipe waits on the mad's Partial / Final phase). Each is
// its plain store: every fixpipe read of L0C bytes an AccPhase mad wrote waits for that mad (Core's unit
// flag), whatever the store's phase; the phase changes no result.
template <STPhase Phase, class TileData, class GlobalData, class... WaitEvents>
  requires TileLike<TileData> && GlobalLike<GlobalData> && (detail::WaitEvent<WaitEvents> && ...)
detail::Issue TSTORE(GlobalData& dst, TileData& src, WaitEvents&... events) {
  return TSTORE(dst, src, events...);
}
template <STPhase Phase, class TileData, class GlobalData, AtomicType Atomic, class... WaitEvents>
  requires TileLike<TileData> && GlobalLike<GlobalData> && (detail::WaitEvent<WaitEvents> && ...)
detail::Issue TSTORE(GlobalData& dst, TileData& src, WaitEvents&... events) {
  return TSTORE<TileData, GlobalData, Atomic>(dst, src, events...);
}
template <STPhase Phase, class TileData, class GlobalData, AtomicType Atomic, ReluPreMode Relu, class... WaitEvents>
  requires TileLike<TileData> && GlobalLike<GlobalData> && (detail::WaitEvent<WaitEvents> && ...)
detail::Issue TSTORE(GlobalData& dst, TileData& src, WaitEvents&... events) {
  return TSTORE<TileData, GlobalData, Atomic, Relu>(dst, src, events...);
}
template <STPhase Phase, class TileData, class GlobalData, AtomicType Atomic = AtomicType::AtomicNone,
          ReluPreMode Relu = ReluPreMode::NoRelu, class... WaitEvents>
  requires TileLike<TileData> && GlobalLike<GlobalData> && (detail::WaitEvent<WaitEvents> && ...)
detail::Issue TSTORE(GlobalData& dst, TileData& src, std::uint64_t preQuantScalar, WaitEvents&... events) {
  return TSTORE<TileData, GlobalData, Atomic, Relu>(dst, src, preQuantScalar, events...);
}

// TPREFETCH(dst, src) (docs/isa/TPREFETCH.md; a2a3 / a5 TPrefetch.hpp): the NPUs' DMA of the tensor's
// bytes through dst, a scratch tile, on MTE2 (isa/prefetch.hpp has its walk). It takes no wait events
// (it calls no TSYNC). The model prices every call; dst is written (whole, for dependencies and the
// checker) and holds what the chip's last calls leave there, nothing a kernel should read.
template <class TileData, class GlobalData>
  requires TileLike<TileData> && GlobalLike<GlobalData>
detail::Issue TPREFETCH(TileData& dst, GlobalData& src) {
  using namespace detail;
  static_assert(TileData::Loc == TileType::Vec, "TPREFETCH: dst must be a Vec tile (the NPUs' DMA writes UB)");
  static_assert(sizeof(typename TileData::DType) == sizeof(typename GlobalData::DType),
                "TPREFETCH: the tile's and the tensor's element types must have the same size");
  Core& core = current_core();
  const Target target = core_target(core);
  InstrRecord rec = compute_record(desc_of<Op::TPREFETCH>());
  add_tile(core, rec, dst);
  add_gm(rec, src);
  TileView& t = rec.ops[0].tile;
  t.valid_rows = t.rows;  // the calls write the tile from its first byte, whatever its valid region
  t.valid_cols = t.cols;
  const GmView& g = rec.ops[1].gm;
  if (g.stride[4] != 1)
    fail("TPREFETCH: operand src ", g, ": the DMA reads each row as one burst, so stride dimension 4 must be 1");
  const PrefetchWalk w = prefetch_walk(g, t, target);
  if (w.extent() > std::int64_t(t.capacity_bytes()))
    fail("TPREFETCH: operand dst ", t, ": A2A3 starts each of the ", w.chunk_rows, " rows of ", w.chunk_cols,
         " elements on a 32-byte block, ", w.extent(), " bytes, past the tile's ", t.capacity_bytes(),
         " (the chip would write past dst)");
  if (target == Target::A2A3 && w.chunk_rows >= 4096)
    fail("TPREFETCH: operand src ", g, ": A2A3 DMA moves fewer than 4096 rows per call (", w.chunk_rows, " here)");
  return Issue(core, rec);
}
template <class TileData, class Src>
  requires TileLike<TileData> && TileLike<Src>
void TPREFETCH(TileData&, Src&) {
  static_assert(!TileLike<Src>, "TPREFETCH: src must be a GlobalTensor (the NPUs prefetch from GM; pto-isa's CPU "
                                "simulator also takes a tile and copies it, which no chip does)");
}

// TMOV Vec -> Vec (a2a3 / a5 TMov.hpp TMovToVec): the bits of min(dst's, src's) valid rows x columns,
// element (r, c) to (r, c); the dtypes may differ if their sizes agree. A2A3 requires one static shape
// (its static_assert; a runtime rule here, the target being a launch option); A5 takes any two.
namespace detail {
// TMOV Vec -> Vec on the views (dst, src), shared with the PTO IR reader: ND -> NZ (a boxed dst, A5),
// A2A3's same-shape rule and its layout-blind copy, and the region the chips move.
inline void vec_move_checks(InstrRecord& rec, Target target) {
  TileView& d = rec.ops[0].tile;
  TileView& s = rec.ops[1].tile;
  if (d.boxed) {
    // a5 TMovToVecNd2Nz: per 256-byte column group and src row, a load and a block-strided store of its
    // 32-byte blocks, the column blocks roundup16(dst's valid rows) rows apart.
    if (target == Target::A2A3)
      fail("TMOV: operand dst ", d, ": A2A3's TMOV converts no layout (a2a3 TMov.hpp copies the bytes linearly); ND -> NZ is A5's");
    const int pitch = (d.valid_rows + 15) / 16 * 16;
    if (d.rows != pitch)
      fail("TMOV: operand dst ", d, ": A5's ND -> NZ lays the column blocks roundup16(validRow) = ", pitch,
           " rows apart, so dst's Rows must be ", pitch, " (its NZ addressing uses Rows)");
    if (s.valid_rows > d.valid_rows || d.valid_cols > s.cols)
      fail("TMOV: operand src ", s, " and operand dst ", d, ": A5 moves src's valid rows and dst's valid columns, so src may "
           "have no more valid rows than dst and dst no more valid columns than src's Cols");
    d.valid_rows = s.valid_rows;
    s.valid_cols = d.valid_cols;
    return;
  }
  if (target == Target::A2A3 && (d.rows != s.rows || d.cols != s.cols))
    fail("TMOV: operand dst ", d, " and operand src ", s, ": A2A3 moves between Vec tiles of one shape (Rows and Cols; "
         "its static_assert); A5 takes any two");
  if (target == Target::A2A3 && d.row_major != s.row_major) {
    // a2a3 TMov.hpp converts no layout: with a whole-width valid region (the type's or at run time) it
    // copies Cols x validRow elements' bytes in one burst, as they lie; else row by row at each tile's
    // RowStride, 1 element for a ColMajor tile, off the 32-byte blocks its copy needs.
    const int vr = std::min(d.valid_rows, s.valid_rows), vc = std::min(d.valid_cols, s.valid_cols);
    if (!(d.static_full_cols() || vc == d.cols))
      fail("TMOV: operand dst ", d, " and operand src ", s, ": A2A3's TMOV converts no layout; with a partial valid width it "
           "copies row by row at each tile's RowStride (1 element for a ColMajor tile), off the 32-byte blocks its copy "
           "needs. Give both tiles one layout (A5 converts)");
    const std::size_t n = (std::size_t(d.cols) * std::size_t(vr) * d.elem_bytes() + 31) / 32 * 32;
    d = byte_run(d, n);
    s = byte_run(s, n);
    return;
  }
  d.valid_rows = s.valid_rows = std::min(d.valid_rows, s.valid_rows);  // the chips move the smaller region
  d.valid_cols = s.valid_cols = std::min(d.valid_cols, s.valid_cols);
}

template <class DstTile, class SrcTile, class... WaitEvents>
Issue vec_move(DstTile& dst, SrcTile& src, WaitEvents&... events) {
  static_assert(DstTile::Loc == TileType::Vec && SrcTile::Loc == TileType::Vec,
                "TMOV: the forms are Vec -> Vec, Mat -> Left / Right / Bias / Scaling / scale tiles, and out of an Acc tile "
                "(the fixpipe)");
  static_assert(sizeof(typename DstTile::DType) == sizeof(typename SrcTile::DType),
                "TMOV (Vec -> Vec): dst and src must have elements of one size (the bits move unchanged)");
  constexpr bool nd2nz = DstTile::isBoxedLayout;
  static_assert(!SrcTile::isBoxedLayout,
                "TMOV (Vec -> Vec): a boxed source is rejected (neither NPU converts NZ -> ND: a5 TMov.hpp's generic "
                "copy walks such a tile by rows)");
  static_assert(!nd2nz || (SrcTile::isRowMajor && !DstTile::isRowMajor && DstTile::isInnerRowMajor && DstTile::SFractalSize == 512),
                "TMOV (Vec -> Vec): the boxed form is ND -> NZ (a RowMajor NoneBox src, an NZ dst; A5)");
  using E = typename DstTile::DType;
  static_assert(!nd2nz || std::is_same_v<E, half> || std::is_same_v<E, bfloat16_t> || std::is_same_v<E, float> ||
                    std::is_same_v<E, std::int32_t> || std::is_same_v<E, std::int8_t> || std::is_same_v<E, std::uint8_t> ||
                    std::is_same_v<E, float8_e4m3_t> || std::is_same_v<E, float8_e5m2_t> || std::is_same_v<E, hifloat8_t>,
                "TMOV ND -> NZ: A5 moves half, bfloat16_t, float, int32_t, int8_t, uint8_t and the 8-bit floats (a5 TMov.hpp)");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TMOV_V2V>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  vec_move_checks(rec, core_target(core));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
}  // namespace detail

template <class DstTile, class SrcTile, class... WaitEvents>
  requires TileLike<DstTile> && TileLike<SrcTile> && (detail::WaitEvent<WaitEvents> && ...)
detail::Issue TMOV(DstTile& dst, SrcTile& src, WaitEvents&... events) {
  using namespace detail;
  if constexpr (SrcTile::Loc == TileType::Acc)  // the fixpipe, out of L0C (cube_rules.hpp)
    return acc_move<Op::TMOV_A2M, ReluPreMode::NoRelu>(dst, src, 0, 0, events...);
  else if constexpr (DstTile::Loc == TileType::Left || DstTile::Loc == TileType::Right)  // the cube's (cube_rules.hpp)
    return l0_move<DstTile::Loc == TileType::Left ? Op::TMOV_M2L : Op::TMOV_M2R, true>(dst, src, 0, 0, events...);
  else if constexpr (DstTile::Loc == TileType::ScaleLeft || DstTile::Loc == TileType::ScaleRight)  // A5's MX scales
    return scale_move<DstTile::Loc == TileType::ScaleLeft ? Op::TMOV_M2L : Op::TMOV_M2R, true>(dst, src, 0, 0, events...);
  else if constexpr (DstTile::Loc == TileType::Bias)
    return bias_move(dst, src, events...);
  else if constexpr (DstTile::Loc == TileType::Scaling)
    return scaling_move(dst, src, events...);
  else
    return vec_move(dst, src, events...);
}

// TMOV's fixpipe forms, out of an Acc tile (pto-isa's template order): with ReLU; to UB on A5 with an
// AccToVecMode (the single modes: the model has one vector unit per core); with one quant word; with a
// Scaling tile of per-column words (TMOV_FP). docs/cube.md.
template <class DstTile, class SrcTile, ReluPreMode Relu, class... WaitEvents>
  requires TileLike<DstTile> && TileLike<SrcTile> && (detail::WaitEvent<WaitEvents> && ...)
detail::Issue TMOV(DstTile& dst, SrcTile& src, WaitEvents&... events) {
  static_assert(SrcTile::Loc == TileType::Acc, "TMOV<..., ReluPreMode>: the ReLU forms move an Acc tile (the fixpipe)");
  return detail::acc_move<Op::TMOV_A2M, Relu>(dst, src, 0, 0, events...);
}
template <class DstTile, class SrcTile, AccToVecMode Mode, ReluPreMode Relu = ReluPreMode::NoRelu, class... WaitEvents>
  requires TileLike<DstTile> && TileLike<SrcTile> && (detail::WaitEvent<WaitEvents> && ...)
detail::Issue TMOV(DstTile& dst, SrcTile& src, WaitEvents&... events) {
  static_assert(SrcTile::Loc == TileType::Acc && DstTile::Loc == TileType::Vec,
                "TMOV<..., AccToVecMode>: an Acc tile to a Vec tile (A5)");
  static_assert(Mode == AccToVecMode::SingleModeVec0 || Mode == AccToVecMode::SingleModeVec1,
                "TMOV<..., AccToVecMode>: the dual modes split the tile over a cube's two vector units, which the model "
                "does not have (one vector unit per core): use SingleModeVec0");
  return detail::acc_move<Op::TMOV_A2M, Relu>(dst, src, 0, 0, events...);
}
template <class DstTile, class SrcTile, ReluPreMode Relu = ReluPreMode::NoRelu, class... WaitEvents>
  requires TileLike<DstTile> && TileLike<SrcTile> && (detail::WaitEvent<WaitEvents> && ...)
detail::Issue TMOV(DstTile& dst, SrcTile& src, std::uint64_t preQuantScalar, WaitEvents&... events) {
  static_assert(SrcTile::Loc == TileType::Acc, "TMOV(dst, src, preQuantScalar): the quant forms move an Acc tile (the fixpipe)");
  return detail::acc_move_scalar<Op::TMOV_A2M, Relu>(dst, src, preQuantScalar, 0, 0, events...);
}
template <class DstTile, class SrcTile, class FpTile, ReluPreMode Relu = ReluPreMode::NoRelu, class... WaitEvents>
  requires TileLike<DstTile> && TileLike<SrcTile> && TileLike<FpTile> && (detail::WaitEvent<WaitEvents> && ...)
detail::Issue TMOV_FP(DstTile& dst, SrcTile& src, FpTile& fp, WaitEvents&... events) {
  static_assert(SrcTile::Loc == TileType::Acc, "TMOV_FP: src must be an Acc tile (the fixpipe)");
  return detail::acc_move_fp<Op::TMOV_A2M_FP, Relu>(dst, src, fp, 0, 0, events...);
}

// TMOV's STPhase forms are A5's (A2A3's TMOV takes no phase: an error there); the phase changes no
// result (see TSTORE's), so each is its plain move.
namespace detail {
inline void phase_move_target(const char* form) {
  if (core_target(current_core()) == Target::A2A3)
    fail(form, ": the STPhase forms of TMOV are A5's (A2A3's TMOV takes no phase; drop the STPhase argument)");
}
}  // namespace detail
template <STPhase Phase, class DstTile, class SrcTile, class... WaitEvents>
  requires TileLike<DstTile> && TileLike<SrcTile> && (detail::WaitEvent<WaitEvents> && ...)
detail::Issue TMOV(DstTile& dst, SrcTile& src, WaitEvents&... events) {
  detail::phase_move_target("TMOV<STPhase, ...>");
  return TMOV(dst, src, events...);
}
template <STPhase Phase, class DstTile, class SrcTile, ReluPreMode Relu, class... WaitEvents>
  requires TileLike<DstTile> && TileLike<SrcTile> && (detail::WaitEvent<WaitEvents> && ...)
detail::Issue TMOV(DstTile& dst, SrcTile& src, WaitEvents&... events) {
  detail::phase_move_target("TMOV<STPhase, ..., ReluPreMode>");
  return TMOV<DstTile, SrcTile, Relu>(dst, src, events...);
}
template <STPhase Phase, class DstTile, class SrcTile, AccToVecMode Mode, ReluPreMode Relu = ReluPreMode::NoRelu,
          class... WaitEvents>
  requires TileLike<DstTile> && TileLike<SrcTile> && (detail::WaitEvent<WaitEvents> && ...)
detail::Issue TMOV(DstTile& dst, SrcTile& src, WaitEvents&... events) {
  detail::phase_move_target("TMOV<STPhase, ..., AccToVecMode>");
  return TMOV<DstTile, SrcTile, Mode, Relu>(dst, src, events...);
}
template <STPhase Phase, class DstTile, class SrcTile, ReluPreMode Relu = ReluPreMode::NoRelu, class... WaitEvents>
  requires TileLike<DstTile> && TileLike<SrcTile> && (detail::WaitEvent<WaitEvents> && ...)
detail::Issue TMOV(DstTile& dst, SrcTile& src, std::uint64_t preQuantScalar, WaitEvents&... events) {
  detail::phase_move_target("TMOV<STPhase, ...>(dst, src, preQuantScalar)");
  return TMOV<DstTile, SrcTile, Relu>(dst, src, preQuantScalar, events...);
}
template <STPhase Phase, class DstTile, class SrcTile, class FpTile, ReluPreMode Relu = ReluPreMode::NoRelu, class... WaitEvents>
  requires TileLike<DstTile> && TileLike<SrcTile> && TileLike<FpTile> && (detail::WaitEvent<WaitEvents> && ...)
detail::Issue TMOV_FP(DstTile& dst, SrcTile& src, FpTile& fp, WaitEvents&... events) {
  detail::phase_move_target("TMOV_FP<STPhase, ...>");
  return TMOV_FP<DstTile, SrcTile, FpTile, Relu>(dst, src, fp, events...);
}

namespace detail {
// TEXPANDS (dst) on its view, shared with the PTO IR reader. A2A3 (TExpandS): a static valid length
// fills validRow * validCol packed elements from the tile's start; shorter than the tile's lines and with
// more than one line, that is not the valid region.
inline void texpands_checks(const InstrRecord& rec, Target target) {
  const TileView& t = rec.ops[0].tile;
  check_dtype(*rec.desc, t.dtype, target);
  if (target == Target::A5 && !t.row_major) fail("TEXPANDS: operand dst ", t, ": A5 requires a RowMajor tile");
  const bool row = t.row_major;
  const bool static_len = row ? t.static_valid_cols : t.static_valid_rows;
  const int len = row ? t.valid_cols : t.valid_rows, cap_len = row ? t.cols : t.rows;
  const bool one_cap_line = (row ? t.rows : t.cols) == 1;
  const int lines = row ? t.valid_rows : t.valid_cols;
  if (target == Target::A2A3 && static_len && len != cap_len && !one_cap_line && lines > 1)
    fail("TEXPANDS: operand dst ", t, ": the A2A3 algorithm fills ", row ? "validRow * validCol" : "validCol * validRow",
         " packed elements from the tile's start when the valid ", row ? "width" : "height", " is static (", len, " of ",
         cap_len, "), so it would fill the first ", lines * len, " elements instead of the valid region (use a dynamic "
         "valid shape)");
}
}  // namespace detail

template <class TileData, class... WaitEvents>
  requires TileLike<TileData>
detail::Issue TEXPANDS(TileData& dst, typename TileData::DType scalar, WaitEvents&... events) {
  using namespace detail;
  static_assert(TileData::Loc == TileType::Vec, "TEXPANDS: only the Vec form is implemented so far");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TEXPANDS>());
  add_tile(core, rec, dst);
  texpands_checks(rec, core_target(core));
  rec.scalar = ScalarValue::of(scalar);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

}  // namespace pto
