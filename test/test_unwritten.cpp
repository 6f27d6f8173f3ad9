// Reads of on-chip bytes that nothing wrote (issue 39): the chip's buffers hold what the previous kernel
// left, so such a read computes garbage there while zeroed buffers here hide it. The checker reports it
// (SyncFinding::Kind::UnwrittenRead); LaunchConfig::fill / PTO_FILL make the results show it too.
#define BOOST_TEST_MODULE unwritten
#include <boost/test/unit_test.hpp>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <random>
#include <utility>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

#include "element_ref.hpp"
#include "kernels/cube_intro.hpp"

using namespace pto;

namespace {
constexpr int R = 16, C = 64;
using TileF = Tile<TileType::Vec, float, R, C>;
using TileF2 = Tile<TileType::Vec, float, 2 * R, C>;  // two tiles' worth from the same address
using GmF = GlobalTensor<float, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>>;
using GmF2 = GlobalTensor<float, Shape<1, 1, 1, 2 * R, C>, pto::Stride<1, 1, 1, C, 1>>;

using pto_test::error_of;
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::vector<SyncFinding> unwritten(const LaunchReport& r) {
  std::vector<SyncFinding> out;
  for (const SyncFinding& f : r.findings())
    if (f.kind == SyncFinding::Kind::UnwrittenRead) out.push_back(f);
  return out;
}

// out = in + b, where b is loaded only when `load_b` (else it is read from bytes nothing wrote).
void add_tiles(__gm__ float* out, __gm__ float* in, bool load_b) {
  TileF a, b, c;
  TASSIGN(a, 0x0);
  TASSIGN(b, 0x1000);
  TASSIGN(c, 0x2000);
  GmF src(in), dst(out);
  TLOAD(a, src);
  if (load_b) TLOAD(b, src);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  TADD(c, a, b);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(dst, c);
}
}  // namespace

BOOST_AUTO_TEST_CASE(a_tile_read_before_anything_wrote_it_is_reported) {
  std::vector<float> in(R * C, 1.5f), out(R * C, 0.0f);
  const LaunchReport r = launch({.check = SyncCheck::Report}, add_tiles, out, in, false);
  const auto f = unwritten(r);
  BOOST_TEST_REQUIRE(f.size() == 1u);
  BOOST_TEST(f[0].first.name == "TADD");
  BOOST_TEST(f[0].first.seq == 4u);  // TLOAD, set_flag, wait_flag, TADD
  BOOST_TEST((f[0].memory == Memory::UB));
  BOOST_TEST(f[0].lo == 0x1000u);
  BOOST_TEST(f[0].hi == 0x1000u + R * C * 4);
  BOOST_TEST(contains(f[0].message, "read of unwritten bytes on core 0: TADD #4 reads 4096 byte(s) of its src1 "), f[0].message);
  BOOST_TEST(contains(f[0].message, "in UB [4096, 8192) that no instruction issued before it wrote"), f[0].message);
}

BOOST_AUTO_TEST_CASE(the_same_kernel_with_its_load_has_no_finding) {
  std::vector<float> in(R * C, 1.5f), out(R * C, 0.0f);
  const LaunchReport r = launch({.check = SyncCheck::Report}, add_tiles, out, in, true);
  BOOST_TEST(r.findings().empty());
  for (float v : out) BOOST_TEST_REQUIRE(v == 3.0f);
}

BOOST_AUTO_TEST_CASE(only_the_bytes_nothing_wrote_are_named) {
  // The first half of a 2R-row tile is loaded; the read of the whole tile names the second half.
  auto kernel = [](__gm__ float* out, __gm__ float* in) {
    TileF half_tile;
    TileF2 whole, sum;
    TASSIGN(half_tile, 0x0);
    TASSIGN(whole, 0x0);
    TASSIGN(sum, 0x4000);
    GmF src(in);
    GmF2 dst(out);
    TLOAD(half_tile, src);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADDS(sum, whole, 1.0f);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(dst, sum);
  };
  std::vector<float> in(R * C, 1.5f), out(2 * R * C, 0.0f);
  const auto f = unwritten(launch({.check = SyncCheck::Report}, kernel, out, in));
  BOOST_TEST_REQUIRE(f.size() == 1u);
  BOOST_TEST(f[0].lo == std::uint64_t(R * C * 4));
  BOOST_TEST(f[0].hi == std::uint64_t(2 * R * C * 4));
  BOOST_TEST(contains(f[0].message, "TADDS #4 reads 4096 byte(s) of its src0 "), f[0].message);
}

