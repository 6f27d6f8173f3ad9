// Modeled cycles of one instruction, by its descriptor's CostClass: a transfer from the target's line
// for its (source, destination) memories (with the launch's share of the aggregate GM bandwidth), a
// stream instruction from the intrinsic stream its device algorithm records (through the backend
// registry) priced by the target's CostTable.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include <pto/runtime/cost_table.hpp>
#include <pto/runtime/record.hpp>

#include "key_cache.hpp"


namespace pto::detail {

// The model's clock runs to 2^62 cycles (Core::step orders events by time * 2 + phase); a cost or an
// end past it is an error.
inline constexpr std::uint64_t kModelTimeLimit = std::uint64_t(1) << 62;

class CostModel {
public:
  // Vector instructions are priced by a recording run of their target's device algorithm (the planner
  // where none covers the operands), whichever backend computes the data. `chip_errors`: the device
  // path computes the data, so a form the chip's algorithm rejects is an error (else it is planned).
  CostModel(const CostTable& table, int cores, Target target = Target::A2A3, bool chip_errors = true);
  CostModel(const CostModel&) = delete;
  CostModel& operator=(const CostModel&) = delete;
  void set_ub(std::byte* ub, std::size_t bytes) {
    ub_ = ub;
    ub_bytes_ = bytes;
  }
  const CostTable& table() const { return table_; }
  // 0 for sync records. With `text`, a vector instruction's intrinsic stream as text (describe()) is
  // kept and *text set to its index for stream_text(); other instructions set kNoText.
  std::uint64_t cycles(const InstrRecord& rec, std::uint32_t* text = nullptr);
  static constexpr std::uint32_t kNoText = ~0u;
  const std::string& stream_text(std::uint32_t id) const { return texts_[id]; }
  // Cycles of an intrinsic stream on this table's machine.
  std::uint64_t stream_cycles(const IntrinsicStream& s, const char* instruction = "an intrinsic stream") const;
  // Bytes the transfers of the last cycles() call moved, and how many of them crossed GM.
  std::uint64_t moved_bytes() const { return moved_bytes_; }
  std::uint64_t moved_gm_bytes() const { return moved_gm_bytes_; }
  // The line rate (bytes per cycle) the last cycles() call's GM transfer moved at (the memory system
  // prices what HBM serves from it).
  double gm_line_rate() const { return gm_line_rate_; }

private:
  std::uint64_t transfer_cycles(const InstrRecord& rec) const;  // a CostClass::Transfer, GmIndexed, Prefetch or PadZeros instruction
  std::uint64_t mad_cycles(const InstrRecord& rec) const;       // a CostClass::Cube instruction
  std::uint64_t gm_indexed_cycles(const InstrRecord& rec) const;  // MGATHER / MSCATTER: their walk per target
  // gm: shares the aggregate cap. `instruction` names it in an error.
  std::uint64_t dma_cycles(const DmaCost& path, std::uint64_t bytes, bool gm, const char* instruction, std::uint64_t calls = 1) const;
  const CostTable& table_;
  mutable std::uint64_t moved_bytes_ = 0, moved_gm_bytes_ = 0;  // by the last cycles() call's transfers
  mutable double gm_line_rate_ = 0;
  double gm_share_;  // bytes per cycle one core's GM transfer may use
  IntrinsicStream stream_;
  // Vector-instruction cycles by the operands' geometry and addresses (a kernel issues the same few
  // forms over and over; the same key always yields the same stream, and the same errors).
  struct Memo {
    std::uint64_t cycles;
    std::uint32_t text;  // kNoText until someone asked for it
  };
  KeyCache<Memo> memo_{4096};  // key: a VectorKey's bytes
  struct VectorKey {
    std::uint64_t scalar;
    std::int32_t op, variant, nops, unused;
    struct Operand {
      const std::byte* base;
      std::int32_t geometry[8];  // dtype, rows, cols, valid rows and columns, strides, row-major | static valid rows, cols
    } ops[kMaxOperands];
  };
  static_assert(std::has_unique_object_representations_v<VectorKey>, "VectorKey: no padding (its bytes are the key)");
  std::vector<std::string> texts_;  // distinct stream texts
  std::unordered_map<std::string, std::uint32_t> text_ids_;
  std::uint32_t text_of(const IntrinsicStream& s);
  Target target_ = Target::A2A3;
  bool chip_errors_ = true;
  std::byte* ub_ = nullptr;
  std::size_t ub_bytes_ = 0;
};

}  // namespace pto::detail
