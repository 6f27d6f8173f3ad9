// The event core's queues: a pipe's in-order queue of slots, the flag channels' tokens (core.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include <pto/backends/registry.hpp>
#include <pto/runtime/observer.hpp>
#include <pto/runtime/record.hpp>

#include "cost_model.hpp"
#include "fifo.hpp"

namespace pto::detail {

struct ScalarStall {  // the scalar pipe's latest stall: [from, to) and why
  std::uint64_t from = 0, to = 0;
  IdleCause why;
};
struct Slot {
  InstrRecord rec;
  std::uint64_t seq = 0;
  std::uint64_t issue_time = 0, start = 0, end = 0;
  bool running = false;
  bool snapshotted = false;  // inputs saved (snapshot, or the kernel's own start/staging ran)
  const BackendKernel* kernel = nullptr;
  std::unique_ptr<Staging> staging;  // what `start` captured (from the core's pool)
  std::vector<std::byte> snapshot;  // start-time bytes of the reads, taken when someone overwrote them
  std::uint64_t token_from = 0;     // wait_flag: the set_flag whose token it consumed
  ScalarStall issue_stall;          // the scalar pipe's latest stall when it issued this
  std::uint64_t stall_cycles = 0;   // its pipe's idle time just before it started ...
  Stall stall = Stall::QueueEmpty;  // ... and the main cause
  std::uint32_t intrinsics = CostModel::kNoText;  // the cost model's text of its stream (timeline)
};
// A pipe's in-order queue. It never holds more than queue_depth unfinished instructions, so its
// slots are allocated once and reused (a std::deque would allocate per push: a Slot is ~0.5 KiB).
class SlotRing {
public:
  void reserve(std::size_t n) { slots_.resize(n); }
  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }
  Slot& front() { return slots_[head_]; }
  const Slot& front() const { return slots_[head_]; }
  const Slot& operator[](std::size_t i) const { return slots_[(head_ + i) % slots_.size()]; }
  Slot& push() {  // precondition: size() < capacity (Core::can_issue)
    Slot& s = slots_[(head_ + count_++) % slots_.size()];
    s.running = s.snapshotted = false;
    s.token_from = 0;
    s.stall_cycles = 0;
    s.stall = Stall::QueueEmpty;
    s.staging.reset();
    s.snapshot.clear();
    return s;
  }
  void pop_front() {
    head_ = (head_ + 1) % slots_.size();
    --count_;
  }
  void clear() { head_ = count_ = 0; }

private:
  std::vector<Slot> slots_;
  std::size_t head_ = 0, count_ = 0;
};
// Concurrent policy: an instruction the model has retired but the executor may not have run yet;
// auto-mode dependencies must still see it.
struct Unconfirmed {
  std::uint64_t seq;
  InstrRecord rec;
};
struct PipeState {
  SlotRing queue;  // front is running or next to run
  std::deque<Unconfirmed> unconfirmed;
  std::uint64_t free_at = 0;
  InstrRecord last_retired{};  // for deadlock messages; desc == nullptr and kind Compute: nothing yet
  bool retired_any = false;
};

struct Token {
  std::uint64_t time;  // modeled cycle the set_flag completed
  std::uint64_t seq;   // the set_flag instruction (the concurrent policy waits for it really to run)
};
// The pending tokens of one flag channel, oldest first.
using TokenQueue = Fifo<Token>;

}  // namespace pto::detail
