// On-chip buffer capacities and fixed constants per target (spec §1.5).
#pragma once
#include <cstddef>
#include <cstdint>

#include <pto/isa/enums.hpp>

namespace pto {

inline constexpr std::size_t kBlockBytes = 32;  // every on-chip address is 32-byte aligned

constexpr std::size_t buffer_capacity(Target t, TileType loc) {
  const bool a5 = t == Target::A5;
  switch (loc) {
    case TileType::Vec: return (a5 ? 256 : 192) * 1024;
    case TileType::Mat: return 512 * 1024;
    case TileType::Left: return 64 * 1024;
    case TileType::Right: return 64 * 1024;
    case TileType::Acc: return (a5 ? 256 : 128) * 1024;
    case TileType::Bias: return (a5 ? 4 : 1) * 1024;
    case TileType::Scaling: return (a5 ? 4 : 2) * 1024;
    case TileType::ScaleLeft: case TileType::ScaleRight: return a5 ? 4 * 1024 : 0;
    case TileType::Ctrl: return 0;
  }
  return 0;
}

// Where bytes live: GM or one of a core's on-chip buffers. A TileType names the buffer its tiles live
// in (Vec: UB, Mat: L1, Left: L0A, Right: L0B, Acc: L0C, Bias: BT, Scaling: FB); A5's MX scale tiles
// (ScaleLeft, ScaleRight) are modelled as their own 4 KiB buffers beside L0A and L0B (pto-isa gives
// their capacity apart from L0A's and L0B's). Ctrl tiles have no buffer. Transfers are priced by
// (source, destination) Memory (CostTable::transfer).
enum class Memory : std::uint8_t { GM, UB, L1, L0A, L0B, L0C, BT, FB, L0A_SCALE, L0B_SCALE, None };
inline constexpr int kNumMemories = static_cast<int>(Memory::None);  // GM and the buffers

constexpr Memory memory_of(TileType loc) {
  constexpr Memory table[] = {Memory::UB, Memory::L1, Memory::L0A, Memory::L0B, Memory::L0C, Memory::BT,
                              Memory::FB, Memory::L0A_SCALE, Memory::L0B_SCALE, Memory::None};
  return table[static_cast<int>(loc)];
}

constexpr const char* memory_name(Memory m) {
  constexpr const char* names[] = {"GM", "UB", "L1", "L0A", "L0B", "L0C", "BT", "FB", "L0A scale", "L0B scale", "no buffer"};
  return names[static_cast<int>(m)];
}

}  // namespace pto
