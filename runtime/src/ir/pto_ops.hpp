// What the pto dialect's op files share (ir_pto_ops.cpp: views, tiles, the vector families, sync;
// ir_cube_ops.cpp: the cube's moves, matmuls and the fixpipe): binding a tile or view to the next
// operand of an instruction record, the ins/outs and SSA operand forms, and issuing.
#pragma once
#include <climits>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <pto/runtime/core_api.hpp>
#include <pto/runtime/record.hpp>

#include "program.hpp"

namespace pto::detail {
// A PTO IR tile's last value died: its auto placement's bytes are taken back when a new tile needs them
// (core_api.cpp; AutoPlacer::retire).
void auto_retire(std::byte* addr, std::uint64_t owner);
}  // namespace pto::detail

namespace pto::ir::detail {

using pto::detail::InstrRecord;

constexpr std::int64_t kNone = INT64_MIN;  // an index_list entry that is absent (alloc_tile without addr = ...)

void set(Frame& f, const Op& op, std::size_t k, Value v);
// Defines the statement's k-th result with type t.
int result(Compiler& c, Cursor& cur, const Type& t, std::size_t k = 0);
Type index_type();
// The GlobalTensor an instruction sees: a view's dimensions right-aligned in the five of pto-isa's shape.
GmView gm_view(const TensorVal& t);
std::shared_ptr<TileVal> new_tile(const TileType_& tt);
// Gives `t` the fixed address `addr` of its buffer (alloc_tile addr = ..., tassign): aligned, inside the
// buffer, noted as a TASSIGN.
void fix_address(Frame& f, const Op& op, TileVal& t, std::int64_t addr);
// Places `t` where it has no address yet (auto mode; manual mode needs `addr = ...`), as operand
// `operand` of `instr`.
void place(Frame& f, const Op& op, pto::detail::Core& core, TileVal& t, const char* instr, const char* operand);
// Places `t` (auto mode: at its first use) and adds it as the record's next operand.
void add_tile(Frame& f, const Op& op, pto::detail::Core& core, InstrRecord& rec, TileVal& t);
void add_gm(Frame& f, const Op& op, InstrRecord& rec, const TensorVal& t);
// A scratch operand the target's algorithm never touches (operands.hpp add_unused_tile): its slot, an
// empty footprint, no placement.
void add_unused(Frame& f, const Op& op, InstrRecord& rec, const TileVal& t);
void issue(pto::detail::Core& core, InstrRecord& rec);
// `ins(...) outs(...)` with `nin` inputs (tiles, or a scalar at `scalar_at`) and one output: op.in and
// op.types list the output first.
void compile_ins_outs(Cursor& cur, Op& op, std::size_t nin, int scalar_at = -1);
// The SSA form `%d = pto.tadd %a, %b : T0, T1 -> Td`; false if the statement is not in it.
bool compile_ssa(Compiler& c, Cursor& cur, Op& op, std::size_t nin, int scalar_at);
// An SSA-form op's dst: a fresh tile.
void ssa_dst(Frame& f, const Op& op);
// The view a tile of type t has (its static valid shape, or its full shape where dynamic): what the type
// rules read.
TileView type_view(const Type& t);
// Runs a view-level type rule (a pto::Error on a violation) and reports its message at the statement.
template <class F>
void type_rule(Cursor& cur, F&& rule) {
  try {
    rule();
  } catch (const pto::Error& e) {
    cur.error(e.what());
  }
}

// The vector families' type rules on an op's types.
struct Rules {
  Cursor& cur;
  const char* name;
  void vec(const Type& t, const char* operand) const {
    if (t.kind != Type::Kind::Tile) cur.error(std::string("operand ") + operand + " must be a !pto.tile_buf, not " + t.text);
    if (t.tile.loc != TileType::Vec) cur.error(std::string("operand ") + operand + " must be a Vec tile (loc=vec), not " + t.text);
  }
  void row_major(const Type& t, const char* operand) const {
    if (t.tile.blayout != BLayout::RowMajor || t.tile.slayout != SLayout::NoneBox)
      cur.error(std::string("operand ") + operand + " must be a RowMajor NoneBox tile (blayout=row_major, slayout=none_box)");
  }
  void same_dtype(const Type& a, const char* an, const Type& b, const char* bn) const {
    if (a.tile.dtype != b.tile.dtype) cur.error(std::string("operands ") + an + " and " + bn + " must have the same dtype");
  }
};

// An instruction op: dst (in the SSA form a fresh tile) and the first `tiles` operands of op.in as tiles,
// then the family's checks on their views - the C++ functions' own (binary_checks, unary_checks, ...) -
// and the issue. Scalar operands follow the tiles in op.in.
template <class Checks>
void run_instr(Frame& f, const Op& op, std::size_t tiles, Checks&& checks) {
  ssa_dst(f, op);
  pto::detail::Core& core = pto::detail::current_core();
  InstrRecord rec = pto::detail::compute_record(*op.desc);
  for (std::size_t k = 0; k < tiles; ++k) add_tile(f, op, core, rec, as_tile(f, op, op.in[k]));
  checks(core, rec, pto::detail::core_target(core));
  issue(core, rec);
}

bool is_integer(DType t);
// `ins(...) outs(...)`: op.in / op.types list the outs, then the ins. lo to hi ins (a scalar where
// scalar[k], a tile elsewhere) and outs_lo to outs_hi tile outs. Returns the number of outs.
std::size_t operands(Cursor& cur, Op& op, std::size_t lo, std::size_t hi, const std::vector<bool>& scalar, std::size_t outs_lo = 1,
              std::size_t outs_hi = 1);
// A Vec tile, RowMajor NoneBox.
void vec_nd(const Rules& r, const Type& t, const char* name);

// ir_cube_ops.cpp: TMOV's cube directions (op.in / op.types hold dst, src as compiled), TSTORE from an
// Acc tile (op.in / op.types hold the view, the tile).
void compile_cube_move(Cursor& cur, Op& op);
void compile_acc_store(Cursor& cur, Op& op);

}  // namespace pto::ir::detail
