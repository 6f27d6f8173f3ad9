// THISTOGRAM on the CPU (runtime/histogram.hpp has its rules and the chip's filter): the cumulative bins
// of every row are counted before dst is written, so dst may share bytes with src or idx.
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include <pto/backends/kernel_abi.hpp>

namespace pto::cpu::histogram {

inline void thistogram(ExecContext& ctx) {
  const TileView &d = ctx.ops[0].tile, &s = ctx.ops[1].tile, &x = ctx.ops[2].tile;
  const int byte = ctx.variant & 3;
  const bool u16 = s.elem_bytes() == 2;
  // idx row i, column 0: the filter byte of src row i (uint16) or of level i (uint32)
  auto idx_byte = [&](int i) { return std::to_integer<std::uint32_t>(x.base[x.elem_offset(i, 0)]); };
  // u32: the top `levels` bytes must equal idx's rows 0.. (byte 3 first); u16: the high byte idx's row r.
  const int levels = u16 ? (byte == 0 ? 1 : 0) : 3 - byte;
  std::array<std::uint32_t, 3> want{};
  if (!u16)
    for (int l = 0; l < levels; ++l) want[std::size_t(l)] = idx_byte(l);
  std::vector<std::uint32_t> bins(std::size_t(s.valid_rows) * 256, 0);
  for (int r = 0; r < s.valid_rows; ++r) {
    const std::uint32_t high = u16 && levels ? idx_byte(r) : 0;
    for (int c = 0; c < s.valid_cols; ++c) {
      std::uint32_t v;
      if (u16) {
        std::uint16_t h;
        std::memcpy(&h, s.base + s.elem_offset(r, c) * 2, 2);
        v = h;
        if (levels && (v >> 8) != high) continue;
      } else {
        std::memcpy(&v, s.base + s.elem_offset(r, c) * 4, 4);
        bool pass = true;
        for (int l = 0; l < levels; ++l) pass = pass && ((v >> (8 * (3 - l))) & 0xff) == want[std::size_t(l)];
        if (!pass) continue;
      }
      ++bins[std::size_t(r) * 256 + ((v >> (8 * byte)) & 0xff)];
    }
  }
  for (int r = 0; r < s.valid_rows; ++r)  // chistv2 counts cumulatively: bin b holds the elements <= b
    for (int b = 1; b < 256; ++b) bins[std::size_t(r) * 256 + std::size_t(b)] += bins[std::size_t(r) * 256 + std::size_t(b) - 1];
  std::memcpy(d.base, bins.data(), bins.size() * 4);  // row r at element 256 * r: dst has 256 columns
}

inline constexpr BackendKernel kHistogram{nullptr, thistogram};

}  // namespace pto::cpu::histogram
