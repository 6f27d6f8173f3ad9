// <pto/common/memory.hpp>: the memory qualifier of each tile location. On the chip each buffer (UB, L1,
// L0A/B/C, ...) is an address space and a tile's pointer carries its qualifier; on the host every buffer is
// host memory, so the type is a plain pointer (the qualifiers expand to nothing, pto/runtime/qualifiers.hpp).
#pragma once
#include <pto/isa/enums.hpp>
#include <pto/runtime/qualifiers.hpp>

namespace pto {
template <TileType Loc, typename DType>
struct MemoryQualifier {
  using type = DType*;
};
}  // namespace pto
