// TGATHER's index form reads src0's element number indices[i][j], counted row-major over src0's
// storage. An index outside src0 is an error on every path (the chips would read whatever UB holds
// there; pto-isa's CPU simulator returns 0): one check, shared by the CPU kernel and the device paths.
#pragma once
#include <cstdint>
#include <cstring>

#include <pto/isa/error.hpp>
#include <pto/backends/kernel_abi.hpp>

namespace pto::gather_index {

// The index at (i, j) of a 16- or 32-bit index tile (TGATHER, TSCATTER, TGATHERB's offsets).
inline std::uint64_t read(const TileView& x, int i, int j) {
  const std::byte* p = x.base + x.elem_offset(i, j) * std::ptrdiff_t(x.elem_bytes());
  if (x.elem_bytes() == 4) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  std::uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}
// TGATHER's index at (i, j) of x, checked against src0 s.
inline std::uint64_t at(const TileView& x, const TileView& s, int i, int j) {
  const std::uint64_t k = read(x, i, j);
  if (k >= std::uint64_t(s.rows) * std::uint64_t(s.cols))
    detail::fail("TGATHER: operand indices has ", k, " at element (", i, ", ", j, "), outside src0's ", s.rows, " x ", s.cols,
                 " elements (the chips would read whatever UB holds there)");
  return k;
}

}  // namespace pto::gather_index
