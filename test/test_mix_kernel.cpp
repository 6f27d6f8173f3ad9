// pto_add_mix_kernel: one source, a cube and a vector compilation, each core running its own (the
// inline function and template that differ between them are not merged), launched through
// pto::mix_entry from the launcher the source defines.
#define BOOST_TEST_MODULE mix_kernel
#include <boost/test/unit_test.hpp>

#include <vector>

#include <pto/pto-inst.hpp>

#include "chevron_rewrite.hpp"

pto::LaunchReport run_odr_kernel(std::vector<int>& out, std::vector<float>& data, int clusters);
void launch_scale_rows(float* x, float* y, float factor, int blocks, aclrtStream stream);

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
