// Generators (pto-isa docs/isa/TCI.md):
//  - TCI<TileData, T, descending>(dst, start[, tmp]): dst[0][j] = start + j (descending: start - j) for
//    j below dst's valid columns, in T's arithmetic (integers wrap). dst has one row and T is its DType.
//    TCI runs on the scalar pipe, as pto-isa's op list has it: in program order, visible to everything
//    issued after it. The tmp form is A2A3's vector path (integers only; tmp a 4-byte tile of at least
//    768 bytes, 2560 with 64 or more 32-bit columns, 1792 for 16-bit), whose descending order computes
//    -(start + j), as the chip does (docs/sort-gather.md); A5 ignores tmp.
//  - TRANDOM<Rounds = 10>(dst, key, counter) (TRANDOM.md; a5 TRandom.hpp, A5 only): Philox-4x32-Rounds
//    (7 or 10) words into dst's valid region of int32 / uint32, arranged as the chip's vector code makes
//    them: row i's element k is word k % 4 of the block for counter + base(i) + k / 4, where
//    base(i) = i * (64 * (chunks - 1) + (validCol - 1) % 64 + 1) (chunks of 256 elements)
//    (the chip advances the counter by 64 per 256-element chunk, and by the last chunk's column count
//    modulo 64 at a row's end). key and counter are read when TRANDOM is issued.
//  - TTRI<TileData, isUpperOrLower>(dst, diagonal) (TTRI.md): over dst's valid region, lower (0):
//    dst[i][j] = 1 where j <= i + diagonal, else 0; upper (1): 1 where j >= i + diagonal, else 0.
#pragma once
#include <cstdint>
#include <type_traits>

#include <pto/isa/instr_desc.hpp>
#include <pto/isa/operand.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {

namespace detail {
// TCI on the views (dst[, tmp] in rec), shared with the PTO IR reader.
inline void tci_checks(InstrRecord& rec, Target target, bool has_tmp) {
  const bool integral = rec.ops[0].tile.dtype != DType::F32 && rec.ops[0].tile.dtype != DType::F16 && rec.ops[0].tile.dtype != DType::BF16;
  const InstrDesc& d = *rec.desc;
  const TileView& o = rec.ops[0].tile;
  check_dtype(d, o.dtype, target);
  if (has_tmp) {
    TileView& t = rec.ops[1].tile;
    if (target == Target::A2A3) {
      if (!integral)
        fail(d.name, ": operand dst ", o, ": A2A3's tmp form computes with integer vector adds, so a ", name_of(o.dtype),
             " dst would receive integer bit patterns: use TCI without tmp, or an integer tile");
      const std::size_t need = size_of(o.dtype) == 2 ? 1792 : o.valid_cols >= 64 ? 2560 : 768;
      if (t.capacity_bytes() < need)
        fail(d.name, ": operand tmp ", t, " is too small: A2A3's vector path writes ", need, " bytes of it (a2a3 TCI.hpp)");
      t.valid_cols = t.cols;
      t.valid_rows = int(std::min<std::size_t>(std::size_t(t.rows), (need + std::size_t(t.cols) * 4 - 1) / (std::size_t(t.cols) * 4)));
      rec.variant |= kVariantTciTmp;
    } else {
      t.valid_rows = t.valid_cols = 0;  // A5 ignores tmp
    }
  }
}

template <class TileData, class Tmp, class T, int descending, class... W>
Issue tci(TileData& dst, T start, Tmp* tmp, W&... events) {
  static_assert(TileData::Loc == TileType::Vec && Tmp::Loc == TileType::Vec, "TCI: dst and tmp must be Vec tiles");
  static_assert(TileData::Rows == 1, "TCI: dst must be a tile of one row (the sequence runs along its columns)");
  static_assert(std::is_same_v<typename TileData::DType, T>, "TCI: T must be exactly dst's DType");
  static_assert(sizeof(typename Tmp::DType) == 4, "TCI: tmp must be a 4-byte tile (float, int32_t or uint32_t)");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TCI>());
  add_tile(core, rec, dst);
  if (tmp) add_tile(core, rec, *tmp);
  tci_checks(rec, core_target(core), tmp != nullptr);
  if (descending) rec.variant |= kVariantDescending;
  rec.scalar = ScalarValue::of(start);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
}  // namespace detail

template <class TileData, class T, int descending, class... W>
  requires TileLike<TileData> && (detail::WaitEvent<W> && ...)
detail::Issue TCI(TileData& dst, T start, W&... events) {
  return detail::tci<TileData, Tile<TileType::Vec, float, 1, 8>, T, descending>(dst, start, nullptr, events...);
}
template <class TileData, class TileDataTmp, class T, int descending, class... W>
  requires TileLike<TileData> && TileLike<TileDataTmp> && (detail::WaitEvent<W> && ...)
detail::Issue TCI(TileData& dst, T start, TileDataTmp& tmp, W&... events) {
  return detail::tci<TileData, TileDataTmp, T, descending>(dst, start, &tmp, events...);
}

template <std::uint16_t Rounds = 10, class TileData, class... W>
  requires TileLike<TileData> && (detail::WaitEvent<W> && ...)
detail::Issue TRANDOM(TileData& dst, const TRandomKey& key, const TRandomCounter& counter, W&... events) {
  using namespace detail;
  using T = typename TileData::DType;
  static_assert(std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t>, "TRANDOM: dst must be int32_t or uint32_t");
  static_assert(Rounds == 7 || Rounds == 10, "TRANDOM: Rounds must be 7 or 10 (a5 TRandom.hpp)");
  static_assert(TileData::Loc == TileType::Vec && TileData::isRowMajor && !TileData::isBoxedLayout,
                "TRANDOM: dst must be a RowMajor NoneBox Vec tile");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TRANDOM>());
  add_tile(core, rec, dst);
  a5_only(rec, core_target(core));
  rec.variant = Rounds == 7 ? kVariantRounds7 : 0;
  rec.scalar.bits = std::uint64_t(key[0]) | std::uint64_t(key[1]) << 32;
  rec.scalar.wide[0] = std::uint64_t(counter[0]) | std::uint64_t(counter[1]) << 32;
  rec.scalar.wide[1] = std::uint64_t(counter[2]) | std::uint64_t(counter[3]) << 32;
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

template <class TileData, int isUpperOrLower, class... W>
  requires TileLike<TileData> && (detail::WaitEvent<W> && ...)
detail::Issue TTRI(TileData& dst, int diagonal, W&... events) {
  using namespace detail;
  static_assert(TileData::Loc == TileType::Vec && TileData::isRowMajor && !TileData::isBoxedLayout,
                "TTRI: dst must be a RowMajor NoneBox Vec tile");
  static_assert(isUpperOrLower == 0 || isUpperOrLower == 1, "TTRI: isUpperOrLower must be 0 (lower) or 1 (upper)");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TTRI>());
  add_tile(core, rec, dst);
  check_dtype(*rec.desc, rec.ops[0].tile.dtype, core_target(core));
  if (isUpperOrLower) rec.variant |= kVariantUpper;
  rec.scalar = ScalarValue::of(std::int32_t(diagonal));
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

}  // namespace pto
