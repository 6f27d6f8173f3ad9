// The model's memory stays flat over a long kernel. Its own executable: the first test case measures
// the process's peak resident size, which an earlier, larger test would mask.
#define BOOST_TEST_MODULE model_memory
#include <boost/test/unit_test.hpp>

#include <sys/resource.h>

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
