// Clusters: one cube core (AIC) and two vector cores (AIV) per block (pto::launch_mix), cross-core
// flags between them, and tiles passed through TPUSH / TPOP. Data is checked against double-precision
// references; modeled times are checked exactly where the protocol fixes them (a wait ends at its
// set's time), and are the same under both policies and any number of host threads.
#define BOOST_TEST_MODULE clusters
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

#include "test_util.hpp"

using namespace pto;

namespace {

using pto_test::error_text;

// ---- ids -----------------------------------------------------------------------------------------

void record_ids(__gm__ int* out) {
  const int core = int(get_block_idx()) * 3 + (get_subblockdim() == 2 ? 1 + int(get_subblockid()) : 0);
  out[core * 4 + 0] = int(get_block_idx());
  out[core * 4 + 1] = int(get_block_num());
  out[core * 4 + 2] = int(get_subblockid());
  out[core * 4 + 3] = int(get_subblockdim());
}

BOOST_AUTO_TEST_CASE(cluster_ids_and_the_report_name_each_core) {
  for (Target target : {Target::A2A3, Target::A5})
  for (int threads : {1, 2, 8}) {
    std::vector<int> out(4 * 3 * 4, -1);
    LaunchReport r = launch_mix({.blocks = 4, .target = target, .host_threads = threads}, record_ids, record_ids, out);
    BOOST_REQUIRE_EQUAL(r.cores.size(), 12u);
    for (int c = 0; c < 12; ++c) {
      const bool aiv = c % 3 != 0;
      BOOST_TEST(out[std::size_t(c) * 4 + 0] == c / 3);
      BOOST_TEST(out[std::size_t(c) * 4 + 1] == 4);
      BOOST_TEST(out[std::size_t(c) * 4 + 2] == (aiv ? c % 3 - 1 : 0));
      BOOST_TEST(out[std::size_t(c) * 4 + 3] == (aiv ? 2 : 1));
      BOOST_TEST(r.cores[std::size_t(c)].block == c / 3);
      BOOST_TEST((r.cores[std::size_t(c)].kind == (aiv ? CoreKind::Vector : CoreKind::Cube)));
    }
    BOOST_TEST(r.cores[0].label() == "cluster 0 AIC");
    BOOST_TEST(r.cores[5].label() == "cluster 1 AIV1");
  }
  // A plain launch is unchanged: every core is block b of kind Any, sub-block 0 of 1.
  std::vector<int> out(4 * 3 * 4, -1);
  launch({.blocks = 2}, [](__gm__ int* o) {
    const int b = int(get_block_idx());
    o[b * 2] = int(get_subblockid());
    o[b * 2 + 1] = int(get_subblockdim());
  }, out);
  BOOST_TEST(out[0] == 0);
  BOOST_TEST(out[1] == 1);
  BOOST_TEST(out[2] == 0);
}

// ---- engines: an AIC has no vector unit, an AIV no cube ---------------------------------------------

using VecF = Tile<TileType::Vec, float, 16, 16>;
using MatH = Tile<TileType::Mat, half, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor, 512>;

BOOST_AUTO_TEST_CASE(an_instruction_of_the_other_kind_of_core_is_an_error) {
  auto vec_on_aic = [] {
    launch_mix({.blocks = 1}, [] {
      VecF t;
      TASSIGN(t, 0);
      TEXPANDS(t, 1.0f);
    }, [] {});
  };
  BOOST_TEST(error_text(vec_on_aic).find("cluster 0 AIC: TEXPANDS: cluster 0 AIC is a cube core (AIC), which has no buffer for Vec "
                                       "tiles (operand 0); TEXPANDS on that buffer runs on the vector cores") == 0u,
             error_text(vec_on_aic));
  std::vector<half> gm(256);
  auto mat_on_aiv = [&] {
    launch_mix({.blocks = 1}, [](__gm__ half*) {}, [](__gm__ half* g) {
      MatH m;
      TASSIGN(m, 0);
      GlobalTensor<half, Shape<1, 1, 1, 16, 16>, pto::Stride<1, 1, 1, 16, 1>> t(g);
      TLOAD(m, t);
    }, gm);
  };
  BOOST_TEST(error_text(mat_on_aiv).find("cluster 0 AIV0: TLOAD: cluster 0 AIV0 is a vector core (AIV), which has no buffer for "
                                       "Mat tiles") == 0u, error_text(mat_on_aiv));
  auto fix_set_on_aiv = [] {
    launch_mix({.blocks = 1}, [] {}, [] { ffts_cross_core_sync(PIPE_FIX, 1 | 2 << 4 | 3 << 8); });
  };
  BOOST_TEST(error_text(fix_set_on_aiv).find("which has no PIPE_FIX") != std::string::npos, error_text(fix_set_on_aiv));
  // A mixed barrier needs clusters; a cross-core flag needs another core.
  BOOST_TEST(error_text([] { launch({.blocks = 2}, [] { SYNCALL<SyncCoreType::Mix>(); }); }).find("this launch has no clusters") !=
             std::string::npos);
  BOOST_TEST(error_text([] { wait_flag_dev(3); }).find("wait_flag_dev(3) outside pto::launch") != std::string::npos);
  BOOST_TEST(error_text([] { launch({.blocks = 2}, [] { ffts_cross_core_sync(PIPE_MTE3, 1 | 2 << 4 | 3 << 8); }); })
                 .find("mode 2 syncs a cube core (AIC) with its two vector cores") != std::string::npos);
}

// ---- cross-core flags: modeled times -----------------------------------------------------------------

using MatBig = Tile<TileType::Mat, half, 128, 128, BLayout::ColMajor, 128, 128, SLayout::RowMajor, 512>;
using GmBig = GlobalTensor<half, Shape<1, 1, 1, 128, 128>, pto::Stride<1, 1, 1, 128, 1>>;
using GmVec = GlobalTensor<float, Shape<1, 1, 1, 16, 16>, pto::Stride<1, 1, 1, 16, 1>>;

// The AIC loads a 32 KiB tile and signals both AIVs from MTE2 (mode 2, flag 3) when the load is done;
// the AIVs wait for it, then AIV s loads s + 1 tiles of its own and signals back (flag 4): the AIC's
// wait ends when the later of the two has set it.
void flags_cube(__gm__ half* a, __gm__ float*) {
  MatBig m;
  TASSIGN(m, 0);
  GmBig g(a);
  TLOAD(m, g);
  ffts_cross_core_sync(PIPE_MTE2, 1 | 2 << 4 | 3 << 8);
  wait_flag_dev(4);
}
void flags_vec(__gm__ half*, __gm__ float* v) {
  wait_flag_dev(3);
  VecF t;
  TASSIGN(t, 0);
  GmVec g(v);
  for (int i = 0; i <= get_subblockid(); ++i) TLOAD(t, g);
  ffts_cross_core_sync(PIPE_MTE2, 1 | 2 << 4 | 4 << 8);
}

const TimelineEntry& find(const CoreReport& c, const std::string& name, int nth = 0) {
  for (const TimelineEntry& e : c.timeline)
    if (c.name(e).rfind(name, 0) == 0 && nth-- == 0) return e;  // "wait_flag_dev(3)" for "wait_flag_dev"
  BOOST_FAIL("no " + name + " on " + c.label());
  static TimelineEntry none;
  return none;
}

BOOST_AUTO_TEST_CASE(a_flag_wait_ends_when_its_set_retires_and_mode_2_gathers_both_aivs) {
  std::vector<half> a(128 * 128);
  std::vector<float> v(256);
  std::uint64_t first = 0;
  int runs = 0;
  for (Policy p : {Policy::Deterministic, Policy::Concurrent})
    for (int threads : {1, 2, 4}) {
      LaunchReport r = launch_mix({.blocks = 2, .policy = p, .host_threads = threads, .timeline = true}, flags_cube, flags_vec, a, v);
      for (int b = 0; b < 2; ++b) {
        const CoreReport &aic = r.cores[std::size_t(3 * b)], &aiv0 = r.cores[std::size_t(3 * b + 1)],
                         &aiv1 = r.cores[std::size_t(3 * b + 2)];
        const TimelineEntry& load = find(aic, "TLOAD");
        const TimelineEntry& set = find(aic, "ffts_cross_core_sync");
        BOOST_TEST(set.end == load.end);  // queued behind the TLOAD on MTE2, no cycles of its own
        for (const CoreReport* aiv : {&aiv0, &aiv1}) BOOST_TEST(find(*aiv, "wait_flag_dev").end == set.end);
        const std::uint64_t back = std::max(find(aiv0, "ffts_cross_core_sync").end, find(aiv1, "ffts_cross_core_sync").end);
        BOOST_TEST(find(aiv1, "ffts_cross_core_sync").end > find(aiv0, "ffts_cross_core_sync").end);  // two loads, one
        BOOST_TEST(find(aic, "wait_flag_dev").end == back);
        BOOST_TEST(aic.pipes[PIPE_S].idle[int(Stall::Cores)] > 0u);
      }
      if (!runs++) first = r.cycles;
      BOOST_TEST(r.cycles == first);
    }
  BOOST_TEST(runs == 6);
}

BOOST_AUTO_TEST_CASE(a_wait_no_core_will_satisfy_is_a_deadlock_naming_the_cores) {
  for (int threads : {1, 3}) {
    const std::string e = error_text([&] {
      launch_mix({.blocks = 1, .host_threads = threads}, [] { wait_flag_dev(5); }, [] {
        if (get_subblockid() == 1) wait_flag_dev(6);
      });
    });
    BOOST_TEST(e.find("cluster 0 AIC: deadlock across cores: no core can go on. cluster 0 AIC waits at wait_flag_dev(5)") == 0u, e);
    BOOST_TEST(e.find("cluster 0 AIV1 waits at wait_flag_dev(6)") != std::string::npos, e);
    BOOST_TEST(e.find("cluster 0 AIV0 ended.") != std::string::npos, e);
  }
  // A 16th set of one flag before its wait overflows the chip's 4-bit counter.
  const std::string e = error_text([] {
    launch_mix({.blocks = 1}, [] {
      for (int i = 0; i < 16; ++i) ffts_cross_core_sync(PIPE_MTE2, 1 | 2 << 4 | 7 << 8);
    }, [] {});
  });
  BOOST_TEST(e.find("cross-core flag 7 of cluster 0 AIV0 counts 16 signals not yet waited for at modeled cycle ") == 0u, e);
  // Two producers of one counter: which signal a wait takes would be the host's order.
  const std::string two = error_text([] {
    launch_mix({.blocks = 1}, [] { ffts_cross_core_sync(PIPE_S, 1 | 2 << 4 | 9 << 8); },
               [] { ffts_cross_core_sync(PIPE_S, 1 | 1 << 4 | 9 << 8); });
  });
  BOOST_TEST(two.find("cross-core flag 9 of cluster 0 AIV") != std::string::npos, two);
  BOOST_TEST(two.find(" is set by cluster 0 AIC and by cluster 0 AIV0: ") != std::string::npos, two);
}

// The AIC sets flag 2 forty times, each after a 32 KiB load, from the scalar pipe once a pipe_barrier has
// drained MTE2; the AIVs wait for each. On one host thread the AIC runs to its end before the AIVs
// start, 40 signals ahead, yet in modeled time each signal is waited for long before the next: the 4-bit
// counter check is in modeled time, so no error, and the same cycles on any number of threads.
void many_sets_cube(__gm__ half* a) {
  MatBig m;
  TASSIGN(m, 0);
  GmBig g(a);
  for (int i = 0; i < 40; ++i) {
    TLOAD(m, g);
    pipe_barrier(PIPE_ALL);
    ffts_cross_core_sync(PIPE_S, 1 | 2 << 4 | 2 << 8);
  }
}
void many_sets_vec(__gm__ half*) {
  for (int i = 0; i < 40; ++i) wait_flag_dev(2);
}

BOOST_AUTO_TEST_CASE(flag_counters_are_checked_in_modeled_time_and_a_scalar_set_needs_no_queue) {
  std::vector<half> a(128 * 128);
  std::uint64_t first = 0;
  int runs = 0;
  for (Policy p : {Policy::Deterministic, Policy::Concurrent})
    for (int threads : {1, 2, 3}) {
      const LaunchReport r = launch_mix({.blocks = 1, .policy = p, .host_threads = threads, .timeline = true},
                                        many_sets_cube, many_sets_vec, a);
      const CoreReport& aic = r.cores[0];
      for (int i : {0, 39}) {
        const TimelineEntry& set = find(aic, "ffts_cross_core_sync", i);
        BOOST_TEST(set.end >= find(aic, "TLOAD", i).end);  // after the barrier: the load is done
        for (int v : {1, 2}) BOOST_TEST(find(r.cores[std::size_t(v)], "wait_flag_dev", i).end == set.end);
      }
      if (!runs++) first = r.cycles;
      BOOST_TEST(r.cycles == first);
    }
  BOOST_TEST(runs == 6);
}

BOOST_AUTO_TEST_CASE(syncall_mix_meets_every_core_and_aivonly_the_vector_cores) {
  // Every core arrives at a different time; each group's cores leave together.
  auto body = [](int group) {
    VecF t;
    MatBig m;
    if (get_subblockdim() == 2) {
      TASSIGN(t, 0);
      for (int i = 0; i <= get_block_idx() * 2 + get_subblockid(); ++i) TEXPANDS(t, 1.0f);
    } else {
      TASSIGN(m, 0);
    }
    if (group == 0) SYNCALL<SyncCoreType::Mix>();
    else SYNCALL<SyncCoreType::AIVOnly>();  // on the AIC only its own barrier
  };
  for (int group : {0, 1}) {
    LaunchReport r = launch_mix({.blocks = 2, .timeline = true}, [&] { body(group); }, [&] { body(group); });
    std::vector<std::uint64_t> ends;
    for (const CoreReport& c : r.cores) ends.push_back(find(c, "SYNCALL").end);
    for (int c = 0; c < 6; ++c)
      if (group == 0 || c % 3) BOOST_TEST(ends[std::size_t(c)] == ends[1]);
    if (group == 1) BOOST_TEST(ends[0] < ends[1]);  // the AIC did not wait for the vector cores
  }
}

// ---- TPUSH / TPOP: cube -> vector -----------------------------------------------------------------

constexpr int M = 32, K = 32, N = 32;
using MatA = Tile<TileType::Mat, half, M, K, BLayout::ColMajor, M, K, SLayout::RowMajor, 512>;
using MatB = Tile<TileType::Mat, half, K, N, BLayout::RowMajor, K, N, SLayout::ColMajor, 512>;  // ZN
using LeftT = TileLeft<half, M, K>;
using RightT = TileRight<half, K, N>;
using AccT = TileAcc<float, M, N>;
using GmA = GlobalTensor<half, Shape<1, 1, 1, M, K>, pto::Stride<1, 1, 1, K, 1>>;
using GmB = GlobalTensor<half, Shape<1, 1, 1, K, N>, pto::Stride<1, 1, 1, 1, K>, Layout::DN>;  // B column-major

// out_t = bias + X_t B for `tiles` M x K tiles X_t (B column-major), checked against double products:
// (outputs compared, outputs off by more than 1e-4 relative).
std::pair<std::size_t, std::size_t> gemm_mismatches(const std::vector<half>& x, const std::vector<half>& b,
                                                    const std::vector<float>& out, int tiles, double bias) {
  std::size_t compared = 0, bad = 0;
  for (int t = 0; t < tiles; ++t)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j, ++compared) {
        double ref = bias;
        for (int k = 0; k < K; ++k)
          ref += double(x[std::size_t(t) * M * K + std::size_t(i) * K + std::size_t(k)]) * double(b[std::size_t(j) * K + std::size_t(k)]);
        if (std::fabs(out[std::size_t(t) * M * N + std::size_t(i) * N + std::size_t(j)] - ref) > 1e-4 * (1 + std::fabs(ref))) ++bad;
      }
  return {compared, bad};
}

