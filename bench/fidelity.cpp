// The fidelity report: every A2/A3 hardware case of pto-isa's cost-model tests
// (tests/costmodel/st/testcase/<folder>/main.cpp: the `profiling` figure, cycles of one instruction on
// the chip) whose instruction this runtime implements, the modeled cycles of the same instruction on the
// same tiles (model-only, A2A3 default cost table), and the error; then the share within 10%, overall
// and per group. Cases whose figure is 0 in pto-isa (unmeasured) are not listed; cases of instructions
// or forms not implemented yet are listed as skipped with the reason, and a case whose operands break a
// rule of the NPU implementation (TLOAD c10: its tile's valid width is not the DN tensor's) shows the error.
//
// The shapes and figures are facts from pto-isa (its tests compare these same figures with
// EXPECT_CYCLE_NEAR); the kernels are ours. Run: build/bench/bench_fidelity.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

using namespace pto;

namespace {
template <class T, int R, int C, BLayout L = BLayout::RowMajor>
using Dyn = Tile<TileType::Vec, T, R, C, L, -1, -1>;

std::uint64_t busy(pipe_t pipe, const std::function<void()>& body) {
  LaunchReport r = launch({.blocks = 1, .target = Target::A2A3, .model_only = true}, [&]() -> Kernel {
    body();
    co_return;
  });
  return r.cores[0].pipes[pipe].busy_cycles;
}
std::uint64_t v(const std::function<void()>& body) { return busy(PIPE_V, body); }

// ---- the kernels, one per case family (tiles as the pto-isa cases declare them) -----------------------
template <class T, int R, int C>
std::uint64_t unary(int op, bool in_place = false) {
  return v([=] {
    Dyn<T, R, C> d(R, C), s(R, C);
    TASSIGN(s, 0);
    TASSIGN(d, in_place ? 0 : 0x20000);
    switch (op) {
      case 0: TABS(d, s); break;
      case 1: TEXP(d, s); break;
      case 2: TSQRT(d, s); break;
      default: TRSQRT(d, s); break;
    }
  });
}
template <class T, int R, int C>
std::uint64_t binary(int op) {
  return v([=] {
    Dyn<T, R, C> d(R, C), a(R, C), b(R, C);
    constexpr std::size_t kB = std::size_t(R) * C * sizeof(T);
    TASSIGN(a, 0);
    TASSIGN(b, kB);
    TASSIGN(d, 2 * kB);
    switch (op) {
      case 0: TADD(d, a, b); break;
      case 1: TSUB(d, a, b); break;
      case 2: TMUL(d, a, b); break;
      default: TDIV(d, a, b); break;
    }
  });
}
template <class T, int R, int C>
std::uint64_t scalar(int op, bool scalar_first = false) {
  return v([=] {
    Dyn<T, R, C> d(R, C), s(R, C);
    TASSIGN(s, 0);
    TASSIGN(d, std::size_t(R) * C * sizeof(T));
    const T k = T(1);
    switch (op) {
      case 0: TADDS(d, s, k); break;
      case 1: TMULS(d, s, k); break;
      case 2: TMINS(d, s, k); break;
      default: scalar_first ? (void)TDIVS(d, k, s) : (void)TDIVS(d, s, k); break;
    }
  });
}
template <class T, int R, int C>
std::uint64_t row_reduce(int op) {
  return v([=] {
    Dyn<T, R, C> s(R, C), t(R, C), d(R, 1);
    constexpr std::size_t kB = std::size_t(R) * C * sizeof(T);
    TASSIGN(s, 0);
    TASSIGN(t, kB);
    TASSIGN(d, 2 * kB);
    switch (op) {
      case 0: TROWSUM(d, s, t); break;
      case 1: TROWMAX(d, s, t); break;
      default: TROWMIN(d, s, t); break;
    }
  });
}
template <class T, int R, int C>
std::uint64_t col_max() {
  return v([] {
    Dyn<T, R, C> s(R, C), d(1, C);
    TASSIGN(s, 0);
    TASSIGN(d, std::size_t(R) * C * sizeof(T));
    TCOLMAX(d, s);
  });
}
template <class T, int R, int C>
std::uint64_t col_sum(bool binary) {
  return v([=] {
    Dyn<T, R, C> s(R, C), t((R + 1) / 2, C);
    Dyn<T, 1, C> d(1, C);
    constexpr std::size_t kB = std::size_t(R) * C * sizeof(T);
    TASSIGN(s, 0);
    TASSIGN(t, kB);
    TASSIGN(d, 2 * kB);
    TCOLSUM(d, s, t, binary);
  });
}
template <class D, class S>
std::uint64_t cvt() {
  return v([] {
    Dyn<D, 4, 64> d(4, 64);
    Dyn<S, 4, 64> s(4, 64);
    TASSIGN(s, 0);
    TASSIGN(d, 0x1000);
    TCVT(d, s, RoundMode::CAST_NONE);
  });
}
template <class T, int R, int C>
std::uint64_t rowexpand() {
  return v([] {
    Dyn<T, R, C> d(R, C);
    Tile<TileType::Vec, T, R, 1, BLayout::ColMajor, -1, -1> e(R, 1);
    TASSIGN(d, 0);
    TASSIGN(e, std::size_t(R) * C * sizeof(T));
    TROWEXPAND(d, e);
  });
}
template <class T, int R, int C>
std::uint64_t sel() {
  return v([] {
    Dyn<T, R, C> d(R, C), a(R, C), b(R, C);
    Dyn<std::uint8_t, R, 32> m(R, 32);
    Dyn<std::uint8_t, 1, 32> t(1, 32);
    constexpr std::size_t kB = std::size_t(R) * C * sizeof(T);
    TASSIGN(a, 0);
    TASSIGN(b, kB);
    TASSIGN(d, 2 * kB);
    TASSIGN(m, 3 * kB);
    TASSIGN(t, 3 * kB + std::size_t(R) * 32);
    TSEL(d, m, a, b, t);
  });
}
template <class T, int R, int C, int VR, int VC>
std::uint64_t tmov() {
  return v([] {
    Tile<TileType::Vec, T, R, C> s;
    Dyn<T, R, C> d(VR, VC);
    TASSIGN(s, 0);
    TASSIGN(d, std::size_t(R) * C * sizeof(T));
    TMOV(d, s);
  });
}
// TLOAD of a GM tensor of the given 5-D shape and strides (ND: RowMajor tile; DN: ColMajor tile).
template <class T, int R, int C, BLayout L, PadValue P = PadValue::Null>
std::uint64_t tload(int vr, int vc, std::array<int, 5> shape, std::array<int, 5> stride) {
  static std::vector<std::byte> gm(std::size_t(1) << 22);
  return busy(PIPE_MTE2, [=] {
    Tile<TileType::Vec, T, R, C, L, -1, -1, SLayout::NoneBox, 512, P> t(vr, vc);
    TASSIGN(t, 0);
    using G = GlobalTensor<T, Shape<-1, -1, -1, -1, -1>, pto::Stride<-1, -1, -1, -1, -1>,
                           L == BLayout::RowMajor ? Layout::ND : Layout::DN>;
    G g(reinterpret_cast<T*>(gm.data()), {shape[0], shape[1], shape[2], shape[3], shape[4]},
        {stride[0], stride[1], stride[2], stride[3], stride[4]});
    TLOAD(t, g);
  });
}

struct Case {
  const char* group;
  const char* name;  // pto-isa folder and TEST name
  double hardware;
  std::function<std::uint64_t()> model;
  const char* skipped = nullptr;  // why it is not run
};

std::vector<Case> cases() {
  using h = half;
  using i16 = std::int16_t;
  using i32 = std::int32_t;
  std::vector<Case> c = {
      {"vector", "tabs TAbs.float_64x64", 68, [] { return unary<float, 64, 64>(0); }},
      {"vector", "tabs TAbs.half_16x256", 36, [] { return unary<h, 16, 256>(0); }},
      {"vector", "tadd TAdd.float_64x64", 160, [] { return binary<float, 64, 64>(0); }},
      {"vector", "tadd TAdd.int32_64x64", 151, [] { return binary<i32, 64, 64>(0); }},
      {"vector", "tadd TAdd.half_16x256", 92, [] { return binary<h, 16, 256>(0); }},
      {"vector", "tadd TAdd.int16_64x64", 167, [] { return binary<i16, 64, 64>(0); }},
      {"vector", "tadds TAddS.float_32x64", 57, [] { return scalar<float, 32, 64>(0); }},
      {"vector", "tadds TAddS.half_63x64", 69, [] { return scalar<h, 63, 64>(0); }},
      {"vector", "tadds TAddS.int32_31x128", 70, [] { return scalar<i32, 31, 128>(0); }},
      {"vector", "tadds TAddS.int16_15x192", 40, [] { return scalar<i16, 15, 192>(0); }},
      {"vector", "tadds TAddS.float_7x448", 77, [] { return scalar<float, 7, 448>(0); }},
      {"vector", "tadds TAddS.float_256x16", 266, [] { return scalar<float, 256, 16>(0); }},
      {"vector", "tcolmax TColMax.float_64x64", 2589, [] { return col_max<float, 64, 64>(); }},
      {"vector", "tcolmax TColMax.half_64x64", 2713, [] { return col_max<h, 64, 64>(); }},
      {"vector", "tcolmax TColMax.int16_64x64", 454, [] { return col_max<i16, 64, 64>(); }},
      {"vector", "tcolmax TColMax.half_16x256", 102, [] { return col_max<h, 16, 256>(); }},
      {"vector", "tcolmax TColMax.float_1x3072", 390, [] { return col_max<float, 1, 3072>(); }},
      {"vector", "tcolsum TColSum.float_64x64_binary", 1263, [] { return col_sum<float, 64, 64>(true); }},
      {"vector", "tcolsum TColSum.float_1x3072_binary", 390, [] { return col_sum<float, 1, 3072>(true); }},
      {"vector", "tcolsum TColSum.half_16x256", 101, [] { return col_sum<h, 16, 256>(false); }},
      {"vector", "tcvt TCvt.f32_to_f16_4x64", 33, [] { return cvt<h, float>(); }},
      {"vector", "tcvt TCvt.f16_to_f32_4x64", 33, [] { return cvt<float, h>(); }},
      {"vector", "tdiv TDiv.case_float_64x64", 288, [] { return binary<float, 64, 64>(3); }},
      {"vector", "tdiv TDiv.case_half_64x64", 304, [] { return binary<h, 64, 64>(3); }},
      {"vector", "tdivs TDivS.case1_tile_scalar_float_32x64", 205, [] { return scalar<float, 32, 64>(3); }},
      {"vector", "tdivs TDivS.case2_tile_scalar_half_63x64", 328, [] { return scalar<h, 63, 64>(3); }},
      {"vector", "tdivs TDivS.case3_tile_scalar_int32_31x128", 4, [] { return scalar<i32, 31, 128>(3); }},
      {"vector", "tdivs TDivS.case4_tile_scalar_int16_15x192", 4, [] { return scalar<i16, 15, 192>(3); }},
      {"vector", "tdivs TDivS.case5_scalar_tile_float_32x64", 205, [] { return scalar<float, 32, 64>(3, true); }},
      {"vector", "tdivs TDivS.case6_scalar_tile_half_63x64", 328, [] { return scalar<h, 63, 64>(3, true); }},
      {"vector", "tdivs TDivS.case7_scalar_tile_int32_31x128", 4, [] { return scalar<i32, 31, 128>(3, true); }},
      {"vector", "tdivs TDivS.case8_scalar_tile_int16_15x192", 4, [] { return scalar<i16, 15, 192>(3, true); }},
      {"vector", "texp TExp.float_64x64", 159, [] { return unary<float, 64, 64>(1); }},
      {"vector", "texp TExp.half_64x64", 95, [] { return unary<h, 64, 64>(1); }},
      {"vector", "texp TExp.half_32x32", 47, [] { return unary<h, 32, 32>(1); }},
      {"vector", "texp TExp.float_32x32", 63, [] { return unary<float, 32, 32>(1); }},
      {"vector", "texp TExp.float_32x16", 30, [] { return unary<float, 32, 16>(1); }},
      {"vector", "tmins TMins.float_64x64", 87, [] { return scalar<float, 64, 64>(2); }},
      {"vector", "tmins TMins.int32_64x64", 68, [] { return scalar<i32, 64, 64>(2); }},
      {"vector", "tmins TMins.int16_64x64", 70, [] { return scalar<i16, 64, 64>(2); }},
      {"vector", "tmins TMins.half_64x64", 55, [] { return scalar<h, 64, 64>(2); }},
      {"vector", "tmins TMins.half_16x256", 40, [] { return scalar<h, 16, 256>(2); }},
      {"vector", "tmul TMul.float_64x64", 168, [] { return binary<float, 64, 64>(2); }},
      {"vector", "tmul TMul.int32_64x64", 152, [] { return binary<i32, 64, 64>(2); }},
      {"vector", "tmul TMul.half_16x256", 96, [] { return binary<h, 16, 256>(2); }},
      {"vector", "tmul TMul.int16_64x64", 168, [] { return binary<i16, 64, 64>(2); }},
      {"vector", "tmuls TMulS.case1_float_32x64", 58, [] { return scalar<float, 32, 64>(1); }},
      {"vector", "tmuls TMulS.case2_half_63x64", 69, [] { return scalar<h, 63, 64>(1); }},
      {"vector", "tmuls TMulS.case3_int32_31x128", 70, [] { return scalar<i32, 31, 128>(1); }},
      {"vector", "tmuls TMulS.case4_int16_15x192", 40, [] { return scalar<i16, 15, 192>(1); }},
      {"vector", "tmuls TMulS.case5_float_7x448", 77, [] { return scalar<float, 7, 448>(1); }},
      {"vector", "tmuls TMulS.case6_float_256x16", 266, [] { return scalar<float, 256, 16>(1); }},
      {"vector", "trowexpand TRowExpand.float_64x64", 933, [] { return rowexpand<float, 64, 64>(); }},
      {"vector", "trowexpand TRowExpand.half_64x64", 933, [] { return rowexpand<h, 64, 64>(); }},
      {"vector", "trowmax TRowMax.float_64x64", 480, [] { return row_reduce<float, 64, 64>(1); }},
      {"vector", "trowmax TRowMax.float_16x256", 32, [] { return row_reduce<float, 16, 256>(1); }},
      {"vector", "trowmax TRowMax.half_64x128", 481, [] { return row_reduce<h, 64, 128>(1); }},
      {"vector", "trowmax TRowMax.half_16x256", 14, [] { return row_reduce<h, 16, 256>(1); }},
      {"vector", "trowmin TRowMin.float_64x64", 5, [] { return row_reduce<float, 64, 64>(2); }},
      {"vector", "trowmin TRowMin.float_16x256", 32, [] { return row_reduce<float, 16, 256>(2); }},
      {"vector", "trowmin TRowMin.half_64x128", 5, [] { return row_reduce<h, 64, 128>(2); }},
      {"vector", "trowmin TRowMin.half_16x256", 14, [] { return row_reduce<h, 16, 256>(2); }},
      {"vector", "trowsum TRowSum.float_64x64", 492, [] { return row_reduce<float, 64, 64>(0); }},
      {"vector", "trowsum TRowSum.float_16x256", 32, [] { return row_reduce<float, 16, 256>(0); }},
      {"vector", "trowsum TRowSum.half_64x128", 495, [] { return row_reduce<h, 64, 128>(0); }},
      {"vector", "trowsum TRowSum.half_16x256", 14, [] { return row_reduce<h, 16, 256>(0); }},
      {"vector", "trsqrt TRsqrt.case_half_64x64", 58, [] { return unary<h, 64, 64>(3); }},
      {"vector", "tsel TSel.half_4x128", 67, [] { return sel<h, 4, 128>(); }},
      {"vector", "tsel TSel.half_1x128", 19, [] { return sel<h, 1, 128>(); }},
      {"vector", "tsel TSel.float_4x64", 67, [] { return sel<float, 4, 64>(); }},
      {"vector", "tsqrt TSqrt.float_64x64_inplace", 198, [] { return unary<float, 64, 64>(2, true); }},
      {"vector", "tsqrt TSqrt.float_64x64", 160, [] { return unary<float, 64, 64>(2); }},
      {"vector", "tsqrt TSqrt.half_64x64_inplace", 102, [] { return unary<h, 64, 64>(2, true); }},
      {"vector", "tsqrt TSqrt.half_64x64", 160, [] { return unary<h, 64, 64>(2); }},
      {"vector", "tsub TSub.float_64x64", 153, [] { return binary<float, 64, 64>(1); }},
      {"vector", "tsub TSub.int32_64x64", 132, [] { return binary<i32, 64, 64>(1); }},
      {"vector", "tsub TSub.half_16x256", 68, [] { return binary<h, 16, 256>(1); }},
      {"vector", "tsub TSub.int16_64x64", 170, [] { return binary<i16, 64, 64>(1); }},
      // data movement
      {"data movement", "tload TLoad.c01_nd_float_128x128", 776,
       [] { return tload<float, 128, 128, BLayout::RowMajor>(128, 128, {1, 1, 1, 128, 128}, {16384, 16384, 16384, 128, 1}); }},
      {"data movement", "tload TLoad.c02_nd_float_256x64", 2624,
       [] { return tload<float, 256, 64, BLayout::RowMajor>(256, 64, {2, 2, 2, 32, 64}, {8192, 4096, 2048, 64, 1}); }},
      {"data movement", "tload TLoad.c06_nd_int16_64x128_dyn", 8576,
       [] { return tload<std::int16_t, 64, 128, BLayout::RowMajor>(64, 128, {1, 1, 32, 2, 128}, {8192, 8192, 256, 128, 1}); }},
      {"data movement", "tload TLoad.c07_nd_int16_64x128_static", 8576,
       [] { return tload<std::int16_t, 64, 128, BLayout::RowMajor>(64, 128, {1, 1, 32, 2, 128}, {8192, 8192, 256, 128, 1}); }},
      {"data movement", "tload TLoad.c03_nd_float_128x127_padmax", 773,
       [] { return tload<float, 128, 128, BLayout::RowMajor, PadValue::Max>(128, 127, {1, 1, 1, 128, 127}, {16256, 16256, 16256, 127, 1}); }},
      {"data movement", "tload TLoad.c04_nd_int16_128x127_padmax", 519,
       [] { return tload<std::int16_t, 128, 128, BLayout::RowMajor, PadValue::Max>(128, 127, {1, 1, 1, 128, 127}, {16256, 16256, 16256, 127, 1}); }},
      {"data movement", "tload TLoad.c05_nd_uint8_128x127_padmin", 392,
       [] { return tload<std::uint8_t, 128, 128, BLayout::RowMajor, PadValue::Min>(128, 127, {1, 1, 1, 128, 127}, {16256, 16256, 16256, 127, 1}); }},
      {"data movement", "tload TLoad.c08_nd_float_256x60_padmax", 2497,
       [] { return tload<float, 256, 64, BLayout::RowMajor, PadValue::Max>(256, 60, {2, 2, 2, 32, 60}, {7680, 3840, 1920, 60, 1}); }},
      {"data movement", "tload TLoad.c09_dn_float_64x128", 8704,
       [] { return tload<float, 64, 128, BLayout::ColMajor>(64, 128, {1, 1, 32, 64, 4}, {8192, 8192, 256, 1, 4}); }},
      {"data movement", "tload TLoad.c10_dn_float_256x60", 8352,
       [] { return tload<float, 256, 64, BLayout::ColMajor>(255, 60, {2, 2, 2, 255, 8}, {8160, 4080, 2040, 1, 8}); }},
      {"data movement", "tmov TMov.c01_f_64_128_RM_N_RM_N", 1029, [] { return tmov<float, 64, 128, 64, 128>(); }},
      {"data movement", "tmov TMov.c09_f_16_24_15_23_RM_N_RM_N", 120, [] { return tmov<float, 16, 24, 15, 23>(); }},
  };
  for (const char* n : {"c02 RM->CM", "c03 CM->CM", "c04 CM->RM", "c05 RM->CM boxed", "c06 CM boxed->RM", "c07 CM->CM boxed",
                        "c08 CM boxed->CM"})
    c.push_back({"data movement", n, 1029, nullptr, "TMOV between layouts (issue 18)"});
  for (const char* n : {"c10 RM->CM 63x125", "c11 CM->CM 63x125", "c12 CM->RM 63x125", "c13 RM->CM boxed 63x125",
                        "c14 CM boxed->RM 63x125", "c15 CM->CM boxed 63x125", "c16 CM boxed->CM 63x125"})
    c.push_back({"data movement", n, 1323, nullptr, "TMOV between layouts (issue 18)"});
  return c;
}
}  // namespace