BOOST_AUTO_TEST_CASE(an_accumulator_added_into_before_any_matmul_is_reported) {
  using namespace cube_intro;
  auto kernel = [](__gm__ float* c, __gm__ half* a, __gm__ half* b) -> Kernel {
    MatA ma;
    MatB mb;
    LeftA la;
    RightB rb;
    AccC acc;
    TASSIGN(ma, 0x0);
    TASSIGN(mb, 0x2000);
    TASSIGN(la, 0x0);
    TASSIGN(rb, 0x0);
    TASSIGN(acc, 0x0);
    GmA ga(a);
    GmB gb(b);
    GmC gc(c);
    RecordEvent la_ = co_await TLOAD(ma, ga);
    RecordEvent lb_ = co_await TLOAD(mb, gb);
    RecordEvent ea = co_await TEXTRACT(la, ma, 0, 0, la_);
    RecordEvent eb = co_await TEXTRACT(rb, mb, 0, 0, lb_);
    RecordEvent p = co_await TMATMUL_ACC(acc, acc, la, rb, ea, eb);  // the bug: TMATMUL first
    co_await TSTORE(gc, acc, p);
  };
  std::vector<half> a(M * K, half(1.0f)), b(K * N, half(1.0f));
  std::vector<float> c(M * N, 0.0f);
  const auto f = unwritten(launch({.check = SyncCheck::Report}, kernel, c, a, b));
  BOOST_TEST_REQUIRE(f.size() == 1u);
  BOOST_TEST(f[0].first.name == "TMATMUL_ACC");
  BOOST_TEST((f[0].memory == Memory::L0C));
  BOOST_TEST(f[0].lo == 0u);
  BOOST_TEST(f[0].hi == std::uint64_t(M * N * 4));
  // The whole cube kernel of docs/cube.md, which starts with TMATMUL, is clean.
  BOOST_TEST(unwritten(launch({.check = SyncCheck::Report}, matmul, c, a, b)).empty());
}

BOOST_AUTO_TEST_CASE(a_read_in_a_loop_is_reported_once) {
  auto kernel = [](__gm__ float* out) {
    TileF a, c;
    TASSIGN(a, 0x0);
    TASSIGN(c, 0x1000);
    for (int i = 0; i < 10; ++i) TADDS(c, a, 1.0f);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    GmF dst(out);
    TSTORE(dst, c);
  };
  std::vector<float> out(R * C, 0.0f);
  BOOST_TEST(unwritten(launch({.check = SyncCheck::Report}, kernel, out)).size() == 1u);
}

BOOST_AUTO_TEST_CASE(bytes_the_kernel_set_through_the_tile_count_as_written) {
  auto kernel = [](__gm__ float* out) {
    TileF a, c;
    TASSIGN(a, 0x0);
    TASSIGN(c, 0x1000);
    for (int i = 0; i < R * C; ++i) a.SetValue(i, float(i));
    TADDS(c, a, 1.0f);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    GmF dst(out);
    TSTORE(dst, c);
  };
  std::vector<float> out(R * C, 0.0f);
  BOOST_TEST(unwritten(launch({.check = SyncCheck::Report}, kernel, out)).empty());
  for (int i = 0; i < R * C; ++i) BOOST_TEST_REQUIRE(out[std::size_t(i)] == float(i) + 1.0f);
}

BOOST_AUTO_TEST_CASE(auto_mode_a_new_tile_on_a_dead_tiles_bytes_is_unwritten) {
  // Auto mode may give b the bytes a had: what a wrote there is not b's.
  auto kernel = [](__gm__ float* out, __gm__ float* in) {
    GmF src(in), dst(out);
    {
      TileF a;
      TLOAD(a, src);
      TSTORE(dst, a);
    }
    TileF b, c;
    TADDS(c, b, 1.0f);
    TSTORE(dst, c);
  };
  std::vector<float> in(R * C, 1.5f), out(R * C, 0.0f);
  const auto f = unwritten(launch({.mode = Mode::Auto, .check = SyncCheck::Report}, kernel, out, in));
  BOOST_TEST_REQUIRE(f.size() == 1u);
  BOOST_TEST(f[0].first.name == "TADDS");
}

BOOST_AUTO_TEST_CASE(throw_stops_at_the_read) {
  std::vector<float> in(R * C, 1.5f), out(R * C, 0.0f);
  const std::string e = error_of([&] { launch({.check = SyncCheck::Throw}, add_tiles, out, in, false); });
  BOOST_TEST(contains(e, "read of unwritten bytes on core 0: TADD #4"), e);
}

