// TQUANT (INT8 SYM / ASYM) and TDEQUANT: pto-isa's NPU test shapes (tests/npu/a2a3/src/st/testcase/tquant,
// tdequant; the a5 suites' too), written as its kernels are (TLOAD of src and the ColMajor parameter
// columns, MTE2 -> V, the instruction, V -> MTE3, TSTORE), on both targets, with values past int8's
// range, NaN, infinities and the .5 ties added to the generator's uniform data. References are computed
// here from the ISA's definitions: q = clamp(round-half-even(float(x * scale) [+ offset])), NaN -> 0;
// x = (float(q) - offset) * scale. A2A3's in-place chain is checked too: src afterwards holds the
// scaled values with the fp16 codes of the rounded ones over them, as its NPU code leaves it.
#define BOOST_TEST_MODULE quant
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

#include "element_ref.hpp"

using namespace pto;
using pto_test::contains;
using pto_test::error_of;

namespace {
constexpr int ceil_to(int x, int m) { return (x + m - 1) / m * m; }

// The generator's data (uniform in [-2, 2)) with the edge values on row 0 and the per-row parameters
// of its gen_data.py: scale = 127 / max|x| (SYM), 255 / (max - min) and a zero point (ASYM).
struct Int8Case {
  std::vector<float> src, scale, offset;
};
Int8Case make_int8(int R, int C, bool asym, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  Int8Case k;
  k.src.resize(std::size_t(R) * C);
  for (auto& v : k.src) v = u(g);
  const float edges[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                         -std::numeric_limits<float>::infinity(), 1e30f, -1e30f, 3e9f};
  for (int c = 0; c < C && c < 6; ++c) k.src[std::size_t(c)] = edges[c];
  k.scale.resize(std::size_t(R));
  k.offset.resize(std::size_t(R));
  for (int r = 0; r < R; ++r) {
    float mx = 0, lo = 2, hi = -2;
    for (int c = 0; c < C; ++c) {
      const float v = k.src[std::size_t(r) * C + c];
      if (!std::isfinite(v) || std::fabs(v) > 2) continue;
      mx = std::max(mx, std::fabs(v)), lo = std::min(lo, v), hi = std::max(hi, v);
    }
    k.scale[std::size_t(r)] = asym ? 255.0f / (hi - lo) : 127.0f / mx;
    k.offset[std::size_t(r)] = asym ? std::nearbyint(-lo * k.scale[std::size_t(r)]) : 0.0f;
  }
  // Row 1 (when there is one): scale 1 and the halves, so round-half-even decides.
  if (R > 1) {
    k.scale[1] = 1.0f;
    k.offset[1] = asym ? 100.0f : 0.0f;
    for (int c = 0; c < C; ++c) k.src[std::size_t(C) + c] = float(c % 16) * 0.5f - 4.0f;
  }
  return k;
}

double rint_half_even(double v) { return std::nearbyint(v); }  // the default rounding mode: to nearest, ties even

template <bool Asym, int R, int C>
void check_int8(Target tg, unsigned seed) {
  using Q = std::conditional_t<Asym, std::uint8_t, std::int8_t>;
  static constexpr int CP = ceil_to(C, 8), CQ = ceil_to(C, 32), RP = ceil_to(R, 8);  // static: clang 14 would make the kernel lambda capture it
  const Int8Case k = make_int8(R, C, Asym, seed);
  std::vector<Q> out(R * std::size_t(C), Q(0x5a));
  std::vector<float> src_after(R * std::size_t(CP), 0.0f);
  launch({.target = tg}, [](const float* s, const float* sc, const float* of, Q* o, float* sa) {
    GlobalTensor<float, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>> sg(const_cast<float*>(s));
    GlobalTensor<float, Shape<1, 1, 1, R, 1>, pto::Stride<1, 1, 1, 1, 1>, Layout::DN> scg(const_cast<float*>(sc)),
        ofg(const_cast<float*>(of));
    GlobalTensor<Q, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>> og(o);
    GlobalTensor<float, Shape<1, 1, 1, R, CP>, pto::Stride<1, 1, 1, CP, 1>> sag(sa);
    Tile<TileType::Vec, float, R, CP, BLayout::RowMajor, -1, -1> st(R, C), whole(R, CP), tmp(R, C);
    Tile<TileType::Vec, Q, R, CQ, BLayout::RowMajor, -1, -1> dt(R, C);
    Tile<TileType::Vec, float, RP, 1, BLayout::ColMajor, -1, -1> scale(R, 1), offset(R, 1);
    TASSIGN(st, 0x0), TASSIGN(whole, 0x0), TASSIGN(tmp, 0x10000), TASSIGN(dt, 0x20000);
    TASSIGN(offset, 0x28000), TASSIGN(scale, 0x29000);
    TLOAD(st, sg);
    TLOAD(scale, scg);
    if (Asym) TLOAD(offset, ofg);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    if constexpr (Asym) TQUANT<QuantType::INT8_ASYM>(dt, st, scale, tmp, &offset);
    else TQUANT<QuantType::INT8_SYM>(dt, st, scale, tmp);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(og, dt);
    TSTORE(sag, whole);
  }, k.src, k.scale, k.offset, out, src_after);
  std::vector<Q> want(out.size());
  std::vector<float> want_src(src_after.size(), 0.0f);
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      float v = k.src[std::size_t(r) * C + c] * k.scale[std::size_t(r)];
      if (Asym) v = v + k.offset[std::size_t(r)];
      want_src[std::size_t(r) * CP + c] = v;
      const double q = std::isnan(v) ? 0.0 : rint_half_even(double(v));
      want[std::size_t(r) * C + c] = Q(std::clamp(q, Asym ? 0.0 : -128.0, Asym ? 255.0 : 127.0));
    }
  if (tg == Target::A2A3) {  // the fp16 codes of the int32s over src's bytes, ceil(Cols/16)*16 halves a row
    auto* bytes = reinterpret_cast<unsigned char*>(want_src.data());
    const int pad = ceil_to(CP, 16);
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < C; ++c) {
        const float v = want_src[std::size_t(r) * CP + c];
        double i = std::isnan(v) ? 0.0 : rint_half_even(double(v));
        // through an integer (no -0: a small negative v gives +0's code), then int32 -> fp16 (past 65504: inf)
        const auto n = std::int64_t(std::clamp(i, -2147483648.0, 2147483647.0));
        const half h = half(float(n));
        std::memcpy(bytes + (std::size_t(r) * pad + std::size_t(c)) * 2, &h, 2);
      }
  } else {
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < C; ++c) want_src[std::size_t(r) * CP + c] = k.src[std::size_t(r) * C + c];
  }
  BOOST_TEST_CONTEXT("TQUANT<" << (Asym ? "INT8_ASYM" : "INT8_SYM") << "> " << name_of(tg) << ' ' << R << 'x' << C) {
    BOOST_TEST(std::memcmp(out.data(), want.data(), out.size()) == 0);
    // src afterwards, its valid columns (the A2A3 fp16 rows also reach into pad columns TLOAD left alone)
    bool same = true;
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < C; ++c) {
        const std::size_t i = std::size_t(r) * CP + c;
        same = same && std::memcmp(&src_after[i], &want_src[i], 4) == 0;
      }
    BOOST_TEST(same);
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(tquant_int8_rounds_half_even_and_saturates) {
  for (Target tg : {Target::A2A3, Target::A5}) {
    check_int8<false, 64, 128>(tg, 1);
    check_int8<false, 128, 128>(tg, 2);
    check_int8<false, 2, 129>(tg, 3);
    check_int8<false, 2, 122>(tg, 4);
    check_int8<false, 16, 127>(tg, 5);
    check_int8<false, 8, 130>(tg, 6);
    check_int8<false, 64, 65>(tg, 7);
    check_int8<true, 64, 128>(tg, 8);
    check_int8<true, 128, 128>(tg, 9);
    check_int8<true, 2, 129>(tg, 10);
    check_int8<true, 16, 127>(tg, 11);
    check_int8<true, 64, 65>(tg, 12);
  }
}

