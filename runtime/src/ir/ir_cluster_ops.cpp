// Clusters in PTO IR (docs/pto-run.md, "Clusters"): PTOAS's frontend pipe ops between a cube function
// and a vector function of one kernel, run on a cluster launch (one AIC, two AIVs per block):
//  - pto.section.cube { ... } / pto.section.vector { ... }: code for one kind of core;
//  - pto.reserve_buffer / pto.import_reserved_buffer: the consumer's local ring (its address);
//  - pto.aic_initialize_pipe / aiv_initialize_pipe {dir_mask, slot_size} (gm_slot_buffer = ..., ...): a
//    pipe as PTOAS lowers it (dir_mask 1: C2V, 2: V2C, 8 slots; 3: both ways, 4 slots each; flags from
//    0), built on the runtime's TPipe protocol (tpipe.hpp: PipeShape, push_tile_steps, pop_tile_steps);
//  - pto.tpush_to_aiv / tpush_to_aic (%tile) {split}, %t = pto.tpop_from_aic / tpop_from_aiv {split},
//    pto.tfree_from_aic / tfree_from_aiv {split}.
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include <pto/common/constants.hpp>
#include <pto/isa/buffers.hpp>
#include <pto/runtime/cube_rules.hpp>
#include <pto/runtime/data_movement.hpp>
#include <pto/runtime/tpipe.hpp>

#include "pto_ops.hpp"

