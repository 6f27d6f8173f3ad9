// Sorting (pto-isa docs/isa/TSORT32.md, TMRGSORT.md) on 8-byte value-index records: a float record is
// two tile elements [value, index bits], a half record four [value, 0, index bits] (docs/sort-gather.md).
//  - TSORT32(dst, src, idx[, tmp]): per row, each block of 32 of src's valid columns sorted descending
//    with its uint32 indices from idx (one valid row of idx serves every row) into dst's records. The
//    3-operand form needs whole blocks; the tmp form pads a partial last block through tmp.
//  - TMRGSORT(dst, src, blockLen): src's valid columns as groups of four sorted blocks of blockLen tile
//    elements, each group merged descending into dst.
//  - TMRGSORT<Dst, Tmp, Src0, Src1[, Src2[, Src3]], exhausted>(dst, executedNumList, tmp, src0, src1
//    [, src2[, src3]]): 2 to 4 sorted lists merged into tmp, then dst's valid columns copied from tmp
//    (a top-k keeps the first records). exhausted = true stops when a list runs out and reports the
//    records taken from each in executedNumList; the scalar unit waits for it, as on the chip.
#pragma once
#include <algorithm>
#include <cstdint>
#include <tuple>
#include <type_traits>

#include <pto/isa/enums.hpp>
#include <pto/isa/instr_desc.hpp>
#include <pto/isa/operand.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>
#include <pto/runtime/sync.hpp>

