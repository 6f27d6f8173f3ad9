// launch_impl: create one Core per block, run each block's kernel on it, and gather the reports.
// Cores share no state except the SYNCALL barrier, so any number of them run on a bounded pool of host
// threads (the LaunchScheduler: a core that waits at SYNCALL suspends and its thread runs other cores);
// the first error (lowest block index) is rethrown after every core has stopped.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>
#include <exception>
#include <iostream>
#include <memory>
#include <mutex>
#include <queue>
#include <tuple>
#include <thread>
#include <vector>

#include <oneapi/tbb/task_arena.h>

#include <pto/isa/error.hpp>
#include <pto/runtime/launch.hpp>

#include "concurrent_policy.hpp"
#include "core.hpp"
#include "core_layout.hpp"
#include "cluster_races.hpp"
#include "core_scheduler.hpp"
#include "memory_system.hpp"
#include "core_tools.hpp"
#include "cost_model.hpp"
#include "env.hpp"
#include "kernel_statics.hpp"

namespace pto::detail {

namespace {
// SyncCheck::Default: the environment (PTO_SYNC_CHECK = 0/off, 1/report, throw) decides, else the
// checker is on (Report, with a notice on stderr when it finds something), whatever the build.
SyncCheck resolve_check(SyncCheck c) {
  if (c != SyncCheck::Default) return c;
  if (const char* env = std::getenv("PTO_SYNC_CHECK")) {
    const std::string v = env_lower(env);  // any case, as PTO_TARGET
    if (v == "0" || v == "off") return SyncCheck::Off;
    if (v == "1" || v == "report") return SyncCheck::Report;
    if (v == "throw") return SyncCheck::Throw;
    fail("PTO_SYNC_CHECK='", env, "': use 0 / off, 1 / report, or throw (any case)");
  }
  return SyncCheck::Default;  // Report, and say so on stderr
}

// LaunchConfig::fill: -1 reads PTO_FILL (zero, nan = 0xFF, or a byte: 205, 0xCD), else 0.
int resolve_fill(int fill) {
  if (fill > 255 || fill < -1) fail("pto::launch: fill = ", fill, " is not a byte (0 to 255), or -1 for PTO_FILL");
  if (fill >= 0) return fill;
  const char* env = std::getenv("PTO_FILL");
  if (!env || !*env) return 0;
  const std::string v = env_lower(env);
  if (v == "zero") return 0;
  if (v == "nan") return 0xFF;
  char* end = nullptr;
  const unsigned long b = std::strtoul(v.c_str(), &end, 0);
  if (*end != '\0' || v[0] == '-' || b > 255)
    fail("PTO_FILL='", env, "': use zero, nan (0xFF bytes: NaN in every float type) or a byte, 0 to 255 (0xCD)");
  return int(b);
}

// A launch whose checker was on by default and found something says so once on stderr: a user who did
// not ask for the findings must still not miss them.
void notice_findings(const LaunchReport& r) {
  std::uint64_t n = 0;
  const SyncFinding* first = nullptr;
  for (const auto& c : r.cores) {
    n += c.sync.size() + c.sync_suppressed;
    if (!first && !c.sync.empty()) first = &c.sync.front();
  }
  if (!first) return;
  std::cerr << "pto::launch: the synchronisation checker found " << n << " problem(s); results may differ from the "
            << "chip's. First: " << first->message << "\n  (all of them: LaunchReport::findings() or the summary; "
            << "SyncCheck::Report collects them without this notice, SyncCheck::Off or PTO_SYNC_CHECK=0 turns the "
            << "checker off)\n";
}

// One core of the launch: its executor, Core and kernel, run by the launch's scheduler. A coroutine kernel
// may return from run() while it waits at a SYNCALL; everything it needs lives here meanwhile.
class BlockTask final : public CoreTask {
public:
  BlockTask(const LaunchConfig& cfg, int core, KernelStart start, const void* state, ConcurrentPolicy* concurrent,
            const GmAllocations& gm, bool sized_only, LaunchScheduler* scheduler, CoreReport& report, GmLog& gm_log,
            const WatchdogLimits& limits, CoreBeat& beat, ClusterRaces* cluster_races, MemorySystem* memory)
      : start_(start), state_(state), report_(report), gm_log_(gm_log), beat_(beat) {
    executor_ = concurrent ? concurrent->make_executor(core, cfg.target, cfg.queue_depth) : nullptr;
    const CoreLayout& layout = scheduler->layout();
    CoreOptions o;
    o.block_idx = layout.block(core);
    o.block_num = cfg.blocks;
    o.core = core;
    o.kind = layout.kind(core);
    o.subblock = layout.subblock(core);
    o.clusters = layout.clusters;
    o.dispatched = scheduler->dispatched(core);
    o.target = cfg.target;
    o.mode = cfg.mode;
    o.queue_depth = cfg.queue_depth;
    o.executor = executor_.get();
    o.model_only = cfg.model_only;
    o.timeline = cfg.timeline;
    o.costs = cfg.costs;
    o.cpu_reference = cfg.cpu_reference;
    o.gm = gm.empty() ? nullptr : &gm;
    o.gm_sized_only = sized_only;
    o.scheduler = scheduler;
    o.print = cfg.print;
    o.max_instructions = limits.max_instructions;
    o.max_cycles = limits.max_cycles;
    o.fill = std::uint8_t(cfg.fill);  // resolved by launch_impl
    o.beat = &beat;
    o.cluster_races = cluster_races;
    o.memory = memory;
    core_ = std::make_unique<Core>(o);
    tools_ = std::make_unique<CoreTools>(*core_, cfg.check, cfg.timeline);  // check: resolved by launch_impl
    for (Observer* obs : cfg.observers) core_->attach(obs);
  }
  ~BlockTask() override {
    if (h_) {  // never finished (the launch itself failed): the host executors stop before the frame goes
      core_->abandon();
      h_.destroy();
    }
  }

