#include "core_scheduler.hpp"

#include <algorithm>
#include <memory>
#include <sstream>
#include <thread>
#include <utility>

#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>

#include <pto/isa/error.hpp>

#include "core.hpp"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define PTO_ASAN_FIBERS 1
#endif

namespace pto::detail {

namespace bctx = boost::context;

// One flag counter of a core: the signals not yet waited for, and for the 4-bit check once the launch has
// run, when each signal arrived and when each wait took one (both in modeled time).
struct LaunchScheduler::FlagCounter {
  std::deque<Signal> pending;
  std::vector<std::uint64_t> sets, takes;
  std::pair<int, int> source{-1, -1};  // (mode, first setting core) of its first signal
  int setter = -1;
};

struct LaunchScheduler::Slot {
  int core = 0;
  int home = -1;  // the worker (host thread) that started it and resumes it
  enum class State : std::uint8_t { NotStarted, Running, Waiting, Released, Ended } state = State::NotStarted;
  // How it waits: by returning from run (a coroutine kernel), on its fiber, or blocking its thread. The
  // first two are resumed by their worker once released.
  enum class Wait : std::uint8_t { Yield, Fiber, Block } wait = Wait::Yield;
  // What it waits for: a barrier of its group, or its flag `flag`.
  enum class On : std::uint8_t { Barrier, Flag, Turn } on = On::Barrier;
  BarrierGroup group = BarrierGroup::Vector;
  int flag = 0, flag2 = -1;       // the flag(s) it waits for (A5's AIC waits for id and id + 16 at once)
  std::string what;               // the flag wait, as the core names it (a deadlock message)
  std::unique_ptr<CoreTask> task;
  bool on_fiber = false;
  bctx::fiber fiber;              // the core's context while it is switched out
  bctx::fiber back;               // its worker's context while the core runs on its fiber
  bctx::stack_context stack{};    // the fiber's stack
  std::exception_ptr error;       // what run() threw
  bool failed = false, secondary = false;
  std::uint64_t release = 0;      // the modeled cycle its current wait ended at
  SignalOrigin from;              // ... and the signal that ended it
  std::vector<SignalOrigin> sources;  // ... every set it took
  std::string abort;              // non-empty: the wait will never end (the deadlock error)
  bool abort_secondary = false;   // ... because another core failed
  int barriers = 0;               // SYNCALLs passed
  std::uint64_t end = 0;          // the modeled cycle it ended at
  std::uint64_t dispatched = 0;   // the modeled cycle its block started at (waves)
  std::uint64_t arrival = 0;      // the modeled cycle its current flag wait was issued at
  // Its flag counters, by id (made on the first signal).
  std::unique_ptr<std::array<FlagCounter, kCrossFlagIds>> flags;
#ifdef PTO_ASAN_FIBERS
  void* fake = nullptr;           // the fiber's fake stack while it is switched out
  const void* host_bottom = nullptr;  // its worker's stack
  std::size_t host_size = 0;
#endif
};

struct LaunchScheduler::Worker {
  std::deque<Slot*> ready;  // its suspended cores that a barrier released, to resume
  std::condition_variable cv;
  int live = 0;  // its cores started and not ended
};

// Fiber stacks: 8 MiB like a host thread's default, a guard page below, reused across the launch's cores
// (mapping one costs tens of microseconds; most launches need at most one per host thread).
struct LaunchScheduler::StackPool {
  static constexpr std::size_t kSize = std::size_t(8) << 20;
  std::mutex m;
  std::vector<bctx::stack_context> free;
  bctx::protected_fixedsize_stack alloc{kSize};
  ~StackPool() {
    for (auto& s : free) alloc.deallocate(s);
  }
  bctx::stack_context get() {
    {
      std::lock_guard lock(m);
      if (!free.empty()) {
        bctx::stack_context s = free.back();
        free.pop_back();
#ifdef PTO_ASAN_FIBERS
        // A finished fiber's last frames never returned: forget their redzones before the stack is reused.
        const std::size_t page = bctx::stack_traits::page_size();
        __asan_unpoison_memory_region(static_cast<char*>(s.sp) - s.size + page, s.size - page);
#endif
        return s;
      }
    }
    return alloc.allocate();
  }
  void put(const bctx::stack_context& s) noexcept {
    try {
      std::lock_guard lock(m);
      free.push_back(s);
    } catch (...) {
      bctx::stack_context copy = s;
      alloc.deallocate(copy);
    }
  }
};

namespace {
// Boost.Context's stack allocator concept over the pool; it tells the slot which stack its fiber has.
struct PooledStack {
  LaunchScheduler::StackPool* pool;
  LaunchScheduler::Slot* slot;
  bctx::stack_context allocate();
  void deallocate(bctx::stack_context& s) noexcept { pool->put(s); }
};

// "cores 0-2, 5" / "core 3"; in a cluster launch "cluster 0 AIV0, cluster 2 AIC"
std::string core_list(std::vector<int> v, const CoreLayout& layout) {
  std::sort(v.begin(), v.end());
  std::ostringstream os;
  if (layout.clusters) {
    for (std::size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << layout.label(v[i]);
    return os.str();
  }
  os << (v.size() == 1 ? "core " : "cores ");
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    os << (i ? ", " : "") << v[i];
    if (j > i) os << (j == i + 1 ? ", " : "-") << v[j];
    i = j + 1;
  }
  return os.str();
}

const char* group_name(BarrierGroup g, bool clusters) {
  if (!clusters) return "";
  return g == BarrierGroup::Vector ? "<AIVOnly>" : g == BarrierGroup::Cube ? "<AICOnly>" : "<Mix>";
}
}  // namespace

bctx::stack_context PooledStack::allocate() {
  slot->stack = pool->get();
  return slot->stack;
}

LaunchScheduler::LaunchScheduler(CoreLayout layout, int threads, bool coroutines, tbb::task_arena* arena, int chip_cores,
                                 bool lockstep)
    : layout_(layout), cores_(layout.cores()), threads_(lockstep ? 1 : threads), chip_cores_(layout.clusters ? chip_cores : 0),
      coroutines_(coroutines), fibers_(lockstep || (!coroutines && layout.cores() > threads)), arena_(arena),
      stacks_(std::make_unique<StackPool>()) {
  for (int c = 0; c < cores_; ++c) {
    slots_.push_back(std::make_unique<Slot>());
    slots_.back()->core = c;
  }
  for (int w = 0; w < threads; ++w) workers_.push_back(std::make_unique<Worker>());
  if (layout.clusters) {
    barriers_[int(BarrierGroup::Vector)].members = 2 * layout.blocks;
    barriers_[int(BarrierGroup::Cube)].members = layout.blocks;
  } else {
    barriers_[int(BarrierGroup::Vector)].members = cores_;
  }
  barriers_[int(BarrierGroup::All)].members = cores_;
}

LaunchScheduler::~LaunchScheduler() = default;

void LaunchScheduler::run(const std::function<std::unique_ptr<CoreTask>(int)>& make) {
  auto work = [this, &make](int w) {
    if (arena_) arena_->execute([&] { worker(w, make); });
    else worker(w, make);
  };
  if (threads_ == 1) {
    work(0);
    return;
  }
  std::vector<std::thread> pool;
  for (int w = 0; w < threads_; ++w) pool.emplace_back(work, w);
  for (auto& t : pool) t.join();
}

std::exception_ptr LaunchScheduler::error(int core) const { return slots_[std::size_t(core)]->error; }
bool LaunchScheduler::secondary(int core) const { return slots_[std::size_t(core)]->secondary; }

// A host thread: resume its released cores first, else start the next core, else wait for one of its
// suspended cores to be released; done when it has none left and every core has started.
void LaunchScheduler::worker(int w, const std::function<std::unique_ptr<CoreTask>(int)>& make) {
  Worker& me = *workers_[std::size_t(w)];
  for (;;) {
    Slot* s = nullptr;
    bool fresh = false;
    {
      std::unique_lock lock(m_);
      for (;;) {
        if (!me.ready.empty()) {
          s = me.ready.front();
          me.ready.pop_front();
          s->state = Slot::State::Running;
          break;
        }
        if (next_ < cores_ && startable(next_)) {
          s = slots_[std::size_t(next_++)].get();
          s->home = w;
          s->state = Slot::State::Running;
          s->on_fiber = fibers_;
          ++running_;
          ++me.live;
          fresh = true;
          break;
        }
        if (!turns_.empty()) {  // nothing else can run: the earliest transfer waiting for its turn goes
          s = slots_[std::size_t(turns_.begin()->second)].get();
          turns_.erase(turns_.begin());
          s->state = Slot::State::Running;
          ++running_;
          break;
        }
        if (me.live == 0 && next_ >= cores_) return;
        me.cv.wait(lock);
      }
    }
    execute(*s, fresh, make);
  }
}

void LaunchScheduler::execute(Slot& s, bool fresh, const std::function<std::unique_ptr<CoreTask>(int)>& make) {
  std::exception_ptr error;
  bool done = false;
  if (switch_) switch_(s.core, true);
  try {
    if (fresh) {
      s.task = make(s.core);
      if (s.on_fiber)
        s.fiber = bctx::fiber(std::allocator_arg, PooledStack{stacks_.get(), &s}, [&s](bctx::fiber&& back) {
          s.back = std::move(back);
#ifdef PTO_ASAN_FIBERS
          __sanitizer_finish_switch_fiber(nullptr, &s.host_bottom, &s.host_size);
#endif
          try {
            s.task->run();  // a plain kernel runs to its end (it waits in place)
          } catch (...) {
            s.error = std::current_exception();
          }
#ifdef PTO_ASAN_FIBERS
          __sanitizer_start_switch_fiber(nullptr, s.host_bottom, s.host_size);  // this fiber ends
#endif
          return std::move(s.back);
        });
    }
    if (s.on_fiber) {
      Core* outer = exchange_current_core(nullptr);
#ifdef PTO_ASAN_FIBERS
      void* fake = nullptr;
      __sanitizer_start_switch_fiber(&fake, static_cast<char*>(s.stack.sp) - s.stack.size, s.stack.size);
#endif
      s.fiber = std::move(s.fiber).resume();
#ifdef PTO_ASAN_FIBERS
      __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
      exchange_current_core(outer);
      done = !s.fiber;  // its function returned
      error = s.error;
    } else {
      done = s.task->run();
    }
  } catch (...) {
    error = std::current_exception();
    done = true;
  }
  if (switch_) switch_(s.core, false);
  if (!done) return;  // it waits at a barrier: its release puts it in this worker's ready queue
  if (!error) s.end = s.task->modeled_end();
  s.task.reset();     // the core's memory goes now, on the thread that made it
  std::lock_guard lock(m_);
  finished(s, error);
}

void LaunchScheduler::finished(Slot& s, std::exception_ptr e) {
  s.state = Slot::State::Ended;
  s.error = e;
  s.failed = e != nullptr;
  s.secondary = s.failed && !s.abort.empty() && s.abort_secondary;
  --running_;
  --workers_[std::size_t(s.home)]->live;
  if (chip_cores_ > 0) wake_all();  // a block of the next wave may start now
  check_deadlock();
}

void LaunchScheduler::wake_all() {
  for (auto& w : workers_) w->cv.notify_one();
}

// Cluster launches with more blocks than the chip has AI cores: block b runs on the core block
// b - chip_cores ran on, once all three of its cores ended, from the latest of their modeled ends (the chip
// hands a block to the first free core; for blocks of equal length that is this one).
bool LaunchScheduler::startable(int core) {
  const int b = layout_.block(core);
  if (chip_cores_ <= 0 || b < chip_cores_) return true;
  const int before = b - chip_cores_;
  std::uint64_t at = 0;
  for (int c : {layout_.aic(before), layout_.aiv(before, 0), layout_.aiv(before, 1)}) {
    const Slot& p = *slots_[std::size_t(c)];
    if (p.state != Slot::State::Ended) return false;
    at = std::max(at, p.dispatched + p.end);
  }
  slots_[std::size_t(core)]->dispatched = at;
  return true;
}

int LaunchScheduler::await_turn(int core, std::uint64_t at) {
  const std::pair<std::uint64_t, int> mine{at, core};
  {
    std::unique_lock lock(m_);
    Slot& s = *slots_[std::size_t(core)];
    const bool others_run = !workers_[std::size_t(s.home)]->ready.empty() || (next_ < cores_ && startable(next_));
    if (others_run || (!turns_.empty() && *turns_.begin() < mine)) {
      turns_.insert(mine);
      s.on = Slot::On::Turn;
      suspend(s, true);
      lock.unlock();
      wait(core);  // the worker resumes it once it is the earliest (and erases its turn)
    }
  }
  std::lock_guard lock(m_);
  int same = 0;
  for (auto it = turns_.lower_bound({at, -1}); it != turns_.end() && it->first == at; ++it) ++same;
  return same;
}

std::uint64_t LaunchScheduler::dispatched(int core) const {
  std::lock_guard lock(m_);
  return slots_[std::size_t(core)]->dispatched;
}

void LaunchScheduler::suspend(Slot& s, bool in_place) {
  s.state = Slot::State::Waiting;
  s.wait = !in_place ? Slot::Wait::Yield : s.on_fiber ? Slot::Wait::Fiber : Slot::Wait::Block;
  --running_;
  check_deadlock();
}

void LaunchScheduler::release(Slot& w, std::uint64_t at) {
  w.state = Slot::State::Released;
  w.release = at;
  ++running_;
  Worker& home = *workers_[std::size_t(w.home)];
  if (w.wait != Slot::Wait::Block) home.ready.push_back(&w);
  home.cv.notify_all();
}

bool LaunchScheduler::arrive(int core, BarrierGroup group, std::uint64_t arrival, std::uint64_t cost, bool in_place,
                             std::uint64_t seq) {
  std::lock_guard lock(m_);
  Slot& s = *slots_[std::size_t(core)];
  Barrier& b = barriers_[std::size_t(group)];
  ++b.arrived;
  // The wait is attributed to the latest arrival; of cores arriving at the same modeled cycle, to the
  // lowest-numbered, so the report does not depend on which host thread got here first.
  if (b.arrived == 1 || arrival > b.latest || (arrival == b.latest && core < b.last.core))
    b.last = {core, seq, "SYNCALL"};
  b.latest = std::max(b.latest, arrival);
  if (b.arrived == b.members) {  // the last one: every member goes on at the same modeled cycle
    const std::uint64_t at = b.latest + cost;
    const SignalOrigin last = b.last;
    b.arrived = 0;
    b.latest = 0;
    ++b.released;
    s.release = at;
    s.from = last.core == core ? SignalOrigin{} : last;
    s.sources.clear();
    s.abort.clear();
    ++s.barriers;
    for (auto& w : slots_)
      if (w->state == Slot::State::Waiting && w->on == Slot::On::Barrier && w->group == group) {
        ++w->barriers;
        w->abort.clear();
        w->from = last.core == w->core ? SignalOrigin{} : last;
        w->sources.clear();
        release(*w, at);
      }
    return true;
  }
  s.on = Slot::On::Barrier;
  s.group = group;
  suspend(s, in_place);
  return false;
}

// Takes one signal of each flag the slot waits for, if all are there: their latest time.
bool LaunchScheduler::take(Slot& s, int id, int id2, std::uint64_t& at) {
  if (!s.flags) return false;
  FlagCounter& c1 = (*s.flags)[std::size_t(id)];
  if (c1.pending.empty() || (id2 >= 0 && (*s.flags)[std::size_t(id2)].pending.empty())) return false;
  s.sources.clear();
  auto took = [&s](const Signal& sig) {
    if (sig.members.empty()) s.sources.push_back(sig.from);
    else s.sources.insert(s.sources.end(), sig.members.begin(), sig.members.end());
  };
  at = c1.pending.front().at;
  s.from = c1.pending.front().from;
  took(c1.pending.front());
  c1.pending.pop_front();
  if (id2 >= 0) {
    FlagCounter& c2 = (*s.flags)[std::size_t(id2)];
    if (c2.pending.front().at > at) s.from = c2.pending.front().from;
    at = std::max(at, c2.pending.front().at);
    took(c2.pending.front());
    c2.pending.pop_front();
    c2.takes.push_back(std::max(at, s.arrival));
  }
  c1.takes.push_back(std::max(at, s.arrival));
  return true;
}

// `source`: (mode, first core of the set's members). One counter fed by two sources would hand its waits
// signals in the order the host ran the setters, which modeled time does not fix: an error.
void LaunchScheduler::deliver(int core, int id, Signal sig, std::pair<int, int> source) {
  const std::uint64_t at = sig.at;
  const int setter = source.second;
  Slot& t = *slots_[std::size_t(core)];
  if (!t.flags) t.flags = std::make_unique<std::array<FlagCounter, kCrossFlagIds>>();
  FlagCounter& c = (*t.flags)[std::size_t(id)];
  if (c.setter < 0) {
    c.source = source;
    c.setter = setter;
  } else if (c.source != source) {
    const int a = std::min(c.setter, setter), b = std::max(c.setter, setter);
    fail("cross-core flag ", id, " of ", layout_.label(core), " is set by ", layout_.label(a), " and by ",
         layout_.label(b), a == b ? " in two modes" : "",
         ": its waits would take their signals in the order the host ran the two, which the chip's timing decides; "
         "give each producer a flag id of its own");
  }
  c.pending.push_back(sig);
  c.sets.push_back(at);
  std::uint64_t when = 0;
  if (t.state == Slot::State::Waiting && t.on == Slot::On::Flag && (t.flag == id || t.flag2 == id) &&
      take(t, t.flag, t.flag2, when)) {
    t.abort.clear();
    release(t, when > t.dispatched ? when - t.dispatched : 0);  // back on the core's own clock
  }
}

// The chip's counters have 4 bits: in modeled time, no counter may hold more than 15 signals not yet
// waited for. Checked once every core has run, so the verdict does not depend on the host's order.
void LaunchScheduler::check_flag_counters() const {
  for (const auto& slot : slots_) {
    if (!slot->flags) continue;
    for (int id = 0; id < kCrossFlagIds; ++id) {
      FlagCounter c = (*slot->flags)[std::size_t(id)];
      std::sort(c.sets.begin(), c.sets.end());
      std::sort(c.takes.begin(), c.takes.end());
      std::size_t taken = 0;
      for (std::size_t k = 0; k < c.sets.size(); ++k) {
        while (taken < c.takes.size() && c.takes[taken] <= c.sets[k]) ++taken;  // a wait ending as a set arrives
        const std::size_t pending = k + 1 > taken ? k + 1 - taken : 0;
        if (pending > std::size_t(kFftsCounterMax))
          fail("cross-core flag ", id, " of ", layout_.label(slot->core), " counts ", pending,
               " signals not yet waited for at modeled cycle ", c.sets[k], " (set by ", layout_.label(c.setter),
               "): the chip's flag counters have 4 bits, so a core may be ", kFftsCounterMax,
               " sets ahead of the waits at most; wait for the flag (wait_flag_dev / TPOP / TALLOC) before setting "
               "it again");
      }
    }
  }
}

void LaunchScheduler::flag_set(int core, int mode, int id, std::uint64_t at, SignalOrigin from) {
  std::lock_guard lock(m_);
  at += slots_[std::size_t(core)]->dispatched;  // signals are kept on the launch's clock (waves)
  const CoreLayout& L = layout_;
  const CoreKind kind = L.kind(core);
  if (mode == kCrossIntra) {  // A5: one core of the cluster; the AIC tells its AIVs apart by id + 16
    if (!L.clusters)
      fail("set_intra_block: a flag between the cube and vector cores of a cluster; this launch has no clusters "
           "(launch the kernel with pto::launch_mix)");
    const int b = L.block(core);
    if (kind == CoreKind::Cube) deliver(L.aiv(b, id >= 16), id % 16, {at, from, {}}, {mode, core});
    else deliver(L.aic(b), id + 16 * L.subblock(core), {at, from, {}}, {mode, core});
    return;
  }
  // The cores that must all set before the signal goes out, and the cores it reaches.
  std::vector<int> members, targets;
  if (mode == kCrossCluster) {
    if (!L.clusters)
      fail("ffts_cross_core_sync: mode 2 syncs a cube core (AIC) with its two vector cores (AIV); this launch has "
           "no clusters (launch the kernel with pto::launch_mix), use mode 0 for all cores of the launch");
    const int b = L.block(core);
    if (kind == CoreKind::Cube) {
      members = {core};
      targets = {L.aiv(b, 0), L.aiv(b, 1)};
    } else {
      members = {L.aiv(b, 0), L.aiv(b, 1)};
      targets = {L.aic(b)};
    }
  } else if (mode == kCrossAllCores) {
    for (int c = 0; c < cores_; ++c)
      if (L.kind(c) == kind) members.push_back(c);
    targets = members;
  } else {  // kCrossSubcores: the cores of its kind in its cluster (the AIV pair)
    if (L.clusters && kind == CoreKind::Vector) members = {L.aiv(L.block(core), 0), L.aiv(L.block(core), 1)};
    else members = {core};
    targets = members;
  }
  if (members.size() == 1) {
    for (int t : targets) deliver(t, id, {at, from, {}}, {mode, core});
    return;
  }
  auto& pending = gathering_[{mode, members.front(), id}];
  if (pending.empty()) pending.resize(members.size());
  pending[std::size_t(std::find(members.begin(), members.end(), core) - members.begin())].push_back({at, from, {}});
  for (const auto& q : pending)
    if (q.empty()) return;
  Signal latest;  // the gathered signal goes out with its last member's set
  std::vector<SignalOrigin> all;
  for (auto& q : pending) {
    if (latest.from.core < 0 || q.front().at > latest.at) latest = q.front();
    all.push_back(q.front().from);
    q.pop_front();
  }
  latest.members = std::move(all);
  for (int t : targets) deliver(t, id, latest, {mode, members.front()});
}

bool LaunchScheduler::flag_wait(int core, int id, int id2, std::uint64_t arrival, bool in_place, std::string what) {
  std::lock_guard lock(m_);
  Slot& s = *slots_[std::size_t(core)];
  s.arrival = arrival + s.dispatched;  // the launch's clock, as the signals
  std::uint64_t at = 0;
  if (take(s, id, id2, at)) {
    s.release = at > s.dispatched ? at - s.dispatched : 0;
    s.abort.clear();
    return true;
  }
  s.on = Slot::On::Flag;
  s.flag = id;
  s.flag2 = id2;
  s.what = std::move(what);
  suspend(s, in_place);
  return false;
}

// Every core has started and none can run: the waiting ones wait for cores that have ended or wait too.
void LaunchScheduler::check_deadlock() {
  if (running_ > 0 || !turns_.empty()) return;  // a core waiting for its turn can always go on
  std::string waves;  // the next block waits for a core that a waiting block holds
  if (next_ < cores_) {
    if (startable(next_)) return;
    const int b = layout_.block(next_);
    waves = layout_.label(next_).substr(0, layout_.label(next_).rfind(' ')) + " waits for an AI core: the chip has " +
            std::to_string(chip_cores_) + " (CostTable::cube_cores), so it runs on cluster " +
            std::to_string(b - chip_cores_) + "'s once that cluster ends; ";
    next_ = cores_;  // the blocks not started never will
    wake_all();
  }
  std::vector<Slot*> waiting;
  for (auto& s : slots_)
    if (s->state == Slot::State::Waiting) waiting.push_back(s.get());
  if (waiting.empty()) return;
  bool any_failed = false;
  for (const auto& s : slots_) any_failed |= s->state == Slot::State::Ended && s->failed && !s->secondary;
  const std::string error = waves + deadlock_message();
  for (Slot* w : waiting) {
    w->abort = error;
    w->abort_secondary = any_failed;
    release(*w, 0);
  }
  for (Barrier& b : barriers_) b.arrived = 0, b.latest = 0;
}

std::string LaunchScheduler::deadlock_message() const {
  std::vector<int> ended, failed, at_barrier;
  std::vector<const Slot*> at_flag;
  BarrierGroup group = BarrierGroup::Vector;
  for (const auto& s : slots_) {
    if (s->state == Slot::State::Ended) (s->failed ? failed : ended).push_back(s->core);
    if (s->state != Slot::State::Waiting) continue;
    if (s->on == Slot::On::Barrier) at_barrier.push_back(s->core), group = s->group;
    else at_flag.push_back(s.get());
  }
  std::ostringstream os;
  if (at_flag.empty()) {  // only a barrier: who never reached it
    const Barrier& b = barriers_[std::size_t(group)];
    os << "SYNCALL: deadlock: " << core_list(at_barrier, layout_) << (at_barrier.size() == 1 ? " waits" : " wait")
       << " at SYNCALL" << group_name(group, layout_.clusters) << " #" << b.released + 1 << " for all " << b.members
       << " cores of " << (layout_.clusters && group != BarrierGroup::All ? "its kind in the launch" : "the launch")
       << ", but ";
    if (!ended.empty())
      os << core_list(ended, layout_) << " ended without reaching it (after " << b.released << " SYNCALL(s))";
    if (!ended.empty() && !failed.empty()) os << " and ";
    if (!failed.empty()) os << core_list(failed, layout_) << " stopped with an error before reaching it";
    os << "; every core of a launch must reach each SYNCALL (call it the same number of times on every core)";
    return os.str();
  }
  os << "deadlock across cores: no core can go on.";
  for (const Slot* s : at_flag) os << " " << layout_.label(s->core) << " waits at " << s->what << ".";
  if (!at_barrier.empty())
    os << " " << core_list(at_barrier, layout_) << (at_barrier.size() == 1 ? " waits" : " wait") << " at SYNCALL"
       << group_name(group, layout_.clusters) << ".";
  if (!ended.empty()) os << " " << core_list(ended, layout_) << " ended.";
  if (!failed.empty()) os << " " << core_list(failed, layout_) << " stopped with an error.";
  os << " A flag is set only by another core's ffts_cross_core_sync / set_intra_block (TPUSH, TFREE): every wait "
        "needs a set that is still to come";
  return os.str();
}

// A coroutine core never blocks its thread: the thread may hold other suspended cores it must resume.
bool LaunchScheduler::can_wait_in_place(int core) const { return slots_[std::size_t(core)]->on_fiber || !coroutines_; }

void LaunchScheduler::wait(int core) {
  Slot& s = *slots_[std::size_t(core)];
  if (s.on_fiber) {  // back to the worker's loop, which resumes this fiber once the barrier released it
    Core* mine = exchange_current_core(nullptr);
#ifdef PTO_ASAN_FIBERS
    __sanitizer_start_switch_fiber(&s.fake, s.host_bottom, s.host_size);
#endif
    s.back = std::move(s.back).resume();
#ifdef PTO_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(s.fake, &s.host_bottom, &s.host_size);
#endif
    exchange_current_core(mine);
    return;
  }
  std::unique_lock lock(m_);
  workers_[std::size_t(s.home)]->cv.wait(lock, [&] { return s.state != Slot::State::Waiting; });
  s.state = Slot::State::Running;
}

std::uint64_t LaunchScheduler::released_at(int core) {
  std::lock_guard lock(m_);
  const Slot& s = *slots_[std::size_t(core)];
  if (!s.abort.empty()) fail(s.abort);
  return s.release;
}

SignalOrigin LaunchScheduler::released_by(int core) const {
  std::lock_guard lock(m_);
  return slots_[std::size_t(core)]->from;
}

std::vector<SignalOrigin> LaunchScheduler::released_sources(int core) const {
  std::lock_guard lock(m_);
  return slots_[std::size_t(core)]->sources;
}

}  // namespace pto::detail
