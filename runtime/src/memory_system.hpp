// MemorySystem: the GM side every core of a launch shares (CostTable::memory_system): an L2 of lines
// (LRU, write-allocate) in front of HBM, whose bandwidth the transfers in flight share in time.
//
// A GM transfer starting at launch cycle t is priced once, at its start: the bytes L2 holds move at the
// core's DMA line; the bytes it misses (and every byte written: write-through to HBM) at
// min(line, HBM / k), k the transfers using HBM in flight at t (started at or before t, ending after it,
// itself included, and those of other cores waiting to start at t too). A later transfer sees it and
// slows down; it is not re-priced. The launch's scheduler runs the cores in step (LaunchScheduler::
// await_turn) so that a transfer is priced after every other core's transfers that start before it,
// and with one host thread, so the figures never depend on the host.
#pragma once
#include <cstdint>
#include <list>
#include <unordered_map>
#include <vector>

#include <pto/runtime/cost_table.hpp>
#include <pto/runtime/record.hpp>

#include "gm_allocations.hpp"

namespace pto::detail {

class MemorySystem {
public:
  // `sized` and `raw`: the launch's GM arguments, sized and raw pointers (L2 lines are placed relative to
  // the argument a byte belongs to: the chip's allocator aligns every buffer, the host's does not).
  MemorySystem(const CostTable& t, const GmAllocations& sized, std::vector<GmAllocation> raw);
  // Whether `cores` cores of table `t` can ever ask HBM for more than it gives: each core at most its
  // fastest GM read line plus every GM write line at once. When they cannot, every transfer gets its
  // line whatever the others do, so the launch skips the memory system (and its lockstep): the same
  // figures, exactly, on the host threads it asked for.
  static bool can_contend(const CostTable& t, int cores);
  // The cycles of `rec`, a GM transfer starting at launch cycle `t` whose line alone prices it at
  // `line_cycles` (setup included) moving `gm_bytes` at `line_rate` bytes per cycle; `others_at_t`:
  // transfers of other cores waiting to start at t (not yet priced). Records the transfer.
  std::uint64_t price(const InstrRecord& rec, std::uint64_t t, std::uint64_t line_cycles, std::uint64_t gm_bytes,
                      double line_rate, int others_at_t);
  // What the launch's transfers did (LaunchReport::Memory's fields).
  struct Stats {
    std::uint64_t read_bytes = 0, written_bytes = 0, l2_hit_bytes = 0, hbm_bytes = 0, transfers = 0, shared_transfers = 0;
  };
  const Stats& stats() const { return stats_; }

private:
  // The GM bytes `rec` touches as [begin, end) address ranges (one per contiguous run of its view).
  void ranges_of(const InstrRecord& rec, std::vector<std::pair<std::uintptr_t, std::uintptr_t>>& out) const;
  // Where L2 sees byte `a`: its offset in the argument holding it (the smallest sized one, else the raw
  // pointer argument at or below it nearest), tagged with the argument; else its address (a buffer the
  // kernel owns).
  std::uintptr_t placed(std::uintptr_t a) const;
  // Bytes of [b, e) L2 holds; the lines it touches become the most recently used.
  std::uint64_t touch(std::uintptr_t b, std::uintptr_t e);
  int in_flight(std::uint64_t t);  // HBM transfers in flight at t (those ended by t are dropped)

  const GmAllocations& sized_;
  std::vector<GmAllocation> raw_;
  double hbm_rate_;  // bytes per cycle
  std::uint64_t line_, capacity_lines_;
  std::list<std::uintptr_t> lru_;  // most recent first
  struct Line {
    std::list<std::uintptr_t>::iterator at;
    std::uint64_t by;  // the transfer that brought it (its own later bytes in that line are no hit)
  };
  std::unordered_map<std::uintptr_t, Line> resident_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> flight_;  // HBM transfers: [start, end)
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> scratch_;
  Stats stats_;
};

}  // namespace pto::detail
