#include "concurrent_policy.hpp"
#include "registry.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <sched.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

namespace pto::detail {

// Why this shape. Handing an instruction from one host thread to another is the whole cost of this
// policy: a sleeping thread needs a futex wake-up (tens of microseconds on a virtual machine, more than
// a 64x64 tile's work), and every cache line two threads write moves between host cores. So
//  - each pipe is bound to one host thread for the whole run: its instructions run in order without a
//    lock, and its tiles stay in that thread's caches;
//  - the kernel thread hands instructions over through a single-producer queue per pipe; the
//    cross-thread state is a few atomics: per pipe the sequence number of the last instruction it
//    executed (pipes run in order, so "seq s on pipe p is done" is done_through >= s), per flag
//    channel a token count, per core a count of executed instructions;
//  - with a single pipe thread, the kernel threads run their cores' loads (MTE2) themselves, after
//    each issue and while they wait: the pipe thread alone would otherwise do all the work while the
//    kernel thread only issues;
//  - a host thread with nothing ready spins for a while before it parks in Asio, yielding its host
//    core while more threads want one than there are (Pool::active); the kernel thread wakes parked
//    host threads in batches and runs at most a bounded backlog ahead of them.

namespace {
struct CoreExecutor;
struct PipeRef {
  CoreExecutor* core;
  int pipe;
};
}  // namespace

// One host thread: a loop over the pipes bound to it, run as a handler on its own io_context. The
// loop parks (returns, so the io_context sleeps) after a spin with nothing to do; wake() posts it again.
struct HostThread {
  explicit HostThread(ConcurrentPolicy::Pool& pool) : pool(pool) {}
  void start(tbb::task_arena* arena) {
    thread = std::thread([this, arena] {
      if (arena) arena->execute([this] { context.run(); });
      else context.run();
    });
  }
  // Something a pipe of this thread may wait for has happened.
  void wake();
  void add(PipeRef r);
  void remove(const CoreExecutor* c);
  void loop();

  ConcurrentPolicy::Pool& pool;
  boost::asio::io_context context;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work = boost::asio::make_work_guard(context);
  alignas(64) std::atomic<std::uint64_t> signal{0};  // bumped by wake(), read by the spinning loop
  std::atomic<bool> parked{true};                     // no loop handler posted or running
  alignas(64) std::mutex m;                    // held while the loop runs pipes, and to change `pipes`
  std::vector<PipeRef> pipes;
  std::thread thread;
};

// Host cores this process may run on (its affinity mask, as under taskset or a container's cpuset).
static int usable_cores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

struct ConcurrentPolicy::Pool {
  Pool(int threads, tbb::task_arena* arena) : cores(usable_cores()) {
    for (int i = 0; i < threads; ++i) host.push_back(std::make_unique<HostThread>(*this));
    for (auto& h : host) h->start(arena);
  }
  ~Pool() {
    for (auto& h : host) h->work.reset();
    for (auto& h : host) h->thread.join();
  }
  std::vector<std::unique_ptr<HostThread>> host;
  // Threads that want a host core now: kernel threads not asleep, host threads not parked (a waker
  // counts the thread it wakes). A spinning host thread yields its core while this exceeds `cores`.
  alignas(64) std::atomic<int> active{0};
  alignas(64) const int cores;
};

namespace {

constexpr std::size_t kLine = 64;  // state written by different threads lives on different cache lines

// A spin of at most this long covers the gap between two dependent instructions of a streaming
// kernel; a longer wait parks the thread.
constexpr auto kSpinBudget = std::chrono::microseconds(500);

void pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Spins until pred() or the budget ends, yielding the host core while others want it; returns pred().
template <class Pred>
bool spin_until(const ConcurrentPolicy::Pool& pool, Pred pred) {
  const auto deadline = std::chrono::steady_clock::now() + kSpinBudget;
  for (unsigned i = 1;; ++i) {
    if (pred()) return true;
    // More threads want a host core than there are: let the others run first (a kernel thread that is
    // issuing, say), but stay ready - parking would cost a futex wake-up later. A yield may take a
    // whole time slice, so the clock is read after each.
    const bool crowded = pool.active.load(std::memory_order_relaxed) > pool.cores;
    if ((crowded || i % 256 == 0) && std::chrono::steady_clock::now() > deadline) return false;
    if (crowded) sched_yield();
    else pause();
  }
}

// Which host thread runs pipe `pipe` of core `core`: the loads (MTE2), the compute pipes (V, M and
// MTE1, which feeds M) and the stores (MTE3, FIX) are three lanes; with fewer than three threads the
// last lanes share one (two threads: MTE2 | V + MTE3, so a vector kernel's results are stored by the
// thread that computed them). Cores take consecutive lanes, spreading over the threads.
HostThread& host_thread_for(ConcurrentPolicy::Pool& pool, int core, int pipe) {
  const int threads = int(pool.host.size());
  const int lanes = std::min(threads, 3);
  const int lane = pipe == PIPE_MTE2 ? 0 : (pipe == PIPE_MTE3 || pipe == PIPE_FIX) ? 2 : 1;
  return *pool.host[std::size_t((core * lanes + std::min(lane, lanes - 1)) % threads)];
}

// Single-producer (the kernel thread) single-consumer (the pipe's host thread) queue in blocks of raw
// storage: the producer copies each item once into place, and the consumer hands an emptied block back
// for reuse, so a long kernel neither constructs nor allocates per instruction.
template <class T>
class SpscQueue {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

public:
  SpscQueue() : head_(new Block), tail_(head_) {}
  ~SpscQueue() {
    while (head_) delete std::exchange(head_, head_->next.load(std::memory_order_relaxed));
    delete spare_.load(std::memory_order_relaxed);
  }
  SpscQueue(const SpscQueue&) = delete;
  SpscQueue& operator=(const SpscQueue&) = delete;

