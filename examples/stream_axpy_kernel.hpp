// The streaming kernel of the pipeline-model example (examples/stream_axpy.cpp) and its tests:
// per 64x64 float tile of x, out = x + bias (per column) + alpha * x, i.e.
//   TLOAD a <- x tile;  TCOLEXPANDADD b = a + bias row;  TAXPY b += alpha * a;  TSTORE out tile <- b
// with explicit flags. Every core streams its own tiles.
//  - buffers == 2 (double-buffered): two sets of tiles; tile t + 1 loads while tile t computes and stores.
//  - buffers == 1 (single-buffered, the naive kernel): one set, reloaded only after its store ended, so
//    load, compute and store of successive tiles run one after another.
#pragma once
#include <pto/pto-inst.hpp>

namespace stream_axpy {

constexpr int kRows = 64, kCols = 64;
constexpr std::uint64_t kTileBytes = kRows * kCols * sizeof(float);
using TileF = pto::Tile<pto::TileType::Vec, float, kRows, kCols>;
using BiasF = pto::Tile<pto::TileType::Vec, float, 1, kCols>;
using GmTile = pto::GlobalTensor<float, pto::Shape<1, 1, 1, kRows, kCols>, pto::Stride<1, 1, 1, kCols, 1>>;
using GmBias = pto::GlobalTensor<float, pto::Shape<1, 1, 1, 1, kCols>, pto::Stride<1, 1, 1, kCols, 1>>;

// x and out hold blocks * tiles_per_core tiles, one after another; bias holds kCols floats.
inline pto::Kernel kernel(__gm__ float* out, __gm__ float* x, __gm__ float* bias, float alpha, int tiles_per_core,
                          int buffers) {
  using namespace pto;
  TileF a[2], b[2];
  BiasF bias_row;
  for (int k = 0; k < 2; ++k) {
    TASSIGN(a[k], k * kTileBytes);          // loaded tiles: UB [0, 32 KiB)
    TASSIGN(b[k], (2 + k) * kTileBytes);    // results: UB [32 KiB, 64 KiB)
  }
  TASSIGN(bias_row, 4 * kTileBytes);
  GmBias gbias(bias);
  co_await TLOAD(bias_row, gbias);  // ordered before the first tile's MTE2 -> V flag
  // Who frees a[k] for the next load: the vector pipe once it has read it, or (single-buffered) the
  // store once the whole tile is out.
  const int release = buffers == 2 ? PIPE_V : PIPE_MTE3;
  for (int k = 0; k < buffers; ++k) {  // every buffer starts free
    co_await set_flag(release, PIPE_MTE2, k);
    co_await set_flag(PIPE_MTE3, PIPE_V, k);
  }
  const long first = long(get_block_idx()) * tiles_per_core;
  for (int t = 0; t < tiles_per_core; ++t) {
    const int k = t % buffers;
    GmTile src(x + (first + t) * kRows * kCols), dst(out + (first + t) * kRows * kCols);
    co_await wait_flag(release, PIPE_MTE2, k);  // a[k] free
    co_await TLOAD(a[k], src);
    co_await set_flag(PIPE_MTE2, PIPE_V, k);
    co_await wait_flag(PIPE_MTE2, PIPE_V, k);  // a[k] loaded
    co_await wait_flag(PIPE_MTE3, PIPE_V, k);  // b[k] stored
    co_await TCOLEXPANDADD(b[k], a[k], bias_row);
    co_await TAXPY(b[k], a[k], alpha);
    if (release == PIPE_V) co_await set_flag(PIPE_V, PIPE_MTE2, k);
    co_await set_flag(PIPE_V, PIPE_MTE3, k);
    co_await wait_flag(PIPE_V, PIPE_MTE3, k);  // b[k] computed
    co_await TSTORE(dst, b[k]);
    co_await set_flag(PIPE_MTE3, PIPE_V, k);
    if (release == PIPE_MTE3) co_await set_flag(PIPE_MTE3, PIPE_MTE2, k);
  }
  for (int k = 0; k < buffers; ++k) {  // consume the last tokens: no flag is left set
    co_await wait_flag(release, PIPE_MTE2, k);
    co_await wait_flag(PIPE_MTE3, PIPE_V, k);
  }
}

}  // namespace stream_axpy
