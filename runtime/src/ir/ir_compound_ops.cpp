// The compound, partial, arg-reduction and sort families in PTO IR (docs/pto-run.md): TXOR (binary.hpp),
// TREM / TREMS / TFMOD / TFMODS / TPOW / TPOWS / TPRELU and the carry and fused forms (compound.hpp),
// TPARTADD ... TPARTARGMIN (partial.hpp), TROWARGMAX ... TCOLARGMIN (arg_reduce.hpp), TSORT32 and
// TMRGSORT (sort.hpp). Every op takes `ins(sources, scalars, tmp) outs(dst)` in the C++ function's
// operand order; each builds the record its C++ function builds and runs that family's view-level checks.
#include <cstdint>
#include <string>

#include <pto/runtime/arg_reduce.hpp>
#include <pto/runtime/binary.hpp>
#include <pto/runtime/compound.hpp>
#include <pto/runtime/partial.hpp>
#include <pto/runtime/sort.hpp>

#include "pto_ops.hpp"

namespace pto::ir::detail {

namespace {

using pto::detail::Core;

// Vec, RowMajor NoneBox, dst's dtype: the rule PTO_COMPOUND_RULES states for the listed operands.
void same_vec_nd(const Rules& r, const Op& op, std::initializer_list<std::size_t> at) {
  for (std::size_t k : at) {
    const char* name = op.desc->operands[k].name;
    vec_nd(r, op.types[k], name);
    r.same_dtype(op.types[0], "dst", op.types[k], name);
  }
}
// Adds op.in[k] for each k as the record's next tile operand.
void add_tiles(Frame& f, const Op& op, Core& core, InstrRecord& rec, std::initializer_list<std::size_t> at) {
  for (std::size_t k : at) add_tile(f, op, core, rec, as_tile(f, op, op.in[k]));
}

// ---- TXOR: ins(%a, %b, %tmp) outs(%dst) ---------------------------------------------------------------

void exec_txor(Frame& f, const Op& op) {
  run_instr(f, op, 4, [](Core&, InstrRecord& r, Target t) { pto::detail::binary_checks(r, t); });
}
void c_txor(Compiler&, Cursor& cur, Op& op) {
  op.desc = &pto::desc_of<pto::Op::TXOR>();
  operands(cur, op, 3, 3, {});
  cur.attr_dict();
  same_vec_nd(Rules{cur, op.desc->name}, op, {0, 1, 2, 3});
  op.exec = exec_txor;
}

// ---- compound: the operand lists of compound.hpp (a scalar where the C++ function takes one) ----------

// The family's view-level checks after dst and the sources (compound.hpp); `hp`: high precision.
using CompoundChecks = void (*)(InstrRecord&, Target, bool hp);
void rem_checks(InstrRecord& r, Target t, bool hp) { pto::detail::remainder_checks(r, t, hp); }
void pow_checks(InstrRecord& r, Target t, bool hp) { pto::detail::power_checks(r, t, hp); }
void prelu_checks(InstrRecord& r, Target t, bool) { pto::detail::prelu_checks(r, t); }
void elem_checks(InstrRecord& r, Target t, bool) { pto::detail::check_dtype(*r.desc, r.ops[0].tile.dtype, t); }

struct Compound {
  const char* name;
  pto::Op op;
  int tiles;      // tile sources
  int scalar_at;  // index among the ins, or -1
  bool tmp;       // a tmp last
  CompoundChecks checks;
};
constexpr Compound kCompounds[] = {
    {"pto.trem", pto::Op::TREM, 2, -1, true, rem_checks},          {"pto.trems", pto::Op::TREMS, 1, 1, true, rem_checks},
    {"pto.tfmod", pto::Op::TFMOD, 2, -1, false, rem_checks},       {"pto.tfmods", pto::Op::TFMODS, 1, 1, false, rem_checks},
    {"pto.tpow", pto::Op::TPOW, 2, -1, true, pow_checks},          {"pto.tpows", pto::Op::TPOWS, 1, 1, true, pow_checks},
    {"pto.tprelu", pto::Op::TPRELU, 2, -1, true, prelu_checks},    {"pto.taddc", pto::Op::TADDC, 3, -1, false, elem_checks},
    {"pto.tsubc", pto::Op::TSUBC, 3, -1, false, elem_checks},      {"pto.taddsc", pto::Op::TADDSC, 2, 1, false, elem_checks},
    {"pto.tsubsc", pto::Op::TSUBSC, 2, 1, false, elem_checks},     {"pto.tfusedmuladd", pto::Op::TFUSEDMULADD, 2, -1, false, elem_checks},
    {"pto.tfusedmuladdrelu", pto::Op::TFUSEDMULADDRELU, 2, -1, false, elem_checks},
    {"pto.tmuladddst", pto::Op::TMULADDDST, 2, -1, false, elem_checks}, {"pto.tsubrelu", pto::Op::TSUBRELU, 2, -1, false, elem_checks}};
const Compound& compound_of(pto::Op o) {
  for (const Compound& c : kCompounds)
    if (c.op == o) return c;
  return kCompounds[0];
}

// op.in: dst, then the ins in order; op.ints: {scalar slot index in op.in or -1, high precision}.
void exec_compound(Frame& f, const Op& op) {
  const Compound& c = compound_of(op.desc->op);
  Core& core = pto::detail::current_core();
  InstrRecord rec = pto::detail::compute_record(*op.desc);
  const int scalar_slot = int(op.ints[0]);
  const Target target = pto::detail::core_target(core);
  // A5 never reads TREM's / TREMS's tmp: it needs no address (as the C++ function's add_unused_tile)
  const bool unused_tmp = target == Target::A5 && (c.op == pto::Op::TREM || c.op == pto::Op::TREMS);
  for (std::size_t k = 0; k < op.in.size(); ++k) {
    if (int(k) == scalar_slot) continue;
    if (unused_tmp && k + 1 == op.in.size()) add_unused(f, op, rec, as_tile(f, op, op.in[k]));
    else add_tile(f, op, core, rec, as_tile(f, op, op.in[k]));
  }
  pto::detail::same_valid_as_dst(rec, 1 + c.tiles);
  c.checks(rec, target, op.ints[1] != 0);
  if (scalar_slot >= 0) rec.scalar = pto::detail::scalar_of(rec.ops[0].tile.dtype, as_float(f, op, op.in[std::size_t(scalar_slot)]));
  issue(core, rec);
}
void c_compound(Compiler&, Cursor& cur, Op& op) {
  const Compound* c = nullptr;
  for (const Compound& x : kCompounds)
    if (op.name == x.name) c = &x;
  op.desc = pto::find_desc(c->op);
  const std::size_t n = std::size_t(c->tiles + (c->scalar_at >= 0) + c->tmp);
  std::vector<bool> scalar(n, false);
  if (c->scalar_at >= 0) scalar[std::size_t(c->scalar_at)] = true;
  operands(cur, op, n, n, scalar);
  // precision = #pto<...high_precision> selects the chips' compensated algorithm (the *Algorithm template
  // arguments of the C++ functions)
  auto attrs = cur.attr_dict();
  const bool hp = attrs.count("precision") && attrs["precision"].find("high") != std::string::npos;
  const Rules r{cur, op.desc->name};
  std::vector<std::size_t> same{0};
  for (std::size_t k = 1; k <= n; ++k)
    if (!scalar[k - 1] && !(c->op == pto::Op::TPRELU && k == n)) same.push_back(k);
  for (std::size_t k : same) {
    const char* name = k == n && c->tmp ? "tmp" : k == 0 ? "dst" : "src";
    vec_nd(r, op.types[k], name);
    r.same_dtype(op.types[0], "dst", op.types[k], name);
  }
  if (c->op == pto::Op::TPRELU) vec_nd(r, op.types[n], "tmp");
  op.ints = {c->scalar_at >= 0 ? c->scalar_at + 1 : -1, hp ? 1 : 0};
  op.exec = exec_compound;
}

// ---- partial: tpartadd ins(%a, %b) outs(%dst); tpartargmax ins(%a, %b, %ai, %bi) outs(%dst, %dsti) ----

void exec_part(Frame& f, const Op& op) {
  run_instr(f, op, 3, [](Core&, InstrRecord& r, Target t) { pto::detail::tpart_checks(r, t); });
}
void exec_partarg(Frame& f, const Op& op) {
  Core& core = pto::detail::current_core();
  InstrRecord rec = pto::detail::compute_record(*op.desc);
  add_tiles(f, op, core, rec, {0, 2, 3, 1, 4, 5});  // op.in: dst, dstIdx, src0, src1, src0Idx, src1Idx
  const bool wide = size_of(rec.ops[0].tile.dtype) == 2 && size_of(rec.ops[3].tile.dtype) == 4;
  pto::detail::tpartarg_checks(rec, pto::detail::core_target(core), wide);
  issue(core, rec);
}
void c_part(Compiler&, Cursor& cur, Op& op) {
  const std::pair<const char*, pto::Op> ops[] = {{"pto.tpartadd", pto::Op::TPARTADD},       {"pto.tpartmul", pto::Op::TPARTMUL},
                                                 {"pto.tpartmax", pto::Op::TPARTMAX},       {"pto.tpartmin", pto::Op::TPARTMIN},
                                                 {"pto.tpartargmax", pto::Op::TPARTARGMAX}, {"pto.tpartargmin", pto::Op::TPARTARGMIN}};
  for (const auto& [n, o] : ops)
    if (op.name == n) op.desc = pto::find_desc(o);
  const bool arg = op.desc->op == pto::Op::TPARTARGMAX || op.desc->op == pto::Op::TPARTARGMIN;
  operands(cur, op, arg ? 4 : 2, arg ? 4 : 2, {}, arg ? 2 : 1, arg ? 2 : 1);
  cur.attr_dict();
  const Rules r{cur, op.desc->name};
  if (!arg) {
    same_vec_nd(r, op, {0, 1, 2});
    op.exec = exec_part;
    return;
  }
  // op.types: dst, dstIdx, src0, src1, src0Idx, src1Idx
  const char* names[] = {"dst", "dstIdx", "src0", "src1", "src0Idx", "src1Idx"};
  for (std::size_t k = 0; k < 6; ++k) vec_nd(r, op.types[k], names[k]);
  r.same_dtype(op.types[0], "dst", op.types[2], "src0"), r.same_dtype(op.types[0], "dst", op.types[3], "src1");
  r.same_dtype(op.types[1], "dstIdx", op.types[4], "src0Idx"), r.same_dtype(op.types[1], "dstIdx", op.types[5], "src1Idx");
  const DType x = op.types[1].tile.dtype;
  if (!is_integer(x) || !(size_of(x) == 4 || (size_of(x) == 2 && size_of(op.types[0].tile.dtype) == 2)))
    cur.error("TPARTARGMAX / TPARTARGMIN: the indices are 32-bit integers, or 16-bit ones beside half values (the NPUs' rule)");
  op.exec = exec_partarg;
}

// ---- arg reductions: trowargmax ins(%src, %tmp) outs(%idx) or outs(%val, %idx) ------------------------

void exec_arg_reduce(Frame& f, const Op& op) {
  const bool val = op.in.size() == 4, row = op.ints[0] != 0;
  Core& core = pto::detail::current_core();
  InstrRecord rec = pto::detail::compute_record(*op.desc);
  const std::size_t idx = val ? 1 : 0, src = idx + 1;
  add_tiles(f, op, core, rec, {idx, src});
  if (pto::detail::core_target(core) == Target::A5) add_unused(f, op, rec, as_tile(f, op, op.in[src + 1]));  // A5 never reads tmp
  else add_tiles(f, op, core, rec, {src + 1});
  if (val) add_tiles(f, op, core, rec, {0});
  pto::detail::arg_reduce_checks(rec, pto::detail::core_target(core), row, val);
  issue(core, rec);
}
void c_arg_reduce(Compiler&, Cursor& cur, Op& op) {
  const std::pair<const char*, pto::Op> ops[] = {{"pto.trowargmax", pto::Op::TROWARGMAX},
                                                 {"pto.trowargmin", pto::Op::TROWARGMIN},
                                                 {"pto.tcolargmax", pto::Op::TCOLARGMAX},
                                                 {"pto.tcolargmin", pto::Op::TCOLARGMIN}};
  for (const auto& [n, o] : ops)
    if (op.name == n) op.desc = pto::find_desc(o);
  const bool row = op.name.rfind("pto.trow", 0) == 0;
  operands(cur, op, 2, 2, {}, 1, 2);
  cur.attr_dict();
  const bool val = op.types.size() == 4;
  const Type &idx = op.types[val ? 1 : 0], &src = op.types[val ? 2 : 1], &tmp = op.types[val ? 3 : 2];
  const Rules r{cur, op.desc->name};
  vec_nd(r, src, "src");
  r.vec(tmp, "tmp");
  auto dst_rule = [&](const Type& t, const char* name) {
    r.vec(t, name);
    const bool ok = t.tile.slayout == SLayout::NoneBox && (t.tile.blayout == BLayout::RowMajor || (row && t.tile.cols == 1));
    if (!ok) cur.error(std::string("operand ") + name + " must be a RowMajor NoneBox tile (the row forms also take a ColMajor tile of one column)");
  };
  dst_rule(idx, "dst");
  if (val) dst_rule(op.types[0], "dstVal"), r.same_dtype(op.types[0], "dstVal", src, "src");
  const DType x = idx.tile.dtype;
  if (x != DType::I32 && x != DType::U32 && x != DType::I16 && x != DType::U16)
    cur.error("the index tile must be int32 or uint32 (int16 / uint16 for the value forms of 2-byte sources)");
  op.ints = {row ? 1 : 0};
  op.exec = exec_arg_reduce;
}

// ---- sort: tsort32 ins(%src, %idx[, %tmp]) outs(%dst); tmrgsort ins(%src, %blockLen) outs(%dst) or ----
// ---- ins(%s0, %s1[, %s2[, %s3]], %tmp {exhausted = false}) outs(%dst) ---------------------------------

bool sort_type(DType t) { return t == DType::F16 || t == DType::F32; }

void exec_sort32(Frame& f, const Op& op) {
  run_instr(f, op, op.in.size(), [&](Core&, InstrRecord& r, Target t) { pto::detail::sort32_checks(r, t, op.in.size() == 4); });
}
void c_sort32(Compiler&, Cursor& cur, Op& op) {
  op.desc = &pto::desc_of<pto::Op::TSORT32>();
  operands(cur, op, 2, 3, {});
  cur.attr_dict();
  const Rules r{cur, op.desc->name};
  for (std::size_t k = 0; k < op.types.size(); ++k) vec_nd(r, op.types[k], op.desc->operands[k].name);
  r.same_dtype(op.types[0], "dst", op.types[1], "src");
  if (!sort_type(op.types[1].tile.dtype)) cur.error("TSORT32: src and dst must both be half or both float");
  if (op.types[2].tile.dtype != DType::U32) cur.error("TSORT32: idx must be a uint32 tile (ui32)");
  op.exec = exec_sort32;
}

void exec_mrgsort(Frame& f, const Op& op) {
  Core& core = pto::detail::current_core();
  InstrRecord rec = pto::detail::compute_record(*op.desc);
  const Target target = pto::detail::core_target(core);
  add_tile(f, op, core, rec, as_tile(f, op, op.in[0]));
  if (op.ints[0] == 1) {  // one list: src, blockLen
    rec.ops[1].kind = pto::Operand::Kind::None;  // this form has no tmp: src is operand src0
    rec.nops = 2;
    add_tile(f, op, core, rec, as_tile(f, op, op.in[1]));
    const std::int64_t len = as_int(f, op, op.in[2]);
    if (len < 0 || len > INT32_MAX) op_error(f, op, op.name + ": blockLen " + std::to_string(len) + " is out of range");
    pto::detail::single_list_checks(rec, target, std::uint32_t(len));
  } else {  // op.in: dst, lists..., tmp
    add_tile(f, op, core, rec, as_tile(f, op, op.in.back()));
    for (std::size_t k = 1; k + 1 < op.in.size(); ++k) add_tile(f, op, core, rec, as_tile(f, op, op.in[k]));
    pto::detail::merge_checks(rec, target, false);
  }
  issue(core, rec);
}
void c_mrgsort(Compiler&, Cursor& cur, Op& op) {
  op.desc = &pto::desc_of<pto::Op::TMRGSORT>();
  std::vector<int> ins, outs;
  std::vector<Type> in_t, out_t;
  cur.ins_outs(ins, in_t, outs, out_t);
  auto attrs = cur.attr_dict();
  for (const auto& a : cur.operand_attrs()) attrs.insert(a.begin(), a.end());
  if (outs.size() != 1) cur.error("takes one outs (dst); the executed counts of the exhausted form are not read by pto-run");
  if (attrs.count("exhausted") && attrs["exhausted"] != "false")
    cur.error("exhausted = true (stop when a list runs out, report the counts) is not supported by pto-run yet: the C++ "
              "TMRGSORT<..., true> is");
  const bool single = ins.size() == 2 && in_t[1].scalar();
  if (!single && (ins.size() < 3 || ins.size() > 5))
    cur.error("takes ins(src, blockLen) or ins(src0, src1[, src2[, src3]], tmp), found " + std::to_string(ins.size()) + " ins");
  op.in = outs;
  op.in.insert(op.in.end(), ins.begin(), ins.end());
  op.types = out_t;
  op.types.insert(op.types.end(), in_t.begin(), in_t.end());
  const Rules r{cur, op.desc->name};
  for (std::size_t k = 0; k < op.types.size(); ++k) {
    if (single && k == 2) break;
    if (op.types[k].kind != Type::Kind::Tile) cur.error("operand " + std::to_string(k) + " must be a tile, not " + op.types[k].text);
    vec_nd(r, op.types[k], k == 0 ? "dst" : "src");
    r.same_dtype(op.types[0], "dst", op.types[k], "src");
    if (op.types[k].tile.rows != 1) cur.error("TMRGSORT: every operand must be a tile of one row");
  }
  if (!sort_type(op.types[0].tile.dtype)) cur.error("TMRGSORT: every operand must be half, or every one float");
  op.ints = {single ? 1 : 0};
  op.exec = exec_mrgsort;
}

}  // namespace

void register_compound_ops(std::map<std::string, CompileFn>& t) {
  t["pto.txor"] = c_txor;
  for (const Compound& c : kCompounds) t[c.name] = c_compound;
  for (const char* n : {"pto.tpartadd", "pto.tpartmul", "pto.tpartmax", "pto.tpartmin", "pto.tpartargmax", "pto.tpartargmin"}) t[n] = c_part;
  for (const char* n : {"pto.trowargmax", "pto.trowargmin", "pto.tcolargmax", "pto.tcolargmin"}) t[n] = c_arg_reduce;
  t["pto.tsort32"] = c_sort32;
  t["pto.tmrgsort"] = c_mrgsort;
}

}  // namespace pto::ir::detail