// Tile t of the cube side: A_t x B, pushed to the AIVs split `Split`; AIV s adds 1 to its part and
// stores it into out_t's part. SlotNum and the split are the test's parameters.
template <std::uint32_t Slots, TileSplitAxis Split, std::uint8_t Dir = DIR_C2V>
struct C2V {
  using Pipe = TPipe<0, Dir, M * N * 4, Slots>;
  static constexpr int VR = Split == TILE_UP_DOWN ? M / 2 : M, VC = Split == TILE_LEFT_RIGHT ? N / 2 : N;
  using Part = Tile<TileType::Vec, float, VR, VC>;

  static void cube(__gm__ half* a, __gm__ half* b, __gm__ float* slots, __gm__ float*, int tiles) {
    Pipe pipe(slots, 0x0, 0x0);
    MatA ma;
    MatB mb;
    LeftT l;
    RightT r;
    AccT acc;
    TASSIGN(ma, 0x0);
    TASSIGN(mb, 0x8000);
    TASSIGN(l, 0x0);
    TASSIGN(r, 0x0);
    TASSIGN(acc, 0x0);
    GmB gb(b);
    TLOAD(mb, gb);
    TEXTRACT(r, mb, 0, 0);
    for (int t = 0; t < tiles; ++t) {
      GmA ga(a + std::size_t(t) * M * K);
      TLOAD(ma, ga);
      TEXTRACT(l, ma, 0, 0);
      TMATMUL(acc, l, r);
      TPUSH<Pipe, AccT, Split>(pipe, acc);
    }
  }
  static void vec(__gm__ half*, __gm__ half*, __gm__ float* slots, __gm__ float* out, int tiles) {
    Pipe pipe(slots, 0x0, 0x0);
    Part in, res;
    TASSIGN(res, 0x10000);
    const int sub = int(get_subblockid());
    for (int t = 0; t < tiles; ++t) {
      TPOP<Pipe, Part, Split>(pipe, in);
      TADDS(res, in, 1.0f);
      float* o = out + std::size_t(t) * M * N + (Split == TILE_UP_DOWN ? sub * VR * N : Split == TILE_LEFT_RIGHT ? sub * VC : 0);
      GlobalTensor<float, Shape<1, 1, 1, VR, VC>, pto::Stride<1, 1, 1, N, 1>> g(o);
      if (Split != TILE_NO_SPLIT || sub == 0) TSTORE(g, res);
    }
  }

