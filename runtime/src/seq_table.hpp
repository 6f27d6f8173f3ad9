// A small table keyed by instruction seq: (seq, value) pairs sorted by seq. The model pins the end
// times of old events, the sync checker their clocks; both look them up here.
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace pto::detail {

template <class V>
using SeqTable = std::vector<std::pair<std::uint64_t, V>>;

// The entry for `seq`, or null.
template <class V>
const std::pair<std::uint64_t, V>* find_seq(const SeqTable<V>& t, std::uint64_t seq) {
  const auto it = std::lower_bound(t.begin(), t.end(), seq, [](const auto& e, std::uint64_t s) { return e.first < s; });
  return it != t.end() && it->first == seq ? &*it : nullptr;
}

}  // namespace pto::detail
