#include "cost_model.hpp"

#include <cmath>

namespace pto::detail {

namespace {
// A2/A3: 1.85 GHz; GM->UB 100.9 GiB/s = 58.6 B/cycle; UB->GM 188.46 GiB/s = 109.4 B/cycle; vadd 2
// cycles per repeat with 10-14 cycles of head (cost-model-reference.md §2).
constexpr CostTable kA2A3{1.85, 58.6, 109.4, 12, 2, 1};
// A5: the reference has no A5 clock or bandwidth table (cost-model-reference.md §2, gaps). Assumed:
// the same clock, twice the A2/A3 bandwidths, the same vector figures.
constexpr CostTable kA5{1.85, 117.2, 218.8, 12, 2, 1};

std::uint64_t bytes_of(const TileView& t) { return std::uint64_t(t.valid_rows) * t.valid_cols * t.elem_bytes(); }

// Repeats the vector unit issues for a tile: one per 256 bytes of each row, a partial row counting
// as one masked repeat.
std::uint64_t repeats_of(const TileView& t) {
  const std::uint64_t row_bytes = std::uint64_t(t.row_major ? t.valid_cols : t.valid_rows) * t.elem_bytes();
  const std::uint64_t lines = t.row_major ? t.valid_rows : t.valid_cols;
  return lines * ((row_bytes + 255) / 256);
}
}  // namespace

const CostTable& cost_table(Target t) { return t == Target::A5 ? kA5 : kA2A3; }

std::uint64_t cost_cycles(const InstrRecord& rec, Target target) {
  if (rec.kind != RecordKind::Compute) return 0;
  const CostTable& c = cost_table(target);
  switch (rec.pipe) {
    case PIPE_MTE2: {
      const TileView& dst = rec.ops[0].tile;
      return std::uint64_t(std::ceil(double(bytes_of(dst)) / c.gm_to_ub_bytes_per_cycle));
    }
    case PIPE_MTE3: {
      const TileView& src = rec.ops[1].tile;
      return std::uint64_t(std::ceil(double(bytes_of(src)) / c.ub_to_gm_bytes_per_cycle));
    }
    case PIPE_V: return c.vector_head_cycles + c.vector_cycles_per_repeat * repeats_of(rec.ops[0].tile);
    default: return 1;
  }
}

}  // namespace pto::detail