  std::uint64_t modeled_end() const override { return report_.cycles; }

  bool run() override {
    CurrentCoreGuard guard(core_.get());
    struct Ended {  // the host watchdog counts a core that ended, however it ended
      CoreBeat& b;
      bool armed = true;
      ~Ended() {
        if (armed) b.state.store(CoreBeat::Ended, std::memory_order_relaxed);
      }
    } ended{beat_};
    if (beat_.state.load(std::memory_order_relaxed) == CoreBeat::NotStarted)
      beat_.state.store(CoreBeat::Running, std::memory_order_relaxed);
    try {
      if (!started_) {
        started_ = true;
        h_ = start_(state_, args_);  // a plain kernel runs to its end here
      }
      if (h_) {
        struct Destroy {
          Kernel::Handle& h;
          Core& core;
          bool armed = true;
          int unwinding = std::uncaught_exceptions();  // a launch may itself run during an unwind
          ~Destroy() {
            if (!armed) return;
            if (std::uncaught_exceptions() > unwinding) core.abandon();  // host executors stop before the frame goes
            std::exchange(h, {}).destroy();
          }
        } destroy{h_, *core_};
        if (!core_->drive(h_)) {  // waits at a SYNCALL: run again once released
          destroy.armed = false;
          ended.armed = false;
          return false;
        }
      }
      core_->finish();
    } catch (...) {
      core_->abandon();  // the executor's work ends before the core's UB goes away
      throw;
    }
    report_ = tools_->report();
    report_.core = core_->options().core;
    report_.block = core_->options().block_idx;
    report_.kind = core_->options().kind;
    report_.subblock = core_->options().subblock;
    report_.dispatched = core_->options().dispatched;
    gm_log_ = tools_->take_gm_log();
    return true;
  }

private:
  KernelStart start_;
  const void* state_;
  CoreReport& report_;
  GmLog& gm_log_;
  CoreBeat& beat_;
  std::unique_ptr<FunctionalExecutor> executor_;  // before the core: destroyed after it
  std::unique_ptr<Core> core_;
  std::unique_ptr<CoreTools> tools_;  // observe core_ (destroyed first)
  std::shared_ptr<void> args_;  // declared before the frame's owner: the frame may refer to the arguments
  Kernel::Handle h_{};
  bool started_ = false;
};

std::exception_ptr with_core(const std::string& label, std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const SyncError& err) {
    return std::make_exception_ptr(SyncError(label + ": " + err.what(), err.findings()));
  } catch (const Error& err) {
    return std::make_exception_ptr(Error(label + ": " + err.what()));
  } catch (...) {
    return e;
  }
}
// A what-if table must price every instruction with a finite, non-negative number of cycles; the paths
// the target's default table has must keep a positive bandwidth (0 means "no such path").
void check_cost_table(const CostTable& t, Target target) {
  const CostTable& base = default_cost_table(target);
  bool positive = t.clock_ghz > 0 && t.gm_aggregate_bytes_per_cycle >= 0 && t.load_ports > 0 && t.store_ports > 0;
  for (int s = 0; s < kNumMemories; ++s)
    for (int d = 0; d < kNumMemories; ++d)
      if (base.transfer(Memory(s), Memory(d)).bytes_per_cycle > 0 && !(t.transfer(Memory(s), Memory(d)).bytes_per_cycle > 0))
        positive = false;
  if (!positive)
    fail("pto::launch: cost table '", t.name, "': clock, bandwidths and port counts must be positive "
         "(gm_aggregate_bytes_per_cycle may be 0 = unlimited)");
  for (int s = 0; s < kNumMemories; ++s)
    for (int d = 0; d < kNumMemories; ++d) {
      const DmaCost& path = t.transfer(Memory(s), Memory(d));
      if (!(path.setup_cycles >= 0) || !std::isfinite(path.setup_cycles) || !std::isfinite(path.bytes_per_cycle) ||
          path.bytes_per_cycle < 0)
        fail("pto::launch: cost table '", t.name, "': transfer ", memory_name(Memory(s)), " -> ", memory_name(Memory(d)),
             " setup_cycles ", path.setup_cycles, " and bytes_per_cycle ", path.bytes_per_cycle,
             " must be finite and >= 0");
    }
  for (double v : {t.mad_setup_cycles, t.mad_cycles_per_block[0], t.mad_cycles_per_block[1], t.mad_cycles_per_block[2]})
    if (!(v >= 0) || !std::isfinite(v))
      fail("pto::launch: cost table '", t.name, "': mad_setup_cycles and mad_cycles_per_block must be finite numbers >= 0 "
           "(found ", v, ")");
  if (t.memory_system && (!(t.hbm_gb_per_s > 0) || !std::isfinite(t.hbm_gb_per_s) || t.l2_line_bytes == 0))
    fail("pto::launch: cost table '", t.name, "': the memory system needs hbm_gb_per_s > 0 (found ", t.hbm_gb_per_s,
         ") and l2_line_bytes > 0 (found ", t.l2_line_bytes, "; l2_bytes 0 is no L2)");
  if (t.cube_cores < 0 || t.vector_cores < 0)
    fail("pto::launch: cost table '", t.name, "': cube_cores and vector_cores must be >= 0 (0: no limit; found ",
         t.cube_cores, " and ", t.vector_cores, ")");
  for (int i = 0; i < kNumIntrinsics; ++i)
    if (!(t.intrinsic[std::size_t(i)].per_repeat >= 0) || !std::isfinite(t.intrinsic[std::size_t(i)].per_repeat))
      fail("pto::launch: cost table '", t.name, "': ", intrinsic_name(Intrinsic(i)), " per_repeat ",
           t.intrinsic[std::size_t(i)].per_repeat, " must be a finite number >= 0");
}

// The chip runs a launch's blocks on its cores. A cluster launch's blocks beyond its AI cores already ran
// in waves (LaunchScheduler: block b on block b - cube_cores's core, from its end). Any other launch ran
// every block at once; its timing is dispatched here: on the cube cores if a block used the cube's pipes,
// else on the vector cores, each block beyond them when the first core frees up, in block order (the
// chip's dispatcher). Each block keeps its own modeled cycles; the launch's are the latest dispatch plus
// cycles.
void dispatch_in_waves(LaunchReport& r, const CoreLayout& layout, const CostTable& t) {
  if (layout.clusters) {
    r.chip_cores = t.cube_cores;
    r.waves = t.cube_cores > 0 ? (layout.blocks + t.cube_cores - 1) / t.cube_cores : 1;
    for (const CoreReport& c : r.cores) r.cycles = std::max(r.cycles, c.dispatched + c.cycles);
    return;
  }
  bool cube = false;
  for (const CoreReport& c : r.cores)
    for (int p : {int(PIPE_M), int(PIPE_MTE1), int(PIPE_FIX)}) cube = cube || c.pipes[std::size_t(p)].instructions > 0;
  r.chip_cores = cube ? t.cube_cores : t.vector_cores;
  std::priority_queue<std::pair<std::uint64_t, int>, std::vector<std::pair<std::uint64_t, int>>, std::greater<>> free;
  std::vector<int> ran(std::size_t(std::max(r.chip_cores, 1)), 0);
  for (std::size_t b = 0; b < r.cores.size(); ++b) {
    CoreReport& c = r.cores[b];
    int slot = int(b);
    if (r.chip_cores > 0 && int(b) >= r.chip_cores) {
      std::tie(c.dispatched, slot) = free.top();
      free.pop();
    }
    if (r.chip_cores > 0) {
      free.emplace(c.dispatched + c.cycles, slot);
      r.waves = std::max(r.waves, ++ran[std::size_t(slot)]);
    }
    r.cycles = std::max(r.cycles, c.dispatched + c.cycles);
  }
}
}  // namespace

