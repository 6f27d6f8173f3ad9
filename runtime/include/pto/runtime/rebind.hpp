// TRESHAPE, TSUBVIEW and TGET_SCALE_ADDR (pto-isa docs/isa/TRESHAPE.md, TSUBVIEW.md,
// TGET_SCALE_ADDR.md; docs/layout.md): a tile takes the
// bytes of another, as TASSIGN gives it bytes. No data moves: the NPUs rebind the address (a2a3
// TReshape.hpp: TASSIGN_IMPL(dst, src.data()); TSubView.hpp: src.data() + rowIdx * RowStride + colIdx *
// ColStride), so later writes through either tile are seen through the other. Each issues a zero-cost
// record on the scalar pipe that carries its wait events, so `co_await TRESHAPE(dst, src)` works.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

#include <pto/isa/buffers.hpp>
#include <pto/isa/instr_desc.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>
#include <pto/runtime/tassign.hpp>

namespace pto {

namespace detail {
// dst now points `bytes` into src's storage, and holds src's auto-mode placement while it does.
template <TileLike D, TileLike S>
void alias_tile(D& dst, const S& src, std::uint32_t bytes) {
  std::byte* const addr = src.addr_ + bytes;
  const std::uint32_t offset = src.offset_ + bytes;
  const std::uint64_t owner = src.owner_;
  const bool counted = src.auto_placed_;
  if (counted && tile_hooks.retain) tile_hooks.retain(addr, owner);  // before dst drops: dst may be src
  dst.drop_placement();
  dst.addr_ = addr;
  dst.offset_ = offset;
  dst.owner_ = owner;
  dst.auto_placed_ = counted;
}

template <Op O, class... W>
Issue rebind_record(Core& core, W&... events) {
  InstrRecord rec;
  rec.desc = &desc_of<O>();
  rec.kind = RecordKind::Nop;
  rec.pipe = PIPE_S;
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
}  // namespace detail

// TRESHAPE(dst, src): dst views src's bytes as its own type. Same TileType, same byte size, and boxed
// only to boxed (the NPU's static_asserts). The dtypes may differ in kind (float <-> int): the NPUs allow
// it (a2a3 TQuant.hpp reshapes half to int32 views); pto-isa's CPU simulator alone forbids it.
template <class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src> && (detail::WaitEvent<W> && ...)
detail::Issue TRESHAPE(Dst& dst, Src& src, W&... events) {
  using namespace detail;
  static_assert(Dst::Loc == Src::Loc, "TRESHAPE: dst and src must have the same TileType");
  static_assert(Dst::GetSizeInBytes() == Src::GetSizeInBytes(),
                "TRESHAPE: dst and src must have the same byte size (Rows * Cols * sizeof(DType))");
  static_assert(Dst::isBoxedLayout == Src::isBoxedLayout,
                "TRESHAPE: cannot reshape between boxed and non-boxed (SLayout::NoneBox) layouts");
  Core& core = current_core();
  place_operand(core, src, "TRESHAPE", "src");
  alias_tile(dst, src, 0);
  return rebind_record<Op::TRESHAPE>(core, events...);
}

// TSUBVIEW(dst, src, rowIdx, colIdx): dst(i, j) is src(rowIdx + i, colIdx + j) over dst's valid region.
// Beyond the NPU's one static rule (same TileType) the emulator checks what makes that true, so a window
// that would silently read other bytes is an error: the same BLayout and element size, (rowIdx, colIdx)
// inside src, dst's valid region inside src's storage, dst's strides equal to src's along every
// dimension with more than one valid element (boxed tiles: every valid element checked), dst's storage
// inside the buffer. A window need not start on a 32-byte boundary (scalar GetValue / SetValue work),
// but an instruction given such a tile is an error (operands.hpp).
template <class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src> && (detail::WaitEvent<W> && ...)
detail::Issue TSUBVIEW(Dst& dst, Src& src, std::uint16_t rowIdx, std::uint16_t colIdx, W&... events) {
  using namespace detail;
  static_assert(Dst::Loc == Src::Loc, "TSUBVIEW: dst and src must have the same TileType");
  static_assert(Dst::BFractal == Src::BFractal, "TSUBVIEW: dst and src must have the same BLayout");
  static_assert(sizeof(typename Dst::DType) == sizeof(typename Src::DType),
                "TSUBVIEW: dst and src must have elements of one size (dst is a window of src's elements)");
  Core& core = current_core();
  place_operand(core, src, "TSUBVIEW", "src");
  const TileView d = dst.view(), s = src.view();
  auto where = [&] { return " (rowIdx " + std::to_string(rowIdx) + ", colIdx " + std::to_string(colIdx) + ")"; };
  if (rowIdx >= s.rows || colIdx >= s.cols)
    fail("TSUBVIEW: operand src ", s, ": the window's first element", where(), " is outside src's ", s.rows, " x ",
         s.cols, " elements");
  if (rowIdx + d.valid_rows > s.rows || colIdx + d.valid_cols > s.cols)
    fail("TSUBVIEW: operand dst ", d, ": its valid region at", where(), " runs past src ", s, " (", rowIdx + d.valid_rows,
         " rows, ", colIdx + d.valid_cols, " columns of src's ", s.rows, " x ", s.cols, ")");
  const std::int64_t first = std::int64_t(rowIdx) * Src::RowStride + std::int64_t(colIdx) * Src::ColStride;  // NPU formula
  if constexpr (!Dst::isBoxedLayout && !Src::isBoxedLayout) {
    if (Dst::isRowMajor && d.valid_rows > 1 && Dst::RowStride != Src::RowStride)
      fail("TSUBVIEW: operand dst ", d, ": its row stride ", Dst::RowStride, " differs from src's ", Src::RowStride,
           ", so its rows after the first are not src's rows; give dst src's Cols (or a single valid row)");
    if (!Dst::isRowMajor && d.valid_cols > 1 && Dst::ColStride != Src::ColStride)
      fail("TSUBVIEW: operand dst ", d, ": its column stride ", Dst::ColStride, " differs from src's ", Src::ColStride,
           ", so its columns after the first are not src's columns; give dst src's Rows (or a single valid column)");
  } else {
    for (int i = 0; i < d.valid_rows; ++i)
      for (int j = 0; j < d.valid_cols; ++j)
        if (first + Dst::GetTileOffset(i, j) != Src::GetTileOffset(rowIdx + i, colIdx + j))
          fail("TSUBVIEW: operand dst ", d, ": its element (", i, ", ", j, ") would be src's element offset ",
               first + Dst::GetTileOffset(i, j), ", not src(", rowIdx + i, ", ", colIdx + j, ") at ",
               Src::GetTileOffset(rowIdx + i, colIdx + j), where(),
               ": the NPU offsets the address by rowIdx * RowStride + colIdx * ColStride, which is a window of a "
               "boxed tile only where the boxes line up");
  }
  if (Src::kNibbles && first % 2 != 0)
    fail("TSUBVIEW: operand dst ", d, ": at", where(), " it would start at element offset ", first,
         " of a 4-bit tile, inside a byte (two elements a byte): the offset must be even");
  const std::uint64_t bytes = Src::kNibbles ? std::uint64_t(first) / 2 : std::uint64_t(first) * sizeof(typename Src::DType);
  const std::size_t capacity = buffer_bytes(core, Src::Loc);
  if (src.offset_ + bytes + Dst::GetSizeInBytes() > capacity)
    fail("TSUBVIEW: operand dst ", d, ": at", where(), " its storage [0x", std::hex, src.offset_ + bytes, ", 0x",
         src.offset_ + bytes + Dst::GetSizeInBytes(), ") runs past the ", std::dec, capacity / 1024, " KiB ",
         memory_name(memory_of(Src::Loc)), "; give dst fewer Rows or Cols");
  alias_tile(dst, src, std::uint32_t(bytes));
  return rebind_record<Op::TSUBVIEW>(core, events...);
}

// GetScaleAddr(p) (a5 utils.hpp): the MX scale-buffer address that goes with an L0A / L0B address, p's
// offset >> 4 (the scales take a 16th of their data's bytes); TASSIGN a TileLeftScale / TileRightScale there.
template <class T>
std::uint64_t GetScaleAddr(T* p) {
  using namespace detail;
  Core& core = current_core();
  const auto* b = reinterpret_cast<const std::byte*>(p);
  for (TileType loc : {TileType::Left, TileType::Right}) {
    const std::byte* base = buffer_base(core, loc);
    if (base && b >= base && b < base + buffer_bytes(core, loc)) return std::uint64_t(b - base) >> 4;
  }
  fail("GetScaleAddr: the pointer is not in L0A or L0B (pass a Left or Right tile's data())");
}

// TGET_SCALE_ADDR(dst, src): A5 only (pto-isa has no A2A3 implementation). Its purpose is the cube's MX
// forms: dst, a ScaleLeft (ScaleRight) tile, goes to the scale-buffer address of src, a Left (Right) tile:
// src's offset >> 4 (GetScaleAddr's rule). Within one TileType it is pto-isa's CPU simulator's form: dst
// aliases src.
template <class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src> && (detail::WaitEvent<W> && ...)
detail::Issue TGET_SCALE_ADDR(Dst& dst, Src& src, W&... events) {
  using namespace detail;
  constexpr bool scale = (Dst::Loc == TileType::ScaleLeft && Src::Loc == TileType::Left) ||
                        (Dst::Loc == TileType::ScaleRight && Src::Loc == TileType::Right);
  static_assert(scale || Dst::Loc == Src::Loc,
                "TGET_SCALE_ADDR: dst and src must have the same TileType, or be a ScaleLeft tile and a Left tile (a "
                "ScaleRight tile and a Right tile)");
  Core& core = current_core();
  if (core_target(core) != Target::A5)
    fail("TGET_SCALE_ADDR: operand dst ", dst.view(), ": the instruction exists on A5 only (pto-isa has no ",
         name_of(core_target(core)), " implementation)");
  place_operand(core, src, "TGET_SCALE_ADDR", "src");
  if constexpr (scale) {
    TASSIGN(dst, std::uint64_t(src.offset_) >> 4);  // checked against the scale buffer as any TASSIGN
    return rebind_record<Op::TGET_SCALE_ADDR>(core, events...);
  }
  if (src.offset_ + Dst::GetSizeInBytes() > buffer_bytes(core, Src::Loc))
    fail("TGET_SCALE_ADDR: operand dst ", dst.view(), ": at src's address 0x", std::hex, src.offset_, std::dec,
         " its ", Dst::GetSizeInBytes(), " bytes run past the buffer");
  alias_tile(dst, src, 0);
  return rebind_record<Op::TGET_SCALE_ADDR>(core, events...);
}

}  // namespace pto
