// TPipe and TPUSH / TPOP / TALLOC / TFREE: tiles passed between the cube core and the vector cores of a
// cluster (pto::launch_mix), with pto-isa's signatures (pto_instr.hpp) and the NPU's protocol
// (include/pto/npu/a2a3 and a5: TPush.hpp, TPop.hpp, TAlloc.hpp, TFree.hpp), built from the instructions
// and cross-core flags the chip's implementation issues:
//  - a producer's TPUSH stores the tile into GM slot tileIndex % SlotNum and signals the flag FlagID on
//    the other side; a consumer's TPOP waits for it and loads its part of the slot (split between the
//    two AIVs by TileSplitAxis) into its local ring; the consumer frees slots every SyncPeriod tiles
//    (flag FlagID + 1), and the producer waits for a free one once the ring is full;
//  - A2/A3 signals with FFTS mode 2 (ffts_cross_core_sync / wait_flag_dev), A5 with set_intra_block /
//    wait_intra_block (the _GM directions);
//  - the GlobalTensor forms split the same steps: TALLOC (wait for a free slot, point the tensor at
//    it), the kernel's own TSTOREs, TPUSH (signal); TPOP (wait, point), the kernel's TLOADs, TFREE.
// A full ring blocks the producer and an empty one the consumer, in modeled time and on the host (the
// core suspends, as at a SYNCALL): `co_await TPOP<...>(pipe, tile)` in a coroutine kernel.
// Not emulated yet (an error says so): A5's local rings (DIR_C2V into UB, DIR_V2C into L1, DIR_BOTH),
// DIR_BOTH_GM, the control pipes (DIR_V2C_CTRL), TMPipe. ~TPipe does not drain the frees a consumer
// sent after the producer's last wait (the chip's destructor waits for them): a core's end never waits
// for the other side's (docs/clusters.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <pto/common/fifo.hpp>
#include <pto/isa/global_tensor.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/block.hpp>
#include <pto/runtime/data_movement.hpp>
#include <pto/runtime/issue.hpp>
#include <pto/runtime/sync.hpp>
#include <pto/runtime/tassign.hpp>