BOOST_AUTO_TEST_CASE(a_nan_fill_shows_the_read_in_the_results) {
  std::vector<float> in(R * C, 1.5f), out(R * C, 0.0f);
  launch({.check = SyncCheck::Off}, add_tiles, out, in, false);  // zeroed buffers: the bug is invisible
  for (float v : out) BOOST_TEST_REQUIRE(v == 1.5f);
  launch({.check = SyncCheck::Off, .fill = 0xFF}, add_tiles, out, in, false);
  for (float v : out) BOOST_TEST_REQUIRE(std::isnan(v));
  launch({.check = SyncCheck::Off, .fill = 0xFF}, add_tiles, out, in, true);  // a correct kernel: unaffected
  for (float v : out) BOOST_TEST_REQUIRE(v == 3.0f);
  ::setenv("PTO_FILL", "NaN", 1);
  launch({.check = SyncCheck::Off}, add_tiles, out, in, false);
  for (float v : out) BOOST_TEST_REQUIRE(std::isnan(v));
  ::setenv("PTO_FILL", "0x40", 1);  // 0x40404040 = 3.0039 as a float
  launch({.check = SyncCheck::Off}, add_tiles, out, in, false);
  for (float v : out) BOOST_TEST_REQUIRE(v == 1.5f + std::bit_cast<float>(0x40404040u));
  ::setenv("PTO_FILL", "0x140", 1);
  BOOST_TEST(contains(error_of([&] { launch({}, add_tiles, out, in, true); }),
                      "PTO_FILL='0x140': use zero, nan (0xFF bytes: NaN in every float type) or a byte, 0 to 255 (0xCD)"));
  ::unsetenv("PTO_FILL");
  BOOST_TEST(contains(error_of([&] { launch({.fill = 256}, add_tiles, out, in, true); }),
                      "pto::launch: fill = 256 is not a byte (0 to 255), or -1 for PTO_FILL"));
}

BOOST_AUTO_TEST_CASE(random_row_writes_leave_exactly_the_reported_bytes) {
  // A 64-row tile of one 32-byte block per row; random row ranges are written (TEXPANDS on a tile placed
  // at the range), then the whole tile is read: the finding's first / last byte and count must be those
  // of the rows no range covered (a bitmap reference).
  constexpr int Rows = 64, Cols = 8, Row = Cols * 4;
  using Whole = Tile<TileType::Vec, float, Rows, Cols>;
  using Part = Tile<TileType::Vec, float, Rows, Cols, BLayout::RowMajor, -1, -1>;
  std::mt19937 g(7);
  int compared = 0, clean = 0;
  for (int c = 0; c < 200; ++c) {
    std::vector<std::pair<int, int>> ranges(std::size_t(g() % 6));
    for (auto& [lo, n] : ranges) {
      lo = int(g() % Rows);
      n = 1 + int(g() % std::uint32_t(Rows - lo));
    }
    if (c % 10 == 0) ranges.emplace_back(g() % 2 ? 0 : 32, 32), ranges.emplace_back(g() % 2 ? 32 : 0, 32);  // covered
    std::vector<bool> written(Rows, false);
    for (const auto& [lo, n] : ranges)
      for (int r = lo; r < lo + n; ++r) written[std::size_t(r)] = true;
    const LaunchReport rep = launch({.check = SyncCheck::Report}, [ranges] {
      for (const auto& [lo, n] : ranges) {
        Part p(n, Cols);
        TASSIGN(p, std::size_t(lo) * Row);
        TEXPANDS(p, 1.0f);
      }
      Whole w, sum;
      TASSIGN(w, 0);
      TASSIGN(sum, 0x4000);
      TADDS(sum, w, 1.0f);
    });
    int first = -1, last = -1, missing = 0;
    for (int r = 0; r < Rows; ++r)
      if (!written[std::size_t(r)]) {
        if (first < 0) first = r;
        last = r;
        ++missing;
      }
    const auto f = unwritten(rep);
    if (missing == 0) {
      BOOST_TEST_REQUIRE(f.empty());
      ++clean;
    } else {
      BOOST_TEST_REQUIRE(f.size() == 1u);
      BOOST_TEST_REQUIRE(f[0].lo == std::uint64_t(first * Row));
      BOOST_TEST_REQUIRE(f[0].hi == std::uint64_t((last + 1) * Row));
      BOOST_TEST_REQUIRE(contains(f[0].message, " reads " + std::to_string(missing * Row) + " byte(s) of its src0 "));
    }
    ++compared;
  }
  BOOST_TEST(compared == 200);
  BOOST_TEST_MESSAGE(compared << " cases, " << clean << " fully written");
  BOOST_TEST(clean > 0);
}
