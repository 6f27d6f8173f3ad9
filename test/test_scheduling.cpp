// The pipe model: in-order pipes, ordering across pipes only through flags and events, stale data when
// a kernel forgets a flag, auto mode, policies, many cores, long kernels, deadlocks.
#define BOOST_TEST_MODULE scheduling
#include <algorithm>
#include <boost/test/unit_test.hpp>

#include <numeric>
#include <stdexcept>
#include <vector>

#include <pto/pto-inst.hpp>

#include "test_util.hpp"

using namespace pto;

namespace {
constexpr int R = 64, C = 64;
using TileF = Tile<TileType::Vec, float, R, C>;
using GmF = GlobalTensor<float, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>>;

std::vector<float> iota_data(std::size_t n, float start = 1.0f) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

// TLOAD in -> TMOV -> TSTORE out. `flags` selects whether the kernel synchronises MTE2 -> V.
void copy_kernel(float* out, float* in, bool mte2_to_v_flag) {
  TileF a, b;
  TASSIGN(a, 0);
  TASSIGN(b, R * C * sizeof(float));
  GmF src(in), dst(out);
  TLOAD(a, src);
  if (mte2_to_v_flag) {
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  }
  TMOV(b, a);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(dst, b);
}
}  // namespace

BOOST_AUTO_TEST_CASE(missing_mte2_to_v_flag_reads_stale_ub_deterministically) {
  auto in = iota_data(R * C);
  for (int run = 0; run < 3; ++run) {
    std::vector<float> out(R * C, -1.0f);
    launch({.blocks = 1}, copy_kernel, out.data(), in.data(), false);
    // TMOV starts while the 280-cycle TLOAD is still running, so it copies the zeroed UB.
    for (float v : out) BOOST_TEST_REQUIRE(v == 0.0f);
  }
}

BOOST_AUTO_TEST_CASE(the_same_kernel_with_its_flag_is_correct) {
  auto in = iota_data(R * C);
  std::vector<float> out(R * C, -1.0f);
  launch({.blocks = 1}, copy_kernel, out.data(), in.data(), true);
  BOOST_TEST(out == in);
}

BOOST_AUTO_TEST_CASE(auto_mode_orders_by_bytes_without_any_flag) {
  auto in = iota_data(R * C);
  std::vector<float> out(R * C, -1.0f);
  launch({.blocks = 1, .mode = Mode::Auto}, copy_kernel, out.data(), in.data(), false);
  BOOST_TEST(out == in);
}

BOOST_AUTO_TEST_CASE(auto_mode_places_tiles_without_tassign) {
  auto in = iota_data(R * C);
  std::vector<float> out(R * C, -1.0f);
  auto kernel = [](float* o, float* i) -> Kernel {
    TileF a, b;  // never TASSIGNed: auto mode places them
    GmF src(i), dst(o);
    co_await TLOAD(a, src);
    co_await TMOV(b, a);
    co_await TSTORE(dst, b);
  };
  launch({.blocks = 1, .mode = Mode::Auto}, kernel, out.data(), in.data());
  BOOST_TEST(out == in);
}

BOOST_AUTO_TEST_CASE(record_events_order_a_coroutine_kernel) {
  auto in = iota_data(R * C);
  std::vector<float> out(R * C, -1.0f);
  auto kernel = [](float* o, float* i) -> Kernel {
    TileF a, b;
    TASSIGN(a, 0);
    TASSIGN(b, 0x10000);
    GmF src(i), dst(o);
    RecordEvent l = co_await TLOAD(a, src);
    RecordEvent m = co_await TMOV(b, a, l);
    co_await TSTORE(dst, b, m);
  };
  LaunchReport rep = launch({.blocks = 1}, kernel, out.data(), in.data());
  BOOST_TEST(out == in);
  // Modeled (A2A3 table): TLOAD 16 KiB, one DMA call = 264 + 16384 / 128 = 392; TMOV = one copy_ubuf_to_ubuf
  // of 16 KiB, 5 + 512 blocks = 517; TSTORE = ceil(16384 / 109.38) = 150.
  BOOST_TEST(rep.cycles == 392u + 517u + 150u);
  BOOST_TEST(rep.cores[0].pipes[PIPE_MTE2].busy_cycles == 392u);
  BOOST_TEST(rep.cores[0].pipes[PIPE_V].busy_cycles == 517u);
  BOOST_TEST(rep.cores[0].pipes[PIPE_MTE3].busy_cycles == 150u);
}

