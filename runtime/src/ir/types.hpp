// The types of PTO IR values (docs/pto-run.md): scalars (index, i1 ... i64, f16, bf16, f32), GM pointers
// (!pto.ptr<T>), tensor views (!pto.tensor_view<?x?xT>, !pto.partition_tensor_view<16x64xT>) and tile
// buffers (!pto.tile_buf<loc=vec, dtype=f32, rows=32, cols=32, v_row=?, ...>, keys in any order).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <pto/isa/dtype.hpp>
#include <pto/isa/enums.hpp>
#include <pto/isa/views.hpp>

#include "syntax.hpp"

namespace pto::ir::detail {

struct TileType_ {
  TileType loc = TileType::Vec;
  DType dtype = DType::F32;
  int rows = 0, cols = 0;
  int v_row = 0, v_col = 0;  // -1: dynamic ('?')
  BLayout blayout = BLayout::RowMajor;
  SLayout slayout = SLayout::NoneBox;
  int fractal = 512;
  PadValue pad = PadValue::Null;
  // The view a Tile of this type has (Tile::view()), valid shape `vr` x `vc`, at no address yet.
  TileView view(int vr, int vc) const;
  std::size_t bytes() const;
};

struct Type {
  enum class Kind : std::uint8_t { Index, Int, Float, Ptr, TensorView, PartitionView, Tile, None };
  Kind kind = Kind::None;
  int bits = 64;              // Int / Float: width (i1: 1)
  bool is_unsigned = false;   // ui8 ...
  DType dtype = DType::F32;   // Ptr, views, Tile: element type; Float: F16 / BF16 / F32 (f64: F32, bits 64)
  std::vector<std::int64_t> shape;  // views: -1 where '?'
  std::vector<std::int64_t> strides;  // a GM memref's strided<[...]> (-1 where '?'); empty: row-major
  TileType_ tile;
  std::string text;           // as written
  bool scalar() const { return kind == Kind::Index || kind == Kind::Int || kind == Kind::Float; }
};

// Parses one type token (an Ident such as `index` or `f32`, or a `!pto...` Type); throws
// `file:line:col: error:` naming what it does not know.
Type parse_type(const Token& t, const std::string& file);
// An element type name (f32, bf16, i8, ui16, f8E4M3FN, ...): its DType, or false.
bool element_dtype(const std::string& name, DType& out);
std::string type_name(const Type& t);  // "index", "f32", "!pto.tile_buf<...>" (as written)

}  // namespace pto::ir::detail
