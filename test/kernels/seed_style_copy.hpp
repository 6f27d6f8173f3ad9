// A plain PTO kernel written exactly in the style of the seed article's runCOLEXPANDADD (device
// qualifiers, TASSIGN, __PTO_AUTO__ guards, PTO's own type spellings), with TMOV in place of the
// arithmetic the next instructions bring. It must compile and run unmodified.
#pragma once
#include <pto/pto-inst.hpp>
#include <pto/common/constants.hpp>

using namespace pto;

template <typename T, uint32_t dstRow, uint32_t dstCol>
__global__ AICORE void runTMOVCOPY(__gm__ T __out__* out, __gm__ T __in__* src0) {
  using DstDynShapeDim5 = Shape<1, 1, 1, dstRow, dstCol>;
  using DstDynStridDim5 = pto::Stride<1, 1, 1, dstCol, 1>;
  using DstGlobalData = GlobalTensor<T, DstDynShapeDim5, DstDynStridDim5>;
  using DstTileData = Tile<TileType::Vec, T, dstRow, dstCol, BLayout::RowMajor, -1, -1>;

  DstTileData src0Tile(dstRow, dstCol);
  DstTileData dstTile(dstRow, dstCol);
  TASSIGN(src0Tile, 0x0);
  TASSIGN(dstTile, 0x10000);

  int offset = get_block_idx() * dstRow * dstCol;
  DstGlobalData src0Global(src0 + offset);
  DstGlobalData dstGlobal(out + offset);

  TLOAD(src0Tile, src0Global);
#ifndef __PTO_AUTO__
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
#endif
  TMOV(dstTile, src0Tile);
#ifndef __PTO_AUTO__
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
#endif
  TSTORE(dstGlobal, dstTile);
#ifndef __PTO_AUTO__
  set_flag(PIPE_MTE3, PIPE_S, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID0);
  pipe_barrier(PIPE_ALL);
#endif
  out = dstGlobal.data();
}
