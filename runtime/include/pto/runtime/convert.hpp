// Conversion (pto-isa docs/isa/TCVT.md): TCVT(dst, src[, tmp], mode[, satMode], events...) converts
// src's valid region into dst's DType. The (source, destination) pairs, how each chip applies the
// RoundMode and which pairs honour a SaturationMode are pto/isa/conversions.hpp; the element rules and
// the 8- and 4-bit encodings are docs/conversions.md. Without satMode a pair gets the chip's default
// (OFF for the six narrowing pairs, ON otherwise). tmp is the A2A3 scratch of the PyTorch-compatible
// SaturationMode::OFF paths (f32 -> int16, half -> int16, half -> int8); A5 ignores it.
#pragma once
#include <algorithm>
#include <type_traits>

#include <pto/isa/conversions.hpp>
#include <pto/isa/instr_desc.hpp>
#include <pto/isa/operand.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/operands.hpp>

namespace pto {

namespace detail {
// The bytes of tmp the A2A3 PyTorch-compatible path writes (docs/isa/TCVT.md "Temporary tile").
inline std::size_t cvt_tmp_bytes(const TileView& d, const TileView& s) {
  const std::size_t R = std::size_t(d.valid_rows), C = std::size_t(d.valid_cols);
  if (R == 0 || C == 0) return 0;
  const std::size_t H = std::min<std::size_t>(C, 64);
  if (s.dtype == DType::F32) {
    const std::size_t head = 4 * 64 * std::min<std::size_t>(C / 64, 255);
    const std::size_t tail = C % 64 ? 32 * ((std::min<std::size_t>(R, 255) - 1) * std::size_t(s.row_stride) / 8 + (C % 64 + 7) / 8) : 0;
    return std::max(head, tail);
  }
  if (d.dtype == DType::I16) return 32 * ((H + 7) / 8);
  return std::max(32 * ((H + 7) / 8), 128 + 32 * ((H + 15) / 16));
}

// TCVT's rules, footprints and variant bits on its operands' views (dst, src[, tmp]), shared with the PTO
// IR reader: the pair, the valid shapes, the A2A3 PyTorch-compatible path's tmp, the effective mode.
inline void cvt_checks(InstrRecord& rec, Target target, RoundMode mode, bool sat_given, SaturationMode sat) {
  const bool tmp = rec.nops > 2;
  const TileView& d = rec.ops[0].tile;
  const TileView& s = rec.ops[1].tile;
  const CvtPair* pair = find_cvt(target, s.dtype, d.dtype);
  if (!pair) {
    const Target other = target == Target::A5 ? Target::A2A3 : Target::A5;
    fail("TCVT: operand src ", s, ": ", name_of(target), " has no conversion from ", name_of(s.dtype), " to ",
         name_of(d.dtype), " (", find_cvt(other, s.dtype, d.dtype) ? std::string("supported on: ") + name_of(other)
                                                                     : std::string("no target supports it"),
         "; the pairs: docs/conversions.md)");
  }
  check_same_valid(*rec.desc, "dst", d, "src", s);
  const SaturationMode eff_sat = cvt_effective_sat(s.dtype, d.dtype, sat_given, sat);
  const bool torch = tmp && target == Target::A2A3 && eff_sat == SaturationMode::OFF &&
                     ((s.dtype == DType::F32 && d.dtype == DType::I16) ||
                      (s.dtype == DType::F16 && (d.dtype == DType::I16 || d.dtype == DType::I8)));
  if (torch) {
    TileView& t = rec.ops[2].tile;
    const std::size_t need = cvt_tmp_bytes(d, s), have = t.capacity_bytes();
    if (have < need)
      fail("TCVT: operand tmp ", t, " is too small: the A2A3 PyTorch-compatible ", name_of(s.dtype), " -> ",
           name_of(d.dtype), " path writes ", need, " bytes of it for dst ", d, ", and it holds ", have);
    // The footprint the chip writes: the first `need` bytes, as whole rows of the tile.
    const std::size_t row_bytes = std::size_t(t.row_stride) * t.elem_bytes();
    t.valid_cols = t.cols;
    t.valid_rows = int(std::min<std::size_t>(std::size_t(t.rows), (need + row_bytes - 1) / row_bytes));
  } else if (tmp) {
    rec.ops[2].tile.valid_rows = rec.ops[2].tile.valid_cols = 0;  // unused: no dependency on it
  }
  rec.variant = std::uint8_t((std::uint8_t(cvt_effective_mode(*pair, mode)) << kVariantCvtShift) |
                             (eff_sat == SaturationMode::OFF ? kVariantCvtSatOff : 0) | (torch ? kVariantCvtTmp : 0));
}

template <class Dst, class Src, class Tmp, class... W>
Issue convert(Dst& dst, Src& src, Tmp* tmp, RoundMode mode, bool sat_given, SaturationMode sat, W&... events) {
  static_assert(Dst::Loc == TileType::Vec && Src::Loc == TileType::Vec && Tmp::Loc == TileType::Vec,
                "TCVT: dst, src and tmp must be Vec tiles");
  static_assert(Dst::isRowMajor && Src::isRowMajor && !Dst::isBoxedLayout && !Src::isBoxedLayout,
                "TCVT: dst and src must be RowMajor NoneBox tiles (the chips walk them by RowStride)");
  Core& core = current_core();
  InstrRecord rec = compute_record(desc_of<Op::TCVT>());
  add_tile(core, rec, dst);
  add_tile(core, rec, src);
  if (tmp) add_tile(core, rec, *tmp);
  cvt_checks(rec, core_target(core), mode, sat_given, sat);
  add_waits(core, rec, events...);
  return Issue(core, rec);
}
}  // namespace detail

template <class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src>
detail::Issue TCVT(Dst& dst, Src& src, RoundMode mode, SaturationMode sat, W&... events) {
  return detail::convert<Dst, Src, Src>(dst, src, nullptr, mode, true, sat, events...);
}
template <class Dst, class Src, class... W>
  requires TileLike<Dst> && TileLike<Src>
detail::Issue TCVT(Dst& dst, Src& src, RoundMode mode, W&... events) {
  return detail::convert<Dst, Src, Src>(dst, src, nullptr, mode, false, SaturationMode::ON, events...);
}
template <class Dst, class Src, class Tmp, class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Tmp>
detail::Issue TCVT(Dst& dst, Src& src, Tmp& tmp, RoundMode mode, SaturationMode sat, W&... events) {
  return detail::convert(dst, src, &tmp, mode, true, sat, events...);
}
template <class Dst, class Src, class Tmp, class... W>
  requires TileLike<Dst> && TileLike<Src> && TileLike<Tmp>
detail::Issue TCVT(Dst& dst, Src& src, Tmp& tmp, RoundMode mode, W&... events) {
  return detail::convert(dst, src, &tmp, mode, false, SaturationMode::ON, events...);
}

}  // namespace pto
