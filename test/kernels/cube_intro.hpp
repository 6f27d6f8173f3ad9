// The small cube kernel of docs/cube.md (quoted there verbatim; test_guards runs it and checks the doc).
#pragma once
#include <pto/pto-inst.hpp>

namespace cube_intro {
using namespace pto;

// C (32 x 64, float) = A (32 x 128, half, row-major) x B (128 x 64, half, column-major), on one core.
constexpr int M = 32, K = 128, N = 64;
using MatA = Tile<TileType::Mat, half, M, K, BLayout::ColMajor, M, K, SLayout::RowMajor, 512>;  // NZ in L1
using MatB = Tile<TileType::Mat, half, K, N, BLayout::RowMajor, K, N, SLayout::ColMajor, 512>;  // ZN in L1
using LeftA = TileLeft<half, M, K>;    // L0A
using RightB = TileRight<half, K, N>;  // L0B
using AccC = TileAcc<float, M, N>;     // L0C
using GmA = GlobalTensor<half, Shape<1, 1, 1, M, K>, pto::Stride<1, 1, 1, K, 1>>;               // ND
using GmB = GlobalTensor<half, Shape<1, 1, 1, K, N>, pto::Stride<1, 1, 1, 1, K>, Layout::DN>;  // DN
using GmC = GlobalTensor<float, Shape<1, 1, 1, M, N>, pto::Stride<1, 1, 1, N, 1>>;              // ND

Kernel matmul(__gm__ float* c, __gm__ half* a, __gm__ half* b) {
  MatA ma;
  MatB mb;
  LeftA la;
  RightB rb;
  AccC acc;
  TASSIGN(ma, 0x0);     // L1 offsets
  TASSIGN(mb, 0x2000);
  TASSIGN(la, 0x0);     // each L0 buffer has its own address space
  TASSIGN(rb, 0x0);
  TASSIGN(acc, 0x0);
  GmA ga(a);
  GmB gb(b);
  GmC gc(c);
  RecordEvent loaded_a = co_await TLOAD(ma, ga);                 // MTE2: GM ND -> L1 NZ
  RecordEvent loaded_b = co_await TLOAD(mb, gb);                 // MTE2: GM DN -> L1 ZN
  RecordEvent moved_a = co_await TEXTRACT(la, ma, 0, 0, loaded_a);  // MTE1: L1 -> L0A
  RecordEvent moved_b = co_await TEXTRACT(rb, mb, 0, 0, loaded_b);  // MTE1: L1 -> L0B
  RecordEvent product = co_await TMATMUL(acc, la, rb, moved_a, moved_b);  // M: L0C = L0A x L0B
  co_await TSTORE(gc, acc, product);                             // FIX: L0C -> GM
}
}  // namespace cube_intro
