// The demo: out = x + bias (one bias value per column) on 16 emulated AI cores, each streaming its rows
// through UB 64 at a time. A co_await kernel: every instruction is issued to its pipe and returns an
// event; the events order MTE2 -> V -> MTE3 exactly as set_flag/wait_flag pairs would.
#include <cmath>
#include <cstdio>
#include <vector>

#include <pto/pto-inst.hpp>

using namespace pto;

constexpr int kCols = 128, kRowsPerTile = 16;
using TileX = Tile<TileType::Vec, float, kRowsPerTile, kCols, BLayout::RowMajor, -1, -1>;
using TileB = Tile<TileType::Vec, float, 1, kCols, BLayout::RowMajor, -1, -1>;
using GmX = GlobalTensor<float, Shape<1, 1, 1, -1, kCols>, pto::Stride<1, 1, 1, kCols, 1>>;
using GmB = GlobalTensor<float, Shape<1, 1, 1, 1, kCols>, pto::Stride<1, 1, 1, kCols, 1>>;

Kernel add_bias(__gm__ float* out, __gm__ float* x, __gm__ float* bias, int rows_per_core) {
  int row0 = get_block_idx() * rows_per_core;
  TileX src0Tile(kRowsPerTile, kCols), dstTile(kRowsPerTile, kCols);
  TileB src1Tile(1, kCols);
  TASSIGN(src0Tile, 0x0);
  TASSIGN(src1Tile, 0x10000);
  TASSIGN(dstTile, 0x20000);
  GmB biasGlobal(bias);
  RecordEvent l1 = co_await TLOAD(src1Tile, biasGlobal);
  RecordEvent added, stored;  // the previous iteration's: a tile is reused only after its reader ended
  for (int r = row0; r < row0 + rows_per_core; r += kRowsPerTile) {
    GmX xGlobal(x + r * kCols, {kRowsPerTile}), outGlobal(out + r * kCols, {kRowsPerTile});
    RecordEvent l0 = co_await TLOAD(src0Tile, xGlobal, added);
    added = co_await TCOLEXPANDADD(dstTile, src0Tile, src1Tile, l0, l1, stored);
    stored = co_await TSTORE(outGlobal, dstTile, added);
  }
}

int main() {
  const int cores = 16, rows_per_core = 64;
  const int rows = cores * rows_per_core;
  std::vector<float> x(std::size_t(rows) * kCols), bias(kCols), out(x.size(), 0.0f);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(i % 997) * 0.25f;
  for (int j = 0; j < kCols; ++j) bias[std::size_t(j)] = float(j) - 64.0f;

  LaunchReport report = launch({.blocks = cores}, add_bias, out, x, bias, rows_per_core);

  std::size_t wrong = 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < kCols; ++j)
      wrong += out[std::size_t(i) * kCols + j] != x[std::size_t(i) * kCols + j] + bias[std::size_t(j)];
  std::printf("add_bias: %d cores x %d rows x %d columns, %zu wrong elements\n", cores, rows_per_core, kCols, wrong);
  std::printf("%s", report.summary().c_str());
  return wrong == 0 ? 0 : 1;
}