  static void run(Target target, Policy policy, int threads, int tiles = 5) {
    auto a = pto_test::random_vector<half>(std::size_t(tiles) * M * K, -1, 1, 11);
    auto b = pto_test::random_vector<half>(std::size_t(K) * N, -1, 1, 12);
    std::vector<float> ring(static_cast<std::size_t>(Slots) * M * N), out(static_cast<std::size_t>(tiles) * M * N, -7.0f);
    launch_mix({.blocks = 1, .target = target, .mode = Mode::Auto, .policy = policy, .host_threads = threads,
                .check = SyncCheck::Throw},
               cube, vec, a, b, ring, out, tiles);
    const auto [compared, bad] = gemm_mismatches(a, b, out, tiles, 1.0);
    BOOST_TEST(compared == std::size_t(tiles) * M * N);
    BOOST_TEST(bad == 0u);
  }
};

BOOST_AUTO_TEST_CASE(tpush_tpop_cube_to_vector_every_split_both_depths) {
  for (Policy p : {Policy::Deterministic, Policy::Concurrent})
    for (int threads : {1, 3}) {
      C2V<1, TILE_UP_DOWN>::run(Target::A2A3, p, threads);
      C2V<8, TILE_UP_DOWN>::run(Target::A2A3, p, threads, 20);
      C2V<2, TILE_LEFT_RIGHT>::run(Target::A2A3, p, threads);
      C2V<2, TILE_NO_SPLIT>::run(Target::A2A3, p, threads);
      // A5 through GM (intra-block flags; the ring's depth covers the tiles: see docs/clusters.md on A5's
      // constructor credits).
      C2V<8, TILE_UP_DOWN, DIR_C2V_GM>::run(Target::A5, p, threads);
      C2V<8, TILE_LEFT_RIGHT, DIR_C2V_GM>::run(Target::A5, p, threads, 8);
    }
}