namespace pto {

namespace detail {
template <class... Tiles>
inline constexpr bool kSortVec = ((Tiles::Loc == TileType::Vec) && ...);
template <class... Tiles>
inline constexpr bool kSortRowMajor = ((Tiles::isRowMajor && !Tiles::isBoxedLayout) && ...);
template <class T>
inline constexpr bool kSortType = std::is_same_v<T, float> || std::is_same_v<T, half>;

// TSORT32's rules on the views (dst, src, idx[, tmp] in rec), shared with the PTO IR reader. The NPUs
// cast tmp's address to src's type (TSort32.hpp): a tmp of another type is seen as src's.
inline void sort32_checks(InstrRecord& rec, Target target, bool has_tmp) {
  if (has_tmp && rec.ops[3].tile.dtype != rec.ops[1].tile.dtype) {
    TileView& t = rec.ops[3].tile;
    const int num = int(size_of(t.dtype)), den = int(size_of(rec.ops[1].tile.dtype));
    t.dtype = rec.ops[1].tile.dtype;
    t.cols = t.cols * num / den;
    t.valid_cols = t.valid_cols * num / den;
    t.row_stride = t.row_stride * num / den;
  }
  const InstrDesc& d = *rec.desc;
  const TileView &o = rec.ops[0].tile, &s = rec.ops[1].tile, &x = rec.ops[2].tile;
  check_dtype(d, "src", s.dtype, target, d.dtypes);
  const int C = s.valid_cols, per = int(8 / size_of(s.dtype));
  if (x.valid_cols != C || (x.valid_rows != 1 && x.valid_rows != s.valid_rows))
    fail(d.name, ": operand idx ", x, " must have src's valid columns and one valid row or src's rows (src ", s, ")");
  if (o.valid_rows != s.valid_rows || o.valid_cols != C * per)
    fail(d.name, ": operand dst ", o, " must have src's valid rows and ", per, " elements per source column (one 8-byte "
         "record each): valid shape ", s.valid_rows, "x", C * per, " for src ", s);
  const bool tail = C % 32 != 0;
  if (tail && !has_tmp)
    fail(d.name, ": operand src ", s, ": ", C, " valid columns are not whole blocks of 32; the 3-operand form sorts whole "
         "blocks (the chip would leave the last ", C % 32, " columns unsorted): use TSORT32(dst, src, idx, tmp)");
  const int blocks = (C + 31) / 32;
  const bool small = target == Target::A5 ? std::size_t(C) * size_of(s.dtype) <= 8160 : C <= 8160;
  if (!tail && blocks > 255 && blocks % 255 == 0)  // 255 blocks exactly are one call of 255 repeats
    fail(d.name, ": operand src ", s, ": ", blocks, " blocks per row, a multiple of 255: the chip's last vbitsort call "
         "would have 0 repeats and leave 255 blocks unsorted (a2a3 / a5 TSort32.hpp)");
  if (tail && !small && blocks % 255 == 0)
    fail(d.name, ": operand src ", s, ": ", blocks, " blocks per row, a multiple of 255: the chip's tail path computes a "
         "negative repeat count there (a2a3 / a5 TSort32.hpp)");
  if (has_tmp) {
    TileView& t = rec.ops[3].tile;
    if (tail) {
      const std::size_t need = small ? std::size_t(blocks) * 32 : 32;
      if (std::size_t(t.rows) * std::size_t(t.cols) < need)
        fail(d.name, ": operand tmp ", t, " is too small: the ", name_of(target), " tail path stages ", need, " elements there ("
             , small ? "the row, its last block padded" : "the last block, padded", ")");
      scratch_elems(t, need);
      rec.variant = kVariantSortTmp;
    } else {
      t.valid_rows = t.valid_cols = 0;  // whole blocks: tmp is not touched
    }
  }
}

template <class Dst, class Src, class Idx, class Tmp>
Issue sort32(Dst& dst, Src& src, Idx& idx, Tmp* tmp) {
  using T = typename Src::DType;
  static_assert(kSortVec<Dst, Src, Idx, Tmp>, "TSORT32: dst, src, idx and tmp must be Vec tiles");
  static_assert(kSortRowMajor<Dst, Src, Idx, Tmp>, "TSORT32: dst, src, idx and tmp must be RowMajor NoneBox tiles");
  static_assert(kSortType<T> && std::is_same_v<typename Dst::DType, T>, "TSORT32: src and dst must both be half or both float");
  static_assert(std::is_same_v<typename Idx::DType, std::uint32_t>, "TSORT32: idx must be a uint32_t tile");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TSORT32>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  add_tile(core, rec, idx);
  if (tmp) add_tile(core, rec, *tmp);
  sort32_checks(rec, core_target(core), tmp != nullptr);
  return Issue(core, rec);
}

template <class... Tiles>
inline constexpr bool kOneRow = ((Tiles::Rows == 1) && ...);
template <class T, class... Tiles>
inline constexpr bool kSortTypes = kSortType<T> && (std::is_same_v<typename Tiles::DType, T> && ...);
#define PTO_MRGSORT_RULES(...)                                                                                  \
  static_assert(::pto::detail::kSortVec<__VA_ARGS__>, "TMRGSORT: every operand must be a Vec tile");            \
  static_assert(::pto::detail::kSortRowMajor<__VA_ARGS__>, "TMRGSORT: every operand must be a RowMajor NoneBox tile"); \
  static_assert(::pto::detail::kOneRow<__VA_ARGS__>, "TMRGSORT: every operand must be a tile of one row");     \
  static_assert(::pto::detail::kSortTypes<typename Dst::DType, __VA_ARGS__>,                                   \
                "TMRGSORT: every operand must be half, or every one float")

// The multi-list form's rules on the views (dst, tmp, src0, src1[, src2[, src3]] in rec), shared with
// the PTO IR reader.
inline void merge_checks(InstrRecord& rec, Target target, bool exhausted) {
  const InstrDesc& d = *rec.desc;
  check_dtype(d, rec.ops[0].tile.dtype, target);
  const int per = int(8 / size_of(rec.ops[0].tile.dtype));
  std::size_t elems = 0;
  for (int k = 2; k < rec.nops; ++k) {
    const TileView& s = rec.ops[k].tile;
    if (s.valid_cols % per || s.valid_cols / per > 65535)
      fail(d.name, ": operand ", d.operands[k].name, " ", s, ": a list is whole records of ", per, " elements, at most 65535 "
           "of them (vmrgsort4's 16-bit counts)");
    elems += std::size_t(s.valid_cols);
    if (s.footprint().overlaps(rec.ops[1].tile.footprint()))
      fail(d.name, ": operand ", d.operands[k].name, " ", s, " shares bytes with operand tmp ", rec.ops[1].tile,
           ": the chip merges into tmp while it reads the lists");
  }
  TileView& t = rec.ops[1].tile;
  const TileView& o = rec.ops[0].tile;
  if (std::size_t(t.cols) < elems)
    fail(d.name, ": operand tmp ", t, " is too small: the chip merges every list's records into tmp first, ", elems,
         " elements, and its row holds ", t.cols);
  if (!exhausted && std::size_t(o.valid_cols) > elems)
    fail(d.name, ": operand dst ", o, " has more valid columns than the lists hold (", elems, "): the chip would copy stale "
         "tmp bytes past the merged records");
  if (std::size_t(o.valid_cols) > std::size_t(t.cols))
    fail(d.name, ": operand dst ", o, " has more valid columns than tmp ", t, " holds: dst is copied from tmp");
  scratch_elems(t, std::max(elems, std::size_t(o.valid_cols)));
}

// The single-list form's rules on the views (dst, none, src in rec), shared with the PTO IR reader.
inline void single_list_checks(InstrRecord& rec, Target target, std::uint32_t blockLen) {
  const InstrDesc& d = *rec.desc;
  check_dtype(d, rec.ops[0].tile.dtype, target);
  const TileView &o = rec.ops[0].tile, &s = rec.ops[2].tile;
  if (blockLen == 0 || blockLen % 64)
    fail(d.name, ": blockLen ", blockLen, " must be a positive multiple of 64 elements (a2a3 TMrgSort.hpp)");
  const std::uint64_t group = 4ull * blockLen, C = std::uint64_t(s.valid_cols);
  if (C % group || C / group < 1 || C / group > 255)
    fail(d.name, ": operand src ", s, ": its valid columns must be 1 to 255 groups of four blocks of blockLen ", blockLen,
         " (", group, " elements each; vmrgsort4's 8-bit repeat count)");
  if (o.valid_cols != s.valid_cols) fail(d.name, ": operand dst ", o, " must have src's valid columns (src ", s, ")");
  rec.variant = kVariantSingleList;
  rec.scalar = ScalarValue::of(blockLen);
}

template <bool Exhausted, class Dst, class Tmp, class... Srcs, class... W>
auto merge_lists(Dst& dst, MrgSortExecutedNumList& executed, Tmp& tmp, std::tuple<Srcs&...> srcs, W&... events) {
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TMRGSORT>());
  add_tile(core, rec, dst);
  add_tile(core, rec, tmp);
  std::apply([&](auto&... s) { (add_tile(core, rec, s), ...); }, srcs);
  merge_checks(rec, core_target(core), Exhausted);
  if constexpr (Exhausted) {
    rec.variant = kVariantExhausted;
    rec.scalar = ScalarValue::of(reinterpret_cast<std::uintptr_t>(&executed));
  }
  add_waits(core, rec, events...);
  if constexpr (Exhausted) {
    // The chip reads the counts on the scalar unit after a V -> S flag: the kernel waits here.
    const RecordEvent e = Issue(core, rec).finish();
    return TSYNC(e);
  } else {
    (void)executed;
    return Issue(core, rec);
  }
}
}  // namespace detail