BOOST_AUTO_TEST_CASE(tquant_int8_without_tmp_runs_on_a5) {
  std::vector<float> s(16 * 32), sc(16, 10.0f);
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = float(int(i % 41) - 20) * 0.37f;
  std::vector<std::int8_t> o(s.size());
  launch({.target = Target::A5}, [](const float* x, const float* k, std::int8_t* q) {
    GlobalTensor<float, Shape<1, 1, 1, 16, 32>, pto::Stride<1, 1, 1, 32, 1>> xg(const_cast<float*>(x));
    GlobalTensor<float, Shape<1, 1, 1, 16, 1>, pto::Stride<1, 1, 1, 1, 1>, Layout::DN> kg(const_cast<float*>(k));
    GlobalTensor<std::int8_t, Shape<1, 1, 1, 16, 32>, pto::Stride<1, 1, 1, 32, 1>> qg(q);
    Tile<TileType::Vec, float, 16, 32> xt;
    Tile<TileType::Vec, std::int8_t, 16, 32> qt;
    Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor> kt;
    TASSIGN(xt, 0), TASSIGN(qt, 0x8000), TASSIGN(kt, 0x9000);
    TLOAD(xt, xg);
    TLOAD(kt, kg);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TQUANT<QuantType::INT8_SYM>(qt, xt, kt);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(qg, qt);
  }, s, sc, o);
  bool ok = true;
  for (std::size_t i = 0; i < s.size(); ++i)
    ok = ok && o[i] == std::int8_t(std::clamp(std::nearbyint(double(s[i] * 10.0f)), -128.0, 127.0));
  BOOST_TEST(ok);
}

// ---- TDEQUANT ------------------------------------------------------------------------------------------
namespace {
template <class S, int R, int C>
void check_dequant(Target tg, int vr, int vc, unsigned seed) {
  static constexpr int CP = ceil_to(C, 32 / int(sizeof(S))), RP = ceil_to(R, 8);  // static: clang 14 would make the kernel lambda capture it
  std::mt19937 g(seed);
  std::vector<S> src(R * std::size_t(C));
  for (auto& v : src) v = S(int(g() % 65536) - 32768);
  if (sizeof(S) == 1) src[0] = S(-128), src[1] = S(127);
  std::vector<float> scale(R), offset(R);
  for (int r = 0; r < R; ++r) scale[std::size_t(r)] = float(g() % 1000) / 997.0f + 1e-3f, offset[std::size_t(r)] = float(int(g() % 21) - 10) + 0.25f;
  std::vector<float> out(R * std::size_t(C), -7.0f);
  launch({.target = tg}, [vr, vc](const S* s, const float* k, const float* z, float* o) {
    using DS = Shape<1, 1, 1, -1, -1>;
    using DT = pto::Stride<1, 1, -1, -1, 1>;
    GlobalTensor<S, DS, DT> sg(const_cast<S*>(s), DS(vr, vc), DT(R, C));
    GlobalTensor<float, DS, DT> og(o, DS(vr, vc), DT(R, C));
    GlobalTensor<float, DS, DT, Layout::DN> kg(const_cast<float*>(k), DS(vr, 1), DT(R, 1)), zg(const_cast<float*>(z), DS(vr, 1), DT(R, 1));
    Tile<TileType::Vec, S, R, CP, BLayout::RowMajor, -1, -1> st(vr, vc);
    Tile<TileType::Vec, float, R, CP, BLayout::RowMajor, -1, -1> dt(vr, vc);
    Tile<TileType::Vec, float, RP, 1, BLayout::ColMajor, -1, -1> kt(vr, 1), zt(vr, 1);
    TASSIGN(st, 0x0), TASSIGN(dt, 0x10000), TASSIGN(kt, 0x2c000), TASSIGN(zt, 0x2d000);
    TLOAD(st, sg);
    TLOAD(kt, kg);
    TLOAD(zt, zg);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TDEQUANT(dt, st, kt, zt);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(og, dt);
  }, src, scale, offset, out);
  std::vector<float> want(out.size(), -7.0f);
  for (int r = 0; r < vr; ++r)
    for (int c = 0; c < vc; ++c) {
      // (q - offset) * scale, each step rounded to float: the difference is exact in double, then one rounding each
      const float d = float(double(src[std::size_t(r) * C + c]) - double(offset[std::size_t(r)]));
      want[std::size_t(r) * C + c] = float(double(d) * double(scale[std::size_t(r)]));
    }
  BOOST_TEST_CONTEXT("TDEQUANT " << name_of(dtype_v<S>) << ' ' << name_of(tg) << ' ' << vr << 'x' << vc << " of " << R << 'x' << C) {
    BOOST_TEST(std::memcmp(out.data(), want.data(), out.size() * 4) == 0);
  }
}
// pto-isa's a2a3 suite writes the parameters as RowMajor tiles of PR x PC (one value at the head of each
// row, loaded from an ND column of stride PC) and dst and src of different static shapes.
template <class S, int DR, int DC, int SR, int SC, int VR, int VC, int PR, int PC>
void check_dequant_rowmajor_para(Target tg) {
  std::mt19937 g(DR * 7 + VC);
  std::vector<S> src(VR * std::size_t(DC));
  for (auto& v : src) v = S(int(g() % 65536) - 32768);
  std::vector<float> k(VR * std::size_t(PC)), z(VR * std::size_t(PC)), out(VR * std::size_t(DC), -7.0f);
  for (auto& v : k) v = float(g() % 1000) / 997.0f;
  for (auto& v : z) v = float(int(g() % 21) - 10) + 0.25f;
  launch({.target = tg}, [](const S* s, const float* kp, const float* zp, float* o) {
    GlobalTensor<float, Shape<1, 1, 1, VR, VC>, pto::Stride<1, 1, 1, DC, 1>> og(o);
    GlobalTensor<S, Shape<1, 1, 1, VR, VC>, pto::Stride<1, 1, 1, DC, 1>> sg(const_cast<S*>(s));
    GlobalTensor<float, Shape<1, 1, 1, VR, 1>, pto::Stride<1, 1, 1, PC, 1>> kg(const_cast<float*>(kp)), zg(const_cast<float*>(zp));
    Tile<TileType::Vec, float, DR, DC, BLayout::RowMajor, -1, -1> dt(VR, VC);
    Tile<TileType::Vec, S, SR, SC, BLayout::RowMajor, -1, -1> st(VR, VC);
    Tile<TileType::Vec, float, PR, PC, BLayout::RowMajor, -1, -1> kt(VR, 1), zt(VR, 1);
    constexpr std::size_t d = DR * std::size_t(DC) * 4, sb = SR * std::size_t(SC) * sizeof(S), pb = PR * std::size_t(PC) * 4;
    TASSIGN(dt, 0), TASSIGN(st, d), TASSIGN(kt, d + sb), TASSIGN(zt, d + sb + pb);
    TLOAD(st, sg);
    TLOAD(kt, kg);
    TLOAD(zt, zg);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TDEQUANT(dt, st, kt, zt);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(og, dt);
  }, src, k, z, out);
  int bad = 0;
  for (int r = 0; r < VR; ++r)
    for (int c = 0; c < VC; ++c) {
      const float d = float(double(src[std::size_t(r) * DC + c]) - double(z[std::size_t(r) * PC]));
      bad += out[std::size_t(r) * DC + c] != float(double(d) * double(k[std::size_t(r) * PC]));
    }
  BOOST_TEST(bad == 0, "TDEQUANT RowMajor para " << name_of(tg) << ' ' << VR << 'x' << VC << ": " << bad << " mismatches");
}
}  // namespace

BOOST_AUTO_TEST_CASE(tdequant_subtracts_the_offset_then_scales) {
  for (Target tg : {Target::A2A3, Target::A5}) {
    check_dequant<std::int16_t, 64, 64>(tg, 64, 64, 1);
    check_dequant<std::int8_t, 64, 64>(tg, 64, 64, 2);
    check_dequant<std::int16_t, 16, 200>(tg, 13, 187, 3);
    check_dequant<std::int8_t, 8, 96>(tg, 5, 70, 4);
    check_dequant_rowmajor_para<std::int8_t, 64, 128, 32, 128, 31, 62, 48, 32>(tg);
    check_dequant_rowmajor_para<std::int16_t, 4, 256, 4, 256, 4, 255, 4, 16>(tg);
  }
}

