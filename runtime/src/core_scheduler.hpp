// LaunchScheduler: runs the cores of one launch as resumable tasks on the launch's host threads, and is
// the barrier SYNCALL meets at.
//
// A core that must wait for the others suspends and its host thread runs other cores: a coroutine kernel
// at its co_await (Core::drive returns, CoreTask::run returns false, and run is called again once the
// barrier releases it); a plain kernel, when the launch has more cores than host threads, on a stackful
// fiber of its own (Boost.Context) that switches back to the host thread's loop. With a host thread per
// core a plain kernel runs on its thread's stack, as a launch always did, and a waiting core blocks its
// thread (nothing else needs it). Nothing switches unless a core waits: a launch without SYNCALL runs
// exactly as before (each host thread takes the next core and runs it to its end).
//
// A suspended core resumes on the host thread that started it (its fiber, its executor, the thread_local
// current core and the C++ runtime's per-thread exception state never move between threads).
//
// Modeled time: every core's SYNCALL ends at the same cycle, the latest arrival (the core's pipes
// drained) plus the barrier's cost, whatever order the host ran the cores in. A core that ends (or
// fails) while others wait at a SYNCALL it never reached is a deadlock: once no core can run any more,
// every waiting core fails with one pto::Error naming the waiting cores, the cores that ended, and the
// instruction.
#pragma once
#include <oneapi/tbb/task_arena.h>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace pto::detail {

// One core of a launch.
class CoreTask {
public:
  virtual ~CoreTask() = default;
  // Runs the core until it ends (true) or, a coroutine kernel, until it waits at a SYNCALL (false): then
  // run is called again, on the same host thread, once the barrier has released the core.
  virtual bool run() = 0;
};

class LaunchScheduler {
public:
  // `blocks` cores on `threads` host threads (the calling thread when 1); `coroutines`: the kernel is a
  // coroutine (else plain kernels, on fibers when blocks > threads). Every thread runs its cores inside
  // `arena` (the launch's oneTBB arena, so a CPU kernel's parallel_for honours host_threads) when given.
  LaunchScheduler(int blocks, int threads, bool coroutines, tbb::task_arena* arena = nullptr);
  ~LaunchScheduler();
  LaunchScheduler(const LaunchScheduler&) = delete;
  LaunchScheduler& operator=(const LaunchScheduler&) = delete;

  // Runs every core to its end; make(block) creates core `block`'s task on the host thread that runs it
  // (the task is destroyed there too, as soon as the core has ended).
  void run(const std::function<std::unique_ptr<CoreTask>(int block)>& make);
  // What core `block` stopped with, if anything; `secondary`: the error only says that another core's
  // failure left it waiting at a SYNCALL (the launch reports the other core's error first).
  std::exception_ptr error(int block) const;
  bool secondary(int block) const;

  // SYNCALL, called by core `block` on its host thread, its pipes drained at modeled cycle `arrival`:
  // true when this arrival completes the barrier (released_at is known), false when the core must wait:
  // `in_place` by wait(), else by returning from its run (a coroutine kernel's Core::drive).
  bool arrive(int block, std::uint64_t arrival, std::uint64_t cost, bool in_place);
  // Whether a core that must wait can wait where it stands (a plain kernel: on its fiber or on a thread
  // of its own), rather than by returning from Core::drive (a coroutine kernel, always).
  bool can_wait_in_place(int block) const;
  // Waits where it stands until the barrier releases the core (precondition: arrive returned false).
  void wait(int block);
  // The modeled cycle the core's barrier released it at; throws the deadlock error instead.
  std::uint64_t released_at(int block);

  struct Slot;

private:
  struct Worker;
  void worker(int w, const std::function<std::unique_ptr<CoreTask>(int)>& make);
  void execute(Slot& s, bool fresh, const std::function<std::unique_ptr<CoreTask>(int)>& make);
  void finished(Slot& s, std::exception_ptr e);  // under m_
  void release_waiters(std::uint64_t at, const std::string& error, bool secondary);  // under m_
  void check_deadlock();  // under m_
  std::string deadlock_message() const;  // under m_

  const int blocks_, threads_;
  const bool coroutines_, fibers_;
  tbb::task_arena* arena_;
  mutable std::mutex m_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<std::unique_ptr<Worker>> workers_;
  int next_ = 0;        // the next core to start
  int running_ = 0;     // started, not ended, not waiting at a barrier
  int arrived_ = 0;     // at the current barrier
  std::uint64_t latest_arrival_ = 0;
  std::vector<int> waiting_;  // cores waiting at the current barrier
  int barriers_ = 0;          // barriers released so far

public:
  struct StackPool;  // fiber stacks, reused (core_scheduler.cpp)

private:
  std::unique_ptr<StackPool> stacks_;
};

}  // namespace pto::detail
