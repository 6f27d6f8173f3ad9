// Reads of on-chip bytes that nothing wrote. The chip's UB, L1, L0A/B and accumulator hold whatever the
// previous kernel left there, so an accumulator TMATMUL_ACC adds into before any TMATMUL, or a tile read
// before its TLOAD, computes garbage on the NPU; here the buffers start zeroed (as on pto-isa's CPU
// simulator), which hides it. Checked in issue order (what program order wrote before the read), with
// the same byte spans the race checker uses, so the verdict does not depend on timing or policy.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include <pto/runtime/record.hpp>
#include <pto/runtime/sync_check.hpp>

#include "buffer_set.hpp"

namespace pto::detail {

// Disjoint [lo, hi) spans, touching ones merged.
class ByteSpans {
public:
  void add(std::uintptr_t lo, std::uintptr_t hi);
  void remove(std::uintptr_t lo, std::uintptr_t hi);
  // Calls f(a, b) for each maximal part [a, b) of [lo, hi) that no span covers, in address order.
  template <class F> void for_each_gap(std::uintptr_t lo, std::uintptr_t hi, F&& f) const {
    std::uintptr_t at = lo;  // bytes below `at` are accounted for
    auto it = spans_.upper_bound(lo);
    if (it != spans_.begin()) --it;
    for (; it != spans_.end() && it->first < hi; ++it) {
      if (it->second <= at) continue;
      if (it->first > at) f(at, std::min(it->first, hi));
      at = std::max(at, it->second);
    }
    if (at < hi) f(at, hi);
  }
  struct Gap {  // unwritten bytes of a read: the first, the last + 1, and how many
    std::uintptr_t lo = 0, hi = 0, bytes = 0;
  };
  std::size_t size() const { return spans_.size(); }

private:
  std::map<std::uintptr_t, std::uintptr_t> spans_;  // lo -> hi
};

class UnwrittenReads {
public:
  using Describe = std::function<std::string(const InstrRecord&)>;
  using Report = std::function<void(SyncFinding)>;
  UnwrittenReads(int block, const BufferSet& buffers, Describe describe, Report report)
      : block_(block), buffers_(buffers), describe_(std::move(describe)), report_(std::move(report)) {}

  // A compute instruction is issued: its tile reads are checked against what earlier ones wrote, then
  // its writes count. A read is reported once: its bytes count as written afterwards.
  void issued(const InstrRecord& rec, std::uint64_t seq);
  // The kernel touched [p, p + n) through a tile's data() (GetValue / SetValue / a raw pointer): it may
  // have written there, so those bytes count as written (the check never guesses a finding).
  void host_access(const std::byte* p, std::size_t n);
  // Auto mode placed a tile there: the bytes are a new tile's, whatever earlier tiles wrote.
  void placed(const std::byte* p, std::size_t n);

private:
  void check_read(const InstrRecord& rec, std::uint64_t seq, int op);

  int block_;
  const BufferSet& buffers_;
  Describe describe_;
  Report report_;
  ByteSpans written_;
  const std::byte* last_host_ = nullptr;  // the last host_access (SetValue in a loop repeats it)
  std::size_t last_host_bytes_ = 0;
};

}  // namespace pto::detail
