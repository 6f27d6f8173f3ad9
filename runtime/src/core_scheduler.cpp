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

struct LaunchScheduler::Slot {
  int block = 0;
  int home = -1;  // the worker (host thread) that started it and resumes it
  enum class State : std::uint8_t { NotStarted, Running, Waiting, Released, Ended } state = State::NotStarted;
  // How it waits at a barrier: by returning from run (a coroutine kernel), on its fiber, or blocking its
  // thread. The first two are resumed by their worker once released.
  enum class Wait : std::uint8_t { Yield, Fiber, Block } wait = Wait::Yield;
  std::unique_ptr<CoreTask> task;
  bool on_fiber = false;
  bctx::fiber fiber;              // the core's context while it is switched out
  bctx::fiber back;               // its worker's context while the core runs on its fiber
  bctx::stack_context stack{};    // the fiber's stack
  std::exception_ptr error;       // what run() threw
  bool failed = false, secondary = false;
  std::uint64_t release = 0;      // the modeled cycle its current barrier released it at
  std::string abort;              // non-empty: the barrier will never complete (the deadlock error)
  bool abort_secondary = false;   // ... because another core failed
  int barriers = 0;               // SYNCALLs passed
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

// "cores 0-2, 5" / "core 3"
std::string core_list(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  std::ostringstream os;
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
}  // namespace

bctx::stack_context PooledStack::allocate() {
  slot->stack = pool->get();
  return slot->stack;
}

LaunchScheduler::LaunchScheduler(int blocks, int threads, bool coroutines, tbb::task_arena* arena)
    : blocks_(blocks), threads_(threads), coroutines_(coroutines), fibers_(!coroutines && blocks > threads), arena_(arena),
      stacks_(std::make_unique<StackPool>()) {
  for (int b = 0; b < blocks; ++b) {
    slots_.push_back(std::make_unique<Slot>());
    slots_.back()->block = b;
  }
  for (int w = 0; w < threads; ++w) workers_.push_back(std::make_unique<Worker>());
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

std::exception_ptr LaunchScheduler::error(int block) const { return slots_[std::size_t(block)]->error; }
bool LaunchScheduler::secondary(int block) const { return slots_[std::size_t(block)]->secondary; }

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
        if (next_ < blocks_) {
          s = slots_[std::size_t(next_++)].get();
          s->home = w;
          s->state = Slot::State::Running;
          s->on_fiber = fibers_;
          ++running_;
          ++me.live;
          fresh = true;
          break;
        }
        if (me.live == 0) return;
        me.cv.wait(lock);
      }
    }
    execute(*s, fresh, make);
  }
}

void LaunchScheduler::execute(Slot& s, bool fresh, const std::function<std::unique_ptr<CoreTask>(int)>& make) {
  std::exception_ptr error;
  bool done = false;
  try {
    if (fresh) {
      s.task = make(s.block);
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
  if (!done) return;  // it waits at a barrier: its release puts it in this worker's ready queue
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
  check_deadlock();
}

bool LaunchScheduler::arrive(int block, std::uint64_t arrival, std::uint64_t cost, bool in_place) {
  std::lock_guard lock(m_);
  Slot& s = *slots_[std::size_t(block)];
  ++arrived_;
  latest_arrival_ = std::max(latest_arrival_, arrival);
  if (arrived_ == blocks_) {  // the last one: every core goes on at the same modeled cycle
    const std::uint64_t at = latest_arrival_ + cost;
    arrived_ = 0;
    latest_arrival_ = 0;
    ++barriers_;
    s.release = at;
    s.abort.clear();
    ++s.barriers;
    release_waiters(at, {}, false);
    return true;
  }
  s.state = Slot::State::Waiting;
  s.wait = !in_place ? Slot::Wait::Yield : s.on_fiber ? Slot::Wait::Fiber : Slot::Wait::Block;
  waiting_.push_back(block);
  --running_;
  check_deadlock();
  return false;
}

void LaunchScheduler::release_waiters(std::uint64_t at, const std::string& error, bool secondary) {
  for (int b : waiting_) {
    Slot& w = *slots_[std::size_t(b)];
    w.state = Slot::State::Released;
    w.release = at;
    w.abort = error;
    w.abort_secondary = secondary;
    if (error.empty()) ++w.barriers;
    ++running_;
    Worker& home = *workers_[std::size_t(w.home)];
    if (w.wait != Slot::Wait::Block) home.ready.push_back(&w);
    home.cv.notify_all();
  }
  waiting_.clear();
}

// Every core has started and none can run: the waiting ones wait for cores that have ended.
void LaunchScheduler::check_deadlock() {
  if (waiting_.empty() || running_ > 0 || next_ < blocks_) return;
  bool any_failed = false;
  for (const auto& s : slots_) any_failed |= s->state == Slot::State::Ended && s->failed && !s->secondary;
  release_waiters(0, deadlock_message(), any_failed);
  arrived_ = 0;
  latest_arrival_ = 0;
}

std::string LaunchScheduler::deadlock_message() const {
  std::vector<int> ended, failed;
  for (const auto& s : slots_)
    if (s->state == Slot::State::Ended) (s->failed ? failed : ended).push_back(s->block);
  std::ostringstream os;
  os << "SYNCALL: deadlock: " << core_list(waiting_) << (waiting_.size() == 1 ? " waits" : " wait") << " at SYNCALL #"
     << barriers_ + 1 << " for all " << blocks_ << " cores of the launch, but ";
  if (!ended.empty())
    os << core_list(ended) << (ended.size() == 1 ? " ended" : " ended") << " without reaching it (after " << barriers_
       << " SYNCALL(s))";
  if (!ended.empty() && !failed.empty()) os << " and ";
  if (!failed.empty()) os << core_list(failed) << " stopped with an error before reaching it";
  os << "; every core of a launch must reach each SYNCALL (call it the same number of times on every core)";
  return os.str();
}

// A coroutine core never blocks its thread: the thread may hold other suspended cores it must resume.
bool LaunchScheduler::can_wait_in_place(int block) const { return slots_[std::size_t(block)]->on_fiber || !coroutines_; }

void LaunchScheduler::wait(int block) {
  Slot& s = *slots_[std::size_t(block)];
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

std::uint64_t LaunchScheduler::released_at(int block) {
  std::lock_guard lock(m_);
  const Slot& s = *slots_[std::size_t(block)];
  if (!s.abort.empty()) fail(s.abort);
  return s.release;
}

}  // namespace pto::detail
