// What a user sees when they make a mistake or use the tool the obvious way (issue 15): the checker on
// by default and impossible to miss, sane host_threads, TSYNC awaitable, const sources, instructions
// held in `auto` variables, the direct-call target, and a summary that names what it reports.
#define BOOST_TEST_MODULE trust
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <span>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_reduce.h>
#include <oneapi/tbb/task_arena.h>

#include <pto/pto-inst.hpp>

using namespace pto;

namespace {
constexpr int R = 64, C = 64;
using TileF = Tile<TileType::Vec, float, R, C>;
using GmF = GlobalTensor<float, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>>;

// Sets or clears an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) saved_ = old, had_ = true;
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~ScopedEnv() {
    if (had_) setenv(name_, saved_.c_str(), 1);
    else unsetenv(name_);
  }

private:
  const char* name_;
  std::string saved_;
  bool had_ = false;
};

// Captures std::cerr for one scope.
class CaptureCerr {
public:
  CaptureCerr() : old_(std::cerr.rdbuf(buf_.rdbuf())) {}
  ~CaptureCerr() { std::cerr.rdbuf(old_); }
  std::string text() const { return buf_.str(); }

private:
  std::ostringstream buf_;
  std::streambuf* old_;
};

// Forgets its MTE2 -> V flag: V reads a tile the load has not written yet.
void forgets_a_flag(__gm__ float* out, __gm__ float* in) {
  TileF a, b;
  TASSIGN(a, 0);
  TASSIGN(b, 0x4000);
  GmF src(in), dst(out);
  TLOAD(a, src);
  TADDS(b, a, 1.0f);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(dst, b);
}

int threads_of_this_process() {
  int n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/task")) ++n;
  return n;
}
}  // namespace

BOOST_AUTO_TEST_CASE(the_checker_is_on_by_default_and_says_so_on_stderr) {
  ScopedEnv env("PTO_SYNC_CHECK", nullptr);  // as a user runs it: nothing set, whatever the build
  std::vector<float> in(R * C, 2.0f), out(R * C, 0.0f);
  CaptureCerr cerr;
  const LaunchReport rep = launch({.blocks = 1}, forgets_a_flag, out.data(), in.data());
  BOOST_TEST_REQUIRE(rep.findings().size() == 1u);
  BOOST_TEST((rep.findings()[0].hazard == SyncFinding::Hazard::RAW));
  BOOST_TEST(cerr.text().rfind("pto::launch: the synchronisation checker found 1 problem(s); results may differ from "
                               "the chip's. First: RAW race on core 0: TLOAD #1",
                               0) == 0u,
             cerr.text());
  BOOST_TEST(rep.summary().find("\n  SYNC CHECKER: 1 finding(s)") != std::string::npos, rep.summary());
}

BOOST_AUTO_TEST_CASE(the_checker_can_be_turned_off_and_report_is_quiet) {
  std::vector<float> in(R * C, 2.0f), out(R * C, 0.0f);
  {
    ScopedEnv env("PTO_SYNC_CHECK", "0");
    CaptureCerr cerr;
    BOOST_TEST(launch({.blocks = 1}, forgets_a_flag, out.data(), in.data()).findings().empty());
    BOOST_TEST(cerr.text().empty());
  }
  ScopedEnv env("PTO_SYNC_CHECK", nullptr);
  CaptureCerr cerr;
  BOOST_TEST(launch({.blocks = 1, .check = SyncCheck::Off}, forgets_a_flag, out.data(), in.data()).findings().empty());
  BOOST_TEST(launch({.blocks = 1, .check = SyncCheck::Report}, forgets_a_flag, out.data(), in.data()).findings().size() == 1u);
  BOOST_TEST(cerr.text().empty());  // Report: the caller reads the findings; no notice
}

BOOST_AUTO_TEST_CASE(host_threads_beyond_the_bound_is_an_error_and_a_launch_starts_only_what_it_uses) {
  std::vector<float> in(R * C, 2.0f), out(R * C, 0.0f);
  BOOST_CHECK_EXCEPTION(launch({.blocks = 1, .host_threads = 100000}, forgets_a_flag, out.data(), in.data()), Error,
                        [](const Error& e) {
                          return std::string(e.what()) ==
                                 "pto::launch: host_threads = 100000 must be in [0, 1024] (0 = all hardware threads)";
                        });
  const int before = threads_of_this_process();
  int during = 0;
  auto kernel = [&](__gm__ float* o, __gm__ float* i) {
    during = std::max(during, threads_of_this_process());
    forgets_a_flag(o, i);
  };
  launch({.blocks = 1, .policy = Policy::Concurrent, .host_threads = 1024, .check = SyncCheck::Off}, kernel, out.data(),
         in.data());
#ifdef __SANITIZE_THREAD__
  constexpr int kSanitizer = 1;  // ThreadSanitizer starts its background thread with the first pthread_create
#else
  constexpr int kSanitizer = 0;
#endif
  // 3 pipe lanes at most, and the watchdog's thread (LaunchConfig::watchdog_seconds)
  BOOST_TEST(during <= before + 3 + 1 + kSanitizer, "threads before " << before << ", during " << during);
}

