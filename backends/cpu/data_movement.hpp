// TLOAD, TSTORE, TPREFETCH, TMOV (Vec->Vec) and TEXPANDS on the CPU.
// Legality was checked when the instruction was issued (runtime/instructions); these only move bytes.
#pragma once
#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <immintrin.h>  // streaming stores (x86-64); other hosts copy with memcpy
#endif

#include <pto/backends/kernel_abi.hpp>
#include <pto/isa/prefetch.hpp>
#include "../common/pad_value.hpp"
#include "stable_source.hpp"

namespace pto::cpu::move {

using Lines = TileLines;  // rows of a RowMajor tile, columns of a ColMajor one

// Copies the tile-shaped window of `g` between GM and a dense staging buffer holding the lines in order.
// A tile line (a row for ND, a column for DN) starts at a mixed-radix offset: the row index r runs over
// dims 3, 2, 1, 0 for ND (the column index over dims 4, 2, 1, 0 for DN), so the walk below advances a
// counter instead of dividing per line (GmView::map's definition, without its divisions). Along a line
// elements are stride[4] (ND) or stride[3] (DN) apart: one memcpy when that is 1.
enum class Dir { GmToStaging, StagingToGm };

// UB -> GM: a long run bypasses the host caches with non-temporal stores, like a DMA engine writing
// to memory the core will not read back soon. It spares the write-allocate read of every GM line
// (a third of a streaming kernel's memory traffic); shorter runs are plain memcpy.
constexpr std::size_t kStreamingStoreMin = 4096;
inline void copy_to_gm(std::byte* dst, const std::byte* src, std::size_t n) {
#if !defined(__SSE2__)
  std::memcpy(dst, src, n);  // no streaming stores here (aarch64): a plain copy
#else
  if (n < kStreamingStoreMin) {
    std::memcpy(dst, src, n);
    return;
  }
  // Only whole 64-byte lines are streamed: a partly streamed line leaves the write-combining buffer
  // as a partial write (slow, and a run rarely starts on a line: heap blocks are 16-byte aligned).
  const std::size_t head = (64 - (reinterpret_cast<std::uintptr_t>(dst) & 63)) & 63;
  std::memcpy(dst, src, head);
  dst += head;
  src += head;
  n -= head;
  for (; n >= 64; n -= 64, dst += 64, src += 64)
    for (int k = 0; k < 4; ++k)
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst) + k, _mm_loadu_si128(reinterpret_cast<const __m128i*>(src) + k));
  std::memcpy(dst, src, n);
  _mm_sfence();  // the streamed bytes are visible to every later load, as after a memcpy
#endif
}
// `other` is the first line on the host side (a dense staging buffer, or the tile itself) and
// `other_step` the bytes between its lines.
inline void gm_window(Dir dir, const TileView& t, const GmView& g, std::byte* other, std::ptrdiff_t other_step) {
  const std::size_t eb = t.elem_bytes();
  Lines l = lines_of(t);
  if (l.len == 0) return;
  const bool dn = g.layout == Layout::DN;
  const int d0 = dn ? 4 : 3;  // the innermost dimension the line index runs over
  const std::int64_t radix[4] = {g.shape[d0], g.shape[2], g.shape[1], g.shape[0]};
  const std::int64_t step[4] = {g.stride[d0], g.stride[2], g.stride[1], g.stride[0]};
  const std::int64_t elem_step = dn ? g.stride[3] : g.stride[4];
  std::int64_t idx[4] = {0, 0, 0, 0}, line_off = 0;
  const std::size_t line_bytes = std::size_t(l.len) * eb;
  // Consecutive lines that are adjacent on both sides move as one run (a dense tile of a dense
  // tensor is one memcpy).
  std::byte* run_gm = nullptr;
  std::byte* run_other = nullptr;
  std::size_t run_len = 0;
  auto flush = [&] {
    if (run_len == 0) return;
    if (dir == Dir::GmToStaging) std::memcpy(run_other, run_gm, run_len);
    else copy_to_gm(run_gm, run_other, run_len);
    run_len = 0;
  };
  for (int a = 0; a < l.count; ++a, other += other_step) {
    std::byte* gm = g.base + line_off * std::int64_t(eb);
    if (elem_step == 1) {
      if (run_len != 0 && gm == run_gm + run_len && other == run_other + run_len) {
        run_len += line_bytes;
      } else {
        flush();
        run_gm = gm;
        run_other = other;
        run_len = line_bytes;
      }
    } else {
      for (int b = 0; b < l.len; ++b) {
        std::byte* e = gm + std::int64_t(b) * elem_step * std::int64_t(eb);
        if (dir == Dir::GmToStaging) std::memcpy(other + b * eb, e, eb);
        else std::memcpy(e, other + b * eb, eb);
      }
    }
    for (int k = 0; k < 4; ++k) {  // next line: increment the mixed-radix counter
      line_off += step[k];
      if (++idx[k] < radix[k] || k == 3) break;
      line_off -= step[k] * idx[k];
      idx[k] = 0;
    }
  }
  flush();
}