BOOST_AUTO_TEST_CASE(typed_events_order_a_plain_kernel) {
  auto in = iota_data(R * C);
  std::vector<float> out(R * C, -1.0f);
  auto kernel = [](float* o, float* i) {
    TileF a, b;
    TASSIGN(a, 0);
    TASSIGN(b, 0x10000);
    GmF src(i), dst(o);
    Event<Op::TLOAD, Op::TMOV_V2V> loaded = TLOAD(a, src);
    Event<Op::TMOV_V2V, Op::TSTORE_VEC> moved = TMOV(b, a, loaded);
    TSTORE(dst, b, moved);
  };
  launch({.blocks = 1}, kernel, out.data(), in.data());
  BOOST_TEST(out == in);
}

BOOST_AUTO_TEST_CASE(a_pipe_runs_its_queue_in_order) {
  // Two loads into the same tile on MTE2: the second wins, whatever their sizes.
  auto first = iota_data(R * C, 1.0f), second = iota_data(R * C, 1000.0f);
  std::vector<float> out(R * C);
  auto kernel = [](float* o, float* x, float* y) -> Kernel {
    TileF a;
    TASSIGN(a, 0);
    GmF gx(x), gy(y), dst(o);
    co_await TLOAD(a, gx);
    RecordEvent l = co_await TLOAD(a, gy);
    co_await TSTORE(dst, a, l);
  };
  launch({.blocks = 1}, kernel, out.data(), first.data(), second.data());
  BOOST_TEST(out == second);
}

BOOST_AUTO_TEST_CASE(a_store_reads_its_tile_when_it_starts) {
  // WAR without a flag: TSTORE (MTE3) starts before the TLOAD that overwrites its tile ends,
  // so it stores the old contents - the hardware's DMA does the same.
  auto older = iota_data(R * C, 5.0f), newer = iota_data(R * C, 9000.0f);
  std::vector<float> out(R * C);
  auto kernel = [](float* o, float* x, float* y) -> Kernel {
    TileF a;
    TASSIGN(a, 0);
    GmF gx(x), gy(y), dst(o);
    RecordEvent l = co_await TLOAD(a, gx);
    co_await TSTORE(dst, a, l);  // starts at 280
    co_await TLOAD(a, gy);       // MTE2 free at 280 too: its writes land at 560
  };
  launch({.blocks = 1}, kernel, out.data(), older.data(), newer.data());
  BOOST_TEST(out == older);
}

