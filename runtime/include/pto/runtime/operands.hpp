// Turning a kernel's Tile / GlobalTensor arguments into checked operand records, and appending
// WaitEvents. Shared by every public instruction function.
#pragma once
#include <algorithm>
#include <initializer_list>
#include <sstream>

#include <pto/isa/buffers.hpp>
#include <pto/isa/error.hpp>
#include <pto/isa/global_tensor.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/core_api.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/record.hpp>

namespace pto::detail {

// The fractal layouts of 512-byte fractals: NZ = column blocks of 16 x C0 row-major fractals (Vec and
// L1 tiles, the cube's A and B in L1); ZN = row blocks of C0 x 16 column-major ones (a DN tensor in L1).
template <class T> inline constexpr bool kNzTile = !T::isRowMajor && T::isInnerRowMajor && T::SFractalSize == 512;
template <class T> inline constexpr bool kZnTile = T::isRowMajor && T::isInnerColMajor && T::SFractalSize == 512;

// The same classes on a tile's view (what a Tile type's view() says of it): the IR front door checks a
// file's tile types with these and the *_type_rules twins of the static rules (cube_rules.hpp, matmul.hpp,
// extract.hpp, layout.hpp), as the C++ API's static_asserts check Tile types.
inline int fractal_bytes(const TileView& t) {
  const int n = int(t.inner_rows) * t.inner_cols;
  return !t.boxed ? 0 : t.nibbles() ? n / 2 : n * int(size_of(t.dtype));
}
inline bool nz_view(const TileView& t) { return t.boxed && !t.row_major && t.inner_row_major && fractal_bytes(t) == 512; }
inline bool zn_view(const TileView& t) { return t.boxed && t.row_major && !t.inner_row_major && fractal_bytes(t) == 512; }
inline bool nd_view(const TileView& t) { return t.row_major && !t.boxed; }
inline bool left_view(const TileView& t) { return t.loc == TileType::Left && t.boxed && t.inner_row_major && fractal_bytes(t) == 512; }
inline bool right_view(const TileView& t) { return t.loc == TileType::Right && zn_view(t); }
inline bool acc_view(const TileView& t) {
  return t.loc == TileType::Acc && t.boxed && !t.row_major && t.inner_row_major && fractal_bytes(t) == 1024;
}


// A record for a compute instruction of descriptor `d`, bound to the calling kernel's core.
inline InstrRecord compute_record(const InstrDesc& d) {
  InstrRecord rec;
  rec.desc = &d;
  rec.kind = RecordKind::Compute;
  rec.pipe = d.pipe;
  return rec;
}

// Storage for `tile`, operand `operand` of `instr`: auto mode places a tile that has none at its first
// use; manual mode needs a TASSIGN; a tile placed by another core's run is an error.
template <TileLike T>
void place_operand(Core& core, T& tile, const char* instr, const char* operand) {
  if (tile.addr_ == &dead_tile_mark)
    fail(instr, ": operand ", operand, " ", tile.view(), ": the Tile object has died (its scope ended) and auto mode "
         "gave its bytes back: a pointer or reference to it that outlives it would alias the next tile placed there. "
         "Keep the Tile alive while you use it");
  if (tile.addr_ == nullptr) {
    if (core_mode(core) != Mode::Auto)
      fail(instr, ": operand ", operand, " ", tile.view(),
           ": the tile has no buffer address; call TASSIGN first (manual mode places tiles explicitly)");
    tile.addr_ = auto_place(core, T::Loc, T::GetSizeInBytes(), tile.view(), instr, operand);
    tile.offset_ = std::uint32_t(tile.addr_ - buffer_base(core, T::Loc));
    tile.owner_ = core_run_id(core);
    tile.auto_placed_ = true;
  }
  if (tile.owner_ != core_run_id(core))
    fail(instr, ": operand ", operand, " ", tile.view(),
         ": the tile was placed on another core; TASSIGN it inside the kernel that uses it");
}

// A scratch operand the target's algorithm never touches (A5's TROWARG* / TCOLARG* / TREM / TREMS
// tmp, pto-isa a5 TRowReduceIdx.hpp, TColReduceIdx.hpp, TRem.hpp, TRemS.hpp): kept in its slot with an
// empty footprint, so it needs no address and orders nothing.
template <TileLike T>
void add_unused_tile(InstrRecord& rec, T& tile) {
  const InstrDesc& d = *rec.desc;
  if (rec.nops >= d.operand_count) fail(d.name, ": more operands than its descriptor's ", d.operand_count);
  Operand& o = rec.ops[rec.nops];
  o.kind = Operand::Kind::Tile;
  o.role = d.operands[rec.nops++].role;
  o.tile = tile.view();
  o.tile.valid_rows = o.tile.valid_cols = 0;
}

template <TileLike T>
void add_tile(Core& core, InstrRecord& rec, T& tile) {
  const InstrDesc& d = *rec.desc;
  if (rec.nops >= d.operand_count) fail(d.name, ": more operands than its descriptor's ", d.operand_count);
  const OperandDesc& od = d.operands[rec.nops];
  place_operand(core, tile, d.name, od.name);
  // TASSIGN and auto placement align every tile; only a TSUBVIEW window can start between blocks.
  if (tile.offset_ % kBlockBytes != 0)
    fail(d.name, ": operand ", od.name, " ", tile.view(), ": its address 0x", std::hex, tile.offset_, std::dec,
         " is not 32-byte aligned (a TSUBVIEW window starting inside a 32-byte block); the vector and DMA units "
         "address on-chip buffers in 32-byte blocks");
  Operand& o = rec.ops[rec.nops++];
  o.kind = Operand::Kind::Tile;
  o.role = od.role;
  o.tile = tile.view();
}

template <GlobalLike G>
void add_gm(InstrRecord& rec, G& gm) {
  const InstrDesc& d = *rec.desc;
  if (rec.nops >= d.operand_count) fail(d.name, ": more operands than its descriptor's ", d.operand_count);
  const OperandDesc& od = d.operands[rec.nops];
  GmView v = gm.view();
  if (v.base == nullptr) fail(d.name, ": operand ", od.name, " ", v, ": the GlobalTensor points to nullptr");
  for (int k = 0; k < 5; ++k) {
    if (v.shape[k] <= 0) fail(d.name, ": operand ", od.name, " ", v, ": shape dimension ", k, " is ", v.shape[k], "; every dimension must be at least 1");
    if (v.stride[k] < 0) fail(d.name, ": operand ", od.name, " ", v, ": stride dimension ", k, " is negative");
  }
  Operand& o = rec.ops[rec.nops++];
  o.kind = Operand::Kind::Gm;
  o.role = od.role;
  o.gm = v;
}

template <class... W>
void add_waits(Core& core, InstrRecord& rec, const W&... waits) {
  [[maybe_unused]] auto typed = [&]<class E>(const E&, RecordEvent e) {
    // A bare RecordEvent that names nothing is a documented no-op (loop prologues); a typed Event
    // waited before it was assigned is a bug the sync checker reports.
    if constexpr (requires { E::src_op; E::dst_op; })
      if (!e.valid()) {
        static const std::string name = std::string("Event<") + op_name(E::src_op) + ", " + op_name(E::dst_op) + ">";
        note_unrecorded_event(core, rec, name.c_str());
      }
  };
  (typed(waits, event_of(waits)), ...);
  [[maybe_unused]] auto one = [&](RecordEvent e) {
    if (!e.valid()) return;  // an Event never recorded orders nothing
    if (e.core != core_run_id(core))
      fail(rec.desc ? rec.desc->name : "instruction",
           ": a wait event comes from another core (or an earlier launch); events order instructions of one core only");
    if (rec.nwaits == kMaxWaits) fail(rec.desc ? rec.desc->name : "instruction", ": more than ", kMaxWaits, " wait events");
    rec.waits[rec.nwaits++] = e.seq;
  };
  (one(event_of(waits)), ...);
}

// A scalar operand given as a number, in the bits of element type `t` (what ScalarValue::of<T>(T(v))
// stores): the PTO IR reader's scalars, whose type the tile decides at run time.
inline ScalarValue scalar_of(DType t, double v) {
  switch (t) {
    case DType::F16: return ScalarValue::of(half(static_cast<float>(v)));
    case DType::BF16: return ScalarValue::of(bfloat16_t(static_cast<float>(v)));
    case DType::F32: return ScalarValue::of(static_cast<float>(v));
    case DType::I8: return ScalarValue::of(std::int8_t(std::int64_t(v)));
    case DType::U8: return ScalarValue::of(std::uint8_t(std::int64_t(v)));
    case DType::I16: return ScalarValue::of(std::int16_t(std::int64_t(v)));
    case DType::U16: return ScalarValue::of(std::uint16_t(std::int64_t(v)));
    case DType::I32: return ScalarValue::of(std::int32_t(std::int64_t(v)));
    case DType::U32: return ScalarValue::of(std::uint32_t(std::int64_t(v)));
    case DType::I64: return ScalarValue::of(std::int64_t(v));
    case DType::U64: return ScalarValue::of(std::uint64_t(std::int64_t(v)));
    default: fail("a scalar operand of dtype ", name_of(t), " is not supported");
  }
}

// "half, float" style list of the dtypes a rule allows, for messages.
inline std::string dtype_list(DTypeSet ts) {
  std::ostringstream os;
  const char* sep = "";
  for (int i = 0; i < kNumDTypes; ++i)
    if (ts.has(DType(i))) os << std::exchange(sep, ", ") << name_of(DType(i));
  return os.str();
}

// Per-target dtype rule: an error names the targets that do support it.
inline void check_dtype(const InstrDesc& d, const char* operand, DType t, Target target, DTypeRule rule) {
  if (rule.on(target).has(t)) return;
  std::string where = rule.a2a3.has(t) ? "A2A3" : "";
  if (rule.a5.has(t)) where += where.empty() ? "A5" : ", A5";
  fail(d.name, ": operand ", operand, " dtype ", name_of(t), " is not supported on ", name_of(target),
       " (allowed there: ", dtype_list(rule.on(target)), "; ",
       where.empty() ? std::string("no target supports it") : "supported on: " + where, ")");
}
// The descriptor's own rule for dst.
inline void check_dtype(const InstrDesc& d, DType t, Target target) { check_dtype(d, "dst", t, target, d.dtypes); }

// A scratch tile's write footprint: its first `elems` elements, as whole rows.
inline void scratch_elems(TileView& t, std::size_t elems) {
  const std::size_t row = std::size_t(t.row_stride);
  t.valid_cols = t.cols;
  t.valid_rows = int(std::min<std::size_t>(std::size_t(t.rows), (elems + row - 1) / row));
}

inline bool same_valid(const TileView& a, const TileView& b) {
  return a.valid_rows == b.valid_rows && a.valid_cols == b.valid_cols;
}

// Tiles most vector instructions take: RowMajor NoneBox Vec tiles (a static_assert's condition).
template <class... Tiles>
inline constexpr bool kVecRowMajor = ((Tiles::Loc == TileType::Vec && Tiles::isRowMajor && !Tiles::isBoxedLayout) && ...);

// RA "valid shapes equal" of the element-wise families.
// An instruction pto-isa implements on A5 only (TRANDOM, THISTOGRAM).
inline void a5_only(const InstrRecord& rec, Target target) {
  if (target != Target::A5)
    fail(rec.desc->name, ": operand dst ", rec.ops[0].tile, ": ", rec.desc->name, " exists on A5 only (pto-isa has no A2A3 implementation)");
}

inline void check_same_valid(const InstrDesc& d, const char* a_name, const TileView& a, const char* b_name,
                             const TileView& b) {
  if (!same_valid(a, b))
    fail(d.name, ": operand ", b_name, " ", b, " must have the same valid shape as operand ", a_name, " ", a);
}

// Element-size rules (pure broadcasts: A2A3 moves 1/2/4-byte elements, A5 also 8-byte ones).
inline void check_elem_bytes(const InstrDesc& d, const char* operand, DType t, Target target) {
  if (size_of(t) == 8 && target == Target::A2A3)
    fail(d.name, ": operand ", operand, " dtype ", name_of(t),
         " is not supported on A2A3 (allowed there: 1-, 2- and 4-byte elements; supported on: A5)");
}

// A flat byte view of n bytes at t's address: what a chip writes or reads there, whatever t's shape
// (scratch footprints, byte copies).
inline TileView byte_run(const TileView& t, std::size_t n) {
  return TileView{t.base, t.offset, DType::U8, TileType::Vec, 1, int(n), 1, int(n), int(n), 1, true, false, PadValue::Null, true, true};
}

}  // namespace pto::detail