BOOST_AUTO_TEST_CASE(quant_errors_name_the_instruction_the_operand_and_the_rule) {
  using F = Tile<TileType::Vec, float, 16, 64, BLayout::RowMajor, -1, -1>;
  using Q = Tile<TileType::Vec, std::int8_t, 16, 64, BLayout::RowMajor, -1, -1>;
  using P = Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor, -1, -1>;
  auto run = [](Target tg, int src_rows, int scale_rows, int dst_cols, bool with_tmp, int tmp_rows) {
    return error_of([=] {
      launch({.target = tg}, [=] {
        F s(src_rows, 64), t(tmp_rows, 64);
        Q d(src_rows, dst_cols);
        P k(scale_rows, 1);
        TASSIGN(s, 0), TASSIGN(d, 0x8000), TASSIGN(k, 0x9000), TASSIGN(t, 0x10000);
        if (with_tmp) TQUANT<QuantType::INT8_SYM>(d, s, k, t);
        else TQUANT<QuantType::INT8_SYM>(d, s, k);
      });
    });
  };
  std::string e = run(Target::A2A3, 16, 16, 64, false, 16);
  BOOST_TEST((contains(e, "TQUANT: A2A3 needs the tmp form") && contains(e, "float tmp of src's size")), e);
  e = run(Target::A5, 16, 8, 64, true, 16);
  BOOST_TEST((contains(e, "TQUANT: operand scale") && contains(e, "one value per valid row of src: valid shape 16")), e);
  e = run(Target::A2A3, 16, 16, 60, true, 16);
  BOOST_TEST((contains(e, "TQUANT: operand dst") && contains(e, "same valid shape as operand src")), e);
  // The tmp tile is the chip's int32 copy of src: 16 rows of 64 columns, 4096 bytes; 8 rows hold 2048.
  // (Its Rows are the capacity: a tile of fewer rows.)
  const std::string e2 = error_of([] {
    launch({.target = Target::A2A3}, [] {
      F s(16, 64);
      Q d(16, 64);
      P k(16, 1);
      Tile<TileType::Vec, float, 8, 64> t;
      TASSIGN(s, 0), TASSIGN(d, 0x8000), TASSIGN(k, 0x9000), TASSIGN(t, 0x10000);
      TQUANT<QuantType::INT8_SYM>(d, s, k, t);
    });
  });
  BOOST_TEST((contains(e2, "TQUANT: operand tmp") && contains(e2, "holds 2048 bytes; A2A3 writes 4096")), e2);
  const std::string e3 = error_of([] {
    launch({.target = Target::A5}, [] {
      F s(16, 64);
      Tile<TileType::Vec, std::uint8_t, 16, 64, BLayout::RowMajor, -1, -1> d(16, 64);
      P k(16, 1);
      TASSIGN(s, 0), TASSIGN(d, 0x8000), TASSIGN(k, 0x9000);
      TQUANT<QuantType::INT8_ASYM>(d, s, k);
    });
  });
  BOOST_TEST(contains(e3, "TQUANT: INT8_ASYM needs an offset tile"), e3);
  const std::string e3b = error_of([] {
    launch({.target = Target::A5}, [] {
      F s(16, 64);
      Q d(16, 64);
      P k(16, 1), z(16, 1);
      TASSIGN(s, 0), TASSIGN(d, 0x8000), TASSIGN(k, 0x9000), TASSIGN(z, 0xa000);
      TQUANT<QuantType::INT8_SYM>(d, s, k, &z);
    });
  });
  BOOST_TEST(contains(e3b, "TQUANT: INT8_SYM takes no offset"), e3b);
  const std::string e4 = error_of([] {
    launch({.target = Target::A2A3}, [] {
      Tile<TileType::Vec, float, 16, 64, BLayout::RowMajor, -1, -1> d(16, 64);
      Tile<TileType::Vec, std::int16_t, 16, 64, BLayout::RowMajor, -1, -1> s(16, 64);
      P k(16, 1), z(12, 1);
      TASSIGN(s, 0), TASSIGN(d, 0x8000), TASSIGN(k, 0xc000), TASSIGN(z, 0xd000);
      TDEQUANT(d, s, k, z);
    });
  });
  BOOST_TEST((contains(e4, "TDEQUANT: operand offset") && contains(e4, "one value per valid row")), e4);
  // the MX forms: A5 only; NV with a one-row exp tile on the MXFP4 path; a dst too small for the codes
  auto mx = [](Target tg, auto fp4, auto exp_rows, int dst_cols) {
    return error_of([=] {
      launch({.target = tg}, [=] {
        constexpr bool four = decltype(fp4)::value;
        constexpr int ER = decltype(exp_rows)::value;
        using S = std::conditional_t<four, bfloat16_t, float>;
        using D = std::conditional_t<four, float4_e2m1x2_t, std::int8_t>;
        Tile<TileType::Vec, S, 4, 64> s;
        Tile<TileType::Vec, D, 4, 64, BLayout::RowMajor, -1, -1> d(4, dst_cols);
        Tile<TileType::Vec, std::uint8_t, ER, 32> e;
        Tile<TileType::Vec, S, 1, 64> m, k;
        TASSIGN(s, 0), TASSIGN(d, 0x1000), TASSIGN(e, 0x2000), TASSIGN(m, 0x3000), TASSIGN(k, 0x4000);
        if constexpr (four) TQUANT<QuantType::MXFP4_E2M1, decltype(d), decltype(s), decltype(e), decltype(m), decltype(k), QuantScaleAlg::NV>(d, s, &e, &m, &k);
        else TQUANT<QuantType::MXFP8>(d, s, &e, &m, &k);
      });
    });
  };
  using Fp8 = std::false_type;
  using Fp4 = std::true_type;
  using One = std::integral_constant<int, 1>;
  using Four = std::integral_constant<int, 4>;
  e = mx(Target::A2A3, Fp8{}, One{}, 64);
  BOOST_TEST(contains(e, "TQUANT: the MX forms (MXFP8, MXFP4_E2M1) exist on A5 only"), e);
  e = mx(Target::A5, Fp4{}, One{}, 64);
  BOOST_TEST((contains(e, "TQUANT: operand exp has one row") && contains(e, "NV needs an exp tile of several rows")), e);
  e = mx(Target::A5, Fp4{}, Four{}, 32);
  BOOST_TEST(e == "no pto::Error", e);  // the same with an exp row per row of src
  // dst of 4 rows of 32 bytes (a flat capacity of 128): e4m3 codes of 4 rows of 64 columns need 256
  e = error_of([] {
    launch({.target = Target::A5}, [] {
      Tile<TileType::Vec, float, 4, 64> s;
      Tile<TileType::Vec, std::int8_t, 4, 32> d;
      Tile<TileType::Vec, std::uint8_t, 1, 32> x;
      Tile<TileType::Vec, float, 1, 64> m, k;
      TASSIGN(s, 0), TASSIGN(d, 0x1000), TASSIGN(x, 0x2000), TASSIGN(m, 0x3000), TASSIGN(k, 0x4000);
      TQUANT<QuantType::MXFP8>(d, s, &x, &m, &k);
    });
  });
  BOOST_TEST((contains(e, "TQUANT: operand dst") && contains(e, "holds 128 bytes; the chip writes 256 there")), e);
  // the per-row exp path needs a row per valid row of src; max and scaling one element per group
  e = error_of([] {
    launch({.target = Target::A5}, [] {
      Tile<TileType::Vec, float, 4, 128> s;
      Tile<TileType::Vec, std::int8_t, 4, 128> d;
      Tile<TileType::Vec, std::uint8_t, 2, 32> x;
      Tile<TileType::Vec, float, 1, 64> m, k;
      TASSIGN(s, 0), TASSIGN(d, 0x1000), TASSIGN(x, 0x2000), TASSIGN(m, 0x3000), TASSIGN(k, 0x4000);
      TQUANT<QuantType::MXFP8>(d, s, &x, &m, &k);
    });
  });
  BOOST_TEST((contains(e, "TQUANT: operand exp") && contains(e, "a row per valid row of src and a byte per group: at least 4x4")), e);
  e = error_of([] {
    launch({.target = Target::A5}, [] {
      Tile<TileType::Vec, float, 4, 128> s;
      Tile<TileType::Vec, std::int8_t, 4, 128> d;
      Tile<TileType::Vec, std::uint8_t, 1, 32> x;
      Tile<TileType::Vec, float, 1, 8> m, k;
      TASSIGN(s, 0), TASSIGN(d, 0x1000), TASSIGN(x, 0x2000), TASSIGN(m, 0x3000), TASSIGN(k, 0x4000);
      TQUANT<QuantType::MXFP8>(d, s, &x, &m, &k);
    });
  });
  BOOST_TEST((contains(e, "TQUANT: operand max") && contains(e, "holds 32 bytes; the chip writes 64 there")), e);
}