// ---- TPUSH / TPOP: vector -> cube ------------------------------------------------------------------

// AIV s loads its half (rows, split UP_DOWN) of X_t and pushes it; the cube pops the whole X_t into L1
// (ND -> NZ) and multiplies it by B.
template <std::uint32_t Slots, std::uint8_t Dir = DIR_V2C>
struct V2C {
  using Pipe = TPipe<2, Dir, M * K * 2, Slots>;
  using Half = Tile<TileType::Vec, half, M / 2, K>;
  using GmHalf = GlobalTensor<half, Shape<1, 1, 1, M / 2, K>, pto::Stride<1, 1, 1, K, 1>>;
  using GmC = GlobalTensor<float, Shape<1, 1, 1, M, N>, pto::Stride<1, 1, 1, N, 1>>;

  static void cube(__gm__ half* x, __gm__ half* b, __gm__ half* ring, __gm__ float* out, int tiles) {
    (void)x;
    Pipe pipe(ring, 0x0, 0x10000);
    MatA in;
    MatB mb;
    LeftT l;
    RightT r;
    AccT acc;
    TASSIGN(mb, 0x0);
    TASSIGN(l, 0x0);
    TASSIGN(r, 0x0);
    TASSIGN(acc, 0x0);
    GmB gb(b);
    TLOAD(mb, gb);
    TEXTRACT(r, mb, 0, 0);
    for (int t = 0; t < tiles; ++t) {
      TPOP<Pipe, MatA, TILE_UP_DOWN>(pipe, in);
      TEXTRACT(l, in, 0, 0);
      TMATMUL(acc, l, r);
      GmC gc(out + std::size_t(t) * M * N);
      TSTORE(gc, acc);
    }
  }
  static void vec(__gm__ half* x, __gm__ half*, __gm__ half* ring, __gm__ float*, int tiles) {
    Pipe pipe(ring, 0x0, 0x10000);
    Half h;
    TASSIGN(h, 0x0);
    for (int t = 0; t < tiles; ++t) {
      GmHalf g(x + std::size_t(t) * M * K + std::size_t(get_subblockid()) * (M / 2) * K);
      TLOAD(h, g);
      TPUSH<Pipe, Half, TILE_UP_DOWN>(pipe, h);
    }
  }
  static void run(Target target, Policy policy, int threads, int tiles) {
    auto x = pto_test::random_vector<half>(std::size_t(tiles) * M * K, -1, 1, 21);
    auto b = pto_test::random_vector<half>(std::size_t(K) * N, -1, 1, 22);
    std::vector<half> ring(static_cast<std::size_t>(Slots) * M * K);
    std::vector<float> out(static_cast<std::size_t>(tiles) * M * N, -7.0f);
    launch_mix({.blocks = 1, .target = target, .mode = Mode::Auto, .policy = policy, .host_threads = threads,
                .check = SyncCheck::Throw},
               cube, vec, x, b, ring, out, tiles);
    const auto [compared, bad] = gemm_mismatches(x, b, out, tiles, 0.0);
    BOOST_TEST(compared == std::size_t(tiles) * M * N);
    BOOST_TEST(bad == 0u);
  }
};

BOOST_AUTO_TEST_CASE(tpush_tpop_vector_to_cube_both_targets) {
  for (Policy p : {Policy::Deterministic, Policy::Concurrent})
    for (int threads : {1, 3}) {
      V2C<1>::run(Target::A2A3, p, threads, 6);
      V2C<8>::run(Target::A2A3, p, threads, 19);
      V2C<8, DIR_V2C_GM>::run(Target::A5, p, threads, 8);
    }
}

// ---- the checker sees the slots between the cores ---------------------------------------------------