namespace {
// Double-buffered stream: tile t uses buffer t % 2; loads wait for the store that last used the buffer.
Kernel stream(float* out, float* in, int tiles) {
  TileF buf[2], mid[2];
  for (int b = 0; b < 2; ++b) {
    TASSIGN(buf[b], b * 0x4000);
    TASSIGN(mid[b], 0x8000 + b * 0x4000);
  }
  RecordEvent stored[2];
  for (int t = 0; t < tiles; ++t) {
    const int b = t % 2;
    const long base = (get_block_idx() * tiles + t) * long(R * C);
    GmF src(in + base), dst(out + base);
    RecordEvent l = co_await TLOAD(buf[b], src, stored[b]);
    RecordEvent m = co_await TMOV(mid[b], buf[b], l, stored[b]);
    stored[b] = co_await TSTORE(dst, mid[b], m);
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(deterministic_and_concurrent_policies_agree) {
  const int cores = 4, tiles = 6;
  auto in = iota_data(std::size_t(cores) * tiles * R * C);
  std::vector<float> out_d(in.size(), -1.0f), out_c(in.size(), -2.0f);
  LaunchReport d = launch({.blocks = cores, .policy = Policy::Deterministic}, stream, out_d.data(), in.data(), tiles);
  LaunchReport c = launch({.blocks = cores, .policy = Policy::Concurrent, .host_threads = 2}, stream, out_c.data(),
                          in.data(), tiles);
  BOOST_TEST(out_d == in);
  BOOST_TEST(out_c == in);
  BOOST_TEST(d.cycles == c.cycles);  // the modeled clock never depends on the host
  for (int k = 0; k < cores; ++k)
    for (int p = 0; p < kNumPipeIds; ++p)
      BOOST_TEST_REQUIRE(d.cores[k].pipes[p].busy_cycles == c.cores[k].pipes[p].busy_cycles);
}

BOOST_AUTO_TEST_CASE(concurrent_policy_with_any_number_of_host_threads) {
  // Of host_threads, one per core runs its kernel and the rest (at least one) run the pipes: one pipe
  // thread runs them all, two split MTE2 | V + MTE3, three or more give each lane its own.
  const int tiles = 9;
  for (int cores : {1, 3})
    for (int threads : {1, 2, 3, 4, 6}) {
      auto in = iota_data(std::size_t(cores) * tiles * R * C);
      std::vector<float> out(in.size(), -1.0f);
      launch({.blocks = cores, .policy = Policy::Concurrent, .host_threads = threads}, stream, out.data(), in.data(), tiles);
      BOOST_TEST_INFO("cores " << cores << ", host threads " << threads);
      BOOST_TEST(out == in);
    }
}

BOOST_AUTO_TEST_CASE(concurrent_policy_hands_over_many_tiny_instructions) {
  // Thousands of handoffs with almost no work between them: a lost wake-up (a host thread parked with
  // a runnable instruction) would hang here.
  auto chain = [](float* out, float* in, int n) -> Kernel {
    using T = Tile<TileType::Vec, float, 1, 8>;
    using G = GlobalTensor<float, Shape<1, 1, 1, 1, 8>, pto::Stride<1, 1, 1, 8, 1>>;
    T a[2], b[2];
    for (int k = 0; k < 2; ++k) {
      TASSIGN(a[k], k * 0x100);
      TASSIGN(b[k], 0x200 + k * 0x100);
    }
    RecordEvent added[2], stored[2];
    for (int i = 0; i < n; ++i) {
      const int k = i % 2;
      G src(in + 8 * (i % 16)), dst(out + 128 * get_block_idx() + 8 * (i % 16));
      RecordEvent l = co_await TLOAD(a[k], src, added[k]);
      added[k] = co_await TADDS(b[k], a[k], 1.0f, l, stored[k]);
      stored[k] = co_await TSTORE(dst, b[k], added[k]);
    }
  };
  auto fills = [](int n) -> Kernel {
    Tile<TileType::Vec, float, 1, 8> t;
    TASSIGN(t, 0);
    for (int i = 0; i < n; ++i) co_await TEXPANDS(t, float(i));
  };
  auto in = iota_data(128);
  // host_threads 2, 3, 4 with one core: 1, 2 and 3 pipe threads; with two cores and 4: two each.
  for (int threads : {2, 3, 4})
    for (int run = 0; run < 3; ++run) {
      for (int cores : {1, 2}) {
        if (cores == 2 && threads != 4) continue;
        std::vector<float> out(std::size_t(128) * cores, 0.0f);
        launch({.blocks = cores, .policy = Policy::Concurrent, .host_threads = threads}, chain, out.data(), in.data(), 6000);
        for (std::size_t i = 0; i < out.size(); ++i) BOOST_TEST_REQUIRE(out[i] == in[i % 128] + 1.0f);
      }
      launch({.blocks = 1, .policy = Policy::Concurrent, .host_threads = threads}, fills, 20000);
    }
}

BOOST_AUTO_TEST_CASE(concurrent_policy_waits_for_a_set_flag_issued_thousands_of_instructions_later) {
  // V waits at a wait_flag whose set_flag comes after 10000 MTE2 instructions: the kernel thread runs
  // only a bounded backlog ahead of the host threads, and must not wait for V there.
  auto kernel = [](float* out, float* in, int loads) -> Kernel {
    using T = Tile<TileType::Vec, float, 1, 8>;
    using G = GlobalTensor<float, Shape<1, 1, 1, 1, 8>, pto::Stride<1, 1, 1, 8, 1>>;
    T a, b;
    TASSIGN(a, 0);
    TASSIGN(b, 0x100);
    co_await wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);  // on PIPE_V: V stops here
    for (int i = 0; i < loads; ++i) {
      G src(in + 8 * (i % 4));
      co_await TLOAD(a, src);
    }
    co_await set_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);
    RecordEvent e = co_await TADDS(b, a, 1.0f);
    G dst(out);
    co_await TSTORE(dst, b, e);
  };
  auto in = iota_data(32);
  const int loads = 10001;  // the last one reads in[0..8)
  std::vector<float> out_d(8), out_c(8);
  LaunchReport d = launch({.blocks = 1}, kernel, out_d.data(), in.data(), loads);
  LaunchReport c = launch({.blocks = 1, .policy = Policy::Concurrent, .host_threads = 2}, kernel, out_c.data(), in.data(), loads);
  for (int i = 0; i < 8; ++i) BOOST_TEST(out_d[i] == in[i] + 1.0f);
  BOOST_TEST(out_c == out_d);
  BOOST_TEST(c.cycles == d.cycles);
}

BOOST_AUTO_TEST_CASE(concurrent_policy_reports_a_failure_on_a_host_thread) {
  // The division by zero is found when TDIVS runs on a host thread; the launch rethrows it, and the
  // thousands of instructions queued behind it neither run nor hang: the TSTORE that waits for the
  // failed TDIVS (on another pipe, maybe another host thread) never writes GM.
  auto kernel = [](std::int32_t* out, int n) -> Kernel {
    using T = Tile<TileType::Vec, std::int32_t, 8, 16>;
    using G = GlobalTensor<std::int32_t, Shape<1, 1, 1, 8, 16>, pto::Stride<1, 1, 1, 16, 1>>;
    T a, b;
    TASSIGN(a, 0);
    TASSIGN(b, 0x1000);
    RecordEvent e = co_await TEXPANDS(a, 7);
    e = co_await TDIVS(b, a, 0, e);
    G dst(out + 128 * get_block_idx());
    co_await TSTORE(dst, b, e);
    for (int i = 0; i < n; ++i) e = co_await TADDS(b, b, 1, e);
  };
  for (int threads : {2, 3, 4}) {
    std::vector<std::int32_t> out(256, -1);
    BOOST_CHECK_EXCEPTION(launch({.blocks = 2, .policy = Policy::Concurrent, .host_threads = threads, .cpu_reference = true}, kernel,
                                 out.data(), 20000),
                          Error, [](const Error& e) {
                            BOOST_TEST_MESSAGE(e.what());
                            return std::string(e.what()).rfind("core 0: TDIVS: integer division by zero", 0) == 0;
                          });
    for (std::int32_t v : out) BOOST_TEST_REQUIRE(v == -1);
  }
}

BOOST_AUTO_TEST_CASE(modeled_figures_are_identical_across_runs_and_thread_counts) {
  auto in = iota_data(std::size_t(8) * 4 * R * C);
  std::vector<float> out(in.size());
  LaunchReport a = launch({.blocks = 8, .host_threads = 1}, stream, out.data(), in.data(), 4);
  LaunchReport b = launch({.blocks = 8, .host_threads = 2}, stream, out.data(), in.data(), 4);
  BOOST_TEST(a.cycles == b.cycles);
  for (int k = 0; k < 8; ++k) BOOST_TEST(a.cores[k].cycles == b.cores[k].cycles);
  // Cores that do not interact finish at the same modeled time.
  for (int k = 1; k < 8; ++k) BOOST_TEST(a.cores[k].cycles == a.cores[0].cycles);
}

BOOST_AUTO_TEST_CASE(sixty_four_cores_on_two_host_threads) {
  for (Policy policy : {Policy::Deterministic, Policy::Concurrent}) {
    std::vector<float> out(std::size_t(64) * 16 * 16, -1.0f);
    auto kernel = [](float* o) -> Kernel {
      using T = Tile<TileType::Vec, float, 16, 16>;
      using G = GlobalTensor<float, Shape<1, 1, 1, 16, 16>, pto::Stride<1, 1, 1, 16, 1>>;
      T t;
      TASSIGN(t, 0);
      RecordEvent f = co_await TEXPANDS(t, float(get_block_idx() * 10 + get_block_num()));
      G g(o + get_block_idx() * 256);
      co_await TSTORE(g, t, f);
    };
    LaunchReport rep = launch({.blocks = 64, .policy = policy, .host_threads = 2}, kernel, out.data());
    BOOST_TEST(rep.cores.size() == 64u);
    for (int b = 0; b < 64; ++b)
      for (int i = 0; i < 256; ++i) BOOST_TEST_REQUIRE(out[std::size_t(b) * 256 + i] == float(b * 10 + 64));
  }
}

BOOST_AUTO_TEST_CASE(a_million_instruction_kernel_does_not_grow_the_stack) {
  auto kernel = [](float* o, int n) -> Kernel {
    using T = Tile<TileType::Vec, float, 1, 8>;
    using G = GlobalTensor<float, Shape<1, 1, 1, 1, 8>, pto::Stride<1, 1, 1, 8, 1>>;
    T t;
    TASSIGN(t, 0);
    RecordEvent e;
    for (int i = 0; i < n; ++i) e = co_await TEXPANDS(t, float(i));  // V queue fills: the kernel suspends often
    G g(o);
    co_await TSTORE(g, t, e);
  };
  std::vector<float> out(8);
  LaunchReport rep = launch({.blocks = 1}, kernel, out.data(), 1000000);
  BOOST_TEST(rep.cores[0].instructions == 1000001u);
  for (float v : out) BOOST_TEST(v == 999999.0f);
}

// The model keeps end times for a window of recent instructions: a ring that drops retired ones and
// doubles while a queued instruction still names an old event. Here each of 5000 vector instructions
// waits on its own load (slow: the wait binds) and, in one variant, on the first load too, which the
// window can then never drop; the redundant old wait must not change a single modeled cycle.
BOOST_AUTO_TEST_CASE(an_old_event_named_by_every_instruction_keeps_its_time) {
  auto kernel = [](float* o, float* in, int n, bool every) -> Kernel {
    using T = Tile<TileType::Vec, float, 1, 8>;
    using G = GlobalTensor<float, Shape<1, 1, 1, 1, 8>, pto::Stride<1, 1, 1, 8, 1>>;
    TileF src[2];
    T t[4];
    for (int k = 0; k < 2; ++k) TASSIGN(src[k], k * R * C * sizeof(float));
    for (int k = 0; k < 4; ++k) TASSIGN(t[k], 2 * R * C * sizeof(float) + 64 * k);
    GmF gi(in);
    G go(o);
    RecordEvent first, e;
    for (int i = 0; i < n; ++i) {
      const RecordEvent l = co_await TLOAD(src[i % 2], gi);
      if (i == 0) first = l;
      if (every) e = co_await TEXPANDS(t[i % 4], float(i), l, first);
      else e = co_await TEXPANDS(t[i % 4], float(i), l);
    }
    co_await TSTORE(go, t[(n - 1) % 4], e);
  };
  std::vector<float> in(R * C, 1.0f), out_every(8), out_once(8);
  const LaunchReport every = launch({.blocks = 1, .timeline = true}, kernel, out_every.data(), in.data(), 5000, true);
  const LaunchReport once = launch({.blocks = 1, .timeline = true}, kernel, out_once.data(), in.data(), 5000, false);
  BOOST_TEST(every.cores[0].instructions == 10001u);
  BOOST_TEST(every.cycles == once.cycles);
  const auto& a = every.cores[0].timeline;
  const auto& b = once.cores[0].timeline;
  BOOST_TEST_REQUIRE(a.size() == b.size());
  std::size_t differ = 0;
  for (std::size_t k = 0; k < a.size(); ++k)
    differ += a[k].seq != b[k].seq || a[k].start != b[k].start || a[k].end != b[k].end;
  BOOST_TEST(differ == 0u, differ << " instructions started or ended at other cycles");
  for (int i = 0; i < 8; ++i) BOOST_TEST(out_every[std::size_t(i)] == 4999.0f);
}

BOOST_AUTO_TEST_CASE(nested_kernels_share_the_core) {
  auto in = iota_data(R * C);
  std::vector<float> out(R * C);
  struct K {
    static Kernel load(TileF& t, float* i, RecordEvent& e) {
      GmF src(i);
      e = co_await TLOAD(t, src);
    }
    static Kernel top(float* o, float* i) {
      TileF t;
      TASSIGN(t, 0);
      RecordEvent e;
      co_await load(t, i, e);
      GmF dst(o);
      co_await TSTORE(dst, t, e);
    }
  };
  launch({.blocks = 1}, K::top, out.data(), in.data());
  BOOST_TEST(out == in);
}

BOOST_AUTO_TEST_CASE(scalar_waits_on_mte3_then_barrier) {
  auto in = iota_data(R * C);
  std::vector<float> out(R * C);
  auto kernel = [](float* o, float* i) -> Kernel {
    TileF t;
    TASSIGN(t, 0);
    GmF src(i), dst(o);
    co_await TLOAD(t, src);
    co_await set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID3);
    co_await wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID3);
    co_await TSTORE(dst, t);
    co_await set_flag(PIPE_MTE3, PIPE_S, EVENT_ID0);
    co_await wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID0);  // the kernel itself waits for the store
    co_await pipe_barrier(PIPE_ALL);
  };
  LaunchReport rep = launch({.blocks = 1}, kernel, out.data(), in.data());
  BOOST_TEST(out == in);
  // The store ends at 392 + 150; the scalar pipe, released then, pays one issue cycle for the barrier.
  BOOST_TEST(rep.cycles == 392u + 150u + 1u);
}