// Modeled cycles (deterministic; pto-isa's cost-model tests have no TQUANT or TDEQUANT figure). A2A3
// runs a chain of five instructions' streams with barriers between; A5 one vector-function loop.
// A2A3's TDEQUANT reads each row's parameters through a V -> S -> V round trip, so it grows per row.
BOOST_AUTO_TEST_CASE(modeled_cycles_follow_the_chips_streams) {
  auto cycles = [](Target tg, auto body) {
    return launch({.target = tg, .model_only = true}, [&] { body(); }).cores[0].pipes[PIPE_V].busy_cycles;
  };
  auto quant = [&](Target tg, auto rows) {
    static constexpr int R = decltype(rows)::value;  // static: clang 14 would make the kernel lambda capture it
    return cycles(tg, [] {
      Tile<TileType::Vec, float, R, 128> s, t;
      Tile<TileType::Vec, std::int8_t, R, 128> d;
      Tile<TileType::Vec, float, R, 1, BLayout::ColMajor> k;
      TASSIGN(s, 0), TASSIGN(t, 0x8000), TASSIGN(d, 0x10000), TASSIGN(k, 0x12000);
      TQUANT<QuantType::INT8_SYM>(d, s, k, t);
    });
  };
  auto dequant = [&](Target tg, auto rows) {
    static constexpr int R = decltype(rows)::value;  // static: clang 14 would make the kernel lambda capture it
    return cycles(tg, [] {
      Tile<TileType::Vec, std::int8_t, R, 128> s;
      Tile<TileType::Vec, float, R, 128> d;
      Tile<TileType::Vec, float, R, 1, BLayout::ColMajor> k, z;
      TASSIGN(s, 0), TASSIGN(d, 0x8000), TASSIGN(k, 0x10000), TASSIGN(z, 0x11000);
      TDEQUANT(d, s, k, z);
    });
  };
  using R8 = std::integral_constant<int, 8>;
  using R16 = std::integral_constant<int, 16>;
  using R64 = std::integral_constant<int, 64>;
  using R128 = std::integral_constant<int, 128>;
  for (Target tg : {Target::A2A3, Target::A5}) {
    const auto q8 = quant(tg, R8{}), q16 = quant(tg, R16{}), d8 = dequant(tg, R8{}), d16 = dequant(tg, R16{});
    BOOST_TEST_MESSAGE(name_of(tg) << " TQUANT<INT8_SYM> f32 8x128: " << q8 << " cycles, 16x128: " << q16
                                   << "; TDEQUANT int8 8x128: " << d8 << ", 16x128: " << d16);
    BOOST_TEST(q16 > q8);
    BOOST_TEST(d16 > d8);
  }
  // A2A3's TDEQUANT: two round trips of 13 cycles for each row at least
  BOOST_TEST(dequant(Target::A2A3, R16{}) - dequant(Target::A2A3, R8{}) >= 8u * 2u * 13u);
  BOOST_TEST(quant(Target::A5, R16{}) < quant(Target::A2A3, R16{}));
  // A5's MX forms: NV's exponent rule costs more than OCP's; fp16 -> e2m1 rounds in software (the
  // widest stream), bf16 -> e2m1 on the converter
  auto mx = [&](auto src, auto fp4, auto nv) {
    using S = decltype(src);
    constexpr bool four = decltype(fp4)::value;
    constexpr QuantScaleAlg A = decltype(nv)::value ? QuantScaleAlg::NV : QuantScaleAlg::OCP;
    return cycles(Target::A5, [] {
      using D = std::conditional_t<four, float4_e2m1x2_t, std::int8_t>;
      Tile<TileType::Vec, S, 64, 128> s;
      Tile<TileType::Vec, D, 64, 128> d;
      Tile<TileType::Vec, std::uint8_t, 64, 32> e;
      Tile<TileType::Vec, S, 1, 512> m, k;
      TASSIGN(s, 0), TASSIGN(d, 0x8000), TASSIGN(e, 0xc000), TASSIGN(m, 0xd000), TASSIGN(k, 0xe000);
      TQUANT<four ? QuantType::MXFP4_E2M1 : QuantType::MXFP8, decltype(d), decltype(s), decltype(e), decltype(m), decltype(k), A>(d, s, &e, &m, &k);
    });
  };
  using No = std::false_type;
  using Yes = std::true_type;
  const auto f32_ocp = mx(float{}, No{}, No{}), f32_nv = mx(float{}, No{}, Yes{}), bf_fp8 = mx(bfloat16_t{}, No{}, No{}),
             bf_fp4 = mx(bfloat16_t{}, Yes{}, No{}), h_fp4 = mx(half{}, Yes{}, No{});
  BOOST_TEST_MESSAGE("A5 TQUANT MX 64x128 (exp 64x32): MXFP8 f32 OCP " << f32_ocp << " cycles, NV " << f32_nv << "; bf16 MXFP8 "
                     << bf_fp8 << ", MXFP4 " << bf_fp4 << "; half MXFP4 " << h_fp4);
  BOOST_TEST(f32_nv > f32_ocp);
  BOOST_TEST(h_fp4 > bf_fp4);
  // The DN grouping, bf16 MXFP8 OCP over 128 columns: its passes run per group of 32 rows, so twice
  // the rows cost about twice the cycles; the interleaved store trades a store per two groups for a
  // vshl and a vor
  auto dn = [&](auto rows, auto inter) {
    static constexpr int R = decltype(rows)::value;  // static: clang 14 would make the kernel lambda capture it
    static constexpr bool I = decltype(inter)::value;  // static: clang 14 would make the kernel lambda capture it
    return cycles(Target::A5, [] {
      Tile<TileType::Vec, bfloat16_t, R, 128> s;
      Tile<TileType::Vec, std::int8_t, R, 128> d;
      Tile<TileType::Vec, std::uint8_t, I ? R / 64 : R / 32, I ? 256 : 128> e;
      Tile<TileType::Vec, bfloat16_t, R / 32, 128> m, k;
      TASSIGN(s, 0), TASSIGN(d, 0x10000), TASSIGN(e, 0x18000), TASSIGN(m, 0x19000), TASSIGN(k, 0x1a000);
      TQUANT<0, MxQuantAlg::OcpMxFp8E4M3, I>(d, s, &e, &m, &k);
    });
  };
  const auto dn64 = dn(R64{}, No{}), dn128 = dn(R128{}, No{}), dn128i = dn(R128{}, Yes{});
  BOOST_TEST_MESSAGE("A5 TQUANT<0> (DN) bf16 MXFP8 OCP x128: 64 rows " << dn64 << " cycles, 128 rows " << dn128
                     << ", 128 rows interleaved " << dn128i);
  BOOST_TEST(dn128 * 10 >= dn64 * 18);
  BOOST_TEST(dn128 * 10 <= dn64 * 22);
  BOOST_TEST(dn128i != dn128);
}

