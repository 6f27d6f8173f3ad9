// The model's memory stays flat over a long kernel. Its own executable: the first test case measures
// the process's peak resident size, which an earlier, larger test would mask.
#define BOOST_TEST_MODULE model_memory
#include <boost/test/unit_test.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include <pto/pto-inst.hpp>

using namespace pto;

namespace {
long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// Every instruction waits on the kernel's first event (a bias row loaded once, say). The model keeps
// end times only for the window of instructions still in flight, plus the events queued ones wait on.
Kernel waits_on_first(float* in, long n, bool every) {
  Tile<TileType::Vec, float, 1, 8> b, t[4];
  TASSIGN(b, 0);
  for (int k = 0; k < 4; ++k) TASSIGN(t[k], 64 + 64 * k);
  GlobalTensor<float, Shape<1, 1, 1, 1, 8>, pto::Stride<1, 1, 1, 8, 1>> g(in);
  const RecordEvent first = co_await TLOAD(b, g);
  for (long i = 0; i < n; ++i) {
    if (every || i == 0) co_await TEXPANDS(t[i % 4], float(i), first);
    else co_await TEXPANDS(t[i % 4], float(i));
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(a_long_kernel_waiting_on_an_old_event_runs_in_flat_memory) {
  float in[8] = {};
  const LaunchConfig cfg{.blocks = 1, .model_only = true, .check = SyncCheck::Off};
  launch(cfg, waits_on_first, in, 100'000L, true);
  const long before = peak_rss_kib();
  const long n = 3'000'000;  // 8 bytes of end time each would be 24 MiB (a 32 MiB ring)
  const LaunchReport every = launch(cfg, waits_on_first, in, n, true);
  const long grown = peak_rss_kib() - before;
  BOOST_TEST(every.cores[0].instructions == std::uint64_t(n + 1));
  // Waiting on the first event every time changes no modeled cycle: it ended long before.
  const LaunchReport once = launch(cfg, waits_on_first, in, n, false);
  BOOST_TEST(every.cycles == once.cycles);
  BOOST_TEST(grown < 8 * 1024, "peak resident size grew by " << grown << " KiB over " << n << " instructions");
}

namespace {
long current_rss_kib() {
  long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

using TileF = Tile<TileType::Vec, float, 64, 64>;
using GmF = GlobalTensor<float, Shape<1, 1, 1, 64, 64>, pto::Stride<1, 1, 1, 64, 1>>;

// Two tiles declared inside the loop, never TASSIGNed: auto mode places them in UB and reuses their
// bytes once they die (the instructions that still use them are ordered before the next user).
Kernel loop_local_tiles(float* in, float* out, long n, std::vector<long>* rss) {
  GmF g(in), o(out);
  for (long i = 0; i < n; ++i) {
    TileF t, u;
    co_await TLOAD(t, g);
    co_await TADDS(u, t, float(i % 7));
    co_await TSTORE(o, u);
    if (rss && i % 10'000 == 0) rss->push_back(current_rss_kib());
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(auto_mode_reuses_the_bytes_of_dead_tiles_in_flat_memory) {
  std::vector<float> in(64 * 64), out(64 * 64, 0.0f);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = float(i % 100);
  // Functional: each iteration's result is right although every iteration reuses the same bytes.
  launch({.blocks = 1, .mode = Mode::Auto}, loop_local_tiles, in.data(), out.data(), 13L, nullptr);
  for (std::size_t i = 0; i < in.size(); ++i) BOOST_TEST_REQUIRE(out[i] == in[i] + float(12 % 7));
  for (Policy p : {Policy::Deterministic, Policy::Concurrent}) {
    std::fill(out.begin(), out.end(), 0.0f);
    launch({.blocks = 2, .mode = Mode::Auto, .policy = p, .host_threads = 2, .check = SyncCheck::Off}, loop_local_tiles,
           in.data(), out.data(), 200L, nullptr);
    for (std::size_t i = 0; i < in.size(); ++i) BOOST_TEST_REQUIRE(out[i] == in[i] + float(199 % 7));
  }
  // 10^5 iterations (16 KiB tiles: 3 GiB of placements if nothing were reused). The checker keeps a
  // 28-byte clock per instruction until its 2^20-instruction drop, so it is measured apart.
  const long n = 100'000;
  for (SyncCheck check : {SyncCheck::Off, SyncCheck::Report}) {
    std::vector<long> rss;
    const LaunchReport rep = launch({.blocks = 1, .mode = Mode::Auto, .model_only = true, .check = check},
                                    loop_local_tiles, in.data(), out.data(), n, &rss);
    BOOST_TEST(rep.findings().empty());
    BOOST_TEST(rep.cores[0].instructions == std::uint64_t(3 * n));
    const long grown = *std::max_element(rss.begin(), rss.end()) - rss.front();
    const bool on = check == SyncCheck::Report;
    BOOST_TEST_MESSAGE("auto mode, " << n << " iterations of two loop-local 16 KiB tiles, checker " << (on ? "on" : "off")
                                     << ": resident size grew by " << grown << " KiB");
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)  // sanitizer allocators keep freed blocks (quarantine, shadow): resident size is not ours
    BOOST_TEST(grown < (on ? 12 : 2) * 1024, "resident size grew by " << grown << " KiB over " << n << " iterations");
#endif
  }
}