template <class Dst, class Src, class Idx>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Idx>
detail::Issue TSORT32(Dst& dst, Src& src, Idx& idx) {
  return detail::sort32<Dst, Src, Idx, Src>(dst, src, idx, nullptr);
}
template <class Dst, class Src, class Idx, class Tmp>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Idx> && TileLike<Tmp>
detail::Issue TSORT32(Dst& dst, Src& src, Idx& idx, Tmp& tmp) {
  return detail::sort32(dst, src, idx, &tmp);
}

// Single list: groups of four sorted blocks of blockLen elements (a multiple of 64) merged.
template <class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src> && (detail::WaitEvent<W> && ...)
detail::Issue TMRGSORT(Dst& dst, Src& src, std::uint32_t blockLen, W&... events) {
  using namespace detail;
  PTO_MRGSORT_RULES(Dst, Src);
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TMRGSORT>());
  add_tile(core, rec, dst);
  rec.ops[1].kind = Operand::Kind::None;  // this form has no tmp: src is operand src0
  rec.nops = 2;
  add_tile(core, rec, src);
  single_list_checks(rec, core_target(core), blockLen);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}

template <class Dst, class Tmp, class Src0, class Src1, class Src2, class Src3, bool exhausted, class... W>
  requires TileLike<Dst> && TileLike<Tmp> && TileLike<Src0> && TileLike<Src1> && TileLike<Src2> && TileLike<Src3>
auto TMRGSORT(Dst& dst, MrgSortExecutedNumList& executedNumList, Tmp& tmp, Src0& src0, Src1& src1, Src2& src2, Src3& src3,
              W&... events) {
  PTO_MRGSORT_RULES(Dst, Tmp, Src0, Src1, Src2, Src3);
  return detail::merge_lists<exhausted>(dst, executedNumList, tmp, std::tuple<Src0&, Src1&, Src2&, Src3&>(src0, src1, src2, src3),
                                        events...);
}
template <class Dst, class Tmp, class Src0, class Src1, class Src2, bool exhausted, class... W>
  requires TileLike<Dst> && TileLike<Tmp> && TileLike<Src0> && TileLike<Src1> && TileLike<Src2>
auto TMRGSORT(Dst& dst, MrgSortExecutedNumList& executedNumList, Tmp& tmp, Src0& src0, Src1& src1, Src2& src2, W&... events) {
  PTO_MRGSORT_RULES(Dst, Tmp, Src0, Src1, Src2);
  return detail::merge_lists<exhausted>(dst, executedNumList, tmp, std::tuple<Src0&, Src1&, Src2&>(src0, src1, src2), events...);
}
template <class Dst, class Tmp, class Src0, class Src1, bool exhausted, class... W>
  requires TileLike<Dst> && TileLike<Tmp> && TileLike<Src0> && TileLike<Src1>
auto TMRGSORT(Dst& dst, MrgSortExecutedNumList& executedNumList, Tmp& tmp, Src0& src0, Src1& src1, W&... events) {
  PTO_MRGSORT_RULES(Dst, Tmp, Src0, Src1);
  return detail::merge_lists<exhausted>(dst, executedNumList, tmp, std::tuple<Src0&, Src1&>(src0, src1), events...);
}
#undef PTO_MRGSORT_RULES

}  // namespace pto
