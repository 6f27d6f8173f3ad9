// The exact byte spans an instruction record reads or writes on-chip: one per valid line of each tile
// operand (plus, for writes, the bytes and lines a target writes past the valid region), adjacent lines
// merged.
#pragma once
#include <cstdint>

#include <pto/isa/kernel_abi.hpp>
#include <pto/runtime/record.hpp>

namespace pto::detail {

// Calls f(ByteRange) for each span of the record's tile operands that it reads (write = false) or
// writes (write = true). `merge`: contiguous lines come as one span.
template <class F>
void for_each_tile_span(const InstrRecord& rec, bool write, bool merge, F&& f) {
  for (int i = 0; i < rec.nops; ++i) {
    const Operand& o = rec.ops[i];
    if ((write ? !o.writes() : !o.reads()) || o.kind != Operand::Kind::Tile) continue;
    const TileView& t = o.tile;
    const std::size_t eb = t.elem_bytes();
    const int lines = (t.row_major ? t.valid_rows : t.valid_cols) + int(write ? o.write_extra_lines : 0);
    const std::size_t len = std::size_t(t.row_major ? t.valid_cols : t.valid_rows) * eb + (write ? o.write_tail_bytes : 0);
    const std::size_t step = std::size_t(t.row_major ? t.row_stride : t.col_stride) * eb;
    if (len == 0 || lines <= 0) continue;
    const auto base = reinterpret_cast<std::uintptr_t>(t.base);
    if (merge && step == len) {
      f(ByteRange{base, base + std::size_t(lines) * len});
      continue;
    }
    for (int a = 0; a < lines; ++a) f(ByteRange{base + a * step, base + a * step + len});
  }
}

}  // namespace pto::detail