// oneTBB work inside a launch (a CPU kernel's parallel_for over a large tile) runs in the launch's own
// arena: at most host_threads threads (or the threads the launch itself starts, if more), and it
// completes with no oneTBB worker at all (every slot held by the launch's own threads).
BOOST_AUTO_TEST_CASE(onetbb_work_inside_a_launch_runs_in_an_arena_sized_by_host_threads) {
  for (Policy p : {Policy::Deterministic, Policy::Concurrent})
    for (int ht : {1, 2, 3}) {
      int concurrency = 0;
      long sum = 0;
      auto kernel = [&] {
        concurrency = tbb::this_task_arena::max_concurrency();
        sum = tbb::parallel_reduce(tbb::blocked_range<int>(0, 100000), 0L,
                                   [](const tbb::blocked_range<int>& r, long acc) {
                                     for (int i = r.begin(); i != r.end(); ++i) acc += i;
                                     return acc;
                                   },
                                   std::plus<long>());
      };
      launch({.blocks = 1, .policy = p, .host_threads = ht}, kernel);
      // Concurrent: one kernel thread and at least one pipe thread.
      const int expected = p == Policy::Concurrent ? std::max(ht, 2) : ht;
      BOOST_TEST(concurrency == expected, "policy " << int(p) << ", host_threads " << ht);
      BOOST_TEST(sum == 100000L * 99999L / 2);
    }
  // A big tile's CPU kernel (above the parallel threshold) under both policies and one host thread.
  using Big = Tile<TileType::Vec, float, 128, 256>;
  using BigG = GlobalTensor<float, Shape<1, 1, 1, 128, 256>, pto::Stride<1, 1, 1, 256, 1>>;
  for (Policy p : {Policy::Deterministic, Policy::Concurrent}) {
    std::vector<float> in(128 * 256), out(128 * 256, 0.0f);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = float(i % 97);
    auto kernel = [](__gm__ float* o, __gm__ float* i) -> Kernel {
      Big t;
      TASSIGN(t, 0);
      BigG gi(i), go(o);
      RecordEvent loaded = co_await TLOAD(t, gi);
      RecordEvent added = co_await TADDS(t, t, 1.5f, loaded);
      co_await TSTORE(go, t, added);
    };
    launch({.blocks = 1, .policy = p, .host_threads = 1, .cpu_reference = true}, kernel, std::span(out), std::span(in));
    std::size_t wrong = 0;
    for (std::size_t k = 0; k < in.size(); ++k) wrong += out[k] != in[k] + 1.5f;
    BOOST_TEST(wrong == 0u);
  }
}

BOOST_AUTO_TEST_CASE(tsync_is_awaitable_and_orders) {
  std::vector<float> in(R * C, 2.0f), out(R * C, 0.0f);
  auto kernel = [](__gm__ float* o, __gm__ float* i) -> Kernel {
    TileF a;
    TASSIGN(a, 0);
    GmF src(i), dst(o);
    Event<Op::TLOAD, Op::TSTORE_VEC> loaded = co_await TLOAD(a, src);
    co_await TSYNC(loaded);  // MTE3 waits for the load
    co_await TSTORE(dst, a);
  };
  const LaunchReport rep = launch({.blocks = 1, .check = SyncCheck::Report}, kernel, out.data(), in.data());
  BOOST_TEST(rep.findings().empty());
  BOOST_TEST(out == in);
}

BOOST_AUTO_TEST_CASE(const_tile_sources_are_accepted) {
  std::vector<float> in(R * C, 2.0f), out(R * C, 0.0f);
  auto add_one = [](TileF& dst, const TileF& src) { TADDS(dst, src, 1.0f); };
  auto kernel = [&](__gm__ float* o, __gm__ float* i) {
    TileF a, b;
    TASSIGN(a, 0);
    TASSIGN(b, 0x4000);
    GmF src(i), dst(o);
    TLOAD(a, src);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    add_one(b, a);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(dst, b);
  };
  launch({.blocks = 1, .check = SyncCheck::Throw}, kernel, out.data(), in.data());
  BOOST_TEST(out == std::vector<float>(R * C, 3.0f));
}

