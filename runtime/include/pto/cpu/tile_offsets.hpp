// <pto/cpu/tile_offsets.hpp>: pto-isa's CPU-simulator path for a tile's element offset, which its
// CPU system tests (tests/common/cpu_tile_test_utils.h) use to fill and read tiles by (row, column).
// The offset is the Tile's own (isa/tile.hpp GetTileOffset: box layouts included).
#pragma once
#include <cstddef>

#include <pto/pto-inst.hpp>

namespace pto {

template <class TileData>
inline std::size_t GetTileElementOffset(std::size_t r, std::size_t c) {
  return static_cast<std::size_t>(TileData::GetTileOffset(static_cast<int>(r), static_cast<int>(c)));
}

}  // namespace pto
