// LaunchScheduler: runs the cores of one launch as resumable tasks on the launch's host threads, and is
// where cores wait for each other: the SYNCALL barrier and the cross-core flags (FFTS on A2/A3,
// intra-block flags on A5) that TPUSH/TPOP and cluster kernels use.
//
// A core that must wait for others suspends and its host thread runs other cores: a coroutine kernel
// at its co_await (Core::drive returns, CoreTask::run returns false, and run is called again once the
// wait is over); a plain kernel, when the launch has more cores than host threads, on a stackful
// fiber of its own (Boost.Context) that switches back to the host thread's loop. With a host thread per
// core a plain kernel runs on its thread's stack, as a launch always did, and a waiting core blocks its
// thread (nothing else needs it). Nothing switches unless a core waits: a launch without waits runs
// exactly as before (each host thread takes the next core and runs it to its end).
//
// A suspended core resumes on the host thread that started it (its fiber, its executor, the thread_local
// current core and the C++ runtime's per-thread exception state never move between threads).
//
// Modeled time never depends on the host's order:
//  - every core of a SYNCALL's group goes on at the same cycle, the latest arrival plus the cost;
//  - a flag is a counter per (core, id) of signal times. A set whose mode gathers several cores (FFTS
//    mode 2 from the two AIVs to their AIC, mode 0 across all cores of a kind, mode 1 across a cluster's
//    AIVs) delivers its k-th signal once every member has set it k times, at the latest of their times:
//    each member's sets are in its own program order, so the k-th of each is the same whatever ran first.
//    A wait takes the oldest signal of its counter; a counter fed by two sources is an error (their
//    order would be the host's).
// A core that ends (or fails) while others wait for something only it could still give is a deadlock:
// once no core can run any more, every waiting core fails with one pto::Error naming what each waits at
// and which cores ended.
#pragma once
#include <oneapi/tbb/task_arena.h>
#include <array>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core_layout.hpp"

namespace pto::detail {

// One core of a launch.
class CoreTask {
public:
  virtual ~CoreTask() = default;
  // Runs the core until it ends (true) or, a coroutine kernel, until it waits for other cores (false):
  // then run is called again, on the same host thread, once the wait is over.
  virtual bool run() = 0;
  // Once run returned true: the modeled cycle the core ended at (on the launch's clock).
  virtual std::uint64_t modeled_end() const { return 0; }
};

// Flag ids a core's counters have: 16 FFTS ids on A2/A3; A5's AIC tells its two AIVs' ids apart as id
// and id + 16.
inline constexpr int kCrossFlagIds = 32;
// The chip's FFTS counters have 4 bits: a 16th pending set of one id is a hardware error (checked in
// modeled time once the launch has run).
inline constexpr int kFftsCounterMax = 15;

// The cores a SYNCALL meets.
enum class BarrierGroup : std::uint8_t { Vector, Cube, All };

class LaunchScheduler {
public:
  // The cores of `layout` on `threads` host threads (the calling thread when 1); `coroutines`: the
  // kernels are coroutines (else plain kernels, on fibers when cores > threads). Every thread runs its
  // cores inside `arena` (the launch's oneTBB arena, so a CPU kernel's parallel_for honours host_threads).
  // `chip_cores` (cluster launches; 0: no limit): the chip's AI cores. Block b >= chip_cores starts once
  // block b - chip_cores has ended, on its core, at its modeled end (the chip runs such blocks in waves).
  // `lockstep` (the memory system: await_turn): one host thread, every core on a fiber of its own.
  LaunchScheduler(CoreLayout layout, int threads, bool coroutines, tbb::task_arena* arena = nullptr, int chip_cores = 0,
                  bool lockstep = false);
  ~LaunchScheduler();
  LaunchScheduler(const LaunchScheduler&) = delete;
  LaunchScheduler& operator=(const LaunchScheduler&) = delete;

  const CoreLayout& layout() const { return layout_; }
  // Called with (core, true) before a core runs a stretch on its host thread and (core, false) after
  // (kernel statics: one copy per core, swapped in; precondition: one host thread).
  void set_core_switch(std::function<void(int core, bool in)> f) { switch_ = std::move(f); }
  // Runs every core to its end; make(core) creates the core's task on the host thread that runs it
  // (the task is destroyed there too, as soon as the core has ended).
  void run(const std::function<std::unique_ptr<CoreTask>(int core)>& make);
  // What a core stopped with, if anything; `secondary`: the error only says that another core's
  // failure left it waiting (the launch reports the other core's error first).
  std::exception_ptr error(int core) const;
  bool secondary(int core) const;