// ---- deadlocks and failures: errors, never hangs -------------------------------------------------

BOOST_AUTO_TEST_CASE(an_unsatisfiable_wait_flag_is_reported_not_hung) {
  auto kernel = []() {
    Tile<TileType::Vec, float, 8, 8> t;
    TASSIGN(t, 0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
    TEXPANDS(t, 1.0f);
    pipe_barrier(PIPE_ALL);
  };
  for (Policy policy : {Policy::Deterministic, Policy::Concurrent}) {
    BOOST_CHECK_EXCEPTION(launch({.blocks = 2, .policy = policy}, kernel), Error, [](const Error& e) {
      const std::string m = e.what();
      BOOST_TEST_MESSAGE(m);
      return m.find("core 0: deadlock on core 0: the scalar pipe waits at pipe_barrier(PIPE_ALL)") == 0 &&
             m.find("PIPE_V is stuck at wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID2)") != std::string::npos &&
             m.find("no set_flag(PIPE_MTE2, PIPE_V, EVENT_ID2) issued so far can satisfy") != std::string::npos;
    });
  }
}

BOOST_AUTO_TEST_CASE(a_scalar_wait_without_set_is_reported) {
  auto kernel = []() -> Kernel { co_await wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID1); };
  BOOST_CHECK_EXCEPTION(launch({.blocks = 1}, kernel), Error, [](const Error& e) {
    return std::string(e.what()).find("the scalar pipe waits at wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID1)") !=
           std::string::npos;
  });
}