BOOST_AUTO_TEST_CASE(an_instruction_held_in_auto_issues_when_waited_on) {
  std::vector<float> in(R * C, 2.0f), out(R * C, 0.0f);
  auto kernel = [](__gm__ float* o, __gm__ float* i) {
    TileF a, b;
    TASSIGN(a, 0);
    TASSIGN(b, 0x4000);
    GmF src(i), dst(o);
    auto loaded = TLOAD(a, src);  // an unissued instruction ...
    auto added = TADDS(b, a, 1.0f, loaded);  // ... issues here, and TADDS waits for it
    TSTORE(dst, b, added);
  };
  const LaunchReport rep = launch({.blocks = 1, .check = SyncCheck::Report}, kernel, out.data(), in.data());
  BOOST_TEST(rep.findings().empty());
  BOOST_TEST(out == std::vector<float>(R * C, 3.0f));
}

BOOST_AUTO_TEST_CASE(an_instruction_held_in_auto_past_later_ones_is_an_error) {
  std::vector<float> in(R * C, 2.0f), out(R * C, 0.0f);
  auto kernel = [](__gm__ float* o, __gm__ float* i) {
    TileF a, b;
    TASSIGN(a, 0);
    TASSIGN(b, 0x4000);
    GmF src(i), dst(o);
    auto loaded = TLOAD(a, src);
    TEXPANDS(b, 0.0f);  // issues before the load would
    TADDS(b, a, 1.0f, loaded);
    TSTORE(dst, b);
  };
  BOOST_CHECK_EXCEPTION(launch({.blocks = 1}, kernel, out.data(), in.data()), Error, [](const Error& e) {
    return std::string(e.what()).rfind("core 0: TLOAD: this instruction would issue after 1 instruction(s) written after it", 0) == 0;
  });
}

BOOST_AUTO_TEST_CASE(direct_calls_run_on_the_chosen_target) {
  using Small = Tile<TileType::Vec, float, 8, 8>;
  auto place_at_200k = [] {
    Small t;
    TASSIGN(t, 200 * 1024);  // inside A5's 256 KiB UB, beyond A2A3's 192 KiB
    TEXPANDS(t, 1.0f);
    return t.GetValue(0);
  };
  BOOST_TEST((direct_call_target() == Target::A2A3));
  BOOST_CHECK_THROW(place_at_200k(), Error);
  {
    ScopedTarget a5(Target::A5);
    BOOST_TEST((direct_call_target() == Target::A5));
    BOOST_TEST(place_at_200k() == 1.0f);
  }
  BOOST_TEST((direct_call_target() == Target::A2A3));
}

BOOST_AUTO_TEST_CASE(the_summary_names_the_event_and_a_verdict_and_groups_classes_of_cores) {
  std::vector<float> in(8 * R * C, 2.0f), out(8 * R * C, 0.0f);
  auto kernel = [](__gm__ float* o, __gm__ float* i) -> Kernel {
    TileF a;
    TASSIGN(a, 0);
    GmF src(i + get_block_idx() * R * C), dst(o + get_block_idx() * R * C);
    RecordEvent loaded = co_await TLOAD(a, src);
    if (get_block_idx() % 2) co_await TADDS(a, a, 1.0f, loaded);  // odd cores do more
    co_await TSTORE(dst, a, loaded);
  };
  const LaunchReport rep = launch({.blocks = 8, .check = SyncCheck::Off}, kernel, out.data(), in.data());
  const std::string s = rep.summary();
  BOOST_TEST(s.find("MTE3 event (longest: TLOAD #1)") != std::string::npos, s);
  BOOST_TEST(s.find("S end-of-kernel drain") == std::string::npos, s);  // every kernel has it: not shown
  BOOST_TEST(s.find("\n  verdict: ") != std::string::npos, s);
  BOOST_TEST(s.find("\n    moved: MTE2 16384 B, ") != std::string::npos, s);
  BOOST_TEST(s.find("barrier") == std::string::npos, s);  // the kernel has none
  BOOST_TEST(s.find("\n  cores 0-6 step 2 (4 cores): ") != std::string::npos, s);
  BOOST_TEST(s.find("\n  cores 1-7 step 2 (4 cores): ") != std::string::npos, s);
}

// ---- sized GM arguments ---------------------------------------------------------------------------

