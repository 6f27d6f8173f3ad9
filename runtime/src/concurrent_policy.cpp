#include "concurrent_policy.hpp"

#include <array>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <vector>

#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>

namespace pto::detail {

struct ConcurrentPolicy::Pool {
  explicit Pool(int threads) : pool(std::size_t(threads)) {}
  boost::asio::thread_pool pool;
};

namespace {

using Strand = boost::asio::strand<boost::asio::thread_pool::executor_type>;

// One core's pipes on the pool. State is guarded by one mutex per core: the work inside an
// instruction runs unlocked; only queue bookkeeping, flag counts and completion marks take the lock.
class CoreExecutor final : public FunctionalExecutor {
public:
  CoreExecutor(boost::asio::thread_pool& pool, Target target) : target_(target) {
    for (auto& p : pipes_) p.strand = std::make_unique<Strand>(boost::asio::make_strand(pool));
  }
  ~CoreExecutor() override { abandon(); }

  void submit(std::uint64_t seq, const InstrRecord& rec, const BackendKernel* kernel) override {
    std::unique_lock lock(m_);
    if (done_.size() < seq) done_.resize(seq, 0);
    if (rec.pipe == PIPE_S) {  // the model already ran it on the scalar pipe; only a set_flag matters here
      if (rec.kind == RecordKind::SetFlag) ++count(rec);  // set_flag(PIPE_S, X, id): a token for X
      complete_locked(seq);
      return;
    }
    Pipe& p = pipes_[rec.pipe];
    p.queue.push_back(Item{seq, rec, kernel});
    ++pending_;
    schedule_locked(rec.pipe);
  }

  void wait_done(std::uint64_t seq) override {
    std::unique_lock lock(m_);
    sleep_locked(lock, Wait::Seq, seq);
    if (error_) std::rethrow_exception(error_);
  }

  void wait_all() override {
    std::unique_lock lock(m_);
    sleep_locked(lock, Wait::All, 0);
    if (error_) std::rethrow_exception(error_);
  }

  void set_ub(std::byte* ub, std::size_t bytes) override {
    ub_ = ub;
    ub_bytes_ = bytes;
  }

  bool is_done(std::uint64_t seq) override {
    std::lock_guard lock(m_);
    return seq <= done_.size() && done_[seq - 1];
  }

  void abandon() noexcept override {
    std::unique_lock lock(m_);
    abandoned_ = true;
    for (auto& p : pipes_) {
      pending_ -= p.queue.size();
      p.queue.clear();
    }
    wait_ = Wait::Idle;
    cv_.wait(lock, [&] { return running_ == 0; });
    wait_ = Wait::None;
  }

private:
  struct Item {
    std::uint64_t seq;
    InstrRecord rec;
    const BackendKernel* kernel;
  };
  struct Pipe {
    std::unique_ptr<Strand> strand;
    std::deque<Item> queue;
    bool scheduled = false;  // a drain is posted or running: never two for one pipe
    Staging staging;         // reused by the pipe's instructions (one runs at a time)
  };

  int& count(const InstrRecord& r) { return flags_[(r.flag_src * kNumPipeIds + r.flag_dst) * kNumEventIds + r.flag_id]; }

  // The one thread that ever waits here (the core's kernel thread) says what it waits for, so a
  // completion wakes it only when that holds: no wake-up per instruction.
  enum class Wait { None, Seq, All, Idle };
  bool satisfied_locked() const {
    switch (wait_) {
      case Wait::None: return false;
      case Wait::Seq: return error_ || (wait_seq_ <= done_.size() && done_[wait_seq_ - 1]);
      case Wait::All: return error_ || pending_ == 0;
      case Wait::Idle: return running_ == 0;
    }
    return false;
  }
  void sleep_locked(std::unique_lock<std::mutex>& lock, Wait what, std::uint64_t seq) {
    wait_ = what;
    wait_seq_ = seq;
    cv_.wait(lock, [&] { return satisfied_locked(); });
    wait_ = Wait::None;
  }
  void wake_locked() {
    if (satisfied_locked()) cv_.notify_all();
  }
  // Whether the head of pipe p could run now (without consuming its token).
  bool head_ready_locked(int p) {
    const Pipe& pipe = pipes_[p];
    if (pipe.queue.empty()) return false;
    const Item& head = pipe.queue.front();
    for (int i = 0; i < head.rec.nwaits; ++i)
      if (head.rec.waits[i] > done_.size() || !done_[head.rec.waits[i] - 1]) return false;
    return head.rec.kind != RecordKind::WaitFlag || count(head.rec) > 0;
  }

