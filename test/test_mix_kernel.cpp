// pto_add_mix_kernel: one source, a cube and a vector compilation, each core running its own (the
// inline function and template that differ between them are not merged), launched through
// pto::mix_entry from the launcher the source defines.
#define BOOST_TEST_MODULE mix_kernel
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

#include "chevron_rewrite.hpp"

pto::LaunchReport run_odr_kernel(std::vector<int>& out, std::vector<float>& data, int clusters);
void launch_scale_rows(float* x, float* y, float factor, int blocks, aclrtStream stream);
pto::LaunchReport run_statics_kernel(std::vector<int>& out, int clusters, int iters, int host_threads);
pto::LaunchReport run_tf32_kernel(std::vector<float>& a, std::vector<float>& b, std::vector<float>& c);

namespace {
// x with `bits` fraction bits, rounded half away from zero (the cube's CAST_ROUND TF32 conversion).
double tf32(float x, int bits) {
  int e = 0;
  const double m = std::frexp(double(x), &e);
  return std::ldexp(std::round(std::ldexp(m, bits + 1)), e - bits - 1);
}
}  // namespace

BOOST_AUTO_TEST_CASE(each_core_runs_its_own_compilation_of_an_inline_function_and_a_template) {
  for (int clusters : {1, 3}) {
    std::vector<int> out(std::size_t(6 * clusters), -1);
    std::vector<float> data(std::size_t(64 * 3 * clusters), -1.0f);
    pto::LaunchReport r = run_odr_kernel(out, data, clusters);
    BOOST_TEST(r.cores.size() == std::size_t(3 * clusters));
    int compared = 0;
    for (int c = 0; c < 3 * clusters; ++c) {
      const bool cube = c % 3 == 0;
      BOOST_TEST(out[std::size_t(2 * c)] == (cube ? 1 : 2));
      BOOST_TEST(out[std::size_t(2 * c + 1)] == (cube ? 130 : 260));
      for (int i = 0; i < 64; ++i, ++compared) BOOST_TEST(data[std::size_t(64 * c + i)] == (cube ? -1.0f : float(c)));
    }
    BOOST_TEST(compared == 64 * 3 * clusters);
  }
}

// The source compiled plainly (not through pto_add_mix_kernel) has no compilations to launch: a
// static_assert says so (test/compile_fail). Here: an entry nobody registered is a run-time error.
BOOST_AUTO_TEST_CASE(an_entry_without_both_compilations_is_an_error) {
  BOOST_TEST(pto::detail::find_mix_entry("no such kernel", true) == nullptr);
  // One kernel built by two targets: each side registered twice, with different functions.
  pto::detail::register_mix_entry("twice", true, reinterpret_cast<pto::detail::AnyFn>(&run_odr_kernel));
  pto::detail::register_mix_entry("twice", true, reinterpret_cast<pto::detail::AnyFn>(&launch_scale_rows));
  std::string e;
  try {
    pto::detail::find_mix_entry("twice", true);
  } catch (const pto::Error& x) {
    e = x.what();
  }
  BOOST_TEST(e.find("pto::mix_entry: the kernel entry twice was built by pto_add_mix_kernel more than once") == 0u, e);
}

// A kernel file with its own chevron launcher builds unmodified (pto_chevron rewrote the launch).
BOOST_AUTO_TEST_CASE(a_chevron_launch_runs_the_kernel_on_clusters) {
  const int blocks = 3;
  std::vector<float> x(std::size_t(blocks) * 32 * 16), y(x.size(), 0.0f);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(i % 97) - 40.0f;
  pto::chevron_config().timeline = true;
  launch_scale_rows(x.data(), y.data(), 0.5f, blocks, nullptr);
  pto::chevron_config() = {};
  std::size_t compared = 0;
  for (std::size_t i = 0; i < x.size(); ++i, ++compared) BOOST_TEST(y[i] == double(x[i]) * 0.5);
  BOOST_TEST(compared == x.size());
  const pto::LaunchReport& r = pto::last_chevron_report();
  BOOST_TEST(r.cores.size() == std::size_t(3 * blocks));
  BOOST_TEST(r.timeline);
}

