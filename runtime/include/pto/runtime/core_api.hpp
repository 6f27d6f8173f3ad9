// The narrow compiled interface between the header-only instruction templates and the runtime
// (oneTBB habit: templates in headers, one exported call behind them). Nothing here pulls in the
// scheduler, Asio or TBB.
#pragma once
#include <coroutine>
#include <cstddef>
#include <cstdint>

#include <pto/isa/enums.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/record.hpp>

namespace pto::detail {

class Core;  // runtime/src/core.hpp

// The core the calling kernel runs on. Outside pto::launch this is an implicit single core
// (block 0 of 1, A2A3, manual) that runs every instruction as soon as it is issued.
Core& current_core();

Target core_target(const Core&);
Mode core_mode(const Core&);
std::uint64_t core_run_id(const Core&);
int core_block_idx(const Core&);
int core_block_num(const Core&);

// Issue without suspending if the pipe accepts now (room in its queue; for scalar-pipe records, the
// condition already holds). Returns false and issues nothing otherwise.
bool try_issue(Core&, InstrRecord&, RecordEvent& out);
// Plain kernels: advance the model until the record can issue, then issue it.
RecordEvent issue_blocking(Core&, InstrRecord&);
// Coroutine kernels: the kernel suspends; the core's driver issues `rec` when it can and resumes `k`.
void park(Core&, InstrRecord& rec, RecordEvent& out, std::coroutine_handle<> k);

// Base of the buffer behind a TileType on this core and its capacity (UB for Vec).
std::byte* buffer_base(Core&, TileType);
std::size_t buffer_bytes(const Core&, TileType);
// Auto mode: storage for a tile the kernel never TASSIGNed (outside UB, alive until the core ends).
std::byte* auto_place(Core&, std::size_t bytes);

}  // namespace pto::detail
