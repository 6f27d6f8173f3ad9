// A source operand that shares bytes with the destination, made safe to read in any order.
#pragma once
#include <cstddef>
#include <vector>

#include <pto/isa/views.hpp>

namespace pto::cpu {

// Every family here reads a source element at its destination element's (row, column). A source that is
// the destination itself (in place: the same bytes hold both elements) is safe element by element. One
// that shares bytes any other way (a row further down, another layout or element size) would be read
// after earlier rows overwrote it, in an order set by oneTBB's partition: a result that changes from
// run to run. Such a source is read as it was before the instruction instead (the runtime's rule: an
// instruction reads its inputs at its start): its bytes go to `copy` and the view returned points there.
// (The A2/A3 vector unit copies such a source per intrinsic call; the A5 register machine reads it in
// loop order: docs/device-paths.md.)
// `dst_box` is dst.footprint(). Afterwards the source shares bytes with dst only if it is dst's own view
// (same base).
inline TileView stable_source(const TileView& src, const TileView& dst, const ByteRange& dst_box, std::vector<std::byte>& copy) {
  TileView read = src;  // the elements the instruction reads: src at dst's valid positions
  read.valid_rows = dst.valid_rows;
  read.valid_cols = dst.valid_cols;
  const ByteRange r = read.footprint();
  if (!r.overlaps(dst_box)) return src;
  if (src.base == dst.base && src.elem_bytes() == dst.elem_bytes() && src.row_stride == dst.row_stride &&
      src.col_stride == dst.col_stride)
    return src;  // in place
  copy.assign(src.base, src.base + (r.hi - r.lo));  // element (0, 0) is the lowest address
  read = src;
  read.base = copy.data();
  return read;
}
inline TileView stable_source(const TileView& src, const TileView& dst, std::vector<std::byte>& copy) {
  return stable_source(src, dst, dst.footprint(), copy);
}

}  // namespace pto::cpu
