#include "memory_system.hpp"

#include <algorithm>
#include <cmath>

#include <pto/isa/views.hpp>

namespace pto::detail {

MemorySystem::MemorySystem(const CostTable& t, const GmAllocations& sized, std::vector<GmAllocation> raw)
    : sized_(sized), raw_(std::move(raw)), hbm_rate_(t.hbm_gb_per_s / t.clock_ghz), line_(std::max<std::uint32_t>(t.l2_line_bytes, 1)),
      capacity_lines_(t.l2_bytes / std::max<std::uint32_t>(t.l2_line_bytes, 1)) {
}

bool MemorySystem::can_contend(const CostTable& t, int cores) {
  if (!t.memory_system) return false;
  double read = 0, write = 0;
  for (int m = 1; m < kNumMemories; ++m) {
    read = std::max(read, t.transfer(Memory::GM, Memory(m)).bytes_per_cycle);
    write += t.transfer(Memory(m), Memory::GM).bytes_per_cycle;
  }
  return double(cores) * (read + write) > t.hbm_gb_per_s / t.clock_ghz;
}

// Every run of the view along its unit-stride dimension (the innermost when none has unit stride) is one
// range; a view of more than 2^20 runs is taken as its footprint (one range: what it spans).
void MemorySystem::ranges_of(const InstrRecord& rec, std::vector<std::pair<std::uintptr_t, std::uintptr_t>>& out) const {
  out.clear();
  for (int i = 0; i < rec.nops && i < 2; ++i) {
    if (rec.ops[i].kind != Operand::Kind::Gm) continue;
    const GmView& g = rec.ops[i].gm;
    const ByteRange whole = g.footprint();
    int inner = 4;
    for (int d = 4; d >= 0; --d)
      if (g.stride[d] == 1 && g.shape[d] > 1) {
        inner = d;
        break;
      }
    std::int64_t runs = 1;
    for (int d = 0; d < 5; ++d)
      if (d != inner) runs *= std::max<std::int64_t>(g.shape[d], 1);
    const std::size_t elem = size_of(g.dtype);
    if (runs > (std::int64_t(1) << 20) || is_packed4(g.dtype) || GmView::is_conv_output(g.layout) || g.stride[inner] != 1) {
      out.emplace_back(whole.lo, whole.hi);
      continue;
    }
    const auto base = reinterpret_cast<std::uintptr_t>(g.base);
    const std::uintptr_t run_bytes = std::uintptr_t(std::max<std::int64_t>(g.shape[inner], 1)) * elem;
    std::int64_t idx[5] = {0, 0, 0, 0, 0};
    for (std::int64_t r = 0; r < runs; ++r) {
      std::int64_t off = 0;
      for (int d = 0; d < 5; ++d) off += idx[d] * g.stride[d];
      out.emplace_back(base + std::uintptr_t(off) * elem, base + std::uintptr_t(off) * elem + run_bytes);
      for (int d = 4; d >= 0; --d) {  // the next index tuple, the inner dimension held at 0
        if (d == inner) continue;
        if (++idx[d] < g.shape[d]) break;
        idx[d] = 0;
      }
    }
  }
}

std::uintptr_t MemorySystem::placed(std::uintptr_t a) const {
  constexpr std::uintptr_t kTag = std::uintptr_t(1) << 63;  // above every host address
  if (const GmAllocation* g = sized_.containing(a)) return kTag | std::uintptr_t(g->arg) << 48 | (a - g->lo);
  const GmAllocation* base = nullptr;
  for (const GmAllocation& r : raw_)
    if (r.lo <= a && (!base || r.lo > base->lo)) base = &r;
  return base ? kTag | std::uintptr_t(base->arg) << 48 | (a - base->lo) : a;
}

std::uint64_t MemorySystem::touch(std::uintptr_t b, std::uintptr_t e) {
  if (capacity_lines_ == 0 || e <= b) return 0;
  std::uint64_t hit = 0;
  for (std::uintptr_t l = b / line_; l <= (e - 1) / line_; ++l) {
    const std::uint64_t bytes = std::min<std::uintptr_t>(e, (l + 1) * line_) - std::max<std::uintptr_t>(b, l * line_);
    const auto it = resident_.find(l);
    if (it != resident_.end()) {
      if (it->second.by != stats_.transfers) hit += bytes;
      lru_.splice(lru_.begin(), lru_, it->second.at);
      continue;
    }
    if (resident_.size() >= capacity_lines_) {  // evict the least recently used line
      resident_.erase(lru_.back());
      lru_.pop_back();
    }
    lru_.push_front(l);
    resident_.emplace(l, Line{lru_.begin(), stats_.transfers});
  }
  return hit;
}

int MemorySystem::in_flight(std::uint64_t t) {
  int k = 0;
  for (std::size_t i = 0; i < flight_.size();) {
    if (flight_[i].second <= t) {  // ended: never in flight again for a start at or after t
      flight_[i] = flight_.back();
      flight_.pop_back();
      continue;
    }
    k += flight_[i].first <= t;
    ++i;
  }
  return k;
}

std::uint64_t MemorySystem::price(const InstrRecord& rec, std::uint64_t t, std::uint64_t line_cycles, std::uint64_t gm_bytes,
                                  double line_rate, int others_at_t) {
  const bool write = rec.nops > 0 && rec.ops[0].kind == Operand::Kind::Gm;
  ++stats_.transfers;  // this transfer's number, for the lines it brings
  ranges_of(rec, scratch_);
  std::uint64_t hit = 0;
  for (const auto& [b, e] : scratch_) {
    const std::uintptr_t at = placed(b);
    hit += touch(at, at + (e - b));
  }
  hit = write ? 0 : std::min(hit, gm_bytes);  // a write goes through to HBM
  const std::uint64_t miss = gm_bytes - hit;
  (write ? stats_.written_bytes : stats_.read_bytes) += gm_bytes;
  stats_.l2_hit_bytes += hit;
  stats_.hbm_bytes += miss;
  if (miss == 0 || !(hbm_rate_ > 0) || !(line_rate > 0)) return line_cycles;
  const int k = in_flight(t) + others_at_t + 1;
  const double rate = std::min(line_rate, hbm_rate_ / double(k));
  std::uint64_t cycles = line_cycles;
  if (rate < line_rate) {
    ++stats_.shared_transfers;
    cycles += std::uint64_t(std::ceil(double(miss) / rate - double(miss) / line_rate - 1e-9));
  }
  flight_.emplace_back(t, t + std::max<std::uint64_t>(cycles, 1));
  return cycles;
}


}  // namespace pto::detail
