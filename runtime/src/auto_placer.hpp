// Auto mode's placement of tiles the kernel never TASSIGNed, as PTO's auto-mode compiler places them:
// inside the core's buffer, first fit, 32-byte aligned, away from bytes the kernel TASSIGNed itself.
// A placement lives while a Tile object holds it (copies counted), then its bytes are reused. Reuse is
// safe because auto mode orders every instruction after the earlier ones that touch the same bytes.
#pragma once
#include <cstddef>
#include <map>
#include <string>

#include <pto/isa/views.hpp>

namespace pto::detail {

class AutoPlacer {
public:
  // `capacity`: the bytes auto mode may use; `where`: how messages name that region.
  AutoPlacer(std::size_t capacity, std::string where) : capacity_(capacity), where_(std::move(where)) {}
  // The offset of a new placement of `bytes` for `tile`; throws pto::Error listing the live tiles when
  // no free block is large enough.
  std::size_t place(std::size_t bytes, const TileView& tile, const char* instruction, const char* operand);
  // A Tile object starts / stops holding the placement that contains `offset`.
  void retain(std::size_t offset);
  void release(std::size_t offset);
  // As release, but the placement's bytes are taken back only when a new tile finds no room otherwise
  // (PTO IR's dead tiles: a kernel that fits keeps the addresses it would have had without them).
  void retire(std::size_t offset);
  void reserve(std::size_t offset, std::size_t bytes);  // a TASSIGNed range: never placed over
  std::size_t live_bytes() const;

private:
  struct Live {
    std::size_t bytes;
    int refs;
    TileView tile;
    bool dead = false;  // retired: reclaimable
  };
  std::size_t capacity_;
  std::string where_;
  std::map<std::size_t, Live> live_;              // offset -> placement
  std::map<std::size_t, std::size_t> reserved_;   // offset -> end, merged

  std::map<std::size_t, Live>::iterator holding(std::size_t offset);
  // The first fit for `bytes` among the placements and TASSIGNed bytes, or capacity_ when none.
  std::size_t first_fit(std::size_t bytes, std::size_t& largest) const;
};

}  // namespace pto::detail
