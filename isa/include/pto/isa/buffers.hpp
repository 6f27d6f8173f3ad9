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

// Only Vec tiles (UB) are modelled by the foundation; the other buffers arrive with the cube pipes.
constexpr bool buffer_modelled(TileType loc) { return loc == TileType::Vec; }

}  // namespace pto
