// A memo keyed by byte strings (an instruction's operand geometry, say), with the last N lookups
// compared first: a kernel's loop issues the same few forms in turn, so most lookups cost a memcmp
// instead of a hash. The cost model's streams and the timeline's operand texts both use it.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace pto::detail {

template <class V, std::size_t N = 4>
class KeyCache {
public:
  explicit KeyCache(std::size_t capacity = SIZE_MAX) : capacity_(capacity) {}
  KeyCache(const KeyCache&) = delete;  // recent_ points into map_
  KeyCache& operator=(const KeyCache&) = delete;

  // The value kept for `key`, or nullptr.
  V* find(std::string_view key) {
    for (const Recent& r : recent_)
      if (r.value && r.key == key) return r.value;
    auto it = map_.find(key);
    if (it == map_.end()) return nullptr;
    remember(it);
    return &it->second;
  }
  // Keeps key -> v (replacing what was kept); nullptr when the cache is full and v is not kept.
  V* insert(std::string_view key, V v) {
    auto it = map_.find(key);
    if (it == map_.end()) {
      if (map_.size() >= capacity_) return nullptr;
      it = map_.emplace(std::string(key), std::move(v)).first;
    } else {
      it->second = std::move(v);
    }
    remember(it);
    return &it->second;
  }
  std::size_t size() const { return map_.size(); }

private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view k) const { return std::hash<std::string_view>{}(k); }
  };
  using Map = std::unordered_map<std::string, V, Hash, std::equal_to<>>;
  struct Recent {
    std::string_view key;  // the map's own key: map nodes never move
    V* value = nullptr;
  };
  void remember(typename Map::iterator it) { recent_[next_++ % N] = {std::string_view(it->first), &it->second}; }

  Map map_;
  std::array<Recent, N> recent_{};
  unsigned next_ = 0;
  std::size_t capacity_;
};

}  // namespace pto::detail
