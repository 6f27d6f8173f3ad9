// The cube in PTO IR (docs/pto-run.md): TMOV's cube directions (Mat -> Left / Right / Bias, Acc -> Mat / Vec),
// TEXTRACT and TINSERT (the cube's windows and Vec -> Vec), TMATMUL / TGEMV with their .acc and .bias
// forms, and TSTORE from an Acc tile. Each op builds the record the C++ function builds and runs its
// view-level checks (cube_rules.hpp, matmul.hpp, extract.hpp); the rules those functions state as
// static_asserts are checked on the file's types by their view-level twins (*_type_rules) when the file
// compiles, so `pto-run --check` reports them.
#include <cstdint>
#include <string>

#include <pto/runtime/cube_rules.hpp>
#include <pto/runtime/extract.hpp>
#include <pto/runtime/matmul.hpp>

#include "pto_ops.hpp"

namespace pto::ir::detail {

namespace {

using pto::detail::Core;

enum Move : std::int64_t { kL0, kBias, kAcc, kVecWindow };

std::uint16_t window_index(const Frame& f, const Op& op, std::int64_t entry, const char* what) {
  const std::int64_t v = index_of(f, op, entry);
  if (v < 0 || v > 65535) op_error(f, op, op.name + ": " + what + " " + std::to_string(v) + " is outside [0, 65535]");
  return std::uint16_t(v);
}

// op.in = {dst, src}; op.ints = {Move, indexRow entry, indexCol entry}.
void exec_move(Frame& f, const Op& op) {
  Core& core = pto::detail::current_core();
  InstrRecord rec = pto::detail::compute_record(*op.desc);
  add_tile(f, op, core, rec, as_tile(f, op, op.in[0]));
  add_tile(f, op, core, rec, as_tile(f, op, op.in[1]));
  const Target target = pto::detail::core_target(core);
  const std::uint16_t r0 = window_index(f, op, op.ints[1], "indexRow"), c0 = window_index(f, op, op.ints[2], "indexCol");
  switch (op.ints[0]) {
    case kL0: pto::detail::l0_move_views(rec, target, r0, c0); break;
    case kBias: pto::detail::bias_move_views(rec, target); break;
    case kAcc: pto::detail::acc_move_views(rec, target, pto::detail::FixQuant::None, false, r0, c0); break;
    default: pto::detail::window_rules(core, rec, op.desc->op == pto::Op::TEXTRACT_V2V ? 0 : 1, r0, c0); break;
  }
  issue(core, rec);
}

std::string loc_pair(const Type& src, const Type& dst) {
  return std::string("loc=") + name_of(src.tile.loc) + " -> loc=" + name_of(dst.tile.loc);
}

// TEXTRACT / TINSERT's operands: `ins(%src, %r, %c : T, index, index) outs(%dst : T)`.
void window_operands(Cursor& cur, Op& op, std::vector<int>& ins, std::vector<Type>& in_t, std::vector<int>& outs,
                     std::vector<Type>& out_t) {
  cur.ins_outs(ins, in_t, outs, out_t);
  cur.attr_dict();
  if (outs.size() != 1 || out_t[0].kind != Type::Kind::Tile) cur.error("takes outs(dst) with one tile");
  if (ins.size() != 3) cur.error("takes ins(src, indexRow, indexCol) and outs(dst)");
  if (in_t[0].kind != Type::Kind::Tile) cur.error("src must be a tile, not " + in_t[0].text);
  for (std::size_t k = 1; k < 3; ++k)
    if (in_t[k].kind != Type::Kind::Index && in_t[k].kind != Type::Kind::Int)
      cur.error(std::string(k == 1 ? "indexRow" : "indexCol") + " must be an index or integer, not " + in_t[k].text);
  op.ints = {0, ins[1], ins[2]};
}

// pto.textract ins(%src, %r, %c : Ts, index, index) outs(%dst : Td)
void c_textract(Compiler&, Cursor& cur, Op& op) {
  std::vector<int> ins, outs;
  std::vector<Type> in_t, out_t;
  window_operands(cur, op, ins, in_t, outs, out_t);
  const Type &s = in_t[0], &d = out_t[0];
  const TileView sv = type_view(s), dv = type_view(d);
  if (s.tile.loc == TileType::Acc) {
    op.desc = &pto::desc_of<pto::Op::TEXTRACT_A2M>();
    op.ints[0] = kAcc;
    type_rule(cur, [&] { pto::detail::acc_move_type_rules(dv, sv, pto::detail::FixQuant::None); });
  } else if (d.tile.loc == TileType::Left || d.tile.loc == TileType::Right) {
    op.desc = &pto::desc_of<pto::Op::TEXTRACT_M2LR>();
    op.ints[0] = kL0;
    type_rule(cur, [&] { pto::detail::l0_move_type_rules(dv, sv, false); });
  } else {
    op.desc = &pto::desc_of<pto::Op::TEXTRACT_V2V>();
    op.ints[0] = kVecWindow;
    type_rule(cur, [&] { pto::detail::window_type_rules(dv, sv); });
  }
  op.in = {outs[0], ins[0]};
  op.types = {d, s};
  op.exec = exec_move;
}

// pto.tinsert ins(%src, %r, %c : Ts, index, index) outs(%dst : Td): src's valid region at (r, c) of dst.
void c_tinsert(Compiler&, Cursor& cur, Op& op) {
  std::vector<int> ins, outs;
  std::vector<Type> in_t, out_t;
  window_operands(cur, op, ins, in_t, outs, out_t);
  const Type &s = in_t[0], &d = out_t[0];
  const TileView sv = type_view(s), dv = type_view(d);
  if (s.tile.loc == TileType::Acc) {
    op.desc = &pto::desc_of<pto::Op::TINSERT_A2M>();
    op.ints[0] = kAcc;
    type_rule(cur, [&] { pto::detail::acc_move_type_rules(dv, sv, pto::detail::FixQuant::None); });
  } else if (s.tile.loc == TileType::Vec && d.tile.loc == TileType::Vec) {
    op.desc = &pto::desc_of<pto::Op::TINSERT_V2V>();
    op.ints[0] = kVecWindow;
    type_rule(cur, [&] { pto::detail::window_type_rules(sv, dv); });
  } else {
    cur.error("TINSERT " + loc_pair(s, d) + ": the forms are Acc -> Mat / Vec (the fixpipe) and Vec -> Vec");
  }
  op.in = {outs[0], ins[0]};
  op.types = {d, s};
  op.exec = exec_move;
}

// ---- TMATMUL / TGEMV -----------------------------------------------------------------------------

// op.in = {c, a, b[, bias]}; op.ints = {gemv}.
void exec_mad(Frame& f, const Op& op) {
  Core& core = pto::detail::current_core();
  InstrRecord rec = pto::detail::compute_record(*op.desc);
  for (const int slot : op.in) add_tile(f, op, core, rec, as_tile(f, op, slot));
  pto::detail::mad_shape(rec, pto::detail::core_target(core), op.ints[0] != 0, op.in.size() == 4);
  pto::detail::mad_mode(core, rec);
  issue(core, rec);
}

struct Mad {
  const char* name;
  pto::Op op;
  bool gemv, acc, bias;
};
constexpr Mad kMads[] = {{"pto.tmatmul", pto::Op::TMATMUL, false, false, false},
                         {"pto.tmatmul.acc", pto::Op::TMATMUL_ACC, false, true, false},
                         {"pto.tmatmul.bias", pto::Op::TMATMUL_BIAS, false, false, true},
                         {"pto.tgemv", pto::Op::TGEMV, true, false, false},
                         {"pto.tgemv.acc", pto::Op::TGEMV_ACC, true, true, false},
                         {"pto.tgemv.bias", pto::Op::TGEMV_BIAS, true, false, true}};

// pto.tmatmul ins(%a, %b) outs(%c); .acc ins([%c_in,] %a, %b) outs(%c) (the NPUs accumulate into c and
// do not read c_in); .bias ins(%a, %b, %bias) outs(%c).
void c_mad(Compiler&, Cursor& cur, Op& op) {
  const Mad* m = nullptr;
  for (const Mad& x : kMads)
    if (op.name == x.name) m = &x;
  std::vector<int> ins, outs;
  std::vector<Type> in_t, out_t;
  cur.ins_outs(ins, in_t, outs, out_t);
  cur.attr_dict();
  if (m->acc && ins.size() == 3) {  // ins(%c_in, %a, %b)
    ins.erase(ins.begin());
    in_t.erase(in_t.begin());
  }
  const std::size_t want = m->bias ? 3 : 2;
  if (ins.size() != want || outs.size() != 1)
    cur.error(std::string("takes ") + (m->bias ? "ins(a, b, bias)" : m->acc ? "ins([c_in,] a, b)" : "ins(a, b)") + " and outs(c)");
  for (const Type& t : in_t)
    if (t.kind != Type::Kind::Tile) cur.error("every operand must be a tile, not " + t.text);
  if (out_t[0].kind != Type::Kind::Tile) cur.error("c must be a tile, not " + out_t[0].text);
  const TileView c = type_view(out_t[0]), a = type_view(in_t[0]), b = type_view(in_t[1]);
  const TileView bias = m->bias ? type_view(in_t[2]) : TileView{};
  type_rule(cur, [&] { pto::detail::mad_type_rules(c, a, b, m->bias ? &bias : nullptr); });
  op.desc = pto::find_desc(m->op);
  op.in = {outs[0]};
  op.in.insert(op.in.end(), ins.begin(), ins.end());
  op.types = {out_t[0]};
  op.types.insert(op.types.end(), in_t.begin(), in_t.end());
  op.ints = {m->gemv ? 1 : 0};
  op.exec = exec_mad;
}

// ---- TSTORE from an Acc tile (the fixpipe) ---------------------------------------------------------

// op.in = {view, tile}.
void exec_acc_store(Frame& f, const Op& op) {
  Core& core = pto::detail::current_core();
  InstrRecord rec = pto::detail::compute_record(*op.desc);
  add_gm(f, op, rec, as_tensor(f, op, op.in[0]));
  add_tile(f, op, core, rec, as_tile(f, op, op.in[1]));
  const GmView& g = rec.ops[0].gm;
  if (g.layout != Layout::ND && g.layout != Layout::NZ)
    op_error(f, op, "TSTORE Acc -> GM: the view must be ND or NZ (pto-run does not read the convolution layouts)");
  const int c0 = size_of(g.dtype) == 1 ? 32 : 16;
  const bool split = g.dtype == DType::F32 && rec.ops[1].tile.dtype == DType::F32 && g.shape[4] == 8;
  if (g.layout == Layout::NZ && (g.shape[3] != 16 || (g.shape[4] != c0 && !split)))
    op_error(f, op, "TSTORE Acc -> NZ GM: dims 3 and 4 must be 16 and C0: 32 for 1-byte outputs, 16 for the others (8 for "
                    "float -> float with the channel split)");
  pto::detail::acc_store_views(rec, pto::detail::core_target(core), pto::detail::FixQuant::None, false, false);
  issue(core, rec);
}

}  // namespace

void compile_acc_store(Cursor& cur, Op& op) {
  const TileView t = type_view(op.types[1]);
  type_rule(cur, [&] { pto::detail::acc_store_type_rules(op.types[0].dtype, Layout::ND, t, pto::detail::FixQuant::None, false); });
  op.desc = &pto::desc_of<pto::Op::TSTORE_ACC>();
  op.exec = exec_acc_store;
}

// TMOV's cube directions; op.in / op.types hold {dst, src}.
void compile_cube_move(Cursor& cur, Op& op) {
  const Type &d = op.types[0], &s = op.types[1];
  const TileView dv = type_view(d), sv = type_view(s);
  op.ints = {0, -1, -1};  // indexRow = indexCol = 0 (constants)
  if (s.tile.loc == TileType::Mat && (d.tile.loc == TileType::Left || d.tile.loc == TileType::Right)) {
    op.desc = d.tile.loc == TileType::Left ? &pto::desc_of<pto::Op::TMOV_M2L>() : &pto::desc_of<pto::Op::TMOV_M2R>();
    op.ints[0] = kL0;
    type_rule(cur, [&] { pto::detail::l0_move_type_rules(dv, sv, true); });
  } else if (s.tile.loc == TileType::Mat && d.tile.loc == TileType::Bias) {
    op.desc = &pto::desc_of<pto::Op::TMOV_M2B>();
    op.ints[0] = kBias;
    type_rule(cur, [&] { pto::detail::bias_move_type_rules(dv, sv); });
  } else if (s.tile.loc == TileType::Acc) {
    op.desc = &pto::desc_of<pto::Op::TMOV_A2M>();
    op.ints[0] = kAcc;
    type_rule(cur, [&] { pto::detail::acc_move_type_rules(dv, sv, pto::detail::FixQuant::None); });
  } else {
    cur.error("TMOV " + loc_pair(s, d) + ": the forms are Vec -> Vec, Mat -> Left / Right / Bias and Acc -> Mat / Vec");
  }
  cur.attr_dict();
  op.exec = exec_move;
}

void register_cube_ops(std::map<std::string, CompileFn>& t) {
  t["pto.textract"] = c_textract;
  t["pto.tinsert"] = c_tinsert;
  for (const Mad& m : kMads) t[m.name] = c_mad;
}

}  // namespace pto::ir::detail
