// InstrRecord: what one issued instruction is, as plain data (stdexec habit: the work, not where it
// runs). The public instruction functions build one; the core's pipes run it.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <pto/isa/instr_desc.hpp>
#include <pto/isa/operand.hpp>
#include <pto/isa/pipes.hpp>
#include <pto/runtime/source_location.hpp>

namespace pto::detail {

enum class RecordKind : std::uint8_t {
  Compute,     // a tile instruction: runs its backend kernel
  SetFlag,     // set_flag(src, dst, id): queued on src
  WaitFlag,    // wait_flag(src, dst, id): queued on dst
  BarrierAll,  // pipe_barrier(PIPE_ALL): the scalar pipe waits for every pipe to drain
  Nop,         // pipe_barrier(p) on one pipe, or a wait on events alone
  SyncAll,     // SYNCALL: pipe_barrier(PIPE_ALL), then every core of the launch meets (variant kSyncAllLocal: only the barrier)
  CrossSet,    // ffts_cross_core_sync / set_intra_block: queued on its pipe; at its end, other cores' flag flag_id counts up
  CrossWait    // wait_flag_dev / wait_intra_block: the scalar pipe waits until this core's flag flag_id counts, and takes one
};

// InstrRecord::variant of a SyncAll record. The header writes the SyncCoreType (AIVOnly 0, AICOnly 1,
// Mix 2); the core resolves it at issue: on a vector core (or a plain launch's) AICOnly does not meet
// anyone (only the barrier), on a cube core AIVOnly does not (kSyncAllLocalCube) and AICOnly meets the
// cube cores (kSyncAllCube).
inline constexpr std::uint8_t kSyncAllVector = 0, kSyncAllLocal = 1, kSyncAllMix = 2, kSyncAllCube = 3,
                              kSyncAllLocalCube = 4;
constexpr bool syncall_meets(std::uint8_t variant) { return variant != kSyncAllLocal && variant != kSyncAllLocalCube; }
// InstrRecord::flag_src of a CrossSet record: how the set reaches other cores (FFTS modes as in the
// config word, bits 4-5; kCrossIntra: A5's set_intra_block, one core of the cluster by id).
inline constexpr int kCrossAllCores = 0, kCrossSubcores = 1, kCrossCluster = 2, kCrossIntra = 3;
// InstrRecord::variant bits of a CrossWait record: named wait_intra_block (A5), and waiting for flag_id + 16
// as well (an A5 AIC waiting for both AIVs of a split tile at once).
inline constexpr std::uint8_t kCrossWaitIntra = 1, kCrossWaitPair = 2;

inline constexpr int kMaxWaits = 8;

struct InstrRecord {
  const InstrDesc* desc = nullptr;
  RecordKind kind = RecordKind::Compute;
  pipe_t pipe = PIPE_S;  // the pipe whose queue runs it
  pipe_t flag_src = PIPE_S, flag_dst = PIPE_S;
  int flag_id = 0;
  std::uint8_t nops = 0;
  std::uint8_t nwaits = 0;
  std::uint8_t variant = 0;  // backend-specific form bits (kVariant* in isa/operand.hpp)
  bool unit_flag = false;    // a mad's AccPhase form: the fixpipe's next read of its result waits for it
  Operand ops[kMaxOperands];
  ScalarValue scalar{};
  std::uint64_t waits[kMaxWaits] = {};  // sequence numbers of instructions that must finish first
  pto::source_location where{};        // sync operations: the call site (line 0: unknown)
};

// `to = from` for everything an instruction uses: only the first nops operands and nwaits waits (a
// whole record is 560 bytes, a TLOAD with one wait uses 280 of them; the copy is on every issue).
inline void copy_used(InstrRecord& to, const InstrRecord& from) {
  std::memcpy(static_cast<void*>(&to), &from, offsetof(InstrRecord, ops));  // the header, whatever it holds
  std::copy_n(from.ops, from.nops, to.ops);
  to.scalar = from.scalar;
  std::copy_n(from.waits, from.nwaits, to.waits);
  to.where = from.where;
}
// The layout copy_used() assumes: a header, then ops, scalar, waits and where, nothing in between.
static_assert(std::is_standard_layout_v<InstrRecord> && std::is_trivially_copyable_v<InstrRecord>);
static_assert(offsetof(InstrRecord, scalar) == offsetof(InstrRecord, ops) + sizeof(InstrRecord::ops) &&
                  offsetof(InstrRecord, waits) == offsetof(InstrRecord, scalar) + sizeof(ScalarValue) &&
                  offsetof(InstrRecord, where) == offsetof(InstrRecord, waits) + sizeof(InstrRecord::waits) &&
                  sizeof(InstrRecord) == offsetof(InstrRecord, where) + sizeof(pto::source_location),
              "copy_used(): a field added after the header must be copied there");

}  // namespace pto::detail