BOOST_AUTO_TEST_CASE(a_stuck_pipe_at_kernel_end_is_reported) {
  auto kernel = []() { wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0); };
  BOOST_CHECK_EXCEPTION(launch({.blocks = 1}, kernel), Error, [](const Error& e) {
    const std::string m = e.what();
    return m.find("the end of the kernel") != std::string::npos &&
           m.find("PIPE_MTE3 is stuck at wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0)") != std::string::npos;
  });
}

BOOST_AUTO_TEST_CASE(the_first_core_error_is_rethrown_with_its_core) {
  auto kernel = []() -> Kernel {
    if (get_block_idx() == 3) throw std::runtime_error("user failure");
    if (get_block_idx() == 5) {
      Tile<TileType::Vec, float, 8, 8> t;
      TASSIGN(t, 0x30001);  // misaligned
    }
    co_return;
  };
  BOOST_CHECK_EXCEPTION(launch({.blocks = 8}, kernel), std::runtime_error,
                        [](const std::runtime_error& e) { return std::string(e.what()) == "user failure"; });
  auto only5 = []() -> Kernel {
    if (get_block_idx() == 5) {
      Tile<TileType::Vec, float, 8, 8> t;
      TASSIGN(t, 0x20);
      TASSIGN(t, 0x30001);
    }
    co_return;
  };
  BOOST_CHECK_EXCEPTION(launch({.blocks = 8}, only5), Error, [](const Error& e) {
    return std::string(e.what()).rfind("core 5: TASSIGN", 0) == 0;
  });
}