LaunchReport launch_impl(const LaunchConfig& config, KernelStart start, KernelStart cube_start, const void* state,
                         std::vector<GmAllocation> allocations, bool sized_only, bool coroutine) {
  // Raw pointer arguments come as unsized entries (their address only): the memory system's, not the
  // bounds checks'.
  std::vector<GmAllocation> raw_args;
  std::erase_if(allocations, [&](const GmAllocation& a) {
    const bool raw = a.elem_bytes == 0;
    if (raw) raw_args.push_back(a);
    return raw;
  });
  const GmAllocations gm(std::move(allocations));
  LaunchConfig cfg = config;
  cfg.check = resolve_check(cfg.check);
  cfg.fill = resolve_fill(cfg.fill);
  if (cfg.blocks < 1) fail("pto::launch: blocks = ", cfg.blocks, "; a launch needs at least one core");
  if (cfg.blocks > kMaxBlocks)
    fail("pto::launch: blocks = ", cfg.blocks, " exceeds the ", kMaxBlocks, " cores a launch may have (kMaxBlocks)");
  if (int(cfg.target) >= kNumTargets) fail("pto::launch: target = ", int(cfg.target), " is not a pto::Target (A2A3 or A5)");
  if (cfg.mode != Mode::Manual && cfg.mode != Mode::Auto)
    fail("pto::launch: mode = ", int(cfg.mode), " is not a pto::Mode (Manual or Auto)");
  if (cfg.policy != Policy::Deterministic && cfg.policy != Policy::Concurrent)
    fail("pto::launch: policy = ", int(cfg.policy), " is not a pto::Policy (Deterministic or Concurrent)");
  if (int(cfg.check) > int(SyncCheck::Throw))
    fail("pto::launch: check = ", int(cfg.check), " is not a pto::SyncCheck (Default, Off, Report or Throw)");
  if (cfg.queue_depth < 1) fail("pto::launch: queue_depth ", cfg.queue_depth, " must be at least 1");
  if (cfg.costs && cfg.costs->machine != default_cost_table(cfg.target).machine)
    fail("pto::launch: cost table '", cfg.costs->name, "' describes the ",
         cfg.costs->machine == VectorMachine::Register ? "A5 register" : "A2A3 repeat", " vector machine, but target ",
         name_of(cfg.target), " has the other one; start from default_cost_table(target)");
  if (cfg.costs) check_cost_table(*cfg.costs, cfg.target);
  if (cfg.host_threads < 0 || cfg.host_threads > kMaxHostThreads)
    fail("pto::launch: host_threads = ", cfg.host_threads, " must be in [0, ", kMaxHostThreads, "] (0 = all hardware threads)");
  for (std::size_t i = 0; i < cfg.observers.size(); ++i)
    if (!cfg.observers[i]) fail("pto::launch: observers[", i, "] is null");
  const auto t0 = std::chrono::steady_clock::now();
  const CoreLayout layout{cfg.blocks, cube_start != nullptr};
  const int cores = layout.cores();
  if (cores > kMaxBlocks)
    fail("pto::launch_mix: blocks = ", cfg.blocks, " clusters are ", cores, " cores, more than the ", kMaxBlocks,
         " a launch may have (kMaxBlocks)");
  const LaunchView view{cores, cfg.target, cfg.mode, cfg.policy, cfg.model_only};
  for (Observer* o : cfg.observers) o->on_launch(view);
  // A mixed kernel's own globals and statics are one copy per core (kernel_statics.hpp): its cores then
  // run on one host thread, each with its copy swapped in.
  const bool statics = layout.clusters && KernelStatics::present();
  const int host_threads = statics ? 1
                           : cfg.host_threads ? cfg.host_threads
                                              : int(std::max(1u, std::thread::hardware_concurrency()));
  // host_threads is what the launch runs at once: threads that drive the cores' kernels and models (one
  // per core, at most host_threads), and under the concurrent policy the rest (at least one) run the
  // pipes. More busy threads than host cores only trade places: on two cores, one kernel thread and
  // two pipe threads streamed at 39-50% of a triad, one and one at 55%.
  // The memory system prices every GM transfer after the other cores' earlier ones: the cores run in
  // modeled-time step on one host thread (memory_system.hpp); the concurrent policy's pipe threads stay.
  const CostTable& costs = cfg.costs ? *cfg.costs : default_cost_table(cfg.target);
  const bool lockstep = MemorySystem::can_contend(costs, cores);
  const int threads = lockstep ? 1 : std::min(host_threads, cores);
  // A pipe thread serves one of three lanes (loads, compute, stores) of some cores: more than 3 per
  // core would sit idle, so a launch never starts them.
  const int pipe_threads = std::clamp(host_threads - threads, 1, 3 * cores);

  // oneTBB work inside an instruction (a CPU kernel's parallel_for over a large tile) runs in the
  // launch's own arena, so the launch never runs more than host_threads threads at once. Every thread
  // the launch starts holds a slot reserved for it (an external thread finding the arena full would hand
  // its long-running loop to another thread); oneTBB workers fill the rest.
  const bool concurrent_pipes = cfg.policy == Policy::Concurrent && !cfg.model_only;
  const int own_threads = threads + (concurrent_pipes ? pipe_threads : 0);
  tbb::task_arena arena(std::max(host_threads, own_threads), unsigned(own_threads));
  std::unique_ptr<ConcurrentPolicy> concurrent;
  if (concurrent_pipes) concurrent = std::make_unique<ConcurrentPolicy>(pipe_threads, &arena);

  const WatchdogLimits limits = resolve_watchdog(cfg.max_instructions, cfg.max_cycles, cfg.watchdog_seconds);
  std::vector<CoreReport> reports(static_cast<std::size_t>(cores));
  LaunchReport::Memory memory_stats;
  std::vector<GmLog> gm_logs(static_cast<std::size_t>(cores));
  {
    HostWatchdog watchdog(cores, limits.seconds);
    const CostTable& table = cfg.costs ? *cfg.costs : default_cost_table(cfg.target);
    LaunchScheduler scheduler(layout, threads, coroutine, &arena, table.cube_cores, lockstep);
    std::unique_ptr<MemorySystem> memory = lockstep ? std::make_unique<MemorySystem>(table, gm, raw_args) : nullptr;
    // The program has one copy of the kernels' statics: launches that swap it run one at a time.
    static std::mutex statics_in_use;
    std::unique_lock<std::mutex> statics_lock(statics_in_use, std::defer_lock);
    std::unique_ptr<KernelStatics> per_core;
    if (statics) {
      statics_lock.lock();
      per_core = std::make_unique<KernelStatics>(cores);
      scheduler.set_core_switch([&](int core, bool in) { in ? per_core->enter(core) : per_core->leave(core); });
    }
    // The checker across each cluster's three cores (the cross-core flags order their GM).
    std::vector<std::unique_ptr<ClusterRaces>> cluster_races;
    if (layout.clusters && cfg.check != SyncCheck::Off)
      for (int b = 0; b < cfg.blocks; ++b)
        cluster_races.push_back(
            std::make_unique<ClusterRaces>(layout, layout.aic(b), gm.empty() ? nullptr : &gm, cfg.check == SyncCheck::Throw));
    scheduler.run([&](int c) {
      // A cluster's AIC runs the cube compilation of the kernel, its AIVs the vector one.
      const KernelStart s = layout.kind(c) == CoreKind::Cube ? cube_start : start;
      ClusterRaces* races = cluster_races.empty() ? nullptr : cluster_races[std::size_t(layout.block(c))].get();
      return std::make_unique<BlockTask>(cfg, c, s, state, concurrent.get(), gm, sized_only, &scheduler,
                                         reports[std::size_t(c)], gm_logs[std::size_t(c)], limits, watchdog.core(c), races,
                                         memory.get());
    });
    if (memory) {
      const MemorySystem::Stats& m = memory->stats();
      memory_stats = {true, m.read_bytes, m.written_bytes, m.l2_hit_bytes, m.hbm_bytes, m.transfers, m.shared_transfers};
    }
    // The first error of the lowest core, except that a core left waiting by another core's failure
    // reports that failure's error, not its own.
    for (bool secondary : {false, true})
      for (int c = 0; c < cores; ++c)
        if (scheduler.error(c) && scheduler.secondary(c) == secondary)
          std::rethrow_exception(with_core(layout.label(c), scheduler.error(c)));
    scheduler.check_flag_counters();
    for (auto& c : cluster_races) {  // each race to the core of its later access
      for (SyncFinding& f : c->take()) reports[std::size_t(f.core)].sync.push_back(std::move(f));
      reports[std::size_t(c->first_core())].sync_suppressed += c->suppressed();
    }
  }

  if (cfg.check != SyncCheck::Off) {
    std::vector<std::vector<SyncFinding>*> out;
    for (auto& c : reports) out.push_back(&c.sync);
    const int chip_cores = (cfg.costs ? *cfg.costs : default_cost_table(cfg.target)).cube_cores;
    cross_core_races(gm_logs, gm, out, cfg.check == SyncCheck::Throw, layout, chip_cores);
    gm_logs = {};
  }

  LaunchReport r;
  r.target = cfg.target;
  r.mode = cfg.mode;
  r.policy = cfg.policy;
  r.timeline = cfg.timeline;
  r.hbm_gb_per_s = (cfg.costs ? *cfg.costs : default_cost_table(cfg.target)).hbm_gb_per_s;
  r.clock_ghz = (cfg.costs ? *cfg.costs : default_cost_table(cfg.target)).clock_ghz;
  r.cores = std::move(reports);
  r.memory = memory_stats;
  dispatch_in_waves(r, layout, cfg.costs ? *cfg.costs : default_cost_table(cfg.target));
  r.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (cfg.check == SyncCheck::Default) notice_findings(r);
  for (Observer* o : cfg.observers) o->on_launch_end(r);
  return r;
}

}  // namespace pto::detail