  // Producer: the slot of the next item, to fill before push().
  T& next_slot() {
    if (tail_pos_ == kBlock) {
      Block* b = spare_.exchange(nullptr, std::memory_order_acquire);
      if (b) b->next.store(nullptr, std::memory_order_relaxed);
      else b = new Block;
      tail_->next.store(b, std::memory_order_relaxed);  // published by `pushed_` in push()
      tail_ = b;
      tail_pos_ = 0;
    }
    return tail_->at(tail_pos_);
  }
  // Producer: publishes the slot. Returns whether the queue was empty (the new item is the head).
  bool push() {
    ++tail_pos_;
    // seq_cst here and in front()/pop(): the producer's "was it empty?" and the consumer's "is it
    // empty?" are a Dekker pair; with weaker orders both could miss the other, and the consumer would
    // park with an item nobody wakes it for.
    const std::uint64_t n = pushed_.load(std::memory_order_relaxed);
    pushed_.store(n + 1, std::memory_order_seq_cst);
    return n == popped_.load(std::memory_order_seq_cst);
  }
  // Consumer: the head, or null.
  T* front() {
    if (popped_.load(std::memory_order_relaxed) == pushed_.load(std::memory_order_seq_cst)) return nullptr;
    if (head_pos_ == kBlock) {
      Block* done = std::exchange(head_, head_->next.load(std::memory_order_relaxed));
      delete spare_.exchange(done, std::memory_order_release);  // the producer reuses it
      head_pos_ = 0;
    }
    return &head_->at(head_pos_);
  }
  void pop() {
    ++head_pos_;
    popped_.store(popped_.load(std::memory_order_relaxed) + 1, std::memory_order_seq_cst);
  }

private:
  static constexpr int kBlock = 64;
  struct Block {
    alignas(T) std::byte items[kBlock * sizeof(T)];
    std::atomic<Block*> next{nullptr};
    T& at(int i) { return reinterpret_cast<T*>(items)[i]; }
  };
  // The consumer's and the producer's fields on separate cache lines: each side writes only its own.
  alignas(kLine) Block* head_;
  int head_pos_ = 0;
  std::atomic<std::uint64_t> popped_{0};
  alignas(kLine) Block* tail_;
  int tail_pos_ = 0;
  std::atomic<std::uint64_t> pushed_{0};
  std::atomic<Block*> spare_{nullptr};  // an emptied block, from the consumer to the producer
};

// One core's pipes on their host threads.
struct CoreExecutor final : FunctionalExecutor {
  // Made and destroyed on the core's kernel thread, which is active in between except while it sleeps.
  CoreExecutor(ConcurrentPolicy::Pool& pool, int core, Target target, int queue_depth)
      : pool_(pool), target_(target), max_backlog_(std::max<std::uint64_t>(4096, 2 * std::uint64_t(queue_depth) * std::size(kQueuedPipes))) {
    for (int p = 0; p < kNumPipeIds; ++p) pipes_[std::size_t(p)].host = &host_thread_for(pool, core, p);
    // One pipe thread: the kernel thread runs the loads itself, between its issues and while it waits
    // (the two-thread hand loop's split: copy in | compute and copy out), instead of leaving every
    // pipe's work to one thread while it only issues.
    if (pool.host.size() == 1) pipes_[PIPE_MTE2].host = nullptr;
    pool_.active.fetch_add(1, std::memory_order_relaxed);
  }
  ~CoreExecutor() override {
    abandon();
    pool_.active.fetch_sub(1, std::memory_order_relaxed);
  }

