// The compiled side of core_api.hpp: the calling thread's current core and the narrow functions the
// header-only instruction templates call.
#include <memory>

#include "core.hpp"

namespace pto::detail {

namespace {
thread_local Core* t_current = nullptr;
}  // namespace

CurrentCoreGuard::CurrentCoreGuard(Core* core) : previous_(t_current) { t_current = core; }
CurrentCoreGuard::~CurrentCoreGuard() { t_current = previous_; }

Core& current_core() {
  if (t_current) return *t_current;
  // Direct call of a plain kernel outside pto::launch: one implicit core per host thread, kept for the
  // thread's lifetime like the CPU simulator's thread_local memory, running instructions as issued.
  thread_local std::unique_ptr<Core> implicit = [] {
    CoreOptions o;
    o.synchronous = true;
    o.cpu_reference = true;  // direct calls behave like the CPU simulator
    return std::make_unique<Core>(o);
  }();
  return *implicit;
}

Target core_target(const Core& c) { return c.options().target; }
Mode core_mode(const Core& c) { return c.options().mode; }
std::uint64_t core_run_id(const Core& c) { return c.run_id(); }
int core_block_idx(const Core& c) { return c.options().block_idx; }
int core_block_num(const Core& c) { return c.options().block_num; }

bool try_issue(Core& c, InstrRecord& rec, RecordEvent& out) {
  c.validate(rec);
  if (!c.can_issue(rec)) return false;
  out = c.issue(rec);
  return true;
}
RecordEvent issue_blocking(Core& c, InstrRecord& rec) { return c.issue_blocking(rec); }
void park(Core& c, InstrRecord& rec, RecordEvent& out, std::coroutine_handle<> k) { c.park(rec, out, k); }

void kernel_ends() { current_core().finish(); }
void note_unrecorded_event(Core& c, const InstrRecord& rec, const char* event) { c.note_unrecorded_event(rec, event); }
void kernel_fails() noexcept {
  if (t_current) t_current->abandon();
}

std::byte* buffer_base(Core& c, TileType loc) { return loc == TileType::Vec ? c.ub() : nullptr; }
std::size_t buffer_bytes(const Core& c, TileType loc) { return loc == TileType::Vec ? c.ub_bytes() : 0; }
std::byte* auto_place(Core& c, std::size_t bytes) { return c.auto_place(bytes); }
void note_tassign(Core& c, std::uint64_t offset, std::uint64_t bytes, const std::string& tile) {
  c.note_tassign(offset, bytes, tile);
}
void claim_a2a3_scratch(Core& c, const char* instruction) { c.claim_a2a3_scratch(instruction); }

}  // namespace pto::detail