namespace pto {

namespace detail {
// One step of the protocol on the calling core, as the chip's implementation issues it. A2/A3: FFTS mode 2
// (the cube's set reaches both AIVs; the AIVs' sets reach the cube once both have set). A5: intra-block
// flags; a cube addresses AIV1 as id + 16, so with a split tile it signals, and waits for, both.
// The records carry the FIFO operation's name (`op`): a timeline or a deadlock message says "TPOP: wait_flag_dev(0)".
inline InstrRecord named(InstrRecord r, Op op) {
  r.desc = find_desc(op);
  return r;
}
inline void pipe_signal(IssueSequence& s, Op op, int pipe, int id, bool both_aivs) {
  Core& core = current_core();
  const pto::source_location none{};
  if (core_target(core) == Target::A2A3) {
    s.add(named(ffts_cross_core_sync(pipe, 1u | (2u << 4) | (std::uint64_t(id) << 8), none).take(), op));
    return;
  }
  s.add(named(set_intra_block(pipe, id, none).take(), op));
  if (both_aivs && core_kind(core) == CoreKind::Cube) s.add(named(set_intra_block(pipe, id + 16, none).take(), op));
}
inline void pipe_wait(IssueSequence& s, Op op, int id, bool both_aivs) {
  Core& core = current_core();
  const pto::source_location none{};
  if (core_target(core) == Target::A2A3) {
    s.add(named(wait_flag_dev(id, none).take(), op));
    return;
  }
  InstrRecord r = named(wait_intra_block(PIPE_S, id, none).take(), op);
  if (both_aivs && core_kind(core) == CoreKind::Cube) r.variant |= kCrossWaitPair;
  s.add(r);
}

// A pipe's template parameters as values: the C++ TPipe's type holds one (TPipe::kShape), the IR front
// door builds one from pto.aic_initialize_pipe / aiv_initialize_pipe. Everything below reads it.
struct PipeShape {
  int flag_id = 0;
  Direction dir = DIR_C2V;
  std::uint32_t slot_size = 1, slot_num = 1, local_slot_num = 2;
  bool no_split = false;
  constexpr bool is_both() const { return dir == DIR_BOTH || dir == DIR_BOTH_GM; }
  constexpr bool is_c2v() const { return dir == DIR_C2V || dir == DIR_C2V_GM || is_both(); }  // carries cube -> vector
  constexpr bool is_v2c() const { return dir == DIR_V2C || dir == DIR_V2C_GM || is_both(); }  // carries vector -> cube
  constexpr bool is_gm_dir() const { return dir == DIR_C2V_GM || dir == DIR_V2C_GM || dir == DIR_BOTH_GM; }  // A5's GM forms
  // Frees are signalled, and waited for, once every sync_period() tiles.
  constexpr std::uint32_t sync_period() const { return slot_num <= 2 ? slot_num : slot_num / 2; }
  constexpr bool should_wait_free(std::uint32_t tile) const { return tile >= slot_num && tile % sync_period() == 0; }
  constexpr bool should_notify_free(std::uint32_t tile) const { return (tile + 1) % sync_period() == 0; }
};

// The two ends' counters (pto-isa's TPipe::Producer and Consumer).
struct PipeProducer {
  std::uint32_t tileIndex = 0, subTileIndex = 0, entryOffset = 0;
  bool isAllocate = true, isRecord = true;
  void setAllocateStatus(bool v) { isAllocate = v; }
  void setRecordStatus(bool v) { isRecord = v; }
  void setTileId(std::uint32_t t) { tileIndex = t; }
  void setEntryOffset(std::uint32_t o) { entryOffset = o; }
  bool getAllocateStatus() const { return isAllocate; }
  bool getRecordStatus() const { return isRecord; }
};
struct PipeConsumer {
  std::uint32_t tileIndex = 0, subTileIndex = 0, entryOffset = 0;
  bool isWait = true, isFree = true;
  void setWaitStatus(bool v) { isWait = v; }
  void setFreeStatus(bool v) { isFree = v; }
  void setTileId(std::uint32_t t) { tileIndex = t; }
  void setEntryOffset(std::uint32_t o) { entryOffset = o; }
  bool getWaitStatus() const { return isWait; }
  bool getFreeStatus() const { return isFree; }
};

// One core's handle on a pipe: its shape, the GM slot ring, the consumers' local rings, its counters.
struct PipeEnd {
  const PipeShape& shape;
  void* gm;
  std::uint32_t c2v_buf, v2c_buf;
  PipeProducer& prod;
  PipeConsumer& cons;
};

// What a pipe's constructor does on the calling core: the target's directions, the cluster, both
// directions' second ring, and A5's consumer handing the producer sync_period() frees up front (as its
// constructor does on the chip).
inline void pipe_construct(const PipeShape& sh, void* gm, PipeProducer& prod, PipeConsumer& cons) {
  Core& core = current_core();
  const Target target = core_target(core);
  if (target == Target::A2A3 && (sh.is_gm_dir() || sh.dir == DIR_V2C_CTRL))
    fail("TPipe: direction ", int(sh.dir), " is not an A2/A3 direction (A2/A3 pipes are DIR_C2V, DIR_V2C or DIR_BOTH, ",
         "all through the GM slot ring)");
  if (target == Target::A5 && !sh.is_gm_dir())
    fail("TPipe: A5's local rings (DIR_C2V into the AIVs' UB, DIR_V2C into the AIC's L1, DIR_BOTH, DIR_V2C_CTRL) are ",
         "not emulated yet; use DIR_C2V_GM / DIR_V2C_GM, which go through GM");
  if (sh.dir == DIR_BOTH_GM) fail("TPipe: A5's DIR_BOTH_GM is not emulated yet; use a DIR_C2V_GM and a DIR_V2C_GM pipe");
  if (!gm) fail("TPipe: GM_SLOT_BUFFER is null; the slot ring (SlotNum x SlotSize bytes) is in GM");
  const CoreKind kind = core_kind(core);
  if (kind == CoreKind::Any)
    fail("TPipe: a pipe between a cluster's cube and vector cores; this launch has no clusters (launch the kernel with ",
         "pto::launch_mix)");
  // Both directions: the vector -> cube ring follows the cube -> vector ring in GM.
  if (sh.is_both() && kind == CoreKind::Vector) prod.entryOffset = sh.slot_num * sh.slot_size;
  if (sh.is_both() && kind == CoreKind::Cube) cons.entryOffset = sh.slot_num * sh.slot_size;
  if (target == Target::A5 && kind == (sh.is_c2v() ? CoreKind::Vector : CoreKind::Cube)) {
    const int free_pipe = kind == CoreKind::Cube ? PIPE_MTE1 : PIPE_MTE2;
    for (std::uint32_t i = 0; i < sh.sync_period(); ++i) {
      IssueSequence q(core, [&](IssueSequence& x) { pipe_signal(x, Op::TFREE, free_pipe, sh.flag_id + 1, !sh.no_split); });
      q.finish();
    }
  }
}

// Which core may do what: the cube produces the cube -> vector leg and consumes the other.
inline void check_side(const PipeShape& sh, const char* fn, bool produce) {
  const CoreKind kind = core_kind(current_core());
  if (kind == CoreKind::Any)
    fail(fn, ": a pipe between a cluster's cube and vector cores; this launch has no clusters (launch the kernel with "
         "pto::launch_mix)");
  const bool cube = kind == CoreKind::Cube;
  const bool ok = sh.is_both() || (produce == cube ? sh.is_c2v() : sh.is_v2c());
  if (!ok)
    fail(fn, ": on a ", sh.is_c2v() ? "cube -> vector" : "vector -> cube", " pipe the ", produce ? "producer" : "consumer", " is the ",
         (produce == sh.is_c2v()) ? "cube core (AIC)" : "vector cores (AIV)", ", and this is ", cube ? "the cube core" : "a vector core",
         "; call it on the other side of the kernel");
}

// The leg the calling core produces or consumes: its ready and free flags, and where it lies in GM.
struct PipeLeg {
  int ready, free;
  std::uint32_t offset;  // bytes from GM_SLOT_BUFFER to the leg's ring
};
inline PipeLeg leg_of(const PipeEnd& p, bool produce) {
  const bool cube = core_kind(current_core()) == CoreKind::Cube;
  const bool v2c = produce ? !cube : cube;  // the leg's direction
  const int ready = p.shape.is_both() && v2c ? p.shape.flag_id + 2 : p.shape.flag_id;
  return {ready, ready + 1, produce ? p.prod.entryOffset : p.cons.entryOffset};
}

// The part of a slot an AIV produces (V2C) or consumes (C2V) of a tile split by `split`: byte offset and
// row stride (elements), for a part of vr x vc elements of `bytes` each.
struct SlotPart {
  std::size_t offset;
  std::int64_t row_stride;
};
inline SlotPart slot_part(TileSplitAxis split, int sub, int vr, int vc, std::size_t bytes, bool consumer) {
  switch (split) {
    case TILE_NO_SPLIT: return {0, vc};
    case TILE_UP_DOWN: return {std::size_t(sub) * vr * vc * bytes, vc};
    case TILE_LEFT_RIGHT: return {std::size_t(sub) * vc * bytes, 2 * std::int64_t(vc)};
    case TILE_UP_DOWN_ODD:
      if (consumer) return {std::size_t(sub) * (vr + sub) * vc * bytes, vc};
      break;
    case TILE_LEFT_RIGHT_ODD:
      if (consumer) return {std::size_t(sub) * (vc + sub) * bytes, 2 * std::int64_t(vc) + 2 * sub - 1};
      break;
  }
  fail("TPUSH: a vector core's TPUSH cannot split a tile ", split == TILE_UP_DOWN_ODD ? "TILE_UP_DOWN_ODD" : "TILE_LEFT_RIGHT_ODD",
       " (the chip's implementation handles the odd splits on the consumer side only)");
}

template <class T>
using SlotTensor = GlobalTensor<T, Shape<1, 1, 1, -1, -1>, Stride<1, 1, 1, -1, 1>>;

template <class T>
SlotTensor<T> slot_tensor(std::byte* at, int rows, int cols, std::int64_t row_stride) {
  return SlotTensor<T>(reinterpret_cast<T*>(at), Shape<1, 1, 1, -1, -1>(rows, cols), Stride<1, 1, 1, -1, 1>(row_stride));
}

// The bytes [offset, offset + rows x row_stride) of one slot must lie in it.
inline void check_slot(const char* fn, std::uint32_t slot_size, std::size_t offset, int rows, int cols, std::int64_t row_stride,
                       std::size_t bytes) {
  const std::size_t end = offset + (std::size_t(rows - 1) * std::size_t(row_stride) + std::size_t(cols)) * bytes;
  if (rows > 0 && end > slot_size)
    fail(fn, ": the tile's ", rows, " x ", cols, " elements at byte ", offset, " of the slot end at byte ", end,
         ", past SlotSize ", slot_size, " (a slot must hold the whole tile, both AIVs' parts of a split one)");
}

inline std::byte* slot_base(const PipeEnd& p, std::uint32_t tile_index, std::uint32_t leg_offset) {
  return static_cast<std::byte*>(p.gm) + std::size_t(tile_index % p.shape.slot_num) * p.shape.slot_size + leg_offset;
}
inline int free_pipe_of(bool cube) { return core_target(current_core()) == Target::A5 && cube ? PIPE_MTE1 : PIPE_MTE2; }

// TPUSH of a tile (view v, `bytes` per element) on the calling core: wait for a free slot once the ring
// is full, store the tile (its part of a split one) into the slot - store(at, rows, cols, row_stride)
// returns the store's record - and signal the consumer.
template <class Store>
void push_tile_steps(IssueSequence& s, const PipeEnd& p, const TileView& v, std::size_t bytes, int sub, TileSplitAxis split, Store&& store) {
  const bool cube = core_kind(current_core()) == CoreKind::Cube;
  const PipeLeg leg = leg_of(p, true);
  if (p.prod.isAllocate && p.shape.should_wait_free(p.prod.tileIndex)) pipe_wait(s, Op::TPUSH, leg.free, split != TILE_NO_SPLIT);
  const SlotPart part = cube ? SlotPart{0, v.valid_cols} : slot_part(split, sub, v.valid_rows, v.valid_cols, bytes, false);
  check_slot("TPUSH", p.shape.slot_size, leg.offset % p.shape.slot_size + part.offset, v.valid_rows, v.valid_cols, part.row_stride, bytes);
  s.add(store(slot_base(p, p.prod.tileIndex, leg.offset) + part.offset, v.valid_rows, v.valid_cols, part.row_stride), true);
  ++p.prod.tileIndex;
  if (p.prod.isRecord) pipe_signal(s, Op::TPUSH, cube ? PIPE_FIX : PIPE_MTE3, leg.ready, split != TILE_NO_SPLIT);
}

// TPOP into a tile: wait for the next slot, point the tile at its local ring - place(local address)
// does and returns the tile's view - load its part of the slot there - load(at, rows, cols,
// row_stride) returns the load's record - and free the slots read every sync_period() tiles.
// `local_stride`: bytes between the local ring's slots.
template <class Place, class Load>
void pop_tile_steps(IssueSequence& s, const PipeEnd& p, std::uint32_t local_stride, std::size_t bytes, int sub, TileSplitAxis split,
                    Place&& place, Load&& load) {
  const bool cube = core_kind(current_core()) == CoreKind::Cube;
  const PipeLeg leg = leg_of(p, false);
  if (p.cons.isWait) pipe_wait(s, Op::TPOP, leg.ready, split != TILE_NO_SPLIT);
  const std::uint32_t local = (cube ? p.v2c_buf : p.c2v_buf) + (p.cons.tileIndex % p.shape.local_slot_num) * local_stride;
  const TileView v = place(local);
  const SlotPart part = cube ? SlotPart{0, v.valid_cols} : slot_part(split, sub, v.valid_rows, v.valid_cols, bytes, true);
  check_slot("TPOP", p.shape.slot_size, leg.offset % p.shape.slot_size + part.offset, v.valid_rows, v.valid_cols, part.row_stride, bytes);
  s.add(load(slot_base(p, p.cons.tileIndex, leg.offset) + part.offset, v.valid_rows, v.valid_cols, part.row_stride), true);
  if (p.cons.isFree && p.shape.should_notify_free(p.cons.tileIndex))
    pipe_signal(s, Op::TPOP, free_pipe_of(cube), leg.free, split != TILE_NO_SPLIT);
  ++p.cons.tileIndex;
}
}  // namespace detail

template <std::uint8_t FlagID, std::uint8_t DirType, std::uint32_t SlotSize, std::uint32_t SlotNum,
          std::uint32_t LocalSlotNum = 2, bool IsNoSplit = false, bool EN_UNIT_FLAG = false>
struct TPipe {
  static constexpr int kFlagID = FlagID;
  static constexpr Direction kDir = Direction(DirType & 0x7);
  static constexpr detail::PipeShape kShape{FlagID, kDir, SlotSize, SlotNum, LocalSlotNum, IsNoSplit};
  static constexpr bool is_both = kShape.is_both();
  static constexpr bool is_c2v = kShape.is_c2v();  // carries cube -> vector
  static constexpr bool is_v2c = kShape.is_v2c();  // carries vector -> cube
  static constexpr bool is_gm_dir = kShape.is_gm_dir();  // A5's GM forms
  static_assert(SlotNum >= 1, "TPipe: SlotNum (the ring's depth) must be at least 1");
  static_assert(SlotSize >= 1, "TPipe: SlotSize (bytes per slot) must be at least 1");
  static_assert(is_both ? FlagID + 3 < 16 : FlagID + 1 < 16,
                "TPipe: the pipe uses flags FlagID and FlagID + 1 (and FlagID + 2, + 3 in both directions): they must "
                "be below 16");
  static_assert(kDir != UNDEFINED, "TPipe: DirType must be a Direction (DIR_C2V, DIR_V2C, DIR_BOTH, or A5's DIR_*_GM)");

