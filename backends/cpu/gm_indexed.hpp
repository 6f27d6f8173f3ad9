// MGATHER and MSCATTER on the CPU (runtime/gm_indexed.hpp has their rules and the chips' addressing).
// Every index is read and placed before any byte moves, so an index past the table under
// GatherOOB / ScatterOOB::Undefined, or a row that would leave the table's extent, is a pto::Error with
// nothing written. Writes happen in the chips' sequential order (row r, then element (r, c) row-major).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include <pto/isa/enums.hpp>
#include <pto/isa/error.hpp>
#include <pto/backends/kernel_abi.hpp>

namespace pto::cpu::gm_indexed {

// Where the chip reads or writes for one index: `skip` for an index past the table that is dropped
// (ScatterOOB::Skip) or zero-filled (GatherOOB::Zero), else the element offset from the table's base.
struct Slot {
  std::int64_t at = 0;
  bool skip = false;
};

// The remap of one raw index against `count` slots; oob is the mode's bits (GatherOOB and ScatterOOB
// share Clamp and Wrap's meaning, at different values).
inline Slot remap(std::uint64_t raw, std::uint64_t count, bool gather, int oob, const char* name, int r, int c) {
  const bool clamp = gather ? oob == int(GatherOOB::Clamp) : oob == int(ScatterOOB::Clamp);
  const bool wrap = gather ? oob == int(GatherOOB::Wrap) : oob == int(ScatterOOB::Wrap);
  if (raw < count) return {std::int64_t(raw), false};
  if (clamp) return {std::int64_t(count - 1), false};
  if (wrap) return {std::int64_t(raw % count), false};
  if (oob != 0) return {0, true};  // Zero / Skip
  detail::fail(name, ": operand idx holds ", raw, " at (", r, ", ", c, "), past the table's ", count,
               gather ? " slots under GatherOOB::Undefined" : " slots under ScatterOOB::Undefined",
               " (the chips would touch whatever lies there; choose Clamp, Wrap or ", gather ? "Zero" : "Skip", ")");
}

inline std::uint64_t index_at(const TileView& x, int i, int j) {
  std::uint32_t v;
  std::memcpy(&v, x.base + x.elem_offset(i, j) * std::ptrdiff_t(4), 4);
  return v;
}

// The slots of every line moved: Row mode one per row of the data tile (its valid columns from there),
// Elem mode one per element. The public function made the table's view what the chip addresses: Row
// mode shape[3] rows at stride[3], Elem mode shape[4] flat elements.
// An NZ table (A2A3) keeps its whole view: Row mode slots are logical rows (of tile_rows()), Elem mode
// slots the element offsets of flat logical indices (row * tile_cols() + column) through GmView::map.
inline std::vector<Slot> slots(const ExecContext& ctx, const TileView& t, const GmView& g, const TileView& x, bool gather,
                               const char* name) {
  const int oob = (ctx.variant >> kVariantOobShift) & 3;
  std::vector<Slot> out;
  if (g.layout == Layout::NZ) {
    const std::uint64_t rows = std::uint64_t(g.tile_rows()), cols = std::uint64_t(g.tile_cols());
    if (!(ctx.variant & kVariantElem)) {
      for (int r = 0; r < x.valid_cols; ++r) out.push_back(remap(index_at(x, 0, r), rows, gather, oob, name, 0, r));
      return out;
    }
    for (int r = 0; r < t.valid_rows; ++r)
      for (int c = 0; c < t.valid_cols; ++c) {
        Slot sl = remap(index_at(x, r, c), rows * cols, gather, oob, name, r, c);
        if (!sl.skip) sl.at = g.map(sl.at / std::int64_t(cols), sl.at % std::int64_t(cols));
        out.push_back(sl);
      }
    return out;
  }
  if (ctx.variant & kVariantElem) {
    out.reserve(std::size_t(t.valid_rows) * std::size_t(t.valid_cols));
    for (int r = 0; r < t.valid_rows; ++r)
      for (int c = 0; c < t.valid_cols; ++c) out.push_back(remap(index_at(x, r, c), std::uint64_t(g.shape[4]), gather, oob, name, r, c));
    return out;
  }
  for (int r = 0; r < t.valid_rows; ++r) {
    const int i = x.row_major ? 0 : r, j = x.row_major ? r : 0;  // a 1 x R line, or (A5) an R x 1 column
    Slot s = remap(index_at(x, i, j), std::uint64_t(g.shape[3]), gather, oob, name, i, j);
    s.at *= g.stride[3];
    out.push_back(s);
  }
  return out;
}

inline void mgather(ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &x = ctx.ops[2].tile;
  const GmView& g = ctx.ops[1].gm;
  const std::size_t es = d.elem_bytes();
  const std::vector<Slot> at = slots(ctx, d, g, x, true, "MGATHER");
  auto dst = [&](int r, int c) { return d.base + d.elem_offset(r, c) * std::ptrdiff_t(es); };
  if (g.layout == Layout::NZ && !(ctx.variant & kVariantElem)) {  // whole logical rows; Zero zeroes the tile first
    if (((ctx.variant >> kVariantOobShift) & 3) == int(GatherOOB::Zero)) std::memset(d.base, 0, std::size_t(d.rows) * std::size_t(d.cols) * es);
    const std::int64_t cols = g.tile_cols();
    for (std::size_t r = 0; r < at.size(); ++r)
      if (!at[r].skip)
        for (std::int64_t c = 0; c < cols; ++c) std::memcpy(dst(int(r), int(c)), g.base + g.map(at[r].at, c) * std::int64_t(es), es);
    return;
  }
  if (ctx.variant & kVariantElem) {
    std::size_t k = 0;
    for (int r = 0; r < d.valid_rows; ++r)
      for (int c = 0; c < d.valid_cols; ++c, ++k) {
        if (at[k].skip) std::memset(dst(r, c), 0, es);
        else std::memcpy(dst(r, c), g.base + at[k].at * std::int64_t(es), es);
      }
    return;
  }
  for (int r = 0; r < d.valid_rows; ++r) {
    const std::byte* row = g.base + at[std::size_t(r)].at * std::int64_t(es);
    if (d.row_major) {
      if (at[std::size_t(r)].skip) std::memset(dst(r, 0), 0, std::size_t(d.valid_cols) * es);
      else std::memcpy(dst(r, 0), row, std::size_t(d.valid_cols) * es);
      continue;
    }
    for (int c = 0; c < d.valid_cols; ++c)  // A5, a ColMajor dst
      if (at[std::size_t(r)].skip) std::memset(dst(r, c), 0, es);
      else std::memcpy(dst(r, c), row + std::size_t(c) * es, es);
  }
}

// One element of an atomic scatter: the table's value combined with the source's, rounded once to T.
template <class T>
void combine(std::byte* slot, const std::byte* from, ScatterAtomicOp op) {
  T a, b;
  std::memcpy(&a, slot, sizeof(T));
  std::memcpy(&b, from, sizeof(T));
  T v;
  if (op == ScatterAtomicOp::Add) {
    if constexpr (std::is_integral_v<T>)  // two's complement wrap, as the integer adders do
      v = T(std::make_unsigned_t<T>(a) + std::make_unsigned_t<T>(b));
    else
      v = T(double(a) + double(b));  // exact in double for half and float, so one rounding
  } else {
    const bool take = op == ScatterAtomicOp::Max ? b > a : b < a;
    v = take ? b : a;
  }
  std::memcpy(slot, &v, sizeof(T));
}

inline void mscatter(ExecContext& ctx) {
  const TileView &s = ctx.ops[1].tile, &x = ctx.ops[2].tile;
  const GmView& g = ctx.ops[0].gm;
  const std::size_t es = s.elem_bytes();
  const std::vector<Slot> at = slots(ctx, s, g, x, false, "MSCATTER");
  const auto op = ScatterAtomicOp((ctx.variant >> kVariantAtomicShift) & 3);
  auto put = [&](std::byte* slot, const std::byte* from) {
    if (op == ScatterAtomicOp::None) {
      std::memcpy(slot, from, es);
      return;
    }
    visit_dtype(s.dtype, [&](auto zero) {
      using T = decltype(zero);
      if constexpr (sizeof(T) <= 4) combine<T>(slot, from, op);
    });
  };
  auto src = [&](int r, int c) { return s.base + s.elem_offset(r, c) * std::ptrdiff_t(es); };
  const bool elem = ctx.variant & kVariantElem;
  if (g.layout == Layout::NZ) {
    if (!elem) {  // whole logical rows
      const std::int64_t cols = g.tile_cols();
      for (std::size_t r = 0; r < at.size(); ++r)
        if (!at[r].skip)
          for (std::int64_t c = 0; c < cols; ++c) put(g.base + g.map(at[r].at, c) * std::int64_t(es), src(int(r), int(c)));
      return;
    }
    // the chip's walk: column blocks of C0, rows, the block's columns (a slot named twice keeps the later)
    const int c0 = int(32 / es), vc = s.valid_cols;
    for (int b = 0; b < vc; b += c0)
      for (int r = 0; r < s.valid_rows; ++r)
        for (int c = b; c < std::min(b + c0, vc); ++c) {
          const Slot& sl = at[std::size_t(r) * std::size_t(vc) + std::size_t(c)];
          if (!sl.skip) put(g.base + sl.at * std::int64_t(es), src(r, c));
        }
    return;
  }
  std::size_t k = 0;
  for (int r = 0; r < s.valid_rows; ++r) {
    if (!elem && at[std::size_t(r)].skip) continue;
    for (int c = 0; c < s.valid_cols; ++c) {
      const Slot& sl = at[elem ? k++ : std::size_t(r)];
      if (sl.skip) continue;
      put(g.base + (sl.at + (elem ? 0 : c)) * std::int64_t(es), src(r, c));
    }
  }
}

inline constexpr BackendKernel kMGather{nullptr, mgather};
inline constexpr BackendKernel kMScatter{nullptr, mscatter};

}  // namespace pto::cpu::gm_indexed
