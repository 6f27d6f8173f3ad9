// The narrow compiled interface between the header-only instruction templates and the runtime
// (oneTBB habit: templates in headers, one exported call behind them). Nothing here pulls in the
// scheduler, Asio or TBB.
#pragma once
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <string>

#include <pto/isa/enums.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/record.hpp>

namespace pto::detail {

class Core;  // runtime/src/core.hpp

// The core the calling kernel runs on. Outside pto::launch this is an implicit single core
// (block 0 of 1, A2A3, manual) that runs every instruction as soon as it is issued.
Core& current_core();

Target core_target(const Core&);
int core_mad_mode(const Core&);  // the TF32 mode Tile::SetMadTF32Mode set: a RoundMode, or -1
Mode core_mode(const Core&);
std::uint64_t core_run_id(const Core&);
std::uint64_t core_issued(const Core&);  // records issued so far on this core
int core_block_idx(const Core&);
int core_block_num(const Core&);
int core_subblock(const Core&);  // get_subblockid(): 0 / 1 on a cluster's AIV0 / AIV1, else 0
CoreKind core_kind(const Core&);
// get_sys_cnt(): the chip's system counter, 50 MHz (20 ns a tick), read off the scalar pipe's modeled clock.
std::uint64_t core_sys_cnt(const Core&);
// get_coreid(): the chip core the block runs on. In a cluster launch block % CostTable::cube_cores (its
// blocks beyond the chip's AI cores run on the core of the block that many before); otherwise, every
// block running at once, the block index.
int core_chip_core(const Core&);

// Issue without suspending if the pipe accepts now (room in its queue; for scalar-pipe records, the
// condition already holds). Returns false and issues nothing otherwise.
bool try_issue(Core&, InstrRecord&, RecordEvent& out);
// Plain kernels: advance the model until the record can issue, then issue it.
RecordEvent issue_blocking(Core&, InstrRecord&);
// Coroutine kernels: the kernel suspends; the core's driver issues `rec` when it can and resumes `k`.
void park(Core&, InstrRecord& rec, RecordEvent& out, std::coroutine_handle<> k);

// The calling kernel has ended: drain the core (the implicit pipe_barrier(PIPE_ALL) of a kernel's end)
// while everything the kernel owns is still alive.
void kernel_ends();
// The calling kernel is failing: stop any host executor before the kernel's memory is unwound.
void kernel_fails() noexcept;

// TPRINT, after its pipe_barrier(PIPE_ALL): the operand's values, formatted, to the launch's print stream,
// headed by the core and the barrier's instruction number (model-only runs: the header and a note).
void print_operand(Core&, const Operand& what, PrintFormat format);

// Sync checker: `rec` waits on an Event<Src, Dst> (`event` names its type) that was never assigned.
void note_unrecorded_event(Core&, const InstrRecord& rec, const char* event);

// Base of the buffer behind a TileType on this core (allocated on first use; null when the target has
// none) and its capacity (0: none). Vec: UB, Mat: L1, Left: L0A, Right: L0B, Acc: L0C, Bias: BT, ...
std::byte* buffer_base(Core&, TileType);
std::size_t buffer_bytes(const Core&, TileType);
// Auto mode: a place in the tile's buffer for a tile the kernel never TASSIGNed, first used as operand
// `operand` of `instruction`; it lives while a Tile object holds it (TileHooks). Throws, listing the
// live tiles, when they leave no room.
std::byte* auto_place(Core&, TileType loc, std::size_t bytes, const TileView& tile, const char* instruction,
                      const char* operand);

// pto::KernelGm: GM the calling core's kernel owns, from now until the release (which first waits for
// the instructions still using it). Returns the core's run id, which the release names.
std::uint64_t kernel_gm_acquire(const void* data, std::size_t count, std::size_t elem_bytes);
void kernel_gm_release(const void* data, std::uint64_t owner);

}  // namespace pto::detail

namespace pto::detail {
// A TASSIGN of `bytes` at `offset` of loc's buffer. Auto mode never places a tile over it. The A2/A3
// implicit scratch UB [TMP_UB_OFFSET, +8 KiB): the 3-argument mode-1 TROWEXPAND* clobber it on the
// chip. Each core remembers the first tile TASSIGNed over it and the first instruction that used it;
// having both in one kernel is an error (the chip would corrupt that tile silently).
void note_tassign(Core&, TileType loc, std::uint64_t offset, std::uint64_t bytes, const std::string& tile);
void claim_a2a3_scratch(Core&, const char* instruction);
}  // namespace pto::detail
