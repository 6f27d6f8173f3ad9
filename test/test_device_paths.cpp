// The device code paths: the emulated A2/A3 vector unit's and A5 register machine's intrinsics against
// hand-computed lanes, and every covered instruction on random shapes, on both profiles, against the
// CPU reference (the whole UB compared: the valid region under the spec's rule, every other byte
// exactly, except the bytes the chip's algorithm is known to write), the hardware limits as errors, and
// the cycles of the intrinsic stream.
#define BOOST_TEST_MODULE device_paths
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

#include "../backends/a2a3/vector_unit.hpp"
#include "../backends/a5/register_unit.hpp"
#include "test_util.hpp"

using namespace pto;
using pto::a2a3::Strides;
using pto::a2a3::VectorUnit;

// ---- intrinsics -------------------------------------------------------------------------------------

namespace {
struct Ub {
  alignas(64) std::byte bytes[4096]{};
  template <class T> T* at(std::size_t off) { return reinterpret_cast<T*>(bytes + off); }
};
float plus(float a, float b) { return a + b; }
}  // namespace

BOOST_AUTO_TEST_CASE(vadd_norm_mode_full_mask_two_repeats) {
  Ub ub;
  for (int i = 0; i < 128; ++i) {
    ub.at<float>(0)[i] = float(i);
    ub.at<float>(1024)[i] = 1000.0f;
  }
  IntrinsicStream trace;
  VectorUnit vu(ub.bytes, sizeof ub.bytes, "TEST", &trace, true);
  vu.binary<float>(Intrinsic::vadd, ub.at<float>(2048), ub.at<float>(0), ub.at<float>(1024), 2, {1, 1, 1, 8, 8, 8}, plus);
  for (int i = 0; i < 128; ++i) BOOST_TEST_REQUIRE(ub.at<float>(2048)[i] == float(i) + 1000.0f);
  BOOST_TEST_REQUIRE(trace.calls().size() == 1u);
  BOOST_TEST(trace.calls()[0].repeats == 2u);
  BOOST_TEST(!trace.calls()[0].count_mode);
}

BOOST_AUTO_TEST_CASE(a_continuous_mask_writes_only_its_lanes) {
  Ub ub;
  for (int i = 0; i < 64; ++i) ub.at<float>(0)[i] = float(i);
  for (int i = 0; i < 64; ++i) ub.at<float>(512)[i] = -1.0f;
  VectorUnit vu(ub.bytes, sizeof ub.bytes, "TEST", nullptr, true);
  vu.set_cont_mask(5);
  vu.binary<float>(Intrinsic::vadd, ub.at<float>(512), ub.at<float>(0), ub.at<float>(0), 1, {}, plus);
  for (int i = 0; i < 64; ++i) BOOST_TEST_REQUIRE(ub.at<float>(512)[i] == (i < 5 ? 2.0f * float(i) : -1.0f));
  // 16-bit lanes use both mask words: 100 lanes = 64 + 36.
  for (int i = 0; i < 128; ++i) ub.at<half>(1024)[i] = half(1.0f);
  vu.set_cont_mask(100);
  vu.unary<half>(Intrinsic::vexp, ub.at<half>(1024), ub.at<half>(1024), 1, {},
                     [](half) { return half(7.0f); });
  for (int i = 0; i < 128; ++i) BOOST_TEST_REQUIRE(float(ub.at<half>(1024)[i]) == (i < 100 ? 7.0f : 1.0f));
}

BOOST_AUTO_TEST_CASE(counter_mode_runs_ceil_n_over_lanes_repeats_with_a_partial_tail) {
  Ub ub;
  for (int i = 0; i < 192; ++i) ub.at<float>(0)[i] = -5.0f;
  IntrinsicStream trace;
  VectorUnit vu(ub.bytes, sizeof ub.bytes, "TEST", &trace, true);
  vu.set_mask_count();
  vu.set_vector_count(70);  // 64 + 6 lanes; the repeat argument is ignored
  vu.vector_dup<float>(ub.at<float>(0), 3.0f, 0, {1, 1, 1, 8, 8, 8});
  for (int i = 0; i < 192; ++i) BOOST_TEST_REQUIRE(ub.at<float>(0)[i] == (i < 70 ? 3.0f : -5.0f));
  BOOST_TEST(trace.calls()[0].count_mode);
  BOOST_TEST(trace.calls()[0].repeats == 2u);
  BOOST_TEST(trace.calls()[0].lanes == 6u);
}

BOOST_AUTO_TEST_CASE(repeat_stride_zero_rereads_one_row_and_block_stride_zero_one_block) {
  Ub ub;
  for (int i = 0; i < 64; ++i) ub.at<float>(0)[i] = float(i);      // the "vector" row
  for (int i = 0; i < 256; ++i) ub.at<float>(512)[i] = 100.0f * float(i / 64);  // 4 rows
  VectorUnit vu(ub.bytes, sizeof ub.bytes, "TEST", nullptr, true);
  // Repeat stride 0 on b: every repeat (row) adds the same 64 values.
  vu.binary<float>(Intrinsic::vadd, ub.at<float>(2048), ub.at<float>(512), ub.at<float>(0), 4, {1, 1, 1, 8, 8, 0}, plus);
  for (int r = 0; r < 4; ++r)
    for (int k = 0; k < 64; ++k) BOOST_TEST_REQUIRE(ub.at<float>(2048)[r * 64 + k] == 100.0f * float(r) + float(k));
  // Block stride 0 and repeat stride 1 on b: repeat r reads block r (8 floats) for all of its blocks.
  vu.binary<float>(Intrinsic::vadd, ub.at<float>(2048), ub.at<float>(512), ub.at<float>(0), 2, {1, 1, 0, 8, 8, 1}, plus);
  for (int r = 0; r < 2; ++r)
    for (int k = 0; k < 64; ++k) BOOST_TEST_REQUIRE(ub.at<float>(2048)[r * 64 + k] == 100.0f * float(r) + float(r * 8 + k % 8));
}

BOOST_AUTO_TEST_CASE(in_place_operands_read_before_the_repeat_writes) {
  Ub ub;
  for (int i = 0; i < 64; ++i) ub.at<float>(0)[i] = float(i);
  VectorUnit vu(ub.bytes, sizeof ub.bytes, "TEST", nullptr, true);
  vu.binary<float>(Intrinsic::vadd, ub.at<float>(0), ub.at<float>(0), ub.at<float>(0), 1, {}, plus);
  for (int i = 0; i < 64; ++i) BOOST_TEST_REQUIRE(ub.at<float>(0)[i] == 2.0f * float(i));
}

BOOST_AUTO_TEST_CASE(vbrcb_fills_one_block_per_scalar) {
  Ub ub;
  for (int i = 0; i < 16; ++i) ub.at<std::uint32_t>(0)[i] = std::uint32_t(i + 1);
  VectorUnit vu(ub.bytes, sizeof ub.bytes, "TEST", nullptr, true);
  vu.vbrcb<std::uint32_t>(ub.at<std::uint32_t>(1024), ub.at<std::uint32_t>(0), 1, 8, 2);
  for (int i = 0; i < 16; ++i)
    for (int k = 0; k < 8; ++k) BOOST_TEST_REQUIRE(ub.at<std::uint32_t>(1024)[i * 8 + k] == std::uint32_t(i + 1));
}

BOOST_AUTO_TEST_CASE(copy_ubuf_to_ubuf_moves_bursts_and_skips_gaps) {
  Ub ub;
  for (int i = 0; i < 64; ++i) ub.at<std::uint32_t>(0)[i] = std::uint32_t(i);
  VectorUnit vu(ub.bytes, sizeof ub.bytes, "TEST", nullptr, true);
  vu.copy_ubuf_to_ubuf(ub.at<std::byte>(1024), ub.at<std::byte>(0), 2, 1, 1, 2);  // 2 bursts of 1 block
  for (int k = 0; k < 8; ++k) {
    BOOST_TEST_REQUIRE(ub.at<std::uint32_t>(1024)[k] == std::uint32_t(k));          // burst 0: src block 0
    BOOST_TEST_REQUIRE(ub.at<std::uint32_t>(1024 + 96)[k] == std::uint32_t(16 + k));  // burst 1: src block 2 -> dst block 3
    BOOST_TEST_REQUIRE(ub.at<std::uint32_t>(1024 + 32)[k] == 0u);
  }
}

BOOST_AUTO_TEST_CASE(widening_vaxpy_reads_four_half_blocks_per_repeat) {
  Ub ub;
  for (int i = 0; i < 128; ++i) ub.at<half>(0)[i] = half(float(i));
  for (int i = 0; i < 128; ++i) ub.at<float>(1024)[i] = 1.0f;
  VectorUnit vu(ub.bytes, sizeof ub.bytes, "TEST", nullptr, true);
  vu.axpy<float, half>(ub.at<float>(1024), ub.at<half>(0), 2, {1, 1, 1, 8, 4, 8},
                           [](float acc, half x) { return 2.0f * float(x) + acc; });
  for (int i = 0; i < 128; ++i) BOOST_TEST_REQUIRE(ub.at<float>(1024)[i] == 2.0f * float(i) + 1.0f);
}

BOOST_AUTO_TEST_CASE(vconv_converts_lane_by_lane_rounding_or_truncating) {
  Ub ub;
  VectorUnit vu(ub.bytes, sizeof ub.bytes, "TEST", nullptr, true);
  vu.set_cont_mask(4);
  std::int32_t* i32 = ub.at<std::int32_t>(0);
  float* f32 = ub.at<float>(256);
  const std::int32_t ints[4] = {16777217, -3, 2147483647, 0};
  std::copy(ints, ints + 4, i32);
  vu.vconv<float, std::int32_t>(f32, i32, 1, {});  // vconv_s322f32: round to nearest even
  BOOST_TEST((f32[0] == 16777216.0f && f32[1] == -3.0f && f32[2] == 2147483648.0f && f32[3] == 0.0f));
  const float floats[4] = {-2.7f, 3e9f, std::nanf(""), -3e9f};
  std::copy(floats, floats + 4, f32);
  vu.vconv<std::int32_t, float>(i32, f32, 1, {});  // vconv_f322s32z: toward zero, saturating
  BOOST_TEST((i32[0] == -2 && i32[1] == 2147483647 && i32[2] == 0 && i32[3] == -2147483647 - 1));
  BOOST_TEST(i32[4] == 0);  // lane 4 is masked off
  std::int16_t* i16 = ub.at<std::int16_t>(1024);
  half* f16 = ub.at<half>(1536);
  i16[0] = 2049;
  i16[1] = -7;
  vu.set_cont_mask(2);
  vu.vconv<half, std::int16_t>(f16, i16, 1, {});  // vconv_s162f16: 2049 is a tie between 2048 and 2050
  BOOST_TEST((float(f16[0]) == 2048.0f && float(f16[1]) == -7.0f));
  f16[0] = half(-1.5f);
  f16[1] = half(65504.0f);
  vu.vconv<std::int16_t, half>(i16, f16, 1, {});  // vconv_f162s16z
  BOOST_TEST((i16[0] == -1 && i16[1] == 32767));
}

