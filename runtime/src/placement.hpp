// Placement: where a core's tiles live, and the rules about it that are not the pipes' business.
//  - auto mode places tiles the kernel never TASSIGNed, first fit per buffer, away from bytes the kernel
//    TASSIGNed itself (AutoPlacer: auto_placer.hpp);
//  - on A2/A3 some instructions use UB [184 KiB, 192 KiB) as scratch: a kernel that also places a tile
//    there is an error (whichever comes second names the first).
// The core asks it at TASSIGN and at an auto-placed tile's first use; it owns no pipe state.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <pto/isa/enums.hpp>
#include <pto/isa/views.hpp>

#include "auto_placer.hpp"
#include "buffer_set.hpp"

namespace pto::detail {

class Placement {
public:
  // `synchronous`: the implicit core of direct calls, which has no kernel boundary (no scratch rules).
  Placement(BufferSet& buffers, Target target, Mode mode, bool synchronous)
      : buffers_(buffers), target_(target), mode_(mode), synchronous_(synchronous) {}

  // Auto mode: bytes for `tile` in loc's buffer (a pto::Error naming the live tiles when none fit).
  std::byte* auto_place(TileType loc, std::size_t bytes, const TileView& tile, const char* instruction, const char* operand);
  void retain(const std::byte* addr);   // TileHooks: a copy of an auto-placed tile
  void release(const std::byte* addr);  // ... one of them died
  void retire(const std::byte* addr);   // PTO IR: the last value holding it died (AutoPlacer::retire)
  // A TASSIGN of `bytes` at `offset` of loc's buffer: auto mode keeps out of it; A2/A3 scratch rules.
  void note_tassign(TileType loc, std::uint64_t offset, std::uint64_t bytes, const std::string& tile);
  void claim_a2a3_scratch(const char* instruction);

private:
  BufferSet& buffers_;
  Target target_;
  Mode mode_;
  bool synchronous_;
  // Tiles the kernel never TASSIGNed, per buffer (a placer is made when first needed); and the TASSIGNed
  // ranges of a buffer before its first placement.
  std::array<std::unique_ptr<AutoPlacer>, std::size_t(TileType::Ctrl)> placers_;
  struct Assigned {
    TileType loc;
    std::uint64_t lo, hi;
  };
  std::vector<Assigned> tassigned_;
  std::string scratch_tile_;            // first tile TASSIGNed over the A2/A3 scratch, if any
  const char* scratch_user_ = nullptr;  // first instruction that used the scratch, if any
};

}  // namespace pto::detail