BOOST_AUTO_TEST_CASE(the_rewrite_finds_qualified_templated_callees_and_leaves_the_rest) {
  using pto_tools::rewrite_chevrons;
  BOOST_TEST(rewrite_chevrons("k<<<4, nullptr, s>>>(a, b);", "f.cpp") ==
             "#line 1 \"f.cpp\"\npto::chevron<&k>(4, nullptr, s)(a, b);");
  BOOST_TEST(rewrite_chevrons("  ns::run<A<1>, 2, B<C<3>>> <<<n / 2, 0, st>>>(x);", "g.cpp") ==
             "#line 1 \"g.cpp\"\n  pto::chevron<&ns::run<A<1>, 2, B<C<3>>>>(n / 2, 0, st)(x);");
  BOOST_TEST(rewrite_chevrons("// <<< not a launch >>>\nint x = 1;", "h.cpp") ==
             "#line 1 \"h.cpp\"\n// <<< not a launch >>>\nint x = 1;");
  BOOST_TEST(rewrite_chevrons("no launches here", "i.cpp") == "#line 1 \"i.cpp\"\nno launches here");
}

// The cube side's auto-placed tiles and TF32 mode reach the runtime through hooks that must not be
// renamed with the cube compilation: the product is A2/A3's TF32 one (11 fraction bits), not float's.
BOOST_AUTO_TEST_CASE(the_cube_compilation_keeps_the_runtime_hooks) {
  constexpr int M = 16, K = 40, N = 32;
  std::vector<float> a(M * K), b(K * N), c(M * N, 0.0f);
  for (int i = 0; i < M * K; ++i) a[std::size_t(i)] = 1.0f + float((i * 7919) % 4093) * 0x1p-12f + float(i % 5) * 0x1p-22f;
  for (int i = 0; i < K * N; ++i) b[std::size_t(i)] = -1.5f + float((i * 104729) % 4091) * 0x1p-12f + float(i % 3) * 0x1p-21f;
  const pto::LaunchReport r = run_tf32_kernel(a, b, c);
  BOOST_TEST(r.cores[0].pipes[PIPE_M].instructions == 1u);
  int tf32_ok = 0, float_ok = 0, compared = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j, ++compared) {
      double ref = 0, full = 0, mag = 0;
      for (int p = 0; p < K; ++p) {
        const float x = a[std::size_t(i * K + p)], y = b[std::size_t(j * K + p)];
        ref += tf32(x, 11) * tf32(y, 11);
        full += double(x) * double(y);
        mag += std::abs(double(x) * double(y));
      }
      const double got = c[std::size_t(i * N + j)], bound = (K + 2) * 0x1p-24 * mag;
      tf32_ok += std::abs(got - ref) <= bound;
      float_ok += std::abs(got - full) <= bound;
    }
  BOOST_TEST(compared == M * N);
  BOOST_TEST(tf32_ok == M * N);
  BOOST_TEST(float_ok < M * N / 2);  // the inputs carry bits TF32 drops: the full product differs
}

// Each core has its own copy of the kernel's statics and globals, as on the chip: every core counts
// 1, 2, ... whatever the others do, on any number of host threads, and a second launch starts afresh.
BOOST_AUTO_TEST_CASE(each_core_has_its_own_kernel_statics) {
  constexpr int clusters = 3, iters = 5;
  int compared = 0;
  for (int threads : {1, 4, 1}) {
    std::vector<int> out(std::size_t(3 * clusters * (iters + 1)), -1);
    run_statics_kernel(out, clusters, iters, threads);
    for (int c = 0; c < 3 * clusters; ++c) {
      for (int i = 0; i < iters; ++i, ++compared) BOOST_TEST(out[std::size_t(c * (iters + 1) + i)] == i + 1);
      BOOST_TEST(out[std::size_t(c * (iters + 1) + iters)] == iters);
    }
  }
  BOOST_TEST(compared == 3 * 3 * clusters * iters);
}
