// Every runtime legality rule raises pto::Error naming the instruction, the operand and the rule.
#define BOOST_TEST_MODULE errors
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

using namespace pto;

namespace {
// Runs `f` and checks that it throws pto::Error whose message contains every fragment.
template <class F>
void expect_error(F&& f, std::initializer_list<const char*> fragments) {
  try {
    f();
  } catch (const Error& e) {
    const std::string m = e.what();
    BOOST_TEST_MESSAGE(m);
    for (const char* frag : fragments) BOOST_TEST(m.find(frag) != std::string::npos, "'" << frag << "' not in: " << m);
    return;
  }
  BOOST_ERROR("no pto::Error was thrown");
}
using TileF = Tile<TileType::Vec, float, 16, 16>;
using GmF = GlobalTensor<float, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, -1, 1>>;
}  // namespace

BOOST_AUTO_TEST_CASE(tassign_beyond_ub) {
  expect_error([] { TileF t; TASSIGN(t, 192 * 1024 - 512); },
               {"TASSIGN: operand tile Tile<Vec,float,16,16>", "exceed the 192 KiB UB of A2A3", "offset 196096"});
  // The same offset fits the 256 KiB UB of A5.
  launch({.blocks = 1, .target = Target::A5}, [] { TileF t; TASSIGN(t, 192 * 1024 - 512); });
  expect_error([] { launch({.blocks = 1, .target = Target::A5}, [] { TileF t; TASSIGN(t, 256 * 1024 - 512); }); },
               {"core 0: TASSIGN", "exceed the 256 KiB UB of A5"});
}

BOOST_AUTO_TEST_CASE(tassign_misaligned_or_negative) {
  expect_error([] { TileF t; TASSIGN(t, 0x1010); }, {"TASSIGN", "address 0x1010 is not 32-byte aligned"});
  expect_error([] { TileF t; TASSIGN(t, -64); }, {"TASSIGN", "address -64 is negative"});
}

BOOST_AUTO_TEST_CASE(tassign_of_a_buffer_the_target_lacks) {
  // A5's MX scale buffers do not exist on A2A3.
  expect_error([] { Tile<TileType::ScaleLeft, std::int8_t, 16, 32> t; TASSIGN(t, 0); },
               {"TASSIGN: operand tile Tile<ScaleLeft", "ScaleLeft tiles have no buffer on A2A3"});
}

BOOST_AUTO_TEST_CASE(manual_mode_tile_without_tassign) {
  expect_error(
      [] {
        TileF t;
        TEXPANDS(t, 1.0f);
      },
      {"TEXPANDS: operand dst Tile<Vec,float,16,16>", "no buffer address; call TASSIGN first"});
}

BOOST_AUTO_TEST_CASE(gm_shape_must_match_the_valid_shape) {
  std::vector<float> gm(1024);
  expect_error(
      [&] {
        TileF t;
        TASSIGN(t, 0);
        GmF g(gm.data(), {16, 8}, {16});
        TLOAD(t, g);
      },
      {"TLOAD: operand src GlobalTensor<float,ND> shape(1,1,1,16,8)", "maps 16x8", "operand dst has valid shape 16x16",
       "ND tensor <-> RowMajor tile rule"});
  expect_error(
      [&] {
        Tile<TileType::Vec, float, 16, 16, BLayout::RowMajor, -1, -1> t(4, 16);
        TASSIGN(t, 0);
        GmF g(gm.data(), {5, 16}, {16});
        TSTORE(g, t);
      },
      {"TSTORE: operand dst", "maps 5x16", "operand src has valid shape 4x16"});
  expect_error(
      [&] {
        Tile<TileType::Vec, float, 16, 8, BLayout::ColMajor> t;
        TASSIGN(t, 0);
        GlobalTensor<float, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, 1, -1>, Layout::DN> g(gm.data(), {16, 4}, {16});
        TLOAD(t, g);
      },
      {"TLOAD", "maps 16x4", "(rows = s3, cols = s0*s1*s2*s4)", "DN tensor <-> ColMajor tile rule"});
}

BOOST_AUTO_TEST_CASE(gm_null_pointer_and_bad_shape) {
  expect_error(
      [] {
        TileF t;
        TASSIGN(t, 0);
        GmF g(nullptr, {16, 16}, {16});
        TLOAD(t, g);
      },
      {"TLOAD: operand src", "points to nullptr"});
  std::vector<float> gm(16);
  expect_error(
      [&] {
        TileF t;
        TASSIGN(t, 0);
        GmF g(gm.data(), {0, 16}, {16});
        TLOAD(t, g);
      },
      {"TLOAD: operand src", "shape dimension 3 is 0"});
}

