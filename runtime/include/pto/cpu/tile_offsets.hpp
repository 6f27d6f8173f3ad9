// <pto/cpu/tile_offsets.hpp>: pto-isa's CPU-simulator path for pto::GetTileElementOffset<TileT>(r, c), which
// its CPU system tests (tests/common/cpu_tile_test_utils.h) include to fill and read tiles by (row,
// column). The function is the Tile's own element offset (isa/tile.hpp, box layouts included).
#pragma once
#include <pto/pto-inst.hpp>
