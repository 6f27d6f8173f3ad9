// Issue: what every instruction function returns. Awaited (`co_await TLOAD(...)`) it issues and yields
// the RecordEvent, suspending only while the pipe's queue is full or the scalar pipe must wait. Not
// awaited (a plain PTO kernel's `TLOAD(...);`) it issues when the full-expression ends, advancing the
// model in place if it must wait: the same record, the same pipes, in program order either way.
#pragma once
#include <coroutine>
#include <exception>

#include <pto/isa/error.hpp>
#include <pto/runtime/core_api.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/record.hpp>

namespace pto::detail {

// An instruction must issue in program order: at its co_await, at the end of its full-expression,
// or when a later instruction waits on it (`auto e = TLOAD(...); TADDS(b, a, 1.0f, e);`). An Issue
// kept in an `auto` variable that would issue after later instructions is an error, not a reordering.
[[noreturn]] void issued_out_of_order(const InstrRecord& rec, std::uint64_t later);

class Issue {
public:
  Issue(Core& core, const InstrRecord& rec)
      : core_(&core), rec_(rec), created_at_(core_issued(core)), unwinding_(std::uncaught_exceptions()) {}
  Issue(const Issue&) = delete;
  Issue& operator=(const Issue&) = delete;

  bool await_ready() {
    in_order();
    done_ = true;
    return try_issue(*core_, rec_, event_);
  }
  void await_suspend(std::coroutine_handle<> k) { park(*core_, rec_, event_, k); }
  RecordEvent await_resume() const noexcept { return event_; }

  // Plain kernels: `RecordEvent e = TLOAD(...);`
  operator RecordEvent() && { return finish(); }  // NOLINT: mirrors PTO's RecordEvent return type

  RecordEvent finish() {
    if (!done_) {
      in_order();
      done_ = true;
      event_ = issue_blocking(*core_, rec_);
    }
    return event_;
  }

  // Composite instructions (TPUSH, TPOP): the record, which the caller issues in its IssueSequence.
  InstrRecord take() {
    in_order();
    done_ = true;
    return rec_;
  }

  // Not awaited and not converted: issue now. Skipped while an exception unwinds (the kernel is failing).
  ~Issue() noexcept(false) {
    if (!done_ && std::uncaught_exceptions() == unwinding_) finish();
  }

private:
  void in_order() {
    if (const std::uint64_t now = core_issued(*core_); now != created_at_) {
      done_ = true;  // reported once; the destructor does not issue it again
      issued_out_of_order(rec_, now - created_at_);
    }
  }

  Core* core_;
  InstrRecord rec_;
  RecordEvent event_{};
  std::uint64_t created_at_;  // the core's issue count when the instruction was written
  int unwinding_;
  bool done_ = false;
};

inline RecordEvent resolve(Issue&& issue) { return issue.finish(); }

// A composite instruction (TPUSH: wait for a free slot, TSTORE, signal; TPOP: wait, TLOAD, free): its
// records issue in order, like one Issue. Only the first may wait for other cores (a coroutine kernel
// suspends there, at its co_await); the rest issue after it, waiting in place only for this core's own
// pipes. The RecordEvent is that of the record marked `result` (the data movement), else none.
class IssueSequence {
public:
  static constexpr int kMax = 4;
  explicit IssueSequence(Core& core)
      : core_(&core), created_at_(core_issued(core)), unwinding_(std::uncaught_exceptions()) {}
  // Built by `build(*this)` (adds its records), so a function can return the sequence it made.
  template <class F>
  IssueSequence(Core& core, F&& build) : IssueSequence(core) {
    build(*this);
  }
  IssueSequence(const IssueSequence&) = delete;
  IssueSequence& operator=(const IssueSequence&) = delete;

  void add(const InstrRecord& rec, bool result = false) {
    if (n_ == kMax || (n_ > 0 && rec.kind == RecordKind::CrossWait))
      fail("IssueSequence: internal error: more than ", kMax, " records, or a cross-core wait after the first");
    recs_[n_] = rec;
    if (result) result_ = n_;
    ++n_;
  }

  // The first record issues here or, parked, by the core's driver; await_resume (called either way)
  // issues the rest.
  bool await_ready() {
    start();
    return n_ == 0 || try_issue(*core_, recs_[0], events_[0]);
  }
  void await_suspend(std::coroutine_handle<> k) { park(*core_, recs_[0], events_[0], k); }
  RecordEvent await_resume() {
    rest();
    return result();
  }
  operator RecordEvent() && { return finish(); }  // NOLINT: mirrors PTO's RecordEvent return type
  RecordEvent finish() {
    if (!done_) {
      start();
      if (n_) events_[0] = issue_blocking(*core_, recs_[0]);
      rest();
    }
    return result();
  }
  ~IssueSequence() noexcept(false) {
    if (!done_ && std::uncaught_exceptions() == unwinding_) finish();
  }

private:
  void start() {
    done_ = true;
    if (const std::uint64_t now = core_issued(*core_); now != created_at_ && n_) issued_out_of_order(recs_[0], now - created_at_);
  }
  void rest() {
    for (int i = 1; i < n_; ++i) events_[i] = issue_blocking(*core_, recs_[i]);
  }
  RecordEvent result() const { return result_ >= 0 ? events_[result_] : RecordEvent{}; }

  Core* core_;
  InstrRecord recs_[kMax];
  RecordEvent events_[kMax]{};
  int n_ = 0, result_ = -1;
  std::uint64_t created_at_;
  int unwinding_;
  bool done_ = false;
};

// An instruction not yet issued, used as a wait event, issues first (its own program position).
inline RecordEvent event_of(const Issue& i) { return const_cast<Issue&>(i).finish(); }

}  // namespace pto::detail
