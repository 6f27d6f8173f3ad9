// TPRINT's text (runtime/print.hpp has the contract): composed whole, then written under one lock, so
// the prints of cores running at once do not interleave.
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>

#include <pto/isa/bfloat16.hpp>
#include <pto/isa/dtype.hpp>
#include <pto/isa/error.hpp>
#include <pto/runtime/core_api.hpp>

#include "core.hpp"
#include "gm_allocations.hpp"

namespace pto::detail {
namespace {
std::mutex print_mutex;

const char* print_name(DType t) {  // the chips' names (TPrint.hpp GetDTypeName)
  switch (t) {
    case DType::F32: return "float32";
    case DType::F16: return "float16";
    default: return name_of(t);
  }
}

// One value as the chips' printf formats it, preceded by a space but in the first column.
void value(std::string& out, const std::byte* p, DType t, PrintFormat f, bool first) {
  char buf[64];
  const bool wide = f == PrintFormat::Width10_Precision6;
  visit_dtype(t, [&](auto zero) {
    using T = decltype(zero);
    T v;
    std::memcpy(&v, p, sizeof(T));
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
      std::snprintf(buf, sizeof buf, wide ? "%10d" : "%8d", int(v));
    else if constexpr (std::is_integral_v<T>)
      std::snprintf(buf, sizeof buf, wide ? "%10u" : "%8u", unsigned(v));
    else
      std::snprintf(buf, sizeof buf, f == PrintFormat::Width8_Precision4 ? "%8.4f" : f == PrintFormat::Width8_Precision2 ? "%8.2f" : "%10.6f",
                    double(float(v)));
  });
  if (!first) out += ' ';
  out += buf;
}

// The NPUs' GetLayoutName(BFractal, SFractal): ND / DN, or Zz / Nz / Zn / Nn for the boxed layouts.
const char* tile_layout_name(const TileView& t) {
  if (!t.boxed) return t.row_major ? "ND" : "DN";
  if (t.inner_row_major) return t.row_major ? "Zz" : "Nz";
  return t.row_major ? "Zn" : "Nn";
}

void tile(std::string& out, const TileView& t, PrintFormat f, bool data) {
  {
    std::ostringstream h;  // a stream, not "literal" + std::to_string: g++ 12 -O3 warns on those (-Wrestrict)
    h << "  Shape: [" << t.rows << ", " << t.cols << "], Valid Shape: [" << t.valid_rows << ", " << t.valid_cols << "]\n";
    out += h.str();
  }
  if (!data) return;
  const std::size_t es = t.elem_bytes();
  const bool wide = f == PrintFormat::Width10_Precision6;
  for (int i = 0; i < t.rows; ++i) {
    for (int j = 0; j < t.cols; ++j) {
      value(out, t.base + t.elem_offset(i, j) * std::ptrdiff_t(es), t.dtype, f, j == 0);
      if (j == t.valid_cols - 1 && t.valid_cols > 0 && t.valid_cols < t.cols) out += '|';
    }
    out += '\n';
    if (i == t.valid_rows - 1 && t.valid_rows > 0 && t.valid_rows < t.rows) {
      for (int j = 0; j < t.cols; ++j) {
        if (j) out += ' ';
        out += wide ? "----------" : "--------";
        if (j == t.valid_cols - 1 && t.valid_cols > 0 && t.valid_cols < t.cols) out += '|';
      }
      out += '\n';
    }
  }
}

void tensor(std::string& out, const GmView& g, PrintFormat f, bool data) {
  const std::int64_t* n = g.shape;
  const std::int64_t* s = g.stride;
  const std::size_t es = size_of(g.dtype);
  auto at = [&](std::int64_t off) { return g.base + off * std::int64_t(es); };
  if (g.layout == Layout::NZ) {  // Shape<1, Cols / C0, Rows / 16, 16, C0>
    const std::int64_t rows = n[2] * n[3], cols = n[1] * n[4];
    std::ostringstream h;
    h << "  Logical Shape: [" << rows << ", " << cols << "]\n";
    out += h.str();
    if (!data) return;
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t c = 0; c < cols; ++c)
        value(out, at(r / n[3] * s[2] + c / n[4] * s[1] + r % n[3] * s[3] + c % n[4] * s[4]), g.dtype, f, c == 0);
      out += '\n';
    }
    return;
  }
  std::ostringstream h;
  h << "  Shape: [" << n[0] << ", " << n[1] << ", " << n[2] << ", " << n[3] << ", " << n[4] << "]\n";
  out += h.str();
  if (!data) return;
  for (std::int64_t i0 = 0; i0 < n[0]; ++i0)
    for (std::int64_t i1 = 0; i1 < n[1]; ++i1)
      for (std::int64_t i2 = 0; i2 < n[2]; ++i2) {
        std::ostringstream b;
        b << "  Batch [" << i0 << ", " << i1 << ", " << i2 << "]:\n";
        out += b.str();
        for (std::int64_t r = 0; r < n[3]; ++r) {
          for (std::int64_t c = 0; c < n[4]; ++c) value(out, at(i0 * s[0] + i1 * s[1] + i2 * s[2] + r * s[3] + c * s[4]), g.dtype, f, c == 0);
          out += '\n';
        }
      }
}
}  // namespace

void print_operand(Core& core, const Operand& what, PrintFormat format) {
  const bool tile_form = what.kind == Operand::Kind::Tile;
  if (tile_form && what.tile.base == nullptr)
    fail("TPRINT: operand src ", what.tile, ": the tile has no address yet (TASSIGN it, or in auto mode use it in an instruction first)");
  if (!tile_form && core.options().gm) {  // a GlobalTensor past its launch allocation: the same error as any GM operand
    InstrRecord rec;
    rec.desc = find_desc(Op::TPRINT);
    rec.nops = 1;
    rec.ops[0] = what;
    core.check_gm(rec);
  }
  const bool data = !core.options().model_only;
  std::ostringstream head;
  head << "=== [TPRINT " << (tile_form ? "Tile" : "GlobalTensor") << "] " << core.label() << ", after instruction #"
       << core.issued() << ": Data Type: " << print_name(tile_form ? what.tile.dtype : what.gm.dtype) << ", Layout: "
       << (tile_form ? tile_layout_name(what.tile) : what.gm.layout == Layout::ND ? "ND" : what.gm.layout == Layout::DN ? "DN" : "NZ")
       << (tile_form ? ", TileType: Vec ===\n" : " ===\n");
  std::string out = head.str();
  if (tile_form) tile(out, what.tile, format, data);
  else tensor(out, what.gm, format, data);
  if (!data) out += "  (model-only run: no values)\n";
  std::ostream& os = core.options().print ? *core.options().print : std::cout;
  const std::lock_guard<std::mutex> lock(print_mutex);
  os << out << std::flush;
}

}  // namespace pto::detail