BOOST_AUTO_TEST_CASE(suspending_on_a_foreign_awaitable_is_an_error) {
  auto kernel = []() -> Kernel { co_await std::suspend_always{}; };
  BOOST_CHECK_EXCEPTION(launch({.blocks = 1}, kernel), Error, [](const Error& e) {
    return std::string(e.what()).find("suspended on an awaitable that is not a PTO instruction") != std::string::npos;
  });
}

BOOST_AUTO_TEST_CASE(tsync_waits_for_events_on_their_destination_pipe) {
  auto in = iota_data(R * C);
  std::vector<float> out(R * C, -1.0f);
  auto kernel = [](float* o, float* i) {
    TileF t;
    TASSIGN(t, 0);
    GmF src(i), dst(o);
    Event<Op::TLOAD, Op::TSTORE_VEC> loaded = TLOAD(t, src);
    TSYNC(loaded);  // MTE3 waits for the load: the store below is ordered without a flag
    TSTORE(dst, t);
  };
  LaunchReport rep = launch({.blocks = 1}, kernel, out.data(), in.data());
  BOOST_TEST(out == in);
  BOOST_TEST(rep.cycles == 392u + 150u);
}

BOOST_AUTO_TEST_CASE(tsync_on_a_record_event_stalls_the_scalar_pipe) {
  auto kernel = []() -> Kernel {
    TileF t;
    TASSIGN(t, 0);
    // V: vector_dup in counter mode, 64 repeats: head 11 + 64 + tail 13 + counter mode 16 = 104 cycles.
    RecordEvent e = co_await TEXPANDS(t, 3.0f);
    TSYNC(e);
    co_await pipe_barrier(PIPE_V);  // issued at 104: the scalar clock moved to the event's end
  };
  LaunchReport rep = launch({.blocks = 1}, kernel);
  BOOST_TEST(rep.cycles == 105u);  // the barrier's issue cycle after the wait
  BOOST_TEST(rep.cores[0].pipes[PIPE_S].idle[int(Stall::Event)] == 104u - 2u);  // after 2 issue cycles
}

BOOST_AUTO_TEST_CASE(tsync_op_is_a_pipe_barrier) {
  auto kernel = []() {
    TileF t;
    TASSIGN(t, 0);
    TEXPANDS(t, 1.0f);
    TSYNC<Op::TEXPANDS>();
  };
  LaunchReport rep = launch({.blocks = 1}, kernel);
  BOOST_TEST(rep.cores[0].pipes[PIPE_V].instructions == 2u);
}

// ---- regressions ----------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(auto_mode_under_the_concurrent_policy_waits_for_real_execution) {
  // The model may retire TEXPANDS (cheap) long before the host runs it; the store of x must still wait.
  for (int run = 0; run < 20; ++run) {
    std::vector<float> big(R * C, 1.0f), out(R * C, 0.0f);
    auto kernel = [](float* o, float* b) -> Kernel {
      TileF x, a;
      GmF gb(b), go(o);
      co_await TEXPANDS(x, 5.0f);
      RecordEvent l = co_await TLOAD(a, gb);
      TSYNC(l);
      co_await TSTORE(go, x);
    };
    launch({.blocks = 4, .mode = Mode::Auto, .policy = Policy::Concurrent, .host_threads = 2}, kernel, out.data(), big.data());
    for (float v : out) BOOST_TEST_REQUIRE(v == 5.0f);
  }
}

