// Cores that wait on each other: SYNCALL. Every core writes its GM slice, meets the others, then reads a
// neighbour's: exact results, no checker finding, and the same modeled figures (the latest arrival plus
// the barrier's cost) for coroutine and plain kernels, both policies and any number of host threads.
// Without the SYNCALL the checker reports the cross-core race; a core that skips it is a clear error.
#define BOOST_TEST_MODULE cross_core
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

using namespace pto;

namespace {
constexpr int R = 16, C = 16, E = R * C;  // one core's slice: a 16x16 float tile
using TileS = Tile<TileType::Vec, float, R, C>;
using GmS = GlobalTensor<float, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>>;
using Workspace = GlobalTensor<std::int32_t, pto::Shape<>, pto::Stride<>>;

// Core k stores k + 1 into its slice of `buf`, waits (SYNCALL, or with sync == 0 only its own pipes),
// then copies core k + 1's slice (mod n) into its slice of `out`. Cores do k % 3 extra vector
// instructions first, so they arrive at different modeled times.
Kernel exchange(__gm__ float* buf, __gm__ float* out, int sync) {
  const int me = int(get_block_idx()), n = int(get_block_num());
  TileS a, b;
  TASSIGN(a, 0x0);
  TASSIGN(b, 0x1000);
  GmS mine(buf + me * E), next(buf + ((me + 1) % n) * E), dst(out + me * E);
  co_await TEXPANDS(a, float(me + 1));
  for (int k = 0; k < me % 3; ++k) co_await TADDS(a, a, 0.0f);
  co_await set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  co_await wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  co_await TSTORE(mine, a);
  if (sync) co_await SYNCALL();
  else co_await pipe_barrier(PIPE_ALL);
  co_await TLOAD(b, next);
  co_await set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  co_await wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  co_await TSTORE(dst, b);
}

// The same as a plain PTO kernel.
void exchange_plain(__gm__ float* buf, __gm__ float* out, int sync) {
  const int me = int(get_block_idx()), n = int(get_block_num());
  TileS a, b;
  TASSIGN(a, 0x0);
  TASSIGN(b, 0x1000);
  GmS mine(buf + me * E), next(buf + ((me + 1) % n) * E), dst(out + me * E);
  TEXPANDS(a, float(me + 1));
  for (int k = 0; k < me % 3; ++k) TADDS(a, a, 0.0f);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(mine, a);
  if (sync) SYNCALL();
  else pipe_barrier(PIPE_ALL);
  TLOAD(b, next);
  set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  TSTORE(dst, b);
}

struct Run {
  LaunchReport rep;
  std::vector<float> out;
};

Run run_exchange(bool plain, int blocks, Policy p, int host_threads, int sync, const CostTable* costs = nullptr,
                 bool timeline = false) {
  std::vector<float> buf(std::size_t(blocks) * E, 0.0f), out(std::size_t(blocks) * E, 0.0f);
  const LaunchConfig cfg{.blocks = blocks, .policy = p, .host_threads = host_threads, .timeline = timeline, .costs = costs,
                         .check = SyncCheck::Report};
  LaunchReport rep = plain ? launch(cfg, exchange_plain, buf, out, sync) : launch(cfg, exchange, buf, out, sync);
  return {std::move(rep), std::move(out)};
}

std::vector<std::uint64_t> core_cycles(const LaunchReport& r) {
  std::vector<std::uint64_t> v;
  for (const auto& c : r.cores) v.push_back(c.cycles);
  return v;
}

// The modeled end of the first timeline entry called `name` on the scalar pipe.
std::uint64_t end_of(const CoreReport& c, const std::string& name) {
  for (const auto& e : c.timeline)
    if (e.pipe == PIPE_S && c.name(e) == name) return e.end;
  BOOST_FAIL("no " << name << " on the scalar pipe (" << c.timeline.size() << " entries)");
  return 0;
}

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

BOOST_AUTO_TEST_CASE(neighbour_exchange_is_exact_race_free_and_identical_everywhere) {
  for (int blocks : {4, 16}) {
    std::vector<std::uint64_t> reference;
    for (bool plain : {false, true})
      for (Policy p : {Policy::Deterministic, Policy::Concurrent})
        for (int threads : {1, 2, blocks}) {
          BOOST_TEST_CONTEXT("blocks " << blocks << (plain ? " plain" : " coroutine") << " policy " << int(p) << " threads " << threads) {
            const Run r = run_exchange(plain, blocks, p, threads, 1);
            for (int c = 0; c < blocks; ++c)
              for (int i = 0; i < E; ++i)
                BOOST_TEST_REQUIRE(r.out[std::size_t(c * E + i)] == float((c + 1) % blocks + 1));
            BOOST_TEST(r.rep.findings().empty());
            if (reference.empty()) reference = core_cycles(r.rep);
            BOOST_TEST(core_cycles(r.rep) == reference, boost::test_tools::per_element());
          }
        }
  }
}

BOOST_AUTO_TEST_CASE(without_syncall_the_checker_reports_the_cross_core_race) {
  for (bool plain : {false, true})
    for (Policy p : {Policy::Deterministic, Policy::Concurrent}) {
      const Run r = run_exchange(plain, 4, p, 2, 0);
      const std::vector<SyncFinding> fs = r.rep.findings();
      BOOST_TEST_REQUIRE(!fs.empty());
      bool raw = false;
      for (const SyncFinding& f : fs) {
        BOOST_TEST(f.message.find("cross-core race: core ") == 0u, f.message);
        BOOST_TEST(f.message.find("with no SYNCALL between them") != std::string::npos, f.message);
        raw |= f.hazard == SyncFinding::Hazard::RAW && f.first.name == "TSTORE" && f.second.name == "TLOAD";
      }
      BOOST_TEST(raw);
    }
}

// Expected figures from a run where each core only drains its own pipes (pipe_barrier(PIPE_ALL) ends
// when SYNCALL's core would arrive): SYNCALL ends on every core at the latest arrival plus the cost,
// and every core's rest runs as in that run, shifted to the release.
BOOST_AUTO_TEST_CASE(every_core_goes_on_at_the_latest_arrival_plus_the_barrier_cost) {
  for (std::uint32_t cost : {2u, 1000u}) {
    CostTable t = default_cost_table(Target::A2A3);
    t.syncall_cycles = cost;
    t.memory_system = false;  // the cores' rest runs as in the base run only if they do not share HBM
    for (int blocks : {4, 16})
      for (bool plain : {false, true}) {
        BOOST_TEST_CONTEXT("cost " << cost << " blocks " << blocks << (plain ? " plain" : " coroutine")) {
          const Run base = run_exchange(plain, blocks, Policy::Deterministic, 1, 0, &t, true);
          const Run sync = run_exchange(plain, blocks, Policy::Concurrent, 2, 1, &t, true);
          std::uint64_t latest = 0;
          std::vector<std::uint64_t> arrival;
          for (const auto& c : base.rep.cores) {
            arrival.push_back(end_of(c, "pipe_barrier(PIPE_ALL)"));
            latest = std::max(latest, arrival.back());
          }
          BOOST_TEST(*std::min_element(arrival.begin(), arrival.end()) < latest);  // they do arrive apart
          const std::uint64_t release = latest + cost;
          for (int c = 0; c < blocks; ++c) {
            const CoreReport& s = sync.rep.cores[std::size_t(c)];
            BOOST_TEST(end_of(s, "SYNCALL") == release);
            BOOST_TEST(s.cycles == release + (base.rep.cores[std::size_t(c)].cycles - arrival[std::size_t(c)]));
            // The scalar pipe's wait for the other cores is attributed to them; busy + idle = makespan.
            BOOST_TEST(s.pipes[PIPE_S].idle[int(Stall::Cores)] == release - arrival[std::size_t(c)]);
            // ... to the last core to arrive, and its SYNCALL.
            const int last = int(std::max_element(arrival.begin(), arrival.end()) - arrival.begin());
            if (c != last) {
              BOOST_TEST_REQUIRE(s.pipes[PIPE_S].cores.size() == 1u);
              BOOST_TEST(s.pipes[PIPE_S].cores[0].core == last);
              BOOST_TEST(s.pipes[PIPE_S].cores[0].cycles == release - arrival[std::size_t(c)]);
              BOOST_TEST(std::string(s.pipes[PIPE_S].cores[0].longest_name) == "SYNCALL");
            }
            for (int p : {int(PIPE_S), int(PIPE_V), int(PIPE_MTE2), int(PIPE_MTE3)})
              BOOST_TEST(s.pipes[p].busy_cycles + s.pipes[p].idle_cycles() == s.cycles);
          }
        }
      }
  }
}

// Three rounds of passing values on: each round reads what the neighbour wrote in the previous one.
Kernel rounds(__gm__ float* buf, int nrounds) {
  const int me = int(get_block_idx()), n = int(get_block_num());
  TileS a;
  TASSIGN(a, 0x0);
  GmS first(buf + me * E);
  co_await TEXPANDS(a, float(me));
  co_await set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  co_await wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  co_await TSTORE(first, a);
  co_await SYNCALL();
  for (int r = 0; r < nrounds; ++r) {
    GmS src(buf + ((r % 2) * n + (me + 1) % n) * E), dst(buf + (((r + 1) % 2) * n + me) * E);
    co_await TLOAD(a, src);
    co_await set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    co_await wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    co_await TADDS(a, a, 1.0f);
    co_await set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    co_await wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    co_await TSTORE(dst, a);
    co_await SYNCALL();
  }
}

BOOST_AUTO_TEST_CASE(repeated_syncalls_order_every_round) {
  constexpr int n = 6, nrounds = 3;
  std::vector<std::uint64_t> reference;
  for (Policy p : {Policy::Deterministic, Policy::Concurrent})
    for (int threads : {1, 2, n}) {
      std::vector<float> buf(std::size_t(2 * n * E), -1.0f);
      const LaunchReport rep = launch({.blocks = n, .policy = p, .host_threads = threads, .check = SyncCheck::Report}, rounds, buf, nrounds);
      BOOST_TEST(rep.findings().empty());
      for (int c = 0; c < n; ++c)
        BOOST_TEST(buf[std::size_t(((nrounds % 2) * n + c) * E)] == float((c + nrounds) % n + nrounds));
      if (reference.empty()) reference = core_cycles(rep);
      BOOST_TEST(core_cycles(rep) == reference, boost::test_tools::per_element());
    }
}

Kernel skip_last(int twice) {
  TileS a;
  TASSIGN(a, 0x0);
  co_await TEXPANDS(a, 1.0f);
  const bool last = int(get_block_idx()) == int(get_block_num()) - 1;
  if (!last || twice) co_await SYNCALL();
  if (last && twice) co_await SYNCALL();
}
void skip_last_plain(int twice) {
  TileS a;
  TASSIGN(a, 0x0);
  TEXPANDS(a, 1.0f);
  const bool last = int(get_block_idx()) == int(get_block_num()) - 1;
  if (!last || twice) SYNCALL();
  if (last && twice) SYNCALL();
}

BOOST_AUTO_TEST_CASE(a_core_that_skips_syncall_is_a_deadlock_error_not_a_hang) {
  const std::string rule = "; every core of a launch must reach each SYNCALL (call it the same number of times on every core)";
  for (bool plain : {false, true})
    for (int threads : {1, 2, 4}) {
      BOOST_TEST_CONTEXT((plain ? "plain" : "coroutine") << " threads " << threads) {
        auto go = [&](int twice) {
          return error_of([&] {
            const LaunchConfig cfg{.blocks = 4, .host_threads = threads};
            if (plain) launch(cfg, skip_last_plain, twice);
            else launch(cfg, skip_last, twice);
          });
        };
        BOOST_TEST(go(0) == "core 0: SYNCALL: deadlock: cores 0-2 wait at SYNCALL #1 for all 4 cores of the launch, but core 3 "
                            "ended without reaching it (after 0 SYNCALL(s))" + rule);
        BOOST_TEST(go(1) == "core 3: SYNCALL: deadlock: core 3 waits at SYNCALL #2 for all 4 cores of the launch, but cores 0-2 "
                            "ended without reaching it (after 1 SYNCALL(s))" + rule);
      }
    }
}

Kernel one_core_fails() {
  TileS a;
  TASSIGN(a, get_block_idx() == 2 ? 0x30000 : 0x0);  // core 2: outside the 192 KiB UB
  co_await SYNCALL();
}

void one_core_fails_plain() {
  TileS a;
  TASSIGN(a, get_block_idx() == 2 ? 0x30000 : 0x0);
  SYNCALL();
}

BOOST_AUTO_TEST_CASE(a_core_failing_before_syncall_reports_its_own_error) {
  for (int threads : {1, 2, 4}) {
    BOOST_TEST_CONTEXT("threads " << threads) {
      const std::string e = error_of([&] { launch({.blocks = 4, .host_threads = threads}, one_core_fails); });
      BOOST_TEST(e.find("core 2: TASSIGN: operand tile") == 0u, e);
      const std::string p = error_of([&] { launch({.blocks = 4, .host_threads = threads}, one_core_fails_plain); });
      BOOST_TEST(p == e);  // thrown on a fiber (1, 2 threads) or on the core's own thread (4)
    }
  }
}

Kernel not_awaited() {
  SYNCALL();  // not co_awaited: the core cannot suspend here
  co_return;
}

BOOST_AUTO_TEST_CASE(a_coroutine_must_co_await_syncall) {
  for (int threads : {1, 2, 4})
    BOOST_TEST(error_of([&] { launch({.blocks = 4, .host_threads = threads}, not_awaited); }) ==
               "core 0: SYNCALL: in a coroutine kernel it must be co_awaited (`co_await SYNCALL(...);`, and TPOP / "
               "TALLOC / TPUSH the same): a coroutine core waits for the other cores only where it suspends");
}

Kernel soft_and_variants(__gm__ std::int32_t* ws, int used) {
  Workspace w(ws);
  co_await SYNCALL<SyncAllMode::Soft>(w, used);
  co_await SYNCALL<SyncAllMode::Hard>(w);
  co_await SYNCALL<SyncCoreType::AICOnly>();  // on a vector core: only the pipe barrier
}
Kernel mixed() { co_await SYNCALL<SyncCoreType::Mix>(); }
Kernel null_workspace() {
  Workspace w(nullptr);
  co_await SYNCALL<SyncAllMode::Soft>(w);
}

BOOST_AUTO_TEST_CASE(soft_hard_and_core_type_variants) {
  std::vector<std::int32_t> ws(8, 0);
  const LaunchReport rep = launch({.blocks = 4, .host_threads = 2, .timeline = true}, soft_and_variants, ws, 0);
  BOOST_TEST(ws[0] == 0);  // the runtime's barrier needs no counter
  int meets = 0, local = 0;
  for (const auto& e : rep.cores[0].timeline) {
    meets += rep.cores[0].name(e) == "SYNCALL";
    local += rep.cores[0].name(e) == "SYNCALL<AICOnly>";
  }
  BOOST_TEST(meets == 2);
  BOOST_TEST(local == 1);
  BOOST_TEST(rep.cores[0].pipes[PIPE_S].instructions == 3u);
  BOOST_TEST(launch({.blocks = 4}, soft_and_variants, ws, 4).cycles == rep.cycles);
  BOOST_TEST(error_of([&] { launch({.blocks = 4}, soft_and_variants, ws, 3); }) ==
             "core 0: SYNCALL<SyncAllMode::Soft>: usedCores = 3, but the launch has 4 core(s); the runtime's barrier "
             "meets every core of the launch (usedCores 0 or 4); a barrier of fewer cores is not supported yet");
  BOOST_TEST(error_of([] { launch({.blocks = 2}, null_workspace); }) ==
             "core 0: SYNCALL<SyncAllMode::Soft>: operand gmWorkspace is a null GM pointer; soft mode needs a zeroed "
             "int32 counter in GM");
  BOOST_TEST(error_of([] { launch({.blocks = 2}, mixed); }) ==
             "core 0: SYNCALL<SyncCoreType::Mix>: a mixed barrier meets the cube (AIC) and vector (AIV) cores of "
             "clusters; this launch has no clusters (launch the kernel with pto::launch_mix, or use "
             "SyncCoreType::AIVOnly: every core of the launch)");
}

// Outside pto::launch the implicit core is the only core: SYNCALL drains it and goes on.
void direct_store_sync_reload(float* out) {
  TileS a, b;
  TASSIGN(a, 0x0);
  TASSIGN(b, 0x1000);
  GmS g(out), h(out + E);
  TEXPANDS(a, 3.0f);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(g, a);
  SYNCALL();
  TLOAD(b, g);
  set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  TSTORE(h, b);
}

BOOST_AUTO_TEST_CASE(a_direct_call_is_its_own_only_core) {
  std::vector<float> out(2 * E, 0.0f);
  direct_store_sync_reload(out.data());
  BOOST_TEST(std::all_of(out.begin(), out.end(), [](float v) { return v == 3.0f; }));
  BOOST_TEST(error_of([] { SYNCALL<SyncCoreType::Mix>(); }).find("SYNCALL<SyncCoreType::Mix>: ") == 0u);
  // The same kernel on one launched core: SYNCALL meets only itself.
  std::vector<float> out2(2 * E, 0.0f);
  const LaunchReport rep = launch({.blocks = 1, .check = SyncCheck::Report}, direct_store_sync_reload, gm(out2.data(), out2.size()));
  BOOST_TEST(out2 == out, boost::test_tools::per_element());
  BOOST_TEST(rep.findings().empty());
}

// The timeline of a launch with SYNCALL draws (the wait is the scalar pipe's, attributed to the cores).
BOOST_AUTO_TEST_CASE(a_syncall_timeline_is_drawn_and_summarised) {
  const Run r = run_exchange(false, 4, Policy::Deterministic, 2, 1, nullptr, true);
  const std::string json = (std::filesystem::temp_directory_path() / "pto_cross_core.json").string();
  write_chrome_trace(r.rep, json);
  BOOST_TEST(std::filesystem::file_size(json) > 0u);
  std::filesystem::remove(json);
  std::ostringstream os;
  os << r.rep;
  BOOST_TEST(os.str().find("waiting on core ") != std::string::npos, os.str());
  BOOST_TEST(os.str().find("(longest: its SYNCALL #") != std::string::npos, os.str());
}

// Many plain cores on two host threads: every one waits on a fiber of its own (stacks reused).
BOOST_AUTO_TEST_CASE(many_plain_cores_wait_on_fibers) {
  constexpr int n = 64;
  const Run r = run_exchange(true, n, Policy::Deterministic, 2, 1);
  for (int c = 0; c < n; ++c) BOOST_TEST_REQUIRE(r.out[std::size_t(c * E)] == float((c + 1) % n + 1));
  BOOST_TEST(r.rep.findings().empty());
  BOOST_TEST(core_cycles(r.rep) == core_cycles(run_exchange(false, n, Policy::Deterministic, 1, 1).rep),
             boost::test_tools::per_element());
}
