// TPREFETCH's DMA walk (pto-isa a2a3 / a5 TPrefetch.hpp), shared by its CPU kernel and the pipeline
// model: for every (d0, d1, d2) slice of the tensor one DMA call when its d3 x d4 elements fit in the
// tile's bytes, else calls of at most Rows rows x Cols columns; every call writes the tile from its
// first byte with its rows packed, A5 back to back, A2A3 each from a 32-byte block (its aligned copy).
#pragma once
#include <algorithm>
#include <cstdint>

#include <pto/isa/enums.hpp>
#include <pto/isa/views.hpp>

namespace pto {

struct PrefetchWalk {
  std::int64_t slices = 0;         // d0 * d1 * d2
  std::int64_t rows = 0, cols = 0;  // d3, d4
  std::int64_t chunk_rows = 0, chunk_cols = 0;  // one call's largest extent
  std::int64_t elem_bytes = 0;
  bool a2a3 = false;

  std::int64_t calls() const {
    if (slices == 0 || rows == 0 || cols == 0) return 0;
    return slices * ((rows + chunk_rows - 1) / chunk_rows) * ((cols + chunk_cols - 1) / chunk_cols);
  }
  std::int64_t bytes() const { return slices * rows * cols * elem_bytes; }
  // Bytes between the packed rows of a call moving `n` columns.
  std::int64_t pitch(std::int64_t n) const { return a2a3 ? (n * elem_bytes + 31) / 32 * 32 : n * elem_bytes; }
  // The bytes from the tile's start its largest call writes.
  std::int64_t extent() const { return chunk_rows * pitch(chunk_cols); }
};

inline PrefetchWalk prefetch_walk(const GmView& g, const TileView& tile, Target target) {
  PrefetchWalk w;
  w.slices = g.shape[0] * g.shape[1] * g.shape[2];
  w.rows = g.shape[3];
  w.cols = g.shape[4];
  w.elem_bytes = std::int64_t(size_of(g.dtype));
  w.a2a3 = target == Target::A2A3;
  const bool fits = w.rows * w.cols * w.elem_bytes <= std::int64_t(tile.capacity_bytes());
  w.chunk_rows = fits ? w.rows : std::min<std::int64_t>(w.rows, tile.rows);
  w.chunk_cols = fits ? w.cols : std::min<std::int64_t>(w.cols, std::int64_t(tile.cols) * std::int64_t(tile.elem_bytes()) / w.elem_bytes);
  return w;
}

}  // namespace pto
