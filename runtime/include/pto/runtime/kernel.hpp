// pto::Kernel: the return type of a co_await-style kernel. The coroutine starts suspended; the core's
// driver resumes it, and it runs until it ends or must wait on the scalar pipe (cppcoro habits:
// symmetric transfer at the end, nothing ever resumes itself).
#pragma once
#include <coroutine>
#include <exception>
#include <utility>

namespace pto {

namespace detail {
void kernel_fails() noexcept;
}  // namespace detail

class [[nodiscard("a pto::Kernel does nothing until pto::launch runs it")]] Kernel {
public:
  struct promise_type {
    std::exception_ptr error;
    std::coroutine_handle<> continuation;  // the awaiting kernel when nested, else none

    Kernel get_return_object() { return Kernel(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct FinalAwaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> self) noexcept {
        auto next = self.promise().continuation;
        return next ? next : std::noop_coroutine();  // a jump, not a call
      }
      void await_resume() const noexcept {}
    };
    FinalAwaiter final_suspend() noexcept { return {}; }
    // Nothing to do here: flowing off the end destroys the body's locals before return_void runs, so
    // the core drains after the body (a kernel that stores into its own locals ends with a barrier).
    void return_void() noexcept {}
    void unhandled_exception() noexcept {  // stop host executors early; the launch reports the error
      error = std::current_exception();
      if (!continuation) detail::kernel_fails();
    }
  };
  using Handle = std::coroutine_handle<promise_type>;

  Kernel(Kernel&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  Kernel& operator=(Kernel&& o) noexcept {
    if (this != &o) {
      if (h_) h_.destroy();
      h_ = std::exchange(o.h_, {});
    }
    return *this;
  }
  ~Kernel() {
    if (h_) h_.destroy();
  }

  // `co_await helper(...)` inside a kernel runs a nested kernel coroutine on the same core.
  bool await_ready() const noexcept { return !h_ || h_.done(); }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> parent) noexcept {
    h_.promise().continuation = parent;
    return h_;
  }
  void await_resume() const {
    if (h_ && h_.promise().error) std::rethrow_exception(h_.promise().error);
  }

  Handle release() noexcept { return std::exchange(h_, {}); }

private:
  explicit Kernel(Handle h) : h_(h) {}
  Handle h_;
};

}  // namespace pto
