// The GEMM kernel of examples/gemm.cpp and examples/gemm_tiling.cpp, in the style of pto-isa's
// kernels/manual/a2a3/gemm_performance, templated on its tiling: C = A * B with half inputs (A m x k
// row-major, B stored as its n columns of k, DN) and a float result on 24 cores. Each core owns a
// (m/4) x (n/6) block of C and walks it in BaseM x BaseN tiles; for each it streams K in panels of
// BaseK * StepK (TLOAD GM -> L1: A as NZ, B as ZN), slices every panel into StepK steps of BaseK
// (TEXTRACT L1 -> L0A / L0B), multiplies (TMATMUL, then TMATMUL_ACC) and stores the tile (TSTORE L0C ->
// GM through the fixpipe). L1 panels and L0A / L0B tiles have `Buffers` buffers each; set_flag /
// wait_flag order the pipes, one event per buffer (so no flag is set twice before its wait).
//
// pto-isa's tiling is BaseM 128, BaseN 256, BaseK 64, StepK 4, two buffers (its README's table).
#pragma once

#include <algorithm>
#include <cstddef>

#include <pto/pto-inst.hpp>

namespace gemm_example {

using namespace pto;

constexpr int kCores = 24, kGridM = 4, kGridN = 6;

struct Size {
  int m, n, k;
};

template <int BaseM, int BaseN, int BaseK, int StepK, int Buffers>
struct Tiling {
  static constexpr int kPanelK = BaseK * StepK;
  using MatA = Tile<TileType::Mat, half, BaseM, kPanelK, BLayout::ColMajor, BaseM, kPanelK, SLayout::RowMajor, 512>;  // NZ
  using MatB = Tile<TileType::Mat, half, kPanelK, BaseN, BLayout::RowMajor, kPanelK, BaseN, SLayout::ColMajor, 512>;  // ZN
  using LeftT = TileLeft<half, BaseM, BaseK>;
  using RightT = TileRight<half, BaseK, BaseN>;
  using AccT = TileAcc<float, BaseM, BaseN>;
  using GmA = GlobalTensor<half, Shape<1, 1, 1, BaseM, kPanelK>, pto::Stride<1, 1, 1, -1, 1>>;              // row stride k
  using GmB = GlobalTensor<half, Shape<1, 1, 1, kPanelK, BaseN>, pto::Stride<1, 1, 1, 1, -1>, Layout::DN>;  // column stride k
  using GmC = GlobalTensor<float, Shape<1, 1, 1, BaseM, BaseN>, pto::Stride<1, 1, 1, -1, 1>>;             // row stride n
  static constexpr std::size_t kPanelA = std::size_t(BaseM) * kPanelK * 2, kPanelB = std::size_t(kPanelK) * BaseN * 2;
  // L0A / L0B buffers 32 KiB apart as pto-isa places them (ping / pong), or as far apart as a tile needs.
  static constexpr std::size_t kL0Step = std::size_t(BaseM) * BaseK * 2 > 0x8000 || std::size_t(BaseK) * BaseN * 2 > 0x8000
                                             ? std::max(std::size_t(BaseM) * BaseK * 2, std::size_t(BaseK) * BaseN * 2)
                                             : 0x8000;
  // Whether a size splits into this tiling on the 4 x 6 core grid.
  static bool fits(int n) {
    return n > 0 && n % (kGridM * BaseM) == 0 && n % (kGridN * BaseN) == 0 && n % kPanelK == 0;
  }
};

template <int BaseM, int BaseN, int BaseK, int StepK, int Buffers>
Kernel gemm(Size s, __gm__ float* c, __gm__ half* a, __gm__ half* b) {
  using T = Tiling<BaseM, BaseN, BaseK, StepK, Buffers>;
  typename T::MatA ma[Buffers];
  typename T::MatB mb[Buffers];
  typename T::LeftT la[Buffers];
  typename T::RightT rb[Buffers];
  typename T::AccT acc;
  for (int x = 0; x < Buffers; ++x) {
    TASSIGN(ma[x], x * T::kPanelA);  // L1: the A panels, then the B panels
    TASSIGN(mb[x], Buffers * T::kPanelA + x * T::kPanelB);
    TASSIGN(la[x], x * T::kL0Step);
    TASSIGN(rb[x], x * T::kL0Step);
  }
  TASSIGN(acc, 0);
  const event_t ev[2] = {EVENT_ID0, EVENT_ID1};
  const int sm = s.m / kGridM, sn = s.n / kGridN;
  const int row0 = get_block_idx() % kGridM * sm, col0 = get_block_idx() / kGridM * sn;
  for (int x = 0; x < Buffers; ++x) {  // every buffer starts free
    co_await set_flag(PIPE_MTE1, PIPE_MTE2, ev[x]);
    co_await set_flag(PIPE_M, PIPE_MTE1, ev[x]);
  }
  int l1 = 0, l0 = 0;
  for (int i = 0; i < sm; i += BaseM)
    for (int j = 0; j < sn; j += BaseN) {
      for (int p = 0; p < s.k; p += T::kPanelK) {
        typename T::GmA ga(a + std::size_t(row0 + i) * s.k + p, {}, {s.k});
        typename T::GmB gb(b + std::size_t(col0 + j) * s.k + p, {}, {s.k});
        co_await wait_flag(PIPE_MTE1, PIPE_MTE2, ev[l1]);  // the panel buffer's last TEXTRACT is done
        co_await TLOAD(ma[l1], ga);
        co_await TLOAD(mb[l1], gb);
        co_await set_flag(PIPE_MTE2, PIPE_MTE1, ev[l1]);
        co_await wait_flag(PIPE_MTE2, PIPE_MTE1, ev[l1]);
        for (int q = 0; q < StepK; ++q) {
          co_await wait_flag(PIPE_M, PIPE_MTE1, ev[l0]);  // the L0 buffer's last TMATMUL is done
          co_await TEXTRACT(la[l0], ma[l1], 0, q * BaseK);
          co_await TEXTRACT(rb[l0], mb[l1], q * BaseK, 0);
          if (q == StepK - 1) co_await set_flag(PIPE_MTE1, PIPE_MTE2, ev[l1]);
          co_await set_flag(PIPE_MTE1, PIPE_M, ev[l0]);
          co_await wait_flag(PIPE_MTE1, PIPE_M, ev[l0]);
          if (p == 0 && q == 0) co_await TMATMUL(acc, la[l0], rb[l0]);
          else co_await TMATMUL_ACC(acc, acc, la[l0], rb[l0]);
          co_await set_flag(PIPE_M, PIPE_MTE1, ev[l0]);
          l0 = (l0 + 1) % Buffers;
        }
        l1 = (l1 + 1) % Buffers;
      }
      typename T::GmC gc(c + std::size_t(row0 + i) * s.n + col0 + j, {}, {s.n});
      co_await set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
      co_await wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
      co_await TSTORE(gc, acc);
      co_await set_flag(PIPE_FIX, PIPE_M, EVENT_ID0);  // the next tile's TMATMUL overwrites acc
      co_await wait_flag(PIPE_FIX, PIPE_M, EVENT_ID0);
    }
  for (int x = 0; x < Buffers; ++x) {  // take back the tokens the loop left set
    co_await wait_flag(PIPE_M, PIPE_MTE1, ev[x]);
    co_await wait_flag(PIPE_MTE1, PIPE_MTE2, ev[x]);
  }
}

}  // namespace gemm_example
