// The intrinsic stream a vector instruction issues on a target, derived from the target's algorithm
// (spec §3.2-3.9) and the operands' shapes: which intrinsics, in which mask mode, how many repeats
// (A2/A3) or loop iterations (A5). The pipeline model prices the stream with the target's CostTable.
#pragma once
#include <vector>

#include <pto/runtime/cost_table.hpp>
#include <pto/runtime/record.hpp>

namespace pto::detail {

class IntrinsicStream {
public:
  void clear() {
    calls_.clear();
    barrier_ = false;
  }
  // Appends a call; one identical to the previous (and not behind a barrier) only bumps its count.
  void add(IntrinsicCall c) {
    c.barrier_before = barrier_;
    barrier_ = false;
    if (!calls_.empty()) {
      IntrinsicCall& p = calls_.back();
      if (!c.barrier_before && p.op == c.op && p.count_mode == c.count_mode && p.lanes == c.lanes &&
          p.repeats == c.repeats && p.bytes == c.bytes) {
        p.calls += c.calls;
        return;
      }
    }
    calls_.push_back(c);
  }
  void barrier() { barrier_ = !calls_.empty(); }  // pipe_barrier(PIPE_V) inside the instruction
  const std::vector<IntrinsicCall>& calls() const { return calls_; }

private:
  std::vector<IntrinsicCall> calls_;
  bool barrier_ = false;
};

// The stream `rec` (a PIPE_V compute record) issues on `machine`'s algorithms.
void plan_vector(const InstrRecord& rec, VectorMachine machine, IntrinsicStream& out);

}  // namespace pto::detail
