// Type-erased, non-owning descriptions of operands (CuTe habit: a layout is a value).
// The public templates turn a Tile / GlobalTensor into one of these; backends, the scheduler and the
// dependency tracker read only these, so no kernel template reaches a compiled .cpp file.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ostream>

#include <pto/isa/dtype.hpp>
#include <pto/isa/enums.hpp>

namespace pto {

// Half-open range of host addresses [lo, hi). UB, GM and auto-mode tile storage are all host memory,
// so one address space serves dependency tracking and snapshotting alike.
struct ByteRange {
  std::uintptr_t lo = 0, hi = 0;
  constexpr bool empty() const { return hi <= lo; }
  constexpr bool overlaps(const ByteRange& o) const { return !empty() && !o.empty() && lo < o.hi && o.lo < hi; }
  constexpr std::size_t size() const { return empty() ? 0 : hi - lo; }
};

struct TileView {
  std::byte* base = nullptr;     // host address of element (0,0)
  std::uint32_t offset = 0;      // byte offset inside its buffer (for messages and traces)
  DType dtype = DType::F32;
  TileType loc = TileType::Vec;
  int rows = 0, cols = 0;        // capacity
  int valid_rows = 0, valid_cols = 0;
  int row_stride = 0, col_stride = 0;  // in elements
  bool row_major = true;
  bool boxed = false;
  PadValue pad = PadValue::Null;
  // Whether the tile type fixes the valid rows / columns (its ValidRow / ValidCol are not -1). The
  // device algorithms choose some paths from the type, as PTO's do from `Cols == ValidCol` (false for a
  // dynamic valid shape whatever its runtime value). Tile::view() sets them; a hand-made view is dynamic.
  bool static_valid_rows = false, static_valid_cols = false;
  // Boxed tiles: the fractal's shape and the order inside one (spec §1.2 GetTileOffset; boxed_offset).
  std::int16_t inner_rows = 1, inner_cols = 1;
  bool inner_row_major = true;