int main() {
  struct Tally {
    int run = 0, within = 0, skipped = 0;
  };
  Tally all, vec, dm;
  std::printf("%-46s %10s %10s %8s\n", "A2/A3 hardware case (pto-isa costmodel/st)", "hardware", "modeled", "error");
  for (const Case& c : cases()) {
    Tally& g = std::strcmp(c.group, "vector") == 0 ? vec : dm;
    if (!c.model) {
      std::printf("%-46s %10.0f %10s   skipped: %s\n", c.name, c.hardware, "-", c.skipped);
      ++g.skipped, ++all.skipped;
      continue;
    }
    std::uint64_t m = 0;
    try {
      m = c.model();
    } catch (const Error& e) {
      std::printf("%-46s %10.0f %10s   error: %s\n", c.name, c.hardware, "-", e.what());
      ++g.skipped, ++all.skipped;
      continue;
    }
    const double err = (double(m) - c.hardware) / c.hardware;
    const bool ok = std::fabs(err) <= 0.10;
    std::printf("%-46s %10.0f %10llu %+7.1f%%%s\n", c.name, c.hardware, static_cast<unsigned long long>(m), 100 * err, ok ? "" : "  *");
    ++g.run, ++all.run;
    if (ok) ++g.within, ++all.within;
  }
  auto line = [](const char* what, const Tally& t) {
    std::printf("%-14s %3d of %3d cases within 10%% (%.0f%%); %d not run\n", what, t.within, t.run,
                t.run ? 100.0 * t.within / t.run : 0.0, t.skipped);
  };
  std::printf("\n");
  line("vector", vec);
  line("data movement", dm);
  line("all", all);
  std::printf("(* more than 10%% off. A5: pto-isa's st_a5_fit profiling rows are not in this report yet.)\n");
  return 0;
}
