// The sized GM allocations of one launch (gm_arg.hpp): bounds checks of every GM operand, and names
// for GM bytes in messages. A launch has a few arguments, so a linear scan is the whole index.
#pragma once
#include <cstdint>
#include <span>
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
  // Whether one allocation holds all of [lo, hi).
  bool holds(std::uintptr_t lo, std::uintptr_t hi) const;
  // Throws pto::Error when a GM operand of `rec` starts inside an allocation and leaves it, and, when
  // `all_sized` (no raw GM pointer among the launch's arguments), when it lies in no allocation and in
  // none of `owned` (the pto::KernelGm buffers of the issuing core).
  void check(const InstrRecord& rec, bool all_sized, std::span<const GmAllocation> owned) const;
  // " (launch argument 2, bytes [0x0, 0x40) of its 4096)" for bytes inside an allocation, else "".
  std::string where(std::uintptr_t lo, std::uintptr_t hi) const;

private:
  [[noreturn]] void outside_all(const InstrRecord& rec, int op, std::uintptr_t lo, std::uintptr_t hi,
                                std::span<const GmAllocation> owned) const;
  std::vector<GmAllocation> all_;
};

}  // namespace pto::detail
