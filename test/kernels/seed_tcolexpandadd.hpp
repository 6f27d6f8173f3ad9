// The kernel of seed article 000 (tests/npu/a5/src/st/testcase/tcolexpandadd/tcolexpandadd_kernel.cpp in
// pto-isa), as the article prints it; only the host-side `<<<...>>>` launch is not used.
#pragma once
#include <pto/pto-inst.hpp>
#include <pto/common/constants.hpp>

using namespace pto;

template <typename T, uint32_t dstRow, uint32_t dstCol, uint32_t src1Row, uint32_t src1Col>
__global__ AICORE void runCOLEXPANDADD(__gm__ T __out__* out, __gm__ T __in__* src0, __gm__ T __in__* src1) {
  using DynShapeDim5 = Shape<1, 1, 1, src1Row, src1Col>;
  using DynStridDim5 = pto::Stride<1, 1, 1, src1Col, 1>;
  using GlobalData = GlobalTensor<T, DynShapeDim5, DynStridDim5>;
  using TileData = Tile<TileType::Vec, T, src1Row, src1Col, BLayout::RowMajor, -1, -1>;
  using DstDynShapeDim5 = Shape<1, 1, 1, dstRow, dstCol>;
  using DstDynStridDim5 = pto::Stride<1, 1, 1, dstCol, 1>;
  using DstGlobalData = GlobalTensor<T, DstDynShapeDim5, DstDynStridDim5>;
  using DstTileData = Tile<TileType::Vec, T, dstRow, dstCol, BLayout::RowMajor, -1, -1>;
  DstTileData src0Tile(dstRow, dstCol);
  TileData src1Tile(src1Row, src1Col);
  DstTileData dstTile(dstRow, dstCol);
  TASSIGN(src0Tile, 0x0);
  TASSIGN(src1Tile, 0x10000);
  TASSIGN(dstTile, 0x20000);
  int offset = 0;
  DstGlobalData src0Global(src0 + offset);
  GlobalData src1Global(src1 + offset);
  DstGlobalData dstGlobal(out + offset);
  TLOAD(dstTile, dstGlobal);
  TLOAD(src0Tile, src0Global);
  TLOAD(src1Tile, src1Global);
#ifndef __PTO_AUTO__
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
#endif
  TCOLEXPANDADD(dstTile, src0Tile, src1Tile);
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
