// Issue: what every instruction function returns. Awaited (`co_await TLOAD(...)`) it issues and yields
// the RecordEvent, suspending only while the pipe's queue is full or the scalar pipe must wait. Not
// awaited (a plain PTO kernel's `TLOAD(...);`) it issues when the full-expression ends, advancing the
// model in place if it must wait: the same record, the same pipes, in program order either way.
#pragma once
#include <coroutine>
#include <exception>

#include <pto/runtime/core_api.hpp>
#include <pto/runtime/event.hpp>
#include <pto/runtime/record.hpp>

namespace pto::detail {

class Issue {
public:
  Issue(Core& core, const InstrRecord& rec) : core_(&core), rec_(rec), unwinding_(std::uncaught_exceptions()) {}
  Issue(const Issue&) = delete;
  Issue& operator=(const Issue&) = delete;

  bool await_ready() {
    done_ = true;
    return try_issue(*core_, rec_, event_);
  }
  void await_suspend(std::coroutine_handle<> k) { park(*core_, rec_, event_, k); }
  RecordEvent await_resume() const noexcept { return event_; }

  // Plain kernels: `RecordEvent e = TLOAD(...);`
  operator RecordEvent() && { return finish(); }  // NOLINT: mirrors PTO's RecordEvent return type

  RecordEvent finish() {
    if (!done_) {
      done_ = true;
      event_ = issue_blocking(*core_, rec_);
    }
    return event_;
  }

  // Not awaited and not converted: issue now. Skipped while an exception unwinds (the kernel is failing).
  ~Issue() noexcept(false) {
    if (!done_ && std::uncaught_exceptions() == unwinding_) finish();
  }

private:
  Core* core_;
  InstrRecord rec_;
  RecordEvent event_{};
  int unwinding_;
  bool done_ = false;
};

inline RecordEvent resolve(Issue&& issue) { return issue.finish(); }

}  // namespace pto::detail