BOOST_AUTO_TEST_CASE(snapshots_restore_only_the_readers_own_lines) {
  // L (valid 16x8 of a 16x16 float tile) and R (same shape, 32 bytes further) interleave row by row.
  // TLOAD R ends while TADDS(L) runs: restoring L's start-time bytes must not revert R.
  std::vector<float> in(16 * 8, 7.0f), out_l(16 * 8), out_r(16 * 8);
  auto kernel = [](float* ol, float* orr, float* i) -> Kernel {
    using T = Tile<TileType::Vec, float, 16, 16, BLayout::RowMajor, -1, -1>;
    using G = GlobalTensor<float, Shape<1, 1, 1, 16, 8>, pto::Stride<1, 1, 1, 8, 1>>;
    T l(16, 8), r(16, 8);
    TASSIGN(l, 0);
    TASSIGN(r, 32);
    G gi(i), gl(ol), gr(orr);
    RecordEvent fill = co_await TEXPANDS(l, 1.0f);
    RecordEvent loaded = co_await TLOAD(r, gi, fill);  // ends at 140 + 9, during the TADDS below
    RecordEvent add = co_await TADDS(l, l, 1.0f, fill);
    co_await TSTORE(gl, l, add);
    co_await TSTORE(gr, r, loaded, add);
  };
  launch({.blocks = 1}, kernel, out_l.data(), out_r.data(), in.data());
  for (float v : out_l) BOOST_TEST_REQUIRE(v == 2.0f);
  for (float v : out_r) BOOST_TEST_REQUIRE(v == 7.0f);
}

BOOST_AUTO_TEST_CASE(coroutine_kernels_may_take_arguments_by_reference) {
  auto in = iota_data(R * C);
  std::vector<float> out(R * C);
  struct K {
    static Kernel k(const GmF& src, const GmF& dst) {
      TileF t;
      TASSIGN(t, 0);
      RecordEvent l = co_await TLOAD(t, src);
      co_await TSTORE(const_cast<GmF&>(dst), t, l);
    }
  };
  GmF src(in.data()), dst(out.data());
  launch({.blocks = 2}, K::k, src, dst);
  BOOST_TEST(out == in);
}

BOOST_AUTO_TEST_CASE(a_full_issue_queue_stalls_the_scalar_clock) {
  auto kernel = [](float* i) -> Kernel {
    TileF a;
    TASSIGN(a, 0);
    Tile<TileType::Vec, float, 64, 256> big;
    TASSIGN(big, 0x4000);
    GmF g(i);
    for (int k = 0; k < 3; ++k) co_await TLOAD(a, g);  // depth 1: the 2nd and 3rd wait for a free slot
    co_await TEXPANDS(big, 1.0f);                       // issued at 785 (after two 392-cycle loads)
  };
  std::vector<float> in(R * C);
  LaunchReport rep = launch({.blocks = 1, .queue_depth = 1, .timeline = true}, kernel, in.data());
  BOOST_TEST(rep.cycles == 3u * 392u);
  const CoreReport& c = rep.cores[0];
  const auto fill = std::find_if(c.timeline.begin(), c.timeline.end(), [&](const TimelineEntry& e) { return c.name(e) == "TEXPANDS"; });
  BOOST_TEST_REQUIRE((fill != c.timeline.end()));
  BOOST_TEST(fill->issue == 785u);
  BOOST_TEST(fill->end == 785u + 11u + 256u + 13u + 16u);  // 256 counter-mode repeats
  // The scalar pipe: 4 issue cycles, 2 x 327 waiting for a slot, then the kernel's end waits for MTE2.
  BOOST_TEST(c.pipes[PIPE_S].idle[int(Stall::QueueFull)] == 782u);
  BOOST_TEST(c.pipes[PIPE_S].idle[int(Stall::Drain)] == 1176u - 786u);
}

BOOST_AUTO_TEST_CASE(a_kernel_local_gm_buffer_is_safe_behind_a_barrier) {
  // A kernel's locals die when its body ends, before the core drains: storing into one needs the
  // kernel's own barrier first (as on the device). Under AddressSanitizer this checks the order.
  auto kernel = [](float* o) -> Kernel {
    std::vector<float> local(R * C);
    TileF t;
    TASSIGN(t, 0);
    GmF g(local.data());
    RecordEvent f = co_await TEXPANDS(t, 3.0f);
    co_await TSTORE(g, t, f);
    co_await pipe_barrier(PIPE_ALL);
    o[get_block_idx()] = local[17];
  };
  std::vector<float> out(2);
  launch({.blocks = 2}, kernel, out.data());
  launch({.blocks = 2, .policy = Policy::Concurrent}, kernel, out.data());
  BOOST_TEST(out[1] == 3.0f);
}

