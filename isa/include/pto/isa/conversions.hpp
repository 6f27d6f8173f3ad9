// TCVT's (source, destination) pairs per target and how each chip treats the RoundMode and the
// SaturationMode of a pair (pto-isa include/pto/npu/a2a3/TCvt.hpp and include/pto/npu/a5/TCvt.hpp:
// their GenCastCall / castData overloads are the pair lists, their switch defaults the mode mapping).
// The public TCVT resolves a call to the mode and saturation the chip applies, so the backends see
// one meaning per record (docs/conversions.md).
#pragma once
#include <cstdint>

#include <pto/isa/dtype.hpp>
#include <pto/isa/enums.hpp>

namespace pto {

// How a pair rounds.
enum class CvtRounding : std::uint8_t {
  Exact,     // every source value is representable (widening): the mode is ignored
  Modes,     // RINT ROUND FLOOR CEIL TRUNC honoured; NONE (and ODD) -> the pair's default
  ModesOdd,  // the same plus CAST_ODD (f32 -> f16)
  Fixed,     // one rounding whatever the mode (A5 f32 -> fp8: RINT; -> hifloat8: ROUND)
  Integer,   // integer -> integer: no rounding, only saturation
};

struct CvtPair {
  DType src, dst;
  CvtRounding rounding;
  RoundMode fixed = RoundMode::CAST_RINT;  // Fixed: the rounding used
};

namespace cvt_detail {
using D = DType;
using R = CvtRounding;
inline constexpr CvtPair kA2A3[] = {
    {D::F32, D::F16, R::ModesOdd}, {D::F32, D::F32, R::Modes}, {D::F32, D::I64, R::Modes}, {D::F32, D::I32, R::Modes},
    {D::F32, D::I16, R::Modes},    {D::F32, D::BF16, R::Modes}, {D::F16, D::F32, R::Exact}, {D::F16, D::I32, R::Modes},
    {D::F16, D::I16, R::Modes},    {D::F16, D::I8, R::Modes},   {D::F16, D::U8, R::Modes},  {D::F16, D::I4, R::Modes},
    {D::BF16, D::F32, R::Exact},   {D::BF16, D::I32, R::Modes}, {D::I16, D::F16, R::Modes}, {D::I16, D::F32, R::Exact},
    {D::I32, D::F32, R::Modes},    {D::I32, D::I16, R::Integer}, {D::I32, D::I64, R::Integer},
    {D::I32, D::F16, R::Fixed, RoundMode::CAST_RINT},  // vconv_deq with scale 1.0
    {D::I64, D::F32, R::Modes},    {D::I64, D::I32, R::Integer}, {D::U8, D::F16, R::Exact}, {D::I8, D::F16, R::Exact},
    {D::I4, D::F16, R::Exact},
};
inline constexpr CvtPair kA5[] = {
    {D::F32, D::F16, R::ModesOdd}, {D::F32, D::BF16, R::Modes}, {D::F32, D::I16, R::Modes}, {D::F32, D::I32, R::Modes},
    {D::F32, D::I64, R::Modes},    {D::F32, D::F32, R::Modes},
    {D::F32, D::F8E4M3, R::Fixed, RoundMode::CAST_RINT}, {D::F32, D::F8E5M2, R::Fixed, RoundMode::CAST_RINT},
    {D::F32, D::HF8, R::Fixed, RoundMode::CAST_ROUND},
    {D::F16, D::F32, R::Exact},    {D::F16, D::I32, R::Modes},  {D::F16, D::I16, R::Modes}, {D::F16, D::I8, R::Modes},
    {D::F16, D::U8, R::Modes},     {D::F16, D::HF8, R::Fixed, RoundMode::CAST_ROUND},
    {D::BF16, D::F32, R::Exact},   {D::BF16, D::I32, R::Modes}, {D::BF16, D::F16, R::Modes},
    {D::BF16, D::F4E1M2, R::Modes}, {D::BF16, D::F4E2M1, R::Modes},
    {D::I16, D::F32, R::Exact},    {D::I16, D::U32, R::Integer}, {D::I16, D::I32, R::Integer}, {D::I16, D::U8, R::Integer},
    {D::I16, D::F16, R::Modes},
    {D::I32, D::F32, R::Modes},    {D::I32, D::I16, R::Integer}, {D::I32, D::U16, R::Integer}, {D::I32, D::I64, R::Integer},
    {D::I32, D::U8, R::Integer},
    {D::U32, D::U16, R::Integer},  {D::U32, D::I16, R::Integer}, {D::U32, D::U8, R::Integer},
    {D::I64, D::F32, R::Modes},    {D::I64, D::I32, R::Integer},
    {D::U8, D::F16, R::Exact},     {D::U8, D::U16, R::Integer},
    {D::I8, D::F16, R::Exact},     {D::I8, D::I16, R::Integer}, {D::I8, D::I32, R::Integer},
    {D::F8E4M3, D::F32, R::Exact}, {D::F8E5M2, D::F32, R::Exact}, {D::HF8, D::F32, R::Exact},
    {D::F4E1M2, D::BF16, R::Exact}, {D::F4E2M1, D::BF16, R::Exact},
};
}  // namespace cvt_detail

// The pair's entry on a target, or nullptr when the target has no such conversion.
constexpr const CvtPair* find_cvt(Target t, DType src, DType dst) {
  auto scan = [&](const auto& table) -> const CvtPair* {
    for (const CvtPair& p : table)
      if (p.src == src && p.dst == dst) return &p;
    return nullptr;
  };
  return t == Target::A5 ? scan(cvt_detail::kA5) : scan(cvt_detail::kA2A3);
}

// The narrowing pairs whose SaturationMode the chips honour; the form without one defaults them to OFF
// (pto-isa kIsNarrowingCvt). Every other pair converts saturating.
constexpr bool cvt_sat_selectable(DType src, DType dst) {
  using D = DType;
  return (src == D::F16 && (dst == D::U8 || dst == D::I8 || dst == D::I16)) || (src == D::F32 && dst == D::I16) ||
         (src == D::I64 && dst == D::I32) || (src == D::I32 && dst == D::I16);
}

// The rounding the chip applies to a call: CAST_NONE and unsupported modes become the pair's default
// (TRUNC for float -> integer, RINT otherwise), a Fixed pair its one rounding.
constexpr RoundMode cvt_effective_mode(const CvtPair& p, RoundMode m) {
  const bool to_int = is_float(p.src) && !is_float(p.dst) && !is_narrow(p.dst);  // int4b: RINT (vconv_f162s4)
  const RoundMode def = to_int ? RoundMode::CAST_TRUNC : RoundMode::CAST_RINT;
  switch (p.rounding) {
    case CvtRounding::Exact: case CvtRounding::Integer: return RoundMode::CAST_RINT;  // nothing to round
    case CvtRounding::Fixed: return p.fixed;
    case CvtRounding::ModesOdd: return m == RoundMode::CAST_NONE ? def : m;
    case CvtRounding::Modes: return m == RoundMode::CAST_NONE || m == RoundMode::CAST_ODD ? def : m;
  }
  return def;
}

// The saturation the chip applies: the caller's (or OFF when none is given) for a selectable pair,
// ON for every other.
constexpr SaturationMode cvt_effective_sat(DType src, DType dst, bool given, SaturationMode s) {
  if (!cvt_sat_selectable(src, dst)) return SaturationMode::ON;
  return given ? s : SaturationMode::OFF;
}

}  // namespace pto
