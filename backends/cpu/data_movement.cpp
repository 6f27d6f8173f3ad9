// TLOAD, TSTORE, TMOV (Vec->Vec) and TEXPANDS on the CPU.
// Legality was checked when the instruction was issued (runtime/instructions); these only move bytes.
#include <algorithm>
#include <cstring>

#include "cpu_backend.hpp"
#include "pad_value.hpp"

namespace pto::cpu {
namespace {

// Element (r, c) of a tile's valid region, with rows/cols swapped for ColMajor so that one loop shape
// serves both layouts: "lines" are rows of a RowMajor tile and columns of a ColMajor one.
struct Lines {
  int count, length;        // number of lines, elements per line
  std::ptrdiff_t line_step;  // elements between consecutive lines
};
Lines lines_of(const TileView& t) {
  return t.row_major ? Lines{t.valid_rows, t.valid_cols, t.row_stride} : Lines{t.valid_cols, t.valid_rows, t.col_stride};
}

// Copies the tile-shaped window of `g` between GM and a dense staging buffer holding the lines in order.
// A line whose elements are consecutive in GM (innermost stride 1) moves with one memcpy.
enum class Dir { GmToStaging, StagingToGm };
void gm_window(Dir dir, const TileView& t, const GmView& g, std::byte* staging) {
  const std::size_t eb = t.elem_bytes();
  Lines l = lines_of(t);
  auto gm_at = [&](int a, int b) { return g.base + (t.row_major ? g.map(a, b) : g.map(b, a)) * std::int64_t(eb); };
  if (l.length == 0) return;
  for (int a = 0; a < l.count; ++a) {
    const bool contiguous = gm_at(a, l.length - 1) - gm_at(a, 0) == std::ptrdiff_t((l.length - 1) * eb);
    const int pieces = contiguous ? 1 : l.length;
    const std::size_t piece = contiguous ? std::size_t(l.length) * eb : eb;
    for (int b = 0; b < pieces; ++b, staging += piece) {
      std::byte* gm = gm_at(a, b);
      if (dir == Dir::GmToStaging) std::memcpy(staging, gm, piece);
      else std::memcpy(gm, staging, piece);
    }
  }
}

void tload_start(ExecContext& ctx) {
  const TileView& t = ctx.ops[0].tile;
  ctx.staging->resize(std::size_t(t.valid_rows) * t.valid_cols * t.elem_bytes());
  gm_window(Dir::GmToStaging, t, ctx.ops[1].gm, ctx.staging->data());
}

// staging -> tile, then pad the rest of each line's last 32-byte block (NPU rule, spec §1.6).
void tload_finish(ExecContext& ctx) {
  const TileView& t = ctx.ops[0].tile;
  const std::size_t eb = t.elem_bytes();
  const std::byte* in = ctx.staging->data();
  Lines l = lines_of(t);
  const int block = int(32 / eb);
  const int capacity = t.row_major ? t.cols : t.rows;
  const int padded_end = std::min(capacity, (l.length + block - 1) / block * block);
  visit_dtype(t.dtype, [&](auto zero) {
    using T = decltype(zero);
    const T pad = pad_element<T>(t.pad);
    for (int a = 0; a < l.count; ++a) {
      T* line = reinterpret_cast<T*>(t.base) + std::ptrdiff_t(a) * l.line_step;
      std::memcpy(line, in, std::size_t(l.length) * eb);
      in += std::size_t(l.length) * eb;
      if (t.pad != PadValue::Null) std::fill(line + l.length, line + padded_end, pad);
    }
  });
}

// Tile -> staging at start (the DMA reads UB when it starts), staging -> GM at finish.
void tstore_start(ExecContext& ctx) {
  const TileView& t = ctx.ops[1].tile;
  const std::size_t eb = t.elem_bytes();
  Lines l = lines_of(t);
  ctx.staging->resize(std::size_t(l.count) * l.length * eb);
  std::byte* out = ctx.staging->data();
  for (int a = 0; a < l.count; ++a, out += std::size_t(l.length) * eb)
    std::memcpy(out, t.base + std::ptrdiff_t(a) * l.line_step * std::ptrdiff_t(eb), std::size_t(l.length) * eb);
}

void tstore_finish(ExecContext& ctx) { gm_window(Dir::StagingToGm, ctx.ops[1].tile, ctx.ops[0].gm, ctx.staging->data()); }

// dst valid region <- src, element (r, c) to (r, c); layouts may differ.
void tmov_finish(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const TileView& s = ctx.ops[1].tile;
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

void texpands_finish(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  visit_dtype(d.dtype, [&](auto zero) {
    using T = decltype(zero);
    const T v = ctx.scalar.as<T>();
    Lines l = lines_of(d);
    for (int a = 0; a < l.count; ++a) {
      T* line = reinterpret_cast<T*>(d.base) + std::ptrdiff_t(a) * l.line_step;
      std::fill(line, line + l.length, v);
    }
  });
}

constexpr BackendKernel kTLoad{tload_start, tload_finish, true};
constexpr BackendKernel kTStore{tstore_start, tstore_finish, true};
constexpr BackendKernel kTMov{nullptr, tmov_finish, false};
constexpr BackendKernel kTExpandS{nullptr, texpands_finish, false};

}  // namespace

const BackendKernel* data_movement_kernel(Op op) {
  switch (op) {
    case Op::TLOAD: return &kTLoad;
    case Op::TSTORE_VEC: return &kTStore;
    case Op::TMOV_V2V: return &kTMov;
    case Op::TEXPANDS: return &kTExpandS;
    default: return nullptr;
  }
}

const BackendKernel* kernel_for(Op op) {
  if (const BackendKernel* k = data_movement_kernel(op)) return k;
  if (const BackendKernel* k = broadcast_kernel(op)) return k;
  return tile_scalar_kernel(op);
}

}  // namespace pto::cpu
