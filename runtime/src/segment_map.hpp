// Shadows of bytes kept as a map from each segment's first byte to what is known of the segment (its
// last writer and readers): the synchronisation checker's per-core shadows and the cluster checker's.
#pragma once
#include <cstdint>
#include <iterator>

namespace pto::detail {

// Makes `at` a segment boundary: the segment it cuts is split, the new part starting as a copy of it.
template <class Map>
void split_segment(Map& shadow, std::uintptr_t at) {
  auto it = shadow.upper_bound(at);
  if (it == shadow.begin()) {
    shadow.emplace(at, typename Map::mapped_type{});
    return;
  }
  auto prev = std::prev(it);
  if (prev->first != at) shadow.emplace_hint(it, at, prev->second);
}

}  // namespace pto::detail