  // Frees are signalled, and waited for, once every SyncPeriod tiles.
  static constexpr std::uint32_t SyncPeriod = kShape.sync_period();
  static constexpr bool shouldWaitFree(std::uint32_t tileIndex) { return kShape.should_wait_free(tileIndex); }
  static constexpr bool shouldNotifyFree(std::uint32_t tileIndex) { return kShape.should_notify_free(tileIndex); }

  using RingFiFo = RingFIFO<int(SlotSize), int(SlotNum), int(LocalSlotNum)>;
  using Producer = detail::PipeProducer;
  using Consumer = detail::PipeConsumer;

  RingFiFo fifo;
  Producer prod;
  Consumer cons;

  explicit TPipe(void* GM_SLOT_BUFFER, std::uint32_t C2V_CONSUMER_BUF, std::uint32_t V2C_CONSUMER_BUF)
      : fifo(GM_SLOT_BUFFER, C2V_CONSUMER_BUF, V2C_CONSUMER_BUF) {
    detail::pipe_construct(kShape, fifo.GM_SLOT_BUFFER, prod, cons);
  }
  detail::PipeEnd end() { return {kShape, fifo.GM_SLOT_BUFFER, fifo.C2V_CONSUMER_BUF, fifo.V2C_CONSUMER_BUF, prod, cons}; }
};


// TPUSH(pipe, tile): the producer stores the tile into the next slot (an Acc tile through the fixpipe
// on the cube, a Vec tile from UB on an AIV: its part of a split tile) and signals the consumer. Waits
// first for a free slot once the ring is full (every SyncPeriod tiles). `events` order the store.
template <class Pipe, class TileProd, TileSplitAxis Split, class... WaitEvents>
  requires(TileLike<TileProd> && (detail::WaitEvent<WaitEvents> && ...))
detail::IssueSequence TPUSH(Pipe& pipe, TileProd& tile, std::int32_t subBlockId, WaitEvents&... events) {
  using namespace detail;
  static_assert(TileProd::Loc == TileType::Acc || TileProd::Loc == TileType::Vec,
                "TPUSH: the produced tile must be an Acc tile (cube -> vector) or a Vec tile (vector -> cube)");
  using T = typename TileProd::DType;
  check_side(Pipe::kShape, "TPUSH", true);
  return IssueSequence(current_core(), [&](IssueSequence& s) {
    push_tile_steps(s, pipe.end(), tile.view(), sizeof(T), subBlockId, Split, [&](std::byte* at, int rows, int cols, std::int64_t stride) {
      auto g = slot_tensor<T>(at, rows, cols, stride);
      return TSTORE(g, tile, events...).take();
    });
  });
}
template <class Pipe, class TileProd, TileSplitAxis Split, class... WaitEvents>
  requires(TileLike<TileProd> && (detail::WaitEvent<WaitEvents> && ...))
detail::IssueSequence TPUSH(Pipe& pipe, TileProd& tile, WaitEvents&... events) {
  return TPUSH<Pipe, TileProd, Split>(pipe, tile, std::int32_t(get_subblockid()), events...);
}

// TPOP(pipe, tile): the consumer waits for the next slot, points the tile at its local ring
// (C2V_CONSUMER_BUF in UB, V2C_CONSUMER_BUF in L1, LocalSlotNum slots) and loads its part of the slot
// there; every SyncPeriod tiles it frees the slots it has read (TFREE(pipe) is then a no-op).
template <class Pipe, class TileCons, TileSplitAxis Split, class... WaitEvents>
  requires(TileLike<TileCons> && (detail::WaitEvent<WaitEvents> && ...))
detail::IssueSequence TPOP(Pipe& pipe, TileCons& tile, std::int32_t subBlockId, WaitEvents&... events) {
  using namespace detail;
  static_assert(TileCons::Loc == TileType::Vec || TileCons::Loc == TileType::Mat,
                "TPOP: the consumed tile must be a Vec tile (cube -> vector) or a Mat tile (vector -> cube)");
  using T = typename TileCons::DType;
  check_side(Pipe::kShape, "TPOP", false);
  return IssueSequence(current_core(), [&](IssueSequence& s) {
    const std::uint32_t local_stride = core_target(current_core()) == Target::A5
                                           ? std::uint32_t(TileCons::Rows * TileCons::Cols * sizeof(T))
                                           : Pipe::RingFiFo::SLOT_SIZE;
    pop_tile_steps(
        s, pipe.end(), local_stride, sizeof(T), subBlockId, Split,
        [&](std::uint32_t local) {
          TASSIGN(tile, local);
          return tile.view();
        },
        [&](std::byte* at, int rows, int cols, std::int64_t stride) {
          auto g = slot_tensor<T>(at, rows, cols, stride);
          return TLOAD(tile, g, events...).take();
        });
  });
}
template <class Pipe, class TileCons, TileSplitAxis Split, class... WaitEvents>
  requires(TileLike<TileCons> && (detail::WaitEvent<WaitEvents> && ...))
detail::IssueSequence TPOP(Pipe& pipe, TileCons& tile, WaitEvents&... events) {
  return TPOP<Pipe, TileCons, Split>(pipe, tile, std::int32_t(get_subblockid()), events...);
}

// TFREE(pipe) after a tile TPOP: TPOP already freed the slot on the GM rings (the chip's A2/A3 TFREE is
// empty too); A5's local rings, which need it, are not emulated yet.
template <class Pipe, TileSplitAxis Split = TILE_NO_SPLIT, class... WaitEvents>
  requires((detail::WaitEvent<WaitEvents> && ...))
detail::IssueSequence TFREE(Pipe& pipe, WaitEvents&... events) {
  (void)pipe;
  (TSYNC(events), ...);
  return detail::IssueSequence(detail::current_core(), [](detail::IssueSequence&) {});
}

// The GlobalTensor forms. TALLOC: wait for a free slot (once the ring is full) and point `gm` at the
// next one (an AIV: at its part of a split tile); the kernel stores into it, then TPUSH(pipe, gm)
// signals the consumer. TPOP(pipe, gm): wait for the next slot and point `gm` at it (an AIV: its part);
// the kernel loads from it, then TFREE(pipe, gm) frees it every SyncPeriod tiles.
template <class Pipe, class GlobalData, TileSplitAxis Split, class... WaitEvents>
  requires(GlobalLike<GlobalData> && (detail::WaitEvent<WaitEvents> && ...))
detail::IssueSequence TALLOC(Pipe& pipe, GlobalData& gm, WaitEvents&... events) {
  using namespace detail;
  using T = typename GlobalData::DType;
  check_side(Pipe::kShape, "TALLOC", true);
  (TSYNC(events), ...);
  return IssueSequence(current_core(), [&](IssueSequence& s) {
    const bool cube = core_kind(current_core()) == CoreKind::Cube;
    if (pipe.prod.isAllocate && Pipe::shouldWaitFree(pipe.prod.tileIndex))
      pipe_wait(s, Op::TALLOC, leg_of(pipe.end(), true).free, Split != TILE_NO_SPLIT);
    const int rows = int(gm.GetShape(3)), cols = int(gm.GetShape(4));
    const SlotPart part = cube ? SlotPart{0, cols} : slot_part(Split, int(get_subblockid()), rows, cols, sizeof(T), false);
    TASSIGN(gm, reinterpret_cast<T*>(slot_base(pipe.end(), pipe.prod.tileIndex, 0) + part.offset));
    ++pipe.prod.tileIndex;
  });
}
template <class Pipe, class GlobalData, TileSplitAxis Split, class... WaitEvents>
  requires(GlobalLike<GlobalData> && (detail::WaitEvent<WaitEvents> && ...))
detail::IssueSequence TPUSH(Pipe& pipe, GlobalData& gm, WaitEvents&... events) {
  using namespace detail;
  (void)gm;
  check_side(Pipe::kShape, "TPUSH", true);
  (TSYNC(events), ...);
  return IssueSequence(current_core(), [&](IssueSequence& s) {
    const bool cube = core_kind(current_core()) == CoreKind::Cube;
    if (pipe.prod.isRecord) pipe_signal(s, Op::TPUSH, cube ? PIPE_FIX : PIPE_MTE3, leg_of(pipe.end(), true).ready, Split != TILE_NO_SPLIT);
  });
}
template <class Pipe, class GlobalData, TileSplitAxis Split, class... WaitEvents>
  requires(GlobalLike<GlobalData> && (detail::WaitEvent<WaitEvents> && ...))
detail::IssueSequence TPOP(Pipe& pipe, GlobalData& gm, WaitEvents&... events) {
  using namespace detail;
  using T = typename GlobalData::DType;
  check_side(Pipe::kShape, "TPOP", false);
  (TSYNC(events), ...);
  return IssueSequence(current_core(), [&](IssueSequence& s) {
    const bool cube = core_kind(current_core()) == CoreKind::Cube;
    pipe_wait(s, Op::TPOP, leg_of(pipe.end(), false).ready, Split != TILE_NO_SPLIT);
    const int rows = int(gm.GetShape(3)), cols = int(gm.GetShape(4));
    const SlotPart part = cube ? SlotPart{0, cols} : slot_part(Split, int(get_subblockid()), rows, cols, sizeof(T), true);
    TASSIGN(gm, reinterpret_cast<T*>(slot_base(pipe.end(), pipe.cons.tileIndex, 0) + part.offset));
    ++pipe.cons.tileIndex;
  });
}
template <class Pipe, class GlobalData, TileSplitAxis Split, class... WaitEvents>
  requires(GlobalLike<GlobalData> && (detail::WaitEvent<WaitEvents> && ...))
detail::IssueSequence TFREE(Pipe& pipe, GlobalData& gm, WaitEvents&... events) {
  using namespace detail;
  (void)gm;
  check_side(Pipe::kShape, "TFREE", false);
  (TSYNC(events), ...);
  return IssueSequence(current_core(), [&](IssueSequence& s) {
    const bool cube = core_kind(current_core()) == CoreKind::Cube;
    if (pipe.cons.isFree && Pipe::shouldNotifyFree(pipe.cons.tileIndex - 1))
      pipe_signal(s, Op::TFREE, free_pipe_of(cube), leg_of(pipe.end(), false).free, Split != TILE_NO_SPLIT);
  });
}

}  // namespace pto