BOOST_AUTO_TEST_CASE(a_direct_call_with_a_wait_before_its_set_is_an_error) {
  auto kernel = []() {
    TileF t;
    TASSIGN(t, 0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID5);
  };
  BOOST_CHECK_EXCEPTION(kernel(), Error, [](const Error& e) {
    return std::string(e.what()).find("wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID5) on PIPE_V: in a direct call") == 0;
  });
  // The implicit core is usable again afterwards.
  TileF t;
  TASSIGN(t, 0);
  TEXPANDS(t, 4.0f);
  BOOST_TEST(t.data()[5] == 4.0f);
}

BOOST_AUTO_TEST_CASE(a_load_reads_gm_at_its_start_even_if_a_store_lands_meanwhile) {
  // TLOAD x (280 cycles) starts at 0; an unsynchronised 8-row TSTORE into x starts at 1 and ends at 20:
  // the load still delivers what GM held when it started (the runtime stages it on that overwrite).
  auto in = iota_data(R * C);
  const auto before = in;
  std::vector<float> out(R * C);
  auto kernel = [](float* x, float* o) -> Kernel {
    TileF t;
    Tile<TileType::Vec, float, 8, C> small;
    TASSIGN(t, 0);
    TASSIGN(small, 0x10000);
    RecordEvent f = co_await TEXPANDS(small, -1.0f);
    GmF gx(x), go(o);
    GlobalTensor<float, Shape<1, 1, 1, 8, C>, pto::Stride<1, 1, 1, C, 1>> gx8(x);
    RecordEvent l = co_await TLOAD(t, gx);
    co_await TSTORE(gx8, small, f);
    co_await TSTORE(go, t, l);
  };
  launch({.blocks = 1}, kernel, in.data(), out.data());
  BOOST_TEST(out == before);
  for (int i = 0; i < 8 * C; ++i) BOOST_TEST_REQUIRE(in[std::size_t(i)] == -1.0f);
}

// ---- report figures -------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(serialised_baseline_and_overlap) {
  auto in = iota_data(R * C);
  std::vector<float> out(R * C);
  auto chained = [](float* o, float* i) -> Kernel {  // every instruction waits for the previous one
    TileF a, b;
    TASSIGN(a, 0);
    TASSIGN(b, 0x10000);
    GmF src(i), dst(o);
    RecordEvent l = co_await TLOAD(a, src);
    RecordEvent m = co_await TMOV(b, a, l);
    co_await TSTORE(dst, b, m);
  };
  LaunchReport rep = launch({.blocks = 1}, chained, out.data(), in.data());
  // Busy: MTE2 392 + V 517 + MTE3 150 + S 3 issue cycles; nothing overlaps but the scalar's issue.
  BOOST_TEST(rep.serialised_cycles() == 1062u);
  BOOST_TEST(rep.cycles == 1059u);
  BOOST_TEST(rep.overlap() == 1062.0 / 1059.0);
  // Double buffering overlaps loads, moves and stores: the same work in less modeled time.
  const int tiles = 8;
  auto big = iota_data(std::size_t(tiles) * R * C);
  std::vector<float> big_out(big.size());
  LaunchReport db = launch({.blocks = 1}, stream, big_out.data(), big.data(), tiles);
  BOOST_TEST(db.serialised_cycles() == std::uint64_t(tiles) * (392 + 517 + 150) + db.cores[0].instructions);
  BOOST_TEST(db.overlap() > 1.6);  // V-bound (the UB copy): at most 1059 / 517 = 2.05 with infinitely many tiles
}

BOOST_AUTO_TEST_CASE(model_only_mode_times_without_computing) {
  const int tiles = 6;
  auto in = iota_data(std::size_t(2) * tiles * R * C);
  std::vector<float> out(in.size(), -1.0f);
  LaunchReport model = launch({.blocks = 2, .model_only = true}, stream, out.data(), in.data(), tiles);
  for (float v : out) BOOST_TEST_REQUIRE(v == -1.0f);  // nothing computed, nothing stored
  LaunchReport real = launch({.blocks = 2}, stream, out.data(), in.data(), tiles);
  BOOST_TEST(out == in);
  BOOST_TEST(model.cycles == real.cycles);
  for (int p = 0; p < kNumPipeIds; ++p) BOOST_TEST(model.cores[1].pipes[p].busy_cycles == real.cores[1].pipes[p].busy_cycles);
}