BOOST_AUTO_TEST_CASE(a2a3_dma_row_limit) {
  std::vector<half> gm(4096 * 16);
  expect_error(
      [&] {
        Tile<TileType::Vec, half, 4096, 16, BLayout::RowMajor, -1, -1> t(4096, 16);
        TASSIGN(t, 0);
        GlobalTensor<half, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, -1, 1>> g(gm.data(), {4096, 16}, {16});
        TLOAD(t, g);
      },
      {"TLOAD: operand dst", "A2A3 DMA needs a tile with Rows < 4096"});
}

BOOST_AUTO_TEST_CASE(a5_64bit_pads_only_null_or_zero) {
  std::vector<std::int64_t> gm(64);
  auto kernel = [](std::int64_t* p) {
    Tile<TileType::Vec, std::int64_t, 4, 8, BLayout::RowMajor, -1, -1, SLayout::NoneBox, 512, PadValue::Max> t(4, 8);
    TASSIGN(t, 0);
    GlobalTensor<std::int64_t, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, -1, 1>> g(p, {4, 8}, {8});
    TLOAD(t, g);
  };
  expect_error([&] { launch({.blocks = 1, .target = Target::A5}, kernel, gm.data()); },
               {"TLOAD: operand dst", "on A5 a 64-bit tile may only pad with PadValue::Null or Zero"});
}

BOOST_AUTO_TEST_CASE(dtype_rules_name_the_supporting_targets) {
  expect_error(
      [] {
        Tile<TileType::Vec, std::int64_t, 4, 8> t;
        TASSIGN(t, 0);
        TEXPANDS(t, std::int64_t(1));
      },
      {"TEXPANDS: operand dst dtype int64 is not supported on A2A3", "supported on: A5"});
}

BOOST_AUTO_TEST_CASE(a2a3_tmov_between_tiles_of_one_shape) {
  expect_error(
      [] {
        Tile<TileType::Vec, float, 16, 16, BLayout::RowMajor, -1, -1> s(4, 16);
        Tile<TileType::Vec, float, 8, 16, BLayout::RowMajor, -1, -1> d(8, 16);
        TASSIGN(s, 0);
        TASSIGN(d, 0x400);
        TMOV(d, s);
      },
      {"TMOV: operand dst", "valid 8x16", "operand src", "valid 4x16", "A2A3 moves between Vec tiles of one shape"});
}

BOOST_AUTO_TEST_CASE(flag_operands) {
  expect_error([] { set_flag(PIPE_MTE2, PIPE_V, 8); }, {"set_flag(PIPE_MTE2, PIPE_V, 8): operand event id 8 is out of range; use EVENT_ID0..EVENT_ID7"});
  expect_error([] { wait_flag(PIPE_MTE2, PIPE_V, -1); }, {"wait_flag", "operand event id -1 is out of range"});
  expect_error([] { set_flag(PIPE_ALL, PIPE_V, EVENT_ID0); }, {"set_flag: operand src pipe 6 (PIPE_ALL) must be one real pipe"});
  expect_error([] { wait_flag(PIPE_V, 11, EVENT_ID0); }, {"wait_flag: operand dst pipe 11 (PIPE_<invalid>)"});
  expect_error([] { set_flag(PIPE_V, PIPE_V, EVENT_ID0); }, {"source and destination pipe are the same"});
  expect_error([] { pipe_barrier(12); }, {"pipe_barrier: operand pipe 12 is not a pipe"});
}

BOOST_AUTO_TEST_CASE(events_belong_to_one_core) {
  RecordEvent foreign;
  {
    TileF t;
    TASSIGN(t, 0);
    foreign = TEXPANDS(t, 1.0f);  // issued on the implicit core
  }
  expect_error(
      [&] {
        launch({.blocks = 1}, [&] {
          TileF t;
          TASSIGN(t, 0);
          TEXPANDS(t, 2.0f, foreign);
        });
      },
      {"core 0: TEXPANDS: a wait event comes from another core"});
}

BOOST_AUTO_TEST_CASE(tiles_belong_to_one_core) {
  TileF outside;
  TASSIGN(outside, 0);  // placed on the implicit core
  expect_error([&] { launch({.blocks = 1}, [&] { TEXPANDS(outside, 2.0f); }); },
               {"TEXPANDS: operand dst", "the tile was placed on another core"});
}

BOOST_AUTO_TEST_CASE(launch_configuration) {
  expect_error([] { launch({.blocks = 0}, [] {}); }, {"pto::launch: blocks = 0; a launch needs at least one core"});
  expect_error([] { launch({.blocks = 1, .host_threads = -1}, [] {}); }, {"host_threads = -1"});
  expect_error([] { launch({.blocks = 1, .queue_depth = 0}, [] {}); }, {"queue_depth 0 must be at least 1"});
}