inline std::ptrdiff_t line_step_bytes(const TileView& t) { return lines_of(t).step * std::ptrdiff_t(t.elem_bytes()); }
inline std::ptrdiff_t line_bytes(const TileView& t) { return lines_of(t).len * std::ptrdiff_t(t.elem_bytes()); }

// Pad the rest of each line's last 32-byte block (NPU rule, spec §1.6).
inline void pad_lines(const TileView& t) {
  if (t.pad == PadValue::Null) return;
  Lines l = lines_of(t);
  const int block = int(32 / t.elem_bytes());
  const int capacity = t.row_major ? t.cols : t.rows;
  const int padded_end = std::min(capacity, (l.len + block - 1) / block * block);
  visit_dtype(t.dtype, [&](auto zero) {
    using T = decltype(zero);
    const T pad = pad_element<T>(t.pad);
    for (int a = 0; a < l.count; ++a) {
      T* line = reinterpret_cast<T*>(t.base) + std::ptrdiff_t(a) * l.step;
      std::fill(line + l.len, line + padded_end, pad);
    }
  });
}

// A boxed (NZ) tile and its tensor, one fractal row (inner_cols elements, contiguous on both sides
// when the tensor's innermost stride is 1) at a time. `dense`: the valid region in (r, c) order, when
// staged; nullptr moves between GM and the tile itself.
inline void gm_boxed(Dir dir, const TileView& t, const GmView& g, std::byte* dense) {
  const std::size_t eb = t.elem_bytes();
  if (!t.inner_row_major) {  // ZN (column-major fractals): element by element
    for (int r = 0; r < t.valid_rows; ++r)
      for (int c = 0; c < t.valid_cols; ++c) {
        std::byte* host = dense ? dense + (std::size_t(r) * std::size_t(t.valid_cols) + std::size_t(c)) * eb : t.base + std::size_t(t.elem_offset(r, c)) * eb;
        std::byte* gm = g.base + g.map(r, c) * std::int64_t(eb);
        if (dir == Dir::GmToStaging) std::memcpy(host, gm, eb);
        else std::memcpy(gm, host, eb);
      }
    return;
  }
  const int ic = t.inner_cols;
  for (int r = 0; r < t.valid_rows; ++r)
    for (int c = 0; c < t.valid_cols; c += ic) {
      const int n = std::min(ic - c % ic, t.valid_cols - c);
      std::byte* host = dense ? dense + (std::size_t(r) * std::size_t(t.valid_cols) + std::size_t(c)) * eb : t.base + std::size_t(t.elem_offset(r, c)) * eb;
      std::byte* gm = g.base + g.map(r, c) * std::int64_t(eb);
      if (g.stride[4] == 1) {
        if (dir == Dir::GmToStaging) std::memcpy(host, gm, std::size_t(n) * eb);
        else std::memcpy(gm, host, std::size_t(n) * eb);
        continue;
      }
      for (int k = 0; k < n; ++k) {
        std::byte* e = g.base + g.map(r, c + k) * std::int64_t(eb);
        if (dir == Dir::GmToStaging) std::memcpy(host + std::size_t(k) * eb, e, eb);
        else std::memcpy(e, host + std::size_t(k) * eb, eb);
      }
    }
}
// The valid region of a boxed tile to / from a dense (r, c) buffer.
inline void boxed_dense(const TileView& t, std::byte* dense, bool to_tile) {
  const std::size_t eb = t.elem_bytes();
  if (!t.inner_row_major) {  // ZN (column-major fractals): element by element
    for (int r = 0; r < t.valid_rows; ++r)
      for (int c = 0; c < t.valid_cols; ++c) {
        std::byte* tile = t.base + std::size_t(t.elem_offset(r, c)) * eb;
        std::byte* d = dense + (std::size_t(r) * std::size_t(t.valid_cols) + std::size_t(c)) * eb;
        if (to_tile) std::memcpy(tile, d, eb);
        else std::memcpy(d, tile, eb);
      }
    return;
  }
  for (int r = 0; r < t.valid_rows; ++r)
    for (int c = 0; c < t.valid_cols; c += t.inner_cols) {
      const int n = std::min(t.inner_cols - c % t.inner_cols, t.valid_cols - c);
      std::byte* tile = t.base + std::size_t(t.elem_offset(r, c)) * eb;
      std::byte* d = dense + (std::size_t(r) * std::size_t(t.valid_cols) + std::size_t(c)) * eb;
      if (to_tile) std::memcpy(tile, d, std::size_t(n) * eb);
      else std::memcpy(d, tile, std::size_t(n) * eb);
    }
}
inline std::size_t dense_bytes(const TileView& t) { return std::size_t(t.valid_rows) * std::size_t(t.valid_cols) * t.elem_bytes(); }

