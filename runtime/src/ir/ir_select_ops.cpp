// More vector families in PTO IR (docs/pto-run.md): column reductions (reduce.hpp), compare and select
// (select.hpp), and the bitwise tile-scalar forms (tile_scalar.hpp). Each op builds the record its C++
// function builds, runs that family's view-level checks (col_reduce_checks, compare_checks,
// select_checks, bit_scalar_checks) and issues it; the C++ static_asserts are checked on the file's
// types as the Rules below.
#include <cstdint>
#include <string>

#include <pto/runtime/reduce.hpp>
#include <pto/runtime/select.hpp>
#include <pto/runtime/tile_scalar.hpp>

#include "pto_ops.hpp"

namespace pto::ir::detail {

bool is_integer(DType t) {
  return t == DType::I8 || t == DType::U8 || t == DType::I16 || t == DType::U16 || t == DType::I32 || t == DType::U32;
}

std::size_t operands(Cursor& cur, Op& op, std::size_t lo, std::size_t hi, const std::vector<bool>& scalar, std::size_t outs_lo,
              std::size_t outs_hi) {
  std::vector<int> ins, outs;
  std::vector<Type> in_t, out_t;
  cur.ins_outs(ins, in_t, outs, out_t);
  auto range = [](std::size_t a, std::size_t b) { return std::to_string(a) + (a == b ? "" : " to " + std::to_string(b)); };
  if (ins.size() < lo || ins.size() > hi || outs.size() < outs_lo || outs.size() > outs_hi)
    cur.error("takes " + range(lo, hi) + " ins and " + range(outs_lo, outs_hi) + " outs, found " + std::to_string(ins.size()) +
              " and " + std::to_string(outs.size()));
  for (std::size_t k = 0; k < ins.size(); ++k)
    if ((k < scalar.size() && scalar[k]) != in_t[k].scalar())
      cur.error("ins operand " + std::to_string(k) + " must be " + (k < scalar.size() && scalar[k] ? "a scalar" : "a tile") + ", not " +
                in_t[k].text);
  for (const Type& t : out_t)
    if (t.kind != Type::Kind::Tile) cur.error("outs must be tiles, not " + t.text);
  op.in = outs;
  op.in.insert(op.in.end(), ins.begin(), ins.end());
  op.types = out_t;
  op.types.insert(op.types.end(), in_t.begin(), in_t.end());
  return outs.size();
}
void vec_nd(const Rules& r, const Type& t, const char* name) {
  r.vec(t, name);
  r.row_major(t, name);
}

namespace {

using pto::detail::Core;

// ---- column reductions: pto.tcolsum ins(%src[, %tmp]) outs(%dst) [isBinary = false] -----------------

void exec_col_reduce(Frame& f, const Op& op) {
  run_instr(f, op, 2, [](Core&, InstrRecord& r, Target t) { pto::detail::col_reduce_checks(r, t); });
}
void c_col_reduce(Compiler&, Cursor& cur, Op& op) {
  const char* names[] = {"pto.tcolsum", "pto.tcolmax", "pto.tcolmin", "pto.tcolprod"};
  const pto::Op ops[] = {pto::Op::TCOLSUM, pto::Op::TCOLMAX, pto::Op::TCOLMIN, pto::Op::TCOLPROD};
  for (int k = 0; k < 4; ++k)
    if (op.name == names[k]) op.desc = pto::find_desc(ops[k]);
  // PTOAS's TCOLSUM takes a tmp tile (A2A3's binary tree); pto-runtime's computes without one: it is read
  // for its type only.
  operands(cur, op, 1, 2, {false, false});
  if (!cur.done() && cur.peek().is("isBinary")) {
    cur.next();
    cur.expect("=");
    cur.next();
  }
  cur.attr_dict();
  const Rules r{cur, op.desc->name};
  vec_nd(r, op.types[0], "dst");
  vec_nd(r, op.types[1], "src");
  r.same_dtype(op.types[0], "dst", op.types[1], "src");
  op.in.resize(2);
  op.types.resize(2);
  op.exec = exec_col_reduce;
}

// ---- compare: pto.tcmp ins(%a, %b {cmpMode = #pto<cmp lt>}) outs(%mask); tcmps ins(%a, %s {...}) -------

bool cmp_mode_of(const std::string& v, CmpMode& out) {
  static const std::pair<const char*, CmpMode> modes[] = {
      {"less_equal", CmpMode::LE}, {"greater_equal", CmpMode::GE}, {"less_than", CmpMode::LT}, {"greater_than", CmpMode::GT},
      {"not_equal", CmpMode::NE},  {"equal", CmpMode::EQ},         {"le", CmpMode::LE},        {"ge", CmpMode::GE},
      {"lt", CmpMode::LT},         {"gt", CmpMode::GT},            {"ne", CmpMode::NE},        {"eq", CmpMode::EQ}};
  std::string low;
  for (char c : v) low += char(std::tolower(static_cast<unsigned char>(c)));
  const auto sp = low.find(' ');
  const std::string word = low.substr(sp == std::string::npos ? low.find('<') + 1 : sp + 1);
  for (const auto& [n, m] : modes)
    if (word.rfind(n, 0) == 0) {
      out = m;
      return true;
    }
  return false;
}
void exec_compare(Frame& f, const Op& op) {
  const bool scalar = op.desc->op == pto::Op::TCMPS;
  run_instr(f, op, scalar ? 2 : 3, [&](Core&, InstrRecord& r, Target t) {
    pto::detail::compare_checks(r, t, CmpMode(op.ints[0]), !scalar);
    if (scalar) r.scalar = pto::detail::scalar_of(r.ops[1].tile.dtype, as_float(f, op, op.in[2]));
    r.variant = std::uint8_t(r.variant | (std::uint8_t(op.ints[0]) << kVariantCmpShift));
  });
}
void c_compare(Compiler&, Cursor& cur, Op& op) {
  const bool scalar = op.name == "pto.tcmps";
  op.desc = scalar ? &pto::desc_of<pto::Op::TCMPS>() : &pto::desc_of<pto::Op::TCMP>();
  operands(cur, op, 2, 2, {false, scalar});
  auto attrs = cur.attr_dict();
  for (const auto& a : cur.operand_attrs()) attrs.insert(a.begin(), a.end());
  CmpMode mode = CmpMode::EQ;
  if (attrs.count("cmpMode") && !cmp_mode_of(attrs["cmpMode"], mode))
    cur.error("cmpMode " + attrs["cmpMode"] + ": eq, ne, lt, le, gt or ge (#pto<cmp lt>)");
  const Rules r{cur, op.desc->name};
  r.vec(op.types[0], "dst");
  r.row_major(op.types[0], "dst");
  vec_nd(r, op.types[1], "src0");
  if (!scalar) vec_nd(r, op.types[2], "src1"), r.same_dtype(op.types[1], "src0", op.types[2], "src1");
  if (!is_integer(op.types[0].tile.dtype))
    cur.error("TCMP/TCMPS: dst holds the packed predicate bits: an 8-, 16- or 32-bit integer tile (uint8 on A2A3, uint32 on A5)");
  op.ints = {std::int64_t(mode)};
  op.exec = exec_compare;
}

// ---- select: pto.tsel ins(%mask, %a, %b, %tmp) outs(%dst); tsels ins(%mask, %a, %tmp, %scalar) --------

void exec_select(Frame& f, const Op& op) {
  const bool scalar = op.desc->op == pto::Op::TSELS;
  run_instr(f, op, scalar ? 4 : 5, [&](Core&, InstrRecord& r, Target t) {
    pto::detail::select_checks(r, t, !scalar);
    if (scalar) r.scalar = pto::detail::scalar_of(r.ops[0].tile.dtype, as_float(f, op, op.in[4]));
  });
}
void c_select(Compiler&, Cursor& cur, Op& op) {
  const bool scalar = op.name == "pto.tsels";
  op.desc = scalar ? &pto::desc_of<pto::Op::TSELS>() : &pto::desc_of<pto::Op::TSEL>();
  operands(cur, op, 4, 4, {false, false, false, scalar});
  cur.attr_dict();
  const Rules r{cur, op.desc->name};
  vec_nd(r, op.types[0], "dst");
  vec_nd(r, op.types[1], "mask");
  vec_nd(r, op.types[2], scalar ? "src" : "src0");
  r.vec(op.types[3], scalar ? "tmp" : "src1");
  r.same_dtype(op.types[0], "dst", op.types[2], scalar ? "src" : "src0");
  if (!scalar) r.row_major(op.types[3], "src1"), r.same_dtype(op.types[0], "dst", op.types[3], "src1"), r.vec(op.types[4], "tmp");
  op.exec = exec_select;
}

// ---- bitwise tile-scalar: pto.tands ins(%a, %s) outs(%dst); txors ins(%a, %s, %tmp) -------------------

void exec_bit_scalar(Frame& f, const Op& op) {
  const bool tmp = op.in.size() == 4;
  ssa_dst(f, op);
  Core& core = pto::detail::current_core();
  InstrRecord rec = pto::detail::compute_record(*op.desc);
  add_tile(f, op, core, rec, as_tile(f, op, op.in[0]));
  add_tile(f, op, core, rec, as_tile(f, op, op.in[1]));
  if (tmp) add_tile(f, op, core, rec, as_tile(f, op, op.in[3]));
  const std::int64_t s = as_int(f, op, op.in[2]);
  pto::detail::bit_scalar_checks(rec, pto::detail::core_target(core), s, tmp);
  rec.scalar = pto::detail::scalar_of(rec.ops[1].tile.dtype, double(s));
  issue(core, rec);
}
void c_bit_scalar(Compiler&, Cursor& cur, Op& op) {
  const char* names[] = {"pto.tands", "pto.tors", "pto.txors", "pto.tshls", "pto.tshrs"};
  const pto::Op ops[] = {pto::Op::TANDS, pto::Op::TORS, pto::Op::TXORS, pto::Op::TSHLS, pto::Op::TSHRS};
  for (int k = 0; k < 5; ++k)
    if (op.name == names[k]) op.desc = pto::find_desc(ops[k]);
  const bool xors = op.desc->op == pto::Op::TXORS;
  operands(cur, op, xors ? 3 : 2, xors ? 3 : 2, {false, true, false});
  cur.attr_dict();
  const Rules r{cur, op.desc->name};
  vec_nd(r, op.types[0], "dst");
  vec_nd(r, op.types[1], "src");
  r.same_dtype(op.types[0], "dst", op.types[1], "src");
  if (xors) r.vec(op.types[3], "tmp"), r.same_dtype(op.types[0], "dst", op.types[3], "tmp");
  if (!is_integer(op.types[0].tile.dtype)) cur.error("TANDS/TORS/TXORS/TSHLS/TSHRS: the DType must be an integer type");
  if (op.types[2].kind == Type::Kind::Float) cur.error("the scalar must be an integer, not " + op.types[2].text);
  op.exec = exec_bit_scalar;
}

}  // namespace

void register_select_ops(std::map<std::string, CompileFn>& t) {
  for (const char* n : {"pto.tcolsum", "pto.tcolmax", "pto.tcolmin", "pto.tcolprod"}) t[n] = c_col_reduce;
  t["pto.tcmp"] = c_compare;
  t["pto.tcmps"] = c_compare;
  t["pto.tsel"] = c_select;
  t["pto.tsels"] = c_select;
  for (const char* n : {"pto.tands", "pto.tors", "pto.txors", "pto.tshls", "pto.tshrs"}) t[n] = c_bit_scalar;
}

}  // namespace pto::ir::detail
