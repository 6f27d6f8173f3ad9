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
  constexpr int CP = ceil_to(C, 8), CQ = ceil_to(C, 32), RP = ceil_to(R, 8);
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
        const _Float16 h = _Float16(float(n));
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
  constexpr int CP = ceil_to(C, 32 / int(sizeof(S))), RP = ceil_to(R, 8);
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
}

// Modeled cycles (deterministic; pto-isa's cost-model tests have no TQUANT or TDEQUANT figure). A2A3
// runs a chain of five instructions' streams with barriers between; A5 one vector-function loop.
// A2A3's TDEQUANT reads each row's parameters through a V -> S -> V round trip, so it grows per row.
BOOST_AUTO_TEST_CASE(modeled_cycles_follow_the_chips_streams) {
  auto cycles = [](Target tg, auto body) {
    return launch({.target = tg, .model_only = true}, [&] { body(); }).cores[0].pipes[PIPE_V].busy_cycles;
  };
  auto quant = [&](Target tg, auto rows) {
    constexpr int R = decltype(rows)::value;
    return cycles(tg, [] {
      Tile<TileType::Vec, float, R, 128> s, t;
      Tile<TileType::Vec, std::int8_t, R, 128> d;
      Tile<TileType::Vec, float, R, 1, BLayout::ColMajor> k;
      TASSIGN(s, 0), TASSIGN(t, 0x8000), TASSIGN(d, 0x10000), TASSIGN(k, 0x12000);
      TQUANT<QuantType::INT8_SYM>(d, s, k, t);
    });
  };
  auto dequant = [&](Target tg, auto rows) {
    constexpr int R = decltype(rows)::value;
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
}
