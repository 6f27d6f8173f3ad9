// Existing plain PTO kernels: called directly (one implicit core) and through pto::launch. The same
// source is compiled again with __PTO_AUTO__ (test_plain_kernels_auto) and launched in auto mode.
#define BOOST_TEST_MODULE PLAIN_KERNELS_MODULE
#include <boost/test/unit_test.hpp>

#include <vector>

#include "kernels/seed_style_copy.hpp"
#include "test_util.hpp"

#ifdef __PTO_AUTO__
constexpr pto::Mode kMode = pto::Mode::Auto;
#else
constexpr pto::Mode kMode = pto::Mode::Manual;
#endif

BOOST_AUTO_TEST_CASE(called_directly_on_the_implicit_core) {
  auto in = pto_test::random_vector<aclFloat16>(16 * 256, -16, 16, 19);
  std::vector<aclFloat16> out(in.size(), aclFloat16(0));
  runTMOVCOPY<half, 16, 256>(out.data(), in.data());
  BOOST_TEST((out == in));
}

#ifdef __PTO_AUTO__
// A kernel of an auto-mode build (no TASSIGN, no flags) called directly: the implicit core runs in auto
// mode, placing the tiles. Before, it ran in manual mode and failed on its first tile.
BOOST_AUTO_TEST_CASE(an_auto_build_runs_direct_calls_in_auto_mode) {
  using TileF = pto::Tile<pto::TileType::Vec, float, 16, 64>;
  using GmF = pto::GlobalTensor<float, pto::Shape<1, 1, 1, 16, 64>, pto::Stride<1, 1, 1, 64, 1>>;
  std::vector<float> in(16 * 64, 2.0f), out(16 * 64, 0.0f);
  auto kernel = [](float* o, float* i) {
    TileF a, b;
    GmF src(i), dst(o);
    pto::TLOAD(a, src);
    pto::TADDS(b, a, 1.0f);
    pto::TSTORE(dst, b);
  };
  kernel(out.data(), in.data());
  BOOST_TEST(out == std::vector<float>(16 * 64, 3.0f));
}
#endif

BOOST_AUTO_TEST_CASE(launched_on_many_cores) {
  for (auto target : {pto::Target::A2A3, pto::Target::A5}) {
    auto in = pto_test::random_vector<float>(std::size_t(8) * 64 * 64, -2, 2, 19);
    std::vector<float> out(in.size(), 0.0f);
    pto::LaunchReport rep =
        pto::launch({.blocks = 8, .target = target, .mode = kMode}, runTMOVCOPY<float, 64, 64>, out.data(), in.data());
    BOOST_TEST(out == in);
    BOOST_TEST(rep.cores.size() == 8u);
    BOOST_TEST(rep.cycles > 0u);
  }
}

BOOST_AUTO_TEST_CASE(concurrent_policy_runs_the_plain_kernel) {
  auto in = pto_test::random_vector<float>(std::size_t(16) * 64 * 64, -2, 2, 23);
  std::vector<float> out(in.size(), 0.0f);
  pto::launch({.blocks = 16, .mode = kMode, .policy = pto::Policy::Concurrent, .host_threads = 2},
              runTMOVCOPY<float, 64, 64>, out.data(), in.data());
  BOOST_TEST(out == in);
}