BOOST_AUTO_TEST_CASE(what_the_chip_would_truncate_or_overrun_is_an_error) {
  Ub ub;
  VectorUnit vu(ub.bytes, sizeof ub.bytes, "TCOLEXPANDADD", nullptr, true);
  auto message = [&](auto f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  BOOST_TEST(message([&] { vu.binary<float>(Intrinsic::vadd, ub.at<float>(0), ub.at<float>(0), ub.at<float>(0), 300, {}, plus); }) ==
             "TCOLEXPANDADD: vadd repeat 300 does not fit its 8-bit field (at most 255); the chip would silently use 44 and "
             "compute on the wrong bytes");
  BOOST_TEST(message([&] { vu.binary<float>(Intrinsic::vadd, ub.at<float>(0), ub.at<float>(0), ub.at<float>(0), 2, {1, 1, 1, 256, 8, 8}, plus); }) ==
             "TCOLEXPANDADD: vadd repeat stride 256 does not fit its 8-bit field (at most 255); the chip would silently use 0 "
             "and compute on the wrong bytes");
  BOOST_TEST(message([&] { vu.binary<float>(Intrinsic::vadd, ub.at<float>(3840), ub.at<float>(0), ub.at<float>(0), 2, {}, plus); }) ==
             "TCOLEXPANDADD: vadd writes UB bytes [3840, 4352), outside the 4 KiB UB");
  BOOST_TEST(message([&] { vu.set_cont_mask(0); }) == "TCOLEXPANDADD: SetContMaskByDType(0): the lane count must be in [1, 128]");
  BOOST_TEST(message([&] { vu.binary<float>(Intrinsic::vadd, ub.at<float>(0), ub.at<float>(0), ub.at<float>(0), 1, {300, 1, 1, 8, 8, 8}, plus); }) ==
             "TCOLEXPANDADD: vadd block stride 300 does not fit its 8-bit field (at most 255); the chip would silently use 44 "
             "and compute on the wrong bytes");
  BOOST_TEST(message([&] { vu.vbrcb<std::uint32_t>(ub.at<std::uint32_t>(0), ub.at<std::uint32_t>(0), 1, 8, 256); }) ==
             "TCOLEXPANDADD: vbrcb repeat 256 does not fit its 8-bit field (at most 255); the chip would silently use 0 and "
             "compute on the wrong bytes");
}

// ---- instructions: device path against the CPU reference --------------------------------------------

namespace {
constexpr std::size_t kUb = 192 * 1024;  // compared: A2A3's whole UB, the first 192 KiB of A5's
Target g_target = Target::A2A3;           // the profile the random-shape cases run on

// Runs `issue` (which TASSIGNs its tiles and issues one instruction) on one core of g_target whose UB
// starts as `init`, and returns the UB afterwards.
std::vector<std::byte> ub_after(const std::function<Kernel()>& issue, const std::vector<std::byte>& init, bool cpu) {
  std::vector<std::byte> out(kUb);
  auto kernel = [&]() -> Kernel {
    Tile<TileType::Vec, std::uint8_t, 184, 1024> probe;  // UB below A2A3's scratch: its data() writes count
    TASSIGN(probe, 0);
    std::memcpy(probe.data(), init.data(), kUb);  // before any instruction runs
    co_await issue();
    co_await pipe_barrier(PIPE_ALL);
    std::memcpy(out.data(), probe.data(), kUb);
  };
  launch({.blocks = 1, .target = g_target, .check = SyncCheck::Off, .cpu_reference = cpu}, kernel);
  return out;
}

std::vector<std::byte> random_ub(unsigned seed, DType t) {
  std::vector<std::byte> ub(kUb);
  std::mt19937 rng(seed);
  visit_dtype(t, [&](auto zero) {
    using T = decltype(zero);
    auto* p = reinterpret_cast<T*>(ub.data());
    for (std::size_t i = 0; i < kUb / sizeof(T); ++i) {
      if constexpr (std::is_integral_v<T>) p[i] = T(int(rng() % 14) - 7 + 0);  // never 0: integer divisors
      if constexpr (std::is_integral_v<T>) p[i] = p[i] == T(0) ? T(7) : p[i];
      else p[i] = T(float(int(rng() % 2000) - 1000) / 500.0f + (rng() % 2 ? 0.25f : -0.25f));  // |x| in [0.25, 2.25]
    }
  });
  return ub;
}

struct Region {  // dst's valid region, where floats may differ within the spec's rule
  std::size_t base;
  int rows, cols, row_stride;
  std::size_t es;
};

// Every byte equal, except dst's valid region (under the spec's rule for floats) and `skip` ranges.
void compare(const std::string& what, DType t, const std::vector<std::byte>& dev, const std::vector<std::byte>& cpu,
             Region d, std::vector<std::pair<std::size_t, std::size_t>> skip = {}) {
  std::vector<char> in_valid(kUb, 0);
  for (int r = 0; r < d.rows; ++r)
    std::fill_n(in_valid.begin() + std::ptrdiff_t(d.base + std::size_t(r) * d.row_stride * d.es), std::size_t(d.cols) * d.es, 1);
  for (auto [lo, hi] : skip) std::fill(in_valid.begin() + std::ptrdiff_t(lo), in_valid.begin() + std::ptrdiff_t(hi), 2);
  std::size_t outside = 0;
  for (std::size_t i = 0; i < kUb; ++i)
    if (!in_valid[i] && dev[i] != cpu[i]) ++outside;
  BOOST_TEST(outside == 0u, what << ": " << outside << " bytes outside dst's valid region differ");
  visit_dtype(t, [&](auto zero) {
    using T = decltype(zero);
    std::vector<double> a, e;
    for (int r = 0; r < d.rows; ++r)
      for (int c = 0; c < d.cols; ++c) {
        T x, y;
        const std::size_t off = d.base + (std::size_t(r) * d.row_stride + c) * d.es;
        std::memcpy(&x, dev.data() + off, sizeof(T));
        std::memcpy(&y, cpu.data() + off, sizeof(T));
        a.push_back(double(x));
        e.push_back(double(y));
      }
    if constexpr (std::is_integral_v<T>) {
      BOOST_TEST((a == e), what << ": integer results differ");
    } else {
      const auto r = pto_test::compare_eps(a, e, 1e-3);
      BOOST_TEST(r.ok(), what << ": " << r.errors << " of " << e.size() << " elements beyond eps (allowed " << r.allowed
                              << "), first at " << r.first_bad);
    }
  });
}

std::mt19937& rng() {
  static std::mt19937 g(20261130);
  return g;
}
int pick(int lo, int hi) { return lo + int(rng()() % unsigned(hi - lo + 1)); }

template <class T, int TR, int TC>
using DynTile = Tile<TileType::Vec, T, TR, TC, BLayout::RowMajor, -1, -1>;

// TCOLEXPAND<op>: full (R x C in a TR x TC tile) at 0, vector row at 64 KiB, dst at 96 KiB.
template <class T, int TR, int TC>
void colexpand_case(const char* name, const std::function<void(DynTile<T, TR, TC>&, DynTile<T, TR, TC>&, DynTile<T, 1, TC>&, bool)>& op,
                    int R, int C, bool swap) {
  auto issue = [&]() -> Kernel {
    DynTile<T, TR, TC> f(R, C), d(R, C);
    DynTile<T, 1, TC> v(1, C);
    TASSIGN(f, 0);
    TASSIGN(v, 64 * 1024);
    TASSIGN(d, 96 * 1024);
    op(d, f, v, swap);
    co_return;
  };
  const auto init = random_ub(unsigned(R * 131 + C), dtype_v<T>);
  const std::string what = std::string(name) + " " + name_of(dtype_v<T>) + " " + std::to_string(R) + "x" + std::to_string(C) +
                           " in " + std::to_string(TR) + "x" + std::to_string(TC) + (swap ? " (vector is src0)" : "") + " on " +
                           name_of(g_target);
  compare(what, dtype_v<T>, ub_after(issue, init, false), ub_after(issue, init, true), {96 * 1024, R, C, TC, sizeof(T)});
}

#define COL_OP(NAME)                                                                \
  [](auto& d, auto& f, auto& v, bool swap) {                                        \
    if (swap) NAME(d, v, f);                                                        \
    else NAME(d, f, v);                                                             \
  }
}  // namespace

BOOST_AUTO_TEST_CASE(colexpand_family_matches_the_cpu_reference_on_random_shapes) {
  for (Target target : {Target::A2A3, Target::A5}) {
  g_target = target;
  for (int k = 0; k < 6; ++k) {
    const bool swap = k % 2;
    // Full-width rows (norm mode: one masked repeat per row, or EPR chunks) and partial valid columns
    // (counter mode, one row at a time).
    const int r1 = pick(1, 64), c1 = pick(1, 128), r2 = pick(1, 32), c2 = pick(1, 256);
    colexpand_case<float, 64, 128>("TCOLEXPANDADD", COL_OP(TCOLEXPANDADD), r1, 128, swap);
    colexpand_case<float, 64, 128>("TCOLEXPANDSUB", COL_OP(TCOLEXPANDSUB), r1, c1, swap);
    colexpand_case<float, 64, 128>("TCOLEXPANDDIV", COL_OP(TCOLEXPANDDIV), r1, c1, swap);
    colexpand_case<float, 64, 128>("TCOLEXPANDEXPDIF", COL_OP(TCOLEXPANDEXPDIF), r1, c1, swap);
    colexpand_case<half, 32, 256>("TCOLEXPANDMUL", COL_OP(TCOLEXPANDMUL), r2, 256, swap);
    colexpand_case<half, 32, 256>("TCOLEXPANDMAX", COL_OP(TCOLEXPANDMAX), r2, c2, swap);
    colexpand_case<half, 32, 256>("TCOLEXPANDEXPDIF", COL_OP(TCOLEXPANDEXPDIF), r2, c2, swap);
    colexpand_case<std::int32_t, 64, 64>("TCOLEXPANDMIN", COL_OP(TCOLEXPANDMIN), r1, pick(1, 64), swap);
    colexpand_case<std::int16_t, 32, 256>("TCOLEXPANDADD", COL_OP(TCOLEXPANDADD), r2, c2, swap);
  }
  colexpand_case<float, 1, 4096>("TCOLEXPANDADD", COL_OP(TCOLEXPANDADD), 1, 4096, false);  // one row, 64 chunks
  colexpand_case<float, 64, 64>("TCOLEXPANDADD", COL_OP(TCOLEXPANDADD), 64, 63, false);
  }
  g_target = Target::A2A3;
}

BOOST_AUTO_TEST_CASE(a5_int64_colexpandadd_is_exact_twos_complement) {
  g_target = Target::A5;
  for (bool swap : {false, true}) {
    colexpand_case<std::int64_t, 16, 32>("TCOLEXPANDADD", COL_OP(TCOLEXPANDADD), 16, 32, swap);
    colexpand_case<std::uint64_t, 16, 64>("TCOLEXPANDADD", COL_OP(TCOLEXPANDADD), pick(1, 16), pick(1, 64), swap);
  }
  g_target = Target::A2A3;
}

BOOST_AUTO_TEST_CASE(pure_tcolexpand_writes_whole_blocks_past_the_valid_columns) {
  // copy_ubuf_to_ubuf copies ceil(C * 4 / 32) blocks per row: 5 columns write 8.
  auto issue = []() -> Kernel {
    DynTile<float, 16, 64> s(1, 5), d(10, 5);
    TASSIGN(s, 0);
    TASSIGN(d, 8192);
    TCOLEXPAND(d, s);
    co_return;
  };
  const auto init = random_ub(7, DType::F32);
  const auto dev = ub_after(issue, init, false), cpu = ub_after(issue, init, true);
  std::vector<std::pair<std::size_t, std::size_t>> tails;
  for (int r = 0; r < 10; ++r) {
    const std::size_t row = 8192 + std::size_t(r) * 64 * 4;
    tails.emplace_back(row + 20, row + 32);
    for (int c = 5; c < 8; ++c) BOOST_TEST_REQUIRE(std::memcmp(dev.data() + row + c * 4, init.data() + c * 4, 4) == 0);  // src row 0
  }
  compare("TCOLEXPAND 10x5", DType::F32, dev, cpu, {8192, 10, 5, 64, 4}, tails);
}

namespace {
template <class T, int TR, int TC, bool Mode2>
using ETileOf = std::conditional_t<Mode2, Tile<TileType::Vec, T, TR, 32 / sizeof(T), BLayout::RowMajor, -1, -1>,
                                   Tile<TileType::Vec, T, TR, 1, BLayout::ColMajor, -1, -1>>;

// TROWEXPAND<op>: full at 0, E right after, dst after E; a tmp tile (4-argument form) after dst.
template <class T, int TR, int TC, bool Mode2>
void rowexpand_case(const char* name, int op, int R, int C, bool swap, bool tmp) {
  constexpr std::size_t full_bytes = std::size_t(TR) * TC * sizeof(T);
  constexpr std::size_t e_bytes = (std::size_t(TR) * (Mode2 ? 32 : sizeof(T)) + 31) / 32 * 32;
  constexpr std::size_t e_off = full_bytes, d_off = (e_off + e_bytes + 255) / 256 * 256, t_off = d_off + full_bytes;
  auto issue = [&]() -> Kernel {
    DynTile<T, TR, TC> f(R, C), d(R, C);
    ETileOf<T, TR, TC, Mode2> e(R, Mode2 ? 32 / sizeof(T) : 1);
    ETileOf<T, TR, TC, Mode2> t(R, Mode2 ? 32 / sizeof(T) : 1);
    TASSIGN(f, 0);
    TASSIGN(e, e_off);
    TASSIGN(d, d_off);
    TASSIGN(t, t_off);
    auto go = [&](auto&& fn) {
      if (tmp) {
        if (swap) fn(d, e, f, t);
        else fn(d, f, e, t);
      } else {
        if (swap) fn(d, e, f);
        else fn(d, f, e);
      }
    };
    switch (op) {
      case 0: go([](auto&... x) { TROWEXPANDADD(x...); }); break;
      case 1: go([](auto&... x) { TROWEXPANDSUB(x...); }); break;
      case 2: go([](auto&... x) { TROWEXPANDDIV(x...); }); break;
      case 3: go([](auto&... x) { TROWEXPANDMAX(x...); }); break;
      default: go([](auto&... x) { TROWEXPANDEXPDIF(x...); }); break;
    }
    co_return;
  };
  const auto init = random_ub(unsigned(R * 7 + C), dtype_v<T>);
  // Mode 1 broadcasts into the tmp tile or the fixed scratch [184 KiB, 192 KiB): the chip writes it.
  std::vector<std::pair<std::size_t, std::size_t>> scratch;
  if (!Mode2 && g_target == Target::A2A3) scratch.emplace_back(tmp ? t_off : std::size_t(TMP_UB_OFFSET), tmp ? t_off + 30 * 256 : kUb);
  const std::string what = std::string(name) + " " + name_of(dtype_v<T>) + " " + std::to_string(R) + "x" + std::to_string(C) +
                           " in " + std::to_string(TR) + "x" + std::to_string(TC) + (Mode2 ? " mode 2" : " mode 1") +
                           (swap ? " swapped" : "") + (tmp ? " tmp" : "") + " on " + name_of(g_target);
  compare(what, dtype_v<T>, ub_after(issue, init, false), ub_after(issue, init, true), {d_off, R, C, TC, sizeof(T)}, scratch);
}
}  // namespace

BOOST_AUTO_TEST_CASE(rowexpand_family_matches_the_cpu_reference_on_random_shapes) {
  const char* names[] = {"TROWEXPANDADD", "TROWEXPANDSUB", "TROWEXPANDDIV", "TROWEXPANDMAX", "TROWEXPANDEXPDIF"};
  for (Target target : {Target::A2A3, Target::A5}) {
  g_target = target;
  for (int k = 0; k < 10; ++k) {
    const int op = k % 5;
    const bool swap = (k / 5) % 2, tmp = k % 3 == 0;
    rowexpand_case<float, 32, 64, false>(names[op], op, pick(1, 32), pick(1, 64), swap, tmp);
    rowexpand_case<float, 32, 64, true>(names[op], op, pick(1, 32), pick(1, 64), swap, false);
    rowexpand_case<half, 16, 128, false>(names[op], op, pick(1, 16), pick(1, 128), swap, tmp);
    rowexpand_case<half, 16, 128, true>(names[op], op, pick(1, 16), pick(1, 128), swap, false);
  }
  // More than 240 / 255 rows: the 30-repeat vbrcb chunks (mode 1) and 255-row chunks (mode 2).
  rowexpand_case<float, 600, 8, false>("TROWEXPANDADD", 0, 600, 8, false, false);
  rowexpand_case<float, 600, 8, false>("TROWEXPANDEXPDIF", 4, 487, 8, false, true);
  rowexpand_case<float, 600, 8, true>("TROWEXPANDSUB", 1, 600, 8, true, false);
  rowexpand_case<float, 2048, 8, false>("TROWEXPANDEXPDIF", 4, 2048, 1, false, false);  // spec case 6
  rowexpand_case<float, 8, 2048, false>("TROWEXPANDMAX", 3, 1, 2048, false, false);    // one row, wide
  }
  g_target = Target::A2A3;
}

namespace {
// Static: tiles whose type fixes the valid shape to the whole tile (R, C must be TR, TC): TBinSInstr's
// packed path.
template <class D, class S, int TR, int TC, bool Static = false>
void scalar_case(const char* name, int op, int R, int C) {
  using DT = std::conditional_t<Static, Tile<TileType::Vec, D, TR, TC>, DynTile<D, TR, TC>>;
  using ST = std::conditional_t<Static, Tile<TileType::Vec, S, TR, TC>, DynTile<S, TR, TC>>;
  if (Static) R = TR, C = TC;
  auto issue = [&]() -> Kernel {
    DT d;
    ST s;
    if constexpr (!Static) d = DT(R, C), s = ST(R, C);
    TASSIGN(s, 0);
    TASSIGN(d, 96 * 1024);
    const S k = std::is_integral_v<S> ? S(3) : S(1.5f);
    constexpr bool floats = std::is_same_v<D, float> || std::is_same_v<D, half>;
    if constexpr (!std::is_same_v<D, S>) {
      TAXPY(d, s, half(1.5f));
    } else {
      switch (op) {
        case 0: TADDS(d, s, k); break;
        case 1: TSUBS(d, s, k); break;
        case 2: TMULS(d, s, k); break;
        case 3: TMAXS(d, s, k); break;
        case 4: TMINS(d, s, k); break;
        case 5: TDIVS(d, s, k); break;
        case 6: TDIVS(d, k, s); break;
        case 7: if constexpr (floats) TEXP(d, s); break;
        default: if constexpr (floats) TAXPY(d, s, k); break;
      }
    }
    co_return;
  };
  const auto init = random_ub(unsigned(R * 3 + C + op), dtype_v<S>);
  // A widening TAXPY reads half sources but dst is float: fill dst's area with float values.
  auto start = init;
  if constexpr (!std::is_same_v<D, S>) {
    const auto floats = random_ub(unsigned(R + C), DType::F32);
    std::copy(floats.begin() + 96 * 1024, floats.end(), start.begin() + 96 * 1024);
  }
  const std::string what = std::string(name) + " " + name_of(dtype_v<D>) + " " + std::to_string(R) + "x" + std::to_string(C) +
                           " in " + std::to_string(TR) + "x" + std::to_string(TC) + (Static ? " static" : "") + " on " + name_of(g_target);
  compare(what, dtype_v<D>, ub_after(issue, start, false), ub_after(issue, start, true), {96 * 1024, R, C, TC, sizeof(D)});
}
}  // namespace

BOOST_AUTO_TEST_CASE(tile_scalar_texp_and_taxpy_match_the_cpu_reference_on_random_shapes) {
  const char* names[] = {"TADDS", "TSUBS", "TMULS", "TMAXS", "TMINS", "TDIVS", "TDIVS(scalar/src)", "TEXP", "TAXPY"};
  for (Target target : {Target::A2A3, Target::A5}) {
  g_target = target;
  for (int op = 0; op < 9; ++op) {
    scalar_case<float, float, 64, 64, true>(names[op], op, 64, 64);              // static valid shape: packed
    scalar_case<float, float, 4, 96, true>(names[op], op, 4, 96);                // packed, non-aligned: counter mode
    scalar_case<float, float, 64, 64>(names[op], op, pick(1, 64), 64);           // dynamic: row-repeat, whole rows
    scalar_case<float, float, 64, 64>(names[op], op, pick(1, 64), pick(1, 63));  // row-repeat
    scalar_case<half, half, 16, 256>(names[op], op, pick(1, 16), pick(1, 256));
    scalar_case<float, float, 1, 16384>(names[op], op, 1, 16384);               // > 255 repeats: counter mode
    scalar_case<float, float, 300, 16>(names[op], op, 300, 15);                 // rows beyond 255: 255-row tail runs
    scalar_case<float, float, 300, 16, true>(names[op], op, 300, 16);
  }
  for (int op = 0; op < 7; ++op) {  // A2A3 integer TDIVS: the scalar loop
    scalar_case<std::int32_t, std::int32_t, 64, 64>(names[op], op, pick(1, 64), pick(1, 64));
    scalar_case<std::int16_t, std::int16_t, 16, 128>(names[op], op, pick(1, 16), 128);
  }
  // TAXPY float <- half (spec §5.2 cases 7-9 shapes).
  scalar_case<float, half, 64, 64>("TAXPY", 8, 63, 63);
  scalar_case<float, half, 4, 1024>("TAXPY", 8, 4, 1023);
  scalar_case<float, half, 256, 16>("TAXPY", 8, 256, 15);
  scalar_case<float, half, 300, 64>("TAXPY", 8, 300, 64);
  }
  g_target = Target::A2A3;
}

namespace {
// Pure TROWEXPAND: src at 0 ([TR,1] ColMajor, or [TR, BE] RowMajor reading column 0), dst at 96 KiB.
template <class T, int TR, int TC, bool ColSrc, bool Static = false>
void rowexpand_pure_case(int R, int C) {
  constexpr int BE = 32 / int(sizeof(T));
  using Src = std::conditional_t<ColSrc, Tile<TileType::Vec, T, TR, 1, BLayout::ColMajor, Static ? TR : -1, Static ? 1 : -1>,
                                 DynTile<T, TR, BE>>;
  using Dst = std::conditional_t<Static, Tile<TileType::Vec, T, TR, TC>, DynTile<T, TR, TC>>;
  static_assert(!Static || ColSrc);
  auto issue = [&]() -> Kernel {
    Src e;
    Dst d;
    if constexpr (!Static) e = Src(R, ColSrc ? 1 : pick(1, BE)), d = Dst(R, C);
    TASSIGN(e, 0);
    TASSIGN(d, 96 * 1024);
    TROWEXPAND(d, e);
    co_return;
  };
  const auto init = random_ub(unsigned(R * 5 + C), dtype_v<T>);
  const auto dev = ub_after(issue, init, false), cpu = ub_after(issue, init, true);
  std::vector<std::pair<std::size_t, std::size_t>> tails;  // A2A3 8-bit: an odd C writes one more element
  if (g_target == Target::A2A3 && sizeof(T) == 1 && C % 2)
    for (int r = 0; r < R; ++r) {
      const std::size_t at = 96 * 1024 + std::size_t(r) * TC + std::size_t(C);
      tails.emplace_back(at, at + 1);
      BOOST_TEST(int(dev[at]) == int(init[ColSrc ? std::size_t(r) : std::size_t(r) * BE]));  // the row's value
    }
  const std::string what = std::string("TROWEXPAND ") + name_of(dtype_v<T>) + " " + std::to_string(R) + "x" + std::to_string(C) +
                           " in " + std::to_string(TR) + "x" + std::to_string(TC) + (ColSrc ? " from [R,1]" : " from [R,BE]") +
                           " on " + name_of(g_target);
  compare(what, dtype_v<T>, dev, cpu, {96 * 1024, R, C, TC, sizeof(T)}, tails);
}

template <class T, int TR, int TC>
void colexpand_pure_case(int R, int C) {
  auto issue = [&]() -> Kernel {
    DynTile<T, 1, TC> v(1, C);
    DynTile<T, TR, TC> d(R, C);
    TASSIGN(v, 0);
    TASSIGN(d, 96 * 1024);
    TCOLEXPAND(d, v);
    co_return;
  };
  const auto init = random_ub(unsigned(R * 3 + C), dtype_v<T>);
  compare(std::string("TCOLEXPAND ") + name_of(dtype_v<T>) + " on " + name_of(g_target), dtype_v<T>, ub_after(issue, init, false),
          ub_after(issue, init, true), {96 * 1024, R, C, TC, sizeof(T)});
}
}  // namespace

BOOST_AUTO_TEST_CASE(pure_rowexpand_and_colexpand_match_the_cpu_reference) {
  for (Target target : {Target::A2A3, Target::A5}) {
    g_target = target;
    for (int k = 0; k < 3; ++k) {
      rowexpand_pure_case<float, 64, 64, true>(pick(1, 64), pick(1, 64));  // per row: scalar read + vector_dup
      rowexpand_pure_case<half, 32, 256, false>(pick(1, 32), pick(1, 256));
      rowexpand_pure_case<std::int32_t, 16, 128, true>(pick(1, 16), pick(1, 128));
      rowexpand_pure_case<std::uint8_t, 32, 64, true>(pick(1, 32), 2 * pick(1, 31) + 1);  // odd: one more byte on A2A3
      rowexpand_pure_case<std::int8_t, 16, 64, false>(pick(1, 16), pick(1, 64));
    }
    rowexpand_pure_case<float, 64, 8, true>(64, 8);        // dynamic valid shapes: per row
    rowexpand_pure_case<float, 64, 8, true, true>(64, 8);   // static and whole [64,1] -> [64,8]: vbrcb, 8 repeats
    rowexpand_pure_case<half, 2048, 16, true, true>(2048, 16);  // 256 repeats: vbrcb chunks of 254
    if (target == Target::A5) {
      rowexpand_pure_case<std::int64_t, 16, 64, true>(pick(1, 16), pick(1, 64));
      colexpand_pure_case<std::uint64_t, 16, 64>(pick(1, 16), pick(1, 64));
      colexpand_pure_case<std::int8_t, 16, 512>(pick(1, 16), pick(257, 512));
      colexpand_pure_case<float, 32, 128>(pick(1, 32), pick(1, 128));  // A2A3's block tails: tested above
      colexpand_pure_case<half, 16, 256>(pick(1, 16), pick(1, 256));
    }
  }
  g_target = Target::A2A3;
  // The A2/A3 8-bit row fill is in the write footprint and the report.
  const LaunchReport r = launch({.blocks = 1, .target = Target::A2A3, .model_only = true}, []() -> Kernel {
    Tile<TileType::Vec, std::uint8_t, 32, 1, BLayout::ColMajor, -1, -1> e(3, 1);
    DynTile<std::uint8_t, 32, 64> d(3, 5);
    TASSIGN(e, 0);
    TASSIGN(d, 1024);
    co_await TROWEXPAND(d, e);
  });
  BOOST_TEST_REQUIRE(r.warnings().size() == 1u);
  BOOST_TEST(r.warnings()[0].message == "TROWEXPAND: the A2A3 algorithm duplicates 8-bit values as 16-bit lanes, so each of dst's 3 "
                                        "valid rows is also written 1 element past its 5 valid columns (inside the tile)");
}

namespace {
// TEXPANDS of dst (R x C valid in TR x TC, RowMajor or ColMajor) at 96 KiB; TMOV from a tile at 0.
template <class T, int TR, int TC, BLayout L>
void expands_tmov_case(int R, int C) {
  using Tl = Tile<TileType::Vec, T, TR, TC, L, -1, -1>;
  const bool row = L == BLayout::RowMajor;
  const int lines = row ? R : C, len = row ? C : R, cap = row ? TC : TR;
  const std::size_t es = sizeof(T);
  for (bool mov : {false, true}) {
    auto issue = [&]() -> Kernel {
      Tl d(R, C), s(R, C);
      TASSIGN(s, 0);
      TASSIGN(d, 96 * 1024);
      if (mov) TMOV(d, s);
      else TEXPANDS(d, T(5));
      co_return;
    };
    const auto init = random_ub(unsigned(R * 11 + C), dtype_v<T>);
    const auto dev = ub_after(issue, init, false), cpu = ub_after(issue, init, true);
    // A2A3 writes past each line: TMOV whole 32-byte blocks (src's bytes), 8-bit TEXPANDS one byte.
    std::vector<std::pair<std::size_t, std::size_t>> tails;
    if (g_target == Target::A2A3) {
      const std::size_t bytes = std::size_t(len) * es;
      const bool contiguous = len == cap;  // TMOV tests the runtime valid width
      const bool one_call = lines == 1;    // TEXPANDS the type: a dynamic valid shape is one call only for one line
      const std::size_t tail = mov ? (contiguous ? 0 : (bytes + 31) / 32 * 32 - bytes)
                                   : (es == 1 && (one_call ? std::size_t(lines) * len : std::size_t(len)) % 2 ? 1 : 0);
      const int tail_lines = mov || !one_call ? lines : 1;
      for (int a = 0; a < tail_lines && tail; ++a) {
        const std::size_t end = 96 * 1024 + (std::size_t(a) * cap + (tail_lines == 1 ? std::size_t(lines) * len : len)) * es;
        tails.emplace_back(end, end + tail);
        const std::size_t src_end = end - 96 * 1024;
        for (std::size_t b = 0; b < tail; ++b)  // what lands there: src's bytes (TMOV) or the value's byte
          BOOST_TEST(int(dev[end + b]) == (mov ? int(init[src_end + b]) : 5));
      }
    }
    const std::string what = std::string(mov ? "TMOV " : "TEXPANDS ") + name_of(dtype_v<T>) + " " + std::to_string(R) + "x" +
                             std::to_string(C) + " in " + std::to_string(TR) + "x" + std::to_string(TC) +
                             (row ? "" : " ColMajor") + " on " + name_of(g_target);
    if (row) {
      compare(what, dtype_v<T>, dev, cpu, {96 * 1024, R, C, TC, es}, tails);
    } else {  // columns are the lines: compare them as rows of the transposed view
      compare(what, dtype_v<T>, dev, cpu, {96 * 1024, C, R, TR, es}, tails);
    }
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(texpands_and_tmov_match_the_cpu_reference) {
  for (Target target : {Target::A2A3, Target::A5}) {
    g_target = target;
    for (int k = 0; k < 3; ++k) {
      expands_tmov_case<float, 32, 64, BLayout::RowMajor>(pick(1, 32), pick(1, 64));
      expands_tmov_case<float, 32, 64, BLayout::RowMajor>(pick(1, 32), 64);  // whole rows: TMOV one burst, TEXPANDS per row
      expands_tmov_case<half, 16, 128, BLayout::RowMajor>(pick(1, 16), pick(1, 128));
      expands_tmov_case<std::uint8_t, 16, 64, BLayout::RowMajor>(pick(1, 16), 2 * pick(0, 31) + 1);  // odd
      expands_tmov_case<std::int16_t, 1, 512, BLayout::RowMajor>(1, pick(1, 512));
      if (target == Target::A2A3) expands_tmov_case<float, 64, 8, BLayout::ColMajor>(pick(1, 64), pick(1, 8));
      if (target == Target::A5) expands_tmov_case<std::int64_t, 16, 32, BLayout::RowMajor>(pick(1, 16), pick(1, 32));
    }
  }
  g_target = Target::A2A3;
  const LaunchReport r = launch({.blocks = 1, .target = Target::A2A3, .model_only = true}, []() -> Kernel {
    DynTile<float, 16, 64> s(4, 5), d(4, 5);
    TASSIGN(s, 0);
    TASSIGN(d, 8192);
    co_await TMOV(d, s);
  });
  BOOST_TEST_REQUIRE(r.warnings().size() == 1u);
  BOOST_TEST(r.warnings()[0].message == "TMOV: the A2A3 algorithm copies whole 32-byte blocks, so each of dst's 4 valid rows is also "
                                        "written 3 element(s) past its 5 valid elements (inside the tile, with src's bytes there)");
  // Auto mode places tiles that were never TASSIGNed outside UB: those instructions run the CPU reference.
  std::vector<float> out(16 * 64);
  launch({.blocks = 1, .target = Target::A2A3, .mode = Mode::Auto}, [&]() -> Kernel {
    Tile<TileType::Vec, float, 16, 64> a, d;
    Tile<TileType::Vec, float, 1, 64> v;
    co_await TEXPANDS(a, 2.0f);
    co_await TEXPANDS(v, 0.5f);
    co_await TCOLEXPANDADD(d, a, v);
    GlobalTensor<float, Shape<1, 1, 1, 16, 64>, pto::Stride<1, 1, 1, 64, 1>> g(out.data());
    co_await TSTORE(g, d);
  });
  BOOST_TEST(std::count(out.begin(), out.end(), 2.5f) == 16 * 64);
}

BOOST_AUTO_TEST_CASE(a5_bf16_byte_lanes_integer_division_and_64_bit_scalars_match_the_cpu_reference) {
  g_target = Target::A5;
  for (bool swap : {false, true}) {
    colexpand_case<bfloat16_t, 16, 128>("TCOLEXPANDMUL", COL_OP(TCOLEXPANDMUL), pick(1, 16), pick(1, 128), swap);
    colexpand_case<bfloat16_t, 16, 128>("TCOLEXPANDDIV", COL_OP(TCOLEXPANDDIV), pick(1, 16), 128, swap);
    colexpand_case<std::int8_t, 16, 256>("TCOLEXPANDADD", COL_OP(TCOLEXPANDADD), pick(1, 16), pick(1, 256), swap);
    colexpand_case<std::uint8_t, 8, 512>("TCOLEXPANDMAX", COL_OP(TCOLEXPANDMAX), pick(1, 8), pick(257, 512), swap);
    colexpand_case<std::int32_t, 32, 64>("TCOLEXPANDDIV", COL_OP(TCOLEXPANDDIV), pick(1, 32), pick(1, 64), swap);
    colexpand_case<std::uint16_t, 16, 128>("TCOLEXPANDDIV", COL_OP(TCOLEXPANDDIV), pick(1, 16), pick(1, 128), swap);
    colexpand_case<std::uint32_t, 16, 64>("TCOLEXPANDSUB", COL_OP(TCOLEXPANDSUB), pick(1, 16), pick(1, 64), swap);
    for (int op = 0; op < 4; ++op) {  // ADD SUB DIV MAX, both modes
      rowexpand_case<bfloat16_t, 16, 128, false>("TROWEXPAND(bf16)", op, pick(1, 16), pick(1, 128), swap, false);
      rowexpand_case<std::int8_t, 16, 256, true>("TROWEXPAND(int8)", op, pick(1, 16), pick(1, 256), swap, false);
      rowexpand_case<std::int32_t, 32, 64, false>("TROWEXPAND(int32)", op, pick(1, 32), pick(1, 64), swap, true);
      rowexpand_case<std::uint16_t, 16, 128, true>("TROWEXPAND(uint16)", op, pick(1, 16), pick(1, 128), swap, false);
    }
  }
  const char* names[] = {"TADDS", "TSUBS", "TMULS", "TMAXS", "TMINS", "TDIVS", "TDIVS(scalar/src)"};
  for (int op = 0; op < 7; ++op) {
    scalar_case<std::int32_t, std::int32_t, 64, 64>(names[op], op, pick(1, 64), pick(1, 64));
    scalar_case<std::uint16_t, std::uint16_t, 16, 128>(names[op], op, pick(1, 16), 128);
    if (op < 5) {
      scalar_case<std::int64_t, std::int64_t, 16, 64>(names[op], op, pick(1, 16), pick(1, 64));
      scalar_case<std::uint64_t, std::uint64_t, 16, 64>(names[op], op, 16, 64);  // 1-D over 1024 elements
      scalar_case<bfloat16_t, bfloat16_t, 16, 128>(names[op], op, pick(1, 16), pick(1, 128));
    }
    if (op != 2 && op < 5) scalar_case<std::uint8_t, std::uint8_t, 8, 256>(names[op], op, pick(1, 8), pick(1, 256));
  }
  // Integer division by zero: the CPU reference's error, raised before anything is written.
  auto div0 = [](bool cpu) {
    try {
      launch({.blocks = 1, .target = Target::A5, .check = SyncCheck::Off, .cpu_reference = cpu}, []() -> Kernel {
        DynTile<std::int32_t, 4, 64> f(4, 64), d(4, 64);
        DynTile<std::int32_t, 1, 64> v(1, 64);
        TASSIGN(f, 0);
        TASSIGN(v, 4096);
        TASSIGN(d, 8192);
        std::fill_n(f.data(), 4 * 64, 9);  // before any instruction runs
        std::fill_n(v.data(), 64, 2);
        v.data()[17] = 0;
        co_await TCOLEXPANDDIV(d, f, v);
      });
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  BOOST_TEST(div0(false) == "core 0: TCOLEXPANDDIV: integer division by zero: operand src1 (the divisor) has 0 at element (0, 17) (dtype int32)");
  BOOST_TEST(div0(false) == div0(true));
  g_target = Target::A2A3;
}

BOOST_AUTO_TEST_CASE(a5_64_bit_multiply_and_compare_on_register_pairs) {
  Ub ub;
  pto::a5::RegisterUnit u(ub.bytes, sizeof ub.bytes, "TMULS", nullptr, true);
  const std::int64_t a[3] = {0x123456789abcdefll, -0x7edcba9876543210ll, -5};
  const std::int64_t b[3] = {-0x10000000fll, 0x3ll, 0x7fffffffffffffffll};
  pto::a5::Reg<std::uint32_t> alo{}, ahi{}, blo{}, bhi{};
  for (int k = 0; k < 3; ++k) {
    alo.v[k] = std::uint32_t(std::uint64_t(a[k]));
    ahi.v[k] = std::uint32_t(std::uint64_t(a[k]) >> 32);
    blo.v[k] = std::uint32_t(std::uint64_t(b[k]));
    bhi.v[k] = std::uint32_t(std::uint64_t(b[k]) >> 32);
  }
  auto value = [](const auto& lo, const auto& hi, int k) { return std::int64_t((std::uint64_t(hi.v[k]) << 32) | lo.v[k]); };
  const pto::a5::Mask m{2};  // lane 2 inactive: zeroed
  auto mlo = alo, mhi = ahi;
  u.op64<std::int64_t, pto::device::Fn::Mul>(mlo, mhi, blo, bhi, m);
  for (int k = 0; k < 2; ++k) BOOST_TEST(value(mlo, mhi, k) == std::int64_t(std::uint64_t(a[k]) * std::uint64_t(b[k])));
  BOOST_TEST(value(mlo, mhi, 2) == 0);
  auto xlo = alo, xhi = ahi;
  u.op64<std::int64_t, pto::device::Fn::Max>(xlo, xhi, blo, bhi, pto::a5::Mask{3});
  for (int k = 0; k < 3; ++k) BOOST_TEST(value(xlo, xhi, k) == std::max(a[k], b[k]));
  auto ulo = alo, uhi = ahi;  // unsigned: the high words compare unsigned
  u.op64<std::uint64_t, pto::device::Fn::Min>(ulo, uhi, blo, bhi, pto::a5::Mask{3});
  for (int k = 0; k < 3; ++k) BOOST_TEST(std::uint64_t(value(ulo, uhi, k)) == std::min(std::uint64_t(a[k]), std::uint64_t(b[k])));
}

BOOST_AUTO_TEST_CASE(a2a3_integer_tsubs_whose_float_negation_is_inexact_is_an_error) {
  auto subs = [](std::int32_t k) {
    try {
      launch({.blocks = 1, .target = Target::A2A3, .model_only = true}, [k]() -> Kernel {
        DynTile<std::int32_t, 8, 64> s(8, 64), d(8, 64);
        TASSIGN(s, 0);
        TASSIGN(d, 4096);
        co_await TSUBS(d, s, k);
      });
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  BOOST_TEST(subs(16777216) == "no error");
  BOOST_TEST(subs(16777217) == "core 0: TSUBS: the A2A3 algorithm adds T(-(float)scalar); the int32 scalar 16777217 is not exact in "
                               "float, so the chip would subtract 16777216 (use TADDS with the negated scalar)");
  BOOST_TEST(subs(-2147483647 - 1) == "core 0: TSUBS: the A2A3 algorithm adds T(-(float)scalar); the int32 scalar -2147483648 "
                                      "negated does not fit int32");
}

BOOST_AUTO_TEST_CASE(a_norm_mode_repeat_beyond_255_rows_is_an_error_on_a2a3) {
  // TCOLEXPAND* in norm mode passes repeat = R as uint8: 300 rows would run 44 repeats on the chip.
  static std::vector<float> gm(300 * 64, 1.0f);
  auto kernel = [](bool cpu) {
    return launch({.blocks = 1, .target = Target::A2A3, .model_only = true, .cpu_reference = cpu}, []() -> Kernel {
      Tile<TileType::Vec, float, 300, 64> f, d;
      Tile<TileType::Vec, float, 1, 64> v;
      TASSIGN(f, 0);
      TASSIGN(v, 80 * 1024);
      TASSIGN(d, 81 * 1024);
      co_await TCOLEXPANDADD(d, f, v);
    });
  };
  BOOST_CHECK_EXCEPTION(kernel(false), Error, [](const Error& e) {
    return std::string(e.what()) ==
           "core 0: TCOLEXPANDADD: vadd repeat 300 does not fit its 8-bit field (at most 255); the chip would silently use "
           "44 and compute on the wrong bytes";
  });
  BOOST_CHECK_NO_THROW(kernel(true));
}

BOOST_AUTO_TEST_CASE(the_device_stream_prices_the_instruction) {
  auto cycles = [](bool cpu) {
    auto k = []() -> Kernel {
      Tile<TileType::Vec, float, 64, 64> a;
      TASSIGN(a, 0);
      co_await TEXP(a, a);
    };
    return launch({.blocks = 1, .model_only = true, .cpu_reference = cpu}, k).cores[0].pipes[PIPE_V].busy_cycles;
  };
  BOOST_TEST(cycles(false) == 159u);  // 64 vexp repeats: 13 + 128 + 18, the hardware figure
  BOOST_TEST(cycles(true) == 159u);   // the planner derives the same stream
  // On A5 too, the planner (CPU reference runs, auto-placed tiles) prices what the device path issues.
  auto a5 = [](auto issue, bool cpu) {
    return launch({.blocks = 1, .target = Target::A5, .model_only = true, .cpu_reference = cpu}, issue).cores[0].pipes[PIPE_V].busy_cycles;
  };
  auto colexpandadd = []() -> Kernel {  // 2-D: one vloop per row
    Tile<TileType::Vec, float, 64, 64> d, f;
    Tile<TileType::Vec, float, 1, 64> v;
    TASSIGN(f, 0);
    TASSIGN(d, 0x4000);
    TASSIGN(v, 0x8000);
    co_await TCOLEXPANDADD(d, f, v);
  };
  auto texp_half = []() -> Kernel {  // a 16-bit vexp issues twice
    Tile<TileType::Vec, half, 64, 64> a;
    TASSIGN(a, 0);
    co_await TEXP(a, a);
  };
  auto adds64 = []() -> Kernel {  // register pairs
    Tile<TileType::Vec, std::int64_t, 16, 32> a;
    TASSIGN(a, 0);
    co_await TADDS(a, a, std::int64_t(1));
  };
  BOOST_TEST(a5(colexpandadd, false) == 359u);
  BOOST_TEST(a5(colexpandadd, true) == 359u);
  BOOST_TEST(a5(texp_half, false) == 191u);
  BOOST_TEST(a5(texp_half, true) == 191u);
  BOOST_TEST(a5(adds64, false) == a5(adds64, true));
}

BOOST_AUTO_TEST_CASE(the_timeline_shows_each_vector_instructions_intrinsic_stream) {
  auto run = [](Target target) {
    return launch({.blocks = 1, .target = target, .model_only = true, .timeline = true}, []() -> Kernel {
      Tile<TileType::Vec, float, 64, 64> d, f;
      Tile<TileType::Vec, float, 1, 64> v;
      Tile<TileType::Vec, float, 64, 1, BLayout::ColMajor> e;
      TASSIGN(f, 0);
      TASSIGN(d, 0x4000);
      TASSIGN(v, 0x8000);
      TASSIGN(e, 0x9000);
      co_await TCOLEXPANDADD(d, f, v);
      co_await TROWEXPANDEXPDIF(d, f, e);
      co_await pipe_barrier(PIPE_ALL);
    });
  };
  auto streams = [](const LaunchReport& r) {
    std::vector<std::string> out;
    for (const TimelineEntry& e : r.cores[0].timeline)
      if (e.pipe == PIPE_V) out.push_back(r.cores[0].name(e) + ": " + r.cores[0].intrinsics(e));
      else BOOST_TEST(r.cores[0].intrinsics(e).empty());
    return out;
  };
  const std::vector<std::string> a2a3 = {
      "TCOLEXPANDADD: vadd norm 64 repeats, strides blk 1 1 1 rep 8 8 0",  // the vector row: repeat stride 0
      "TROWEXPANDEXPDIF: vbrcb norm 8 repeats; | vsub norm 64 repeats, strides blk 1 1 0 rep 8 8 1; | vexp norm 64 repeats, "
      "strides blk 1 1 0 rep 8 8 0"};
  BOOST_TEST(streams(run(Target::A2A3)) == a2a3, boost::test_tools::per_element());
  const std::vector<std::string> a5 = {"TCOLEXPANDADD: vadd x64; vlds x128; vsts x64; plt x64; vloop x64",
                                       "TROWEXPANDEXPDIF: vexpdif x64; vlds x128; vsts x64; plt x64; vloop x64"};
  BOOST_TEST(streams(run(Target::A5)) == a5, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(recording_runs_read_no_data_and_loads_near_the_end_of_ub_work) {
  // The pipeline model runs each algorithm when the instruction starts, before its inputs are
  // computed (model-only runs have none): integer divisors are checked only when executing.
  static std::vector<std::int32_t> gm(16 * 64, 3);
  for (Target target : {Target::A2A3, Target::A5})
    BOOST_CHECK_NO_THROW(launch({.blocks = 1, .target = target, .model_only = true}, []() -> Kernel {
      Tile<TileType::Vec, std::int32_t, 16, 64> s, d;
      TASSIGN(s, 0);
      TASSIGN(d, 0x1000);
      GlobalTensor<std::int32_t, Shape<1, 1, 1, 16, 64>, pto::Stride<1, 1, 1, 64, 1>> g(gm.data());
      co_await TLOAD(s, g);
      co_await pipe_barrier(PIPE_ALL);
      co_await TDIVS(d, std::int32_t(7), s);
    }));
  // A5: an int64 tile in UB's last 32 bytes (a register-pair load reads past UB's end, as NORM does).
  std::vector<std::int64_t> out(4);
  launch({.blocks = 1, .target = Target::A5}, [&]() -> Kernel {
    Tile<TileType::Vec, std::int64_t, 1, 4> a;
    TASSIGN(a, 256 * 1024 - 32);
    co_await TEXPANDS(a, std::int64_t(-5));
    co_await TADDS(a, a, std::int64_t(1) << 40);
    co_await pipe_barrier(PIPE_ALL);
    GlobalTensor<std::int64_t, Shape<1, 1, 1, 1, 4>, pto::Stride<1, 1, 1, 4, 1>> g(out.data());
    co_await TSTORE(g, a);
  });
  BOOST_TEST(std::count(out.begin(), out.end(), (std::int64_t(1) << 40) - 5) == 4);
}

// ---- the A5 register machine -------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(a5_plt_walks_a_row_and_stores_are_predicated) {
  Ub ub;
  for (int i = 0; i < 100; ++i) ub.at<float>(0)[i] = float(i);
  for (int i = 0; i < 128; ++i) ub.at<float>(1024)[i] = -1.0f;
  IntrinsicStream trace;
  pto::a5::RegisterUnit u(ub.bytes, sizeof ub.bytes, "TEST", &trace, true);
  std::uint32_t left = 100;
  for (std::size_t off = 0; left > 0; off += 64) {
    const auto p = u.plt<float>(left);  // 64 lanes, then 36
    const auto x = u.vlds(ub.at<float>(0), off);
    u.vsts(u.unary<float>(Intrinsic::vadds, x, p, [](float a) { return a + 0.5f; }), ub.at<float>(1024), off, p);
  }
  for (int i = 0; i < 128; ++i) BOOST_TEST_REQUIRE(ub.at<float>(1024)[i] == (i < 100 ? float(i) + 0.5f : -1.0f));
  u.flush();
  std::uint32_t loads = 0, stores = 0, plts = 0;
  for (const IntrinsicCall& c : trace.calls()) {
    if (c.op == Intrinsic::vlds) loads += c.repeats;
    if (c.op == Intrinsic::vsts) stores += c.repeats;
    if (c.op == Intrinsic::plt) plts += c.repeats;
  }
  BOOST_TEST((loads == 2u && stores == 2u && plts == 2u));
}

BOOST_AUTO_TEST_CASE(a5_mode_zeroing_and_the_load_distributions) {
  Ub ub;
  for (int i = 0; i < 64; ++i) ub.at<float>(0)[i] = float(i + 1);
  for (int i = 0; i < 64; ++i) ub.at<half>(512)[i] = half(float(i) * 0.5f);
  pto::a5::RegisterUnit u(ub.bytes, sizeof ub.bytes, "TEST", nullptr, true);
  std::uint32_t n = 3;
  const auto p = u.plt<float>(n);
  const auto z = u.unary<float>(Intrinsic::vexp, u.vlds(ub.at<float>(0), 0), p, [](float a) { return a; });
  for (int k = 0; k < 64; ++k) BOOST_TEST_REQUIRE(z.v[std::size_t(k)] == (k < 3 ? float(k + 1) : 0.0f));  // inactive lanes: 0
  const auto brc = u.vlds_brc(ub.at<float>(0), 5);
  for (float v : brc.v) BOOST_TEST_REQUIRE(v == 6.0f);
  const auto blk = u.vlds_blk(ub.at<float>(0), 8);  // the block of elements 8..15, in all 8 blocks
  for (int k = 0; k < 64; ++k) BOOST_TEST_REQUIRE(blk.v[std::size_t(k)] == float(9 + k % 8));
  const auto wide = u.vlds_unpk_cvt(ub.at<half>(512), 0);
  for (int k = 0; k < 64; ++k) BOOST_TEST_REQUIRE(wide.v[std::size_t(k)] == float(k) * 0.5f);
}

BOOST_AUTO_TEST_CASE(a5_64_bit_pairs_carry_between_words) {
  Ub ub;
  const std::int64_t a[4] = {0xffffffffLL, -1, INT64_MAX, -5}, b[4] = {1, 1, 1, 3};
  std::memcpy(ub.at<std::int64_t>(0), a, sizeof a);
  std::memcpy(ub.at<std::int64_t>(512), b, sizeof b);
  pto::a5::RegisterUnit u(ub.bytes, sizeof ub.bytes, "TEST", nullptr, true);
  pto::a5::Reg<std::uint32_t> alo{}, ahi{}, blo{}, bhi{};
  u.vlds_dintlv(ub.at<std::int64_t>(0), 0, alo, ahi);
  u.vlds_dintlv(ub.at<std::int64_t>(512), 0, blo, bhi);
  std::uint32_t n = 4;
  const auto p = u.plt64(n);
  u.add64(alo, ahi, blo, bhi, p, false);
  u.vsts_intlv(alo, ahi, ub.at<std::int64_t>(1024), 0, p);
  const std::int64_t want[4] = {0x100000000LL, 0, INT64_MIN, -2};
  for (int k = 0; k < 4; ++k) BOOST_TEST_REQUIRE(ub.at<std::int64_t>(1024)[k] == want[k]);
}

BOOST_AUTO_TEST_CASE(a5_a_load_outside_ub_is_an_error) {
  Ub ub;
  pto::a5::RegisterUnit u(ub.bytes, sizeof ub.bytes, "TEXP", nullptr, true);
  BOOST_CHECK_EXCEPTION(u.vlds(ub.at<float>(0), 1024), Error, [](const Error& e) {
    return std::string(e.what()) == "TEXP: vlds reads UB bytes [4096, 4100), outside the 4 KiB UB";
  });
}

BOOST_AUTO_TEST_CASE(a2a3_chip_quirks_that_would_corrupt_silently_are_errors) {
  // Spec §6 item 8: 32-bit lanes read only the low mask word; a wider mask would drop lanes 64 and up.
  Ub ub;
  VectorUnit vu(ub.bytes, sizeof ub.bytes, "TADDS", nullptr, true);
  vu.set_cont_mask(100);
  BOOST_CHECK_EXCEPTION(vu.scalar<float>(Intrinsic::vadds, ub.at<float>(0), ub.at<float>(0), 1.0f, 1, {}, plus), Error,
                        [](const Error& e) {
                          return std::string(e.what()) ==
                                 "TADDS: vadds runs with a mask of more than 64 lanes for a 32-bit type; the chip reads only "
                                 "the low mask word and would silently skip lanes 64 and up";
                        });
  // Spec §6 item 6: 713 rows (713 % 240 = 233 > 232) make the last 240-row chunk reach row 720.
  auto kernel = [](bool cpu) {
    return launch({.blocks = 1, .target = Target::A2A3, .model_only = true, .cpu_reference = cpu}, []() -> Kernel {
      Tile<TileType::Vec, float, 713, 8> d, f;
      Tile<TileType::Vec, float, 720, 1, BLayout::ColMajor, -1, -1> e(713, 1);
      TASSIGN(f, 0);
      TASSIGN(d, 32 * 1024);
      TASSIGN(e, 64 * 1024);
      co_await TROWEXPANDADD(d, f, e);
    });
  };
  BOOST_CHECK_EXCEPTION(kernel(false), Error, [](const Error& e) {
    return std::string(e.what()) ==
           "core 0: TROWEXPANDADD: the A2A3 mode-1 algorithm works in 240-row chunks; for 713 rows its last chunk computes "
           "rows up to 720, past the tile's 713 rows (the chip would write beyond the tile)";
  });
  BOOST_CHECK_NO_THROW(kernel(true));
}

BOOST_AUTO_TEST_CASE(writes_past_the_valid_region_inside_the_tile_are_warnings_in_the_report) {
  // Pure TCOLEXPAND on A2/A3 writes whole 32-byte blocks: 5 float columns write 8. Twice: counted once.
  auto colexpand = [](Target target, bool cpu) {
    return launch({.blocks = 1, .target = target, .model_only = true, .cpu_reference = cpu}, []() -> Kernel {
      DynTile<float, 16, 64> s(1, 5), d(10, 5);
      TASSIGN(s, 0);
      TASSIGN(d, 8192);
      co_await TCOLEXPAND(d, s);
      co_await TCOLEXPAND(d, s);
    });
  };
  const LaunchReport r = colexpand(Target::A2A3, false);
  const std::vector<DeviceWarning> ws = r.warnings();
  BOOST_TEST_REQUIRE(ws.size() == 1u);
  const DeviceWarning& w = ws[0];
  BOOST_TEST(w.seq == 1u);
  BOOST_TEST(w.count == 2u);
  BOOST_TEST(w.message == "TCOLEXPAND: the A2A3 algorithm copies whole 32-byte blocks, so each of dst's 10 valid rows is also "
                          "written 3 element(s) past its 5 valid columns (inside the tile, with src row 0's values)");
  BOOST_TEST(r.summary().find("device warnings: 1\n    core 0, instruction #1 (and 1 more): TCOLEXPAND: the A2A3") != std::string::npos);
  BOOST_TEST(colexpand(Target::A2A3, true).warnings().empty());  // the CPU reference writes the valid region only
  BOOST_TEST(colexpand(Target::A5, false).warnings().empty());   // A5 stores are predicated

  // Mode-1 TROWEXPAND* with 713 rows in a 720-row tile: the last 240-row chunk computes rows 713..719.
  // Those rows are in the instruction's write footprint: a TLOAD over them without a flag is a race.
  std::vector<float> gm(7 * 8, 1.0f);
  std::vector<std::byte> ub(192 * 1024);
  const LaunchReport rr = launch({.blocks = 1, .target = Target::A2A3, .check = SyncCheck::Report}, [&]() -> Kernel {
    Tile<TileType::Vec, float, 720, 8, BLayout::RowMajor, -1, -1> d(713, 8), f(713, 8);
    Tile<TileType::Vec, float, 720, 1, BLayout::ColMajor, -1, -1> e(713, 1);
    Tile<TileType::Vec, std::uint8_t, 184, 1024> probe;  // UB below A2A3's scratch: its data() writes count
    TASSIGN(probe, 0);
    for (std::size_t i = 0; i < 192 * 1024 / 4; ++i) reinterpret_cast<float*>(probe.data())[i] = float(i % 13);
    TASSIGN(f, 0);
    TASSIGN(d, 32 * 1024);
    TASSIGN(e, 64 * 1024);
    co_await TROWEXPANDADD(d, f, e);
    Tile<TileType::Vec, float, 7, 8> over;  // dst rows 713..719
    TASSIGN(over, 120 * 1024);  // elsewhere: no overlap, no race
    GlobalTensor<float, Shape<1, 1, 1, 7, 8>, pto::Stride<1, 1, 1, 8, 1>> in(gm.data());
    co_await TLOAD(over, in);
    co_await pipe_barrier(PIPE_ALL);
    std::memcpy(ub.data(), probe.data(), ub.size());
  });
  BOOST_TEST_REQUIRE(rr.warnings().size() == 1u);
  BOOST_TEST(rr.warnings()[0].message ==
             "TROWEXPANDADD: the A2A3 mode-1 algorithm works in 240-row chunks, so for 713 valid rows it also computes and "
             "writes dst rows 713..719 (inside the tile's 720 rows), reading the operands' rows there too");
  BOOST_TEST(rr.findings().empty());
  auto at = [&](std::size_t off) { float x; std::memcpy(&x, ub.data() + off, 4); return x; };
  for (int r = 711; r < 720; ++r)  // valid rows and the chunk's extra rows alike: f[r][c] + e[r]
    for (int c = 0; c < 8; ++c)
      BOOST_TEST(at(32 * 1024 + std::size_t(r * 8 + c) * 4) == float((r * 8 + c) % 13) + float((64 * 1024 / 4 + r) % 13));

  const LaunchReport race = launch({.blocks = 1, .target = Target::A2A3, .check = SyncCheck::Report}, []() -> Kernel {
    Tile<TileType::Vec, float, 720, 8, BLayout::RowMajor, -1, -1> d(713, 8), f(713, 8);
    Tile<TileType::Vec, float, 720, 1, BLayout::ColMajor, -1, -1> e(713, 1);
    TASSIGN(f, 0);
    TASSIGN(d, 32 * 1024);
    TASSIGN(e, 64 * 1024);
    co_await TROWEXPANDADD(d, f, e);
    Tile<TileType::Vec, float, 7, 8> over;
    TASSIGN(over, 32 * 1024 + 713 * 8 * 4);  // exactly the extra rows
    static float src[56] = {};
    GlobalTensor<float, Shape<1, 1, 1, 7, 8>, pto::Stride<1, 1, 1, 8, 1>> in(src);
    co_await TLOAD(over, in);
  });
  std::vector<SyncFinding> races;  // (f and e are read unwritten too: two UnwrittenRead findings)
  for (const SyncFinding& f : race.findings())
    if (f.kind == SyncFinding::Kind::Race) races.push_back(f);
  BOOST_TEST(race.findings().size() == 3u);
  BOOST_TEST_REQUIRE(races.size() == 1u);
  BOOST_TEST((races[0].hazard == SyncFinding::Hazard::WAW));
}

BOOST_AUTO_TEST_CASE(the_stream_records_mask_mode_lanes_repeats_and_strides) {
  Ub ub;
  IntrinsicStream trace;
  VectorUnit vu(ub.bytes, sizeof ub.bytes, "TEST", &trace, false);  // recording only
  vu.set_cont_mask(10);
  vu.binary<float>(Intrinsic::vsub, ub.at<float>(0), ub.at<float>(1024), ub.at<float>(2048), 3, {1, 1, 0, 2, 2, 1}, plus);
  BOOST_TEST_REQUIRE(trace.calls().size() == 1u);
  const IntrinsicCall& c = trace.calls()[0];
  BOOST_TEST(std::string(intrinsic_name(c.op)) == "vsub");
  BOOST_TEST((!c.count_mode && c.lanes == 10u && c.repeats == 3u));
  BOOST_TEST((c.strides == std::array<std::uint16_t, 6>{1, 1, 0, 2, 2, 1}));
  BOOST_TEST(ub.at<float>(0)[0] == 0.0f);  // nothing executed
}

BOOST_AUTO_TEST_CASE(a_mode2_expand_operand_is_read_one_32_byte_block_per_row_whatever_its_row_stride) {
  // E: 4 rows of 16 floats (64-byte rows), valid 4 x 8. Both chips read row i's block at byte 32 * i:
  // row 1 gets E's elements 8..15 of row 0, not E's row 1. The CPU reference reads the same.
  for (Target target : {Target::A2A3, Target::A5})
    for (bool cpu : {false, true}) {
      std::vector<float> out(4 * 16);
      launch({.blocks = 1, .target = target, .cpu_reference = cpu}, [&]() -> Kernel {
        Tile<TileType::Vec, float, 4, 16> d, f;
        Tile<TileType::Vec, float, 4, 16, BLayout::RowMajor, -1, -1> e(4, 8);
        TASSIGN(f, 0);
        TASSIGN(e, 1024);
        TASSIGN(d, 2048);
        for (int i = 0; i < 64; ++i) f.data()[i] = 1.0f;
        for (int i = 0; i < 64; ++i) e.data()[i] = float(i);  // E[r][c] = 16 r + c
        co_await TROWEXPANDMUL(d, f, e);
        co_await pipe_barrier(PIPE_ALL);
        std::copy_n(d.data(), 64, out.data());
      });
      for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 16; ++c)
          BOOST_TEST(out[std::size_t(r * 16 + c)] == float(8 * r + c % 8),
                     name_of(target) << (cpu ? " CPU" : " device") << " (" << r << ", " << c << ")");
    }
}

BOOST_AUTO_TEST_CASE(expand_operands_the_chips_read_differently_from_the_cpu_reference_are_errors) {
  auto message = [](Target target, bool cpu, auto body) {
    try {
      launch({.blocks = 1, .target = target, .model_only = true, .cpu_reference = cpu}, body);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // A2A3 mode 2 with 256+ rows: block i inside each 255-row chunk, 255 rows of E's stride between them.
  auto wide_e = [](int rows) {
    return [rows]() -> Kernel {
      DynTile<float, 300, 16> d(rows, 16), f(rows, 16), e(rows, 8);
      TASSIGN(f, 0);
      TASSIGN(d, 20 * 1024);
      TASSIGN(e, 40 * 1024);
      co_await TROWEXPANDADD(d, f, e);
    };
  };
  const std::string want = "core 0: TROWEXPANDADD: operand src1 Tile<Vec,float,300,16> valid 258x8 is the expand operand, with rows "
                           "64 bytes apart: the A2A3 mode-2 algorithm reads row i's 32-byte block at byte 32 * i inside each 255-row "
                           "chunk but steps 255 rows of 64 bytes between chunks, so for 258 rows it would read two different "
                           "layouts (give the expand operand one 32-byte block per row: Cols == 8)";
  for (bool cpu : {false, true}) {
    BOOST_TEST(message(Target::A2A3, cpu, wide_e(258)) == want);
    BOOST_TEST(message(Target::A2A3, cpu, wide_e(255)) == "no error");  // one chunk: block i throughout
    BOOST_TEST(message(Target::A5, cpu, wide_e(258)) == "no error");    // A5: block i throughout
  }
  // A5 mode 1: row i's value at element i * Cols of a ColMajor E.
  auto two_col_e = []() -> Kernel {
    DynTile<float, 16, 64> d(16, 64), f(16, 64);
    Tile<TileType::Vec, float, 16, 2, BLayout::ColMajor, -1, -1> e(16, 1);
    TASSIGN(f, 0);
    TASSIGN(d, 8192);
    TASSIGN(e, 16384);
    co_await TROWEXPANDSUB(d, f, e);
  };
  for (bool cpu : {false, true}) {
    BOOST_TEST(message(Target::A5, cpu, two_col_e) ==
               "core 0: TROWEXPANDSUB: operand src1 Tile<Vec,float,16,2,ColMajor> valid 16x1 is the expand operand: the A5 "
               "algorithm reads row i's value at element i * Cols (i * 2) of a ColMajor tile, which is column 0 only when "
               "the tile has one column (use a [R, 1] ColMajor tile)");
    BOOST_TEST(message(Target::A2A3, cpu, two_col_e) == "no error");  // vbrcb reads column 0
  }
}

namespace {
// The intrinsic stream and V cycles of the one vector instruction `issue` issues (model only).
struct Priced {
  std::string stream;
  std::uint64_t cycles;
};
template <class F>
Priced priced(Target target, bool cpu, F issue) {
  const LaunchReport r = launch({.blocks = 1, .target = target, .model_only = true, .timeline = true, .cpu_reference = cpu}, issue);
  std::string s;
  for (const TimelineEntry& e : r.cores[0].timeline)
    if (e.pipe == PIPE_V) s = r.cores[0].intrinsics(e);
  return {s, r.cores[0].pipes[PIPE_V].busy_cycles};
}
template <class T, int R, int C, bool Dynamic>
using TypedTile = std::conditional_t<Dynamic, DynTile<T, R, C>, Tile<TileType::Vec, T, R, C>>;
template <class Tl>
Tl whole() {
  if constexpr (Tl::ValidRow == -1) return Tl(Tl::Rows, Tl::Cols);
  else return Tl{};
}
}  // namespace

BOOST_AUTO_TEST_CASE(the_device_paths_choose_their_path_from_the_tile_type_not_the_runtime_valid_shape) {
  // Each pair: the same runtime valid shape (the whole tile), once with a dynamic valid shape (the
  // type's ValidRow/ValidCol are -1, as in most kernels) and once static. The PTO algorithms test the
  // type (`Cols == ValidCol`), so the dynamic tile takes the per-row path. The planner (CPU reference
  // runs) prices the same choice. (dyn only names its type: the kernels capture nothing.)
  auto tadds = [](auto dyn) {
    return []() -> Kernel {
      using Tl = TypedTile<float, 256, 16, decltype(dyn)::value>;
      Tl d = whole<Tl>(), s = whole<Tl>();
      TASSIGN(s, 0);
      TASSIGN(d, 0x4000);
      co_await TADDS(d, s, 1.5f);
    };
  };
  auto colexpandadd = [](auto dyn) {
    return []() -> Kernel {
      using Tl = TypedTile<float, 64, 64, decltype(dyn)::value>;
      Tl d = whole<Tl>(), f = whole<Tl>();
      Tile<TileType::Vec, float, 1, 64> v;
      TASSIGN(f, 0);
      TASSIGN(d, 0x4000);
      TASSIGN(v, 0x8000);
      co_await TCOLEXPANDADD(d, f, v);
    };
  };
  auto rowexpand = [](auto dyn) {
    return []() -> Kernel {
      using Tl = TypedTile<float, 64, 8, decltype(dyn)::value>;
      using E = std::conditional_t<decltype(dyn)::value, Tile<TileType::Vec, float, 64, 1, BLayout::ColMajor, -1, -1>,
                                   Tile<TileType::Vec, float, 64, 1, BLayout::ColMajor>>;
      Tl d = whole<Tl>();
      E e = whole<E>();
      TASSIGN(d, 0);
      TASSIGN(e, 0x4000);
      co_await TROWEXPAND(d, e);
    };
  };
  auto expands = [](auto dyn) {
    return []() -> Kernel {
      using Tl = TypedTile<float, 32, 64, decltype(dyn)::value>;
      Tl d = whole<Tl>();
      TASSIGN(d, 0);
      co_await TEXPANDS(d, 2.0f);
    };
  };
  auto texp = [](auto dyn) {  // TUnaryOp: two tiles of one shape take the packed path at run time too
    return []() -> Kernel {
      using Tl = TypedTile<float, 64, 64, decltype(dyn)::value>;
      Tl d = whole<Tl>(), s = whole<Tl>();
      TASSIGN(s, 0);
      TASSIGN(d, 0x4000);
      co_await TEXP(d, s);
    };
  };
  auto a5_rowexpandadd = [](auto dyn) {  // A5: a 1-D loop when dst's Cols is under one register
    return []() -> Kernel {
      using Tl = TypedTile<float, 16, 32, decltype(dyn)::value>;
      Tl d = whole<Tl>(), f = whole<Tl>();
      Tile<TileType::Vec, float, 16, 8> e;
      TASSIGN(f, 0);
      TASSIGN(d, 0x4000);
      TASSIGN(e, 0x8000);
      co_await TROWEXPANDADD(d, f, e);
    };
  };
  auto a5_tadds = [](auto dyn) {
    return []() -> Kernel {
      using Tl = TypedTile<float, 64, 64, decltype(dyn)::value>;
      Tl d = whole<Tl>(), s = whole<Tl>();
      TASSIGN(s, 0);
      TASSIGN(d, 0x4000);
      co_await TADDS(d, s, 1.5f);
    };
  };
  using Dyn = std::true_type;
  using Static = std::false_type;
  struct Case {
    const char* what;
    Target target;
    std::function<Kernel()> dynamic, fixed;
    std::string dynamic_stream, static_stream;
  };
  std::string per_row;  // pure TROWEXPAND per row: the scalar unit's read between flags, then a dup
  for (int i = 0; i < 64; ++i)
    per_row += std::string(i ? "; " : "") + "sync_roundtrip; vector_dup count 1 repeat, last 8 lanes, strides blk 1 0 0 rep 8 0 0";
  const Case cases[] = {
      // TBinSInstr: Rows 256 > 255 and 16 columns: the tail pass, 255 rows then 1 (repeat stride 2).
      {"TADDS f32 256x16", Target::A2A3, tadds(Dyn{}), tadds(Static{}),
       "vadds norm 255 repeats, last 16 lanes, strides blk 1 1 0 rep 2 2 0; vadds norm 1 repeat, last 16 lanes, strides blk 1 1 0 rep 2 2 0",
       "vadds norm 64 repeats, strides blk 1 1 0 rep 8 8 0"},
      // ColExpandBinaryInstr: counter mode row by row unless the type's valid width is its Cols.
      {"TCOLEXPANDADD f32 64x64", Target::A2A3, colexpandadd(Dyn{}), colexpandadd(Static{}),
       "64 x vadd count 1 repeat, strides blk 1 1 1 rep 8 8 8", "vadd norm 64 repeats, strides blk 1 1 1 rep 8 8 0"},
      // TRowExpandBrcb needs both valid shapes static.
      {"TROWEXPAND f32 [64,1] -> [64,8]", Target::A2A3, rowexpand(Dyn{}), rowexpand(Static{}), per_row, "vbrcb norm 8 repeats"},
      // TExpandS: one call when the type makes the rows contiguous, else one per row.
      {"TEXPANDS f32 32x64", Target::A2A3, expands(Dyn{}), expands(Static{}), "32 x vector_dup count 1 repeat, strides blk 1 0 0 rep 8 0 0",
       "vector_dup count 32 repeats, strides blk 1 0 0 rep 8 0 0"},
      // TUnaryOp: two tiles of one shape with whole valid rows are packed at run time as well.
      {"TEXP f32 64x64", Target::A2A3, texp(Dyn{}), texp(Static{}), "vexp norm 64 repeats, strides blk 1 1 0 rep 8 8 0",
       "vexp norm 64 repeats, strides blk 1 1 0 rep 8 8 0"},
      // A5 RowExpandBinaryInstr: 1-D (no outer loop) for a static 32-column dst.
      {"TROWEXPANDADD f32 16x32 (A5)", Target::A5, a5_rowexpandadd(Dyn{}), a5_rowexpandadd(Static{}),
       "vadd x16; vlds x32; vsts x16; plt x16; vloop x16", "vadd x16; vlds x32; vsts x16; plt x16"},
      // A5 BinaryInstr: 1-D over R * C only for static whole rows.
      {"TADDS f32 64x64 (A5)", Target::A5, a5_tadds(Dyn{}), a5_tadds(Static{}), "vadds x64; vlds x64; vsts x64; plt x64; vbr x1; vloop x64",
       "vadds x64; vlds x64; vsts x64; plt x64; vbr x1"},
  };
  for (const Case& c : cases) {
    const Priced dyn = priced(c.target, false, c.dynamic), fixed = priced(c.target, false, c.fixed);
    BOOST_TEST_MESSAGE(c.what << ": dynamic valid shape " << dyn.cycles << " cycles, static " << fixed.cycles);
    BOOST_TEST(dyn.stream == c.dynamic_stream, c.what << " (dynamic valid shape)");
    BOOST_TEST(fixed.stream == c.static_stream, c.what << " (static valid shape)");
    BOOST_TEST(priced(c.target, true, c.dynamic).cycles == dyn.cycles, c.what << ": the planner prices the dynamic path");
    BOOST_TEST(priced(c.target, true, c.fixed).cycles == fixed.cycles, c.what << ": the planner prices the static path");
  }
}

BOOST_AUTO_TEST_CASE(what_a_static_valid_shape_makes_the_chips_compute_on_other_bytes_is_an_error) {
  auto message = [](Target target, bool cpu, auto body) {
    try {
      launch({.blocks = 1, .target = target, .model_only = true, .cpu_reference = cpu}, body);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // A2A3 TExpandS: a static valid width fills validRow * validCol packed elements from the tile's start.
  auto expands = []() -> Kernel {
    Tile<TileType::Vec, float, 16, 16, BLayout::RowMajor, 4, 8> d;
    TASSIGN(d, 0);
    co_await TEXPANDS(d, 1.0f);
  };
  // A5 RowExpandBinaryInstr's 1-D loop reads the full operand at row * validCol.
  auto rowexpand = []() -> Kernel {
    Tile<TileType::Vec, float, 16, 32> d;
    DynTile<float, 16, 64> f(16, 32);
    Tile<TileType::Vec, float, 16, 8> e;
    TASSIGN(f, 0);
    TASSIGN(d, 0x4000);
    TASSIGN(e, 0x8000);
    co_await TROWEXPANDADD(d, f, e);
  };
  for (bool cpu : {false, true}) {
    BOOST_TEST(message(Target::A2A3, cpu, expands) ==
               "core 0: TEXPANDS: operand dst Tile<Vec,float,16,16> valid 4x8: the A2A3 algorithm fills validRow * validCol packed "
               "elements from the tile's start when the valid width is static (8 of 16), so it would fill the first 32 elements "
               "instead of the valid region (use a dynamic valid shape)");
    BOOST_TEST(message(Target::A5, cpu, expands) == "no error");
    BOOST_TEST(message(Target::A5, cpu, rowexpand) ==
               "core 0: TROWEXPANDADD: operand src0 Tile<Vec,float,16,64> valid 16x32 is the full operand, with rows 64 elements "
               "apart: the A5 algorithm's 1-D loop (dst's static valid width 32 is its Cols, under one 256-byte register) reads "
               "it at row * 32 (give it dst's Cols)");
    BOOST_TEST(message(Target::A2A3, cpu, rowexpand) == "no error");
  }
}
