#include "placement.hpp"

#include <algorithm>
#include <sstream>

#include <pto/common/constants.hpp>
#include <pto/isa/buffers.hpp>
#include <pto/isa/error.hpp>

namespace pto::detail {

std::byte* Placement::auto_place(TileType loc, std::size_t bytes, const TileView& tile, const char* instruction,
                            const char* operand) {
  auto& placer = placers_[std::size_t(loc)];
  if (!placer) {
    // On A2A3 the top 8 KiB of UB are the scratch some instructions clobber: auto mode keeps out of it.
    std::size_t cap = buffers_.bytes(loc);
    if (loc == TileType::Vec && target_ == Target::A2A3) cap = std::min<std::size_t>(cap, TMP_UB_OFFSET);
    if (cap == 0)
      fail(instruction, ": operand ", operand, ' ', tile, ": ", name_of(loc), " tiles have no buffer on ",
           name_of(target_));
    std::ostringstream where;
    where << "the " << cap / 1024 << " KiB of " << memory_name(memory_of(loc)) << " auto mode may use on "
          << name_of(target_);
    placer = std::make_unique<AutoPlacer>(cap, where.str());
    for (const Assigned& a : tassigned_)
      if (a.loc == loc) placer->reserve(a.lo, a.hi - a.lo);
  }
  return buffers_.base(loc) + placer->place(bytes, tile, instruction, operand);
}
// A placement's buffer, from its address (the hooks see only the address).
void Placement::retain(const std::byte* addr) {
  const BufferSet::Place at = buffers_.locate(addr);
  for (std::size_t i = 0; i < placers_.size(); ++i)
    if (placers_[i] && memory_of(TileType(i)) == at.memory) placers_[i]->retain(at.offset);
}
void Placement::release(const std::byte* addr) {
  const BufferSet::Place at = buffers_.locate(addr);
  for (std::size_t i = 0; i < placers_.size(); ++i)
    if (placers_[i] && memory_of(TileType(i)) == at.memory) placers_[i]->release(at.offset);
}
void Placement::retire(const std::byte* addr) {
  const BufferSet::Place at = buffers_.locate(addr);
  for (std::size_t i = 0; i < placers_.size(); ++i)
    if (placers_[i] && memory_of(TileType(i)) == at.memory) placers_[i]->retire(at.offset);
}

// ---------------------------------------------------------------------------------------------------
// The A2/A3 implicit scratch: UB [TMP_UB_OFFSET, TMP_UB_OFFSET + TMP_UB_SIZE).

// The implicit core of direct calls has no kernel boundary, so it checks only the claiming
// instruction's own operands (in broadcast.hpp), not tiles of earlier calls.
void Placement::note_tassign(TileType loc, std::uint64_t offset, std::uint64_t bytes, const std::string& tile) {
  if (mode_ == Mode::Auto) {  // auto placements keep out of bytes the kernel placed itself
    if (auto& placer = placers_[std::size_t(loc)]) placer->reserve(offset, bytes);
    else if (tassigned_.size() < 4096) tassigned_.push_back({loc, offset, offset + bytes});
  }
  if (loc != TileType::Vec || synchronous_ || target_ != Target::A2A3 || offset + bytes <= TMP_UB_OFFSET || offset >= TMP_UB_OFFSET + TMP_UB_SIZE) return;
  if (scratch_user_)
    fail("TASSIGN: operand tile ", tile, " overlaps UB [184 KiB, 192 KiB), which ", scratch_user_,
         " (3-argument form, ColMajor expand operand) uses as scratch on A2A3 in this kernel; place the tile below "
         "184 KiB or give that instruction a tmp tile");
  if (scratch_tile_.empty()) scratch_tile_ = tile;
}

void Placement::claim_a2a3_scratch(const char* instruction) {
  if (synchronous_) return;
  if (!scratch_tile_.empty())
    fail(instruction, ": the 3-argument form with a ColMajor expand operand uses UB [184 KiB, 192 KiB) as scratch on "
         "A2A3, but tile ", scratch_tile_, " was placed there in this kernel and would be overwritten; place that tile "
         "below 184 KiB or pass a tmp tile (4-argument form)");
  if (!scratch_user_) scratch_user_ = instruction;
}

}  // namespace pto::detail