// The 4-bit types into a Mat tile (TileView::nibbles): element by element, nibble to nibble, between GM
// and the tile or a dense staging buffer (a code a byte, (r, c) order).
inline void gm_nibbles(const TileView& t, const GmView& g, std::uint8_t* dense, bool to_dense) {
  for (int r = 0; r < t.valid_rows; ++r)
    for (int c = 0; c < t.valid_cols; ++c) {
      std::uint8_t* d = dense ? dense + std::size_t(r) * std::size_t(t.valid_cols) + std::size_t(c) : nullptr;
      if (to_dense || !d) {
        const std::uint8_t v = nibble_get(g.base, g.map(r, c));
        if (d) *d = v;
        else nibble_set(t.base, t.elem_offset(r, c), v);
      } else {
        nibble_set(t.base, t.elem_offset(r, c), *d);
      }
    }
}

// TLOAD: GM -> tile directly, or through staging when a store on this core overwrote the window first.
inline void tload_direct(ExecContext& ctx) {
  const TileView& t = ctx.ops[0].tile;
  if (t.nibbles()) return gm_nibbles(t, ctx.ops[1].gm, nullptr, false);
  if (t.boxed) return gm_boxed(Dir::GmToStaging, t, ctx.ops[1].gm, nullptr);
  gm_window(Dir::GmToStaging, t, ctx.ops[1].gm, t.base, line_step_bytes(t));
  pad_lines(t);
}
inline void tload_start(ExecContext& ctx) {
  const TileView& t = ctx.ops[0].tile;
  if (t.nibbles())
    return gm_nibbles(t, ctx.ops[1].gm, reinterpret_cast<std::uint8_t*>(ctx.staging->resize(std::size_t(t.valid_rows) * std::size_t(t.valid_cols))), true);
  if (t.boxed) return gm_boxed(Dir::GmToStaging, t, ctx.ops[1].gm, ctx.staging->resize(dense_bytes(t)));
  std::byte* s = ctx.staging->resize(std::size_t(lines_of(t).count) * std::size_t(line_bytes(t)));
  gm_window(Dir::GmToStaging, t, ctx.ops[1].gm, s, line_bytes(t));
}
inline void tload_finish(ExecContext& ctx) {
  const TileView& t = ctx.ops[0].tile;
  if (t.nibbles()) return gm_nibbles(t, ctx.ops[1].gm, reinterpret_cast<std::uint8_t*>(ctx.staging->data()), false);
  if (t.boxed) return boxed_dense(t, ctx.staging->data(), true);
  const std::byte* in = ctx.staging->data();
  const Lines l = lines_of(t);
  for (int a = 0; a < l.count; ++a, in += line_bytes(t)) std::memcpy(t.base + a * line_step_bytes(t), in, std::size_t(line_bytes(t)));
  pad_lines(t);
}