  // PTO's static tests `TileData::Cols == TileData::ValidCol` / `Rows == ValidRow`.
  bool static_full_cols() const { return static_valid_cols && valid_cols == cols; }
  bool static_full_rows() const { return static_valid_rows && valid_rows == rows; }
  std::size_t elem_bytes() const { return size_of(dtype); }
  // The 4-bit types in a cube tile: packed by element offset, offset o in nibble o % 2 of byte o / 2
  // (Tile::kNibbles); in a Vec tile a byte per element of capacity.
  bool nibbles() const { return is_packed4(dtype) && loc != TileType::Vec; }
  std::size_t capacity_bytes() const {
    const std::size_t n = std::size_t(rows) * std::size_t(cols);
    return nibbles() ? (n + 1) / 2 : n * elem_bytes();
  }
  // Bytes from base to the byte holding element (r, c).
  std::ptrdiff_t byte_offset(int r, int c) const {
    return nibbles() ? elem_offset(r, c) / 2 : elem_offset(r, c) * std::ptrdiff_t(elem_bytes());
  }
  std::ptrdiff_t elem_offset(int r, int c) const {
    if (!boxed) [[likely]]
      return std::ptrdiff_t(r) * row_stride + std::ptrdiff_t(c) * col_stride;
    return boxed_offset(r, c);
  }
  // Element offset of (r, c) in a boxed tile (Tile::GetTileOffset): fractals of inner_rows x
  // inner_cols, in column order for NZ (ColMajor fractals, each RowMajor), else in row order; each
  // row- or column-major inside.
  // NZ's column blocks are Rows * C0 elements apart, whatever Rows (a Vec NZ tile needs no multiple of 16).
  // A 1-row tile (GEMV's vector, its MX scales) is contiguous.
  std::ptrdiff_t boxed_offset(int r, int c) const {
    const std::ptrdiff_t ir = rows == 1 ? 1 : inner_rows, ic = inner_cols, n = ir * ic;
    if (!row_major && inner_row_major) return std::ptrdiff_t(c / ic) * rows * ic + std::ptrdiff_t(r) * ic + c % ic;
    const std::ptrdiff_t br = r / ir, bc = c / ic, i = r % ir, j = c % ic;
    return (br * (cols / ic) + bc) * n + (inner_row_major ? i * ic + j : j * ir + i);
  }
  template <class T> T* ptr(int r, int c) const { return reinterpret_cast<T*>(base) + elem_offset(r, c); }
  // @post every byte an in-range (r < valid_rows, c < valid_cols) element occupies lies inside the result
  ByteRange footprint() const {
    if (valid_rows <= 0 || valid_cols <= 0) return {};
    auto lo = reinterpret_cast<std::uintptr_t>(base);
    std::size_t last = std::size_t(elem_offset(valid_rows - 1, valid_cols - 1));
    return {lo, lo + (nibbles() ? last / 2 + 1 : (last + 1) * elem_bytes())};
  }
};

// A 4-bit element of packed storage (a cube tile's, GM's): element offset o is nibble o % 2 of byte o / 2.
inline std::uint8_t nibble_get(const std::byte* base, std::int64_t o) {
  return std::uint8_t((unsigned(base[o / 2]) >> (4 * (o % 2))) & 0xF);
}
inline void nibble_set(std::byte* base, std::int64_t o, std::uint8_t v) {
  const unsigned b = unsigned(base[o / 2]);
  base[o / 2] = std::byte(o % 2 ? (b & 0x0F) | unsigned(v & 0xF) << 4 : (b & 0xF0) | unsigned(v & 0xF));
}

// A tile's valid region as lines: the rows of a RowMajor tile, the columns of a ColMajor one (one loop
// shape serves both layouts). cap_*: the same of the tile's capacity; step: elements between lines;
// static_full: the type fixes the line length to cap_len (static_full_cols / _rows).
struct TileLines {
  int count, len, cap_count, cap_len;
  std::ptrdiff_t step;
  bool static_full;
};
inline TileLines lines_of(const TileView& t) {
  if (t.row_major) return {t.valid_rows, t.valid_cols, t.rows, t.cols, t.row_stride, t.static_full_cols()};
  return {t.valid_cols, t.valid_rows, t.cols, t.rows, t.col_stride, t.static_full_rows()};
}

struct GmView {
  std::byte* base = nullptr;
  DType dtype = DType::F32;
  Layout layout = Layout::ND;
  std::int64_t shape[5] = {1, 1, 1, 1, 1};
  std::int64_t stride[5] = {1, 1, 1, 1, 1};

