// The pto dialect: views of GM, tiles, and the tile instructions. An instruction op builds the record
// its C++ function builds (runtime/include/pto/runtime/*.hpp: the same descriptor, operands, scalar and
// variant bits, the same dynamic checks, and the type rules the C++ function states as static_asserts,
// checked here on the op's types) and issues it to the core: one registry of kernels and one cost model
// serve both front doors. test_ir runs kernels through both and compares results and modeled cycles.
#include <cctype>
#include <cstdint>
#include <cstring>
#include <sstream>

#include <pto/isa/bfloat16.hpp>
#include <pto/runtime/core_api.hpp>
#include <pto/runtime/data_movement.hpp>
#include <pto/runtime/layout.hpp>
#include <pto/runtime/operands.hpp>
#include <pto/runtime/binary.hpp>
#include <pto/runtime/broadcast.hpp>
#include <pto/runtime/convert.hpp>
#include <pto/runtime/record.hpp>
#include <pto/runtime/reduce.hpp>
#include <pto/runtime/sync.hpp>
#include <pto/runtime/tile_scalar.hpp>
#include <pto/runtime/unary.hpp>

#include "program.hpp"
#include "pto_ops.hpp"

namespace pto::ir::detail {

using pto::detail::InstrRecord;

void set(Frame& f, const Op& op, std::size_t k, Value v) { f.v[std::size_t(op.out[k])] = std::move(v); }
int result(Compiler& c, Cursor& cur, const Type& t, std::size_t k) {
  const auto& r = cur.stmt().results;
  if (k >= r.size()) cur.error("the op has a result; name it (%r = " + cur.stmt().op + " ...)");
  return c.define(r[k], t, cur.stmt().line, cur.stmt().col);
}
TileView type_view(const Type& t) {
  const TileType_& tt = t.tile;
  return tt.view(tt.v_row < 0 ? tt.rows : tt.v_row, tt.v_col < 0 ? tt.cols : tt.v_col);
}
Type index_type() {
  Type t;
  t.kind = Type::Kind::Index;
  t.text = "index";
  return t;
}

// ---- views of GM ---------------------------------------------------------------------------------

// %v = pto.make_tensor_view %ptr, shape = [...], strides = [...] {layout = #pto.layout<nd>} : !pto.tensor_view<...>
void exec_make_view(Frame& f, const Op& op) {
  TensorVal t = as_tensor(f, op, op.in[0]);
  if (t.rank != 0) op_error(f, op, op.name + ": the operand is a tensor view, not a !pto.ptr");
  const Type& ty = op.types[0];
  const int rank = int(ty.shape.size());
  t.rank = rank;
  for (int k = 0; k < rank; ++k) {
    t.shape[k] = index_of(f, op, op.ints[std::size_t(k)]);
    t.stride[k] = index_of(f, op, op.ints[std::size_t(rank + k)]);
    if (ty.shape[std::size_t(k)] >= 0 && ty.shape[std::size_t(k)] != t.shape[k])
      op_error(f, op, op.name + ": shape dimension " + std::to_string(k) + " is " + std::to_string(t.shape[k]) + " but the type says " +
                          std::to_string(ty.shape[std::size_t(k)]));
    if (t.shape[k] < 0 || t.stride[k] < 0) op_error(f, op, op.name + ": negative shape or stride in dimension " + std::to_string(k));
  }
  t.layout = Layout(op.ints[std::size_t(2 * rank)]);
  set(f, op, 0, t);
}
Layout layout_of(Cursor& cur, const std::map<std::string, std::string>& attrs) {
  const auto it = attrs.find("layout");
  if (it == attrs.end()) return Layout::ND;
  const std::string& v = it->second;
  if (v.find("<nd>") != std::string::npos) return Layout::ND;
  if (v.find("<dn>") != std::string::npos) return Layout::DN;
  if (v.find("<nz>") != std::string::npos) return Layout::NZ;
  cur.error("layout " + v + ": nd, dn and nz are supported");
}
void c_make_view(Compiler& c, Cursor& cur, Op& op) {
  Type pt;
  op.in = {cur.value(&pt)};
  if (pt.kind != Type::Kind::Ptr) cur.error("the first operand must be a !pto.ptr, not " + pt.text);
  cur.expect(",");
  if (cur.ident() != "shape") cur.error("expected 'shape = [...]'");
  cur.expect("=");
  const auto shape = cur.index_list();
  cur.expect(",");
  if (cur.ident() != "strides") cur.error("expected 'strides = [...]'");
  cur.expect("=");
  const auto strides = cur.index_list();
  const auto attrs = cur.attr_dict();
  cur.expect(":");
  Type t = cur.type();
  if (t.kind != Type::Kind::TensorView) cur.error("the result type must be a !pto.tensor_view, not " + t.text);
  // `!pto.tensor_view<2xf32>` with two sizes and two strides: PTOAS's older rank-only form.
  if (t.shape.size() == 1 && t.shape[0] >= 2 && shape.size() == std::size_t(t.shape[0]) && strides.size() == shape.size())
    t.shape.assign(shape.size(), -1);
  if (shape.size() != t.shape.size() || strides.size() != t.shape.size())
    cur.error("the type has " + std::to_string(t.shape.size()) + " dimensions; shape and strides must list as many");
  if (t.dtype != pt.dtype) cur.error("the view's element type differs from the pointer's (" + pt.text + ")");
  op.ints = shape;
  op.ints.insert(op.ints.end(), strides.begin(), strides.end());
  op.ints.push_back(std::int64_t(layout_of(cur, attrs)));
  op.types = {t};
  op.exec = exec_make_view;
  op.out = {result(c, cur, t)};
}

// %p = pto.partition_view %v, offsets = [...], sizes = [...] : !pto.tensor_view<...> -> !pto.partition_tensor_view<...>
// A window may reach past its view's declared shape, as on the chips (where the parent view is only a
// base pointer and strides: PyPTO's decode kernels put a batch offset on a view of one batch tile); what
// bounds it is the argument's buffer, which every instruction's GM access is checked against.
void exec_partition(Frame& f, const Op& op) {
  TensorVal t = as_tensor(f, op, op.in[0]);
  const int rank = t.rank;
  if (rank != int(op.types[0].shape.size()))
    op_error(f, op, op.name + ": the view has " + std::to_string(rank) + " dimensions; the op's types say " +
                        std::to_string(op.types[0].shape.size()));
  std::int64_t offset = 0;
  for (int k = 0; k < rank; ++k) {
    const std::int64_t o = index_of(f, op, op.ints[std::size_t(k)]), n = index_of(f, op, op.ints[std::size_t(rank + k)]);
    if (o < 0 || n < 0)
      op_error(f, op, op.name + ": dimension " + std::to_string(k) + ": offset " + std::to_string(o) + " and size " + std::to_string(n) +
                          " must not be negative");
    const std::int64_t want = op.types[0].shape[std::size_t(k)];
    if (want >= 0 && want != n)
      op_error(f, op, op.name + ": size " + std::to_string(k) + " is " + std::to_string(n) + " but the result type says " + std::to_string(want));
    std::int64_t step = 0;
    if (__builtin_mul_overflow(o, t.stride[k], &step) || __builtin_add_overflow(offset, step, &offset) || offset > (std::int64_t(1) << 48))
      op_error(f, op, op.name + ": dimension " + std::to_string(k) + ": offset " + std::to_string(o) + " puts the window beyond any buffer");
    t.shape[k] = n;
  }
  t.base += offset * std::int64_t(size_of(t.dtype));
  set(f, op, 0, t);
}
void c_partition(Compiler& c, Cursor& cur, Op& op) {
  Type vt;
  op.in = {cur.value(&vt)};
  cur.expect(",");
  if (cur.ident() != "offsets") cur.error("expected 'offsets = [...]'");
  cur.expect("=");
  const auto offsets = cur.index_list();
  cur.expect(",");
  if (cur.ident() != "sizes") cur.error("expected 'sizes = [...]'");
  cur.expect("=");
  const auto sizes = cur.index_list();
  cur.expect(":");
  cur.type();
  cur.expect("->");
  const Type t = cur.type();
  if (t.kind != Type::Kind::PartitionView) cur.error("the result type must be a !pto.partition_tensor_view, not " + t.text);
  if (offsets.size() != vt.shape.size() || sizes.size() != vt.shape.size() || t.shape.size() != vt.shape.size())
    cur.error("offsets, sizes and the result type must have the view's " + std::to_string(vt.shape.size()) + " dimensions");
  op.ints = offsets;
  op.ints.insert(op.ints.end(), sizes.begin(), sizes.end());
  op.types = {t};
  op.exec = exec_partition;
  op.out = {result(c, cur, t)};
}

// The GlobalTensor an instruction sees: a view's dimensions right-aligned in the five of pto-isa's shape.
GmView gm_view(const TensorVal& t) {
  GmView g;
  g.base = t.base;
  g.dtype = t.dtype;
  g.layout = t.layout;
  for (int k = 0; k < t.rank; ++k) {
    g.shape[5 - t.rank + k] = t.shape[k];
    g.stride[5 - t.rank + k] = t.stride[k];
  }
  return g;
}

// %q = pto.addptr %p, %n : !pto.ptr<T> -> !pto.ptr<T> (also PTOAS's short `<T> -> <T>`): n elements on.
void exec_addptr(Frame& f, const Op& op) {
  TensorVal t = as_tensor(f, op, op.in[0]);
  const std::int64_t n = as_int(f, op, op.in[1]);
  std::int64_t bytes = 0;
  if (__builtin_mul_overflow(n, std::int64_t(size_of(t.dtype)), &bytes) || bytes < -(std::int64_t(1) << 48) || bytes > (std::int64_t(1) << 48))
    op_error(f, op, op.name + ": an offset of " + std::to_string(n) + " elements points beyond any buffer");
  t.base += bytes;
  set(f, op, 0, t);
}
void c_addptr(Compiler& c, Cursor& cur, Op& op) {
  Type pt, nt;
  op.in = {cur.value(&pt)};
  cur.expect(",");
  op.in.push_back(cur.value(&nt));
  if (pt.kind != Type::Kind::Ptr) cur.error("the first operand must be a !pto.ptr, not " + pt.text);
  if (nt.kind != Type::Kind::Index && nt.kind != Type::Kind::Int) cur.error("the offset must be an index, not " + nt.text);
  while (!cur.done()) cur.next();  // the types restate the pointer's
  op.exec = exec_addptr;
  op.out = {result(c, cur, pt)};
}

// ---- tiles ---------------------------------------------------------------------------------------

struct AutoRelease {
  static void release(TileVal& t) {
    if (!t.placed || t.fixed != ~0u) return;
    if (t.retire) pto::detail::auto_retire(t.view.base, t.owner);
    else if (pto::detail::tile_hooks.release) pto::detail::tile_hooks.release(t.view.base, t.owner);
  }
};

// A tile value: its bytes go back to auto mode when the last value holding it goes.
std::shared_ptr<TileVal> new_tile(const TileType_& tt) {
  auto t = std::shared_ptr<TileVal>(new TileVal, [](TileVal* p) {
    AutoRelease::release(*p);
    delete p;
  });
  t->type = tt;
  return t;
}

void fix_address(Frame& f, const Op& op, TileVal& t, std::int64_t addr) {
  const TileType_& tt = t.type;
  if (addr < 0) op_error(f, op, op.name + ": addr " + std::to_string(addr) + " is negative");
  pto::detail::Core& core = pto::detail::current_core();
  const std::size_t cap = pto::detail::buffer_bytes(core, tt.loc);
  if (std::uint64_t(addr) % kBlockBytes != 0)
    op_error(f, op, op.name + ": addr " + std::to_string(addr) + " is not 32-byte aligned (every on-chip address is a multiple of 32)");
  if (cap == 0 || std::uint64_t(addr) > cap || tt.bytes() > cap - std::uint64_t(addr))
    op_error(f, op, op.name + ": bytes [" + std::to_string(addr) + ", " + std::to_string(std::uint64_t(addr) + tt.bytes()) + ") exceed the " +
                        std::to_string(cap / 1024) + " KiB buffer of " + op.types[0].text);
  std::ostringstream what;
  what << t.view << " at 0x" << std::hex << addr;
  pto::detail::note_tassign(core, tt.loc, std::uint64_t(addr), tt.bytes(), what.str());
  t.fixed = std::uint32_t(addr);
  t.view.base = pto::detail::buffer_base(core, tt.loc) + addr;
  t.view.offset = std::uint32_t(addr);
  t.owner = pto::detail::core_run_id(core);
  t.placed = true;
}

void exec_alloc(Frame& f, const Op& op) {
  const TileType_& tt = op.types[0].tile;
  auto t = new_tile(tt);
  int vr = tt.v_row, vc = tt.v_col;
  auto valid = [&](std::int64_t entry, int& out) {
    if (entry == kNone) return;
    const std::int64_t v = index_of(f, op, entry);
    if (v < 0 || v > 65535) op_error(f, op, op.name + ": a valid row or column count of " + std::to_string(v) + " is out of range");
    out = int(v);
  };
  valid(op.ints[1], vr);
  valid(op.ints[2], vc);
  if (vr < 0 || vc < 0)
    op_error(f, op, op.name + ": the type's valid shape is dynamic ('?'): give valid_row = and valid_col = (or set_validshape before use)");
  if (vr > tt.rows || vc > tt.cols)
    op_error(f, op, op.name + ": valid shape " + std::to_string(vr) + "x" + std::to_string(vc) + " exceeds the tile's " +
                        std::to_string(tt.rows) + "x" + std::to_string(tt.cols));
  t->view = tt.view(vr, vc);
  if (op.ints[0] != kNone) fix_address(f, op, *t, index_of(f, op, op.ints[0]));
  set(f, op, 0, std::move(t));
}
void c_alloc(Compiler& c, Cursor& cur, Op& op) {
  op.ints = {kNone, kNone, kNone};  // addr, valid_row, valid_col (index_list entries)
  while (!cur.done() && !cur.peek().is(":")) {
    const std::string k = cur.ident();
    cur.expect("=");
    std::int64_t v = 0;
    if (cur.peek().kind == Token::Kind::Int) {
      const Token& t = cur.peek();
      const std::int64_t n = cur.integer();
      if (n < 0) cur.error_at(t, k + " must not be negative (" + t.text + ")");
      v = -1 - n;
    } else {
      v = cur.value();
    }
    if (k == "addr") op.ints[0] = v;
    else if (k == "valid_row") op.ints[1] = v;
    else if (k == "valid_col") op.ints[2] = v;
    else cur.error("unknown alloc_tile key '" + k + "' (addr, valid_row, valid_col)");
  }
  cur.expect(":");
  const Type t = cur.type();
  if (t.kind != Type::Kind::Tile) cur.error("the result type must be a !pto.tile_buf, not " + t.text);
  op.types = {t};
  op.exec = exec_alloc;
  op.out = {result(c, cur, t)};
}
// memref.alloc() : memref<...> (PTOAS's bufferized form): a tile without an address.
void c_memref_alloc(Compiler& c, Cursor& cur, Op& op) {
  cur.expect("(");
  cur.expect(")");
  cur.attr_dict();
  c_alloc(c, cur, op);
}
// memref.dealloc %m : memref<...>: the auto placer keeps a tile's bytes for its run, as pto-runtime's
// C++ tiles keep theirs for their scope; nothing to do.
void c_memref_dealloc(Compiler&, Cursor& cur, Op& op) {
  cur.value();
  cur.expect(":");
  cur.type();
  op.exec = [](Frame&, const Op&) {};
}

void place(Frame& f, const Op& op, pto::detail::Core& core, TileVal& t, const char* instr, const char* operand) {
  if (!t.placed) {
    if (pto::detail::core_mode(core) != Mode::Auto)
      op_error(f, op, std::string(instr) + ": operand " + operand +
                          ": the tile has no address; give its alloc_tile `addr = ...`, or run the file in auto mode (--mode auto)");
    t.view.base = pto::detail::auto_place(core, t.type.loc, t.type.bytes(), t.view, instr, operand);
    t.view.offset = std::uint32_t(t.view.base - pto::detail::buffer_base(core, t.type.loc));
    t.owner = pto::detail::core_run_id(core);
    t.placed = true;
  }
  if (t.owner != pto::detail::core_run_id(core)) op_error(f, op, std::string(instr) + ": the tile was placed on another core");
}
// Places `t` (auto mode: at its first use, as a Tile with no TASSIGN) and adds it as the next operand.
void add_tile(Frame& f, const Op& op, pto::detail::Core& core, InstrRecord& rec, TileVal& t) {
  const InstrDesc& d = *rec.desc;
  if (rec.nops >= d.operand_count) op_error(f, op, std::string(d.name) + ": more operands than its descriptor's");
  const OperandDesc& od = d.operands[std::size_t(rec.nops)];
  place(f, op, core, t, d.name, od.name);
  pto::Operand& o = rec.ops[rec.nops++];
  o.kind = pto::Operand::Kind::Tile;
  o.role = od.role;
  o.tile = t.view;
}
void add_unused(Frame& f, const Op& op, InstrRecord& rec, const TileVal& t) {
  const InstrDesc& d = *rec.desc;
  if (rec.nops >= d.operand_count) op_error(f, op, std::string(d.name) + ": more operands than its descriptor's");
  pto::Operand& o = rec.ops[rec.nops];
  o.kind = pto::Operand::Kind::Tile;
  o.role = d.operands[std::size_t(rec.nops++)].role;
  o.tile = t.view;
  o.tile.valid_rows = o.tile.valid_cols = 0;
}
void add_gm(Frame& f, const Op& op, InstrRecord& rec, const TensorVal& t) {
  const InstrDesc& d = *rec.desc;
  if (rec.nops >= d.operand_count) op_error(f, op, std::string(d.name) + ": more operands than its descriptor's");
  if (t.rank == 0) op_error(f, op, std::string(d.name) + ": a GM operand must be a tensor view (make_tensor_view / partition_view), not a pointer");
  pto::Operand& o = rec.ops[rec.nops++];
  o.kind = pto::Operand::Kind::Gm;
  o.role = d.operands[std::size_t(rec.nops - 1)].role;
  o.gm = gm_view(t);
}
void issue(pto::detail::Core& core, InstrRecord& rec) { pto::detail::issue_blocking(core, rec); }

// ---- the type rules of the C++ functions' static_asserts, on the op's types ------------------------


// Compiles `ins(...) outs(...)` with `nin` inputs (tiles, or scalars where `scalar_at` says) and one output.
void compile_ins_outs(Cursor& cur, Op& op, std::size_t nin, int scalar_at) {
  std::vector<int> ins, outs;
  std::vector<Type> in_t, out_t;
  cur.ins_outs(ins, in_t, outs, out_t);
  cur.attr_dict();
  if (ins.size() != nin || outs.size() != 1)
    cur.error("takes " + std::to_string(nin) + " ins and 1 outs, found " + std::to_string(ins.size()) + " and " + std::to_string(outs.size()));
  for (std::size_t k = 0; k < ins.size(); ++k) {
    const bool scalar = int(k) == scalar_at;
    if (scalar != in_t[k].scalar())
      cur.error("ins operand " + std::to_string(k) + " must be " + (scalar ? "a scalar" : "a tile") + ", not " + in_t[k].text);
  }
  op.in = outs;
  op.in.insert(op.in.end(), ins.begin(), ins.end());
  op.types = out_t;
  op.types.insert(op.types.end(), in_t.begin(), in_t.end());
}

// The SSA form of the seed articles, `%d = pto.tadd %a, %b : T0, T1 -> Td`: the same instruction with a
// new tile of type Td as dst (placed at its first use, so auto mode). Op::ssa marks it.
bool compile_ssa(Compiler& c, Cursor& cur, Op& op, std::size_t nin, int scalar_at) {
  if (cur.done() || cur.peek().kind != Token::Kind::Value) return false;
  std::vector<int> ins;
  std::vector<Type> in_t;
  do {
    ins.push_back(cur.value());
    cur.keep_attr_dict();  // `%x {rmode = ...}`: read by the op as an operand attribute (operand_attrs)
  } while (cur.accept(","));
  cur.expect(":");
  do in_t.push_back(cur.type()); while (cur.accept(","));
  cur.expect("->");
  const Type out = cur.type();
  if (ins.size() != nin || in_t.size() != nin)
    cur.error("takes " + std::to_string(nin) + " operands (and as many types) in its SSA form, found " + std::to_string(ins.size()));
  for (std::size_t k = 0; k < ins.size(); ++k)
    if ((int(k) == scalar_at) != in_t[k].scalar())
      cur.error("operand " + std::to_string(k) + " must be " + (int(k) == scalar_at ? "a scalar" : "a tile") + ", not " + in_t[k].text);
  if (out.kind != Type::Kind::Tile) cur.error("the result type must be a !pto.tile_buf, not " + out.text);
  const int dst = result(c, cur, out);
  op.in = {dst};
  op.in.insert(op.in.end(), ins.begin(), ins.end());
  op.out = {dst};
  op.types = {out};
  op.types.insert(op.types.end(), in_t.begin(), in_t.end());
  op.ssa = true;
  return true;
}
// An SSA-form op's dst: a fresh tile, its valid shape the type's or (dynamic) its first tile operand's.
void ssa_dst(Frame& f, const Op& op) {
  if (!op.ssa) return;
  const TileType_& tt = op.types[0].tile;
  int vr = tt.v_row, vc = tt.v_col;
  for (std::size_t k = 1; k < op.in.size() && (vr < 0 || vc < 0); ++k)
    if (const auto* src = std::get_if<std::shared_ptr<TileVal>>(&f.v[std::size_t(op.in[k])])) {
      if (vr < 0) vr = (*src)->view.valid_rows;
      if (vc < 0) vc = (*src)->view.valid_cols;
    }
  auto t = new_tile(tt);
  t->view = tt.view(std::max(vr, 0), std::max(vc, 0));
  set(f, op, 0, std::move(t));
}

namespace {

// ---- data movement -------------------------------------------------------------------------------

// pto.tload ins(%view) outs(%tile) (data_movement.hpp TLOAD); pto.tstore ins(%tile) outs(%view).
void exec_tload(Frame& f, const Op& op) {
  pto::detail::Core& core = pto::detail::current_core();
  InstrRecord rec = pto::detail::compute_record(*op.desc);
  add_tile(f, op, core, rec, as_tile(f, op, op.in[0]));
  add_gm(f, op, rec, as_tensor(f, op, op.in[1]));
  pto::detail::tload_checks(rec, pto::detail::core_target(core));
  issue(core, rec);
}
void exec_tstore(Frame& f, const Op& op) {
  pto::detail::Core& core = pto::detail::current_core();
  InstrRecord rec = pto::detail::compute_record(*op.desc);
  add_gm(f, op, rec, as_tensor(f, op, op.in[0]));
  add_tile(f, op, core, rec, as_tile(f, op, op.in[1]));
  pto::detail::vec_mat_store_checks(rec, pto::detail::core_target(core));
  issue(core, rec);
}
void check_gm_rules(Cursor& cur, const Type& tile, const Type& view) {
  if (tile.kind != Type::Kind::Tile) cur.error("the tile operand must be a !pto.tile_buf, not " + tile.text);
  if (view.kind != Type::Kind::PartitionView && view.kind != Type::Kind::TensorView)
    cur.error("the GM operand must be a tensor or partition view, not " + view.text);
  if (tile.tile.loc != TileType::Vec && tile.tile.loc != TileType::Mat && tile.tile.loc != TileType::Acc)
    cur.error("a Vec (UB), Mat (L1) or (TSTORE) Acc (L0C) tile");
  if (tile.tile.loc == TileType::Acc) return;  // the fixpipe converts: compile_acc_store checks the pair
  if (size_of(tile.tile.dtype) != size_of(view.dtype)) cur.error("the tile's and the view's element types must have the same size");
}
void c_tload(Compiler&, Cursor& cur, Op& op) {
  std::vector<int> ins, outs;
  std::vector<Type> in_t, out_t;
  cur.ins_outs(ins, in_t, outs, out_t);
  cur.attr_dict();
  if (ins.size() != 1 || outs.size() != 1) cur.error("takes ins(view) outs(tile)");
  check_gm_rules(cur, out_t[0], in_t[0]);
  if (out_t[0].tile.loc == TileType::Acc) cur.error("TLOAD: the destination must be a Vec or Mat tile (nothing loads L0C from GM)");
  op.in = {outs[0], ins[0]};
  op.types = {out_t[0], in_t[0]};
  op.desc = &pto::desc_of<pto::Op::TLOAD>();
  op.exec = exec_tload;
}
void c_tstore(Compiler&, Cursor& cur, Op& op) {
  std::vector<int> ins, outs;
  std::vector<Type> in_t, out_t;
  cur.ins_outs(ins, in_t, outs, out_t);
  cur.attr_dict();
  if (ins.size() != 1 || outs.size() != 1) cur.error("takes ins(tile) outs(view)");
  check_gm_rules(cur, in_t[0], out_t[0]);
  op.in = {outs[0], ins[0]};
  op.types = {out_t[0], in_t[0]};
  if (in_t[0].tile.loc == TileType::Acc) return compile_acc_store(cur, op);
  op.desc = in_t[0].tile.loc == TileType::Mat ? &pto::desc_of<pto::Op::TSTORE_MAT>() : &pto::desc_of<pto::Op::TSTORE_VEC>();
  op.exec = exec_tstore;
}

// ---- element-wise --------------------------------------------------------------------------------

using pto::detail::Core;

void exec_binary(Frame& f, const Op& op) {
  run_instr(f, op, op.in.size(), [](Core&, InstrRecord& r, Target t) { pto::detail::binary_checks(r, t); });
}
void exec_unary(Frame& f, const Op& op) {
  run_instr(f, op, op.in.size(), [](Core&, InstrRecord& r, Target t) { pto::detail::unary_checks(r, t); });
}
void exec_tile_scalar(Frame& f, const Op& op) {
  run_instr(f, op, 2, [&](Core&, InstrRecord& r, Target t) {
    pto::detail::tile_scalar_checks(r, t);
    r.scalar = pto::detail::scalar_of(r.ops[1].tile.dtype, as_float(f, op, op.in[2]));
    if (!op.ints.empty() && op.ints[0] == 2) r.variant |= pto::kVariantScalarFirst;  // TDIVS(dst, scalar, src)
  });
}
void exec_texpands(Frame& f, const Op& op) {
  run_instr(f, op, 1, [&](Core&, InstrRecord& r, Target t) {
    pto::detail::texpands_checks(r, t);
    r.scalar = pto::detail::scalar_of(r.ops[0].tile.dtype, as_float(f, op, op.in[1]));
  });
}
void exec_row_reduce(Frame& f, const Op& op) {
  run_instr(f, op, op.in.size(), [](Core&, InstrRecord& r, Target t) { pto::detail::row_reduce_checks(r, t); });
}
// TCVT (convert.hpp), TMOV Vec -> Vec (data_movement.hpp), the broadcasts (broadcast.hpp).
void exec_tcvt(Frame& f, const Op& op) {
  run_instr(f, op, op.in.size(), [&](Core&, InstrRecord& r, Target t) {
    pto::detail::cvt_checks(r, t, RoundMode(op.floats[0]), op.floats[1] != 0, SaturationMode(op.floats[2]));
  });
}
void exec_vec_move(Frame& f, const Op& op) {
  run_instr(f, op, 2, [](Core&, InstrRecord& r, Target t) { pto::detail::vec_move_checks(r, t); });
}
void exec_colexpand(Frame& f, const Op& op) {
  run_instr(f, op, 3, [](Core&, InstrRecord& r, Target t) {
    pto::detail::check_dtype(*r.desc, r.ops[0].tile.dtype, t);
    pto::detail::colexpand_checks(r);
  });
}
void exec_rowexpand(Frame& f, const Op& op) {
  run_instr(f, op, 3, [](Core& core, InstrRecord& r, Target t) {
    pto::detail::check_dtype(*r.desc, r.ops[0].tile.dtype, t);
    const pto::detail::RowExpandRoles roles = pto::detail::rowexpand_checks(r, t, false);
    if (t == Target::A2A3 && !roles.mode2) pto::detail::rowexpand_scratch(core, r);
  });
}

// `#pto<round_mode ROUND>` -> RoundMode (CAST_ prefix optional); `#pto<saturation_mode OFF>`.
bool round_mode_of(const std::string& v, RoundMode& out) {
  static const std::pair<const char*, RoundMode> modes[] = {{"NONE", RoundMode::CAST_NONE},   {"RINT", RoundMode::CAST_RINT},
                                                            {"ROUND", RoundMode::CAST_ROUND}, {"FLOOR", RoundMode::CAST_FLOOR},
                                                            {"CEIL", RoundMode::CAST_CEIL},   {"TRUNC", RoundMode::CAST_TRUNC},
                                                            {"ODD", RoundMode::CAST_ODD}};
  const auto sp = v.find_last_of(" _<");
  const std::string name = v.substr(sp == std::string::npos ? 0 : sp + 1, v.find('>') == std::string::npos ? std::string::npos : v.find('>') - sp - 1);
  for (const auto& [n, m] : modes)
    if (name == n) return out = m, true;
  return false;
}

void c_tcvt(Compiler& c, Cursor& cur, Op& op) {
  op.desc = &pto::desc_of<pto::Op::TCVT>();
  if (!compile_ssa(c, cur, op, 1, -1)) operands(cur, op, 1, 2, {});  // ins(%src[, %tmp]): tmp is A2A3's staging
  const Rules r{cur, "TCVT"};
  for (std::size_t k = 0; k < 2; ++k) r.vec(op.types[k], k ? "src" : "dst"), r.row_major(op.types[k], k ? "src" : "dst");
  if (op.types.size() == 3) r.vec(op.types[2], "tmp");
  std::map<std::string, std::string> attrs;
  for (const auto& a : cur.operand_attrs()) attrs.insert(a.begin(), a.end());
  if (!cur.done()) {
    const auto tail = cur.attr_dict();
    attrs.insert(tail.begin(), tail.end());
  }
  RoundMode mode = RoundMode::CAST_RINT;  // PTOAS's default when the op names none
  if (attrs.count("rmode") && !round_mode_of(attrs["rmode"], mode))
    cur.error("rmode " + attrs["rmode"] + ": expected #pto<round_mode NONE|RINT|ROUND|FLOOR|CEIL|TRUNC|ODD>");
  bool sat_given = false;
  SaturationMode sat = SaturationMode::ON;
  for (const char* key : {"sat_mode", "satmode", "saturation"})
    if (attrs.count(key)) {
      sat_given = true;
      const std::string& v = attrs[key];
      if (v.find("OFF") != std::string::npos) sat = SaturationMode::OFF;
      else if (v.find("ON") == std::string::npos) cur.error(std::string(key) + " " + v + ": expected #pto<saturation_mode ON|OFF>");
    }
  op.floats = {double(mode), sat_given ? 1.0 : 0.0, double(sat)};
  op.exec = exec_tcvt;
}

void c_tmov(Compiler& c, Cursor& cur, Op& op) {
  op.desc = &pto::desc_of<pto::Op::TMOV_V2V>();
  if (!compile_ssa(c, cur, op, 1, -1)) compile_ins_outs(cur, op, 1);
  const Type &d = op.types[0], &s = op.types[1];
  if (d.kind != Type::Kind::Tile || s.kind != Type::Kind::Tile) cur.error("dst and src must be tiles");
  if (d.tile.loc != TileType::Vec || s.tile.loc != TileType::Vec) {
    if (op.ssa) cur.error("the cube's TMOV forms take ins(...) outs(...), not the SSA form");
    compile_cube_move(cur, op);
    return;
  }
  if (size_of(d.tile.dtype) != size_of(s.tile.dtype)) cur.error("TMOV (Vec -> Vec): dst and src must have elements of one size");
  if (s.tile.slayout != SLayout::NoneBox) cur.error("TMOV (Vec -> Vec): a boxed source is rejected (neither NPU converts NZ -> ND)");
  if (d.tile.slayout != SLayout::NoneBox &&
      !(s.tile.blayout == BLayout::RowMajor && d.tile.blayout == BLayout::ColMajor && d.tile.slayout == SLayout::RowMajor && d.tile.fractal == 512))
    cur.error("TMOV (Vec -> Vec): the boxed form is ND -> NZ (a RowMajor NoneBox src, an NZ dst; A5)");
  cur.attr_dict();
  op.exec = exec_vec_move;
}

// pto.tfillpad / tfillpad_inplace / tfillpad_expand ins(%src) outs(%dst) (layout.hpp): the Vec form.
TFillPadMode fillpad_mode(const Op& op) {
  return op.desc->op == pto::Op::TFILLPAD ? TFillPadMode::Normal
         : op.desc->op == pto::Op::TFILLPAD_INPLACE ? TFillPadMode::InPlace
                                                     : TFillPadMode::Expand;
}
void exec_fillpad(Frame& f, const Op& op) {
  run_instr(f, op, 2, [&](Core&, InstrRecord& r, Target t) { pto::detail::fillpad_vec_views(r, t, fillpad_mode(op)); });
}
void c_fillpad(Compiler& c, Cursor& cur, Op& op) {
  op.desc = op.name == "pto.tfillpad" ? &pto::desc_of<pto::Op::TFILLPAD>()
            : op.name == "pto.tfillpad_inplace" ? &pto::desc_of<pto::Op::TFILLPAD_INPLACE>()
                                                : &pto::desc_of<pto::Op::TFILLPAD_EXPAND>();
  if (!compile_ssa(c, cur, op, 1, -1)) compile_ins_outs(cur, op, 1);
  const Type &d = op.types[0], &s = op.types[1];
  if (d.kind != Type::Kind::Tile || s.kind != Type::Kind::Tile) cur.error("dst and src must be tiles");
  if (d.tile.loc == TileType::Mat) cur.error("TFILLPAD of an NZ Mat tile is not in pto-run yet (the Vec form is)");
  const TileView dv = type_view(d), sv = type_view(s);
  type_rule(cur, [&] { pto::detail::fillpad_vec_type_rules(dv, sv, fillpad_mode(op)); });
  op.exec = exec_fillpad;
}

void c_bcast(Compiler& c, Cursor& cur, Op& op) {
  const bool col = op.name.rfind("pto.tcol", 0) == 0;
  if (!compile_ssa(c, cur, op, 2, -1)) compile_ins_outs(cur, op, 2);
  const Rules r{cur, op.name.c_str()};
  for (std::size_t k = 0; k < 3; ++k) r.vec(op.types[k], k == 0 ? "dst" : k == 1 ? "src0" : "src1");
  r.same_dtype(op.types[0], "dst", op.types[1], "src0");
  r.same_dtype(op.types[0], "dst", op.types[2], "src1");
  r.row_major(op.types[0], "dst");
  if (col) r.row_major(op.types[1], "src0"), r.row_major(op.types[2], "src1");
  else if (op.types[1].tile.slayout != SLayout::NoneBox || op.types[2].tile.slayout != SLayout::NoneBox)
    cur.error("src0 and src1 must be NoneBox tiles");
  op.exec = col ? exec_colexpand : exec_rowexpand;
}

struct Bcast {
  const char* name;
  pto::Op op;
};
constexpr Bcast kBcasts[] = {
    {"pto.tcolexpandadd", pto::Op::TCOLEXPANDADD}, {"pto.tcolexpandsub", pto::Op::TCOLEXPANDSUB},
    {"pto.tcolexpandmul", pto::Op::TCOLEXPANDMUL}, {"pto.tcolexpanddiv", pto::Op::TCOLEXPANDDIV},
    {"pto.tcolexpandmax", pto::Op::TCOLEXPANDMAX}, {"pto.tcolexpandmin", pto::Op::TCOLEXPANDMIN},
    {"pto.tcolexpandexpdif", pto::Op::TCOLEXPANDEXPDIF}, {"pto.trowexpandadd", pto::Op::TROWEXPANDADD},
    {"pto.trowexpandsub", pto::Op::TROWEXPANDSUB}, {"pto.trowexpandmul", pto::Op::TROWEXPANDMUL},
    {"pto.trowexpanddiv", pto::Op::TROWEXPANDDIV}, {"pto.trowexpandmax", pto::Op::TROWEXPANDMAX},
    {"pto.trowexpandmin", pto::Op::TROWEXPANDMIN}, {"pto.trowexpandexpdif", pto::Op::TROWEXPANDEXPDIF}};
void c_bcast_named(Compiler& c, Cursor& cur, Op& op) {
  for (const Bcast& b : kBcasts)
    if (op.name == b.name) op.desc = pto::find_desc(b.op);
  c_bcast(c, cur, op);
}

struct Family {
  const char* name;
  pto::Op op;
  int kind;  // 0 binary, 1 unary, 2 tile-scalar, 3 texpands, 4 row reduce
};
constexpr Family kFamilies[] = {
    {"pto.tadd", pto::Op::TADD, 0},   {"pto.tsub", pto::Op::TSUB, 0},   {"pto.tmul", pto::Op::TMUL, 0},   {"pto.tdiv", pto::Op::TDIV, 0},
    {"pto.tmax", pto::Op::TMAX, 0},   {"pto.tmin", pto::Op::TMIN, 0},   {"pto.tand", pto::Op::TAND, 0},   {"pto.tor", pto::Op::TOR, 0},
    {"pto.tabs", pto::Op::TABS, 1},   {"pto.tneg", pto::Op::TNEG, 1},   {"pto.texp", pto::Op::TEXP, 1},   {"pto.tlog", pto::Op::TLOG, 1},
    {"pto.tsqrt", pto::Op::TSQRT, 1}, {"pto.trsqrt", pto::Op::TRSQRT, 1}, {"pto.trecip", pto::Op::TRECIP, 1}, {"pto.trelu", pto::Op::TRELU, 1},
    {"pto.tadds", pto::Op::TADDS, 2}, {"pto.tsubs", pto::Op::TSUBS, 2}, {"pto.tmuls", pto::Op::TMULS, 2}, {"pto.tdivs", pto::Op::TDIVS, 2},
    {"pto.tmaxs", pto::Op::TMAXS, 2}, {"pto.tmins", pto::Op::TMINS, 2}, {"pto.texpands", pto::Op::TEXPANDS, 3},
    {"pto.tshl", pto::Op::TSHL, 0},   {"pto.tshr", pto::Op::TSHR, 0},   {"pto.tnot", pto::Op::TNOT, 1},   {"pto.tlrelu", pto::Op::TLRELU, 2},
    {"pto.trowsum", pto::Op::TROWSUM, 4}, {"pto.trowmax", pto::Op::TROWMAX, 4}, {"pto.trowmin", pto::Op::TROWMIN, 4}};

// `ins(%s, %t : f32, T)`: is the first ins operand a scalar? (looks ahead, reads nothing)
bool scalar_first(Cursor& cur) {
  int depth = 0;
  for (std::size_t k = 0;; ++k) {
    const Token& t = cur.peek(k);
    if (cur.done() || (t.kind == Token::Kind::Punct && t.text == "<end of statement>")) return false;
    if (t.is("(")) ++depth;
    if (t.is(")") && --depth == 0) return false;
    if (depth == 1 && t.is(":")) {
      const Token& ty = cur.peek(k + 1);
      return ty.kind == Token::Kind::Ident && (ty.text == "f16" || ty.text == "bf16" || ty.text == "f32" || ty.text == "index" || ty.text[0] == 'i');
    }
  }
}

void c_family(Compiler& c, Cursor& cur, Op& op) {
  const Family* fam = nullptr;
  for (const Family& x : kFamilies)
    if (op.name == x.name) fam = &x;
  op.desc = pto::find_desc(fam->op);
  const Rules r{cur, op.desc->name};
  switch (fam->kind) {
    case 0:
      if (!compile_ssa(c, cur, op, 2, -1)) compile_ins_outs(cur, op, 2);
      for (std::size_t k = 0; k < 3; ++k) r.vec(op.types[k], k == 0 ? "dst" : k == 1 ? "src0" : "src1"), r.row_major(op.types[k], k == 0 ? "dst" : "src");
      r.same_dtype(op.types[0], "dst", op.types[1], "src0");
      r.same_dtype(op.types[0], "dst", op.types[2], "src1");
      op.exec = exec_binary;
      break;
    case 1:
      if (!compile_ssa(c, cur, op, 1, -1)) compile_ins_outs(cur, op, 1);
      for (std::size_t k = 0; k < 2; ++k) r.vec(op.types[k], k ? "src" : "dst"), r.row_major(op.types[k], k ? "src" : "dst");
      r.same_dtype(op.types[0], "dst", op.types[1], "src");
      if (fam->op == pto::Op::TEXP && op.types[0].tile.dtype != DType::F16 && op.types[0].tile.dtype != DType::F32)
        cur.error("TEXP: dtype must be f16 or f32");
      op.exec = exec_unary;
      break;
    case 2:
      if (fam->op == pto::Op::TDIVS && !cur.done() && cur.peek().is("ins") && scalar_first(cur)) {  // TDIVS(dst, scalar, src)
        compile_ins_outs(cur, op, 2, 0);
        std::swap(op.in[1], op.in[2]);
        std::swap(op.types[1], op.types[2]);
        op.ints = {2};  // scalar first
      } else if (!compile_ssa(c, cur, op, 2, 1)) {
        compile_ins_outs(cur, op, 2, 1);
      }
      for (std::size_t k = 0; k < 2; ++k) r.vec(op.types[k], k ? "src" : "dst");
      r.same_dtype(op.types[0], "dst", op.types[1], "src");
      if (op.types[0].tile.blayout != op.types[1].tile.blayout || op.types[0].tile.slayout != SLayout::NoneBox ||
          op.types[1].tile.slayout != SLayout::NoneBox)
        cur.error("dst and src must share one NoneBox layout (both row_major or both col_major)");
      op.exec = exec_tile_scalar;
      break;
    case 3:
      if (!compile_ssa(c, cur, op, 1, 0)) compile_ins_outs(cur, op, 1, 0);
      r.vec(op.types[0], "dst");
      op.exec = exec_texpands;
      break;
    default:
      if (!compile_ssa(c, cur, op, 2, -1)) compile_ins_outs(cur, op, 2);
      r.vec(op.types[0], "dst"), r.vec(op.types[1], "src"), r.vec(op.types[2], "tmp");
      r.same_dtype(op.types[0], "dst", op.types[1], "src");
      r.same_dtype(op.types[2], "tmp", op.types[1], "src");
      r.row_major(op.types[1], "src"), r.row_major(op.types[2], "tmp");
      if (op.types[0].tile.slayout != SLayout::NoneBox || (op.types[0].tile.blayout != BLayout::RowMajor && op.types[0].tile.cols != 1))
        cur.error(std::string(op.desc->name) + ": dst must be a RowMajor NoneBox tile or a ColMajor (DN) tile of one column");
      op.exec = exec_row_reduce;
      break;
  }
}

// pto.set_validshape %tile, %rows, %cols [: type]: a dynamic valid shape (v_row=? / v_col=?) changes
// for the instructions issued after it (Tile::SetValidRow / SetValidCol).
void exec_set_validshape(Frame& f, const Op& op) {
  TileVal& t = as_tile(f, op, op.in[0]);
  const std::int64_t vr = as_int(f, op, op.in[1]), vc = as_int(f, op, op.in[2]);
  if (vr < 0 || vc < 0 || vr > t.type.rows || vc > t.type.cols)
    op_error(f, op, op.name + ": valid shape " + std::to_string(vr) + "x" + std::to_string(vc) + " is outside the tile's " +
                        std::to_string(t.type.rows) + "x" + std::to_string(t.type.cols));
  if ((t.type.v_row != -1 && vr != t.type.v_row) || (t.type.v_col != -1 && vc != t.type.v_col))
    op_error(f, op, op.name + ": the tile's type fixes its valid shape (v_row / v_col not '?'); only a dynamic one changes");
  t.view.valid_rows = int(vr);
  t.view.valid_cols = int(vc);
}
void c_set_validshape(Compiler&, Cursor& cur, Op& op) {
  Type t;
  op.in = {cur.value(&t)};
  cur.expect(",");
  op.in.push_back(cur.value());
  cur.expect(",");
  op.in.push_back(cur.value());
  if (cur.accept(":")) t = cur.type();
  if (t.kind != Type::Kind::Tile) cur.error("the first operand must be a tile, not " + t.text);
  op.exec = exec_set_validshape;
}

// pto.tprint ins(%x : T) (print.hpp TPRINT): a Vec tile or a view, after a pipe_barrier(PIPE_ALL), to the
// launch's print stream.
void exec_tprint(Frame& f, const Op& op) {
  pto::Operand what;
  if (op.types[0].kind == Type::Kind::Tile) {
    const TileVal& t = as_tile(f, op, op.in[0]);
    if (!t.placed) op_error(f, op, op.name + ": the tile has no data yet (no instruction has written it)");
    what.kind = pto::Operand::Kind::Tile;
    what.tile = t.view;
  } else {
    const TensorVal& t = as_tensor(f, op, op.in[0]);
    if (t.rank == 0) op_error(f, op, op.name + ": prints a tensor view, not a pointer");
    what.kind = pto::Operand::Kind::Gm;
    what.gm = gm_view(t);
  }
  ::pipe_barrier(PIPE_ALL, pto::source_location{}).finish();
  pto::detail::print_operand(pto::detail::current_core(), what, PrintFormat::Width8_Precision4);
}
void c_tprint(Compiler&, Cursor& cur, Op& op) {
  std::vector<int> ins, outs;
  std::vector<Type> in_t, out_t;
  cur.ins_outs(ins, in_t, outs, out_t, true);
  cur.attr_dict();
  if (ins.size() != 1 || !outs.empty()) cur.error("takes ins(x) (a Vec tile or a tensor view) and no outs");
  const Type& t = in_t[0];
  const bool tile = t.kind == Type::Kind::Tile;
  if (!tile && t.kind != Type::Kind::TensorView && t.kind != Type::Kind::PartitionView)
    cur.error("prints a Vec tile or a tensor view, not " + t.text);
  if (tile && t.tile.loc != TileType::Vec) cur.error("TPRINT: a Vec tile or a GlobalTensor (an Acc / Mat tile prints through GM scratch)");
  const DType d = tile ? t.tile.dtype : t.dtype;
  if (!(d == DType::F32 || d == DType::F16 || d == DType::I8 || d == DType::I16 || d == DType::I32 || d == DType::U8 || d == DType::U16 ||
        d == DType::U32))
    cur.error("TPRINT: the element type must be float, half, int8/16/32 or uint8/16/32 (the chips' list)");
  op.in = ins;
  op.types = in_t;
  op.exec = exec_tprint;
}

// ---- the core's ids, flags and barriers ----------------------------------------------------------

void exec_id(Frame& f, const Op& op) {
  pto::detail::Core& core = pto::detail::current_core();
  std::int64_t v = 0;
  switch (op.ints[0]) {
    case 0: v = pto::detail::core_block_idx(core); break;
    case 1: v = pto::detail::core_block_num(core); break;
    case 2: v = pto::detail::core_subblock(core); break;
    default: v = pto::detail::core_kind(core) == CoreKind::Vector ? 2 : 1; break;
  }
  set(f, op, 0, v);
}
void c_id(Compiler& c, Cursor& cur, Op& op) {
  op.ints = {op.name == "pto.get_block_idx" ? 0 : op.name == "pto.get_block_num" ? 1 : op.name == "pto.get_subblock_idx" ? 2 : 3};
  Type t = index_type();
  if (cur.accept(":")) t = cur.type();
  op.exec = exec_id;
  op.out = {result(c, cur, t)};
}

int pipe_of_name(Cursor& cur, const std::string& s) {
  static const std::pair<const char*, pipe_t> pipes[] = {{"PIPE_S", PIPE_S},       {"PIPE_V", PIPE_V},       {"PIPE_M", PIPE_M},
                                                        {"PIPE_MTE1", PIPE_MTE1}, {"PIPE_MTE2", PIPE_MTE2}, {"PIPE_MTE3", PIPE_MTE3},
                                                        {"PIPE_FIX", PIPE_FIX},   {"PIPE_ALL", PIPE_ALL}};
  const auto at = s.find("PIPE_");
  std::string name;
  for (std::size_t i = at; at != std::string::npos && i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_'); ++i)
    name += s[i];
  for (const auto& [n, p] : pipes)
    if (name == n) return int(p);
  cur.error("unknown pipe '" + s + "' (PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX, PIPE_ALL)");
}
int event_of_name(Cursor& cur, const std::string& s) {
  const auto at = s.find("EVENT_ID");
  std::string digits;
  for (std::size_t i = at == std::string::npos ? s.size() : at + 8; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i)
    digits += s[i];
  if (digits.empty() || digits.size() > 1 || digits[0] > '7')
    cur.error("expected an event id (EVENT_ID0 ... EVENT_ID7), found '" + s + "'");
  return digits[0] - '0';
}

// No C++ call site: a sync op's messages are located at its .pto line by run_block (std::source_location
// cannot be made for a text file's line, and the default would name this file).
pto::source_location site(const Frame&, const Op&) { return pto::source_location{}; }

void exec_barrier(Frame& f, const Op& op) { ::pipe_barrier(int(op.ints[0]), site(f, op)).finish(); }
void c_barrier(Compiler&, Cursor& cur, Op& op) {
  const Token& t = cur.next();
  op.ints = {pipe_of_name(cur, t.text)};
  op.exec = exec_barrier;
}
void exec_flag(Frame& f, const Op& op) {
  if (op.ints[3]) ::set_flag(int(op.ints[0]), int(op.ints[1]), int(op.ints[2]), site(f, op)).finish();
  else ::wait_flag(int(op.ints[0]), int(op.ints[1]), int(op.ints[2]), site(f, op)).finish();
}
// `[<A>, <B>, <EVENT_IDn>]`: the two endpoints' texts and the event id.
struct FlagOperands {
  std::string a, b;
  int event;
};
FlagOperands flag_operands(Cursor& cur) {
  cur.expect("[");
  FlagOperands o;
  o.a = cur.next().text;
  cur.expect(",");
  o.b = cur.next().text;
  cur.expect(",");
  const std::string e = cur.next().text;
  cur.expect("]");
  o.event = event_of_name(cur, e);
  return o;
}
void c_flag(Compiler&, Cursor& cur, Op& op) {  // pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  const FlagOperands o = flag_operands(cur);
  op.ints = {pipe_of_name(cur, o.a), pipe_of_name(cur, o.b), o.event, op.name == "pto.set_flag" ? 1 : 0};
  op.exec = exec_flag;
}

}  // namespace

// pto.record_event[#pto.sync_op_type<TLOAD>, #pto.sync_op_type<TVEC>, <EVENT_ID0>] / wait_event[...]: a
// flag between the pipes PTOAS maps the op classes to (their instructions' pipes in the op list).
int pipe_of_sync_op(Cursor& cur, const std::string& s) {
  struct Kind {
    const char* name;
    int pipe;
  };
  static const Kind kinds[] = {{"TLOAD", pipe_of(pto::Op::TLOAD)},          {"TSTORE_ACC", pipe_of(pto::Op::TSTORE_ACC)},
                               {"TSTORE_VEC", pipe_of(pto::Op::TSTORE_VEC)}, {"TMOV_M2L", pipe_of(pto::Op::TMOV_M2L)},
                               {"TMOV_M2S", pipe_of(pto::Op::TMOV_M2S)},     {"TMOV_M2B", pipe_of(pto::Op::TMOV_M2B)},
                               {"TMATMUL", pipe_of(pto::Op::TMATMUL)},       {"TVEC", pipe_of(pto::Op::TADD)},
                               {"TVECWAIT", pipe_of(pto::Op::TADD)}};
  const auto lt = s.find('<'), gt = s.rfind('>');
  const std::string name = lt == std::string::npos || gt == std::string::npos || gt < lt ? s : s.substr(lt + 1, gt - lt - 1);
  for (const Kind& k : kinds)
    if (name == k.name) return k.pipe;
  cur.error("sync op type '" + s + "': TLOAD, TSTORE_ACC, TSTORE_VEC, TMOV_M2L, TMOV_M2S, TMOV_M2B, TMATMUL, TVEC or TVECWAIT");
}
void c_event(Compiler&, Cursor& cur, Op& op) {
  const FlagOperands o = flag_operands(cur);
  op.ints = {pipe_of_sync_op(cur, o.a), pipe_of_sync_op(cur, o.b), o.event, op.name == "pto.record_event" ? 1 : 0};
  op.exec = exec_flag;
}

void register_pto_ops(std::map<std::string, CompileFn>& t) {
  t["pto.make_tensor_view"] = c_make_view;
  t["pto.partition_view"] = c_partition;
  t["pto.addptr"] = c_addptr;
  t["pto.alloc_tile"] = c_alloc;
  t["memref.alloc"] = c_memref_alloc;
  t["memref.dealloc"] = c_memref_dealloc;
  t["pto.tload"] = c_tload;
  t["pto.tstore"] = c_tstore;
  for (const Family& f : kFamilies) t[f.name] = c_family;
  for (const char* n : {"pto.get_block_idx", "pto.get_block_num", "pto.get_subblock_idx", "pto.get_subblock_num"}) t[n] = c_id;
  t["pto.tcvt"] = c_tcvt;
  t["pto.set_validshape"] = c_set_validshape;
  t["pto.tmov"] = c_tmov;
  for (const char* n : {"pto.tfillpad", "pto.tfillpad_inplace", "pto.tfillpad_expand"}) t[n] = c_fillpad;
  for (const Bcast& b : kBcasts) t[b.name] = c_bcast_named;
  t["pto.barrier"] = c_barrier;
  t["pto.tprint"] = c_tprint;
  t["pto.set_flag"] = c_flag;
  t["pto.wait_flag"] = c_flag;
  t["pto.record_event"] = c_event;
  t["pto.wait_event"] = c_event;
}

}  // namespace pto::ir::detail