namespace {
void copy_64x64(__gm__ float* out, __gm__ float* in) {
  TileF a;
  TASSIGN(a, 0);
  GmF src(in), dst(out);
  TLOAD(a, src);
  set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  TSTORE(dst, a);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

BOOST_AUTO_TEST_CASE(a_tensor_larger_than_its_sized_buffer_is_an_error) {
  std::vector<float> small(1024, 1.0f), out(R * C);
  BOOST_TEST(error_of([&] { launch({.blocks = 1}, copy_64x64, out, small); }) ==
             "core 0: TLOAD: operand src GlobalTensor<float,ND> shape(1,1,1,64,64) stride(1,1,1,64,1) reads GM bytes "
             "[0, 16384) of launch argument 1 (1024 elements of 4 bytes = 4096 bytes): 12288 bytes past its end; the "
             "tensor's shape and strides must stay inside the buffer passed to pto::launch");
  std::vector<float> in(R * C, 1.0f);
  BOOST_TEST(error_of([&] { launch({.blocks = 1}, copy_64x64, pto::gm(out.data(), 100), std::span<float>(in)); }) ==
             "core 0: TSTORE: operand dst GlobalTensor<float,ND> shape(1,1,1,64,64) stride(1,1,1,64,1) writes GM bytes "
             "[0, 16384) of launch argument 0 (100 elements of 4 bytes = 400 bytes): 15984 bytes past its end; the "
             "tensor's shape and strides must stay inside the buffer passed to pto::launch");
  // A tensor that starts inside and runs past the end, from an offset pointer.
  auto offset = [](__gm__ float* o, __gm__ float* i) { copy_64x64(o, i + 16); };
  BOOST_TEST(error_of([&] { launch({.blocks = 1}, offset, out, in); }).find("reads GM bytes [64, 16448) of launch argument 1") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(sized_buffers_that_fit_run_and_raw_pointers_stay_unchecked) {
  std::vector<float> in(R * C), out(R * C, 0.0f);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = float(i);
  launch({.blocks = 1}, copy_64x64, out, in);
  BOOST_TEST(out == in);
  std::vector<float> out2(R * C, 0.0f);
  launch({.blocks = 1}, copy_64x64, out2.data(), in.data());  // raw pointers: no size, no check
  BOOST_TEST(out2 == in);
}

BOOST_AUTO_TEST_CASE(auto_mode_tiles_that_do_not_fit_are_an_error_listing_the_live_ones) {
  auto kernel = []() -> Kernel {
    TileF t[13];  // 13 x 16 KiB live at once: more than the 184 KiB auto mode may use on A2A3
    for (int k = 0; k < 13; ++k) co_await TEXPANDS(t[k], float(k));
  };
  const std::string e = error_of([&] { launch({.blocks = 1, .mode = Mode::Auto}, kernel); });
  BOOST_TEST(e.rfind("core 0: TEXPANDS: operand dst Tile<Vec,float,64,64> valid 64x64 (16384 bytes): auto mode finds no "
                     "room in the 184 KiB of UB auto mode may use on A2A3: 11 live tile(s) hold 180224 bytes (largest "
                     "free block 8192 bytes). Live tiles: Tile<Vec,float,64,64> valid 64x64 (16384 bytes at 0x0), ",
                     0) == 0u,
             e);
  // On A5 (256 KiB, no scratch) all 13 fit: 208 KiB.
  BOOST_TEST(error_of([&] { launch({.blocks = 1, .target = Target::A5, .mode = Mode::Auto}, kernel); }) == "no error");
}

// A kernel that owns a GM buffer (a pto::KernelGm) which an in-flight TLOAD still reads when the
// kernel returns: its GlobalTensor dies first, and the kernel waits there for the load. Under
// AddressSanitizer this was a heap-use-after-free.
BOOST_AUTO_TEST_CASE(a_kernel_owned_gm_buffer_is_read_before_it_dies) {
  auto plain = [](__gm__ float* out) {
    KernelGm<float> local(R * C, 5.0f);
    TileF t;
    TASSIGN(t, 0);
    GmF src(local.data()), dst(out);
    TLOAD(t, src);
    set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    TSTORE(dst, t);
  };
  auto coroutine = [](__gm__ float* out) -> Kernel {
    KernelGm<float> local(R * C, 6.0f);
    TileF t;
    TASSIGN(t, 0);
    GmF src(local.data()), dst(out);
    RecordEvent l = co_await TLOAD(t, src);
    co_await TSTORE(dst, t, l);
  };
  for (Policy p : {Policy::Deterministic, Policy::Concurrent}) {
    std::vector<float> out(R * C, 0.0f);
    launch({.blocks = 1, .policy = p, .host_threads = 2}, plain, out);
    BOOST_TEST(out == std::vector<float>(R * C, 5.0f));
    launch({.blocks = 1, .policy = p, .host_threads = 2}, coroutine, out);
    BOOST_TEST(out == std::vector<float>(R * C, 6.0f));
  }
}
