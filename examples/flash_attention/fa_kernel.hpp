// The flash attention example's kernel interface (fa_kernel.cpp): shapes and GM buffers.
#pragma once
#include <pto/pto-inst.hpp>

namespace fa {
constexpr int kRows = 64;   // query rows per cluster (32 per vector core)
constexpr int kTile = 128;  // keys per tile
constexpr int kHead = 64;   // head dimension D

struct Args {
  pto::half *q, *k, *v;  // [clusters x kRows, D], [s1, D], [s1, D]
  float* o;              // [clusters x kRows, D]
  float* qk_ring;        // per cluster 2 x kRows x kTile floats: the FIFO slots (GM)
  pto::half* p_ring;     // per cluster 2 x kRows x kTile halves
  float* pv_ring;        // per cluster 2 x kRows x D floats
  int s1;                // keys: a multiple of kTile
};
}  // namespace fa

// Runs flash attention on `clusters` clusters (base: the launch's other settings; blocks and mode are set).
pto::LaunchReport run_flash_attention(const fa::Args& a, int clusters, const pto::LaunchConfig& base);