  // SYNCALL of `group`, called by `core` on its host thread, its pipes drained at modeled cycle `arrival`:
  // true when this arrival completes the barrier (released_at is known), false when the core must wait:
  // `in_place` by wait(), else by returning from its run (a coroutine kernel's Core::drive). `what`
  // names the wait for a deadlock message ("SYNCALL #2").
  // `seq`: the SYNCALL's instruction on `core` (the last arrival is what the others waited for).
  bool arrive(int core, BarrierGroup group, std::uint64_t arrival, std::uint64_t cost, bool in_place, std::uint64_t seq);
  // A cross-core set by `core` in FFTS `mode` (kCross* in record.hpp) of flag `id` at modeled cycle
  // `at`, by its instruction `from`. Throws a pto::Error naming the rule for a mode the launch cannot have.
  void flag_set(int core, int mode, int id, std::uint64_t at, SignalOrigin from);
  // `core` waits for its flag `id` (and `id2` too, unless -1): true when a signal was there (released_at
  // is its time), false when the core must wait (as for arrive). `what` names the wait for a deadlock
  // message ("wait_flag_dev(3) (TPOP #12 at k.cpp:40)").
  // `arrival`: the modeled cycle the wait is issued at (the 4-bit counter check).
  bool flag_wait(int core, int id, int id2, std::uint64_t arrival, bool in_place, std::string what);
  // After run, with no core failed: throws a pto::Error if a flag counter ever held more signals not yet
  // waited for than the chip's 4 bits count, in modeled time.
  void check_flag_counters() const;
  // Whether a core that must wait can wait where it stands (a plain kernel: on its fiber or on a thread
  // of its own), rather than by returning from Core::drive (a coroutine kernel, always).
  bool can_wait_in_place(int core) const;
  bool coroutines() const { return coroutines_; }  // the kernels are coroutines (they wait only where they co_await)
  // Waits where it stands until the core is released (precondition: arrive or flag_wait returned false).
  void wait(int core);
  // The modeled cycle the core's wait ended at (a barrier's release, the signal's time); throws the
  // deadlock error instead.
  std::uint64_t released_at(int core);
  // ... and the signal that ended it (after released_at): the set that sent it, and every set it took
  // (a gathered signal's members, both flags of a paired wait).
  SignalOrigin released_by(int core) const;
  std::vector<SignalOrigin> released_sources(int core) const;
  // The memory system's step (memory_system.hpp; a lockstep launch): `core`, on its fiber, is to price a
  // GM transfer starting at launch cycle `at`. Returns once every core that could still start one before
  // it has: the cores that can run go first, then those waiting for their turn at an earlier (cycle, core).
  // Returns how many other cores wait for their turn at `at` (their transfers start with this one).
  int await_turn(int core, std::uint64_t at);
  // The modeled cycle the core's block was dispatched at: 0 in the first wave (call from its task).
  std::uint64_t dispatched(int core) const;

  struct Slot;

private:
  struct Worker;
  struct FlagCounter;
  struct Barrier {
    int members = 0, arrived = 0, released = 0;
    std::uint64_t latest = 0;
    SignalOrigin last;  // the latest arrival
  };
  struct Signal {
    std::uint64_t at = 0;
    SignalOrigin from;                  // the set that sent it (of a gathered set, the latest member's)
    std::vector<SignalOrigin> members;  // a gathered set: every member's set
  };
  void worker(int w, const std::function<std::unique_ptr<CoreTask>(int)>& make);
  void execute(Slot& s, bool fresh, const std::function<std::unique_ptr<CoreTask>(int)>& make);
  void finished(Slot& s, std::exception_ptr e);  // under m_
  void suspend(Slot& s, bool in_place);          // under m_: s waits
  void release(Slot& s, std::uint64_t at);       // under m_: s goes on at `at`
  // under m_: a signal reaches core's counter
  void deliver(int core, int id, Signal sig, std::pair<int, int> source);
  static bool take(Slot& s, int id, int id2, std::uint64_t& at);  // under m_ (sets s.from)
  void check_deadlock();                         // under m_
  bool startable(int core);                      // under m_: its block's core is free (sets its dispatch)
  void wake_all();                               // under m_: every idle worker looks again
  std::string deadlock_message() const;          // under m_

  const CoreLayout layout_;
  const int cores_, threads_, chip_cores_;
  const bool coroutines_, fibers_;
  tbb::task_arena* arena_;
  mutable std::mutex m_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::function<void(int, bool)> switch_;
  int next_ = 0;     // the next core to start
  int running_ = 0;  // started, not ended, not waiting
  std::array<Barrier, 3> barriers_{};  // by BarrierGroup
  std::set<std::pair<std::uint64_t, int>> turns_;  // (launch cycle, core) of the cores waiting in await_turn
  // Sets that gather several cores, by (mode, first member, id): each member's pending set times.
  std::map<std::tuple<int, int, int>, std::vector<std::deque<Signal>>> gathering_;

public:
  struct StackPool;  // fiber stacks, reused (core_scheduler.cpp)

private:
  std::unique_ptr<StackPool> stacks_;
};

}  // namespace pto::detail
