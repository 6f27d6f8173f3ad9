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
#include <pto/runtime/report.hpp>

namespace pto::detail {

class MemorySystem {
public:
  explicit MemorySystem(const CostTable& t);
  // The cycles of `rec`, a GM transfer starting at launch cycle `t` whose line alone prices it at
  // `line_cycles` (setup included) moving `gm_bytes` at `line_rate` bytes per cycle; `others_at_t`:
  // transfers of other cores waiting to start at t (not yet priced). Records the transfer.
  std::uint64_t price(const InstrRecord& rec, std::uint64_t t, std::uint64_t line_cycles, std::uint64_t gm_bytes,
                      double line_rate, int others_at_t);
  void report(LaunchReport::Memory& out) const;

private:
  // The GM bytes `rec` touches as [begin, end) address ranges (one per contiguous run of its view).
  void ranges_of(const InstrRecord& rec, std::vector<std::pair<std::uintptr_t, std::uintptr_t>>& out) const;
  // Bytes of [b, e) L2 holds; the lines it touches become the most recently used.
  std::uint64_t touch(std::uintptr_t b, std::uintptr_t e);
  int in_flight(std::uint64_t t);  // HBM transfers in flight at t (those ended by t are dropped)

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
  LaunchReport::Memory stats_;
};

}  // namespace pto::detail
