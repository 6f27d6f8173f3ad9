// The intrinsic streams of the sorting and gathering instructions (TSORT32, TMRGSORT, TGATHER) as their
// NPU code issues them (pto-isa a2a3 / a5 TSort32.hpp, TMrgSort.hpp, TGather.hpp); each intrinsic's
// cost is the pipeline model's table (docs/pipeline-model.md). TSORT32's and TMRGSORT's device paths
// (sort_paths.hpp) record the same streams; these planners price the forms no device path covers.
#pragma once
#include "planner.hpp"

namespace pto::plan {

// TSORT32's row split (both chips): whole blocks sorted in calls of at most 255 repeats; with tmp and a
// partial last block, the row (small rows) or the tail block alone is copied into tmp and padded.
struct Sort32Shape {
  std::uint64_t rows, cols, blocks;  // valid rows, columns, blocks per row (the partial one counted)
  bool tail, small;                  // a padded partial block; the whole row staged in tmp
  std::size_t es;
};
inline Sort32Shape sort32_shape(const ExecContext& c) {
  const TileView& s = c.ops[1].tile;
  Sort32Shape r{};
  r.rows = std::uint64_t(s.valid_rows);
  r.cols = std::uint64_t(s.valid_cols);
  r.es = s.elem_bytes();
  r.tail = (c.variant & kVariantSortTmp) && r.cols % 32;
  r.blocks = r.tail ? ceil_div(r.cols, 32) : r.cols / 32;
  // The small-row threshold: 8160 elements on A2A3, 8160 bytes on A5 (MOV_UB_TO_UB's 255 blocks).
  r.small = c.target == Target::A5 ? r.cols * r.es <= 8160 : r.cols <= 8160;
  return r;
}

// TMRGSORT's merge as vmrgsort4 repeats: the single-list form's repeat count (groups of 4 blocks); the
// lists form merges in one call, priced at the single-list rate per record (128 float records per
// repeat of four 32-record blocks: assumed, pto-isa measured only the single-list form).
inline std::uint32_t mrgsort_repeats(const ExecContext& c) {
  const TileView& d = c.ops[0].tile;
  const std::uint64_t per = 8 / d.elem_bytes();
  if (c.variant & kVariantSingleList) {
    const std::uint64_t block = c.scalar.as<std::uint32_t>();
    return std::uint32_t(std::uint64_t(c.ops[2].tile.valid_cols) / (4 * block));  // src0 (no tmp)
  }
  std::uint64_t records = 0;
  for (int k = 2; k < c.nops; ++k) records += std::uint64_t(c.ops[k].tile.valid_cols) / per;
  return ceil_div(records, 128);
}

namespace a2a3 {
// TSORT32: per row the vbitsort calls (a barrier after each); a padded tail stages the row or its last
// block in tmp (copy_ubuf_to_ubuf), writes -NaN over the missing lanes (one masked vector_dup) first.
inline void tsort32(const ExecContext& c, IntrinsicStream& s) {
  const Sort32Shape r = sort32_shape(c);
  A2A3 p(s, r.es);
  auto sorts = [&](std::uint64_t blocks) {
    for (std::uint64_t b = 0; b < blocks; b += 255) {
      p.norm(I::vbitsort, std::uint32_t(std::min<std::uint64_t>(255, blocks - b)));
      s.barrier();
    }
  };
  auto pad = [&](std::uint64_t bytes) {
    p.ub_copy(bytes, 1);
    s.barrier();
    p.norm(I::vector_dup, 1, 32 - r.cols % 32);
    s.barrier();
  };
  for (std::uint64_t i = 0; i < r.rows; ++i) {
    if (!r.tail) {
      sorts(r.blocks);
    } else if (r.small) {  // the row staged in tmp, its last block padded, sorted from tmp
      pad(r.cols * r.es);
      sorts(r.blocks);
    } else {  // the whole blocks from src, then the padded tail block from tmp
      sorts(r.blocks - 1);
      pad((r.cols % 32) * r.es);
      sorts(1);
    }
  }
}
// TMRGSORT: one vmrgsort4; the lists form then copies dst's bytes from tmp (behind a barrier; exhausted
// mode first reads the counts on the scalar unit after a V -> S flag).
inline void tmrgsort(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = c.ops[0].tile;
  A2A3 p(s, d.elem_bytes());
  p.norm(I::vmrgsort4, mrgsort_repeats(c));
  if (c.variant & kVariantSingleList) return;
  if (c.variant & kVariantExhausted) s.add({.op = I::sync_roundtrip});
  s.barrier();
  p.ub_copy(std::uint64_t(d.valid_cols) * d.elem_bytes(), 1);
}
// TGATHER: index form per row a counter-mode vmuls (indices to byte offsets), a barrier, a vgather;
// mask form by rows one counter-mode vreducev2 with a repeat per source row; by columns a copy per row.
inline void tgather(const ExecContext& c, IntrinsicStream& s) {
  const TileView &d = c.ops[0].tile, &x = c.ops[1].tile;
  if (c.variant & kVariantGatherMask) {
    if (c.variant & kVariantGatherCol) {
      A2A3(s, d.elem_bytes()).ub_copy(std::uint64_t(d.valid_cols) * d.elem_bytes(), std::uint32_t(d.valid_rows));
      return;
    }
    s.add({.op = I::vreducev2, .count_mode = true, .repeats = std::uint32_t(x.valid_rows)});
    return;
  }
  A2A3 p(s, 4);
  for (int i = 0; i < d.valid_rows; ++i) {
    p.count(I::vmuls, std::uint64_t(d.valid_cols));
    s.barrier();
    p.count(I::vgather, std::uint64_t(d.valid_cols));
  }
}

// TSCATTER (a2a3 TScatter.hpp): dst zeroed by one counter-mode vector_dup over its bytes (as 16- or
// 32-bit lanes), a V -> S handoff, the scalar loop (the index form and the row patterns: one step per
// element) or per src row a counter-mode vcopy (the column patterns), an S -> V handoff. P1111 is a TMOV.
inline void tscatter(const ExecContext& c, IntrinsicStream& s) {
  const TileView &d = c.ops[0].tile, &x = c.ops[1].tile;
  const bool mask = c.variant & kVariantGatherMask;
  if (mask && pattern_of(c.variant) == MaskPattern::P1111) return A2A3(s, d.elem_bytes()).tmov(d, x);
  const std::size_t lane = d.elem_bytes() == 4 ? 4 : 2;
  A2A3(s, lane).count(I::vector_dup, std::uint64_t(d.rows) * std::uint64_t(d.cols) * d.elem_bytes() / lane);
  s.add({.op = I::sync_roundtrip});
  if (mask && (c.variant & kVariantGatherCol)) {
    A2A3 v(s, d.elem_bytes());
    v.count(I::vcopy, std::uint64_t(x.valid_cols), std::uint32_t(x.valid_rows));
  } else {
    s.add({.op = I::scalar_elem, .repeats = std::uint32_t(std::uint64_t(x.valid_rows) * std::uint64_t(x.valid_cols))});
  }
  s.add({.op = I::sync_roundtrip});
}
// TGATHERB (a2a3 TGatherB.hpp): per row one vgatherb per 255 whole repeats (8 blocks each) and one for
// the rest, then (one row here) a single repeat for the row's last part.
inline void tgatherb(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = c.ops[0].tile;
  const std::uint64_t epr = 256 / d.elem_bytes(), reps = std::uint64_t(d.valid_cols) / epr;
  A2A3 v(s, d.elem_bytes());
  if (reps) {
    v.norm(I::vgatherb, 255, 0, std::uint32_t(reps / 255 * std::uint64_t(d.valid_rows)));
    v.norm(I::vgatherb, std::uint32_t(reps % 255), 0, std::uint32_t(d.valid_rows));
  }
  if (std::uint64_t(d.valid_cols) % epr) v.norm(I::vgatherb, std::uint32_t(d.valid_rows));
}
}  // namespace a2a3

namespace a5 {
// TSORT32: per row the vbitsort calls; a padded tail stages the row or its last block in tmp and pads it
// in a vector function (vlds, a splat, vsts).
inline void tsort32(const ExecContext& c, IntrinsicStream& s) {
  const Sort32Shape r = sort32_shape(c);
  A5 p(s, r.es);
  if (r.tail) {
    p.add(I::copy_ubuf_to_ubuf, r.rows);
    p.add(I::vlds, r.rows);
    p.add(I::vbr, r.rows);
    p.add(I::vsts, r.rows);
  }
  p.add(I::vbitsort, r.rows * r.blocks);
}
inline void tmrgsort(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = c.ops[0].tile;
  A5 p(s, d.elem_bytes());
  p.add(I::vmrgsort4, mrgsort_repeats(c));
  if (c.variant & kVariantSingleList) return;
  if (c.variant & kVariantExhausted) p.add(I::sync_roundtrip, 1);
  p.add(I::copy_ubuf_to_ubuf, 1);
}
// TGATHER: index form per row and chunk of indices a load, a vgather2 and a store; mask form per row and
// chunk a load, the pattern's squeeze (vsqz) and an unaligned store.
inline void tgather(const ExecContext& c, IntrinsicStream& s) {
  const TileView &d = c.ops[0].tile, &x = c.ops[1].tile;
  A5 p(s, d.elem_bytes());
  if (c.variant & kVariantGatherMask) {
    const std::uint64_t chunks = std::uint64_t(x.valid_rows) * ceil_div(std::uint64_t(x.valid_cols), 256 / x.elem_bytes());
    p.add(I::vloop, std::uint64_t(x.valid_rows));
    p.add(I::plt, chunks);
    p.add(I::vlds, chunks);
    p.add(I::vsqz, chunks);
    p.add(I::vsts, chunks);
    return;
  }
  const std::size_t ib = c.ops[2].tile.elem_bytes();
  const std::uint64_t chunks = std::uint64_t(d.valid_rows) * ceil_div(std::uint64_t(d.valid_cols), 256 / std::max(ib, d.elem_bytes()));
  p.add(I::vloop, std::uint64_t(d.valid_rows));
  p.add(I::plt, chunks);
  p.add(I::vlds, chunks);
  p.add(I::vgather, chunks);
  p.add(I::vsts, chunks);
}

// TSCATTER (a5 TScatter.hpp, Int64Rearrange.hpp): dst zeroed by predicated stores of a zero register,
// then per row and chunk: the index form loads src and the indices and scatters; the row patterns load
// src, interleave with zeros (one vintlv for halves, three for quarters) and store (2 or 4 stores); the
// column patterns load and store the row. 64-bit data: one register pair per row.
inline void tscatter(const ExecContext& c, IntrinsicStream& s) {
  const TileView &d = c.ops[0].tile, &x = c.ops[1].tile;
  const bool mask = c.variant & kVariantGatherMask;
  const MaskPattern pat = pattern_of(c.variant);
  const std::size_t es = d.elem_bytes();
  A5 p(s, es);
  if (mask && pat == MaskPattern::P1111) {
    const std::uint64_t chunks = std::uint64_t(x.valid_rows) * ceil_div(std::uint64_t(x.valid_cols), 256 / es);
    p.add(I::vloop, std::uint64_t(x.valid_rows));
    p.add(I::vlds, chunks);
    p.add(I::vsts, chunks);
    return;
  }
  p.add(I::vsts, ceil_div(std::uint64_t(d.rows) * std::uint64_t(d.cols) * es, 256));
  const std::uint64_t rows = std::uint64_t(x.valid_rows);
  p.add(I::vloop, rows);
  if (es == 8) {
    p.add(I::vlds, rows * (mask ? 1 : 2));
    if (!mask) p.add(I::vadd, 2 * rows);
    if (mask && (c.variant & kVariantGatherCol)) p.add(I::vsts, rows);
    else p.add(I::vscatter, 2 * rows);
    return;
  }
  if (!mask) {
    const std::uint64_t chunks = rows * ceil_div(std::uint64_t(x.valid_cols), 256 / c.ops[2].tile.elem_bytes());
    p.add(I::vlds, 2 * chunks);
    p.add(I::vscatter, chunks);
    return;
  }
  const std::uint64_t chunks = rows * ceil_div(std::uint64_t(x.valid_cols), 256 / es), times = std::uint64_t(mask_period(pat));
  p.add(I::vlds, chunks);
  if (c.variant & kVariantGatherCol) {
    p.add(I::vsts, chunks);
    return;
  }
  p.add(I::vintlv, chunks * (times - 1));
  p.add(I::vsts, chunks * times);
}
// TGATHERB (a5 TGatherB.hpp): per row and 256-byte chunk of dst, a load of the offsets, the block
// gather and a store.
inline void tgatherb(const ExecContext& c, IntrinsicStream& s) {
  const TileView& d = c.ops[0].tile;
  const std::uint64_t chunks = std::uint64_t(d.valid_rows) * ceil_div(std::uint64_t(d.valid_cols), 256 / d.elem_bytes());
  A5 p(s, d.elem_bytes());
  p.add(I::vloop, std::uint64_t(d.valid_rows));
  p.add(I::vlds, chunks);
  p.add(I::vgatherb, chunks);
  p.add(I::vsts, chunks);
}
}  // namespace a5

}  // namespace pto::plan
