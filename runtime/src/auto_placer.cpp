#include "auto_placer.hpp"

#include <algorithm>
#include <sstream>
#include <utility>
#include <vector>

#include <pto/isa/error.hpp>

namespace pto::detail {

namespace {
constexpr std::size_t kAlign = 32;
std::size_t align_up(std::size_t v) { return (v + kAlign - 1) / kAlign * kAlign; }
}  // namespace

std::size_t AutoPlacer::first_fit(std::size_t bytes, std::size_t& largest) const {
  // Busy intervals in address order: placements and TASSIGNed bytes.
  std::vector<std::pair<std::size_t, std::size_t>> busy;
  busy.reserve(live_.size() + reserved_.size());
  for (const auto& [off, l] : live_) busy.emplace_back(off, off + l.bytes);
  for (const auto& [lo, hi] : reserved_) busy.emplace_back(lo, hi);
  std::sort(busy.begin(), busy.end());
  std::size_t at = 0;
  largest = 0;
  for (const auto& [lo, hi] : busy) {
    if (lo >= at && lo - at >= bytes) break;
    if (lo > at) largest = std::max(largest, lo - at);
    at = std::max(at, align_up(hi));
  }
  if (at + bytes <= capacity_) return at;
  if (capacity_ > at) largest = std::max(largest, capacity_ - at);
  return capacity_;
}

std::size_t AutoPlacer::place(std::size_t bytes, const TileView& tile, const char* instruction, const char* operand) {
  std::size_t largest = 0;
  std::size_t at = first_fit(bytes, largest);
  if (at == capacity_ && std::any_of(live_.begin(), live_.end(), [](const auto& p) { return p.second.dead; })) {
    std::erase_if(live_, [](const auto& p) { return p.second.dead; });  // take the dead tiles' bytes back
    at = first_fit(bytes, largest);
  }
  if (at != capacity_ || bytes == 0) {
    live_.emplace(at, Live{bytes, 1, tile});
    return at;
  }
  std::ostringstream os;
  os << instruction << ": operand " << operand << ' ' << tile << " (" << bytes << " bytes): auto mode finds no room in "
     << where_ << ": " << live_.size() << " live tile(s) hold " << live_bytes() << " bytes";
  if (!reserved_.empty()) os << " and TASSIGNed tiles hold the rest they cover";
  os << " (largest free block " << largest << " bytes)";
  if (live_.empty()) {  // nothing to free: the tile alone is too big
    os << ". The tile alone is larger than all of it: make it smaller";
    fail(os.str());
  }
  os << ". Live tiles:";
  std::size_t shown = 0;
  for (const auto& [off, l] : live_) {
    if (shown++ == 16) {
      os << " ...";
      break;
    }
    os << (shown > 1 ? "," : "") << ' ' << l.tile << " (" << l.bytes << " bytes at 0x" << std::hex << off << std::dec << ')';
  }
  os << ". Let tiles die sooner (declare each in the scope that uses it) or make them smaller";
  fail(os.str());
}

// The placement holding `offset`: a view (TRESHAPE, TSUBVIEW) may point inside it, not at its start.
std::map<std::size_t, AutoPlacer::Live>::iterator AutoPlacer::holding(std::size_t offset) {
  auto it = live_.upper_bound(offset);
  if (it == live_.begin()) return live_.end();
  --it;
  return offset < it->first + it->second.bytes ? it : live_.end();
}

void AutoPlacer::retain(std::size_t offset) {
  if (auto it = holding(offset); it != live_.end()) ++it->second.refs, it->second.dead = false;
}

void AutoPlacer::release(std::size_t offset) {
  if (auto it = holding(offset); it != live_.end() && --it->second.refs == 0) live_.erase(it);
}

void AutoPlacer::retire(std::size_t offset) {
  if (auto it = holding(offset); it != live_.end() && --it->second.refs == 0) it->second.dead = true;
}

void AutoPlacer::reserve(std::size_t offset, std::size_t bytes) {
  std::size_t lo = offset, hi = offset + bytes;
  auto it = reserved_.upper_bound(lo);
  if (it != reserved_.begin() && std::prev(it)->second >= lo) --it;
  while (it != reserved_.end() && it->first <= hi) {
    lo = std::min(lo, it->first);
    hi = std::max(hi, it->second);
    it = reserved_.erase(it);
  }
  reserved_.emplace(lo, hi);
}

std::size_t AutoPlacer::live_bytes() const {
  std::size_t n = 0;
  for (const auto& [off, l] : live_) n += l.bytes;
  return n;
}

}  // namespace pto::detail
