// TSORT32 and TMRGSORT on 8-byte records: a float record is [value f32, index u32], a half record
// [value f16, 0x0000, index u32] (pto-isa docs/isa/TSORT32.md, TMRGSORT.md). Both sort descending by
// value; equal values keep the smaller index first (TSORT32) or the earlier list, then the earlier
// record (TMRGSORT, a stable merge). A NaN value sorts after every number (the chips pad with -NaN and
// document it as sorting last). docs/sort-gather.md states what the chips do around these rules.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <pto/isa/kernel_abi.hpp>

namespace pto::cpu::sort {

struct Record {
  float value;  // exact for half
  std::uint32_t index;
  std::uint32_t list;  // TMRGSORT: the list it came from (ties: the earlier list first)
};

// a before b: larger value first, NaN last, then the tie rule.
inline bool before(const Record& a, const Record& b) {
  const bool an = std::isnan(a.value), bn = std::isnan(b.value);
  if (an != bn) return bn;
  if (!an && a.value != b.value) return a.value > b.value;
  if (a.list != b.list) return a.list < b.list;
  return false;
}

// Record k of a row of records starting at p.
inline Record load(DType t, const std::byte* p, std::size_t k) {
  Record r{0.0f, 0, 0};
  const std::byte* q = p + 8 * k;
  if (t == DType::F32) {
    std::memcpy(&r.value, q, 4);
  } else {
    _Float16 h;
    std::memcpy(&h, q, 2);
    r.value = float(h);
  }
  std::memcpy(&r.index, q + 4, 4);
  return r;
}
inline void store(DType t, std::byte* p, std::size_t k, const Record& r) {
  std::byte* q = p + 8 * k;
  if (t == DType::F32) {
    std::memcpy(q, &r.value, 4);
  } else {
    const _Float16 h = _Float16(r.value);  // exact: the value came from a half
    const std::uint16_t zero = 0;
    std::memcpy(q, &h, 2);
    std::memcpy(q + 2, &zero, 2);
  }
  std::memcpy(q + 4, &r.index, 4);
}

inline std::byte* row_of(const TileView& t, int i) { return t.base + t.elem_offset(i, 0) * std::ptrdiff_t(t.elem_bytes()); }

// TSORT32(dst, src, idx[, tmp]): per row, each block of 32 columns (the last one partial, in the tmp
// form) sorted with its indices into src's column count of records. idx with one valid row serves every
// row. tmp is not written: the records it stages on the chip are src's, padded.
inline void tsort32(ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile, &x = ctx.ops[2].tile;
  const int C = s.valid_cols;
  std::vector<Record> block;
  std::vector<std::byte> out(std::size_t(C) * 8);
  for (int i = 0; i < s.valid_rows; ++i) {
    const std::byte* srow = row_of(s, i);
    const auto* irow = reinterpret_cast<const std::uint32_t*>(row_of(x, x.valid_rows == 1 ? 0 : i));
    for (int b = 0; b < C; b += 32) {
      const int n = std::min(32, C - b);
      block.clear();
      for (int k = 0; k < n; ++k) {
        float v;
        if (s.dtype == DType::F32) {
          std::memcpy(&v, srow + std::size_t(b + k) * 4, 4);
        } else {
          _Float16 h;
          std::memcpy(&h, srow + std::size_t(b + k) * 2, 2);
          v = float(h);
        }
        block.push_back({v, irow[b + k], 0});
      }
      std::stable_sort(block.begin(), block.end(), [](const Record& a, const Record& c) {
        if (before(a, c)) return true;
        if (before(c, a)) return false;
        return a.index < c.index;  // equal values: the smaller index first
      });
      for (int k = 0; k < n; ++k) store(s.dtype, out.data(), std::size_t(b + k), block[std::size_t(k)]);
    }
    std::memcpy(row_of(d, i), out.data(), out.size());  // every row read before its records are written
  }
}

// TMRGSORT, lists form (dst, tmp, src0, src1[, src2[, src3]]): the lists' records merged into tmp (as
// the chip's vmrgsort4 does), then dst's valid region copied from tmp (the chip's copy_ubuf_to_ubuf:
// this is how a top-k keeps the first k records). Exhausted mode stops after the record that empties a
// list and writes how many records it took from each into the MrgSortExecutedNumList at the address in
// the scalar. Single-list form (dst, -, src0; blockLen in the scalar): src0's valid columns as groups of
// four sorted blocks of blockLen elements, each group merged into dst.
inline void tmrgsort(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const DType t = d.dtype;
  const int per = int(8 / d.elem_bytes());  // tile elements per record
  std::vector<Record> merged;
  auto merge = [&](const std::vector<std::pair<const std::byte*, int>>& lists, bool exhausted, std::uint16_t* taken) {
    std::vector<int> at(lists.size(), 0);
    merged.clear();
    for (;;) {
      int best = -1;
      Record br{};
      for (std::size_t l = 0; l < lists.size(); ++l) {
        if (at[l] >= lists[l].second) continue;
        Record r = load(t, lists[l].first, std::size_t(at[l]));
        r.list = std::uint32_t(l);
        if (best < 0 || before(r, br)) best = int(l), br = r;
      }
      if (best < 0) break;
      merged.push_back(br);
      if (++at[std::size_t(best)] == lists[std::size_t(best)].second && exhausted) break;
    }
    for (std::size_t l = 0; l < lists.size() && taken; ++l) taken[l] = std::uint16_t(at[l]);
  };
  if (ctx.variant & kVariantSingleList) {
    const TileView& s = ctx.ops[2].tile;  // operand 1 (tmp) is absent in this form
    const int block = int(ctx.scalar.as<std::uint32_t>()) / per;  // records per block
    const int groups = s.valid_cols / per / (4 * block);
    std::vector<std::byte> out(std::size_t(groups) * 4 * std::size_t(block) * 8);
    for (int g = 0; g < groups; ++g) {
      std::vector<std::pair<const std::byte*, int>> lists;
      for (int k = 0; k < 4; ++k) lists.push_back({row_of(s, 0) + (std::size_t(g) * 4 + std::size_t(k)) * std::size_t(block) * 8, block});
      merge(lists, false, nullptr);
      for (std::size_t k = 0; k < merged.size(); ++k) store(t, out.data(), std::size_t(g) * 4 * std::size_t(block) + k, merged[k]);
    }
    std::memcpy(row_of(d, 0), out.data(), out.size());  // src read whole before dst is written (in place)
    return;
  }
  const TileView& tmp = ctx.ops[1].tile;
  std::vector<std::pair<const std::byte*, int>> lists;
  for (int k = 2; k < ctx.nops; ++k) lists.push_back({row_of(ctx.ops[k].tile, 0), ctx.ops[k].tile.valid_cols / per});
  std::uint16_t taken[4] = {0, 0, 0, 0};
  const bool exhausted = ctx.variant & kVariantExhausted;
  merge(lists, exhausted, taken);
  for (std::size_t k = 0; k < merged.size(); ++k) store(t, row_of(tmp, 0), k, merged[k]);
  std::memmove(row_of(d, 0), row_of(tmp, 0), std::size_t(d.valid_cols) * d.elem_bytes());
  if (exhausted) {
    auto* list = reinterpret_cast<MrgSortExecutedNumList*>(ctx.scalar.as<std::uintptr_t>());
    list->mrgSortList0 = taken[0];
    list->mrgSortList1 = taken[1];
    list->mrgSortList2 = taken[2];
    list->mrgSortList3 = taken[3];
  }
}

inline constexpr BackendKernel kSort32{nullptr, tsort32};
inline constexpr BackendKernel kMrgSort{nullptr, tmrgsort};

}  // namespace pto::cpu::sort