  // Element offset of tile coordinate (r, c) (spec §1.4, CPU MapTileIndicesToGlobalOffset). NZ: rows
  // over dims 2 and 3 (fractal rows of shape[3] = 16), columns over dims 0, 1 and 4 (C0 = shape[4]).
  std::int64_t map(std::int64_t r, std::int64_t c) const {
    std::int64_t i[5];
    if (is_mx_scale(layout)) return mx_map(r, c);
    if (is_conv_output(layout)) return conv_map(r, c);
    if (layout == Layout::NZ) {
      i[3] = r % shape[3];
      i[2] = r / shape[3];
      i[4] = c % shape[4];
      i[1] = (c / shape[4]) % shape[1];
      i[0] = c / (shape[4] * shape[1]);
    } else if (layout == Layout::DN) {
      i[3] = r;
      i[4] = c % shape[4];
      i[2] = (c / shape[4]) % shape[2];
      i[1] = (c / (shape[4] * shape[2])) % shape[1];
      i[0] = c / (shape[4] * shape[2] * shape[1]);
    } else {  // ND
      i[4] = c;
      i[3] = r % shape[3];
      i[2] = (r / shape[3]) % shape[2];
      i[1] = (r / (shape[3] * shape[2])) % shape[1];
      i[0] = r / (shape[3] * shape[2] * shape[1]);
    }
    std::int64_t off = 0;
    for (int k = 0; k < 5; ++k) off += i[k] * stride[k];
    return off;
  }
  // The MX scale layouts (pto-isa's TileShape2D / BaseShape2D for them): A's scales are M x kMX, B's kMX x
  // N, in pairs of K groups (dim 4 is 2); A ZZ / B NN: fractals of 16 rows (columns) by 2.
  static constexpr bool is_mx_scale(Layout l) {
    return l == Layout::MX_A_ZZ || l == Layout::MX_A_ND || l == Layout::MX_A_DN || l == Layout::MX_B_NN ||
           l == Layout::MX_B_ND || l == Layout::MX_B_DN;
  }
  std::int64_t mx_map(std::int64_t r, std::int64_t c) const {
    std::int64_t i[5] = {0, 0, 0, 0, 0};
    switch (layout) {
      case Layout::MX_A_ZZ: i[1] = r / shape[3], i[3] = r % shape[3], i[2] = c / 2, i[4] = c % 2; break;
      case Layout::MX_A_ND: i[2] = r, i[3] = c / 2, i[4] = c % 2; break;
      case Layout::MX_A_DN: i[3] = r, i[2] = c / 2, i[4] = c % 2; break;
      case Layout::MX_B_NN: i[1] = c / shape[3], i[3] = c % shape[3], i[2] = r / 2, i[4] = r % 2; break;
      case Layout::MX_B_ND: i[3] = c, i[2] = r / 2, i[4] = r % 2; break;
      default: i[2] = c, i[3] = r / 2, i[4] = r % 2; break;  // MX_B_DN
    }
    std::int64_t off = 0;
    for (int k = 0; k < 5; ++k) off += i[k] * stride[k];
    return off;
  }
  // The fixpipe's convolution outputs (TSTORE Acc -> GM; docs/cube.md "Convolution outputs"): A2A3's
  // NC1HWC0 [N, C1, H, W, C0] and NDC1HWC0 [N, D, C1, H, W] (C0 implied by the dtype), A5's NHWC
  // [1, N, H, W, C], NCHW [-, N, C, H, W] and NCDHW [N, C, D, H, W]. Acc row r runs over (n, h, w),
  // column c over the channels. The chips compute the addresses from the shapes and one pitch (the
  // strides named below), as a dense tensor of N = 1 lays them out; N > 1 keeps the same formulas.
  static constexpr bool is_conv_output(Layout l) {
    return l == Layout::NC1HWC0 || l == Layout::NDC1HWC0 || l == Layout::NHWC || l == Layout::NCHW || l == Layout::NCDHW;
  }
  // NDC1HWC0's C0 (a2a3 tstore_common.hpp): 16 int32s, else 32 bytes' elements (8 floats).
  std::int64_t conv_c0() const {
    if (layout == Layout::NC1HWC0) return shape[4];
    return dtype == DType::I32 ? 16 : std::int64_t(32 / size_of(dtype));
  }
  std::int64_t conv_map(std::int64_t r, std::int64_t c) const {
    switch (layout) {
      case Layout::NC1HWC0: case Layout::NDC1HWC0: {  // C0-blocks of every row, block after block
        const std::int64_t c0 = conv_c0();
        const std::int64_t pitch = layout == Layout::NC1HWC0 ? shape[0] * (stride[1] / stride[3]) * c0 : shape[0] * (stride[2] / stride[4]) * c0;
        return (c / c0) * pitch + r * c0 + c % c0;
      }
      case Layout::NHWC: return r * stride[3] + c;  // rows stride[3] apart
      case Layout::NCHW: return c * stride[2] + r;  // channel planes stride[2] apart
      default: return c * stride[1] + r;            // NCDHW: one D plane, channels stride[1] apart
    }
  }
  // Rows and columns a matching tile's valid region must have (spec §1.4 consistency rule).
  std::int64_t tile_rows() const {
    switch (layout) {
      case Layout::NC1HWC0: return shape[0] * shape[2] * shape[3];
      case Layout::NDC1HWC0: case Layout::NCDHW: return shape[0] * shape[3] * shape[4];
      case Layout::NHWC: return shape[1] * shape[2] * shape[3];
      case Layout::NCHW: return shape[1] * shape[3] * shape[4];
      case Layout::MX_A_ZZ: return shape[1] * shape[3];
      case Layout::MX_A_ND: return shape[2];
      case Layout::MX_A_DN: return shape[3];
      case Layout::MX_B_NN: case Layout::MX_B_ND: return shape[2] * 2;
      case Layout::MX_B_DN: return shape[3] * 2;
      default: break;
    }
    if (layout == Layout::NZ) return shape[2] * shape[3];
    return layout == Layout::DN ? shape[3] : shape[0] * shape[1] * shape[2] * shape[3];
  }
  std::int64_t tile_cols() const {
    switch (layout) {
      case Layout::NC1HWC0: return shape[1] * shape[4];
      case Layout::NDC1HWC0: return shape[1] * shape[2] * conv_c0();
      case Layout::NHWC: return shape[4];
      case Layout::NCHW: return shape[2];
      case Layout::NCDHW: return shape[1];
      case Layout::MX_A_ZZ: case Layout::MX_A_DN: return shape[2] * 2;
      case Layout::MX_A_ND: return shape[3] * 2;
      case Layout::MX_B_NN: return shape[1] * shape[3];
      case Layout::MX_B_ND: return shape[3];
      case Layout::MX_B_DN: return shape[2];
      default: break;
    }
    if (layout == Layout::NZ) return shape[0] * shape[1] * shape[4];
    return layout == Layout::DN ? shape[0] * shape[1] * shape[2] * shape[4] : shape[4];
  }
  // Bounding box of every element the tensor maps (strides may be negative only in theory; we reject that).
  ByteRange footprint() const {
    std::int64_t last = 0;
    for (int k = 0; k < 5; ++k) last += (shape[k] - 1) * stride[k];
    if (is_conv_output(layout) && tile_rows() > 0 && tile_cols() > 0)  // the formulas grow with r and c
      last = std::max(last, conv_map(tile_rows() - 1, tile_cols() - 1));
    auto lo = reinterpret_cast<std::uintptr_t>(base);
    if (is_packed4(dtype)) return {lo, lo + std::uintptr_t(last / 2 + 1)};  // two elements a byte
    return {lo, lo + std::uintptr_t(last + 1) * size_of(dtype)};
  }
};

inline std::ostream& operator<<(std::ostream& os, const TileView& t) {
  os << "Tile<" << name_of(t.loc) << ',' << name_of(t.dtype) << ',' << t.rows << ',' << t.cols
     << (t.row_major ? "" : ",ColMajor");
  if (t.boxed) os << (!t.row_major && t.inner_row_major ? ",NZ" : t.row_major && !t.inner_row_major ? ",ZN" : ",boxed");
  os << "> valid " << t.valid_rows << 'x' << t.valid_cols;
  return os;
}
inline std::ostream& operator<<(std::ostream& os, const GmView& g) {
  static constexpr const char* names[] = {"ND", "DN", "NZ", "SCALE", "MX_A_ND", "MX_A_DN", "MX_A_ZZ", "MX_B_ND", "MX_B_DN",
                                          "MX_B_NN", "HIF4_A_ZZ", "HIF4_B_NN", "NC1HWC0", "GNC1HWC0", "NCHW", "GNCHW", "NHWC",
                                          "NDC1HWC0", "NCDHW", "FRACTAL_Z", "FRACTAL_Z_S16S8", "FRACTAL_Z_3D"};
  const int li = int(g.layout);
  os << "GlobalTensor<" << name_of(g.dtype) << ',' << (li >= 0 && li < int(Layout::MAX) ? names[li] : "?")
     << "> shape(" << g.shape[0] << ',' << g.shape[1] << ',' << g.shape[2] << ',' << g.shape[3] << ',' << g.shape[4]
     << ") stride(" << g.stride[0] << ',' << g.stride[1] << ',' << g.stride[2] << ',' << g.stride[3] << ','
     << g.stride[4] << ')';
  return os;
}

}  // namespace pto
