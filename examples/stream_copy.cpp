// Each emulated core streams its tiles of a GM matrix through UB, double-buffered: the load of tile
// t + 1 overlaps the store of tile t. `stream_copy --trace` also writes stream_copy.json (open it in
// https://ui.perfetto.dev) and stream_copy.svg (open it in a browser): the modeled timeline per pipe.
#include <cstdio>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

using namespace pto;

constexpr int kRows = 64, kCols = 64;
using TileF = Tile<TileType::Vec, float, kRows, kCols, BLayout::RowMajor, -1, -1>;
using GmF = GlobalTensor<float, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, -1, -1, 1>>;

// Coroutine kernel: double-buffered copy of `tiles_per_core` 64x64 tiles.
Kernel stream_copy(__gm__ float* out, __gm__ float* in, int tiles_per_core) {
  TileF buf[2] = {TileF(kRows, kCols), TileF(kRows, kCols)};
  TASSIGN(buf[0], 0x0);
  TASSIGN(buf[1], kRows * kCols * sizeof(float));
  RecordEvent stored[2];
  for (int t = 0; t < tiles_per_core; ++t) {
    const int b = t % 2;
    const long tile = get_block_idx() * tiles_per_core + t;
    GmF src(in + tile * kRows * kCols, {kRows, kCols}, {kRows * kCols, kCols});
    GmF dst(out + tile * kRows * kCols, {kRows, kCols}, {kRows * kCols, kCols});
    RecordEvent loaded = co_await TLOAD(buf[b], src, stored[b]);  // buffer b is free once its store ended
    stored[b] = co_await TSTORE(dst, buf[b], loaded);
  }
}

int main(int argc, char** argv) {
  const bool trace = argc > 1 && std::string(argv[1]) == "--trace";
  const int cores = 8, tiles_per_core = 16;
  const std::size_t n = std::size_t(cores) * tiles_per_core * kRows * kCols;
  std::vector<float> in(n), out(n, 0.0f);
  for (std::size_t i = 0; i < n; ++i) in[i] = float(i % 1000) * 0.5f;

  LaunchReport report = launch({.blocks = cores, .timeline = trace}, stream_copy, out, in, tiles_per_core);
  if (trace) {
    write_chrome_trace(report, "stream_copy.json");
    write_svg_timeline(report, "stream_copy.svg");
    std::printf("wrote stream_copy.json and stream_copy.svg\n");
  }
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += out[i] != in[i];
  std::printf("stream_copy: %d cores x %d tiles of %dx%d float, %zu wrong elements\n", cores, tiles_per_core, kRows,
              kCols, wrong);
  std::printf("%s", report.summary().c_str());
  return wrong == 0 ? 0 : 1;
}