// The GlobalTensor forms, vector -> cube through one slot: each AIV TALLOCs its half of the slot, stores
// X_t's half into it and TPUSHes; the cube TPOPs the slot, loads it into L1 and TFREEs it, then
// multiplies. `free_first`: the cube frees the slot before loading it (the misuse): the AIVs' next
// TSTORE into the slot may land while the cube still reads it - a race the checker must name.
template <bool free_first>
struct SlotReuse {
  using Pipe = TPipe<6, DIR_V2C, M * K * 2, 1>;
  using Half = Tile<TileType::Vec, half, M / 2, K>;
  using GmHalf = GlobalTensor<half, Shape<1, 1, 1, M / 2, K>, pto::Stride<1, 1, 1, K, 1>>;
  using GmC = GlobalTensor<float, Shape<1, 1, 1, M, N>, pto::Stride<1, 1, 1, N, 1>>;
  static void cube(__gm__ half* x, __gm__ half* b, __gm__ half* ring, __gm__ float* out, int tiles) {
    (void)x;
    Pipe pipe(ring, 0x0, 0x0);
    MatA in;
    MatB mb;
    LeftT l;
    RightT r;
    AccT acc;
    TASSIGN(in, 0x8000);
    TASSIGN(mb, 0x0);
    TASSIGN(l, 0x0);
    TASSIGN(r, 0x0);
    TASSIGN(acc, 0x0);
    GmB gb(b);
    TLOAD(mb, gb);
    TEXTRACT(r, mb, 0, 0);
    for (int t = 0; t < tiles; ++t) {
      GmA slot(ring);
      TPOP<Pipe, GmA, TILE_UP_DOWN>(pipe, slot);
      if (free_first) TFREE<Pipe, GmA, TILE_UP_DOWN>(pipe, slot);
      TLOAD(in, slot);
      if (!free_first) TFREE<Pipe, GmA, TILE_UP_DOWN>(pipe, slot);
      TEXTRACT(l, in, 0, 0);
      TMATMUL(acc, l, r);
      GmC gc(out + std::size_t(t) * M * N);
      TSTORE(gc, acc);
    }
  }
  static void vec(__gm__ half* x, __gm__ half*, __gm__ half* ring, __gm__ float*, int tiles) {
    Pipe pipe(ring, 0x0, 0x0);
    Half h;
    TASSIGN(h, 0x0);
    for (int t = 0; t < tiles; ++t) {
      GmHalf g(x + std::size_t(t) * M * K + std::size_t(get_subblockid()) * (M / 2) * K);
      TLOAD(h, g);
      GmHalf slot(ring);
      TALLOC<Pipe, GmHalf, TILE_UP_DOWN>(pipe, slot);
      TSTORE(slot, h);
      TPUSH<Pipe, GmHalf, TILE_UP_DOWN>(pipe, slot);
    }
  }
  static LaunchReport run(int threads, std::size_t& bad) {
    constexpr int tiles = 4;
    auto x = pto_test::random_vector<half>(std::size_t(tiles) * M * K, -1, 1, 31);
    auto b = pto_test::random_vector<half>(std::size_t(K) * N, -1, 1, 32);
    std::vector<half> ring(std::size_t(M) * K);
    std::vector<float> out(std::size_t(tiles) * M * N, -7.0f);
    LaunchReport rep = launch_mix({.blocks = 1, .mode = Mode::Auto, .host_threads = threads}, cube, vec, x, b, ring, out, tiles);
    const auto [compared, mismatched] = gemm_mismatches(x, b, out, tiles, 0.0);
    BOOST_TEST(compared == std::size_t(tiles) * M * N);
    bad = mismatched;
    return rep;
  }
};

BOOST_AUTO_TEST_CASE(the_checker_finds_a_slot_read_after_its_tfree_and_not_its_fixed_twin) {
  std::string first_message;
  for (int threads : {1, 3}) {
    BOOST_TEST_CONTEXT("host threads " << threads) {
      std::size_t bad = 0;
      const LaunchReport fixed = SlotReuse<false>::run(threads, bad);
      BOOST_TEST(fixed.findings().empty(), fixed);
      BOOST_TEST(bad == 0u);  // 4 x 32 x 32 outputs against the double reference
      const LaunchReport racy = SlotReuse<true>::run(threads, bad);
      std::size_t races = 0;
      for (const SyncFinding& f : racy.findings()) {
        BOOST_TEST((f.kind == SyncFinding::Kind::Race && f.memory == Memory::GM), f.message);
        // The cube's read and an AIV's store into the freed slot, in modeled-time order (either may start first).
        BOOST_TEST((f.hazard == SyncFinding::Hazard::WAR || f.hazard == SyncFinding::Hazard::RAW), f.message);
        BOOST_TEST(f.message.find("cross-core race in cluster 0: cluster 0 ") == 0u, f.message);
        BOOST_TEST(f.message.find("AIC's TLOAD #") != std::string::npos, f.message);
        BOOST_TEST(f.message.find("AIV" + std::to_string(f.core == 2 || f.first_core == 2 ? 1 : 0) + "'s TSTORE #") != std::string::npos, f.message);
        BOOST_TEST(f.message.find("A slot read after its TFREE") != std::string::npos, f.message);
        ++races;
      }
      BOOST_TEST(races == 6u);  // 3 reuses of the slot x 2 AIVs
      // The host's order changes nothing: the same pairs, in the same order.
      std::string pairs;
      for (const SyncFinding& f : racy.findings())
        pairs += std::to_string(f.first_core) + ":" + std::to_string(f.first.seq) + "-" + std::to_string(f.core) + ":" +
                 std::to_string(f.second.seq) + "/" + std::to_string(int(f.hazard)) + "/" + std::to_string(f.hi - f.lo) + " ";
      if (threads == 3) BOOST_TEST(pairs == first_message);
      else first_message = pairs;
    }
  }
}

// The two AIVs of a cluster also meet at SYNCALL<AIVOnly>: AIV0's store, the barrier, AIV1's load of the
// same bytes is no race; without the barrier it is one (each cluster's AIVs, both clusters).
BOOST_AUTO_TEST_CASE(aivonly_syncall_orders_a_clusters_two_aivs) {
  using Row = Tile<TileType::Vec, float, 1, 64>;
  using GmRow = GlobalTensor<float, Shape<1, 1, 1, 1, 64>, pto::Stride<1, 1, 1, 64, 1>>;
  for (bool barrier : {true, false}) {
    std::vector<float> buf(2 * 64, 0.0f);
    auto vec = [barrier](__gm__ float* g) {
      Row t;
      GmRow row(g + std::size_t(get_block_idx()) * 64);
      if (get_subblockid() == 0) {
        TEXPANDS(t, 5.0f);
        TSTORE(row, t);
      }
      if (barrier) SYNCALL<SyncCoreType::AIVOnly>();
      if (get_subblockid() == 1) TLOAD(t, row);
    };
    const LaunchReport r = launch_mix({.blocks = 2, .mode = Mode::Auto, .check = SyncCheck::Report}, [](__gm__ float*) {}, vec, buf);
    std::size_t races = 0;
    for (const SyncFinding& f : r.findings())
      if (f.kind == SyncFinding::Kind::Race && f.message.find("cross-core race in cluster") == 0) ++races;
    BOOST_TEST(races == (barrier ? 0u : 2u), r);
  }
}

// ---- back-pressure: a full ring blocks the producer, in modeled time --------------------------------

