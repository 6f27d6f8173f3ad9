// Gathers, layouts and generators in PTO IR (docs/pto-run.md): TGATHER (index and mask-pattern forms),
// TSCATTER (index and mask-pattern forms), TGATHERB (gather.hpp), TDEQUANT (quant.hpp), TTRANS and TCONCAT (layout.hpp), TRESHAPE (rebind.hpp), TCI, TTRI and TRANDOM
// (generate.hpp), THISTOGRAM (histogram.hpp) and TAXPY (tile_scalar.hpp). Each builds the record its C++
// function builds and runs that family's view-level checks; the static rules are checked on the types.
#include <cstdint>
#include <string>

#include <pto/runtime/gather.hpp>
#include <pto/runtime/generate.hpp>
#include <pto/runtime/histogram.hpp>
#include <pto/runtime/layout.hpp>
#include <pto/runtime/quant.hpp>
#include <pto/runtime/rebind.hpp>
#include <pto/runtime/tile_scalar.hpp>

#include "pto_ops.hpp"

namespace pto::ir::detail {

namespace {

using pto::detail::Core;


// The attributes of the statement and of its operands, one map.
std::map<std::string, std::string> all_attrs(Cursor& cur) {
  auto a = cur.attr_dict();
  for (const auto& m : cur.operand_attrs()) a.insert(m.begin(), m.end());
  return a;
}
// An integer attribute `key = N : i32` (or `key = true / false`), or `fallback`.
std::int64_t int_attr(Cursor& cur, std::map<std::string, std::string>& a, const char* key, std::int64_t fallback) {
  if (!a.count(key)) return fallback;
  const std::string v = a[key].substr(0, a[key].find(':'));
  if (v == "true") return 1;
  if (v == "false") return 0;
  std::int64_t n = 0;
  if (!parse_int(v, n)) cur.error(std::string(key) + " = " + a[key] + ": expected an integer or true / false");
  return n;
}

// ---- TGATHER: ins(%src, %indices, %tmp) outs(%dst); ins(%src {maskPattern = #pto.mask_pattern<P0101>}) --

bool pattern_of(const std::string& v, MaskPattern& p) {
  static const std::pair<const char*, MaskPattern> names[] = {{"P0101", MaskPattern::P0101}, {"P1010", MaskPattern::P1010},
                                                              {"P0001", MaskPattern::P0001}, {"P0010", MaskPattern::P0010},
                                                              {"P0100", MaskPattern::P0100}, {"P1000", MaskPattern::P1000},
                                                              {"P1111", MaskPattern::P1111}};
  for (const auto& [n, m] : names)
    if (v.find(n) != std::string::npos) return p = m, true;
  return false;
}
void exec_gather(Frame& f, const Op& op) {
  if (op.ints[0] < 0) {
    run_instr(f, op, 4, [](Core&, InstrRecord& r, Target t) { pto::detail::gather_index_checks(r, t); });
  } else {
    run_instr(f, op, 2, [&](Core&, InstrRecord& r, Target t) {
      pto::detail::gather_mask_checks(r, t, MaskPattern(op.ints[0]), op.ints[1] != 0);
    });
  }
}
void c_gather(Compiler&, Cursor& cur, Op& op) {
  op.desc = &pto::desc_of<pto::Op::TGATHER>();
  std::vector<int> ins, outs;
  std::vector<Type> in_t, out_t;
  cur.ins_outs(ins, in_t, outs, out_t);
  for (const Type& t : in_t)
    if (t.scalar()) cur.error("TGATHER's compare form (a scalar kValue, a cdst) is A5's compare-gather; pto-runtime does not implement it");
  if (outs.size() != 1 || out_t[0].kind != Type::Kind::Tile) cur.error("takes one tile in outs (dst)");
  op.in = outs;
  op.in.insert(op.in.end(), ins.begin(), ins.end());
  op.types = out_t;
  op.types.insert(op.types.end(), in_t.begin(), in_t.end());
  auto attrs = all_attrs(cur);
  const Rules r{cur, op.desc->name};
  if (op.types.size() == 2) {  // the mask-pattern form
    MaskPattern p = MaskPattern::P1111;
    if (!attrs.count("maskPattern") || !pattern_of(attrs["maskPattern"], p))
      cur.error("the mask form needs {maskPattern = #pto.mask_pattern<P0101>} (P0101, P1010, P0001, P0010, P0100, P1000 or P1111)");
    vec_nd(r, op.types[0], "dst");
    vec_nd(r, op.types[1], "src");
    if (size_of(op.types[0].tile.dtype) != size_of(op.types[1].tile.dtype)) cur.error("TGATHER: dst and src must have elements of one size");
    const std::int64_t col = attrs.count("axis") && attrs["axis"].find("col") != std::string::npos;
    op.ints = {std::int64_t(p), col};
  } else if (op.types.size() == 4 && op.in.size() == 4) {  // dst, src0, indices, tmp
    for (std::size_t k = 0; k < 4; ++k) r.vec(op.types[k], op.desc->operands[k].name);
    vec_nd(r, op.types[0], "dst"), vec_nd(r, op.types[1], "src0"), r.row_major(op.types[2], "indices");
    r.same_dtype(op.types[0], "dst", op.types[1], "src0");
    const DType i = op.types[2].tile.dtype;
    if (!is_integer(i) || (size_of(i) != 2 && size_of(i) != 4)) cur.error("TGATHER: indices must be a 16- or 32-bit integer tile");
    op.ints = {-1, 0};
  } else {
    cur.error("takes ins(src, indices, tmp) outs(dst), or ins(src {maskPattern = ...}) outs(dst)");
  }
  op.exec = exec_gather;
}

// ---- TSCATTER: ins(%src, %indexes) outs(%dst) or ins(%src, {maskPattern = ...}); TGATHERB: ins(%src,
// ---- %offset) outs(%dst); TDEQUANT: ins(%src, %scale, %offset) outs(%dst) ----------------------------------

void exec_scatter(Frame& f, const Op& op) {
  if (op.ints[0] < 0) {
    run_instr(f, op, 3, [](Core&, InstrRecord& r, Target t) { pto::detail::scatter_index_checks(r, t); });
  } else {
    run_instr(f, op, 2, [&](Core&, InstrRecord& r, Target t) {
      pto::detail::scatter_mask_checks(r, t, MaskPattern(op.ints[0]), op.ints[1] != 0);
    });
  }
}
void c_scatter(Compiler&, Cursor& cur, Op& op) {
  op.desc = &pto::desc_of<pto::Op::TSCATTER>();
  operands(cur, op, 1, 2, {});
  auto attrs = all_attrs(cur);
  const Rules r{cur, op.desc->name};
  for (std::size_t k = 0; k < op.types.size(); ++k) vec_nd(r, op.types[k], op.desc->operands[k].name);
  r.same_dtype(op.types[0], "dst", op.types[1], "src");
  if (op.types.size() == 3) {
    const DType i = op.types[2].tile.dtype;
    const std::size_t es = size_of(op.types[0].tile.dtype), is = size_of(i);
    if (!is_integer(i) || (is != 2 && is != 4)) cur.error("TSCATTER: indexes must be a 16- or 32-bit integer tile");
    if (!((es == 4 && is == 4) || (es == 2 && is == 2) || (es == 1 && is == 2) || (es == 8 && is == 4)))
      cur.error("TSCATTER: data and index sizes must be 4 and 4, 2 and 2, 1 and 2 bytes, or 8 and 4 on A5 (the NPUs' rule)");
    op.ints = {-1, 0};
  } else {
    MaskPattern p = MaskPattern::P1111;
    if (!attrs.count("maskPattern") || !pattern_of(attrs["maskPattern"], p))
      cur.error("the mask form needs {maskPattern = #pto.mask_pattern<P0101>} (P0101, P1010, P0001, P0010, P0100, P1000 or P1111)");
    op.ints = {std::int64_t(p), attrs.count("axis") && attrs["axis"].find("col") != std::string::npos};
  }
  op.exec = exec_scatter;
}

void exec_gatherb(Frame& f, const Op& op) {
  run_instr(f, op, 3, [](Core&, InstrRecord& r, Target t) { pto::detail::gatherb_checks(r, t); });
}
void c_gatherb(Compiler&, Cursor& cur, Op& op) {
  op.desc = &pto::desc_of<pto::Op::TGATHERB>();
  operands(cur, op, 2, 2, {});
  cur.attr_dict();
  const Rules r{cur, op.desc->name};
  for (std::size_t k = 0; k < 3; ++k) vec_nd(r, op.types[k], op.desc->operands[k].name);
  const std::size_t es = size_of(op.types[0].tile.dtype);
  if (es != 1 && es != 2 && es != 4) cur.error("TGATHERB: dst's elements must be 1, 2 or 4 bytes");
  if (!is_integer(op.types[2].tile.dtype) || size_of(op.types[2].tile.dtype) != 4)
    cur.error("TGATHERB: offset holds 32-bit byte offsets, one per 32-byte block of dst");
  op.exec = exec_gatherb;
}

void exec_dequant(Frame& f, const Op& op) {
  run_instr(f, op, 4, [](Core&, InstrRecord& r, Target) { pto::detail::dequant_checks(r); });
}
void c_dequant(Compiler&, Cursor& cur, Op& op) {
  op.desc = &pto::desc_of<pto::Op::TDEQUANT>();
  operands(cur, op, 3, 3, {});
  cur.attr_dict();
  const Rules r{cur, op.desc->name};
  vec_nd(r, op.types[0], "dst"), vec_nd(r, op.types[1], "src"), r.vec(op.types[2], "scale"), r.vec(op.types[3], "offset");
  if (op.types[0].tile.dtype != DType::F32) cur.error("TDEQUANT: dst must be float (fp32)");
  if (op.types[1].tile.dtype != DType::I8 && op.types[1].tile.dtype != DType::I16) cur.error("TDEQUANT: src must be int8 or int16");
  for (std::size_t k : {2u, 3u})
    if (op.types[k].tile.dtype != DType::F32 || op.types[k].tile.slayout != SLayout::NoneBox)
      cur.error("TDEQUANT: scale and offset must be float NoneBox Vec tiles (dst's dtype)");
  const TileType_ &sa = op.types[2].tile, &sb = op.types[3].tile;
  if (sa.rows != sb.rows || sa.cols != sb.cols || sa.blayout != sb.blayout) cur.error("TDEQUANT: scale and offset must be tiles of one type");
  op.exec = exec_dequant;
}

// ---- TTRANS: ins(%src, %tmp) outs(%dst); TCONCAT: ins(%a, %b[, %aIdx, %bIdx]) outs(%dst[, %dstIdx]) -----

void exec_ttrans(Frame& f, const Op& op) {
  run_instr(f, op, 3, [](Core&, InstrRecord& r, Target t) { pto::detail::ttrans_checks(r, t); });
}
void c_ttrans(Compiler&, Cursor& cur, Op& op) {
  op.desc = &pto::desc_of<pto::Op::TTRANS>();
  operands(cur, op, 2, 2, {});
  cur.attr_dict();
  const Rules r{cur, op.desc->name};
  for (std::size_t k = 0; k < 3; ++k) vec_nd(r, op.types[k], op.desc->operands[k].name);
  const std::size_t es = size_of(op.types[1].tile.dtype);
  if (es != 1 && es != 2 && es != 4) cur.error("TTRANS: elements of 1, 2 or 4 bytes");
  if (size_of(op.types[0].tile.dtype) != es || size_of(op.types[2].tile.dtype) != es)
    cur.error("TTRANS: dst, src and tmp must have elements of one size");
  op.exec = exec_ttrans;
}

void exec_tconcat(Frame& f, const Op& op) {
  Core& core = pto::detail::current_core();
  InstrRecord rec = pto::detail::compute_record(*op.desc);
  const bool dst_idx = op.ints[0] != 0;
  // op.in: dst[, dstIdx], src0, src1[, src0Idx, src1Idx]; the record: dst, src0, src1[, src0Idx, src1Idx[, dstIdx]]
  const std::size_t first = dst_idx ? 2 : 1;
  add_tile(f, op, core, rec, as_tile(f, op, op.in[0]));
  for (std::size_t k = first; k < op.in.size(); ++k) add_tile(f, op, core, rec, as_tile(f, op, op.in[k]));
  if (dst_idx) add_tile(f, op, core, rec, as_tile(f, op, op.in[1]));
  pto::detail::tconcat_rules(core, rec);
  issue(core, rec);
}
void c_tconcat(Compiler&, Cursor& cur, Op& op) {
  op.desc = &pto::desc_of<pto::Op::TCONCAT>();
  const std::size_t outs = operands(cur, op, 2, 4, {}, 1, 2);
  cur.attr_dict();
  const bool dst_idx = outs == 2;
  const std::size_t ins = op.types.size() - outs;
  if (ins == 3 || (dst_idx && ins != 4)) cur.error("takes ins(src0, src1) outs(dst), or ins(src0, src1, src0Idx, src1Idx) outs(dst[, dstIdx])");
  const Rules r{cur, op.desc->name};
  const std::size_t s0 = dst_idx ? 2 : 1;
  vec_nd(r, op.types[0], "dst"), vec_nd(r, op.types[s0], "src0"), vec_nd(r, op.types[s0 + 1], "src1");
  r.same_dtype(op.types[0], "dst", op.types[s0], "src0"), r.same_dtype(op.types[0], "dst", op.types[s0 + 1], "src1");
  for (std::size_t k = 0; k < op.types.size(); ++k) {
    if (k == 0 || k == s0 || k == s0 + 1) continue;
    r.vec(op.types[k], "index");
    if (op.types[k].tile.slayout != SLayout::NoneBox) cur.error("TCONCAT: the index tiles must be NoneBox Vec tiles");
    if (!is_integer(op.types[k].tile.dtype) || op.types[k].tile.dtype != op.types[s0 + 2].tile.dtype)
      cur.error("TCONCAT: index tiles hold byte counts as 8-, 16- or 32-bit integers, all of one dtype");
  }
  op.ints = {dst_idx ? 1 : 0};
  op.exec = exec_tconcat;
}

// ---- TRESHAPE: %r = pto.treshape %src : T -> T2 (dst views src's bytes) -----------------------------------

void exec_treshape(Frame& f, const Op& op) {
  Core& core = pto::detail::current_core();
  TileVal& src = as_tile(f, op, op.in[0]);
  place(f, op, core, src, "TRESHAPE", "src");
  const TileType_& tt = op.types[0].tile;
  auto t = new_tile(tt);
  t->view = tt.view(tt.v_row < 0 ? tt.rows : tt.v_row, tt.v_col < 0 ? tt.cols : tt.v_col);
  t->view.base = src.view.base;
  t->view.offset = src.view.offset;
  t->owner = src.owner;
  t->placed = true;
  // The view holds src's auto placement while it lives, as C++'s alias_tile does; a fixed address stays fixed.
  t->fixed = src.fixed;
  if (src.fixed == ~0u && pto::detail::tile_hooks.retain) pto::detail::tile_hooks.retain(src.view.base, src.owner);
  set(f, op, 0, std::move(t));
  InstrRecord rec;  // no data moves: the scalar unit rebinds the address (rebind.hpp)
  rec.desc = &pto::desc_of<pto::Op::TRESHAPE>();
  rec.kind = pto::detail::RecordKind::Nop;
  rec.pipe = PIPE_S;
  issue(core, rec);
}
void c_treshape(Compiler& c, Cursor& cur, Op& op) {
  op.desc = &pto::desc_of<pto::Op::TRESHAPE>();
  Type from;
  op.in = {cur.value(&from)};
  cur.attr_dict();
  cur.expect(":");
  from = cur.type();
  cur.expect("->");
  const Type to = cur.type();
  if (from.kind != Type::Kind::Tile || to.kind != Type::Kind::Tile) cur.error("TRESHAPE: src and the result must be tiles");
  if (from.tile.loc != to.tile.loc) cur.error("TRESHAPE: dst and src must have the same TileType");
  if (from.tile.bytes() != to.tile.bytes()) cur.error("TRESHAPE: dst and src must have the same byte size (Rows * Cols * sizeof(DType))");
  if ((from.tile.slayout == SLayout::NoneBox) != (to.tile.slayout == SLayout::NoneBox))
    cur.error("TRESHAPE: cannot reshape between boxed and non-boxed (SLayout::NoneBox) layouts");
  op.out = {result(c, cur, to)};
  op.types = {to};
  op.exec = exec_treshape;
}

// ---- TASSIGN: %r = pto.tassign %tile, %addr : T -> T (the tile at a fixed address; a new value, as
// PTOAS's level-3 form has it) ------------------------------------------------------------------------

void exec_tassign(Frame& f, const Op& op) {
  const TileVal& src = as_tile(f, op, op.in[0]);
  auto t = new_tile(op.types[0].tile);
  t->view = op.types[0].tile.view(src.view.valid_rows, src.view.valid_cols);
  fix_address(f, op, *t, as_int(f, op, op.in[1]));
  set(f, op, 0, std::move(t));
}
void c_tassign(Compiler& c, Cursor& cur, Op& op) {
  Type from;
  op.in = {cur.value(&from)};
  cur.expect(",");
  Type at;
  op.in.push_back(cur.value(&at));
  if (at.kind != Type::Kind::Int && at.kind != Type::Kind::Index) cur.error("the address must be an integer, not " + at.text);
  Type to = from;
  if (cur.accept(":")) {
    from = cur.type();
    to = cur.accept("->") ? cur.type() : from;
  }
  if (from.kind != Type::Kind::Tile || to.kind != Type::Kind::Tile) cur.error("TASSIGN: the operand and the result must be tiles");
  if (from.tile.loc != to.tile.loc || from.tile.bytes() != to.tile.bytes() || from.tile.dtype != to.tile.dtype)
    cur.error("TASSIGN: the result has the operand's type (the same tile at another address)");
  op.types = {to};
  op.out = {result(c, cur, to)};
  op.exec = exec_tassign;
}

// ---- generators: tci ins(%start[, %tmp] {descending = true}) outs(%dst); ttri ins(%diag {upperOrLower = 1})
// ---- outs(%dst); trandom ins(%k0, %k1, %c0, %c1, %c2, %c3 {rounds = 7}) outs(%dst) -----------------------

void exec_tci(Frame& f, const Op& op) {
  run_instr(f, op, op.in.size() == 3 ? 2 : 1, [&](Core&, InstrRecord& r, Target t) {
    pto::detail::tci_checks(r, t, op.in.size() == 3);
    if (op.ints[0]) r.variant |= pto::kVariantDescending;
    r.scalar = pto::detail::scalar_of(r.ops[0].tile.dtype, double(as_int(f, op, op.in[op.in.size() == 3 ? 2 : 1])));
  });
}
void c_tci(Compiler&, Cursor& cur, Op& op) {
  op.desc = &pto::desc_of<pto::Op::TCI>();
  operands(cur, op, 1, 2, {true, false});
  auto attrs = all_attrs(cur);
  if (op.in.size() == 3) std::swap(op.in[1], op.in[2]), std::swap(op.types[1], op.types[2]);  // dst, tmp, start
  const Rules r{cur, op.desc->name};
  r.vec(op.types[0], "dst");
  if (op.types[0].tile.rows != 1) cur.error("TCI: dst must be a tile of one row (the sequence runs along its columns)");
  if (is_float(op.types[0].tile.dtype) || op.types.back().kind != Type::Kind::Int)
    cur.error("TCI: the start value and dst are one integer type");
  if (op.in.size() == 3 && (op.types[1].kind != Type::Kind::Tile || size_of(op.types[1].tile.dtype) != 4))
    cur.error("TCI: tmp must be a 4-byte tile (float, int32 or uint32)");
  if (op.in.size() == 3) r.vec(op.types[1], "tmp");
  op.ints = {int_attr(cur, attrs, "descending", 0)};
  op.exec = exec_tci;
}

void exec_ttri(Frame& f, const Op& op) {
  run_instr(f, op, 1, [&](Core&, InstrRecord& r, Target t) {
    pto::detail::check_dtype(*r.desc, r.ops[0].tile.dtype, t);
    if (op.ints[0]) r.variant |= pto::kVariantUpper;
    const std::int64_t diag = as_int(f, op, op.in[1]);
    if (diag < INT32_MIN || diag > INT32_MAX) op_error(f, op, op.name + ": diagonal " + std::to_string(diag) + " is not an int32");
    r.scalar = ScalarValue::of(std::int32_t(diag));
  });
}
void c_ttri(Compiler&, Cursor& cur, Op& op) {
  op.desc = &pto::desc_of<pto::Op::TTRI>();
  operands(cur, op, 1, 1, {true});
  auto attrs = all_attrs(cur);
  vec_nd(Rules{cur, op.desc->name}, op.types[0], "dst");
  const std::int64_t upper = int_attr(cur, attrs, "upperOrLower", 0);
  if (upper != 0 && upper != 1) cur.error("TTRI: upperOrLower must be 0 (lower) or 1 (upper)");
  op.ints = {upper};
  op.exec = exec_ttri;
}

void exec_trandom(Frame& f, const Op& op) {
  run_instr(f, op, 1, [&](Core&, InstrRecord& r, Target t) {
    pto::detail::a5_only(r, t);
    std::uint32_t w[6];
    for (std::size_t k = 0; k < 6; ++k) w[k] = std::uint32_t(as_int(f, op, op.in[k + 1]));
    r.variant = op.ints[0] == 7 ? pto::kVariantRounds7 : 0;
    r.scalar.bits = std::uint64_t(w[0]) | std::uint64_t(w[1]) << 32;
    r.scalar.wide[0] = std::uint64_t(w[2]) | std::uint64_t(w[3]) << 32;
    r.scalar.wide[1] = std::uint64_t(w[4]) | std::uint64_t(w[5]) << 32;
  });
}
void c_trandom(Compiler&, Cursor& cur, Op& op) {
  op.desc = &pto::desc_of<pto::Op::TRANDOM>();
  operands(cur, op, 6, 6, std::vector<bool>(6, true));
  auto attrs = all_attrs(cur);
  vec_nd(Rules{cur, op.desc->name}, op.types[0], "dst");
  if (op.types[0].tile.dtype != DType::I32 && op.types[0].tile.dtype != DType::U32) cur.error("TRANDOM: dst must be int32 or uint32");
  const std::int64_t rounds = int_attr(cur, attrs, "rounds", 10);
  if (rounds != 7 && rounds != 10) cur.error("TRANDOM: rounds must be 7 or 10 (a5 TRandom.hpp)");
  op.ints = {rounds};
  op.exec = exec_trandom;
}

// ---- THISTOGRAM: ins(%src, %idx) outs(%dst) {isMSB = true} (uint16: BYTE_1; false: BYTE_0) or {byte = N} --

void exec_histogram(Frame& f, const Op& op) {
  run_instr(f, op, 3, [&](Core&, InstrRecord& r, Target t) { pto::detail::histogram_checks(r, t, HistByte(op.ints[0])); });
}
void c_histogram(Compiler&, Cursor& cur, Op& op) {
  op.desc = &pto::desc_of<pto::Op::THISTOGRAM>();
  operands(cur, op, 2, 2, {});
  auto attrs = all_attrs(cur);
  const Rules r{cur, op.desc->name};
  vec_nd(r, op.types[0], "dst"), vec_nd(r, op.types[1], "src"), r.vec(op.types[2], "idx");
  const TileType_ &dst = op.types[0].tile, &src = op.types[1].tile, &idx = op.types[2].tile;
  const bool u16 = src.dtype == DType::U16;
  if (dst.dtype != DType::U32) cur.error("THISTOGRAM: dst must be uint32 (the bin counts)");
  if (idx.dtype != DType::U8) cur.error("THISTOGRAM: idx must be uint8 (the filter bytes)");
  if (!u16 && src.dtype != DType::U32) cur.error("THISTOGRAM: src must be uint16 or uint32");
  if (dst.cols != 256) cur.error("THISTOGRAM: dst must have 256 columns (the chip stores row r's 256 bins at element 256 * r)");
  const std::int64_t msb = int_attr(cur, attrs, "isMSB", 1);
  const std::int64_t byte = int_attr(cur, attrs, "byte", u16 ? (msb ? 1 : 0) : 3);
  if (byte < 0 || byte > 3 || (u16 && byte > 1)) cur.error("THISTOGRAM: byte must be 0 to 3 (0 or 1 for a uint16 src)");
  const int levels = u16 ? (byte == 0 ? 1 : 0) : 3 - int(byte);
  if (u16 && (idx.blayout == BLayout::RowMajor || idx.slayout != SLayout::NoneBox || idx.cols != 1))
    cur.error("THISTOGRAM: with a uint16 src, idx is a ColMajor NoneBox tile of one column (one byte per row)");
  if (!u16 && levels && (idx.blayout != BLayout::RowMajor || idx.rows != levels || idx.cols != src.cols))
    cur.error("THISTOGRAM: with a uint32 src, idx is RowMajor with 3 - byte rows and src's Cols (a5 THistogram.hpp)");
  op.ints = {byte};
  op.exec = exec_histogram;
}

// ---- TAXPY: ins(%src, %scalar) outs(%dst): dst = scalar * src + dst --------------------------------------

void exec_taxpy(Frame& f, const Op& op) {
  run_instr(f, op, 2, [&](Core&, InstrRecord& r, Target) {
    pto::detail::check_same_valid(*r.desc, "dst", r.ops[0].tile, "src0", r.ops[1].tile);
    r.scalar = pto::detail::scalar_of(r.ops[1].tile.dtype, as_float(f, op, op.in[2]));
  });
}
void c_taxpy(Compiler&, Cursor& cur, Op& op) {
  op.desc = &pto::desc_of<pto::Op::TAXPY>();
  operands(cur, op, 2, 2, {false, true});
  cur.attr_dict();
  const Rules r{cur, op.desc->name};
  vec_nd(r, op.types[0], "dst"), vec_nd(r, op.types[1], "src0");
  const DType d = op.types[0].tile.dtype, s = op.types[1].tile.dtype;
  if (d != DType::F16 && d != DType::F32) cur.error("TAXPY: dst must be half or float");
  if (!(d == s || (d == DType::F32 && s == DType::F16))) cur.error("TAXPY: src0 must have dst's DType, or be half with a float dst");
  op.exec = exec_taxpy;
}

}  // namespace

void register_data_ops(std::map<std::string, CompileFn>& t) {
  t["pto.tgather"] = c_gather;
  t["pto.tscatter"] = c_scatter;
  t["pto.tgatherb"] = c_gatherb;
  t["pto.tdequant"] = c_dequant;
  t["pto.ttrans"] = c_ttrans;
  t["pto.tconcat"] = c_tconcat;
  t["pto.treshape"] = c_treshape;
  t["pto.tassign"] = c_tassign;
  t["pto.tci"] = c_tci;
  t["pto.ttri"] = c_ttri;
  t["pto.trandom"] = c_trandom;
  t["pto.thistogram"] = c_histogram;
  t["pto.taxpy"] = c_taxpy;
}

}  // namespace pto::ir::detail
