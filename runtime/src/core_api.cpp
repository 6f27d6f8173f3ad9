// The compiled side of core_api.hpp: the calling thread's current core and the narrow functions the
// header-only instruction templates call.
#include <atomic>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include <pto/isa/global_tensor.hpp>
#include <pto/isa/tile.hpp>
#include <pto/runtime/direct_call.hpp>

#include "core.hpp"
#include "env.hpp"

namespace pto::detail {

namespace {
thread_local Core* t_current = nullptr;
thread_local int t_direct_target = -1;  // -1: no ScopedTarget; else a Target
std::atomic<bool> g_auto_build{false};   // a translation unit was built with -D__PTO_AUTO__

Target env_target() {
  static const Target t = [] {
    const char* env = std::getenv("PTO_TARGET");
    if (!env || !*env) return Target::A2A3;
    const std::string v = env_lower(env);  // any case, as PTO_SYNC_CHECK
    if (v == "a2a3") return Target::A2A3;
    if (v == "a5") return Target::A5;
    fail("PTO_TARGET='", env, "': use A2A3 or A5 (any case)");
  }();
  return t;
}
}  // namespace

void note_auto_build() { g_auto_build.store(true); }

CurrentCoreGuard::CurrentCoreGuard(Core* core) : previous_(t_current) { t_current = core; }
Core* exchange_current_core(Core* core) { return std::exchange(t_current, core); }
CurrentCoreGuard::~CurrentCoreGuard() { t_current = previous_; }

Core& current_core() {
  if (t_current) return *t_current;
  // Direct call of a plain kernel outside pto::launch: one implicit core per host thread, kept for the
  // thread's lifetime like the CPU simulator's thread_local memory, running instructions as issued.
  thread_local std::unique_ptr<Core> implicit[2];
  const Target target = direct_call_target();
  auto& core = implicit[target == Target::A5 ? 1 : 0];
  if (!core) {
    CoreOptions o;
    o.target = target;
    o.synchronous = true;
    o.cpu_reference = true;  // direct calls behave like the CPU simulator
    o.mode = g_auto_build.load() ? Mode::Auto : Mode::Manual;
    core = std::make_unique<Core>(o);
  }
  return *core;
}

}  // namespace pto::detail

namespace pto {
Target direct_call_target() { return detail::t_direct_target >= 0 ? Target(detail::t_direct_target) : detail::env_target(); }
ScopedTarget::ScopedTarget(Target target) : previous_(detail::t_direct_target) { detail::t_direct_target = int(target); }
ScopedTarget::~ScopedTarget() { detail::t_direct_target = previous_; }
}  // namespace pto

namespace pto::detail {

Target core_target(const Core& c) { return c.options().target; }
int core_mad_mode(const Core& c) { return c.mad_mode; }
Mode core_mode(const Core& c) { return c.options().mode; }
std::uint64_t core_run_id(const Core& c) { return c.run_id(); }
std::uint64_t core_issued(const Core& c) { return c.issued(); }
int core_block_idx(const Core& c) { return c.options().block_idx; }
int core_block_num(const Core& c) { return c.options().block_num; }
int core_subblock(const Core& c) { return c.options().subblock; }
CoreKind core_kind(const Core& c) { return c.options().kind; }
int core_chip_core(const Core& c) {
  const int n = c.cost().table().cube_cores;  // only cluster launches run their blocks in waves
  return n > 0 && c.options().clusters ? c.options().block_idx % n : c.options().block_idx;
}
std::uint64_t core_sys_cnt(const Core& c) {
  return std::uint64_t(double(c.options().dispatched + c.scalar_time()) / (c.cost().table().clock_ghz * 20.0));
}

bool try_issue(Core& c, InstrRecord& rec, RecordEvent& out) {
  // The driver drains the core and meets the others, or waits for the flag (Core::drive).
  if (rec.kind == RecordKind::SyncAll || rec.kind == RecordKind::CrossWait) return false;
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

std::byte* buffer_base(Core& c, TileType loc) { return c.buffers().base(loc); }
std::size_t buffer_bytes(const Core& c, TileType loc) { return c.buffers().bytes(loc); }
std::byte* auto_place(Core& c, TileType loc, std::size_t bytes, const TileView& tile, const char* instruction,
                      const char* operand) {
  return c.auto_place(loc, bytes, tile, instruction, operand);
}

namespace {
// Tile copies and deaths reach the core that placed them (while it runs: a copy outliving its core's
// run, a static say, refers to nothing any more).
Core* placing_core(std::uint64_t owner) { return t_current && t_current->run_id() == owner ? t_current : nullptr; }
const bool hooks_installed = [] {
  tile_hooks.retain = [](std::byte* a, std::uint64_t owner) {
    if (Core* c = placing_core(owner)) c->placement().retain(a);
  };
  tile_hooks.release = [](std::byte* a, std::uint64_t owner) {
    if (Core* c = placing_core(owner)) c->placement().release(a);
  };
  tile_hooks.mad_mode = [](int mode) { current_core().mad_mode = mode; };
  tile_hooks.host_access = [](const std::byte* a, std::size_t n) {
    if (t_current) t_current->host_access(a, n);
  };
  gm_released = [](const GmView& v) {
    if (t_current) t_current->gm_released(v);
  };
  return true;
}();
}  // namespace
void auto_retire(std::byte* a, std::uint64_t owner) {
  if (Core* c = placing_core(owner)) c->placement().retire(a);
}
std::uint64_t kernel_gm_acquire(const void* data, std::size_t count, std::size_t elem_bytes) {
  Core& c = current_core();
  const auto lo = reinterpret_cast<std::uintptr_t>(data);
  c.kernel_gm_acquire({lo, lo + count * elem_bytes, -1, count, elem_bytes});
  return c.run_id();
}
void kernel_gm_release(const void* data, std::uint64_t owner) {
  if (Core* c = placing_core(owner)) c->kernel_gm_release(reinterpret_cast<std::uintptr_t>(data));
}
void note_tassign(Core& c, TileType loc, std::uint64_t offset, std::uint64_t bytes, const std::string& tile) {
  c.placement().note_tassign(loc, offset, bytes, tile);
}
void claim_a2a3_scratch(Core& c, const char* instruction) { c.placement().claim_a2a3_scratch(instruction); }

}  // namespace pto::detail


namespace pto::detail {
void issued_out_of_order(const InstrRecord& rec, std::uint64_t later) {
  fail(rec.desc ? rec.desc->name : "instruction", ": this instruction would issue after ", later,
       " instruction(s) written after it: an `auto` variable holds an instruction unissued until it is co_awaited, "
       "converted to RecordEvent, waited on, or goes out of scope. Write `RecordEvent e = ",
       rec.desc ? rec.desc->name : "INSTR", "(...)` (or co_await it) where it stands");
}
}  // namespace pto::detail