  void submit(std::uint64_t seq, const InstrRecord& rec, const BackendKernel* kernel) override {
    if (abandoned_.load(std::memory_order_relaxed)) return;  // the core is failing: nothing runs any more
    if (pipe_of_.size() < seq) pipe_of_.resize(seq, PIPE_S);
    pipe_of_[seq - 1] = std::uint8_t(rec.pipe);
    if (rec.pipe == PIPE_S) {  // the model already ran it on the scalar pipe; only a set_flag matters here
      if (rec.kind == RecordKind::SetFlag && rec.flag_dst != PIPE_S) {
        flag(rec).fetch_add(1, std::memory_order_release);
        if (HostThread* h = pipes_[rec.flag_dst].host) note_work(h, true);
      }
      return;
    }
    Pipe& p = pipes_[rec.pipe];
    if (p.host && !p.registered.load(std::memory_order_relaxed)) {
      p.host->add({this, rec.pipe});
      p.registered.store(true, std::memory_order_seq_cst);
    }
    Item& it = p.queue.next_slot();
    it.seq = seq;
    copy_used(it.rec, rec);
    it.kernel = kernel;
    for (int i = 0; i < rec.nwaits; ++i) it.wait_pipe[std::size_t(i)] = pipe_of_[rec.waits[i] - 1];  // S: done at issue
    total_submitted_.store(total_submitted_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    const bool news = p.queue.push();
    if (p.host) {
      note_work(p.host, news);
    } else {
      inline_queued_.store(inline_queued_.load(std::memory_order_relaxed) + 1, std::memory_order_seq_cst);
    }
    if (++backlog_ >= max_backlog_) throttle();
    drain_inline();
  }

  void wait_done(std::uint64_t seq) override {
    const int p = pipe_of_[seq - 1];
    if (p != PIPE_S) {
      flush_wakes();
      wait_pipe_.store(p, std::memory_order_relaxed);
      wait_seq_.store(seq, std::memory_order_relaxed);
      sleep_until();
    }
    rethrow();
  }

  void wait_all() override {
    flush_wakes();
    wait_pipe_.store(kAllPipes, std::memory_order_relaxed);
    sleep_until();
    rethrow();
  }

  bool is_done(std::uint64_t seq) override {
    const int p = pipe_of_[seq - 1];
    return p == PIPE_S || pipes_[p].done_through.load(std::memory_order_acquire) >= seq;
  }

  void set_ub(std::byte* ub, std::size_t bytes) override {
    ub_ = ub;
    ub_bytes_ = bytes;
  }

  // Once a pipe is unregistered from its host thread no drain of it runs (the host thread holds its
  // mutex while it runs pipes); what was queued is dropped with the queues.
  void abandon() noexcept override {
    abandoned_.store(true, std::memory_order_relaxed);
    for (Pipe& p : pipes_)
      if (p.registered.load(std::memory_order_relaxed)) {
        p.host->remove(this);
        p.registered.store(false, std::memory_order_relaxed);
      }
  }

  // Host thread: runs pipe p's ready instructions in order, at most kDrainBatch of them so that the
  // thread's other pipes (and other cores) get their turn; returns whether it ran any.
  static constexpr int kDrainBatch = 64;
  bool drain(int pipe_id) {
    Pipe& p = pipes_[std::size_t(pipe_id)];
    bool ran = false;
    for (int n = 0; n < kDrainBatch && !failed_.load(std::memory_order_seq_cst) && !abandoned_.load(std::memory_order_relaxed); ++n) {
      Item* it = p.queue.front();
      if (!it || !take_ready(*it)) break;
      if (!run(p, *it)) {
        // A failed instruction completes nothing: what waits for it must not run on its half-made
        // results. The kernel thread, which may sleep until this pipe moves, is told.
        completed(pipe_id);
        break;
      }
      const std::uint64_t seq = it->seq;
      const InstrRecord& rec = it->rec;
      if (rec.kind == RecordKind::SetFlag) signal_flag(rec);
      p.queue.pop();
      if (!p.host) inline_queued_.store(inline_queued_.load(std::memory_order_relaxed) - 1, std::memory_order_relaxed);
      // seq_cst: these and kernel_waiting_ order like a Dekker pair (see completed() and sleep_until()).
      p.done_through.store(seq, std::memory_order_seq_cst);
      executed_.fetch_add(1, std::memory_order_seq_cst);
      completed(pipe_id);
      ran = true;
    }
    return ran;
  }

private:
  struct Item {
    std::uint64_t seq;
    InstrRecord rec;
    const BackendKernel* kernel;
    std::array<std::uint8_t, kMaxWaits> wait_pipe;
  };
  struct Pipe {
    // Read by everyone, written once.
    HostThread* host = nullptr;
    std::atomic<bool> registered{false};  // on its host thread (written by the kernel thread)
    // Written by the pipe's host thread, read by the others: one cache-line transfer per handoff.
    alignas(kLine) std::atomic<std::uint64_t> done_through{0};  // seq of the last one executed (pipes are in order)
    SpscQueue<Item> queue;
    Staging staging;  // host thread
  };

  // Kernel thread: new work for a host thread (`news`: something it may be waiting for, e.g. a new
  // head of a queue). A running host thread finds it by itself or sees the signal at once; waking a
  // parked one costs a system call and a context switch, so while the kernel issues, those wake-ups
  // go out once per kWakeBatch submissions (and before the kernel thread waits for anything).
  static constexpr int kWakeBatch = 256;
  void note_work(HostThread* h, bool news) {
    if (!h->parked.load(std::memory_order_seq_cst)) {
      if (news) h->wake();
      return;
    }
    if (std::find(deferred_.begin(), deferred_.end(), h) == deferred_.end()) deferred_.push_back(h);
    if (++deferred_count_ >= kWakeBatch) flush_wakes();
  }
  // The kernel thread runs at most max_backlog_ instructions ahead of the host threads: it then sleeps
  // until they are halfway through, so it takes a host core in short bursts, not for the whole issue
  // phase. No deadlock: an instruction the executor cannot run before a later issue is one the model
  // cannot retire either, and the model holds at most queue_depth of those per pipe; max_backlog_ is
  // twice that for every pipe.
  void throttle() {
    const std::uint64_t submitted = total_submitted_.load(std::memory_order_relaxed);
    backlog_ = submitted - executed_.load(std::memory_order_acquire);
    if (backlog_ < max_backlog_) return;
    flush_wakes();
    wait_pipe_.store(kBacklog, std::memory_order_relaxed);
    wait_seq_.store(submitted - max_backlog_ / 2, std::memory_order_relaxed);
    sleep_until();
    rethrow();
    backlog_ = max_backlog_ / 2;
  }

  void flush_wakes() {
    for (HostThread* h : deferred_) h->wake();
    deferred_.clear();
    deferred_count_ = 0;
  }

  std::atomic<int>& flag(const InstrRecord& r) {
    return flags_[std::size_t((r.flag_src * kNumPipeIds + r.flag_dst) * kNumEventIds + r.flag_id)];
  }
  void signal_flag(const InstrRecord& r) {
    if (r.flag_dst == PIPE_S) return;  // the scalar pipe waits for the set_flag itself (wait_done)
    flag(r).fetch_add(1, std::memory_order_release);
    if (HostThread* h = pipes_[r.flag_dst].host) h->wake();  // an inline pipe: completed() tells the kernel thread
  }

  // Whether the head can run now; a wait_flag consumes its token (only its own pipe takes them).
  bool take_ready(const Item& it) {
    if (!ready(it)) return false;
    if (it.rec.kind == RecordKind::WaitFlag) flag(it.rec).fetch_sub(1, std::memory_order_relaxed);
    return true;
  }
  // Whether it could run now: its events are done and (a wait_flag) its channel holds a token.
  // seq_cst: the kernel thread's check before it sleeps pairs with completed() (Dekker).
  bool ready(const Item& it) {
    for (int i = 0; i < it.rec.nwaits; ++i) {
      const int p = it.wait_pipe[std::size_t(i)];
      if (p != PIPE_S && pipes_[std::size_t(p)].done_through.load(std::memory_order_seq_cst) < it.rec.waits[i]) return false;
    }
    return it.rec.kind != RecordKind::WaitFlag || flag(it.rec).load(std::memory_order_acquire) > 0;
  }

  // Kernel thread: runs the ready instructions of the pipes it runs itself (host == nullptr).
  void drain_inline() {
    if (inline_queued_.load(std::memory_order_relaxed) == 0) return;
    for (int p = 0; p < kNumPipeIds; ++p)
      if (!pipes_[std::size_t(p)].host) drain(p);
  }
  // Kernel thread: whether one of its own pipes has a head that can run now.
  bool inline_ready() {
    for (Pipe& p : pipes_)
      if (const Item* it = p.host ? nullptr : p.queue.front(); it && ready(*it)) return true;
    return false;
  }

  // Whether the instruction ran without an error.
  bool run(Pipe& p, const Item& it) {
    if (!it.kernel) return true;
    try {
      ExecContext ctx = make_context(it.rec, target_, ub_, ub_bytes_, &p.staging);
      if (it.kernel->direct) {
        it.kernel->direct(ctx);  // runs when its flags allow: its inputs are what it must read
      } else {
        if (it.kernel->start) it.kernel->start(ctx);
        it.kernel->finish(ctx);
      }
    } catch (...) {
      std::lock_guard lock(error_m_);
      if (!error_) error_ = std::current_exception();
      failed_.store(true, std::memory_order_seq_cst);
      return false;
    }
    return true;
  }

  // A completion may unblock this core's other pipes and its kernel thread.
  void completed(int pipe_id) {
    HostThread* self = pipes_[std::size_t(pipe_id)].host;
    HostThread* woken[kNumPipeIds] = {};
    int n = 0;
    for (const Pipe& p : pipes_)
      if (p.host != self && p.registered.load(std::memory_order_seq_cst) && std::find(woken, woken + n, p.host) == woken + n) woken[n++] = p.host;
    for (int i = 0; i < n; ++i) woken[i]->wake();
    // Either the kernel thread, about to sleep, sees our completion, or we see it waiting.
    if (kernel_waiting_.load(std::memory_order_seq_cst) && (kernel_may_go() || inline_queued_.load(std::memory_order_seq_cst) > 0)) {
      std::lock_guard lock(kernel_m_);
      if (kernel_sleeping_) {  // counted from now, so that spinning host threads make room for it
        kernel_sleeping_ = false;
        pool_.active.fetch_add(1, std::memory_order_relaxed);
      }
      kernel_cv_.notify_one();
    }
  }

  // What the kernel thread waits for: pipe wait_pipe_ reaching wait_seq_, or (kAllPipes) every pipe
  // having run all it was given. Completers read it only while kernel_waiting_ is set.
  static constexpr int kAllPipes = -1, kBacklog = -2;
  bool kernel_may_go() const {
    if (failed_.load(std::memory_order_seq_cst) || abandoned_.load(std::memory_order_relaxed)) return true;
    const int wp = wait_pipe_.load(std::memory_order_relaxed);
    if (wp == kBacklog) return executed_.load(std::memory_order_seq_cst) >= wait_seq_.load(std::memory_order_relaxed);
    if (wp != kAllPipes) return pipes_[std::size_t(wp)].done_through.load(std::memory_order_seq_cst) >= wait_seq_.load(std::memory_order_relaxed);
    return executed_.load(std::memory_order_seq_cst) == total_submitted_.load(std::memory_order_relaxed);
  }

  // The kernel thread waits: a short spin, then it sleeps until the completion it waits for wakes it
  // (only that one: a kernel thread woken per instruction would take a host core from the pipes).
  void sleep_until() {
    if (spin_until(pool_, [&] {
          drain_inline();
          return kernel_may_go();
        }))
      return;
    std::unique_lock lock(kernel_m_);
    kernel_waiting_.store(true, std::memory_order_seq_cst);  // before the completions we read (Dekker)
    while (!kernel_may_go()) {
      if (inline_ready()) {  // our own pipe can move: run it (without the lock: completions take it)
        lock.unlock();
        drain_inline();
        lock.lock();
        continue;
      }
      kernel_sleeping_ = true;
      pool_.active.fetch_sub(1, std::memory_order_relaxed);
      kernel_cv_.wait(lock);
      if (kernel_sleeping_) {  // woken by no completion: count ourselves again
        kernel_sleeping_ = false;
        pool_.active.fetch_add(1, std::memory_order_relaxed);
      }
    }
    kernel_waiting_.store(false, std::memory_order_relaxed);
  }

  // Stops this core's host work before the exception unwinds frames whose memory it may be using.
  void rethrow() {
    if (!failed_.load(std::memory_order_seq_cst)) return;
    abandon();
    std::exception_ptr e;
    {
      std::lock_guard lock(error_m_);
      e = error_;
    }
    std::rethrow_exception(e);
  }

  ConcurrentPolicy::Pool& pool_;
  Target target_;
  std::array<Pipe, kNumPipeIds> pipes_;
  std::array<std::atomic<int>, kNumPipeIds * kNumPipeIds * kNumEventIds> flags_{};
  alignas(kLine) std::vector<std::uint8_t> pipe_of_;  // kernel thread: the pipe of every issued instruction
  std::vector<HostThread*> deferred_;  // kernel thread: parked host threads with work not yet woken
  int deferred_count_ = 0;
  const std::uint64_t max_backlog_;
  std::uint64_t backlog_ = 0;  // kernel thread: an upper bound of submitted - executed
  alignas(kLine) std::atomic<std::uint64_t> total_submitted_{0};  // written by the kernel thread
  alignas(kLine) std::atomic<std::uint64_t> executed_{0};         // by every host thread of the core
  alignas(kLine) std::atomic<bool> failed_{false}, abandoned_{false};
  std::mutex error_m_;
  std::exception_ptr error_;
  alignas(kLine) std::atomic<bool> kernel_waiting_{false};
  std::atomic<int> wait_pipe_{kAllPipes};  // written by the kernel thread before it sets kernel_waiting_
  std::atomic<std::uint64_t> wait_seq_{0};
  // Instructions queued on the pipes the kernel thread runs itself: a completion wakes a waiting
  // kernel thread while there are any (they may have become ready).
  std::atomic<std::uint64_t> inline_queued_{0};
  std::mutex kernel_m_;
  std::condition_variable kernel_cv_;
  bool kernel_sleeping_ = false;  // guarded by kernel_m_
  std::byte* ub_ = nullptr;
  std::size_t ub_bytes_ = 0;
};

}  // namespace

void HostThread::wake() {
  signal.fetch_add(1, std::memory_order_seq_cst);
  if (parked.load(std::memory_order_seq_cst) && parked.exchange(false)) {
    pool.active.fetch_add(1, std::memory_order_relaxed);  // counted from now: spinners make room
    boost::asio::post(context, [this] { loop(); });
  }
}

void HostThread::add(PipeRef r) {
  std::lock_guard lock(m);
  pipes.push_back(r);
}

void HostThread::remove(const CoreExecutor* c) {
  std::lock_guard lock(m);  // waits for a pass of the loop that may be running c's pipes
  std::erase_if(pipes, [&](const PipeRef& r) { return r.core == c; });
}

void HostThread::loop() {
  for (;;) {
    const std::uint64_t seen = signal.load(std::memory_order_seq_cst);
    bool ran = false;
    {
      std::lock_guard lock(m);
      for (const PipeRef& r : pipes) ran |= r.core->drain(r.pipe);
    }
    if (ran) continue;
    if (spin_until(pool, [&] { return signal.load(std::memory_order_acquire) != seen; })) continue;
    pool.active.fetch_sub(1, std::memory_order_relaxed);
    parked.store(true, std::memory_order_seq_cst);
    // A wake() after `seen` that found us not yet parked posted nothing: look again if we can un-park.
    if (signal.load(std::memory_order_seq_cst) != seen && parked.exchange(false)) {
      pool.active.fetch_add(1, std::memory_order_relaxed);
      continue;
    }
    break;
  }
}

ConcurrentPolicy::ConcurrentPolicy(int host_threads, tbb::task_arena* arena)
    : pool_(std::make_unique<Pool>(host_threads, arena)) {}
ConcurrentPolicy::~ConcurrentPolicy() = default;

std::unique_ptr<FunctionalExecutor> ConcurrentPolicy::make_executor(int core, Target target, int queue_depth) {
  return std::make_unique<CoreExecutor>(*pool_, core, target, queue_depth);
}

}  // namespace pto::detail