  void schedule_locked(int p) {
    Pipe& pipe = pipes_[p];
    if (pipe.scheduled || pipe.queue.empty() || abandoned_) return;
    pipe.scheduled = true;
    ++running_;
    boost::asio::post(*pipe.strand, [this, p] { drain(p); });
  }

  void complete_locked(std::uint64_t seq) {
    done_[seq - 1] = 1;
    for (int p = 0; p < kNumPipeIds; ++p)  // a completion may unblock any pipe
      if (head_ready_locked(p)) schedule_locked(p);
    wake_locked();
  }

  bool ready_locked(Item& it) {
    for (int i = 0; i < it.rec.nwaits; ++i)
      if (it.rec.waits[i] > done_.size() || !done_[it.rec.waits[i] - 1]) return false;
    if (it.rec.kind == RecordKind::WaitFlag) {
      if (count(it.rec) == 0) return false;
      --count(it.rec);
    }
    return true;
  }

  // Runs the pipe's queue in order until it empties or its head must wait.
  void drain(int p) {
    std::unique_lock lock(m_);
    Pipe& pipe = pipes_[p];
    while (!pipe.queue.empty() && !error_ && !abandoned_ && ready_locked(pipe.queue.front())) {
      Item it = std::move(pipe.queue.front());
      pipe.queue.pop_front();
      lock.unlock();
      std::exception_ptr failure;
      if (it.kernel) {
        try {
          ExecContext ctx{it.rec.ops, it.rec.nops, it.rec.scalar, it.rec.variant, target_, &pipe.staging, it.rec.desc->op, ub_, ub_bytes_};
          if (it.kernel->direct) {
            it.kernel->direct(ctx);  // runs when its flags allow: its inputs are what it must read
          } else {
            if (it.kernel->start) it.kernel->start(ctx);
            it.kernel->finish(ctx);
          }
        } catch (...) {
          failure = std::current_exception();
        }
      }
      lock.lock();
      if (failure && !error_) error_ = failure;
      if (it.rec.kind == RecordKind::SetFlag && it.rec.flag_dst != PIPE_S) ++count(it.rec);  // S waits via wait_done
      --pending_;
      complete_locked(it.seq);
    }
    pipe.scheduled = false;
    --running_;
    // A completion while we ran may have found us scheduled and skipped us: look once more.
    if (!error_ && !abandoned_ && head_ready_locked(p)) schedule_locked(p);
    wake_locked();
  }

  Target target_;
  std::mutex m_;
  std::condition_variable cv_;
  std::array<Pipe, kNumPipeIds> pipes_;
  std::array<int, kNumPipeIds * kNumPipeIds * kNumEventIds> flags_{};
  std::vector<char> done_;
  std::size_t pending_ = 0;  // submitted to a pipe, not yet completed
  int running_ = 0;          // drains posted or running
  bool abandoned_ = false;
  std::exception_ptr error_;
  Wait wait_ = Wait::None;
  std::byte* ub_ = nullptr;
  std::size_t ub_bytes_ = 0;
  std::uint64_t wait_seq_ = 0;
};

}  // namespace

ConcurrentPolicy::ConcurrentPolicy(int host_threads) : pool_(std::make_unique<Pool>(host_threads)) {}
ConcurrentPolicy::~ConcurrentPolicy() { pool_->pool.join(); }

std::unique_ptr<FunctionalExecutor> ConcurrentPolicy::make_executor(Target target) {
  return std::make_unique<CoreExecutor>(pool_->pool, target);
}

}  // namespace pto::detail
