// The exact byte spans an instruction record reads or writes on-chip: one per valid line of each tile
// operand (plus, for writes, the bytes and lines a target writes past the valid region), adjacent lines
// merged.
#pragma once
#include <algorithm>
#include <cstdint>

#include <pto/backends/registry.hpp>
#include <pto/runtime/record.hpp>

namespace pto::detail {

// Calls f(ByteRange) for each span of one tile operand that it reads (write = false) or writes (write =
// true), whatever its role. `merge`: contiguous lines come as one span.
template <class F>
void for_each_operand_span(const Operand& o, bool write, bool merge, F&& f) {
  const TileView& t = o.tile;
  if (t.nibbles()) {  // 4-bit elements packed by offset (cube tiles): the bounding bytes
    if (const ByteRange r = t.footprint(); !r.empty()) f(r);
    return;
  }
  const std::size_t eb = t.elem_bytes();
  const int lines = (t.row_major ? t.valid_rows : t.valid_cols) + int(write ? o.write_extra_lines : 0);
  const std::size_t len = std::size_t(t.row_major ? t.valid_cols : t.valid_rows) * eb + (write ? o.write_tail_bytes : 0);
  const std::size_t step = std::size_t(t.row_major ? t.row_stride : t.col_stride) * eb;
  if (len == 0 || lines <= 0) return;
  const auto base = reinterpret_cast<std::uintptr_t>(t.base);
  if (merge && step == len) {
    f(ByteRange{base, base + std::size_t(lines) * len});
    return;
  }
  for (int a = 0; a < lines; ++a) f(ByteRange{base + a * step, base + a * step + len});
}

// Calls f(ByteRange) for each span of the record's tile operands that it reads (write = false) or
// writes (write = true). `merge`: contiguous lines come as one span.
template <class F>
void for_each_tile_span(const InstrRecord& rec, bool write, bool merge, F&& f) {
  for (int i = 0; i < rec.nops; ++i) {
    const Operand& o = rec.ops[i];
    if ((write ? !o.writes() : !o.reads()) || o.kind != Operand::Kind::Tile) continue;
    for_each_operand_span(o, write, merge, f);
  }
}

// Calls f(ByteRange) for the exact GM bytes the record's GM operands read (write = false) or write:
// one run per line along the tensor's unit-stride dimension (the last, or for DN the fourth), runs that
// touch merged. A tensor with no unit-stride dimension comes element by element.
template <class F>
void for_each_gm_span(const InstrRecord& rec, bool write, F&& f) {
  for (int i = 0; i < rec.nops; ++i) {
    const Operand& o = rec.ops[i];
    if ((write ? !o.writes() : !o.reads()) || o.kind != Operand::Kind::Gm) continue;
    const GmView& g = o.gm;
    const std::size_t eb = size_of(g.dtype);
    const auto base = reinterpret_cast<std::uintptr_t>(g.base);
    ByteRange pending{};
    auto emit = [&](std::uintptr_t lo, std::uintptr_t hi) {
      if (!pending.empty() && lo <= pending.hi && pending.lo <= hi) {  // touching: one span
        pending.lo = std::min(pending.lo, lo);
        pending.hi = std::max(pending.hi, hi);
        return;
      }
      if (!pending.empty()) f(pending);
      pending = {lo, hi};
    };
    if (is_packed4(g.dtype) || GmView::is_conv_output(g.layout)) {
      // 4-bit elements (two a byte) and the fixpipe's convolution outputs (addresses from GmView::map,
      // not the strides alone): element by element through the map
      const bool packed = is_packed4(g.dtype);
      for (std::int64_t r = 0; r < g.tile_rows(); ++r)
        for (std::int64_t c = 0; c < g.tile_cols(); ++c) {
          const std::int64_t off = g.map(r, c);
          const std::uintptr_t lo = base + std::uintptr_t(packed ? off / 2 : off * std::int64_t(eb));
          emit(lo, lo + (packed ? 1 : eb));
        }
      if (!pending.empty()) f(pending);
      continue;
    }
    int inner = -1;  // the dimension a run follows
    if (g.stride[4] == 1 || g.shape[4] == 1) inner = 4;
    else if (g.stride[3] == 1) inner = 3;
    std::int64_t run = inner < 0 ? 1 : g.shape[inner];
    bool folded[5] = {false, false, false, false, false};  // dims the run already covers
    if (inner >= 0) folded[inner] = true;
    if (inner == 4)  // outer dims whose stride continues the run: a contiguous tile is one run
      for (int k = 3; k >= 0 && (g.shape[k] == 1 || g.stride[k] == run); --k) {
        run *= g.shape[k];
        folded[k] = true;
      }
    std::int64_t idx[5] = {0, 0, 0, 0, 0};
    for (;;) {
      std::int64_t off = 0;
      for (int k = 0; k < 5; ++k) off += (folded[k] ? 0 : idx[k]) * g.stride[k];
      const std::uintptr_t lo = base + std::uintptr_t(off) * eb;
      emit(lo, lo + std::uintptr_t(run) * eb);
      int k = 4;  // next line: odometer over the dimensions other than `inner`
      for (; k >= 0; --k) {
        if (folded[k]) continue;
        if (++idx[k] < g.shape[k]) break;
        idx[k] = 0;
      }
      if (k < 0) break;
    }
    if (!pending.empty()) f(pending);
  }
}

}  // namespace pto::detail
