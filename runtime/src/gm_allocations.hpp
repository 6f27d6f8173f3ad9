// The sized GM allocations of one launch (gm_arg.hpp): bounds checks of every GM operand, and names
// for GM bytes in messages. A launch has a few arguments, so a linear scan is the whole index.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <pto/runtime/gm_arg.hpp>
#include <pto/runtime/record.hpp>

namespace pto::detail {

class GmAllocations {
public:
  GmAllocations() = default;
  explicit GmAllocations(std::vector<GmAllocation> a) : all_(std::move(a)) {}
  bool empty() const { return all_.empty(); }
  // The smallest allocation holding byte p, or null (p is in memory a raw pointer reached).
  const GmAllocation* containing(std::uintptr_t p) const;
  // Throws pto::Error when a GM operand of `rec` starts inside an allocation and leaves it.
  void check(const InstrRecord& rec) const;
  // " (launch argument 2, bytes [0x0, 0x40) of its 4096)" for bytes inside an allocation, else "".
  std::string where(std::uintptr_t lo, std::uintptr_t hi) const;

private:
  std::vector<GmAllocation> all_;
};

}  // namespace pto::detail
