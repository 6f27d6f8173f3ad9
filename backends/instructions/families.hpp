// The registration tables of the instruction families (one file each in this folder); registry.cpp
// merges them. A new family adds its table here and in registry.cpp; a new instruction of a family
// adds one entry to its family's table.
#pragma once
#include <span>

#include <pto/backends/registry.hpp>

namespace pto::backend {

std::span<const InstrImpl> data_movement_instructions();
std::span<const InstrImpl> broadcast_instructions();
std::span<const InstrImpl> tile_scalar_instructions();
std::span<const InstrImpl> binary_instructions();
std::span<const InstrImpl> unary_instructions();
std::span<const InstrImpl> reduce_instructions();
std::span<const InstrImpl> select_instructions();
std::span<const InstrImpl> convert_instructions();
std::span<const InstrImpl> compound_instructions();
std::span<const InstrImpl> sort_instructions();
std::span<const InstrImpl> layout_instructions();
std::span<const InstrImpl> partial_instructions();
std::span<const InstrImpl> generate_instructions();
std::span<const InstrImpl> quant_instructions();
std::span<const InstrImpl> cube_instructions();

}  // namespace pto::backend