// Cross-core waits are attributed to the core whose signal ended them: the AIC's to the AIVs' frees
// (TPOP), the AIVs' to the cube's TPUSH. Each wait has one cross-core edge, drawn in both pictures.
void check_cross_attribution(const LaunchReport& r, int tiles, int aic_waits) {
  std::size_t edges = 0;
  for (const CoreReport& c : r.cores) {
    const PipeStats& s = c.pipes[PIPE_S];
    std::uint64_t named = 0;
    for (const CoreIdle& w : s.cores) {
      BOOST_TEST((c.kind == CoreKind::Cube ? w.core != 0 : w.core == 0), c.label() << " waits on core " << w.core);
      BOOST_TEST(std::string(w.longest_name) == (c.kind == CoreKind::Cube ? "TPOP" : "TPUSH"));
      BOOST_TEST(w.longest <= w.cycles);
      named += w.cycles;
    }
    BOOST_TEST(named == s.idle[int(Stall::Cores)]);  // every cross-core wait here has a setter
    BOOST_TEST(c.cross_edges.size() == std::size_t(c.kind == CoreKind::Cube ? aic_waits : tiles));
    for (const CoreReport::CrossEdge& x : c.cross_edges) {
      const CoreReport& from = r.cores[std::size_t(x.from_core)];
      const auto it = std::find_if(from.timeline.begin(), from.timeline.end(), [&](const TimelineEntry& e) { return e.seq == x.from_seq; });
      BOOST_TEST_REQUIRE((it != from.timeline.end()));
      BOOST_TEST(from.name(*it).rfind(c.kind == CoreKind::Cube ? "TPOP: ffts_cross_core_sync" : "TPUSH: ffts_cross_core_sync", 0) == 0u);
    }
    edges += c.cross_edges.size();
  }
  std::ostringstream text;
  text << r;
  BOOST_TEST_REQUIRE(!r.cores[1].pipes[PIPE_S].cores.empty());  // the AIVs wait for the first push at least
  BOOST_TEST(text.str().find("waiting on AIC (longest: its TPUSH #") != std::string::npos, text.str());
  BOOST_TEST(text.str().find("waiting on AIV") != std::string::npos, text.str());
  const std::string trace = pto_test::temp_path("cross.json"), svg = pto_test::temp_path("cross.svg");
  write_chrome_trace(r, trace);
  write_svg_timeline(r, svg);
  const std::string json = pto_test::read_file(trace), picture = pto_test::read_file(svg);
  std::filesystem::remove(trace);
  std::filesystem::remove(svg);
  std::size_t heads = 0;
  for (std::size_t at = 0; (at = json.find(R"("ph":"f","bp":"e","name":"signal","cat":"cross-core")", at)) != std::string::npos; ++at) ++heads;
  BOOST_TEST(heads == edges);
  BOOST_TEST(picture.find("cross-core signal: set → wait ended") != std::string::npos);
  BOOST_TEST(picture.find(R"x(marker-end="url(#ax)"/>)x") != std::string::npos);
}

// The cube produces faster than the AIVs consume (each adds 1 eight times): with one slot, push t waits
// for the free the AIVs send after popping t - 1; with eight, every fourth push from the eighth waits
// for the frees of four pops. Each wait ends exactly when the later AIV's free retired.
template <std::uint32_t Slots>
void check_back_pressure() {
  constexpr int tiles = 12;
  using Pipe = TPipe<0, DIR_C2V, M * N * 4, Slots>;
  using Part = Tile<TileType::Vec, float, M / 2, N>;
  auto cube = [](__gm__ float* ring) {
    Pipe pipe(ring, 0x0, 0x0);
    AccT acc;
    TASSIGN(acc, 0x0);
    for (int t = 0; t < tiles; ++t) TPUSH<Pipe, AccT, TILE_UP_DOWN>(pipe, acc);
  };
  auto vec = [](__gm__ float* ring) {
    Pipe pipe(ring, 0x0, 0x0);
    Part in, res;
    TASSIGN(res, 0x10000);
    for (int t = 0; t < tiles; ++t) {
      TPOP<Pipe, Part, TILE_UP_DOWN>(pipe, in);
      TADDS(res, in, 1.0f);
      for (int k = 0; k < 7; ++k) TADDS(res, res, 1.0f);
    }
  };
  std::vector<float> ring(static_cast<std::size_t>(Slots) * M * N);
  LaunchReport r = launch_mix({.blocks = 1, .mode = Mode::Auto, .model_only = true, .timeline = true, .check = SyncCheck::Off},
                              cube, vec, ring);  // the Acc tile is pushed unwritten
  const CoreReport &aic = r.cores[0], &aiv0 = r.cores[1], &aiv1 = r.cores[2];
  int waits = 0;
  for (int t = 0; t < tiles; ++t) {
    if (!TPipe<0, DIR_C2V, M * N * 4, Slots>::shouldWaitFree(std::uint32_t(t))) continue;
    const int freed = waits + 1;  // the n-th free of each AIV (one per SyncPeriod pops)
    const TimelineEntry& w = find(aic, "TPUSH: wait_flag_dev(1)", waits);
    const std::uint64_t f = std::max(find(aiv0, "TPOP: ffts_cross_core_sync", freed - 1).end,
                                     find(aiv1, "TPOP: ffts_cross_core_sync", freed - 1).end);
    BOOST_TEST(w.end == f);
    BOOST_TEST(find(aic, "TSTORE", t).start >= f);  // the store into the freed slot
    ++waits;
  }
  BOOST_TEST(waits == (Slots == 1 ? tiles - 1 : 1));  // depth 8: only push 8 waits (12 tiles)
  BOOST_TEST(aic.pipes[PIPE_S].idle[int(Stall::Cores)] > 0u);
  check_cross_attribution(r, tiles, waits);
}

BOOST_AUTO_TEST_CASE(a_full_ring_blocks_the_producer_in_modeled_time) {
  check_back_pressure<1>();
  check_back_pressure<8>();
}

// ---- coroutine kernels co_await the FIFO operations ---------------------------------------------------

using RingPipe = TPipe<4, DIR_C2V, M * N * 4, 2>;
using HalfF = Tile<TileType::Vec, float, M / 2, N>;
Kernel co_cube(__gm__ float* ring, __gm__ float*) {
  RingPipe pipe(ring, 0x0, 0x0);
  AccT acc;
  TASSIGN(acc, 0x0);
  for (int t = 0; t < 6; ++t) co_await TPUSH<RingPipe, AccT, TILE_UP_DOWN>(pipe, acc);
}
Kernel co_vec(__gm__ float* ring, __gm__ float* out) {
  RingPipe pipe(ring, 0x0, 0x0);
  HalfF in;
  for (int t = 0; t < 6; ++t) {
    RecordEvent e = co_await TPOP<RingPipe, HalfF, TILE_UP_DOWN>(pipe, in);
    GlobalTensor<float, Shape<1, 1, 1, M / 2, N>, pto::Stride<1, 1, 1, N, 1>> g(out + std::size_t(get_subblockid()) * (M / 2) * N);
    co_await TSTORE(g, in, e);
    co_await pipe_barrier(PIPE_ALL);
  }
}
void plain_cube(__gm__ float* ring, __gm__ float*) {
  RingPipe pipe(ring, 0x0, 0x0);
  AccT acc;
  TASSIGN(acc, 0x0);
  for (int t = 0; t < 6; ++t) TPUSH<RingPipe, AccT, TILE_UP_DOWN>(pipe, acc);
}
void plain_vec(__gm__ float* ring, __gm__ float* out) {
  RingPipe pipe(ring, 0x0, 0x0);
  HalfF in;
  for (int t = 0; t < 6; ++t) {
    RecordEvent e = TPOP<RingPipe, HalfF, TILE_UP_DOWN>(pipe, in);
    GlobalTensor<float, Shape<1, 1, 1, M / 2, N>, pto::Stride<1, 1, 1, N, 1>> g(out + std::size_t(get_subblockid()) * (M / 2) * N);
    TSTORE(g, in, e);
    pipe_barrier(PIPE_ALL);
  }
}

BOOST_AUTO_TEST_CASE(coroutine_and_plain_kernels_model_the_same_cycles) {
  std::vector<float> ring(2 * M * N), out(M * N);
  // The Acc tile is pushed as it is (unwritten bytes): the checker is off.
  const std::uint64_t plain =
      launch_mix({.blocks = 2, .model_only = true, .check = SyncCheck::Off}, plain_cube, plain_vec, ring, out).cycles;
  for (int threads : {1, 2, 6}) {
    LaunchReport r = launch_mix({.blocks = 2, .host_threads = threads, .model_only = true, .check = SyncCheck::Off}, co_cube,
                                co_vec, ring, out);
    BOOST_TEST(r.cycles == plain);
  }
  BOOST_TEST(plain > 0u);
  // A TPOP a coroutine does not co_await cannot suspend: an error, not a hang.
  const std::string e = error_text([&] {
    launch_mix({.blocks = 1, .host_threads = 1}, co_cube, [](__gm__ float* ring, __gm__ float*) -> Kernel {
      RingPipe pipe(ring, 0x0, 0x0);
      HalfF in;
      TPOP<RingPipe, HalfF, TILE_UP_DOWN>(pipe, in);
      co_return;
    }, ring, out);
  });
  BOOST_TEST(e.find("in a coroutine kernel it must be co_awaited") != std::string::npos, e);
}

// ---- misuse ------------------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(fifo_misuse_is_an_error_or_a_deadlock_naming_both_sides) {
  std::vector<float> ring(4 * M * N);
  // Pops without pushes.
  std::string e = error_text([&] {
    launch_mix({.blocks = 1}, [](__gm__ float*) {}, [](__gm__ float* r) {
      RingPipe pipe(r, 0x0, 0x0);
      HalfF in;
      TPOP<RingPipe, HalfF, TILE_UP_DOWN>(pipe, in);
    }, ring);
  });
  BOOST_TEST(e.find("deadlock across cores") != std::string::npos, e);
  BOOST_TEST(e.find("cluster 0 AIV0 waits at TPOP: wait_flag_dev(4)") != std::string::npos, e);
  BOOST_TEST(e.find("cluster 0 AIC ended.") != std::string::npos, e);
  // Pushes past the ring that nobody frees: the producer waits for a free that never comes.
  e = error_text([&] {
    launch_mix({.blocks = 1}, plain_cube, [](__gm__ float*, __gm__ float*) {}, ring, ring);
  });
  BOOST_TEST(e.find("cluster 0 AIC waits at TPUSH: wait_flag_dev(5)") != std::string::npos, e);
  // The wrong side, a slot too small for the tile, a pipe without clusters.
  e = error_text([&] { launch_mix({.blocks = 1}, plain_vec, plain_vec, ring, ring); });
  BOOST_TEST(e.find("TPOP: on a cube -> vector pipe the consumer is the vector cores (AIV), and this is the cube core") !=
                 std::string::npos, e);
  e = error_text([&] {
    launch_mix({.blocks = 1}, [](__gm__ float* r) {
      TPipe<0, DIR_C2V, 1024, 2> pipe(r, 0x0, 0x0);
      AccT acc;
      TASSIGN(acc, 0x0);
      TPUSH<TPipe<0, DIR_C2V, 1024, 2>, AccT, TILE_UP_DOWN>(pipe, acc);
    }, [](__gm__ float*) {}, ring);
  });
  BOOST_TEST(e.find("TPUSH: the tile's 32 x 32 elements at byte 0 of the slot end at byte 4096, past SlotSize 1024") !=
                 std::string::npos, e);
  e = error_text([&] { launch({.blocks = 1}, [](__gm__ float* r) { RingPipe pipe(r, 0x0, 0x0); }, ring); });
  BOOST_TEST(e.find("TPipe: a pipe between a cluster's cube and vector cores; this launch has no clusters") != std::string::npos, e);
  e = error_text([&] { launch_mix({.blocks = 1}, [](__gm__ float* r) { RingPipe pipe(r, 0x0, 0x0); }, [](__gm__ float*) {}, ring); });
  BOOST_TEST(e.empty(), e);
  e = error_text([&] {
    launch_mix({.blocks = 1, .target = Target::A5}, [](__gm__ float* r) { RingPipe pipe(r, 0x0, 0x0); }, [](__gm__ float*) {}, ring);
  });
  BOOST_TEST(e.find("A5's local rings") != std::string::npos, e);
}

// ---- more blocks than the chip has AI cores: waves ------------------------------------------------

// Each core loads (block % 3) + 1 tiles of 16 KiB, so blocks differ in length, and records the chip core
// it runs on and its system counter at the end.
void wave_kernel(__gm__ float* g, __gm__ std::int64_t* out) {
  const int core = int(get_block_idx()) * 3 + (get_subblockdim() == 2 ? 1 + int(get_subblockid()) : 0);
  if (get_subblockdim() == 2) {
    VecF t;
    TASSIGN(t, 0);
    GmVec src(g);
    for (int i = 0; i <= get_block_idx() % 3; ++i) TLOAD(t, src);
  }
  pipe_barrier(PIPE_ALL);
  out[2 * core] = get_coreid();
  out[2 * core + 1] = std::int64_t(get_sys_cnt());
}

// 30 clusters on the chip's 24 AI cores: clusters 24-29 run on the cores of clusters 0-5, each from the
// end of the cluster before it there (its three cores' latest end); the launch ends with the latest of
// them; get_coreid and get_sys_cnt say where and when, on the launch's clock.
BOOST_AUTO_TEST_CASE(clusters_beyond_the_chips_ai_cores_run_in_waves) {
  std::vector<float> g(256, 1.0f);
  for (int threads : {1, 3}) {
    std::vector<std::int64_t> out(2 * 90, -1);
    const LaunchReport r = launch_mix({.blocks = 30, .host_threads = threads}, wave_kernel, wave_kernel, g, out);
    BOOST_TEST(r.waves == 2);
    BOOST_TEST(r.chip_cores == 24);
    std::uint64_t latest = 0;
    int checked = 0;
    for (int b = 0; b < 30; ++b) {
      std::uint64_t expect = 0;
      if (b >= 24)
        for (int k = 0; k < 3; ++k) {
          const CoreReport& p = r.cores[std::size_t(3 * (b - 24) + k)];
          expect = std::max(expect, p.dispatched + p.cycles);
        }
      for (int k = 0; k < 3; ++k, ++checked) {
        const CoreReport& c = r.cores[std::size_t(3 * b + k)];
        BOOST_TEST(c.dispatched == expect);
        BOOST_TEST(out[std::size_t(2 * (3 * b + k))] == b % 24);
        BOOST_TEST(out[std::size_t(2 * (3 * b + k) + 1)] >= std::int64_t(expect / 37));
        latest = std::max(latest, c.dispatched + c.cycles);
      }
    }
    BOOST_TEST(checked == 90);
    BOOST_TEST(r.cycles == latest);
    BOOST_TEST(r.cores[3 * 24].dispatched > 0u);
  }
  // A what-if chip with no limit runs them all at once.
  CostTable unlimited = default_cost_table(Target::A2A3);
  unlimited.cube_cores = 0;
  std::vector<std::int64_t> out(2 * 90);
  const LaunchReport all = launch_mix({.blocks = 30, .costs = &unlimited}, wave_kernel, wave_kernel, g, out);
  BOOST_TEST(all.waves == 1);
  for (const CoreReport& c : all.cores) BOOST_TEST(c.dispatched == 0u);
  CostTable negative = unlimited;
  negative.cube_cores = -1;
  BOOST_TEST(error_text([&] { launch_mix({.blocks = 1, .costs = &negative}, wave_kernel, wave_kernel, g, out); }) ==
             "pto::launch: cost table 'A2A3': cube_cores and vector_cores must be >= 0 (0: no limit; found -1 and 48)");
  // A barrier across every cluster cannot complete when some wait for a core: a deadlock, named.
  const std::string e = error_text([] { launch_mix({.blocks = 25}, [] { SYNCALL<SyncCoreType::Mix>(); }, [] { SYNCALL<SyncCoreType::Mix>(); }); });
  BOOST_TEST(e.find("cluster 24 waits for an AI core: the chip has 24 (CostTable::cube_cores), so it runs on cluster 0's "
                    "once that cluster ends; ") != std::string::npos, e);
}

// Clusters that run one after the other on one AI core may reuse its buffers (pto-isa's TSYNC_CVID
// slots): blocks 0 and 24 store into the same GM, which the checker does not call a race; with no core
// limit they run at once, and it does.
void slot_writer(__gm__ float* g) {
  if (get_subblockdim() != 2) return;
  VecF t;
  TASSIGN(t, 0);
  TEXPANDS(t, float(get_block_idx()));
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  GmVec dst(g + (get_block_idx() % 24) * 512 + get_subblockid() * 256);
  TSTORE(dst, t);
}

BOOST_AUTO_TEST_CASE(clusters_of_successive_waves_on_one_core_do_not_race) {
  std::vector<float> g(24 * 512, -1.0f);
  const LaunchReport r = launch_mix({.blocks = 25, .check = SyncCheck::Report}, slot_writer, slot_writer, g);
  BOOST_TEST(r.findings().empty());
  BOOST_TEST(g[0] == 24.0f);  // the later wave's value
  CostTable unlimited = default_cost_table(Target::A2A3);
  unlimited.cube_cores = 0;
  const LaunchReport all = launch_mix({.blocks = 25, .costs = &unlimited, .check = SyncCheck::Report}, slot_writer, slot_writer, g);
  BOOST_TEST(all.findings().size() == 2u);  // AIV0 and AIV1 of clusters 0 and 24
}

// A launch without clusters runs every block at once; its timing is dispatched afterwards: 50 vector
// blocks on the chip's 48 vector cores take two waves. (The memory system is off: it would price the
// 50 blocks' loads as if they ran at once, and identical blocks would no longer end together.)
BOOST_AUTO_TEST_CASE(plain_blocks_beyond_the_vector_cores_are_timed_in_waves) {
  std::vector<float> g(256, 1.0f);
  std::vector<std::int64_t> ids(50, -1);
  CostTable own_lines = default_cost_table(Target::A2A3);
  own_lines.memory_system = false;
  const LaunchReport r = launch({.blocks = 50, .costs = &own_lines}, [](__gm__ float* p, __gm__ std::int64_t* id) {
    VecF t;
    TASSIGN(t, 0);
    GmVec src(p);
    TLOAD(t, src);
    id[get_block_idx()] = get_coreid();  // all run at once here: each its own id
  }, g, ids);
  for (int b = 0; b < 50; ++b) BOOST_TEST(ids[std::size_t(b)] == b);
  BOOST_TEST(r.chip_cores == 48);
  BOOST_TEST(r.waves == 2);
  BOOST_TEST(r.cores[48].dispatched == r.cores[0].cycles);
  BOOST_TEST(r.cycles == r.cores[48].dispatched + r.cores[48].cycles);
  std::ostringstream os;
  os << r;
  BOOST_TEST(os.str().find("waves: 50 blocks on the chip's 48 cores ran in 2 waves") != std::string::npos, os.str());
}

}  // namespace