// TSTORE: tile -> GM directly, or through staging when a vector op overwrote the tile while it ran.
inline void tstore_direct(ExecContext& ctx) {
  const TileView& t = ctx.ops[1].tile;
  if (t.boxed) return gm_boxed(Dir::StagingToGm, t, ctx.ops[0].gm, nullptr);
  gm_window(Dir::StagingToGm, t, ctx.ops[0].gm, t.base, line_step_bytes(t));
}
inline void tstore_start(ExecContext& ctx) {
  const TileView& t = ctx.ops[1].tile;
  if (t.boxed) return boxed_dense(t, ctx.staging->resize(dense_bytes(t)), false);
  const Lines l = lines_of(t);
  std::byte* out = ctx.staging->resize(std::size_t(l.count) * std::size_t(line_bytes(t)));
  for (int a = 0; a < l.count; ++a, out += line_bytes(t)) std::memcpy(out, t.base + a * line_step_bytes(t), std::size_t(line_bytes(t)));
}
inline void tstore_finish(ExecContext& ctx) {
  const TileView& t = ctx.ops[1].tile;
  if (t.boxed) return gm_boxed(Dir::StagingToGm, t, ctx.ops[0].gm, ctx.staging->data());
  gm_window(Dir::StagingToGm, t, ctx.ops[0].gm, ctx.staging->data(), line_bytes(t));
}

// dst valid region <- src, element (r, c) to (r, c); layouts may differ.
inline void tmov_finish(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  std::vector<std::byte> s_copy;
  const TileView s = stable_source(ctx.ops[1].tile, d, s_copy);
  const std::size_t eb = d.elem_bytes();
  if (d.row_major && s.row_major) {
    for (int r = 0; r < d.valid_rows; ++r)
      std::memmove(d.base + d.elem_offset(r, 0) * std::ptrdiff_t(eb), s.base + s.elem_offset(r, 0) * std::ptrdiff_t(eb),
                   std::size_t(d.valid_cols) * eb);
    return;
  }
  visit_dtype(d.dtype, [&](auto zero) {
    using T = decltype(zero);
    for (int r = 0; r < d.valid_rows; ++r)
      for (int c = 0; c < d.valid_cols; ++c) *d.ptr<T>(r, c) = *s.ptr<T>(r, c);
  });
}

inline void texpands_finish(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  visit_dtype(d.dtype, [&](auto zero) {
    using T = decltype(zero);
    const T v = ctx.scalar.as<T>();
    Lines l = lines_of(d);
    for (int a = 0; a < l.count; ++a) {
      T* line = reinterpret_cast<T*>(d.base) + std::ptrdiff_t(a) * l.step;
      std::fill(line, line + l.len, v);
    }
  });
}

// TPREFETCH: the chip's DMA calls in their order (isa/prefetch.hpp), each row of a call one contiguous
// burst; dst ends holding what the last calls left there.
inline void tprefetch_finish(ExecContext& ctx) {
  const TileView& t = ctx.ops[0].tile;
  const GmView& g = ctx.ops[1].gm;
  const PrefetchWalk w = prefetch_walk(g, t, ctx.target);
  if (w.calls() == 0) return;
  const std::size_t es = std::size_t(w.elem_bytes);
  for (std::int64_t n0 = 0; n0 < g.shape[0]; ++n0)
    for (std::int64_t n1 = 0; n1 < g.shape[1]; ++n1)
      for (std::int64_t n2 = 0; n2 < g.shape[2]; ++n2) {
        const std::int64_t slice = n0 * g.stride[0] + n1 * g.stride[1] + n2 * g.stride[2];
        for (std::int64_t r = 0; r < w.rows; r += w.chunk_rows)
          for (std::int64_t c = 0; c < w.cols; c += w.chunk_cols) {
            const std::int64_t rc = std::min(w.chunk_rows, w.rows - r), cc = std::min(w.chunk_cols, w.cols - c);
            for (std::int64_t i = 0; i < rc; ++i)
              std::memcpy(t.base + i * w.pitch(cc), g.base + std::size_t(slice + (r + i) * g.stride[3] + c) * es, std::size_t(cc) * es);
          }
      }
}

inline constexpr BackendKernel kTLoad{tload_start, tload_finish, tload_direct};
inline constexpr BackendKernel kTPrefetch{nullptr, tprefetch_finish};
inline constexpr BackendKernel kTStore{tstore_start, tstore_finish, tstore_direct};
inline constexpr BackendKernel kTMov{nullptr, tmov_finish};
inline constexpr BackendKernel kTExpandS{nullptr, texpands_finish};

}  // namespace pto::cpu::move
