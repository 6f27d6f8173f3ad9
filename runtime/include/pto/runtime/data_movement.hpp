// TLOAD and TSTORE (Vec and Mat tiles), TMOV (Vec -> Vec) and TEXPANDS.
// Each: compile-time rules as static_asserts, runtime rules as pto::Error, then one record issued.
#pragma once
#include <algorithm>
#include <pto/isa/global_tensor.hpp>
#include <pto/isa/instr_desc.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {

namespace detail {
// TLOAD/TSTORE: the tile's valid shape must be exactly what the tensor maps (spec §1.4, §1.6).
inline void check_gm_tile(const InstrDesc& d, const char* gm_name, const GmView& g, const char* tile_name,
                          const TileView& t, Target target) {
  const bool dn = g.layout == Layout::DN;
  if (g.tile_rows() != t.valid_rows || g.tile_cols() != t.valid_cols)
    fail(d.name, ": operand ", gm_name, " ", g, " maps ", g.tile_rows(), 'x', g.tile_cols(),
         dn ? " (rows = s3, cols = s0*s1*s2*s4)" : " (rows = s0*s1*s2*s3, cols = s4)", " but operand ", tile_name,
         " has valid shape ", t.valid_rows, 'x', t.valid_cols, "; they must be equal (",
         dn ? "DN tensor <-> ColMajor tile" : "ND tensor <-> RowMajor tile", " rule)");
  if (target == Target::A2A3 && t.rows >= 4096)
    fail(d.name, ": operand ", tile_name, " ", t, ": A2A3 DMA needs a tile with Rows < 4096");
  if (target == Target::A2A3 && g.shape[3] >= 4096)
    fail(d.name, ": operand ", gm_name, " ", g, ": A2A3 DMA needs shape dimension 3 < 4096 (one burst per row)");
}

template <class TileT, class G>
constexpr void static_check_gm_tile() {
  static_assert(TileT::Loc == TileType::Vec || TileT::Loc == TileType::Mat,
                "TLOAD/TSTORE: a Vec (UB) or Mat (L1) tile; Acc (L0C) stores arrive with the cube pipes");
  static_assert(sizeof(typename TileT::DType) == sizeof(typename G::DType),
                "TLOAD/TSTORE: the tile's and the tensor's element types must have the same size");
  static_assert(G::layout == Layout::ND || G::layout == Layout::DN,
                "TLOAD/TSTORE: only ND and DN GlobalTensors are supported so far (NZ and others are not)");
  static_assert(G::layout != Layout::ND || (TileT::isRowMajor && !TileT::isBoxedLayout),
                "TLOAD/TSTORE: an ND GlobalTensor needs a RowMajor NoneBox tile");
  static_assert(G::layout != Layout::DN || (!TileT::isRowMajor && !TileT::isBoxedLayout),
                "TLOAD/TSTORE: a DN GlobalTensor needs a ColMajor NoneBox tile");
}
}  // namespace detail

template <class TileData, class GlobalData, class... WaitEvents>
  requires TileLike<TileData> && GlobalLike<GlobalData>
detail::Issue TLOAD(TileData& dst, GlobalData& src, WaitEvents&... events) {
  using namespace detail;
  static_check_gm_tile<TileData, GlobalData>();
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TLOAD>());
  add_tile(core, rec, dst);
  add_gm(rec, src);
  check_gm_tile(*rec.desc, "src", rec.ops[1].gm, "dst", rec.ops[0].tile, core_target(core));
  if (core_target(core) == Target::A5 && sizeof(typename TileData::DType) == 8 && TileData::PadVal != PadValue::Null &&
      TileData::PadVal != PadValue::Zero)
    fail("TLOAD: operand dst ", rec.ops[0].tile, ": on A5 a 64-bit tile may only pad with PadValue::Null or Zero");
  if constexpr (TileData::PadVal != PadValue::Null) {  // the pad completes each line's last 32-byte block
    const TileView& t = rec.ops[0].tile;
    const int len = t.row_major ? t.valid_cols : t.valid_rows, cap = t.row_major ? t.cols : t.rows;
    const int block = int(32 / sizeof(typename TileData::DType));
    rec.ops[0].write_tail_bytes = std::uint32_t((std::min(cap, (len + block - 1) / block * block) - len) * t.elem_bytes());
  }
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