// ---- TQUANT, MX forms (A5) ---------------------------------------------------------------------------
// References from the definitions, not the kernel's bit tricks: the group maximum and exponents with
// frexp in double, the codes by nearest search over the decoded grids (ties to the even code,
// saturating). The chip's choices the definitions leave open are docs/quant.md's: fp16 under OCP takes
// its exponent from the bf16 truncation (the same exponent), NV scales the maximum by fl32(1/Vmax) in
// float, a bf16 source multiplies in bf16, a 16-bit source's pad columns are zeroed first.
namespace {
double e4m3_value(unsigned c) {
  const unsigned e = (c >> 3) & 15, m = c & 7;
  const double v = e == 0 ? std::ldexp(double(m), -9) : std::ldexp(double(8 + m), int(e) - 10);
  return (c & 0x80) ? -v : v;
}
const double kE2M1[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
// nearest code of a magnitude grid (ascending values by code), ties to the even code, saturating
unsigned nearest(double a, const double* grid, unsigned n) {
  unsigned best = 0;
  for (unsigned c = 1; c < n; ++c) {
    const double dc = std::fabs(grid[c] - a), db = std::fabs(grid[best] - a);
    if (dc < db || (dc == db && c % 2 == 0)) best = c;
  }
  return best;
}
std::uint8_t ref_e4m3(double v) {
  if (std::isnan(v)) return 0x7F;
  static const std::vector<double> grid = [] {
    std::vector<double> g;
    for (unsigned c = 0; c < 127; ++c) g.push_back(e4m3_value(c));  // 0x7F is NaN
    return g;
  }();
  const std::uint8_t code = std::uint8_t(nearest(std::min(std::fabs(v), 448.0), grid.data(), unsigned(grid.size())));
  return std::signbit(v) ? std::uint8_t(code | 0x80) : code;
}
std::uint8_t ref_e2m1(double v) {
  if (std::isnan(v)) return 0x7;
  const std::uint8_t code = std::uint8_t(nearest(std::min(std::fabs(v), 6.0), kE2M1, 8));
  return std::signbit(v) ? std::uint8_t(code | 0x8) : code;
}
// floor(log2(a)) + 127 for a > 0, as E8M0 / the float exponent field counts it (subnormals: 0)
int biased_exp(double a) {
  int e;
  std::frexp(a, &e);
  return std::max(e - 1 + 127, 0);
}

template <class S>
double value_of(S x) { return double(float(x)); }

struct MxRef {
  std::vector<std::uint8_t> dst, exp;
  std::vector<double> scaling;
};
// The reference for row-major src (R x C, valid columns VC; pad columns zero for 16-bit sources, as
// the chip makes them, and whatever src holds for fp32).
template <class S>
MxRef mx_reference(const std::vector<S>& src, int R, int C, int VC, bool fp4, bool nv, bool exp2d, int groups, int cols) {
  MxRef out;
  out.dst.assign(std::size_t(R) * (fp4 ? C / 2 : C), 0);
  out.exp.assign(std::size_t(R) * std::size_t(groups), 0);
  out.scaling.assign(out.exp.size(), 0);
  const bool b16 = !std::is_same_v<S, float>;
  for (int r = 0; r < R; ++r)
    for (int g = 0; g < groups; ++g) {
      double m = 0;
      bool nan = false;
      const int hi = (std::is_same_v<S, float> && exp2d) ? std::min(g * 32 + 32, VC) : g * 32 + 32;  // fp32 per-row: valid lanes only
      for (int c = g * 32; c < hi; ++c) {
        const double a = b16 && c >= VC ? 0.0 : std::fabs(value_of(src[std::size_t(r) * C + c]));
        nan = nan || std::isnan(a);
        m = std::max(m, a);
      }
      int X;
      if (nan) X = 255;
      else if (!nv) X = m == 0 ? 0 : std::max(std::isinf(m) ? 255 : biased_exp(m), fp4 ? 2 : 8) - (fp4 ? 2 : 8);
      else {
        const float y = float(m) * (fp4 ? 1.0f / 6.0f : 1.0f / 448.0f);  // the chip's float multiply
        if (std::isinf(y)) X = 254;
        else if (y == 0) X = 0;
        else {
          X = biased_exp(y);
          if (std::ldexp(1.0, X - 127) < double(y)) ++X;  // the smallest power of two at least y
          if (y <= std::ldexp(1.0, -127)) X = 0;
        }
      }
      const double scale = nan ? std::nan("") : X == 254 && nv ? std::ldexp(1.0, -127) : std::ldexp(1.0, 127 - X);
      out.exp[std::size_t(r) * groups + g] = std::uint8_t(X);
      out.scaling[std::size_t(r) * groups + g] = scale;
      for (int c = g * 32; c < std::min(g * 32 + 32, cols); ++c) {
        const double x = b16 && c >= VC ? 0.0 : value_of(src[std::size_t(r) * C + c]);
        double p = x * scale;  // exact in double (a power of two)
        if (std::is_same_v<S, bfloat16_t>) p = std::isnan(p) ? p : value_of(bfloat16_t(float(p)));
        else p = double(float(p));
        if (!fp4) out.dst[std::size_t(r) * C + c] = ref_e4m3(p);
        else {
          std::uint8_t& b = out.dst[std::size_t(r) * (C / 2) + c / 2];
          b = std::uint8_t(b | (ref_e2m1(p) << (c % 2 ? 4 : 0)));
        }
      }
    }
  return out;
}

// Values spread over 2^-40 .. 2^40 by group, with the special groups: row 0 group 0 a NaN, group 1 an
// infinity, group 2 zeros (and a -0), group 3 subnormal-sized values (when there are that many).
template <class S>
std::vector<S> mx_data(int R, int C, int VC, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<S> v(std::size_t(R) * C, S(0.0f));
  const int span = std::is_same_v<S, half> ? 12 : 40;
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < VC; ++c) {
      const int e = int((r * 7 + c / 32 * 13) % (2 * span + 1)) - span;
      v[std::size_t(r) * C + c] = S(float(std::ldexp(u(g), e)));
    }
  if (VC >= 128) {
    v[3] = S(std::numeric_limits<float>::quiet_NaN());
    v[40] = S(-std::numeric_limits<float>::infinity());
    for (int c = 64; c < 96; ++c) v[std::size_t(c)] = S(0.0f);
    v[70] = S(-0.0f);
    for (int c = 96; c < 128; ++c) v[std::size_t(c)] = S(float(std::ldexp(u(g), std::is_same_v<S, half> ? -20 : -130)));
  }
  return v;
}

template <class S, QuantType Q, QuantScaleAlg A, int R, int C, bool Exp2D = false>
void check_mx(int VC, unsigned seed) {
  constexpr bool fp4 = Q == QuantType::MXFP4_E2M1, nv = A == QuantScaleAlg::NV, b16 = !std::is_same_v<S, float>;
  static constexpr int G = C / 32, DB = fp4 ? C / 2 : C;  // static: clang 14 would make the kernel lambda capture it
  const bool partial = b16 && !fp4 && !nv && VC < C && C % 512 == 0;  // the chip's OCP path for 512-multiple rows
  const int groups = (Exp2D || partial) ? (VC + 31) / 32 : G;
  const int cols = Exp2D ? (b16 ? groups * 32 : VC) : partial ? VC : C;
  const int n = R * (Exp2D ? groups : G);
  std::vector<S> src = mx_data<S>(R, C, VC, seed);
  // pad columns with values: the fp32 flat path reads them as they are, a 16-bit source gets them zeroed
  for (int r = 0; r < R; ++r)
    for (int c = VC; c < C; ++c) src[std::size_t(r) * C + c] = S(float(c - VC) * 0.25f + 300.0f);
  using D = std::conditional_t<fp4, float4_e2m1x2_t, std::int8_t>;
  std::vector<std::uint8_t> dst(R * std::size_t(DB), 0xEE), exp(R * std::size_t(G), 0xEE);
  std::vector<S> scaling(2 * R * std::size_t(G)), src_after(src.size());
  launch({.target = Target::A5}, [VC](const S* s, std::uint8_t* o, std::uint8_t* x, S* k, S* sa) {
    GlobalTensor<S, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>> sg(const_cast<S*>(s)), sag(sa);
    constexpr int DF = (R * DB + 31) / 32 * 32;  // dst as the chip writes it: rows packed (a flat tile)
    GlobalTensor<std::uint8_t, Shape<1, 1, 1, 1, R * DB>, pto::Stride<1, 1, 1, R * DB, 1>> og(o);
    Tile<TileType::Vec, S, R, C, BLayout::RowMajor, -1, -1> st(R, C), st_valid(R, VC);
    Tile<TileType::Vec, D, 1, DF> dt;
    Tile<TileType::Vec, std::uint8_t, 1, DF, BLayout::RowMajor, 1, R * DB> dbytes;
    constexpr int NF = (R * G + 63) / 64 * 64 * 2;  // room for what the chip writes past the groups
    Tile<TileType::Vec, S, 1, NF, BLayout::RowMajor, -1, -1> mt(1, Exp2D ? R * ((C / 32)) : R * G), kt(1, R * G);
    TASSIGN(st, 0), TASSIGN(st_valid, 0), TASSIGN(dt, 0x10000), TASSIGN(dbytes, 0x10000);
    TASSIGN(mt, 0x18000), TASSIGN(kt, 0x1a000);
    TLOAD(st, sg);  // the whole rows (the pad columns' contents included)
    TLOAD(dbytes, og);  // dst's bytes as GM has them: the ones TQUANT leaves alone must stay
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    GlobalTensor<S, Shape<1, 1, 1, 1, 2 * R * G>, pto::Stride<1, 1, 1, 2 * R * G, 1>> kg(k);
    Tile<TileType::Vec, S, 1, NF> kall;
    TASSIGN(kall, 0x1a000);
    if constexpr (Exp2D) {
      Tile<TileType::Vec, std::uint8_t, R, 32, BLayout::RowMajor, -1, -1> et(R, (C / 32));
      TASSIGN(et, 0x1c000);
      TQUANT<Q, decltype(dt), decltype(st_valid), decltype(et), decltype(mt), decltype(kt), A>(dt, st_valid, &et, &mt, &kt);
      set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      Tile<TileType::Vec, std::uint8_t, R, 32> eall;
      TASSIGN(eall, 0x1c000);
      GlobalTensor<std::uint8_t, Shape<1, 1, 1, R, G>, pto::Stride<1, 1, 1, G, 1>> xg(x);
      Tile<TileType::Vec, std::uint8_t, R, 32, BLayout::RowMajor, R, G> ev;
      TASSIGN(ev, 0x1c000);
      TSTORE(xg, ev);
    } else {
      constexpr int EB = (R * G + 63) / 64 * 64;
      Tile<TileType::Vec, std::uint8_t, 1, EB, BLayout::RowMajor, -1, -1> et(1, R * G);
      TASSIGN(et, 0x1c000);
      TQUANT<Q, decltype(dt), decltype(st_valid), decltype(et), decltype(mt), decltype(kt), A>(dt, st_valid, &et, &mt, &kt);
      set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      GlobalTensor<std::uint8_t, Shape<1, 1, 1, 1, R * G>, pto::Stride<1, 1, 1, R * G, 1>> xg(x);
      Tile<TileType::Vec, std::uint8_t, 1, EB, BLayout::RowMajor, 1, R * G> ev;
      TASSIGN(ev, 0x1c000);
      TSTORE(xg, ev);
    }
    TSTORE(og, dbytes);
    Tile<TileType::Vec, S, 1, NF, BLayout::RowMajor, 1, 2 * R * G> kv;
    TASSIGN(kv, 0x1a000);
    TSTORE(kg, kv);
    TSTORE(sag, st);
  }, src, dst, exp, scaling, src_after);
  const MxRef want = mx_reference(src, R, C, VC, fp4, nv, Exp2D, groups, cols);
  BOOST_TEST_CONTEXT("TQUANT<" << (fp4 ? "MXFP4_E2M1" : "MXFP8") << ", " << (nv ? "NV" : "OCP") << "> "
                                << name_of(dtype_v<S>) << ' ' << R << 'x' << VC << " of " << C << (Exp2D ? " exp2D" : "")) {
    int bad_dst = 0, bad_exp = 0, bad_scale = 0, bad_pad = 0;
    for (int r = 0; r < R; ++r) {
      const int written = fp4 ? cols / 2 : cols;
      for (int b = 0; b < DB; ++b) {
        const std::uint8_t got = dst[std::size_t(r) * DB + b];
        const bool bad = b < written ? got != want.dst[std::size_t(r) * DB + b] : got != 0xEE;
        if (bad && bad_dst == 0) BOOST_TEST_MESSAGE("dst r " << r << " byte " << b << " got " << int(got) << " want " << int(want.dst[std::size_t(r) * DB + b]));
        bad_dst += bad;
      }
      for (int g = 0; g < groups; ++g) {
        const std::size_t i = std::size_t(r) * (Exp2D ? G : G) + g, w = std::size_t(r) * groups + g;
        const std::size_t ei = Exp2D ? std::size_t(r) * G + g : std::size_t(r) * G + g;
        bad_exp += exp[ei] != want.exp[w];
        const std::size_t si = Exp2D ? std::size_t(r) * groups + g : i;
        const double k = value_of(scaling[si]);
        // a 16-bit source keeps the scaling as bf16 bits (for a half tile too): compare bits then
        double kv = k;
        if constexpr (std::is_same_v<S, half>) {
          std::uint16_t bits;
          std::memcpy(&bits, &scaling[si], 2);
          kv = value_of(bfloat16_t::from_bits(bits));
        }
        bad_scale += !(kv == want.scaling[w] || (std::isnan(kv) && std::isnan(want.scaling[w])));
      }
      if constexpr (b16)
        for (int c = VC; c < C; ++c) bad_pad += value_of(src_after[std::size_t(r) * C + c]) != 0.0;
    }
    BOOST_TEST(bad_dst == 0);
    BOOST_TEST(bad_exp == 0);
    BOOST_TEST(bad_scale == 0);
    BOOST_TEST(bad_pad == 0);
    (void)n;
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(tquant_mx_groups_of_32_columns) {
  using Q = QuantType;
  using A = QuantScaleAlg;
  // pto-isa's a5 system-test shapes (tests/npu/a5/src/st/testcase/tquant): src Cols = validCols
  // rounded up to 32, exp / max / scaling flat, and the 2-row-exp MXFP4 cases
  check_mx<float, Q::MXFP8, A::OCP, 32, 32>(32, 1);
  check_mx<float, Q::MXFP8, A::OCP, 64, 128>(128, 2);
  check_mx<float, Q::MXFP8, A::OCP, 15, 32>(32, 3);
  check_mx<float, Q::MXFP8, A::OCP, 13, 192>(192, 4);
  check_mx<float, Q::MXFP8, A::OCP, 7, 64>(50, 5);
  check_mx<float, Q::MXFP8, A::NV, 32, 128>(128, 6);
  check_mx<float, Q::MXFP8, A::NV, 2, 256>(256, 7);
  check_mx<bfloat16_t, Q::MXFP8, A::OCP, 32, 128>(128, 8);
  check_mx<bfloat16_t, Q::MXFP8, A::OCP, 14, 32>(16, 9);
  check_mx<bfloat16_t, Q::MXFP8, A::OCP, 18, 160>(138, 10);
  check_mx<bfloat16_t, Q::MXFP8, A::OCP, 4, 512>(500, 11);  // Cols % 512 == 0: only the valid groups
  check_mx<bfloat16_t, Q::MXFP8, A::NV, 7, 64>(48, 12);
  check_mx<half, Q::MXFP8, A::OCP, 32, 128>(128, 13);
  check_mx<half, Q::MXFP8, A::OCP, 11, 640>(640, 14);
  check_mx<half, Q::MXFP8, A::NV, 2, 256>(256, 15);
  check_mx<bfloat16_t, Q::MXFP4_E2M1, A::OCP, 2, 128>(128, 16);
  check_mx<half, Q::MXFP4_E2M1, A::OCP, 32, 1024>(1024, 17);
  check_mx<half, Q::MXFP4_E2M1, A::OCP, 5, 96>(70, 18);
  check_mx<bfloat16_t, Q::MXFP4_E2M1, A::NV, 2, 256, true>(256, 19);
  check_mx<half, Q::MXFP4_E2M1, A::NV, 2, 128, true>(128, 20);
  check_mx<float, Q::MXFP8, A::OCP, 3, 128, true>(100, 21);
  check_mx<bfloat16_t, Q::MXFP8, A::NV, 3, 128, true>(90, 22);
}

// ---- TQUANT, MX DN grouping (A5): groups of 32 rows of one column ------------------------------------
// The reference reads each group's 32 rows (the rows past the valid ones inside the last group too, as
// the chip does), takes the exponent from the definitions as above, and places the results where
// docs/quant.md says: max, scaling and linear exponents at group * src's Cols + column, interleaved
// exponents at pair * Exp::Cols + 2 * column + group % 2, e4m3 codes at row * Dst's row stride +
// column, e2m1 nibbles at (row * src's Cols + column) / 2. Products: fp32 for every source but bf16 to
// e2m1, which multiplies in bf16.
namespace {
template <class S>
std::vector<S> dn_data(int R, int C, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<S> v(std::size_t(R) * C);
  const int span = std::is_same_v<S, half> ? 12 : 40;
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      const int e = int((r / 32 * 11 + c * 5) % (2 * span + 1)) - span;  // one magnitude per group
      v[std::size_t(r) * C + c] = S(float(std::ldexp(u(g), e)));
    }
  // the special groups of the first 32 rows: column 0 a NaN, 1 an infinity, 2 zeros (and a -0), 3
  // subnormal-sized values
  if (R >= 32 && C >= 4) {
    v[std::size_t(5) * C + 0] = S(std::numeric_limits<float>::quiet_NaN());
    v[std::size_t(9) * C + 1] = S(-std::numeric_limits<float>::infinity());
    for (int r = 0; r < 32; ++r) v[std::size_t(r) * C + 2] = S(r == 7 ? -0.0f : 0.0f);
    for (int r = 0; r < 32; ++r) v[std::size_t(r) * C + 3] = S(float(std::ldexp(u(g), std::is_same_v<S, half> ? -20 : -130)));
  }
  return v;
}

int ref_exponent(double m, bool nan, bool fp4, bool nv) {
  if (nan) return 255;
  if (!nv) return m == 0 ? 0 : std::max(std::isinf(m) ? 255 : biased_exp(m), fp4 ? 2 : 8) - (fp4 ? 2 : 8);
  const float y = float(m) * (fp4 ? 1.0f / 6.0f : 1.0f / 448.0f);
  if (std::isinf(y)) return 254;
  if (y == 0 || y <= std::ldexp(1.0f, -127)) return 0;
  int X = biased_exp(y);
  if (std::ldexp(1.0, X - 127) < double(y)) ++X;
  return X;
}

// SR x SC src, dst DR x DC (e4m3 bytes, or one flat row of e2m1 bytes), exp ER x EC, max and scaling
// MR x SC; VR x VC valid.
template <class S, MxQuantAlg A, bool Inter, int SR, int SC, int DR, int DC, int ER, int EC, int MR>
void check_mx_dn(int VR, int VC, unsigned seed) {
  constexpr bool fp4 = A == MxQuantAlg::OcpMxFp4E2M1 || A == MxQuantAlg::NvMxFp4E2M1;
  constexpr bool nv = A == MxQuantAlg::NvMxFp8E4M3 || A == MxQuantAlg::NvMxFp4E2M1;
  constexpr bool b16 = !std::is_same_v<S, float>;
  using D = std::conditional_t<fp4, float4_e2m1x2_t, std::int8_t>;
  constexpr int DB = DR * DC;  // dst's bytes
  std::vector<S> src = dn_data<S>(SR, SC, seed), src_after(src.size());
  std::vector<std::uint8_t> dst(DB, 0xEE), exp(static_cast<std::size_t>(ER * EC), 0xEE);
  std::vector<S> mx(static_cast<std::size_t>(MR * SC)), scaling(static_cast<std::size_t>(MR * SC));
  launch({.target = Target::A5}, [VR, VC](const S* s, std::uint8_t* o, std::uint8_t* x, S* m, S* k, S* sa) {
    constexpr std::uint32_t s_at = 0, d_at = ceil_to(SR * SC * int(sizeof(S)), 256), e_at = d_at + ceil_to(DB, 256),
                            m_at = e_at + ceil_to(ER * EC, 256), k_at = m_at + ceil_to(MR * SC * int(sizeof(S)), 256);
    static_assert(k_at + MR * SC * sizeof(S) <= 0x40000, "the test's UB layout");
    GlobalTensor<S, Shape<1, 1, 1, SR, SC>, pto::Stride<1, 1, 1, SC, 1>> sg(const_cast<S*>(s)), sag(sa);
    GlobalTensor<std::uint8_t, Shape<1, 1, 1, DR, DC>, pto::Stride<1, 1, 1, DC, 1>> og(o);
    GlobalTensor<std::uint8_t, Shape<1, 1, 1, ER, EC>, pto::Stride<1, 1, 1, EC, 1>> xg(x);
    GlobalTensor<S, Shape<1, 1, 1, MR, SC>, pto::Stride<1, 1, 1, SC, 1>> mg(m), kg(k);
    Tile<TileType::Vec, S, SR, SC> sall;
    Tile<TileType::Vec, S, SR, SC, BLayout::RowMajor, -1, -1> st(VR, VC);
    Tile<TileType::Vec, D, DR, DC, BLayout::RowMajor, -1, -1> dt(std::min(VR, DR), fp4 ? DC : VC);
    Tile<TileType::Vec, std::uint8_t, DR, DC> dbytes;
    Tile<TileType::Vec, std::uint8_t, ER, EC, BLayout::RowMajor, -1, -1> et(Inter ? VR / 64 : (VR + 31) / 32, Inter ? 2 * VC : VC);
    Tile<TileType::Vec, std::uint8_t, ER, EC> eall;
    Tile<TileType::Vec, S, MR, SC, BLayout::RowMajor, -1, -1> mt((VR + 31) / 32, VC), kt((VR + 31) / 32, VC);
    Tile<TileType::Vec, S, MR, SC> mall, kall;
    TASSIGN(sall, s_at), TASSIGN(st, s_at), TASSIGN(dt, d_at), TASSIGN(dbytes, d_at), TASSIGN(et, e_at), TASSIGN(eall, e_at);
    TASSIGN(mt, m_at), TASSIGN(mall, m_at), TASSIGN(kt, k_at), TASSIGN(kall, k_at);
    TLOAD(sall, sg);     // whole rows: the rows past the valid ones are read too
    TLOAD(dbytes, og);   // the bytes TQUANT leaves alone must stay
    TLOAD(eall, xg);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TQUANT<0, A, Inter>(dt, st, &et, &mt, &kt);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(og, dbytes);
    TSTORE(xg, eall);
    TSTORE(mg, mall);
    TSTORE(kg, kall);
    TSTORE(sag, sall);
  }, src, dst, exp, mx, scaling, src_after);

  // the reference (from src as loaded: the pad columns' zeroing does not reach the valid columns)
  const int groups = (VR + 31) / 32;
  std::vector<std::uint8_t> want_dst(DB, 0xEE), want_exp(exp.size(), 0xEE);
  std::vector<double> scales(std::size_t(groups) * VC);
  int bad_max = 0, bad_scale = 0;
  for (int g = 0; g < groups; ++g)
    for (int c = 0; c < VC; ++c) {
      double m = 0;
      bool nan = false;
      for (int r = 32 * g; r < 32 * g + 32; ++r) {
        const double a = std::fabs(value_of(src[std::size_t(r) * SC + c]));
        nan = nan || std::isnan(a);
        m = std::max(m, a);
      }
      const int X = ref_exponent(m, nan, fp4, nv);
      const double scale = nan ? std::nan("") : X == 254 && nv ? std::ldexp(1.0, -127) : std::ldexp(1.0, 127 - X);
      scales[std::size_t(g) * VC + c] = scale;
      const std::size_t slot = std::size_t(g) * SC + c;
      want_exp[Inter ? std::size_t(g / 2) * EC + 2 * std::size_t(c) + std::size_t(g % 2) : slot] = std::uint8_t(X);
      if (Inter && !b16) want_dst[std::size_t(g) * ceil_to(SC, 32) + c] = std::uint8_t(X);  // staged in dst first
      // max: the group's largest magnitude (fp16 under OCP keeps its bf16 truncation: compare exponents)
      const double got_m = value_of(mx[slot]);
      if constexpr (std::is_same_v<S, half>) {
        std::uint16_t bits;
        std::memcpy(&bits, &mx[slot], 2);
        const double v = nv ? got_m : value_of(bfloat16_t::from_bits(bits));
        bad_max += !(nan ? std::isnan(v) : (v == 0 ? m == 0 : biased_exp(v) == biased_exp(m)));
      } else {
        bad_max += !(nan ? std::isnan(got_m) : got_m == m);
      }
      double kv = value_of(scaling[slot]);
      if constexpr (std::is_same_v<S, half>) {
        std::uint16_t bits;
        std::memcpy(&bits, &scaling[slot], 2);
        kv = value_of(bfloat16_t::from_bits(bits));
      }
      bad_scale += !(kv == scale || (std::isnan(kv) && std::isnan(scale)));
    }
  for (int g = 0; g < groups; ++g)
    for (int r = 32 * g; r < 32 * g + 32; ++r)
      for (int c = 0; c < VC; ++c) {
        double p = value_of(src[std::size_t(r) * SC + c]) * scales[std::size_t(g) * VC + c];  // exact in double
        if (fp4 && std::is_same_v<S, bfloat16_t>) p = std::isnan(p) ? p : value_of(bfloat16_t(float(p)));
        else p = double(float(p));
        if (!fp4) {
          want_dst[std::size_t(r) * DC + c] = ref_e4m3(p);
        } else {
          const std::size_t n = std::size_t(r) * SC + c;
          std::uint8_t& b = want_dst[n / 2];
          b = std::uint8_t((n % 2) ? (b & 0x0F) | (ref_e2m1(p) << 4) : (b & 0xF0) | ref_e2m1(p));
        }
      }
  if (fp4 && std::is_same_v<S, half> && (SC / 2) % 32 != 0 && groups > 0) {
    // the scratch vector at byte DR * SC / 2 keeps the last row's last vector of codes
    const int c0 = (VC - 1) / 128 * 128, last = 32 * groups - 1;
    for (int b = 0; b < (VC - c0 + 1) / 2; ++b)
      want_dst[std::size_t(DR) * SC / 2 + b] = want_dst[(std::size_t(last) * SC + c0) / 2 + b];
  }
  BOOST_TEST_CONTEXT("TQUANT<0, " << (fp4 ? "MXFP4" : "MXFP8") << (nv ? " NV" : " OCP") << (Inter ? ", interleaved" : "") << "> "
                                  << name_of(dtype_v<S>) << ' ' << VR << 'x' << VC << " of " << SR << 'x' << SC) {
    int bad_dst = 0, bad_exp = 0, bad_pad = 0;
    for (int b = 0; b < DB; ++b) {
      const bool bad = dst[b] != want_dst[b];
      if (bad && bad_dst == 0) BOOST_TEST_MESSAGE("dst byte " << b << " got " << int(dst[b]) << " want " << int(want_dst[b]));
      bad_dst += bad;
    }
    for (std::size_t i = 0; i < exp.size(); ++i) bad_exp += exp[i] != want_exp[i];
    if constexpr (b16)
      for (int r = 0; r < VR; ++r)
        for (int c = VC; c < SC; ++c) bad_pad += value_of(src_after[std::size_t(r) * SC + c]) != 0.0;
    BOOST_TEST(bad_dst == 0);
    BOOST_TEST(bad_exp == 0);
    BOOST_TEST(bad_max == 0);
    BOOST_TEST(bad_scale == 0);
    BOOST_TEST(bad_pad == 0);
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(tquant_mx_dn_groups_of_32_rows) {
  using M = MxQuantAlg;
  // pto-isa's a5 tquant_dn shapes (tests/npu/a5/src/st/testcase/tquant_dn), tiles as its kernels declare them
  check_mx_dn<bfloat16_t, M::OcpMxFp8E4M3, false, 64, 128, 64, 128, 2, 128, 2>(64, 128, 31);
  check_mx_dn<half, M::OcpMxFp4E2M1, false, 64, 128, 1, 64 * 64, 2, 128, 2>(64, 128, 32);
  check_mx_dn<float, M::NvMxFp8E4M3, true, 128, 128, 128, 128, 2, 256, 4>(128, 128, 33);
  check_mx_dn<bfloat16_t, M::NvMxFp4E2M1, true, 128, 128, 1, 128 * 64, 2, 256, 4>(128, 128, 34);
  check_mx_dn<bfloat16_t, M::OcpMxFp8E4M3, true, 512, 48, 512, 64, 8, 96, 16>(64, 24, 35);
  check_mx_dn<half, M::NvMxFp8E4M3, true, 896, 48, 896, 64, 14, 96, 28>(896, 34, 36);
  // beyond them: valid rows short of a group (the chip reads the rest of it), fp32 OCP linear, half
  // MXFP8 under OCP, fp32 interleaved under OCP with a dst wider than src, bf16 MXFP4 OCP over several
  // vectors of columns, NV MXFP4 from half, and fp16 MXFP4 whose Cols / 2 is not a multiple of 32 (the
  // chip's scratch vector past dst's rows)
  check_mx_dn<float, M::OcpMxFp8E4M3, false, 64, 96, 64, 96, 2, 96, 2>(40, 70, 37);
  check_mx_dn<half, M::OcpMxFp8E4M3, false, 96, 160, 96, 160, 3, 160, 3>(70, 150, 38);
  check_mx_dn<float, M::OcpMxFp8E4M3, true, 128, 64, 128, 96, 2, 128, 4>(128, 50, 39);
  check_mx_dn<bfloat16_t, M::OcpMxFp4E2M1, false, 32, 384, 1, 32 * 192, 1, 384, 1>(32, 300, 40);
  check_mx_dn<half, M::NvMxFp4E2M1, false, 64, 64, 1, 64 * 32, 2, 64, 2>(64, 64, 41);
  check_mx_dn<half, M::OcpMxFp4E2M1, false, 32, 80, 33, 64, 1, 96, 1>(32, 80, 42);
}

BOOST_AUTO_TEST_CASE(tquant_mx_dn_errors_name_the_operand_and_the_rule) {
  using M = MxQuantAlg;
  // valid rows short of a group read the rest of it: a 40-row tile has no rows 40..63
  std::string e = error_of([] {
    launch({.target = Target::A5}, [] {
      Tile<TileType::Vec, float, 40, 64> s;
      Tile<TileType::Vec, std::int8_t, 64, 64> d;
      Tile<TileType::Vec, std::uint8_t, 2, 64> x;
      Tile<TileType::Vec, float, 2, 64> m, k;
      TASSIGN(s, 0), TASSIGN(d, 0x4000), TASSIGN(x, 0x6000), TASSIGN(m, 0x7000), TASSIGN(k, 0x8000);
      TQUANT<0, M::OcpMxFp8E4M3>(d, s, &x, &m, &k);
    });
  });
  BOOST_TEST((contains(e, "TQUANT: operand src") && contains(e, "reads whole groups of 32 rows (64 for 40 valid rows") &&
              contains(e, "past the tile's 40 rows")), e);
  // interleaving pairs groups: valid rows a multiple of 64, and exp's valid shape [rows / 64, 2 * cols]
  auto inter = [](int vr, int exp_cols) {
    return error_of([=] {
      launch({.target = Target::A5}, [=] {
        Tile<TileType::Vec, float, 128, 64, BLayout::RowMajor, -1, -1> s(vr, 64);
        Tile<TileType::Vec, std::int8_t, 128, 64> d;
        Tile<TileType::Vec, std::uint8_t, 2, 128, BLayout::RowMajor, -1, -1> x(vr / 64, exp_cols);
        Tile<TileType::Vec, float, 4, 64> m, k;
        TASSIGN(s, 0), TASSIGN(d, 0x8000), TASSIGN(x, 0xc000), TASSIGN(m, 0xd000), TASSIGN(k, 0xe000);
        TQUANT<0, M::NvMxFp8E4M3, true>(d, s, &x, &m, &k);
      });
    });
  };
  e = inter(96, 128);
  BOOST_TEST((contains(e, "TQUANT: operand src") && contains(e, "the valid rows must be a multiple of 64")), e);
  e = inter(128, 64);
  BOOST_TEST((contains(e, "TQUANT: operand exp") && contains(e, "valid shape must be 2x128")), e);
  e = inter(128, 128);
  BOOST_TEST(e == "no pto::Error", e);
  // e4m3 codes land at dst's row stride: it must hold the valid columns
  e = error_of([] {
    launch({.target = Target::A5}, [] {
      Tile<TileType::Vec, float, 32, 64> s;
      Tile<TileType::Vec, std::int8_t, 64, 32> d;
      Tile<TileType::Vec, std::uint8_t, 1, 64> x;
      Tile<TileType::Vec, float, 1, 64> m, k;
      TASSIGN(s, 0), TASSIGN(d, 0x2000), TASSIGN(x, 0x3000), TASSIGN(m, 0x3100), TASSIGN(k, 0x3200);
      TQUANT<0, M::OcpMxFp8E4M3>(d, s, &x, &m, &k);
    });
  });
  BOOST_TEST((contains(e, "TQUANT: operand dst") && contains(e, "rows of 32 bytes must hold src's 64 valid columns")), e);
  // max and scaling hold a row of src's Cols per group
  e = error_of([] {
    launch({.target = Target::A5}, [] {
      Tile<TileType::Vec, bfloat16_t, 64, 64> s;
      Tile<TileType::Vec, std::int8_t, 64, 64> d;
      Tile<TileType::Vec, std::uint8_t, 2, 64> x;
      Tile<TileType::Vec, bfloat16_t, 1, 64> m;
      Tile<TileType::Vec, bfloat16_t, 2, 64> k;
      TASSIGN(s, 0), TASSIGN(d, 0x2000), TASSIGN(x, 0x3000), TASSIGN(m, 0x3100), TASSIGN(k, 0x3200);
      TQUANT<0, M::OcpMxFp8E4M3>(d, s, &x, &m, &k);
    });
  });
  BOOST_TEST((contains(e, "TQUANT: operand max") && contains(e, "holds 128 bytes; the chip writes 256 there")), e);
  // the fp16 MXFP4 path's scratch vector (Cols / 2 = 40 bytes, not 32-aligned) at Dst::Rows * Cols / 2:
  // a flat one-row dst puts it inside the codes
  e = error_of([] {
    launch({.target = Target::A5}, [] {
      Tile<TileType::Vec, half, 32, 80> s;
      Tile<TileType::Vec, float4_e2m1x2_t, 1, 1344> d;
      Tile<TileType::Vec, std::uint8_t, 1, 96> x;
      Tile<TileType::Vec, half, 1, 96> m, k;
      TASSIGN(s, 0), TASSIGN(d, 0x2000), TASSIGN(x, 0x3000), TASSIGN(m, 0x3100), TASSIGN(k, 0x3200);
      TQUANT<0, M::OcpMxFp4E2M1>(d, s, &x, &m, &k);
    });
  });
  BOOST_TEST((contains(e, "TQUANT: operand dst") && contains(e, "stages each row's codes at byte Dst::Rows * Cols / 2 = 40") &&
              contains(e, "give dst at least 32 rows")), e);
  // the MX forms are A5's
  e = error_of([] {
    launch({.target = Target::A2A3}, [] {
      Tile<TileType::Vec, float, 32, 64> s;
      Tile<TileType::Vec, std::int8_t, 32, 64> d;
      Tile<TileType::Vec, std::uint8_t, 1, 64> x;
      Tile<TileType::Vec, float, 1, 64> m, k;
      TASSIGN(s, 0), TASSIGN(d, 0x2000), TASSIGN(x, 0x3000), TASSIGN(m, 0x3100), TASSIGN(k, 0x3200);
      TQUANT<0, M::OcpMxFp8E4M3>(d, s, &x, &m, &k);
    });
  });
  BOOST_TEST(contains(e, "TQUANT: the MX forms (MXFP8, MXFP4_E2M1) exist on A5 only"), e);
}
