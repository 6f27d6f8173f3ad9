// Per-row top-k: the 1000 largest of each row of a 64 x 1024 float tensor, with their column indices,
// on 8 emulated cores, in the style of pto-isa's kernels/manual/a2a3/topk. Per row: TSORT32 sorts the
// row's 32-element blocks into value-index records, two single-list TMRGSORTs merge them into runs of
// 128 and then 512 records, a 2-list TMRGSORT merges the two runs keeping the first 1000 records, and
// two TGATHERs take the values (P0101) and the indices (P1010, on a uint32 view) apart. Two buffers
// alternate (ping-pong), ordered by set_flag / wait_flag as the reference kernel orders them, so the next
// row's load and the previous row's stores overlap the sorting. Checked against std::partial_sort.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include <pto/pto-inst.hpp>

using namespace pto;

constexpr int kRows = 64, kCols = 1024, kTopK = 1000, kCores = 8, kRowsPerCore = kRows / kCores;

using Row = Tile<TileType::Vec, float, 1, kCols>;                   // a source row
using Idx = Tile<TileType::Vec, std::uint32_t, 1, kCols>;           // 0, 1, ..., kCols - 1
using Records = Tile<TileType::Vec, float, 1, 2 * kCols>;           // kCols records [value, index]
using Run = Tile<TileType::Vec, float, 1, kCols>;                   // half the records: a 512-record run
using TopRecords = Tile<TileType::Vec, float, 1, 2 * kCols, BLayout::RowMajor, -1, -1>;  // the first kTopK
using TopRecordBits = Tile<TileType::Vec, std::uint32_t, 1, 2 * kCols, BLayout::RowMajor, -1, -1>;
using Values = Tile<TileType::Vec, float, 1, kTopK>;
using Indices = Tile<TileType::Vec, std::uint32_t, 1, kTopK>;
using GmRow = GlobalTensor<float, Shape<1, 1, 1, 1, kCols>, pto::Stride<1, 1, 1, kCols, 1>>;
using GmIdx = GlobalTensor<std::uint32_t, Shape<1, 1, 1, 1, kCols>, pto::Stride<1, 1, 1, kCols, 1>>;
using GmValues = GlobalTensor<float, Shape<1, 1, 1, 1, kTopK>, pto::Stride<1, 1, 1, kTopK, 1>>;
using GmIndices = GlobalTensor<std::uint32_t, Shape<1, 1, 1, 1, kTopK>, pto::Stride<1, 1, 1, kTopK, 1>>;

// One buffer set: 36 KiB of UB from `base`.
struct Buffers {
  Row src;
  Records a, b, tmp;
  Values values;
  Indices indices;
  std::uint32_t at_a, at_b;  // where a and b are (views of them are placed there too)
  explicit Buffers(std::uint32_t base) : at_a(base + 0x1000), at_b(base + 0x3000) {
    TASSIGN(src, base);
    TASSIGN(a, at_a);
    TASSIGN(b, at_b);
    TASSIGN(tmp, base + 0x5000);
    TASSIGN(values, base + 0x7000);
    TASSIGN(indices, base + 0x8000);
  }
};

