// TTRANS on the A2/A3 vector unit, the path a2a3 TTrans.hpp takes when the strides are aligned (dst's
// row stride a multiple of 16 elements, 32 for 8-bit types; src's whole 32-byte blocks):
//  1. per 32-byte column block of src, scatter_vnchwconv over its whole 16-row groups (8-bit: 32-row
//     groups as four 16 x 16 byte quarters) into tmp, whose rows are src's columns, validRow rounded
//     up to 16 (32) elements apart;
//  2. the last partial row group, one call set repeated over the column blocks; its missing source rows
//     are VA lanes the chip leaves at 0, so they read UB's first bytes into tmp's padding columns;
//  3. a barrier, then one copy_ubuf_to_ubuf of validCol bursts of validRow's whole blocks into dst,
//     which so also receives the rest of each row's last block (declared written when issued).
#pragma once
#include <cstdint>

#include <pto/backends/kernel_abi.hpp>

#include "vector_unit.hpp"

namespace pto::a2a3 {

inline void ttrans(VectorUnit& vu, const ExecContext& c) {
  const TileView &d = c.ops[0].tile, &s = c.ops[1].tile, &t = c.ops[2].tile;
  const unsigned es = unsigned(s.elem_bytes()), be = 32 / es, y = es == 1 ? 32 : 16;
  const unsigned rows = unsigned(s.valid_rows), cols = unsigned(s.valid_cols);
  if (rows == 0 || cols == 0) return;
  const std::uint64_t ss = std::uint64_t(s.row_stride), ds = std::uint64_t(d.row_stride);
  const std::uint64_t ts = (rows + y - 1) / y * y;  // tmp's row stride
  const auto ub = reinterpret_cast<std::uintptr_t>(c.ub);
  auto at = [&](const TileView& v, std::uint64_t elem) {  // a VA lane: the UB byte address of an element
    return std::uint64_t(reinterpret_cast<std::uintptr_t>(v.base) - ub) + elem * es;
  };
  const unsigned sub_x = (cols + be - 1) / be, sub_y = rows / y, rem = rows % y;
  std::uint64_t sa[16], sa1[16], ta[16], ta1[16];  // VA2/VA3, VA4/VA5 (sources); VA0/VA1, VA6/VA7 (tmp)
  auto quarters = [&](unsigned repeat, unsigned dst_stride, unsigned src_stride) {  // the 8-bit call set
    vu.scatter_vnchwconv(1, ta, sa, repeat, dst_stride, src_stride, false, false);
    vu.scatter_vnchwconv(1, ta1, sa, repeat, dst_stride, src_stride, false, true);
    vu.scatter_vnchwconv(1, ta, sa1, repeat, dst_stride, src_stride, true, false);
    vu.scatter_vnchwconv(1, ta1, sa1, repeat, dst_stride, src_stride, true, true);
  };
  // 1. whole row groups: one call (set) per column block, repeated down the groups
  if (sub_y > 0) {
    const unsigned group = unsigned(y * ss * es / 32);  // src's next row group, in blocks
    const bool one = sub_y == 1;
    for (unsigned i = 0; i < sub_x; ++i) {
      const std::uint64_t off = std::uint64_t(i) * be;
      for (unsigned j = 0; j < 16; ++j) {
        sa[j] = at(s, off + j * ss);
        sa1[j] = sa[j] + 16 * ss * es;
        ta[j] = es == 4 ? at(t, ((j >> 1) + off) * ts + (j & 1) * be) : at(t, (j + off) * ts);
        ta1[j] = ta[j] + 16 * ts * es;
      }
      if (es == 1) quarters(sub_y, one ? 0 : 1, one ? 0 : group);
      else vu.scatter_vnchwconv(es, ta, sa, sub_y, one ? 0 : (es == 4 ? 2 : 1), one ? 0 : group);
    }
  }
  // 2. the partial row group, repeated across the column blocks
  if (rem > 0) {
    const std::uint64_t off = std::uint64_t(sub_y) * y;
    const bool one = sub_x == 1;
    for (unsigned j = 0; j < 16; ++j) {
      sa[j] = j < rem ? at(s, (off + j) * ss) : 0;
      sa1[j] = j + 16 < rem ? at(s, (off + 16 + j) * ss) : 0;
      ta[j] = es == 4 ? at(t, off + (j & 1) * be + (j >> 1) * ts) : at(t, off + j * ts);
      ta1[j] = ta[j] + 16 * ts * es;
    }
    const unsigned next = unsigned(std::uint64_t(es == 1 ? y : be) * ts * es / 32);  // tmp's next column block's rows
    if (es == 1) quarters(sub_x, one ? 0 : next, one ? 0 : 1);
    else vu.scatter_vnchwconv(es, ta, sa, sub_x, one ? 0 : next, one ? 0 : 1);
  }
  // 3. tmp -> dst
  const unsigned len = (rows * es + 31) / 32;
  vu.barrier();
  vu.copy_ubuf_to_ubuf(d.base, t.base, cols, len, unsigned(ts * es / 32) - len, unsigned(ds * es / 32) - len);
}

}  // namespace pto::a2a3
