#include "types.hpp"

#include <cctype>
#include <map>

namespace pto::ir::detail {

bool element_dtype(const std::string& n, DType& out) {
  static const std::map<std::string, DType> names = {
      {"f16", DType::F16},       {"bf16", DType::BF16},       {"f32", DType::F32},      {"i8", DType::I8},
      {"ui8", DType::U8},        {"u8", DType::U8},           {"i16", DType::I16},      {"ui16", DType::U16},
      {"u16", DType::U16},       {"i32", DType::I32},         {"ui32", DType::U32},     {"u32", DType::U32},
      {"i64", DType::I64},       {"ui64", DType::U64},        {"u64", DType::U64},      {"f8E4M3", DType::F8E4M3},
      {"f8E4M3FN", DType::F8E4M3}, {"f8E5M2", DType::F8E5M2}, {"f8E8M0FNU", DType::F8E8M0}, {"f4E2M1FN", DType::F4E2M1},
      {"i4", DType::I4}};
  const auto it = names.find(n);
  if (it == names.end()) return false;
  out = it->second;
  return true;
}

TileView TileType_::view(int vr, int vc) const {
  TileView v;
  v.dtype = dtype;
  v.loc = loc;
  v.rows = rows;
  v.cols = cols;
  v.valid_rows = vr;
  v.valid_cols = vc;
  v.row_major = blayout == BLayout::RowMajor;
  v.row_stride = v.row_major ? cols : 1;
  v.col_stride = v.row_major ? 1 : rows;
  v.boxed = slayout != SLayout::NoneBox;
  const bool inner_row = slayout == SLayout::RowMajor;
  const int block = block_elems(dtype);
  v.inner_rows = std::int16_t(!v.boxed ? 1 : fractal == 1024 ? 16 : fractal == 32 ? (inner_row ? 16 : 2) : inner_row ? 16 : block);
  v.inner_cols = std::int16_t(!v.boxed ? 1 : fractal == 1024 ? 16 : fractal == 32 ? (inner_row ? 2 : 16) : inner_row ? block : 16);
  v.inner_row_major = slayout != SLayout::ColMajor;
  v.pad = pad;
  v.static_valid_rows = v_row != -1;
  v.static_valid_cols = v_col != -1;
  return v;
}

std::size_t TileType_::bytes() const {
  const std::size_t n = std::size_t(rows) * std::size_t(cols);
  return is_packed4(dtype) && loc != TileType::Vec ? (n + 1) / 2 : n * size_of(dtype);
}

namespace {

[[noreturn]] void bad(const Token& t, const std::string& file, const std::string& what) {
  syntax_error(file, t.line, t.col, what);
}

// "?x16xf32" -> shape {-1, 16}, element "f32".
bool shape_and_element(const std::string& s, std::vector<std::int64_t>& shape, std::string& element) {
  std::size_t at = 0;
  shape.clear();
  for (;;) {
    const std::size_t x = s.find('x', at);
    const std::string part = s.substr(at, x == std::string::npos ? std::string::npos : x - at);
    const bool dim = part == "?" || (!part.empty() && std::isdigit(static_cast<unsigned char>(part[0])));
    if (!dim) {
      element = s.substr(at);
      return !element.empty();
    }
    std::int64_t n = -1;
    if (part != "?" && (!parse_int(part, n) || n < 0 || n > (std::int64_t(1) << 40))) return false;
    shape.push_back(n);
    if (x == std::string::npos) return false;
    at = x + 1;
  }
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

TileType_ tile_buf(const Token& t, const std::string& body, const std::string& file) {
  TileType_ tt;
  std::map<std::string, std::string> kv;
  std::size_t at = 0;
  while (at < body.size()) {
    const std::size_t comma = body.find(',', at);
    const std::string item = trim(body.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
    at = comma == std::string::npos ? body.size() : comma + 1;
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) {  // the compact form: `!pto.tile_buf<left, 32x32xf32, slayout=row_major>`
      std::vector<std::int64_t> dims;
      std::string element;
      if (shape_and_element(item, dims, element) && dims.size() == 2 && dims[0] > 0 && dims[1] > 0) {
        kv["rows"] = std::to_string(dims[0]);
        kv["cols"] = std::to_string(dims[1]);
        kv["dtype"] = element;
      } else if (!kv.count("loc") && item.rfind("#pto.address_space<", 0) == 0 && item.back() == '>') {
        kv["loc"] = item.substr(19, item.size() - 20);
      } else if (!kv.count("loc") && item.find_first_of(" x") == std::string::npos) {
        kv["loc"] = item;
      } else {
        bad(t, file, "!pto.tile_buf: expected key=value, a location (vec, mat, left, ...) or ROWSxCOLSxDTYPE, found '" + item + "'");
      }
      continue;
    }
    kv[trim(item.substr(0, eq))] = trim(item.substr(eq + 1));
  }
  auto need = [&](const char* k) -> const std::string& {
    const auto it = kv.find(k);
    if (it == kv.end()) bad(t, file, std::string("!pto.tile_buf: missing key '") + k + "'");
    return it->second;
  };
  auto number = [&](const char* k, bool dyn) -> int {
    const std::string& v = need(k);
    if (dyn && v == "?") return -1;
    std::int64_t n = 0;
    if (parse_int(v, n) && n >= -1 && n <= 65535) return int(n);
    bad(t, file, std::string("!pto.tile_buf: ") + k + "=" + v + " is not " + (dyn ? "an integer or '?'" : "an integer"));
  };
  static const std::map<std::string, TileType> locs = {{"vec", TileType::Vec},     {"ub", TileType::Vec},    {"mat", TileType::Mat},
                                                       {"left", TileType::Left},   {"right", TileType::Right}, {"acc", TileType::Acc},
                                                       {"bias", TileType::Bias},   {"scaling", TileType::Scaling}};
  const std::string& loc = need("loc");
  const auto li = locs.find(loc);
  if (li == locs.end()) bad(t, file, "!pto.tile_buf: loc=" + loc + " is not one of vec, mat, left, right, acc, bias, scaling");
  tt.loc = li->second;
  if (!element_dtype(need("dtype"), tt.dtype)) bad(t, file, "!pto.tile_buf: dtype=" + need("dtype") + " is not an element type");
  tt.rows = number("rows", false);
  tt.cols = number("cols", false);
  tt.v_row = kv.count("v_row") ? number("v_row", true) : tt.rows;
  tt.v_col = kv.count("v_col") ? number("v_col", true) : tt.cols;
  if (tt.rows <= 0 || tt.cols <= 0) bad(t, file, "!pto.tile_buf: rows and cols must be positive");
  if (tt.v_row > tt.rows || tt.v_col > tt.cols || tt.v_row < -1 || tt.v_col < -1)
    bad(t, file, "!pto.tile_buf: v_row / v_col must be '?' or within rows / cols");
  if (kv.count("blayout")) {
    const std::string& b = kv["blayout"];
    if (b == "row_major") tt.blayout = BLayout::RowMajor;
    else if (b == "col_major") tt.blayout = BLayout::ColMajor;
    else bad(t, file, "!pto.tile_buf: blayout=" + b + " is not row_major or col_major");
  }
  if (kv.count("slayout")) {
    const std::string& sl = kv["slayout"];
    if (sl == "none_box") tt.slayout = SLayout::NoneBox;
    else if (sl == "row_major") tt.slayout = SLayout::RowMajor;
    else if (sl == "col_major") tt.slayout = SLayout::ColMajor;
    else bad(t, file, "!pto.tile_buf: slayout=" + sl + " is not none_box, row_major or col_major");
  }
  if (kv.count("fractal")) tt.fractal = number("fractal", false);
  if (tt.fractal != 512 && tt.fractal != 1024 && tt.fractal != 32) bad(t, file, "!pto.tile_buf: fractal must be 512, 1024 or 32");
  if (kv.count("pad")) {
    static const std::map<std::string, PadValue> pads = {{"0", PadValue::Null}, {"null", PadValue::Null}, {"1", PadValue::Zero},
                                                         {"zero", PadValue::Zero}, {"2", PadValue::Max}, {"max", PadValue::Max},
                                                         {"3", PadValue::Min},  {"min", PadValue::Min}};
    const auto p = pads.find(kv["pad"]);
    if (p == pads.end()) bad(t, file, "!pto.tile_buf: pad=" + kv["pad"] + " is not 0-3 or null, zero, max, min");
    tt.pad = p->second;
  }
  return tt;
}

// `memref<16x16xf16, #pto.address_space<vec>>` (PTOAS's bufferized form): in GM a tensor view (static
// shape; row-major strides, or `strided<[s0, s1], offset: 0>`), in UB a RowMajor NoneBox Vec tile of the
// leading dimensions' product rows and the last one's columns. The cube memories' memrefs carry no tile
// layout, so they are an error that says to write the !pto.tile_buf.
Type memref(const Token& t, const std::string& body, const std::string& file) {
  Type ty;
  ty.text = t.text;
  std::vector<std::string> items;
  int depth = 0;
  std::string cur;
  for (char c : body) {
    if (c == '<' || c == '[') ++depth;
    if (c == '>' || c == ']') --depth;
    if (c == ',' && depth == 0) items.push_back(trim(cur)), cur.clear();
    else cur += c;
  }
  items.push_back(trim(cur));
  std::string element, space = "gm";
  if (!shape_and_element(items[0], ty.shape, element) || !element_dtype(element, ty.dtype) || ty.shape.empty() || ty.shape.size() > 5)
    bad(t, file, "memref<" + body + ">: expected 1 to 5 dimensions and an element type, such as 16x16xf16");
  for (std::size_t k = 1; k < items.size(); ++k) {
    const std::string& it = items[k];
    if (it.rfind("#pto.address_space<", 0) == 0) {
      space = it.substr(19, it.size() - 20);
    } else if (it.rfind("strided<[", 0) == 0) {
      const std::string list = it.substr(9, it.find(']') - 9);
      std::size_t at = 0;
      for (;;) {
        const std::size_t comma = list.find(',', at);
        const std::string v = trim(list.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
        std::int64_t n = -1;
        if (v != "?" && !parse_int(v, n)) bad(t, file, "memref: stride '" + v + "' is not an integer or '?'");
        ty.strides.push_back(n);
        if (comma == std::string::npos) break;
        at = comma + 1;
      }
      const std::size_t off = it.find("offset:");
      if (off != std::string::npos && trim(it.substr(off + 7, it.size() - off - 8)) != "0" && trim(it.substr(off + 7, it.size() - off - 8)) != "?")
        bad(t, file, "memref: a static nonzero offset is not supported (address the base pointer instead)");
      if (ty.strides.size() != ty.shape.size()) bad(t, file, "memref: strided<[...]> needs one stride per dimension");
    } else {
      bad(t, file, "memref: '" + it + "' is not an address space or a strided layout pto-run reads");
    }
  }
  if (space == "gm") {
    ty.kind = Type::Kind::TensorView;
    return ty;
  }
  if (space != "vec" && space != "ub")
    bad(t, file, "memref in " + space + ": a cube memory's tile has a layout the memref does not say; write !pto.tile_buf<loc=" + space +
                     ", ...> with its blayout / slayout");
  std::int64_t rows = 1;
  for (std::size_t k = 0; k < ty.shape.size(); ++k) {
    const std::int64_t d = ty.shape[k];
    if (d <= 0 || d > 65535) bad(t, file, "memref: a tile's dimensions must be static, positive and at most 65535");
    if (k + 1 < ty.shape.size() && (rows *= d) > 65535) bad(t, file, "memref: too many rows for a tile (the leading dimensions' product)");
  }
  ty.kind = Type::Kind::Tile;
  ty.tile.loc = TileType::Vec;
  ty.tile.dtype = ty.dtype;
  ty.tile.rows = ty.tile.v_row = int(rows);
  ty.tile.cols = ty.tile.v_col = int(ty.shape.back());
  ty.shape.clear();
  return ty;
}

}  // namespace

Type parse_type(const Token& t, const std::string& file) {
  Type ty;
  ty.text = t.text;
  if (t.kind == Token::Kind::Ident) {
    const std::string& n = t.text;
    if (n == "index") {
      ty.kind = Type::Kind::Index;
      return ty;
    }
    if (n == "f16" || n == "bf16" || n == "f32" || n == "f64") {
      ty.kind = Type::Kind::Float;
      ty.bits = n == "f64" ? 64 : n == "f32" ? 32 : 16;
      ty.dtype = n == "f16" ? DType::F16 : n == "bf16" ? DType::BF16 : DType::F32;
      return ty;
    }
    const bool u = n.rfind("ui", 0) == 0;
    if ((n.size() > 1 && n[0] == 'i') || u) {
      const std::string digits = n.substr(u ? 2 : 1);
      if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos) {
        ty.kind = Type::Kind::Int;
        std::int64_t bits = 0;
        if (!parse_int(digits, bits)) bits = -1;
        ty.bits = int(bits);
        ty.is_unsigned = u;
        if (ty.bits != 1 && ty.bits != 8 && ty.bits != 16 && ty.bits != 32 && ty.bits != 64)
          bad(t, file, "integer type " + n + ": widths 1, 8, 16, 32 and 64 are supported");
        return ty;
      }
    }
    bad(t, file, "unknown type '" + n + "'");
  }
  if (t.kind != Token::Kind::Type) bad(t, file, "expected a type, found '" + t.text + "'");
  const std::string& s = t.text;
  const std::size_t lt = s.find('<');
  const std::string head = s.substr(0, lt);
  const std::string body = lt == std::string::npos ? "" : s.substr(lt + 1, s.size() - lt - 2);
  std::string element;
  if (head == "!pto.ptr") {
    ty.kind = Type::Kind::Ptr;
    if (!element_dtype(trim(body), ty.dtype)) bad(t, file, "!pto.ptr<" + body + ">: unknown element type");
    return ty;
  }
  if (head == "!pto.tensor_view" || head == "!pto.partition_tensor_view") {
    ty.kind = head == "!pto.tensor_view" ? Type::Kind::TensorView : Type::Kind::PartitionView;
    if (!shape_and_element(trim(body), ty.shape, element) || !element_dtype(element, ty.dtype))
      bad(t, file, head + "<" + body + ">: expected dims and an element type, such as ?x?xf32");
    if (ty.shape.empty() || ty.shape.size() > 5) bad(t, file, head + ": 1 to 5 dimensions are supported");
    return ty;
  }
  if (head == "memref") return memref(t, body, file);
  if (head == "!pto.tile_buf") {
    ty.kind = Type::Kind::Tile;
    ty.tile = tile_buf(t, body, file);
    ty.dtype = ty.tile.dtype;
    return ty;
  }
  bad(t, file, "unknown type '" + head + "' (pto-run knows index, iN, f16, bf16, f32, !pto.ptr, !pto.tensor_view, "
               "!pto.partition_tensor_view, !pto.tile_buf and memref)");
}

std::string type_name(const Type& t) { return t.text; }

}  // namespace pto::ir::detail