Kernel topk(__gm__ float* values_out, __gm__ std::uint32_t* indices_out, __gm__ float* in, __gm__ std::uint32_t* in_idx) {
  Idx idx;
  TASSIGN(idx, 0x12000);
  Buffers buf[2] = {Buffers(0x0), Buffers(0x9000)};
  const event_t ev[2] = {EVENT_ID0, EVENT_ID1};
  GmIdx idx_gm(in_idx);
  co_await TLOAD(idx, idx_gm);
  co_await set_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
  co_await wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
  for (int b = 0; b < 2; ++b) {  // both buffers start free
    co_await set_flag(PIPE_V, PIPE_MTE2, ev[b]);
    co_await set_flag(PIPE_MTE3, PIPE_V, ev[b]);
  }
  const int row0 = get_block_idx() * kRowsPerCore;
  for (int r = 0; r < kRowsPerCore; ++r) {
    Buffers& u = buf[r % 2];
    const event_t e = ev[r % 2];
    const int row = row0 + r;
    GmRow src_gm(in + std::size_t(row) * kCols);
    co_await wait_flag(PIPE_V, PIPE_MTE2, e);  // src is free once the last TSORT32 from it ended
    co_await TLOAD(u.src, src_gm);
    co_await set_flag(PIPE_MTE2, PIPE_V, e);

    co_await wait_flag(PIPE_MTE2, PIPE_V, e);
    co_await TSORT32(u.a, u.src, idx);  // 32 sorted runs of 32 records
    co_await set_flag(PIPE_V, PIPE_MTE2, e);
    co_await TMRGSORT(u.b, u.a, 64);    // 8 runs of 128
    co_await TMRGSORT(u.a, u.b, 256);   // 2 runs of 512
    Run lo, hi;
    TASSIGN(lo, u.at_a), TASSIGN(hi, u.at_a + kCols * sizeof(float));
    TopRecords top(1, 2 * kTopK);
    TASSIGN(top, u.at_b);
    MrgSortExecutedNumList executed;
    co_await TMRGSORT<TopRecords, Records, Run, Run, false>(top, executed, u.tmp, lo, hi);  // the first 1000 records
    TopRecordBits top_bits(1, 2 * kTopK);
    TASSIGN(top_bits, u.at_b);
    co_await wait_flag(PIPE_MTE3, PIPE_V, e);  // values / indices are free once their stores ended
    co_await TGATHER<Values, TopRecords, MaskPattern::P0101>(u.values, top);
    co_await TGATHER<Indices, TopRecordBits, MaskPattern::P1010>(u.indices, top_bits);
    co_await set_flag(PIPE_V, PIPE_MTE3, e);

    co_await wait_flag(PIPE_V, PIPE_MTE3, e);
    GmValues values_gm(values_out + std::size_t(row) * kTopK);
    GmIndices indices_gm(indices_out + std::size_t(row) * kTopK);
    co_await TSTORE(values_gm, u.values);
    co_await TSTORE(indices_gm, u.indices);
    co_await set_flag(PIPE_MTE3, PIPE_V, e);
  }
  for (int b = 0; b < 2; ++b) {  // the flags set for a next row that does not come
    co_await wait_flag(PIPE_V, PIPE_MTE2, ev[b]);
    co_await wait_flag(PIPE_MTE3, PIPE_V, ev[b]);
  }
}

int main() {
  std::mt19937 rng(2026);
  std::uniform_real_distribution<float> u(-1000.0f, 1000.0f);
  std::vector<float> in(std::size_t(kRows) * kCols), values(std::size_t(kRows) * kTopK);
  for (auto& x : in) x = u(rng);
  std::vector<std::uint32_t> in_idx(kCols), indices(std::size_t(kRows) * kTopK);
  std::iota(in_idx.begin(), in_idx.end(), 0u);

  const auto t0 = std::chrono::steady_clock::now();
  LaunchReport report = launch({.blocks = kCores}, topk, values, indices, in, in_idx);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  std::size_t wrong = 0;
  std::vector<std::uint32_t> order(kCols);
  for (int i = 0; i < kRows; ++i) {
    const float* x = in.data() + std::size_t(i) * kCols;
    std::iota(order.begin(), order.end(), 0u);
    std::partial_sort(order.begin(), order.begin() + kTopK, order.end(),
                      [&](std::uint32_t a, std::uint32_t b) { return x[a] != x[b] ? x[a] > x[b] : a < b; });
    for (int k = 0; k < kTopK; ++k) {
      const std::size_t at = std::size_t(i) * kTopK + std::size_t(k);
      wrong += indices[at] != order[std::size_t(k)] || values[at] != x[order[std::size_t(k)]];
    }
  }
  std::printf("topk: %d rows x %d floats, top %d per row, %d cores: %zu wrong of %d; %.1f ms on the host\n", kRows, kCols,
              kTopK, kCores, wrong, kRows * kTopK, ms);
  std::printf("%s", report.summary().c_str());
  return wrong == 0 ? 0 : 1;
}