template <class GlobalData, class TileData, class... WaitEvents>
  requires TileLike<TileData> && GlobalLike<GlobalData>
detail::Issue TSTORE(GlobalData& dst, TileData& src, WaitEvents&... events) {
  using namespace detail;
  static_check_gm_tile<TileData, GlobalData>();
  Core& core = current_core();
  constexpr Op op = TileData::Loc == TileType::Mat ? Op::TSTORE_MAT : Op::TSTORE_VEC;
  InstrRecord rec = compute_record(desc_of<op>());
  add_gm(rec, dst);
  add_tile(core, rec, src);
  if (op == Op::TSTORE_MAT && core_target(core) == Target::A5)
    fail("TSTORE: operand src ", rec.ops[1].tile, ": a Mat (L1) source is an A2A3 form; on A5 TSTORE takes Vec and Acc tiles");
  check_gm_tile(*rec.desc, "dst", rec.ops[0].gm, "src", rec.ops[1].tile, core_target(core));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

template <class DstTile, class SrcTile, class... WaitEvents>
  requires TileLike<DstTile> && TileLike<SrcTile>
detail::Issue TMOV(DstTile& dst, SrcTile& src, WaitEvents&... events) {
  using namespace detail;
  static_assert(DstTile::Loc == TileType::Vec && SrcTile::Loc == TileType::Vec,
                "TMOV: only the Vec -> Vec form is implemented so far");
  static_assert(std::is_same_v<typename DstTile::DType, typename SrcTile::DType>,
                "TMOV (Vec -> Vec): dst and src must have the same DType");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TMOV_V2V>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  const TileView& d = rec.ops[0].tile;
  const TileView& s = rec.ops[1].tile;
  if (s.valid_rows < d.valid_rows || s.valid_cols < d.valid_cols)
    fail("TMOV: operand src ", s, " has a smaller valid region than operand dst ", d,
         "; the copy covers dst's valid region, so src must cover it too");
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

template <class TileData, class... WaitEvents>
  requires TileLike<TileData>
detail::Issue TEXPANDS(TileData& dst, typename TileData::DType scalar, WaitEvents&... events) {
  using namespace detail;
  static_assert(TileData::Loc == TileType::Vec, "TEXPANDS: only the Vec form is implemented so far");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TEXPANDS>());
  add_tile(core, rec, dst);
  check_dtype(*rec.desc, rec.ops[0].tile.dtype, core_target(core));
  if (core_target(core) == Target::A5 && !TileData::isRowMajor)
    fail("TEXPANDS: operand dst ", rec.ops[0].tile, ": A5 requires a RowMajor tile");
  // A2A3 (TExpandS): a static valid length fills validRow * validCol packed elements from the tile's
  // start; shorter than the tile's lines and with more than one line, that is not the valid region.
  constexpr bool row = TileData::isRowMajor;
  constexpr int static_len = row ? TileData::ValidCol : TileData::ValidRow, cap_len = row ? TileData::Cols : TileData::Rows;
  constexpr bool one_cap_line = (row ? TileData::Rows : TileData::Cols) == 1;
  const int lines = row ? rec.ops[0].tile.valid_rows : rec.ops[0].tile.valid_cols;
  if (core_target(core) == Target::A2A3 && static_len != -1 && static_len != cap_len && !one_cap_line && lines > 1)
    fail("TEXPANDS: operand dst ", rec.ops[0].tile, ": the A2A3 algorithm fills ", row ? "validRow * validCol" : "validCol * validRow",
         " packed elements from the tile's start when the valid ", row ? "width" : "height", " is static (", static_len,
         " of ", cap_len, "), so it would fill the first ", lines * static_len, " elements instead of the valid region "
         "(use a dynamic valid shape)");
  rec.scalar = ScalarValue::of(scalar);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

}  // namespace pto
