// Modeled cycles of one instruction: DMA from the target's transfer lines (with the launch's share of
// the aggregate GM bandwidth), vector instructions from their intrinsic stream (intrinsic_plan.hpp)
// priced by the target's CostTable.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include <pto/runtime/cost_table.hpp>
#include <pto/runtime/record.hpp>

#include "intrinsic_plan.hpp"

namespace pto::detail {

class CostModel {
public:
  // `device`: price vector instructions by running their device code path's algorithm (A2A3, A5).
  CostModel(const CostTable& table, int cores, bool device = false, Target target = Target::A2A3);
  void set_ub(std::byte* ub, std::size_t bytes) {
    ub_ = ub;
    ub_bytes_ = bytes;
  }
  const CostTable& table() const { return table_; }
  std::uint64_t cycles(const InstrRecord& rec);  // 0 for sync records
  // Cycles of an intrinsic stream on this table's machine.
  std::uint64_t stream_cycles(const IntrinsicStream& s) const;

private:
  std::uint64_t dma_cycles(const DmaCost& path, std::uint64_t bytes, bool gm) const;  // gm: shares the aggregate cap
  const CostTable& table_;
  double gm_share_;  // bytes per cycle one core's GM transfer may use
  IntrinsicStream stream_;
  // Device-path cycles by the operands' geometry and addresses (a kernel issues the same few forms
  // over and over; the same key always yields the same stream, and the same errors).
  struct KeyHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view k) const { return std::hash<std::string_view>{}(k); }
  };
  std::unordered_map<std::string, std::uint64_t, KeyHash, std::equal_to<>> device_cycles_;
  std::string key_;
  bool device_ = false;
  Target target_ = Target::A2A3;
  std::byte* ub_ = nullptr;
  std::size_t ub_bytes_ = 0;
};

}  // namespace pto::detail