namespace pto::ir::detail {

// One core's pipe: its shape and both ends' counters (the C++ TPipe's members, as values).
struct PipeRing {
  pto::detail::PipeShape shape;
  void* gm = nullptr;
  std::uint32_t c2v_buf = 0, v2c_buf = 0;
  pto::detail::PipeProducer prod;
  pto::detail::PipeConsumer cons;
  pto::detail::PipeEnd end() { return {shape, gm, c2v_buf, v2c_buf, prod, cons}; }
};

namespace {

using pto::detail::Core;

CoreKind kind_here() { return pto::detail::core_kind(pto::detail::current_core()); }

// ---- sections ------------------------------------------------------------------------------------

void exec_section(Frame& f, const Op& op) {
  const CoreKind k = kind_here();
  if (k == CoreKind::Any || k == CoreKind(op.ints[0])) run_block(f, op.regions[0]);
}
void c_section(Compiler& c, Cursor& cur, Op& op) {
  op.ints = {std::int64_t(op.name == "pto.section.cube" ? CoreKind::Cube : CoreKind::Vector)};
  op.regions.push_back(c.compile_block(cur.region(), {}));
  c.fn->cluster_ops = true;
  op.exec = exec_section;
}

// ---- reserved buffers ----------------------------------------------------------------------------

std::string unquote(const std::string& s) { return s.size() >= 2 && s.front() == '"' ? s.substr(1, s.size() - 2) : s; }
TileType location_of(Cursor& cur, const std::string& v) {
  if (v.find("<vec>") != std::string::npos || v.find("<ub>") != std::string::npos) return TileType::Vec;
  if (v.find("<mat>") != std::string::npos || v.find("<cbuf>") != std::string::npos) return TileType::Mat;
  cur.error("location " + v + ": a reserved buffer is in vec (UB) or mat (L1)");
}
std::int64_t int_attr(Cursor& cur, const std::map<std::string, std::string>& a, const char* key, std::int64_t lo, std::int64_t hi) {
  const auto it = a.find(key);
  if (it == a.end()) cur.error(std::string("missing attribute '") + key + "'");
  std::int64_t v = 0;
  try {
    std::size_t used = 0;
    v = std::stoll(it->second, &used);
    if (used != it->second.size()) throw std::invalid_argument(key);
  } catch (const std::exception&) {
    cur.error(std::string(key) + " = " + it->second + ": expected an integer");
  }
  if (v < lo || v > hi) cur.error(std::string(key) + " = " + std::to_string(v) + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

// op.ints = {location, size, base (-1: auto)}. An automatic buffer sits at the top of its memory (below
// A2A3's UB scratch), where auto mode places no tile: both sides of a pipe compute the same address.
std::int64_t reserved_address(const Op& op, Target target) {
  if (op.ints[2] >= 0) return op.ints[2];
  std::size_t cap = buffer_capacity(target, TileType(op.ints[0]));
  if (TileType(op.ints[0]) == TileType::Vec && target == Target::A2A3) cap = std::min<std::size_t>(cap, TMP_UB_OFFSET);
  return std::int64_t((cap - std::size_t(op.ints[1])) / kBlockBytes * kBlockBytes);
}
void exec_reserve(Frame& f, const Op& op) {
  Core& core = pto::detail::current_core();
  const std::int64_t at = reserved_address(op, pto::detail::core_target(core));
  const std::size_t cap = pto::detail::buffer_bytes(core, TileType(op.ints[0]));
  if (cap != 0) {  // a cube core has no UB, a vector core no L1: only the side that owns the memory holds it
    if (at < 0 || std::uint64_t(at) + std::uint64_t(op.ints[1]) > cap || at % std::int64_t(kBlockBytes) != 0)
      op_error(f, op, op.name + ": bytes [" + std::to_string(at) + ", " + std::to_string(at + op.ints[1]) + ") do not fit the " +
                          std::to_string(cap / 1024) + " KiB buffer (or base is not 32-byte aligned)");
    pto::detail::note_tassign(core, TileType(op.ints[0]), std::uint64_t(at), std::uint64_t(op.ints[1]), "the reserved buffer");
  }
  set(f, op, 0, at);
}
Type i32_type() {
  Type t;
  t.kind = Type::Kind::Int;
  t.bits = 32;
  t.text = "i32";
  return t;
}
void c_reserve(Compiler& c, Cursor& cur, Op& op) {
  const auto a = cur.attr_dict();
  const TileType loc = location_of(cur, a.count("location") ? a.at("location") : std::string());
  const std::int64_t size = int_attr(cur, a, "size", 32, 1 << 20);
  const bool automatic = !a.count("auto") || a.at("auto") == "true";
  if (automatic && a.count("base")) cur.error("auto = true takes no base (the address is planned)");
  const std::int64_t base = automatic ? -1 : int_attr(cur, a, "base", 0, 1 << 20);
  const std::string name = a.count("name") ? unquote(a.at("name")) : std::string();
  if (name.empty()) cur.error("expects a name = \"...\" (its peer imports it by name)");
  if (cur.accept("->")) cur.type();
  op.name += " " + name;  // pto.reserve_buffer NAME: the peer's import finds it, messages name it
  op.ints = {std::int64_t(loc), size, base};
  op.exec = exec_reserve;
  op.out = {result(c, cur, i32_type())};
  c.fn->cluster_ops = true;
}
// The peer function's pto.reserve_buffer of that name: its address, computed as it does.
void c_import(Compiler& c, Cursor& cur, Op& op) {
  const auto a = cur.attr_dict();
  const std::string name = a.count("name") ? unquote(a.at("name")) : std::string();
  const std::string peer = a.count("peer_func") ? a.at("peer_func") : std::string();
  if (name.empty() || peer.size() < 2 || peer[0] != '@') cur.error("expects {name = \"...\", peer_func = @function}");
  if (c.prog.find(peer.substr(1)) < 0) cur.error("peer_func " + peer + " is not a function of the file");
  if (cur.accept("->")) cur.type();
  // The peer's body may come later in the file: its reserve_buffer is looked up when the import runs.
  op.ints = {c.prog.find(peer.substr(1))};
  op.name += " " + name;  // messages name the buffer
  op.exec = [](Frame& f, const Op& o) {
    const Function& peer_fn = f.prog.funcs[std::size_t(o.ints[0])];
    const std::string wanted = o.name.substr(o.name.find(' ') + 1);
    for (const Op& r : peer_fn.body.ops)
      if (r.exec == exec_reserve && r.name == "pto.reserve_buffer " + wanted) {
        set(f, o, 0, reserved_address(r, pto::detail::core_target(pto::detail::current_core())));
        return;
      }
    op_error(f, o, o.name + ": @" + peer_fn.name + " has no pto.reserve_buffer named \"" + wanted + "\"");
  };
  op.out = {result(c, cur, i32_type())};
  c.fn->cluster_ops = true;
}

// ---- pipes ---------------------------------------------------------------------------------------

// op.in = {gm slot buffer (or -1), c2v buf, v2c buf}; op.ints = {dir_mask, slot_size, cube side}.
void exec_init_pipe(Frame& f, const Op& op) {
  if (!f.ctx) op_error(f, op, op.name + ": internal error: no core context");
  const CoreKind k = kind_here();
  if (k != CoreKind::Any && (k == CoreKind::Cube) != (op.ints[2] != 0))
    op_error(f, op, op.name + ": runs on the " + (op.ints[2] ? "cube" : "vector") + " core; put it in a function with pto.kernel_kind<" +
                        (op.ints[2] ? "cube" : "vector") + ">");
  if (f.ctx->c2v || f.ctx->v2c) op_error(f, op, op.name + ": a core initialises at most one pipe (PTOAS: one per function)");
  auto ring = std::make_shared<PipeRing>();
  const int mask = int(op.ints[0]);
  const bool a5 = pto::detail::core_target(pto::detail::current_core()) == Target::A5;
  ring->shape.dir = mask == 3 ? (a5 ? DIR_BOTH_GM : DIR_BOTH) : mask == 1 ? (a5 ? DIR_C2V_GM : DIR_C2V) : (a5 ? DIR_V2C_GM : DIR_V2C);
  ring->shape.slot_size = std::uint32_t(op.ints[1]);
  ring->shape.slot_num = ring->shape.local_slot_num = mask == 3 ? 4 : 8;
  if (op.in[0] < 0)
    op_error(f, op, op.name + ": no gm_slot_buffer: the pipe is A5's local ring (into the AIVs' UB / the AIC's L1), which is not "
                               "emulated yet; give gm_slot_buffer = %ptr (the GM ring: A2/A3's, and A5's DIR_*_GM)");
  ring->gm = as_tensor(f, op, op.in[0]).base;
  ring->c2v_buf = std::uint32_t(as_int(f, op, op.in[1]));
  ring->v2c_buf = std::uint32_t(as_int(f, op, op.in[2]));
  pto::detail::pipe_construct(ring->shape, ring->gm, ring->prod, ring->cons);
  if (ring->shape.is_c2v()) f.ctx->c2v = ring;
  if (ring->shape.is_v2c()) f.ctx->v2c = ring;
}
void c_init_pipe(Compiler& c, Cursor& cur, Op& op) {
  const auto a = cur.attr_dict();
  const std::int64_t mask = int_attr(cur, a, "dir_mask", 1, 3), slot = int_attr(cur, a, "slot_size", 1, 1 << 24);
  op.in = {-1, -1, -1};
  cur.expect("(");
  do {
    const std::string key = cur.ident();
    cur.expect("=");
    Type t;
    const int v = cur.value(&t);
    cur.expect(":");
    cur.type();
    if (key == "gm_slot_buffer") {
      if (t.kind != Type::Kind::Ptr) cur.error("gm_slot_buffer must be a !pto.ptr, not " + t.text);
      op.in[0] = v;
    } else if (key == "c2v_consumer_buf" || key == "v2c_consumer_buf") {
      if (t.kind != Type::Kind::Int && t.kind != Type::Kind::Index) cur.error(key + " must be an i32 address, not " + t.text);
      op.in[key == "c2v_consumer_buf" ? 1 : 2] = v;
    } else {
      cur.error("unknown operand '" + key + "' (gm_slot_buffer, c2v_consumer_buf, v2c_consumer_buf)");
    }
  } while (cur.accept(","));
  cur.expect(")");
  if (op.in[1] < 0 || op.in[2] < 0) cur.error("needs c2v_consumer_buf = and v2c_consumer_buf =");
  op.ints = {mask, slot, op.name == "pto.aic_initialize_pipe" ? 1 : 0};
  op.exec = exec_init_pipe;
  c.fn->cluster_ops = true;
}

// The pipe a push / pop / free works on: op.ints[1] says the direction (1: cube -> vector).
PipeRing& ring_of(Frame& f, const Op& op) {
  if (!f.ctx) op_error(f, op, op.name + ": internal error: no core context");
  std::shared_ptr<PipeRing>& r = op.ints[1] ? f.ctx->c2v : f.ctx->v2c;
  if (!r)
    op_error(f, op, op.name + ": no " + (op.ints[1] ? "cube -> vector" : "vector -> cube") +
                        " pipe on this core: call pto.aic_initialize_pipe / aiv_initialize_pipe first (dir_mask " + (op.ints[1] ? "1 or 3" : "2 or 3") + ")");
  return *r;
}
TensorVal slot_view(std::byte* at, DType dt, int rows, int cols, std::int64_t stride) {
  TensorVal t;
  t.base = at;
  t.dtype = dt;
  t.rank = 2;
  t.shape[0] = rows;
  t.shape[1] = cols;
  t.stride[0] = stride;
  t.stride[1] = 1;
  return t;
}

// op.in = {tile}; op.ints = {split, c2v}.
void exec_push(Frame& f, const Op& op) {
  PipeRing& ring = ring_of(f, op);
  Core& core = pto::detail::current_core();
  TileVal& t = as_tile(f, op, op.in[0]);
  pto::detail::check_side(ring.shape, "TPUSH", true);
  pto::detail::IssueSequence seq(core, [&](pto::detail::IssueSequence& s) {
    pto::detail::push_tile_steps(s, ring.end(), t.view, size_of(t.type.dtype), pto::detail::core_subblock(core), TileSplitAxis(op.ints[0]),
                                 [&](std::byte* at, int rows, int cols, std::int64_t stride) {
                                   const bool acc = t.type.loc == TileType::Acc;
                                   InstrRecord rec = pto::detail::compute_record(acc ? pto::desc_of<pto::Op::TSTORE_ACC>() : pto::desc_of<pto::Op::TSTORE_VEC>());
                                   add_gm(f, op, rec, slot_view(at, t.type.dtype, rows, cols, stride));
                                   add_tile(f, op, core, rec, t);
                                   if (acc) pto::detail::acc_store_views(rec, pto::detail::core_target(core), pto::detail::FixQuant::None, false, false);
                                   else pto::detail::vec_mat_store_checks(rec, pto::detail::core_target(core));
                                   return rec;
                                 });
  });
  seq.finish();
}
void c_push(Compiler& c, Cursor& cur, Op& op) {
  const bool c2v = op.name == "pto.tpush_to_aiv";
  cur.expect("(");
  Type t;
  op.in = {cur.value(&t)};
  if (cur.accept(":")) t = cur.type();
  cur.expect(")");
  const auto a = cur.attr_dict();
  if (t.kind != Type::Kind::Tile) cur.error("pushes a tile, not " + t.text);
  if (c2v ? t.tile.loc != TileType::Acc : t.tile.loc != TileType::Vec)
    cur.error(c2v ? "the cube pushes an Acc tile (loc=acc) to the vector cores" : "a vector core pushes a Vec tile (loc=vec) to the cube");
  op.ints = {a.count("split") ? int_attr(cur, a, "split", 0, 2) : 0, c2v ? 1 : 0};
  op.exec = exec_push;
  c.fn->cluster_ops = true;
}

// op.out = {the popped tile}; op.ints = {split, c2v}; op.types = {its type}.
void exec_pop(Frame& f, const Op& op) {
  PipeRing& ring = ring_of(f, op);
  Core& core = pto::detail::current_core();
  const TileType_& tt = op.types[0].tile;
  auto tile = new_tile(tt);
  int vr = tt.v_row, vc = tt.v_col;
  if (!op.in.empty()) {
    const std::int64_t r = as_int(f, op, op.in[0]), c = as_int(f, op, op.in[1]);
    if (r < 0 || c < 0 || r > tt.rows || c > tt.cols)
      op_error(f, op, op.name + ": valid shape " + std::to_string(r) + "x" + std::to_string(c) + " is outside the tile's " +
                          std::to_string(tt.rows) + "x" + std::to_string(tt.cols));
    vr = int(r);
    vc = int(c);
  }
  tile->view = tt.view(vr, vc);
  pto::detail::check_side(ring.shape, "TPOP", false);
  const Target target = pto::detail::core_target(core);
  const std::uint32_t local_stride = target == Target::A5 ? std::uint32_t(tt.bytes()) : ring.shape.slot_size;
  pto::detail::IssueSequence seq(core, [&](pto::detail::IssueSequence& s) {
    pto::detail::pop_tile_steps(
        s, ring.end(), local_stride, size_of(tt.dtype), pto::detail::core_subblock(core), TileSplitAxis(op.ints[0]),
        [&](std::uint32_t local) {
          const std::size_t cap = pto::detail::buffer_bytes(core, tt.loc);
          if (std::uint64_t(local) + tt.bytes() > cap)
            op_error(f, op, op.name + ": the local ring's slot at " + std::to_string(local) + " (+" + std::to_string(tt.bytes()) +
                                " bytes) is outside the " + std::to_string(cap / 1024) + " KiB buffer");
          std::ostringstream what;
          what << tile->view << " at 0x" << std::hex << local;
          pto::detail::note_tassign(core, tt.loc, local, tt.bytes(), what.str());
          tile->view.base = pto::detail::buffer_base(core, tt.loc) + local;
          tile->view.offset = local;
          tile->fixed = local;
          tile->owner = pto::detail::core_run_id(core);
          tile->placed = true;
          return tile->view;
        },
        [&](std::byte* at, int rows, int cols, std::int64_t stride) {
          InstrRecord rec = pto::detail::compute_record(pto::desc_of<pto::Op::TLOAD>());
          add_tile(f, op, core, rec, *tile);
          add_gm(f, op, rec, slot_view(at, tt.dtype, rows, cols, stride));
          pto::detail::tload_checks(rec, target);
          return rec;
        });
  });
  seq.finish();
  set(f, op, 0, std::move(tile));
}
void c_pop(Compiler& c, Cursor& cur, Op& op) {
  const bool c2v = op.name == "pto.tpop_from_aic";
  if (cur.accept("(")) {  // (%valid_row, %valid_col): a dynamic valid shape
    op.in = {cur.value()};
    cur.expect(",");
    op.in.push_back(cur.value());
    cur.expect(")");
  }
  const auto a = cur.attr_dict();
  cur.expect("->");
  const Type t = cur.type();
  if (t.kind != Type::Kind::Tile) cur.error("pops a tile, not " + t.text);
  if (c2v ? t.tile.loc != TileType::Vec : t.tile.loc != TileType::Mat)
    cur.error(c2v ? "a vector core pops a Vec tile (loc=vec)" : "the cube pops a Mat tile (loc=mat)");
  if (op.in.empty() && (t.tile.v_row < 0 || t.tile.v_col < 0))
    cur.error("the popped tile's type has a dynamic valid shape: give it as operands, (%valid_row, %valid_col)");
  if (!op.in.empty() && (t.tile.v_row >= 0 || t.tile.v_col >= 0))
    cur.error("with (%valid_row, %valid_col) the popped tile's type must have a dynamic valid shape (v_row=?, v_col=?)");
  op.ints = {a.count("split") ? int_attr(cur, a, "split", 0, 2) : 0, c2v ? 1 : 0};
  op.types = {t};
  op.exec = exec_pop;
  op.out = {result(c, cur, t)};
  c.fn->cluster_ops = true;
}

// TFREE after a tile TPOP: TPOP freed the slot on the GM rings (the chip's A2/A3 TFREE is empty too).
void exec_free(Frame& f, const Op& op) {
  pto::detail::check_side(ring_of(f, op).shape, "TFREE", false);
}
void c_free(Compiler& c, Cursor& cur, Op& op) {
  const auto a = cur.attr_dict();
  op.ints = {a.count("split") ? int_attr(cur, a, "split", 0, 2) : 0, op.name == "pto.tfree_from_aic" ? 1 : 0};
  op.exec = exec_free;
  c.fn->cluster_ops = true;
}

}  // namespace

void register_cluster_ops(std::map<std::string, CompileFn>& t) {
  t["pto.section.cube"] = c_section;
  t["pto.section.vector"] = c_section;
  t["pto.reserve_buffer"] = c_reserve;
  t["pto.import_reserved_buffer"] = c_import;
  t["pto.aic_initialize_pipe"] = c_init_pipe;
  t["pto.aiv_initialize_pipe"] = c_init_pipe;
  t["pto.tpush_to_aiv"] = c_push;
  t["pto.tpush_to_aic"] = c_push;
  t["pto.tpop_from_aic"] = c_pop;
  t["pto.tpop_from_aiv"] = c_pop;
  t["pto.tfree_from_aic"] = c_free;
  t["pto.tfree_from_aiv"] = c_free;
}

}  // namespace pto::ir::detail
