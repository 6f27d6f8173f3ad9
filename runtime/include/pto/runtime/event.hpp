// RecordEvent and Event<SrcOp, DstOp>: PTO's way to order two instructions (spec §1.7).
// A RecordEvent names the instruction that returned it; waiting on it means "start after it ends".
#pragma once
#include <cstdint>

#include <pto/isa/op.hpp>

namespace pto {

struct RecordEvent {
  std::uint64_t core = 0;  // run id of the core that issued it (0: no instruction, waiting is a no-op)
  std::uint64_t seq = 0;   // that core's issue sequence number (1-based)
  constexpr bool valid() const { return seq != 0; }
};

namespace detail {
class Issue;
RecordEvent resolve(Issue&& issue);
}  // namespace detail

// Event<SrcOp, DstOp>: assignable from the RecordEvent of an instruction on SrcOp's pipe; passed to an
// instruction on DstOp's pipe it orders the two, as the hardware's set_flag/wait_flag pair would.
// The token id (AutoToken / EventID) has no effect on ordering here; it is kept for source compatibility.
template <Op SrcOp, Op DstOp, bool AutoToken = true, int EventID = 0>
struct Event {
  static constexpr Op src_op = SrcOp;
  static constexpr Op dst_op = DstOp;
  RecordEvent record{};

  Event() = default;
  Event(RecordEvent e) : record(e) {}  // NOLINT: PTO assigns RecordEvents to Events implicitly
  Event(detail::Issue&& i) : record(detail::resolve(static_cast<detail::Issue&&>(i))) {}  // NOLINT
  Event& operator=(RecordEvent e) {
    record = e;
    return *this;
  }
  Event& operator=(detail::Issue&& i) {
    record = detail::resolve(static_cast<detail::Issue&&>(i));
    return *this;
  }
  void Record() {}  // the RecordEvent already carries the ordering
  void Init() {}
};

namespace detail {
inline RecordEvent event_of(const RecordEvent& e) { return e; }
template <Op S, Op D, bool A, int I> RecordEvent event_of(const Event<S, D, A, I>& e) { return e.record; }
template <class T> concept WaitEvent = requires(const T& t) { { event_of(t) } -> std::same_as<RecordEvent>; };
}  // namespace detail

}  // namespace pto
