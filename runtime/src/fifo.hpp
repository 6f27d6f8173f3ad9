// Fifo<T>: a queue kept as a vector and a read index. A std::deque allocates about 600 bytes when it is
// constructed; a core has 512 flag channels and its checker two queues per channel, which made those
// allocations most of a launch's per-core cost (~1 M host instructions per core). A Fifo allocates on
// its first push; consumed elements are dropped when it empties or once they are most of it (a channel
// kept non-empty, as pre-armed double buffering keeps it, still frees them).
#pragma once
#include <cstddef>
#include <vector>

namespace pto::detail {

template <class T>
class Fifo {
public:
  bool empty() const { return head_ == v_.size(); }
  std::size_t size() const { return v_.size() - head_; }
  const T& front() const { return v_[head_]; }  // precondition: !empty()
  void push_back(const T& x) { v_.push_back(x); }
  void pop_front() {  // precondition: !empty()
    if (++head_ == v_.size()) {
      v_.clear();
      head_ = 0;
    } else if (head_ >= 64 && head_ * 2 >= v_.size()) {
      v_.erase(v_.begin(), v_.begin() + std::ptrdiff_t(head_));
      head_ = 0;
    }
  }
  auto begin() const { return v_.begin() + std::ptrdiff_t(head_); }
  auto end() const { return v_.end(); }

private:
  std::vector<T> v_;
  std::size_t head_ = 0;
};

}  // namespace pto::detail
