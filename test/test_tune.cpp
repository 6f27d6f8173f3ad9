// pto::tune::search: a grid of tilings of one kernel, model only, ranked by modeled time. Each
// candidate's figures are checked against its own launch outside the search (functional, two host threads,
// the concurrent policy), so the ranking is the one a user would get trying each tiling by hand.
#define BOOST_TEST_MODULE tune
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>
#include <pto/runtime/tune.hpp>

using namespace pto;

namespace {

constexpr int kCols = 64, kRowsPerCore = 512, kCores = 4;

// Copies each core's 512 x 64 floats through UB in tiles of R rows, with `buffers` UB buffers.
template <int R, int Buffers>
Kernel copy_rows(__gm__ float* out, __gm__ float* in) {
  using TileF = Tile<TileType::Vec, float, R, kCols>;
  using GmF = GlobalTensor<float, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, -1, -1, 1>>;
  TileF buf[Buffers];
  for (int b = 0; b < Buffers; ++b) TASSIGN(buf[b], b * R * kCols * sizeof(float));
  RecordEvent stored[Buffers];
  for (int t = 0; t < kRowsPerCore / R; ++t) {
    const int b = t % Buffers;
    const long row = long(get_block_idx()) * kRowsPerCore + long(t) * R;
    GmF src(in + row * kCols, {R, kCols}, {R * kCols, kCols});
    GmF dst(out + row * kCols, {R, kCols}, {R * kCols, kCols});
    RecordEvent loaded = co_await TLOAD(buf[b], src, stored[b]);
    stored[b] = co_await TSTORE(dst, buf[b], loaded);
  }
}

struct Buffers {
  std::vector<float> in = std::vector<float>(std::size_t(kCores) * kRowsPerCore * kCols, 1.5f);
  std::vector<float> out = std::vector<float>(std::size_t(kCores) * kRowsPerCore * kCols, 0.0f);
};

template <int R, int B>
tune::Candidate candidate(Buffers& io) {
  return {std::to_string(R) + " rows x " + std::to_string(B) + " buffers",
          [&io](const LaunchConfig& cfg) { return launch(cfg, copy_rows<R, B>, io.out, io.in); }};
}

std::vector<tune::Candidate> grid(Buffers& io) {
  // 512 rows x 2 buffers needs 256 KiB of UB: more than A2/A3's, so that candidate cannot run.
  return {candidate<16, 1>(io),  candidate<16, 2>(io),  candidate<64, 1>(io),  candidate<64, 2>(io),
          candidate<128, 2>(io), candidate<512, 2>(io), candidate<32, 2>(io),  candidate<256, 1>(io)};
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_ranking_is_each_candidates_own_launch_sorted) {
  Buffers io;
  const std::vector<tune::Candidate> g = grid(io);
  const std::vector<tune::Result> ranked = tune::search(g, {.config = {.blocks = kCores}, .host_threads = 2});
  BOOST_TEST_REQUIRE(ranked.size() == g.size());
  int compared = 0;
  for (const tune::Candidate& c : g) {
    const auto it = std::find_if(ranked.begin(), ranked.end(), [&](const tune::Result& r) { return r.name == c.name; });
    BOOST_TEST_REQUIRE((it != ranked.end()), c.name);
    if (c.name == "512 rows x 2 buffers") {
      BOOST_TEST(!it->ok);
      BOOST_TEST(it->error.find("UB") != std::string::npos, it->error);
      BOOST_TEST((it == ranked.end() - 1), "the failed candidate is ranked last");
      continue;
    }
    BOOST_TEST_REQUIRE(it->ok, c.name << ": " << it->error);
    // The same tiling launched on its own, computing, on two host threads: the same modeled figures.
    std::fill(io.out.begin(), io.out.end(), 0.0f);
    const LaunchReport own = c.run({.blocks = kCores, .policy = Policy::Concurrent, .host_threads = 2});
    BOOST_TEST(std::count(io.out.begin(), io.out.end(), 1.5f) == long(io.out.size()), c.name);
    BOOST_TEST(it->cycles == own.cycles, c.name);
    BOOST_TEST(it->microseconds == own.microseconds(), c.name);
    // What bounds it, from that launch's slowest core: a copy is bound by a DMA pipe.
    const CoreReport* slow = &own.cores[0];
    for (const CoreReport& k : own.cores) slow = k.cycles > slow->cycles ? &k : slow;
    std::uint64_t most = 0;
    for (int p : {int(PIPE_S), int(PIPE_V), int(PIPE_MTE1), int(PIPE_MTE2), int(PIPE_MTE3), int(PIPE_M), int(PIPE_FIX)})
      most = std::max(most, slow->pipes[std::size_t(p)].busy_cycles);
    BOOST_TEST(it->bound_share == double(most) / double(slow->cycles), c.name);
    BOOST_TEST((it->bound_pipe == PIPE_MTE2 || it->bound_pipe == PIPE_MTE3), c.name << ": " << it->bound);
    ++compared;
  }
  BOOST_TEST(compared == 7);
  for (std::size_t k = 1; k + 1 < ranked.size(); ++k) BOOST_TEST(ranked[k - 1].cycles <= ranked[k].cycles);
  // Double buffering wins at every tile size the grid tries both ways.
  auto cycles = [&](const std::string& n) {
    return std::find_if(ranked.begin(), ranked.end(), [&](const tune::Result& r) { return r.name == n; })->cycles;
  };
  BOOST_TEST(cycles("16 rows x 2 buffers") < cycles("16 rows x 1 buffers"));
  BOOST_TEST(cycles("64 rows x 2 buffers") < cycles("64 rows x 1 buffers"));
}

BOOST_AUTO_TEST_CASE(the_ranking_does_not_depend_on_the_host_threads) {
  Buffers io;
  const std::vector<tune::Result> one = tune::search(grid(io), {.config = {.blocks = kCores}, .host_threads = 1});
  const std::vector<tune::Result> three = tune::search(grid(io), {.config = {.blocks = kCores}, .host_threads = 3});
  BOOST_TEST_REQUIRE(one.size() == three.size());
  for (std::size_t k = 0; k < one.size(); ++k) {
    BOOST_TEST(one[k].name == three[k].name);
    BOOST_TEST(one[k].cycles == three[k].cycles);
    BOOST_TEST(one[k].bound == three[k].bound);
  }
}

BOOST_AUTO_TEST_CASE(the_table_shows_the_top_and_every_failure) {
  Buffers io;
  const std::vector<tune::Result> ranked = tune::search(grid(io), {.config = {.blocks = kCores}});
  const std::string all = tune::ranking(ranked), top2 = tune::ranking(ranked, 2);
  BOOST_TEST_MESSAGE(all);
  BOOST_TEST(all.find(ranked[0].name) != std::string::npos);
  BOOST_TEST(all.find(ranked[6].name) != std::string::npos);
  BOOST_TEST(top2.find(ranked[2].name) == std::string::npos, top2);
  BOOST_TEST(top2.find("5 more ran") != std::string::npos, top2);
  for (const std::string& t : {all, top2}) {
    BOOST_TEST(t.find("1 candidate(s) did not run") != std::string::npos, t);
    BOOST_TEST(t.find("512 rows x 2 buffers: ") != std::string::npos, t);
  }
}

BOOST_AUTO_TEST_CASE(a_grid_without_names_or_with_a_name_twice_is_an_error) {
  Buffers io;
  auto message = [](const std::vector<tune::Candidate>& g) {
    try {
      tune::search(g);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  BOOST_TEST(message({candidate<16, 1>(io), candidate<16, 1>(io)}).find("two candidates are named \"16 rows x 1 buffers\"") !=
             std::string::npos);
  BOOST_TEST(message({{"", candidate<16, 1>(io).run}}).find("a candidate has no name") != std::string::npos);
  BOOST_TEST(message({{"x", nullptr}}).find("candidate \"x\" has no run function") != std::string::npos);
  BOOST_TEST(tune::search({}).empty());
}
