// The fidelity report: every A2/A3 hardware case of pto-isa's cost-model tests
// (tests/costmodel/st/testcase/<folder>/main.cpp: the `profiling` figure, cycles of one instruction on
// the chip) whose instruction this runtime implements, the modeled cycles of the same instruction on the
// same tiles (model-only, A2A3 default cost table), and the error; then the share within 10%, overall
// and per group. Cases whose figure is 0 in pto-isa (unmeasured) are not listed; cases of instructions
// or forms this runtime lacks (TMOV with a boxed tile) are listed as skipped with the reason, and a case whose operands break a
// rule of the NPU implementation (TLOAD c10: its tile's valid width is not the DN tensor's) shows the error.
//
// The shapes and figures are facts from pto-isa (its tests compare these same figures with
// EXPECT_CYCLE_NEAR); the kernels are ours. Run: build/bench/bench_fidelity [--a5-rows] (every A5 row:
// shape, profiling cycles, ours).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
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
template <class T, int R, int C, int VR, int VC, BLayout SL = BLayout::RowMajor, BLayout DL = BLayout::RowMajor>
std::uint64_t tmov() {
  return v([] {
    Tile<TileType::Vec, T, R, C, SL, VR, VC> s;
    Dyn<T, R, C, DL> d(VR, VC);
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

// TTRANS f32 128x128 (pto-isa places tmp at 0x30000, past A2/A3's 192 KiB UB: here it sits between src
// and dst; the cycles do not depend on addresses) and TSORT32's 3-operand form.
std::uint64_t ttrans_f32_128() {
  return v([] {
    Tile<TileType::Vec, float, 128, 128> s, d, t;
    TASSIGN(s, 0), TASSIGN(t, 0x10000), TASSIGN(d, 0x20000);
    TTRANS(d, s, t);
  });
}
template <class T, int R, int C>
std::uint64_t tsort32() {
  return v([] {
    Dyn<T, R, C> s(R, C);
    Dyn<std::uint32_t, R, C> x(R, C);
    Dyn<T, R, C * (8 / sizeof(T))> d(R, C * int(8 / sizeof(T)));
    TASSIGN(s, 0), TASSIGN(x, R * C * sizeof(T)), TASSIGN(d, R * C * (sizeof(T) + 4));
    TSORT32(d, s, x);
  });
}

struct Case {
  const char* group;
  const char* name;  // pto-isa folder and TEST name
  double hardware;
  std::function<std::uint64_t()> model;
  const char* skipped = nullptr;  // why it is not run
};

// Cases pto-isa's own test does not check (EXPECT_CYCLE_NEAR with accuracy 0: any figure passes),
// several of them below what any algorithm takes (TROWMIN 64 rows in 5 cycles).
bool unchecked(const std::string& name) {
  for (const char* n : {"TColMax.int16_64x64", "TColMax.half_16x256", "TColSum.half_16x256", "TExp.float_32x16", "TMov.c09",
                        "TRowMax.float_16x256", "TRowMax.half_16x256", "TRowMin.", "TRowSum.float_16x256", "TRowSum.half_16x256",
                        "TSel.", "TSort32."})
    if (name.find(n) != std::string::npos) return true;
  return false;
}

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
      {"vector", "tsort32 TSort32.float_8x32", 8, [] { return tsort32<float, 8, 32>(); }},
      {"vector", "tsort32 TSort32.half_32x16", 32, [] { return tsort32<h, 32, 16>(); }},
      {"vector", "ttrans TTrans.float_128x128", 501, [] { return ttrans_f32_128(); }},
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
  constexpr BLayout RM = BLayout::RowMajor, CM = BLayout::ColMajor;
  c.push_back({"data movement", "tmov TMov.c02_f_64_128_RM_N_CM_N", 1029, [] { return tmov<float, 64, 128, 64, 128, RM, CM>(); }});
  c.push_back({"data movement", "tmov TMov.c03_f_64_128_CM_N_CM_N", 1029, [] { return tmov<float, 64, 128, 64, 128, CM, CM>(); }});
  c.push_back({"data movement", "tmov TMov.c04_f_64_128_CM_N_RM_N", 1029, [] { return tmov<float, 64, 128, 64, 128, CM, RM>(); }});
  // 63 x 125 of 64 x 128: between layouts the partial valid width is an error (A2A3 copies no layout).
  c.push_back({"data movement", "tmov TMov.c10_f_63_125_RM_N_CM_N", 1323, [] { return tmov<float, 64, 128, 63, 125, RM, CM>(); }});
  c.push_back({"data movement", "tmov TMov.c11_f_63_125_CM_N_CM_N", 1323, [] { return tmov<float, 64, 128, 63, 125, CM, CM>(); }});
  c.push_back({"data movement", "tmov TMov.c12_f_63_125_CM_N_RM_N", 1323, [] { return tmov<float, 64, 128, 63, 125, CM, RM>(); }});
  for (const char* n : {"c05 RM->CM boxed", "c06 CM boxed->RM", "c07 CM->CM boxed", "c08 CM boxed->CM", "c13 RM->CM boxed 63x125",
                        "c14 CM boxed->RM 63x125", "c15 CM->CM boxed 63x125", "c16 CM boxed->CM 63x125"})
    c.push_back({"data movement", n, n[1] == '0' ? 1029.0 : 1323.0, nullptr, "a boxed tile: A2A3 copies bytes, converting no fractal layout (rejected here)"});
  return c;
}

// ---- A5: pto-isa's st_a5_fit profiling rows ------------------------------------------------------------
// tests/costmodel/st_a5_fit/testcase/<op>_fit/main.cpp: (instruction, dtype, tile, valid shape, profiling
// cycles) per row; fp32 and fp16 rows of the element-wise, unary and tile-scalar instructions, and TCVT's
// (below; its fp4 pairs and the TSEL rows are not in this report yet). Their vf_impl variants
// (post-update addressing or not) are priced alike here, as pto-isa's own fits price them alike. One tile, in place: the register machine's cost does not
// depend on aliasing; a one-row case takes the 1-D loop, the others the 2-D loop, as the A5 kernels do.
struct A5Row {
  const char* op;
  const char* dtype;
  int rows, cols, valid_rows, valid_cols;
  double profiling;
};
constexpr A5Row kA5Rows[] = {
    {"TADD", "fp32", 1, 64, 1, 64, 55},
    {"TADD", "fp32", 1, 192, 1, 192, 60},
    {"TADD", "fp32", 1, 320, 1, 320, 62},
    {"TADD", "fp32", 1, 640, 1, 640, 67},
    {"TADD", "fp32", 1, 1280, 1, 1280, 80},
    {"TADD", "fp32", 1, 64, 1, 1, 55},
    {"TADD", "fp32", 1, 192, 1, 129, 60},
    {"TADD", "fp32", 1, 320, 1, 257, 62},
    {"TADD", "fp32", 1, 640, 1, 577, 67},
    {"TADD", "fp32", 1, 1280, 1, 1217, 80},
    {"TADD", "fp32", 1, 640, 1, 640, 65},
    {"TADD", "fp32", 2, 160, 2, 128, 65},
    {"TADD", "fp32", 2, 224, 2, 192, 66},
    {"TADD", "fp32", 2, 672, 2, 640, 82},
    {"TADD", "fp32", 2, 1312, 2, 1280, 118},
    {"TADD", "fp32", 3, 160, 3, 128, 72},
    {"TADD", "fp32", 3, 224, 3, 192, 75},
    {"TADD", "fp32", 3, 672, 3, 640, 104},
    {"TADD", "fp32", 3, 1312, 3, 1280, 160},
    {"TADD", "fp32", 10, 160, 10, 128, 121},
    {"TADD", "fp32", 10, 224, 10, 192, 131},
    {"TADD", "fp32", 10, 672, 10, 640, 245},
    {"TADD", "fp32", 10, 1312, 10, 1280, 449},
    {"TADD", "fp32", 20, 160, 20, 128, 191},
    {"TADD", "fp32", 20, 224, 20, 192, 211},
    {"TADD", "fp32", 20, 672, 20, 640, 450},
    {"TADD", "fp32", 20, 1312, 20, 1280, 869},
    {"TADD", "fp32", 2, 160, 2, 65, 65},
    {"TADD", "fp32", 2, 224, 2, 129, 66},
    {"TADD", "fp32", 2, 672, 2, 577, 82},
    {"TADD", "fp32", 2, 1312, 2, 1217, 118},
    {"TADD", "fp32", 3, 160, 3, 65, 72},
    {"TADD", "fp32", 3, 224, 3, 129, 75},
    {"TADD", "fp32", 3, 672, 3, 577, 104},
    {"TADD", "fp32", 3, 1312, 3, 1217, 160},
    {"TADD", "fp32", 10, 160, 10, 65, 121},
    {"TADD", "fp32", 10, 224, 10, 129, 131},
    {"TADD", "fp32", 10, 672, 10, 577, 245},
    {"TADD", "fp32", 10, 1312, 10, 1217, 449},
    {"TADD", "fp32", 20, 160, 20, 65, 191},
    {"TADD", "fp32", 20, 224, 20, 129, 211},
    {"TADD", "fp32", 20, 672, 20, 577, 450},
    {"TADD", "fp32", 20, 1312, 20, 1217, 869},
    {"TADD", "fp16", 1, 1280, 1, 1280, 67},
    {"TMUL", "fp32", 1, 64, 1, 64, 56},
    {"TMUL", "fp32", 1, 192, 1, 192, 61},
    {"TMUL", "fp32", 1, 320, 1, 320, 63},
    {"TMUL", "fp32", 1, 640, 1, 640, 68},
    {"TMUL", "fp32", 1, 1280, 1, 1280, 80},
    {"TMUL", "fp32", 1, 64, 1, 1, 56},
    {"TMUL", "fp32", 1, 192, 1, 129, 61},
    {"TMUL", "fp32", 1, 320, 1, 257, 63},
    {"TMUL", "fp32", 1, 640, 1, 577, 68},
    {"TMUL", "fp32", 1, 1280, 1, 1217, 80},
    {"TMUL", "fp32", 1, 640, 1, 640, 66},
    {"TMUL", "fp32", 2, 160, 2, 128, 66},
    {"TMUL", "fp32", 2, 224, 2, 192, 67},
    {"TMUL", "fp32", 2, 672, 2, 640, 82},
    {"TMUL", "fp32", 2, 1312, 2, 1280, 118},
    {"TMUL", "fp32", 3, 160, 3, 128, 73},
    {"TMUL", "fp32", 3, 224, 3, 192, 76},
    {"TMUL", "fp32", 3, 672, 3, 640, 104},
    {"TMUL", "fp32", 3, 1312, 3, 1280, 160},
    {"TMUL", "fp32", 10, 160, 10, 128, 122},
    {"TMUL", "fp32", 10, 224, 10, 192, 132},
    {"TMUL", "fp32", 10, 672, 10, 640, 245},
    {"TMUL", "fp32", 10, 1312, 10, 1280, 449},
    {"TMUL", "fp32", 20, 160, 20, 128, 192},
    {"TMUL", "fp32", 20, 224, 20, 192, 212},
    {"TMUL", "fp32", 20, 672, 20, 640, 450},
    {"TMUL", "fp32", 20, 1312, 20, 1280, 869},
    {"TMUL", "fp32", 2, 160, 2, 65, 66},
    {"TMUL", "fp32", 2, 224, 2, 129, 67},
    {"TMUL", "fp32", 2, 672, 2, 577, 82},
    {"TMUL", "fp32", 2, 1312, 2, 1217, 118},
    {"TMUL", "fp32", 3, 160, 3, 65, 73},
    {"TMUL", "fp32", 3, 224, 3, 129, 76},
    {"TMUL", "fp32", 3, 672, 3, 577, 104},
    {"TMUL", "fp32", 3, 1312, 3, 1217, 160},
    {"TMUL", "fp32", 10, 160, 10, 65, 122},
    {"TMUL", "fp32", 10, 224, 10, 129, 132},
    {"TMUL", "fp32", 10, 672, 10, 577, 245},
    {"TMUL", "fp32", 10, 1312, 10, 1217, 449},
    {"TMUL", "fp32", 20, 160, 20, 65, 192},
    {"TMUL", "fp32", 20, 224, 20, 129, 212},
    {"TMUL", "fp32", 20, 672, 20, 577, 450},
    {"TMUL", "fp32", 20, 1312, 20, 1217, 869},
    {"TMUL", "fp16", 1, 1280, 1, 1280, 68},
    {"TSUB", "fp32", 1, 64, 1, 64, 55},
    {"TSUB", "fp32", 1, 192, 1, 192, 60},
    {"TSUB", "fp32", 1, 320, 1, 320, 62},
    {"TSUB", "fp32", 1, 640, 1, 640, 67},
    {"TSUB", "fp32", 1, 1280, 1, 1280, 80},
    {"TSUB", "fp32", 1, 64, 1, 1, 55},
    {"TSUB", "fp32", 1, 192, 1, 129, 60},
    {"TSUB", "fp32", 1, 320, 1, 257, 62},
    {"TSUB", "fp32", 1, 640, 1, 577, 67},
    {"TSUB", "fp32", 1, 1280, 1, 1217, 80},
    {"TSUB", "fp32", 1, 640, 1, 640, 65},
    {"TSUB", "fp32", 2, 160, 2, 128, 65},
    {"TSUB", "fp32", 2, 224, 2, 192, 66},
    {"TSUB", "fp32", 2, 672, 2, 640, 82},
    {"TSUB", "fp32", 2, 1312, 2, 1280, 118},
    {"TSUB", "fp32", 3, 160, 3, 128, 72},
    {"TSUB", "fp32", 3, 224, 3, 192, 75},
    {"TSUB", "fp32", 3, 672, 3, 640, 104},
    {"TSUB", "fp32", 3, 1312, 3, 1280, 160},
    {"TSUB", "fp32", 10, 160, 10, 128, 121},
    {"TSUB", "fp32", 10, 224, 10, 192, 131},
    {"TSUB", "fp32", 10, 672, 10, 640, 245},
    {"TSUB", "fp32", 10, 1312, 10, 1280, 449},
    {"TSUB", "fp32", 20, 160, 20, 128, 191},
    {"TSUB", "fp32", 20, 224, 20, 192, 211},
    {"TSUB", "fp32", 20, 672, 20, 640, 450},
    {"TSUB", "fp32", 20, 1312, 20, 1280, 869},
    {"TSUB", "fp32", 2, 160, 2, 65, 65},
    {"TSUB", "fp32", 2, 224, 2, 129, 66},
    {"TSUB", "fp32", 2, 672, 2, 577, 82},
    {"TSUB", "fp32", 2, 1312, 2, 1217, 118},
    {"TSUB", "fp32", 3, 160, 3, 65, 72},
    {"TSUB", "fp32", 3, 224, 3, 129, 75},
    {"TSUB", "fp32", 3, 672, 3, 577, 104},
    {"TSUB", "fp32", 3, 1312, 3, 1217, 160},
    {"TSUB", "fp32", 10, 160, 10, 65, 121},
    {"TSUB", "fp32", 10, 224, 10, 129, 131},
    {"TSUB", "fp32", 10, 672, 10, 577, 245},
    {"TSUB", "fp32", 10, 1312, 10, 1217, 449},
    {"TSUB", "fp32", 20, 160, 20, 65, 191},
    {"TSUB", "fp32", 20, 224, 20, 129, 211},
    {"TSUB", "fp32", 20, 672, 20, 577, 450},
    {"TSUB", "fp32", 20, 1312, 20, 1217, 869},
    {"TSUB", "fp16", 1, 1280, 1, 1280, 67},
    {"TEXP", "fp16", 1, 128, 1, 128, 69},
    {"TEXP", "fp16", 1, 640, 1, 640, 86},
    {"TEXP", "fp16", 1, 1280, 1, 1280, 103},
    {"TEXP", "fp16", 3, 192, 3, 128, 77},
    {"TEXP", "fp16", 3, 448, 3, 384, 102},
    {"TEXP", "fp16", 3, 1344, 3, 1280, 183},
    {"TEXP", "fp16", 10, 192, 10, 128, 102},
    {"TEXP", "fp16", 10, 448, 10, 384, 183},
    {"TEXP", "fp16", 10, 1344, 10, 1280, 463},
    {"TEXP", "fp32", 1, 640, 1, 640, 81},
    {"TEXP", "fp32", 1, 64, 1, 64, 64},
    {"TEXP", "fp32", 1, 192, 1, 192, 69},
    {"TEXP", "fp32", 1, 320, 1, 320, 73},
    {"TEXP", "fp32", 1, 640, 1, 640, 82},
    {"TEXP", "fp32", 1, 1280, 1, 1280, 102},
    {"TEXP", "fp32", 1, 64, 1, 1, 64},
    {"TEXP", "fp32", 1, 192, 1, 129, 69},
    {"TEXP", "fp32", 1, 320, 1, 257, 73},
    {"TEXP", "fp32", 1, 640, 1, 577, 82},
    {"TEXP", "fp32", 1, 1280, 1, 1217, 102},
    {"TEXP", "fp32", 2, 160, 2, 128, 73},
    {"TEXP", "fp32", 2, 224, 2, 192, 76},
    {"TEXP", "fp32", 2, 672, 2, 640, 101},
    {"TEXP", "fp32", 2, 1312, 2, 1280, 141},
    {"TEXP", "fp32", 3, 160, 3, 128, 80},
    {"TEXP", "fp32", 3, 224, 3, 192, 85},
    {"TEXP", "fp32", 3, 672, 3, 640, 122},
    {"TEXP", "fp32", 3, 1312, 3, 1280, 182},
    {"TEXP", "fp32", 10, 160, 10, 128, 129},
    {"TEXP", "fp32", 10, 224, 10, 192, 141},
    {"TEXP", "fp32", 10, 672, 10, 640, 262},
    {"TEXP", "fp32", 10, 1312, 10, 1280, 462},
    {"TEXP", "fp32", 20, 160, 20, 128, 199},
    {"TEXP", "fp32", 20, 224, 20, 192, 221},
    {"TEXP", "fp32", 20, 672, 20, 640, 462},
    {"TEXP", "fp32", 20, 1312, 20, 1280, 862},
    {"TEXP", "fp32", 2, 160, 2, 65, 73},
    {"TEXP", "fp32", 2, 224, 2, 129, 76},
    {"TEXP", "fp32", 2, 672, 2, 577, 101},
    {"TEXP", "fp32", 2, 1312, 2, 1217, 141},
    {"TEXP", "fp32", 3, 160, 3, 65, 80},
    {"TEXP", "fp32", 3, 224, 3, 129, 85},
    {"TEXP", "fp32", 3, 672, 3, 577, 122},
    {"TEXP", "fp32", 3, 1312, 3, 1217, 182},
    {"TEXP", "fp32", 10, 160, 10, 65, 129},
    {"TEXP", "fp32", 10, 224, 10, 129, 141},
    {"TEXP", "fp32", 10, 672, 10, 577, 262},
    {"TEXP", "fp32", 10, 1312, 10, 1217, 462},
    {"TEXP", "fp32", 20, 160, 20, 65, 199},
    {"TEXP", "fp32", 20, 224, 20, 129, 221},
    {"TEXP", "fp32", 20, 672, 20, 577, 462},
    {"TEXP", "fp32", 20, 1312, 20, 1217, 862},
    {"TSQRT", "fp16", 1, 128, 1, 128, 70},
    {"TSQRT", "fp16", 1, 640, 1, 640, 87},
    {"TSQRT", "fp16", 1, 1280, 1, 1280, 104},
    {"TSQRT", "fp16", 3, 192, 3, 128, 78},
    {"TSQRT", "fp16", 3, 448, 3, 384, 103},
    {"TSQRT", "fp16", 3, 1344, 3, 1280, 184},
    {"TSQRT", "fp16", 10, 192, 10, 128, 103},
    {"TSQRT", "fp16", 10, 448, 10, 384, 184},
    {"TSQRT", "fp16", 10, 1344, 10, 1280, 464},
    {"TSQRT", "fp32", 1, 640, 1, 640, 82},
    {"TSQRT", "fp32", 1, 64, 1, 64, 65},
    {"TSQRT", "fp32", 1, 192, 1, 192, 70},
    {"TSQRT", "fp32", 1, 320, 1, 320, 74},
    {"TSQRT", "fp32", 1, 640, 1, 640, 83},
    {"TSQRT", "fp32", 1, 1280, 1, 1280, 103},
    {"TSQRT", "fp32", 1, 64, 1, 1, 65},
    {"TSQRT", "fp32", 1, 192, 1, 129, 70},
    {"TSQRT", "fp32", 1, 320, 1, 257, 74},
    {"TSQRT", "fp32", 1, 640, 1, 577, 83},
    {"TSQRT", "fp32", 1, 1280, 1, 1217, 103},
    {"TSQRT", "fp32", 2, 160, 2, 128, 74},
    {"TSQRT", "fp32", 2, 224, 2, 192, 77},
    {"TSQRT", "fp32", 2, 672, 2, 640, 102},
    {"TSQRT", "fp32", 2, 1312, 2, 1280, 142},
    {"TSQRT", "fp32", 3, 160, 3, 128, 81},
    {"TSQRT", "fp32", 3, 224, 3, 192, 86},
    {"TSQRT", "fp32", 3, 672, 3, 640, 123},
    {"TSQRT", "fp32", 3, 1312, 3, 1280, 183},
    {"TSQRT", "fp32", 10, 160, 10, 128, 130},
    {"TSQRT", "fp32", 10, 224, 10, 192, 142},
    {"TSQRT", "fp32", 10, 672, 10, 640, 263},
    {"TSQRT", "fp32", 10, 1312, 10, 1280, 463},
    {"TSQRT", "fp32", 20, 160, 20, 128, 200},
    {"TSQRT", "fp32", 20, 224, 20, 192, 222},
    {"TSQRT", "fp32", 20, 672, 20, 640, 463},
    {"TSQRT", "fp32", 20, 1312, 20, 1280, 863},
    {"TSQRT", "fp32", 2, 160, 2, 65, 74},
    {"TSQRT", "fp32", 2, 224, 2, 129, 77},
    {"TSQRT", "fp32", 2, 672, 2, 577, 102},
    {"TSQRT", "fp32", 2, 1312, 2, 1217, 142},
    {"TSQRT", "fp32", 3, 160, 3, 65, 81},
    {"TSQRT", "fp32", 3, 224, 3, 129, 86},
    {"TSQRT", "fp32", 3, 672, 3, 577, 123},
    {"TSQRT", "fp32", 3, 1312, 3, 1217, 183},
    {"TSQRT", "fp32", 10, 160, 10, 65, 130},
    {"TSQRT", "fp32", 10, 224, 10, 129, 142},
    {"TSQRT", "fp32", 10, 672, 10, 577, 263},
    {"TSQRT", "fp32", 10, 1312, 10, 1217, 463},
    {"TSQRT", "fp32", 20, 160, 20, 65, 200},
    {"TSQRT", "fp32", 20, 224, 20, 129, 222},
    {"TSQRT", "fp32", 20, 672, 20, 577, 463},
    {"TSQRT", "fp32", 20, 1312, 20, 1217, 863},
    {"TRSQRT", "fp16", 1, 128, 1, 128, 89},
    {"TRSQRT", "fp16", 1, 640, 1, 640, 122},
    {"TRSQRT", "fp16", 1, 1280, 1, 1280, 162},
    {"TRSQRT", "fp16", 3, 192, 3, 128, 105},
    {"TRSQRT", "fp16", 3, 448, 3, 384, 154},
    {"TRSQRT", "fp16", 3, 1344, 3, 1280, 322},
    {"TRSQRT", "fp16", 10, 192, 10, 128, 161},
    {"TRSQRT", "fp16", 10, 448, 10, 384, 322},
    {"TRSQRT", "fp16", 10, 1344, 10, 1280, 882},
    {"TRSQRT", "fp32", 1, 640, 1, 640, 115},
    {"TRSQRT", "fp32", 1, 64, 1, 64, 79},
    {"TRSQRT", "fp32", 1, 192, 1, 192, 88},
    {"TRSQRT", "fp32", 1, 320, 1, 320, 96},
    {"TRSQRT", "fp32", 1, 640, 1, 640, 116},
    {"TRSQRT", "fp32", 1, 1280, 1, 1280, 156},
    {"TRSQRT", "fp32", 1, 64, 1, 1, 79},
    {"TRSQRT", "fp32", 1, 192, 1, 129, 88},
    {"TRSQRT", "fp32", 1, 320, 1, 257, 96},
    {"TRSQRT", "fp32", 1, 640, 1, 577, 116},
    {"TRSQRT", "fp32", 1, 1280, 1, 1217, 156},
    {"TRSQRT", "fp32", 2, 160, 2, 128, 92},
    {"TRSQRT", "fp32", 2, 224, 2, 192, 100},
    {"TRSQRT", "fp32", 2, 672, 2, 640, 156},
    {"TRSQRT", "fp32", 2, 1312, 2, 1280, 236},
    {"TRSQRT", "fp32", 3, 160, 3, 128, 101},
    {"TRSQRT", "fp32", 3, 224, 3, 192, 113},
    {"TRSQRT", "fp32", 3, 672, 3, 640, 197},
    {"TRSQRT", "fp32", 3, 1312, 3, 1280, 317},
    {"TRSQRT", "fp32", 10, 160, 10, 128, 157},
    {"TRSQRT", "fp32", 10, 224, 10, 192, 197},
    {"TRSQRT", "fp32", 10, 672, 10, 640, 477},
    {"TRSQRT", "fp32", 10, 1312, 10, 1280, 877},
    {"TRSQRT", "fp32", 20, 160, 20, 128, 237},
    {"TRSQRT", "fp32", 20, 224, 20, 192, 317},
    {"TRSQRT", "fp32", 20, 672, 20, 640, 877},
    {"TRSQRT", "fp32", 20, 1312, 20, 1280, 1677},
    {"TRSQRT", "fp32", 2, 160, 2, 65, 92},
    {"TRSQRT", "fp32", 2, 224, 2, 129, 100},
    {"TRSQRT", "fp32", 2, 672, 2, 577, 156},
    {"TRSQRT", "fp32", 2, 1312, 2, 1217, 236},
    {"TRSQRT", "fp32", 3, 160, 3, 65, 101},
    {"TRSQRT", "fp32", 3, 224, 3, 129, 113},
    {"TRSQRT", "fp32", 3, 672, 3, 577, 197},
    {"TRSQRT", "fp32", 3, 1312, 3, 1217, 317},
    {"TRSQRT", "fp32", 10, 160, 10, 65, 157},
    {"TRSQRT", "fp32", 10, 224, 10, 129, 197},
    {"TRSQRT", "fp32", 10, 672, 10, 577, 477},
    {"TRSQRT", "fp32", 10, 1312, 10, 1217, 877},
    {"TRSQRT", "fp32", 20, 160, 20, 65, 237},
    {"TRSQRT", "fp32", 20, 224, 20, 129, 317},
    {"TRSQRT", "fp32", 20, 672, 20, 577, 877},
    {"TRSQRT", "fp32", 20, 1312, 20, 1217, 1677},
    {"TDIVS", "fp16", 1, 128, 1, 128, 72},
    {"TDIVS", "fp16", 1, 640, 1, 640, 87},
    {"TDIVS", "fp16", 1, 1280, 1, 1280, 104},
    {"TDIVS", "fp16", 1, 192, 1, 128, 68},
    {"TDIVS", "fp16", 1, 448, 1, 384, 78},
    {"TDIVS", "fp16", 1, 1344, 1, 1280, 103},
    {"TDIVS", "fp16", 3, 192, 3, 128, 78},
    {"TDIVS", "fp16", 3, 448, 3, 384, 103},
    {"TDIVS", "fp16", 3, 1344, 3, 1280, 184},
    {"TDIVS", "fp16", 10, 192, 10, 128, 103},
    {"TDIVS", "fp16", 10, 448, 10, 384, 184},
    {"TDIVS", "fp16", 10, 1344, 10, 1280, 464},
    {"TDIVS", "fp32", 1, 640, 1, 640, 82},
    {"TDIVS", "fp32", 1, 64, 1, 64, 67},
    {"TDIVS", "fp32", 1, 192, 1, 192, 70},
    {"TDIVS", "fp32", 1, 320, 1, 320, 74},
    {"TDIVS", "fp32", 1, 640, 1, 640, 83},
    {"TDIVS", "fp32", 1, 1280, 1, 1280, 103},
    {"TDIVS", "fp32", 1, 64, 1, 1, 67},
    {"TDIVS", "fp32", 1, 192, 1, 129, 70},
    {"TDIVS", "fp32", 1, 320, 1, 257, 74},
    {"TDIVS", "fp32", 1, 640, 1, 577, 83},
    {"TDIVS", "fp32", 1, 1280, 1, 1217, 103},
    {"TDIVS", "fp32", 2, 160, 2, 128, 74},
    {"TDIVS", "fp32", 2, 224, 2, 192, 78},
    {"TDIVS", "fp32", 2, 672, 2, 640, 102},
    {"TDIVS", "fp32", 2, 1312, 2, 1280, 146},
    {"TDIVS", "fp32", 3, 160, 3, 128, 82},
    {"TDIVS", "fp32", 3, 224, 3, 192, 87},
    {"TDIVS", "fp32", 3, 672, 3, 640, 123},
    {"TDIVS", "fp32", 3, 1312, 3, 1280, 187},
    {"TDIVS", "fp32", 10, 160, 10, 128, 130},
    {"TDIVS", "fp32", 10, 224, 10, 192, 143},
    {"TDIVS", "fp32", 10, 672, 10, 640, 267},
    {"TDIVS", "fp32", 10, 1312, 10, 1280, 467},
    {"TDIVS", "fp32", 20, 160, 20, 128, 201},
    {"TDIVS", "fp32", 20, 224, 20, 192, 222},
    {"TDIVS", "fp32", 20, 672, 20, 640, 467},
    {"TDIVS", "fp32", 20, 1312, 20, 1280, 867},
    {"TDIVS", "fp32", 2, 160, 2, 65, 74},
    {"TDIVS", "fp32", 2, 224, 2, 129, 78},
    {"TDIVS", "fp32", 2, 672, 2, 577, 102},
    {"TDIVS", "fp32", 2, 1312, 2, 1217, 146},
    {"TDIVS", "fp32", 3, 160, 3, 65, 82},
    {"TDIVS", "fp32", 3, 224, 3, 129, 87},
    {"TDIVS", "fp32", 3, 672, 3, 577, 123},
    {"TDIVS", "fp32", 3, 1312, 3, 1217, 187},
    {"TDIVS", "fp32", 10, 160, 10, 65, 130},
    {"TDIVS", "fp32", 10, 224, 10, 129, 143},
    {"TDIVS", "fp32", 10, 672, 10, 577, 267},
    {"TDIVS", "fp32", 10, 1312, 10, 1217, 467},
    {"TDIVS", "fp32", 20, 160, 20, 65, 201},
    {"TDIVS", "fp32", 20, 224, 20, 129, 222},
    {"TDIVS", "fp32", 20, 672, 20, 577, 467},
    {"TDIVS", "fp32", 20, 1312, 20, 1217, 867},
    {"TMINS", "fp16", 1, 1280, 1, 1280, 64},
    {"TMINS", "fp32", 1, 640, 1, 640, 63},
    {"TMINS", "fp32", 1, 64, 1, 64, 53},
    {"TMINS", "fp32", 1, 192, 1, 192, 57},
    {"TMINS", "fp32", 1, 320, 1, 320, 59},
    {"TMINS", "fp32", 1, 640, 1, 640, 64},
    {"TMINS", "fp32", 1, 1280, 1, 1280, 74},
    {"TMINS", "fp32", 1, 64, 1, 1, 53},
    {"TMINS", "fp32", 1, 192, 1, 129, 57},
    {"TMINS", "fp32", 1, 320, 1, 257, 59},
    {"TMINS", "fp32", 1, 640, 1, 577, 64},
    {"TMINS", "fp32", 1, 1280, 1, 1217, 74},
    {"TMINS", "fp32", 2, 160, 2, 128, 63},
    {"TMINS", "fp32", 2, 224, 2, 192, 64},
    {"TMINS", "fp32", 2, 672, 2, 640, 77},
    {"TMINS", "fp32", 2, 1312, 2, 1280, 103},
    {"TMINS", "fp32", 3, 160, 3, 128, 70},
    {"TMINS", "fp32", 3, 224, 3, 192, 73},
    {"TMINS", "fp32", 3, 672, 3, 640, 94},
    {"TMINS", "fp32", 3, 1312, 3, 1280, 134},
    {"TMINS", "fp32", 10, 160, 10, 128, 119},
    {"TMINS", "fp32", 10, 224, 10, 192, 129},
    {"TMINS", "fp32", 10, 672, 10, 640, 199},
    {"TMINS", "fp32", 10, 1312, 10, 1280, 323},
    {"TMINS", "fp32", 20, 160, 20, 128, 189},
    {"TMINS", "fp32", 20, 224, 20, 192, 209},
    {"TMINS", "fp32", 20, 672, 20, 640, 349},
    {"TMINS", "fp32", 20, 1312, 20, 1280, 583},
    {"TMINS", "fp32", 2, 160, 2, 65, 63},
    {"TMINS", "fp32", 2, 224, 2, 129, 64},
    {"TMINS", "fp32", 2, 672, 2, 577, 77},
    {"TMINS", "fp32", 2, 1312, 2, 1217, 103},
    {"TMINS", "fp32", 3, 160, 3, 65, 70},
    {"TMINS", "fp32", 3, 224, 3, 129, 73},
    {"TMINS", "fp32", 3, 672, 3, 577, 94},
    {"TMINS", "fp32", 3, 1312, 3, 1217, 134},
    {"TMINS", "fp32", 10, 160, 10, 65, 119},
    {"TMINS", "fp32", 10, 224, 10, 129, 129},
    {"TMINS", "fp32", 10, 672, 10, 577, 199},
    {"TMINS", "fp32", 10, 1312, 10, 1217, 323},
    {"TMINS", "fp32", 20, 160, 20, 65, 189},
    {"TMINS", "fp32", 20, 224, 20, 129, 209},
    {"TMINS", "fp32", 20, 672, 20, 577, 349},
    {"TMINS", "fp32", 20, 1312, 20, 1217, 583},
    {"TNEG", "fp16", 1, 1280, 1, 1280, 66},
    {"TNEG", "fp32", 1, 640, 1, 640, 65},
    {"TNEG", "fp32", 1, 64, 1, 64, 55},
    {"TNEG", "fp32", 1, 192, 1, 192, 59},
    {"TNEG", "fp32", 1, 320, 1, 320, 61},
    {"TNEG", "fp32", 1, 640, 1, 640, 66},
    {"TNEG", "fp32", 1, 1280, 1, 1280, 76},
    {"TNEG", "fp32", 1, 64, 1, 1, 55},
    {"TNEG", "fp32", 1, 192, 1, 129, 59},
    {"TNEG", "fp32", 1, 320, 1, 257, 61},
    {"TNEG", "fp32", 1, 640, 1, 577, 66},
    {"TNEG", "fp32", 1, 1280, 1, 1217, 76},
    {"TNEG", "fp32", 2, 160, 2, 128, 65},
    {"TNEG", "fp32", 2, 224, 2, 192, 66},
    {"TNEG", "fp32", 2, 672, 2, 640, 78},
    {"TNEG", "fp32", 2, 1312, 2, 1280, 105},
    {"TNEG", "fp32", 3, 160, 3, 128, 72},
    {"TNEG", "fp32", 3, 224, 3, 192, 75},
    {"TNEG", "fp32", 3, 672, 3, 640, 96},
    {"TNEG", "fp32", 3, 1312, 3, 1280, 136},
    {"TNEG", "fp32", 10, 160, 10, 128, 121},
    {"TNEG", "fp32", 10, 224, 10, 192, 131},
    {"TNEG", "fp32", 10, 672, 10, 640, 201},
    {"TNEG", "fp32", 10, 1312, 10, 1280, 323},
    {"TNEG", "fp32", 20, 160, 20, 128, 191},
    {"TNEG", "fp32", 20, 224, 20, 192, 211},
    {"TNEG", "fp32", 20, 672, 20, 640, 351},
    {"TNEG", "fp32", 20, 1312, 20, 1280, 583},
    {"TNEG", "fp32", 2, 160, 2, 65, 65},
    {"TNEG", "fp32", 2, 224, 2, 129, 66},
    {"TNEG", "fp32", 2, 672, 2, 577, 78},
    {"TNEG", "fp32", 2, 1312, 2, 1217, 105},
    {"TNEG", "fp32", 3, 160, 3, 65, 72},
    {"TNEG", "fp32", 3, 224, 3, 129, 75},
    {"TNEG", "fp32", 3, 672, 3, 577, 96},
    {"TNEG", "fp32", 3, 1312, 3, 1217, 136},
    {"TNEG", "fp32", 10, 160, 10, 65, 121},
    {"TNEG", "fp32", 10, 224, 10, 129, 131},
    {"TNEG", "fp32", 10, 672, 10, 577, 201},
    {"TNEG", "fp32", 10, 1312, 10, 1217, 323},
    {"TNEG", "fp32", 20, 160, 20, 65, 191},
    {"TNEG", "fp32", 20, 224, 20, 129, 211},
    {"TNEG", "fp32", 20, 672, 20, 577, 351},
    {"TNEG", "fp32", 20, 1312, 20, 1217, 583},
    {"TRECIP", "fp16", 1, 128, 1, 128, 72},
    {"TRECIP", "fp16", 1, 640, 1, 640, 87},
    {"TRECIP", "fp16", 1, 1280, 1, 1280, 104},
    {"TRECIP_HP", "fp16", 1, 128, 1, 128, 210},
    {"TRECIP_HP", "fp16", 1, 640, 1, 640, 878},
    {"TRECIP_HP", "fp16", 1, 1280, 1, 1280, 1723},
    {"TRECIP", "fp16", 3, 192, 3, 128, 78},
    {"TRECIP", "fp16", 3, 448, 3, 384, 103},
    {"TRECIP", "fp16", 3, 1344, 3, 1280, 184},
    {"TRECIP", "fp16", 10, 192, 10, 128, 103},
    {"TRECIP", "fp16", 10, 448, 10, 384, 184},
    {"TRECIP", "fp16", 10, 1344, 10, 1280, 464},
    {"TRECIP_HP", "fp16", 3, 192, 3, 128, 645},
    {"TRECIP_HP", "fp16", 3, 448, 3, 384, 1556},
    {"TRECIP_HP", "fp16", 3, 1344, 3, 1280, 5108},
    {"TRECIP_HP", "fp16", 10, 192, 10, 128, 1758},
    {"TRECIP_HP", "fp16", 10, 448, 10, 384, 5109},
    {"TRECIP_HP", "fp16", 10, 1344, 10, 1280, 16953},
    {"TRECIP", "fp32", 1, 640, 1, 640, 82},
    {"TRECIP_HP", "fp32", 1, 640, 1, 640, 3502},
    {"TRECIP", "fp32", 1, 64, 1, 64, 67},
    {"TRECIP", "fp32", 1, 192, 1, 192, 70},
    {"TRECIP", "fp32", 1, 320, 1, 320, 74},
    {"TRECIP", "fp32", 1, 640, 1, 640, 83},
    {"TRECIP", "fp32", 1, 1280, 1, 1280, 103},
    {"TRECIP_HP", "fp32", 1, 64, 1, 64, 401},
    {"TRECIP_HP", "fp32", 1, 192, 1, 192, 1078},
    {"TRECIP_HP", "fp32", 1, 320, 1, 320, 1771},
    {"TRECIP_HP", "fp32", 1, 640, 1, 640, 3504},
    {"TRECIP", "fp32", 1, 64, 1, 1, 67},
    {"TRECIP", "fp32", 1, 192, 1, 129, 70},
    {"TRECIP", "fp32", 1, 320, 1, 257, 74},
    {"TRECIP", "fp32", 1, 640, 1, 577, 83},
    {"TRECIP", "fp32", 1, 1280, 1, 1217, 103},
    {"TRECIP_HP", "fp32", 1, 64, 1, 1, 401},
    {"TRECIP_HP", "fp32", 1, 192, 1, 129, 1078},
    {"TRECIP_HP", "fp32", 1, 320, 1, 257, 1771},
    {"TRECIP_HP", "fp32", 1, 640, 1, 577, 3504},
    {"TRECIP", "fp32", 2, 160, 2, 128, 74},
    {"TRECIP", "fp32", 2, 224, 2, 192, 78},
    {"TRECIP", "fp32", 2, 672, 2, 640, 102},
    {"TRECIP", "fp32", 2, 1312, 2, 1280, 146},
    {"TRECIP", "fp32", 3, 160, 3, 128, 82},
    {"TRECIP", "fp32", 3, 224, 3, 192, 87},
    {"TRECIP", "fp32", 3, 672, 3, 640, 123},
    {"TRECIP", "fp32", 3, 1312, 3, 1280, 187},
    {"TRECIP", "fp32", 10, 160, 10, 128, 130},
    {"TRECIP", "fp32", 10, 224, 10, 192, 143},
    {"TRECIP", "fp32", 10, 672, 10, 640, 267},
    {"TRECIP", "fp32", 10, 1312, 10, 1280, 467},
    {"TRECIP", "fp32", 20, 160, 20, 128, 201},
    {"TRECIP", "fp32", 20, 224, 20, 192, 222},
    {"TRECIP", "fp32", 20, 672, 20, 640, 467},
    {"TRECIP", "fp32", 20, 1312, 20, 1280, 867},
    {"TRECIP_HP", "fp32", 2, 160, 2, 128, 1425},
    {"TRECIP_HP", "fp32", 2, 224, 2, 192, 2118},
    {"TRECIP_HP", "fp32", 2, 672, 2, 640, 6969},
    {"TRECIP_HP", "fp32", 3, 160, 3, 128, 2118},
    {"TRECIP_HP", "fp32", 3, 224, 3, 192, 3157},
    {"TRECIP_HP", "fp32", 3, 672, 3, 640, 10434},
    {"TRECIP_HP", "fp32", 10, 160, 10, 128, 6969},
    {"TRECIP_HP", "fp32", 10, 224, 10, 192, 10434},
    {"TRECIP_HP", "fp32", 10, 672, 10, 640, 34689},
    {"TRECIP", "fp32", 2, 160, 2, 65, 74},
    {"TRECIP", "fp32", 2, 224, 2, 129, 78},
    {"TRECIP", "fp32", 2, 672, 2, 577, 102},
    {"TRECIP", "fp32", 2, 1312, 2, 1217, 146},
    {"TRECIP", "fp32", 3, 160, 3, 65, 82},
    {"TRECIP", "fp32", 3, 224, 3, 129, 87},
    {"TRECIP", "fp32", 3, 672, 3, 577, 123},
    {"TRECIP", "fp32", 3, 1312, 3, 1217, 187},
    {"TRECIP", "fp32", 10, 160, 10, 65, 130},
    {"TRECIP", "fp32", 10, 224, 10, 129, 143},
    {"TRECIP", "fp32", 10, 672, 10, 577, 267},
    {"TRECIP", "fp32", 10, 1312, 10, 1217, 467},
    {"TRECIP", "fp32", 20, 160, 20, 65, 201},
    {"TRECIP", "fp32", 20, 224, 20, 129, 222},
    {"TRECIP", "fp32", 20, 672, 20, 577, 467},
    {"TRECIP", "fp32", 20, 1312, 20, 1217, 867},
    {"TRECIP_HP", "fp32", 2, 160, 2, 65, 1425},
    {"TRECIP_HP", "fp32", 2, 224, 2, 129, 2118},
    {"TRECIP_HP", "fp32", 2, 672, 2, 577, 6969},
    {"TRECIP_HP", "fp32", 3, 160, 3, 65, 2118},
    {"TRECIP_HP", "fp32", 3, 224, 3, 129, 3157},
    {"TRECIP_HP", "fp32", 3, 672, 3, 577, 10434},
    {"TRECIP_HP", "fp32", 10, 160, 10, 65, 6969},
    {"TRECIP_HP", "fp32", 10, 224, 10, 129, 10434},
    {"TRECIP_HP", "fp32", 10, 672, 10, 577, 34689},
};

template <class T, int R, int C>
std::uint64_t a5_row(const std::string& op, int vr, int vc) {
  LaunchReport r = launch({.blocks = 1, .target = Target::A5, .model_only = true}, [&]() -> Kernel {
    Dyn<T, R, C> t(vr, vc);
    TASSIGN(t, 0);
    const T k = T(3);
    if (op == "TADD") TADD(t, t, t);
    else if (op == "TSUB") TSUB(t, t, t);
    else if (op == "TMUL") TMUL(t, t, t);
    else if (op == "TEXP") TEXP(t, t);
    else if (op == "TSQRT") TSQRT(t, t);
    else if (op == "TRSQRT") TRSQRT(t, t);
    else if (op == "TRECIP") TRECIP(t, t);
    else if (op == "TRECIP_HP") TRECIP<RecipAlgorithm::HIGH_PRECISION>(t, t);
    else if (op == "TDIVS") TDIVS(t, t, k);
    else if (op == "TMINS") TMINS(t, t, k);
    else if (op == "TNEG") TNEG(t, t);
    co_return;
  });
  return r.cores[0].pipes[PIPE_V].busy_cycles;
}
std::uint64_t a5_model(const A5Row& row) {
  const std::string op = row.op;
  const bool f32 = std::strcmp(row.dtype, "fp32") == 0;
  if (row.rows == 1) return f32 ? a5_row<float, 1, 1344>(op, 1, row.valid_cols) : a5_row<half, 1, 1344>(op, 1, row.valid_cols);
  return f32 ? a5_row<float, 20, 1344>(op, row.valid_rows, row.valid_cols) : a5_row<half, 20, 1344>(op, row.valid_rows, row.valid_cols);
}

// pto-isa's A5 TCVT fit rows (CAST_RINT, saturation on) of the pairs without 4-bit types: one source
// and one destination tile, a one-row case on the 1-D loop, the others on the 2-D loop.
struct A5CvtRow {
  const char* src;
  const char* dst;
  int rows, cols, valid_rows, valid_cols;
  double profiling;
};
constexpr A5CvtRow kA5CvtRows[] = {
    {"bf16", "fp16", 1, 128, 1, 128, 54},
    {"bf16", "fp16", 1, 640, 1, 640, 60},
    {"bf16", "fp16", 1, 1280, 1, 1280, 65},
    {"bf16", "fp16", 3, 192, 3, 128, 58},
    {"bf16", "fp16", 3, 448, 3, 384, 75},
    {"bf16", "fp16", 3, 1344, 3, 1280, 95},
    {"bf16", "fp16", 10, 192, 10, 128, 65},
    {"bf16", "fp16", 10, 448, 10, 384, 131},
    {"bf16", "fp16", 10, 1344, 10, 1280, 193},
    {"bf16", "fp32", 1, 64, 1, 64, 81},
    {"bf16", "fp32", 1, 320, 1, 320, 73},
    {"bf16", "fp32", 1, 640, 1, 640, 65},
    {"bf16", "fp32", 3, 128, 3, 64, 59},
    {"bf16", "fp32", 3, 256, 3, 192, 75},
    {"bf16", "fp32", 3, 704, 3, 640, 95},
    {"bf16", "fp32", 10, 128, 10, 64, 66},
    {"bf16", "fp32", 10, 256, 10, 192, 131},
    {"bf16", "fp32", 10, 704, 10, 640, 193},
    {"fp16", "fp32", 1, 64, 1, 64, 81},
    {"fp16", "fp32", 1, 320, 1, 320, 73},
    {"fp16", "fp32", 1, 640, 1, 640, 65},
    {"fp16", "fp32", 3, 128, 3, 64, 59},
    {"fp16", "fp32", 3, 256, 3, 192, 75},
    {"fp16", "fp32", 3, 704, 3, 640, 95},
    {"fp16", "fp32", 10, 128, 10, 64, 66},
    {"fp16", "fp32", 10, 256, 10, 192, 131},
    {"fp16", "fp32", 10, 704, 10, 640, 193},
    {"fp16", "hif8", 1, 128, 1, 128, 54},
    {"fp16", "hif8", 1, 640, 1, 640, 61},
    {"fp16", "hif8", 1, 1280, 1, 1280, 66},
    {"fp16", "hif8", 3, 192, 3, 128, 58},
    {"fp16", "hif8", 3, 448, 3, 384, 76},
    {"fp16", "hif8", 3, 1344, 3, 1280, 96},
    {"fp16", "hif8", 10, 192, 10, 128, 65},
    {"fp16", "hif8", 10, 448, 10, 384, 132},
    {"fp16", "hif8", 10, 1344, 10, 1280, 194},
    {"fp32", "bf16", 1, 64, 1, 64, 53},
    {"fp32", "bf16", 1, 320, 1, 320, 60},
    {"fp32", "bf16", 1, 640, 1, 640, 65},
    {"fp32", "bf16", 3, 192, 3, 128, 64},
    {"fp32", "bf16", 3, 448, 3, 384, 83},
    {"fp32", "bf16", 3, 1344, 3, 1280, 127},
    {"fp32", "bf16", 10, 192, 10, 128, 78},
    {"fp32", "bf16", 10, 448, 10, 384, 146},
    {"fp32", "bf16", 10, 1344, 10, 1280, 288},
    {"fp32", "fp16", 1, 64, 1, 64, 53},
    {"fp32", "fp16", 1, 320, 1, 320, 60},
    {"fp32", "fp16", 1, 640, 1, 640, 65},
    {"fp32", "fp16", 3, 192, 3, 128, 64},
    {"fp32", "fp16", 3, 448, 3, 384, 83},
    {"fp32", "fp16", 3, 1344, 3, 1280, 127},
    {"fp32", "fp16", 10, 192, 10, 128, 78},
    {"fp32", "fp16", 10, 448, 10, 384, 146},
    {"fp32", "fp16", 10, 1344, 10, 1280, 288},
    {"fp32", "fp8_e4m3", 1, 64, 1, 64, 67},
    {"fp32", "fp8_e4m3", 1, 320, 1, 320, 118},
    {"fp32", "fp8_e4m3", 1, 640, 1, 640, 178},
    {"fp32", "fp8_e4m3", 3, 192, 3, 128, 97},
    {"fp32", "fp8_e4m3", 3, 448, 3, 384, 890},
    {"fp32", "fp8_e4m3", 3, 1344, 3, 1280, 2549},
    {"fp32", "fp8_e4m3", 10, 192, 10, 128, 181},
    {"fp32", "fp8_e4m3", 10, 448, 10, 384, 2829},
    {"fp32", "fp8_e4m3", 10, 1344, 10, 1280, 8359},
    {"fp32", "fp8_e5m2", 1, 64, 1, 64, 67},
    {"fp32", "fp8_e5m2", 1, 320, 1, 320, 118},
    {"fp32", "fp8_e5m2", 1, 640, 1, 640, 178},
    {"fp32", "fp8_e5m2", 3, 192, 3, 128, 97},
    {"fp32", "fp8_e5m2", 3, 448, 3, 384, 890},
    {"fp32", "fp8_e5m2", 3, 1344, 3, 1280, 2549},
    {"fp32", "fp8_e5m2", 10, 192, 10, 128, 181},
    {"fp32", "fp8_e5m2", 10, 448, 10, 384, 2829},
    {"fp32", "fp8_e5m2", 10, 1344, 10, 1280, 8359},
    {"fp32", "hif8", 1, 64, 1, 64, 67},
    {"fp32", "hif8", 1, 320, 1, 320, 118},
    {"fp32", "hif8", 1, 640, 1, 640, 178},
    {"fp32", "hif8", 3, 192, 3, 128, 97},
    {"fp32", "hif8", 3, 448, 3, 384, 890},
    {"fp32", "hif8", 3, 1344, 3, 1280, 2549},
    {"fp32", "hif8", 10, 192, 10, 128, 181},
    {"fp32", "hif8", 10, 448, 10, 384, 2829},
    {"fp32", "hif8", 10, 1344, 10, 1280, 8359},
    {"fp8_e4m3", "fp32", 1, 64, 1, 64, 92},
    {"fp8_e4m3", "fp32", 1, 320, 1, 320, 88},
    {"fp8_e4m3", "fp32", 1, 640, 1, 640, 126},
    {"fp8_e4m3", "fp32", 3, 128, 3, 64, 74},
    {"fp8_e4m3", "fp32", 3, 256, 3, 192, 110},
    {"fp8_e4m3", "fp32", 3, 704, 3, 640, 217},
    {"fp8_e4m3", "fp32", 10, 128, 10, 64, 96},
    {"fp8_e4m3", "fp32", 10, 256, 10, 192, 216},
    {"fp8_e4m3", "fp32", 10, 704, 10, 640, 567},
    {"fp8_e5m2", "fp32", 1, 64, 1, 64, 92},
    {"fp8_e5m2", "fp32", 1, 320, 1, 320, 88},
    {"fp8_e5m2", "fp32", 1, 640, 1, 640, 126},
    {"fp8_e5m2", "fp32", 3, 128, 3, 64, 74},
    {"fp8_e5m2", "fp32", 3, 256, 3, 192, 110},
    {"fp8_e5m2", "fp32", 3, 704, 3, 640, 217},
    {"fp8_e5m2", "fp32", 10, 128, 10, 64, 96},
    {"fp8_e5m2", "fp32", 10, 256, 10, 192, 216},
    {"fp8_e5m2", "fp32", 10, 704, 10, 640, 567},
    {"hif8", "fp32", 1, 64, 1, 64, 92},
    {"hif8", "fp32", 1, 320, 1, 320, 88},
    {"hif8", "fp32", 1, 640, 1, 640, 126},
    {"hif8", "fp32", 3, 128, 3, 64, 74},
    {"hif8", "fp32", 3, 256, 3, 192, 110},
    {"hif8", "fp32", 3, 704, 3, 640, 217},
    {"hif8", "fp32", 10, 128, 10, 64, 96},
    {"hif8", "fp32", 10, 256, 10, 192, 216},
    {"hif8", "fp32", 10, 704, 10, 640, 567},
};

template <class D, class S, int R>
std::uint64_t a5_cvt(int vr, int vc) {
  LaunchReport r = launch({.blocks = 1, .target = Target::A5, .model_only = true}, [&]() -> Kernel {
    Dyn<S, R, 1344> s(vr, vc);
    Dyn<D, R, 1344> d(vr, vc);
    TASSIGN(s, 0);
    TASSIGN(d, std::size_t(R) * 1344 * sizeof(S));
    TCVT(d, s, RoundMode::CAST_RINT);
    co_return;
  });
  return r.cores[0].pipes[PIPE_V].busy_cycles;
}
template <class D, class S>
std::uint64_t a5_cvt_row(const A5CvtRow& row) {
  return row.rows == 1 ? a5_cvt<D, S, 1>(1, row.valid_cols) : a5_cvt<D, S, 10>(row.valid_rows, row.valid_cols);
}
std::uint64_t a5_cvt_model(const A5CvtRow& row) {
  const std::string p = std::string(row.src) + "->" + row.dst;
  if (p == "bf16->fp16") return a5_cvt_row<half, bfloat16_t>(row);
  if (p == "bf16->fp32") return a5_cvt_row<float, bfloat16_t>(row);
  if (p == "fp16->fp32") return a5_cvt_row<float, half>(row);
  if (p == "fp16->hif8") return a5_cvt_row<hifloat8_t, half>(row);
  if (p == "fp32->bf16") return a5_cvt_row<bfloat16_t, float>(row);
  if (p == "fp32->fp16") return a5_cvt_row<half, float>(row);
  if (p == "fp32->fp8_e4m3") return a5_cvt_row<float8_e4m3_t, float>(row);
  if (p == "fp32->fp8_e5m2") return a5_cvt_row<float8_e5m2_t, float>(row);
  if (p == "fp32->hif8") return a5_cvt_row<hifloat8_t, float>(row);
  if (p == "fp8_e4m3->fp32") return a5_cvt_row<float, float8_e4m3_t>(row);
  if (p == "fp8_e5m2->fp32") return a5_cvt_row<float, float8_e5m2_t>(row);
  if (p == "hif8->fp32") return a5_cvt_row<float, hifloat8_t>(row);
  detail::fail("bench_fidelity: no kernel for TCVT ", p);
}
}  // namespace

int main(int argc, char** argv) {
  const bool a5_rows = argc > 1 && std::strcmp(argv[1], "--a5-rows") == 0;  // every A5 row, not only the summary
  struct Tally {
    int run = 0, within = 0, skipped = 0;
  };
  Tally all, vec, dm, checked;
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
    const bool checks = !unchecked(c.name);
    std::printf("%-46s %10.0f %10llu %+7.1f%%%s%s\n", c.name, c.hardware, static_cast<unsigned long long>(m), 100 * err, ok ? "" : "  *",
                checks ? "" : "  (unchecked in pto-isa)");
    ++g.run, ++all.run;
    if (ok) ++g.within, ++all.within;
    if (checks) ++checked.run, checked.within += ok;
  }
  auto line = [](const char* what, const Tally& t) {
    std::printf("%-14s %3d of %3d cases within 10%% (%.0f%%); %d not run\n", what, t.within, t.run,
                t.run ? 100.0 * t.within / t.run : 0.0, t.skipped);
  };
  std::printf("\n");
  line("vector", vec);
  line("data movement", dm);
  line("all", all);
  std::printf("%-14s %3d of %3d cases within 10%% (%.0f%%): the cases pto-isa's test checks (accuracy > 0)\n", "checked", checked.within,
              checked.run, checked.run ? 100.0 * checked.within / checked.run : 0.0);
  std::printf("(* more than 10%% off)\n\n");

  // A5: per instruction and dtype, the share of rows within 10% and the worst error.
  struct A5Tally {
    int run = 0, within = 0;
    double worst = 0;
  };
  std::vector<std::pair<std::string, A5Tally>> groups;
  A5Tally a5all;
  auto tally = [&](const std::string& key, double m, double profiling) {
    const double err = (m - profiling) / profiling;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
    if (it == groups.end()) it = groups.insert(groups.end(), {key, {}});
    for (A5Tally* t : {&it->second, &a5all}) {
      ++t->run;
      t->within += std::fabs(err) <= 0.10;
      if (std::fabs(err) > std::fabs(t->worst)) t->worst = err;
    }
  };
  auto shape = [](int r, int c, int vr, int vc) { return std::to_string(r) + "x" + std::to_string(c) + " valid " + std::to_string(vr) + "x" + std::to_string(vc); };
  for (const A5Row& row : kA5Rows) {
    const double m = double(a5_model(row));
    if (a5_rows) std::printf("A5 %-8s %-5s %-24s %6.0f %6.0f\n", row.op, row.dtype, shape(row.rows, row.cols, row.valid_rows, row.valid_cols).c_str(), row.profiling, m);
    tally(std::string(row.op) + " " + row.dtype, m, row.profiling);
  }
  for (const A5CvtRow& row : kA5CvtRows) {
    const std::string pair = std::string(row.src) + "->" + row.dst;
    const double m = double(a5_cvt_model(row));
    if (a5_rows) std::printf("A5 TCVT %-14s %-24s %6.0f %6.0f\n", pair.c_str(), shape(row.rows, row.cols, row.valid_rows, row.valid_cols).c_str(), row.profiling, m);
    tally("TCVT " + pair, m, row.profiling);
  }
  std::printf("%-22s %10s %12s\n", "A5 (pto-isa st_a5_fit)", "within 10%", "worst error");
  for (const auto& [key, t] : groups) std::printf("%-22s %4d of %3d %+11.1f%%\n", key.c_str(), t.within, t.run, 100 * t.worst);
  std::printf("%-22s %4d of %3d (%.0f%%) %+7.1f%%\n", "A5 all", a5all.within, a5all.run, 100.0 * a5all.within / a5all.run, 100 * a5all.worst);
  return 0;
}
