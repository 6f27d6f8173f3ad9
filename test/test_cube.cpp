// The cube: TLOAD GM -> Mat, TEXTRACT / TMOV Mat -> Left / Right / Bias, TMATMUL and its forms, TSTORE
// Acc -> GM, against references computed in double (integers exactly), on both targets; the M pipe's
// cost against pto-isa's TMATMUL cases; the errors.
// Plain kernels called directly run on the implicit core, instruction by instruction.
#define BOOST_TEST_MODULE cube
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <pto/cpu/tile_offsets.hpp>
#include <pto/pto-inst.hpp>

#include "element_ref.hpp"
#include "test_util.hpp"

using namespace pto;

namespace {
constexpr int up(int v, int a) { return (v + a - 1) / a * a; }

template <class T> using Gm2D = GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, -1, 1>>;
template <class T> using Gm2DN = GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, 1, -1>, Layout::DN>;

// Values exact in every input type: multiples of 1/4 in [-4, 4) (integers for int8).
template <class T> T value(int i, int j, int salt) {
  const int v = (i * 37 + j * 11 + salt * 7) % 33 - 16;
  if constexpr (std::is_same_v<T, std::int8_t>) return T(v % 8);
  else return T(float(v) / 4.0f);
}

enum class Form { Plain, Acc, Bias };

// C = sum over `reps` K slices of A_i * B_i (TMATMUL, then TMATMUL_ACC / TGEMV_ACC), or A * B + bias.
// A is m x (k * reps) row-major in GM, B (k * reps) x n: ND (loaded ND -> NZ, moved to Right
// transposing) or DN (loaded DN -> ZN, moved straight). The result is stored to GM as Out.
template <class In, class Acc, class Out, int M, int K, int N, bool BDn>
void check_mad(Target tg, int m, int k, int n, Form form, int reps = 1, bool gemv = false) {
  constexpr int C0 = int(32 / sizeof(In));
  const int kk = k * reps;
  std::vector<In> a(std::size_t(m) * kk), b(std::size_t(kk) * n);
  for (int i = 0; i < m; ++i)
    for (int p = 0; p < kk; ++p) a[std::size_t(i) * kk + p] = value<In>(i, p, 1);
  auto b_at = [&](int p, int j) { return BDn ? std::size_t(j) * kk + p : std::size_t(p) * n + j; };
  for (int p = 0; p < kk; ++p)
    for (int j = 0; j < n; ++j) b[b_at(p, j)] = value<In>(p, j, 2);
  constexpr int BiasCols = up(N, sizeof(Acc) == 4 ? 16 : 32);
  std::vector<Acc> bias(BiasCols, Acc(0));
  for (int j = 0; j < n; ++j) bias[j] = Acc(std::is_integral_v<Acc> ? (j % 7) - 3 : float((j % 9) - 4) / 2.0f);
  std::vector<Out> out(std::size_t(m) * n, Out(0));
  {
    ScopedTarget scope(tg);
    using MatA = Tile<TileType::Mat, In, M, K, BLayout::ColMajor, -1, -1, SLayout::RowMajor, 512>;
    using MatB = std::conditional_t<BDn, Tile<TileType::Mat, In, K, N, BLayout::RowMajor, -1, -1, SLayout::ColMajor, 512>,
                                    Tile<TileType::Mat, In, K, N, BLayout::ColMajor, -1, -1, SLayout::RowMajor, 512>>;
    using L = TileLeft<In, M, K, -1, -1>;
    using R = TileRight<In, K, N, -1, -1>;
    using C = TileAcc<Acc, M, N, -1, -1>;
    MatA ma(m, k);
    MatB mb(k, n);
    L l(m, k);
    R r(k, n);
    C c(m, n);
    TASSIGN(ma, 0x0);
    TASSIGN(mb, 0x20000);
    TASSIGN(l, 0x0);
    TASSIGN(r, 0x0);
    TASSIGN(c, 0x0);
    for (int s = 0; s < reps; ++s) {
      Gm2D<In> ga(a.data() + s * k, {m, k}, {kk});
      TLOAD(ma, ga);
      if constexpr (BDn) {
        Gm2DN<In> gb(b.data() + s * k, {k, n}, {kk});
        TLOAD(mb, gb);
      } else {
        Gm2D<In> gb(b.data() + std::size_t(s) * k * n, {k, n}, {n});
        TLOAD(mb, gb);
      }
      TMOV(l, ma);
      TMOV(r, mb);
      if (form == Form::Bias) {
        using MatBias = Tile<TileType::Mat, Acc, 1, BiasCols>;
        using BiasT = Tile<TileType::Bias, Acc, 1, BiasCols>;
        MatBias mbias;
        BiasT bt;
        TASSIGN(mbias, 0x60000);
        TASSIGN(bt, 0x0);
        Gm2D<Acc> gbias(bias.data(), {1, BiasCols}, {BiasCols});
        TLOAD(mbias, gbias);
        TMOV(bt, mbias);
        if (gemv) TGEMV_BIAS(c, l, r, bt);
        else TMATMUL_BIAS(c, l, r, bt);
      } else if (s == 0) {
        if (gemv) TGEMV(c, l, r);
        else TMATMUL(c, l, r);
      } else {
        if (gemv) TGEMV_ACC(c, c, l, r);
        else TMATMUL_ACC(c, c, l, r);
      }
    }
    Gm2D<Out> go(out.data(), {m, n}, {n});
    TSTORE(go, c);
  }
  (void)C0;
  int bad = 0;
  double worst = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double ref = form == Form::Bias ? double(bias[j]) : 0.0, mag = std::abs(ref);
      for (int p = 0; p < kk; ++p) {
        const double t = double(a[std::size_t(i) * kk + p]) * double(b[b_at(p, j)]);
        ref += t;
        mag += std::abs(t);
      }
      const double got = double(out[std::size_t(i) * n + j]);
      if constexpr (std::is_integral_v<Acc>) {
        bad += got != ref;
      } else {
        // float accumulation over kk terms (k * 2^-24 * sum |a * b|, docs/cube.md), then Out's rounding
        const double out_ulp = std::is_same_v<Out, float> ? 0.0 : std::is_same_v<Out, half> ? std::ldexp(1.0, -11) : std::ldexp(1.0, -8);
        const double tol = (kk + 2) * std::ldexp(1.0, -24) * mag + out_ulp * std::abs(ref) + 1e-30;
        worst = std::max(worst, std::abs(got - ref) / tol);
        bad += !(std::abs(got - ref) <= tol);
      }
    }
  BOOST_TEST_CONTEXT(name_of(dtype_v<In>) << " -> " << name_of(dtype_v<Out>) << ' ' << name_of(tg) << ' ' << m << 'x' << k << 'x'
                                          << n << " reps " << reps << (BDn ? " B DN" : " B ND") << " form " << int(form)
                                          << (gemv ? " gemv" : "")) {
    BOOST_TEST(bad == 0);
    BOOST_TEST(worst <= 1.0);
  }
}
}  // namespace

// pto-isa's tmatmul cases (tests/cpu/st/testcase/tmatmul), B loaded both ways, on both targets.
BOOST_AUTO_TEST_CASE(tmatmul_forms_match_double_references) {
  for (Target tg : {Target::A2A3, Target::A5}) {
    check_mad<half, float, float, 48, 64, 64, false>(tg, 40, 50, 60, Form::Plain);
    check_mad<half, float, float, 48, 64, 64, true>(tg, 40, 50, 60, Form::Plain);
    check_mad<std::int8_t, std::int32_t, std::int32_t, 32, 32, 32, false>(tg, 6, 7, 8, Form::Plain);
    check_mad<std::int8_t, std::int32_t, std::int32_t, 32, 32, 32, true>(tg, 6, 7, 8, Form::Plain);
    check_mad<half, float, float, 128, 128, 64, true>(tg, 128, 128, 64, Form::Acc, 5);  // split K
    check_mad<float, float, float, 128, 112, 64, false>(tg, 120, 110, 50, Form::Plain);
    check_mad<float, float, float, 128, 112, 64, true>(tg, 120, 110, 50, Form::Plain);
    check_mad<bfloat16_t, float, float, 48, 64, 64, true>(tg, 40, 50, 60, Form::Plain);
    check_mad<half, float, float, 16, 112, 64, true>(tg, 1, 110, 50, Form::Plain, 1, true);   // TGEMV
    check_mad<float, float, float, 16, 128, 64, false>(tg, 1, 128, 64, Form::Plain, 1, true);
    check_mad<half, float, float, 16, 112, 64, true>(tg, 1, 110, 50, Form::Acc, 3, true);     // TGEMV_ACC
    check_mad<std::int8_t, std::int32_t, std::int32_t, 32, 32, 32, true>(tg, 8, 7, 6, Form::Bias);
    check_mad<half, float, float, 16, 16, 16, true>(tg, 16, 15, 16, Form::Bias);
    check_mad<float, float, float, 128, 128, 64, true>(tg, 127, 128, 63, Form::Bias);
    check_mad<half, float, float, 16, 112, 64, true>(tg, 1, 110, 50, Form::Bias, 1, true);   // TGEMV_BIAS
    // the fixpipe's casts on the way out
    check_mad<half, float, half, 48, 64, 64, true>(tg, 40, 50, 60, Form::Plain);
    check_mad<half, float, bfloat16_t, 48, 64, 64, true>(tg, 40, 50, 60, Form::Plain);
  }
}

namespace {
// TEXTRACT Dst from the window at (r0, c0) of a Mat tile filled with f(r, c): every element of dst's
// static shape must be src's logical (r0 + r, c0 + c).
template <class Dst, class Src>
void check_extract(Target tg, int r0, int c0) {
  using T = typename Dst::DType;
  ScopedTarget scope(tg);
  Src src;
  Dst dst;
  TASSIGN(src, 0x0);
  TASSIGN(dst, 0x0);
  auto f = [](int r, int c) { return T(float((r * 7 + c * 3) % 61 - 30)); };
  for (int r = 0; r < Src::Rows; ++r)
    for (int c = 0; c < Src::Cols; ++c) src.data()[GetTileElementOffset<Src>(r, c)] = f(r, c);
  TEXTRACT(dst, src, std::uint16_t(r0), std::uint16_t(c0));
  int bad = 0;
  for (int r = 0; r < Dst::Rows; ++r)
    for (int c = 0; c < Dst::Cols; ++c) bad += !(dst.data()[GetTileElementOffset<Dst>(r, c)] == f(r0 + r, c0 + c));
  BOOST_TEST_CONTEXT(name_of(dtype_v<T>) << ' ' << name_of(tg) << " window at (" << r0 << ", " << c0 << ")") { BOOST_TEST(bad == 0); }
}
template <class T, int R, int C> using Nz = Tile<TileType::Mat, T, R, C, BLayout::ColMajor, R, C, SLayout::RowMajor, 512>;
template <class T, int R, int C> using Zn = Tile<TileType::Mat, T, R, C, BLayout::RowMajor, R, C, SLayout::ColMajor, 512>;
template <class T, int R, int C> using LeftZz = Tile<TileType::Left, T, R, C, BLayout::RowMajor, R, C, SLayout::RowMajor, 512>;
}  // namespace

BOOST_AUTO_TEST_CASE(textract_moves_the_window_on_every_path) {
  for (Target tg : {Target::A2A3, Target::A5}) {
    check_extract<TileLeft<half, 32, 32>, Nz<half, 64, 96>>(tg, 16, 48);        // NZ -> nZ
    check_extract<LeftZz<half, 32, 32>, Nz<half, 64, 96>>(tg, 32, 64);          // NZ -> zZ (A2A3's Left)
    check_extract<TileLeft<float, 32, 16>, Nz<float, 64, 64>>(tg, 16, 8);       // f32: C0 = 8
    check_extract<TileLeft<std::int8_t, 32, 64>, Nz<std::int8_t, 64, 128>>(tg, 32, 64);
    check_extract<TileLeft<half, 32, 32>, Zn<half, 64, 64>>(tg, 16, 32);        // ZN -> Left: transposing
    check_extract<TileRight<half, 32, 64>, Zn<half, 64, 128>>(tg, 16, 64);      // ZN -> ZN
    check_extract<TileRight<float, 16, 32>, Zn<float, 64, 64>>(tg, 8, 16);
    check_extract<TileRight<half, 32, 64>, Nz<half, 64, 128>>(tg, 32, 16);      // NZ -> Right: transposing
    check_extract<TileRight<std::int8_t, 32, 32>, Nz<std::int8_t, 64, 64>>(tg, 32, 32);
  }
}

BOOST_AUTO_TEST_CASE(cube_errors_name_the_rule) {
  using pto_test::contains;
  using pto_test::error_of;
  auto extract = [](Target tg, int r0, int c0) {
    return error_of([&] {
      ScopedTarget scope(tg);
      Nz<half, 64, 96> src;
      TileLeft<half, 32, 32> dst;
      TASSIGN(src, 0);
      TASSIGN(dst, 0);
      TEXTRACT(dst, src, std::uint16_t(r0), std::uint16_t(c0));
    });
  };
  std::string e = extract(Target::A2A3, 0, 8);
  BOOST_TEST((contains(e, "TEXTRACT: operand src") && contains(e, "indexRow 0 and indexCol 8 must be multiples of 16 and 16")), e);
  e = extract(Target::A5, 8, 0);
  BOOST_TEST(contains(e, "must be multiples of 16 and 16"), e);
  e = extract(Target::A2A3, 48, 0);
  BOOST_TEST((contains(e, "the 32 x 32 window of dst's shape at (indexRow 48, indexCol 0) runs past its 64 x 96")), e);
  // an 8-bit float is A5's
  e = error_of([] {
    ScopedTarget scope(Target::A2A3);
    Nz<float8_e4m3_t, 32, 64> src;
    TileLeft<float8_e4m3_t, 32, 64> dst;
    TASSIGN(src, 0);
    TASSIGN(dst, 0);
    TMOV(dst, src);
  });
  BOOST_TEST((contains(e, "TMOV: operand dst dtype float8_e4m3 is not supported on A2A3") && contains(e, "supported on: A5")), e);
  // m, k, n in [1, 4095]; b must hold k rows; the result must fit
  auto mad = [](int m, int k, int n) {
    return error_of([&] {
      ScopedTarget scope(Target::A2A3);
      TileLeft<half, 32, 64, -1, -1> a(m, k);
      TileRight<half, 32, 32, -1, -1> b(32, n);
      TileAcc<float, 32, 32, -1, -1> c(32, 32);
      TASSIGN(a, 0);
      TASSIGN(b, 0);
      TASSIGN(c, 0);
      TMATMUL(c, a, b);
    });
  };
  e = mad(16, 0, 16);
  BOOST_TEST((contains(e, "TMATMUL: k = 0 (the valid columns of operand a") && contains(e, "must be in [1, 4095]")), e);
  e = mad(16, 48, 16);
  BOOST_TEST(contains(e, "TMATMUL: operand b Tile<Right,half,32,32,ZN> valid 32x16 has 32 rows, fewer than k = 48"), e);
  BOOST_TEST(mad(16, 32, 0) != "no pto::Error");
  BOOST_TEST(mad(16, 32, 32) == "no pto::Error");
  // TSTORE: the tensor maps the Acc tile's valid shape
  std::vector<float> gm(32 * 32);
  e = error_of([&] {
    ScopedTarget scope(Target::A5);
    TileAcc<float, 32, 32, -1, -1> c(32, 16);
    TASSIGN(c, 0);
    Gm2D<float> g(gm.data(), {32, 32}, {32});
    TSTORE(g, c);
  });
  BOOST_TEST((contains(e, "TSTORE: operand dst") && contains(e, "maps 32x32") && contains(e, "has valid shape 32x16")), e);
  // bfloat16_t -> float into the bias table is A5's
  auto bias = [](Target tg) {
    return error_of([&] {
      ScopedTarget scope(tg);
      Tile<TileType::Mat, bfloat16_t, 1, 32> src;
      Tile<TileType::Bias, float, 1, 32> dst;
      TASSIGN(src, 0);
      TASSIGN(dst, 0);
      TMOV(dst, src);
    });
  };
  BOOST_TEST(contains(bias(Target::A2A3), "bfloat16_t -> float into the bias table is A5's"), bias(Target::A2A3));
  BOOST_TEST(bias(Target::A5) == "no pto::Error");
  // the result must fit c; A2A3's fixpipe store takes a 2-D tensor; a what-if table's mad must be >= 0
  e = error_of([] {
    ScopedTarget scope(Target::A5);
    TileLeft<half, 32, 32> a;
    TileRight<half, 32, 32> b;
    TileAcc<float, 16, 32> c;
    TASSIGN(a, 0);
    TASSIGN(b, 0);
    TASSIGN(c, 0);
    TMATMUL(c, a, b);
  });
  BOOST_TEST(contains(e, "cannot hold the 32 x 32 result"), e);
  auto three_d = [&](Target tg) {
    return error_of([&] {
      ScopedTarget scope(tg);
      TileAcc<float, 32, 32> c;
      TASSIGN(c, 0);
      GlobalTensor<float, Shape<1, 1, 2, 16, 32>, pto::Stride<1, 1, 512, 32, 1>> g(gm.data());
      TSTORE(g, c);
    });
  };
  BOOST_TEST(contains(three_d(Target::A2A3), "A2A3's fixpipe store (nz2nd) takes a 2-D tensor"), three_d(Target::A2A3));
  BOOST_TEST(three_d(Target::A5) == "no pto::Error");
  CostTable t = default_cost_table(Target::A2A3);
  t.mad_cycles_per_block[2] = -1;
  e = error_of([&] { launch({.blocks = 1, .costs = &t}, []() -> Kernel { co_return; }); });
  BOOST_TEST(contains(e, "mad_setup_cycles and mad_cycles_per_block must be finite numbers >= 0"), e);
}

namespace {
// One mad of pto-isa's TMATMUL cost cases (tests/costmodel/st/testcase/tmatmul), `reps` times
// (TMATMUL, then TMATMUL_ACC): the M pipe's busy cycles.
template <class In, class Acc, int M, int K, int N>
std::uint64_t mad_cycles(int m, int k, int n, int reps) {
  auto kernel = [=]() -> Kernel {
    TileLeft<In, M, K, -1, -1> a(m, k);
    TileRight<In, K, N, -1, -1> b(k, n);
    TileAcc<Acc, M, N, -1, -1> c(m, n);
    TASSIGN(a, 0);
    TASSIGN(b, 0);
    TASSIGN(c, 0);
    co_await TMATMUL(c, a, b);
    for (int r = 1; r < reps; ++r) co_await TMATMUL_ACC(c, c, a, b);
  };
  const LaunchReport rep = launch({.blocks = 1, .model_only = true, .check = SyncCheck::Off}, kernel);
  return rep.cores[0].pipes[PIPE_M].busy_cycles;
}
}  // namespace

BOOST_AUTO_TEST_CASE(tmatmul_cycles_match_pto_isa_hardware_cases) {
  BOOST_TEST((mad_cycles<half, float, 48, 64, 64>(40, 50, 60, 1) == 54u));
  BOOST_TEST((mad_cycles<std::int8_t, std::int32_t, 16, 32, 16>(6, 7, 8, 1) == 7u));
  BOOST_TEST((mad_cycles<half, float, 128, 128, 64>(128, 128, 64, 5) == 5u * 262u));
  BOOST_TEST((mad_cycles<float, float, 128, 112, 64>(120, 110, 50, 1) == 902u));
  BOOST_TEST((mad_cycles<half, float, 32, 48, 32>(31, 33, 17, 1) == 18u));  // pto-isa's formula fit cases
  BOOST_TEST((mad_cycles<float, float, 32, 40, 32>(31, 33, 17, 1) == 46u));
}

namespace {
// A 128 x 64 x 256 tile: TLOAD A and B (MTE2), TMOV to L0 (MTE1), TMATMUL (M), TSTORE (FIX). `flags`:
// the kernel orders the pipes; else nothing orders them (a manual-mode kernel the checker must flag,
// or an auto-mode one the runtime orders).
Kernel one_tile(bool flags, float* c, half* a, half* b) {
  Nz<half, 128, 64> ma;
  Zn<half, 64, 256> mb;
  TileLeft<half, 128, 64> la;
  TileRight<half, 64, 256> rb;
  TileAcc<float, 128, 256> acc;
  if (flags) {
    TASSIGN(ma, 0);
    TASSIGN(mb, 0x4000);
    TASSIGN(la, 0);
    TASSIGN(rb, 0);
    TASSIGN(acc, 0);
  }
  GlobalTensor<half, Shape<1, 1, 1, 128, 64>, pto::Stride<1, 1, 1, 64, 1>> ga(a);
  GlobalTensor<half, Shape<1, 1, 1, 64, 256>, pto::Stride<1, 1, 1, 1, 64>, Layout::DN> gb(b);
  GlobalTensor<float, Shape<1, 1, 1, 128, 256>, pto::Stride<1, 1, 1, 256, 1>> gc(c);
  co_await TLOAD(ma, ga);
  co_await TLOAD(mb, gb);
  if (flags) co_await set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0), co_await wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
  co_await TMOV(la, ma);
  co_await TMOV(rb, mb);
  if (flags) co_await set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0), co_await wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
  co_await TMATMUL(acc, la, rb);
  if (flags) co_await set_flag(PIPE_M, PIPE_FIX, EVENT_ID0), co_await wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
  co_await TSTORE(gc, acc);
}
}  // namespace

BOOST_AUTO_TEST_CASE(the_checker_sees_the_cube_pipes_and_auto_mode_orders_them) {
  std::vector<half> a(128 * 64), b(64 * 256);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = value<half>(int(i / 64), int(i % 64), 1);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = value<half>(int(i % 64), int(i / 64), 2);  // DN: column j at j * 64
  auto reference_ok = [&](const std::vector<float>& c) {
    int bad = 0;
    for (int i = 0; i < 128; ++i)
      for (int j = 0; j < 256; ++j) {
        double ref = 0;
        for (int p = 0; p < 64; ++p) ref += double(a[std::size_t(i) * 64 + p]) * double(b[std::size_t(j) * 64 + p]);
        bad += double(c[std::size_t(i) * 256 + j]) != ref;  // multiples of 1/16, 64 terms: exact in float
      }
    return bad == 0;
  };
  std::vector<float> c(128 * 256, -1.0f);
  LaunchReport rep = launch({.blocks = 1, .check = SyncCheck::Report}, one_tile, true, c, a, b);
  BOOST_TEST(rep.findings().empty());
  BOOST_TEST(reference_ok(c));
  // the same kernel without flags: the checker names the unordered pipe pairs, M -> FIX among them
  rep = launch({.blocks = 1, .check = SyncCheck::Report}, [&](float* cc, half* aa, half* bb) -> Kernel {
    TileAcc<float, 128, 256> acc;
    TileLeft<half, 128, 64> la;
    TileRight<half, 64, 256> rb;
    TASSIGN(acc, 0);
    TASSIGN(la, 0);
    TASSIGN(rb, 0);
    GlobalTensor<float, Shape<1, 1, 1, 128, 256>, pto::Stride<1, 1, 1, 256, 1>> gc(cc);
    (void)aa, (void)bb;
    co_await TMATMUL(acc, la, rb);
    co_await TSTORE(gc, acc);  // no set_flag(PIPE_M, PIPE_FIX) / wait_flag before it
  }, c, a, b);
  bool m_fix = false;
  for (const SyncFinding& f : rep.findings())
    m_fix |= f.kind == SyncFinding::Kind::Race && f.memory == Memory::L0C;
  BOOST_TEST(m_fix);
  // auto mode: no TASSIGN, no flags; the runtime places the tiles and orders the pipes
  std::fill(c.begin(), c.end(), -1.0f);
  rep = launch({.blocks = 1, .mode = Mode::Auto, .check = SyncCheck::Report}, one_tile, false, c, a, b);
  BOOST_TEST(rep.findings().empty());
  BOOST_TEST(reference_ok(c));
}

namespace {
// The fixpipe's quantisation from its definition (docs/cube.md "Quant words"), in double.
std::uint64_t quant_word(float scale, int offset, bool sign) {
  return std::uint64_t(std::bit_cast<std::uint32_t>(scale)) | (std::uint64_t(offset & 0x1FF) << 37) | (std::uint64_t(sign) << 46);
}
template <class E>
double quant_ref(double x, std::uint64_t w, bool relu) {
  const double m1 = double(std::bit_cast<float>(std::uint32_t(w) & 0xFFFFE000u));
  double v = x * m1, out;
  if constexpr (std::is_same_v<E, std::int8_t> || std::is_same_v<E, std::uint8_t>) {
    const bool sign = (w >> 46) & 1;
    v = std::nearbyint(std::clamp(v, -256.0, 255.0)) + double((w >> 37) & 0x1FF);
    out = std::clamp(v, sign ? -128.0 : 0.0, sign ? 127.0 : 255.0);
    if (!sign && std::is_same_v<E, std::int8_t> && out > 127) out -= 256;  // the byte, read as int8
  } else if constexpr (std::is_same_v<E, half>) {
    out = double(half(float(std::clamp(v, -65504.0, 65504.0))));
  } else if constexpr (std::is_same_v<E, bfloat16_t>) {
    out = double(bfloat16_t(float(v)));
  } else {
    out = v;
  }
  return relu && out < 0 ? 0.0 : out;
}

// Per-column quant words into a Scaling tile at FB 0, through a 1-row Mat tile at mat_addr (TLOAD, then
// TMOV Mat -> Scaling).
template <int N>
Tile<TileType::Scaling, std::uint64_t, 1, N> scaling_words(std::vector<std::uint64_t>& words, std::uint32_t mat_addr) {
  Tile<TileType::Mat, std::uint64_t, 1, N> mw;
  Tile<TileType::Scaling, std::uint64_t, 1, N> fp;
  TASSIGN(mw, mat_addr);
  TASSIGN(fp, 0);
  GlobalTensor<std::uint64_t, Shape<1, 1, 1, 1, N>, pto::Stride<1, 1, 1, N, 1>> gw(words.data());
  TLOAD(mw, gw);
  TMOV(fp, mw);
  return fp;
}

// acc = a * b (small integers: exact in either accumulator), stored through the fixpipe with one word
// (scalar form) or one word per column (TSTORE_FP from a Scaling tile filled by TMOV Mat -> Scaling).
template <class In, class Acc, class Out, bool Vector, bool Relu>
void check_quant(Target tg, std::vector<std::uint64_t> words) {
  constexpr int M = 16, K = 32, N = 32;
  std::vector<In> a(M * K), b(K * N);
  for (int i = 0; i < M * K; ++i) a[std::size_t(i)] = In((i * 5 + 3) % 15 - 7);
  for (int i = 0; i < K * N; ++i) b[std::size_t(i)] = In((i * 3 + 1) % 15 - 7);  // DN: column j at j * K
  std::vector<Out> out(M * N);
  {
    ScopedTarget scope(tg);
    Nz<In, M, K> ma;
    Zn<In, K, N> mb;
    TileLeft<In, M, K> l;
    TileRight<In, K, N> r;
    TileAcc<Acc, M, N> c;
    TASSIGN(ma, 0);
    TASSIGN(mb, 0x4000);
    TASSIGN(l, 0);
    TASSIGN(r, 0);
    TASSIGN(c, 0);
    GlobalTensor<In, Shape<1, 1, 1, M, K>, pto::Stride<1, 1, 1, K, 1>> ga(a.data());
    GlobalTensor<In, Shape<1, 1, 1, K, N>, pto::Stride<1, 1, 1, 1, K>, Layout::DN> gb(b.data());
    TLOAD(ma, ga);
    TLOAD(mb, gb);
    TMOV(l, ma);
    TMOV(r, mb);
    TMATMUL(c, l, r);
    GlobalTensor<Out, Shape<1, 1, 1, M, N>, pto::Stride<1, 1, 1, N, 1>> go(out.data());
    constexpr ReluPreMode relu = Relu ? ReluPreMode::NormalRelu : ReluPreMode::NoRelu;
    using Go = decltype(go);
    using C = TileAcc<Acc, M, N>;
    if constexpr (Vector) {
      auto fp = scaling_words<N>(words, 0x10000);
      TSTORE_FP<C, Go, decltype(fp), AtomicType::AtomicNone, relu>(go, c, fp);
    } else {
      TSTORE<C, Go, AtomicType::AtomicNone, relu>(go, c, words[0]);
    }
  }
  int bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double x = 0;
      for (int p = 0; p < K; ++p) x += double(a[std::size_t(i) * K + p]) * double(b[std::size_t(j) * K + p]);
      const double ref = quant_ref<Out>(x, words[Vector ? std::size_t(j) : 0], Relu);
      bad += double(out[std::size_t(i) * N + j]) != ref;
    }
  BOOST_TEST_CONTEXT(name_of(dtype_v<Acc>) << " -> " << name_of(dtype_v<Out>) << ' ' << name_of(tg) << (Vector ? " vector" : " scalar")
                                          << (Relu ? " relu" : "")) {
    BOOST_TEST(bad == 0);
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(the_fixpipe_quantises_by_scalar_and_by_column) {
  std::vector<std::uint64_t> signed8, unsigned8, plain;
  for (int j = 0; j < 32; ++j) {
    const float scale = std::array{0.25f, 0.5f, 1.5f, 3.0f, 0.0625f}[std::size_t(j % 5)] * (j % 7 == 3 ? -1.0f : 1.0f);
    signed8.push_back(quant_word(scale, j % 4, true));      // saturates both ways, offsets 0-3
    unsigned8.push_back(quant_word(scale, 100 + j, false));
    plain.push_back(quant_word(scale * 1.00146484375f, 0, false));  // 1 + 2^-10 + 2^-11: the fixpipe keeps the first, drops the second
  }
  for (Target tg : {Target::A2A3, Target::A5}) {
    check_quant<std::int8_t, std::int32_t, std::int8_t, false, false>(tg, signed8);
    check_quant<std::int8_t, std::int32_t, std::int8_t, true, false>(tg, signed8);
    check_quant<std::int8_t, std::int32_t, std::uint8_t, true, false>(tg, unsigned8);
    check_quant<std::int8_t, std::int32_t, half, true, true>(tg, plain);
    check_quant<half, float, std::int8_t, true, true>(tg, signed8);
    check_quant<half, float, std::uint8_t, false, false>(tg, unsigned8);
  }
  check_quant<half, float, half, true, false>(Target::A5, plain);
  check_quant<half, float, bfloat16_t, false, true>(Target::A5, plain);
  check_quant<half, float, float, true, false>(Target::A5, plain);
  check_quant<std::int8_t, std::int32_t, bfloat16_t, true, false>(Target::A5, plain);
}

BOOST_AUTO_TEST_CASE(fixpipe_quant_errors_name_the_rule) {
  using pto_test::contains;
  using pto_test::error_of;
  std::vector<half> gm(32 * 32);
  // float -> half with a quant word is A5's
  auto half_out = [&](Target tg) {
    return error_of([&] {
      ScopedTarget scope(tg);
      TileAcc<float, 32, 32> c;
      TASSIGN(c, 0);
      Gm2D<half> g(gm.data(), {32, 32}, {32});
      TSTORE(g, c, std::uint64_t(0x3f800000));
    });
  };
  BOOST_TEST(contains(half_out(Target::A2A3), "the quantising store float -> half is A5's"), half_out(Target::A2A3));
  BOOST_TEST(half_out(Target::A5) == "no pto::Error");
  // A2A3 moves quant words in 128-byte bursts; the Scaling tile must cover the store's columns
  auto words = [&](Target tg) {
    return error_of([&] {
      ScopedTarget scope(tg);
      Tile<TileType::Mat, std::uint64_t, 1, 8> src;
      Tile<TileType::Scaling, std::uint64_t, 1, 8> dst;
      TASSIGN(src, 0);
      TASSIGN(dst, 0);
      TMOV(dst, src);
    });
  };
  BOOST_TEST(contains(words(Target::A2A3), "128-byte bursts, so Cols must be a multiple of 16"), words(Target::A2A3));
  BOOST_TEST(words(Target::A5) == "no pto::Error");
  std::vector<std::int8_t> out(32 * 32);
  const std::string e = error_of([&] {
    ScopedTarget scope(Target::A5);
    TileAcc<float, 32, 32> c;
    Tile<TileType::Scaling, std::uint64_t, 1, 16> fp;
    TASSIGN(c, 0);
    TASSIGN(fp, 0);
    Gm2D<std::int8_t> g(out.data(), {32, 32}, {32});
    TSTORE_FP(g, c, fp);
  });
  BOOST_TEST((contains(e, "TSTORE_FP: operand fp") && contains(e, "holds fewer than the 32 words")), e);
}

// AtomicAdd adds into GM (twice here, onto a pre-filled tensor): float, half, int32, and int8 through a
// quant word (wrapping, as pto-isa's CPU simulator adds).
BOOST_AUTO_TEST_CASE(the_atomic_store_adds_into_gm) {
  constexpr int M = 16, N = 16;
  auto run = [&]<class Acc, class Out, bool Quant>(Out start, Acc value, std::uint64_t word) {
    std::vector<Out> out(M * N, start);
    {
      ScopedTarget scope(Target::A2A3);
      TileAcc<Acc, M, N> c;
      TASSIGN(c, 0);
      for (int i = 0; i < M * N; ++i) c.data()[GetTileElementOffset<TileAcc<Acc, M, N>>(i / N, i % N)] = value;
      GlobalTensor<Out, Shape<1, 1, 1, M, N>, pto::Stride<1, 1, 1, N, 1>> g(out.data());
      for (int k = 0; k < 2; ++k) {
        if constexpr (Quant) TSTORE<TileAcc<Acc, M, N>, decltype(g), AtomicType::AtomicAdd>(g, c, word);
        else TSTORE<TileAcc<Acc, M, N>, decltype(g), AtomicType::AtomicAdd>(g, c);
      }
    }
    return out;
  };
  BOOST_TEST((run.template operator()<float, float, false>(1.5f, 2.25f, 0) == std::vector<float>(M * N, 6.0f)));
  BOOST_TEST((run.template operator()<float, half, false>(half(1.5f), 2.25f, 0) == std::vector<half>(M * N, half(6.0f))));
  BOOST_TEST((run.template operator()<std::int32_t, std::int32_t, false>(-7, 100, 0) == std::vector<std::int32_t>(M * N, 193)));
  // 100 * 0.5 = 50 per store: 120 + 50 = 170 wraps to -86, then -36
  BOOST_TEST((run.template operator()<std::int32_t, std::int8_t, true>(std::int8_t(120), 100, quant_word(0.5f, 0, true)) ==
              std::vector<std::int8_t>(M * N, std::int8_t(-36))));
}

namespace {
template <class AccT> void fill_acc(AccT& c, double (*f)(int, int)) {
  using A = typename AccT::DType;
  for (int r = 0; r < AccT::Rows; ++r)
    for (int j = 0; j < AccT::Cols; ++j) c.data()[GetTileElementOffset<AccT>(r, j)] = A(f(r, j));
}
double acc_value(int r, int c) { return double((r * 13 + c * 7) % 41 - 20) * 1.5; }
// dst's element (r, c) for each of its layouts, as a double
template <class T> double at(T& t, int r, int c) { return double(t.data()[GetTileElementOffset<T>(r, c)]); }
}  // namespace

BOOST_AUTO_TEST_CASE(tmov_and_textract_move_l0c_through_the_fixpipe) {
  constexpr int M = 32, N = 48;  // valid 20 x 40 of the Acc tile
  using AccT = TileAcc<float, M, N, -1, -1>;
  for (Target tg : {Target::A2A3, Target::A5}) {
    // Acc -> Mat, NZ half: the chips write src's static rows and the columns rounded up to C0 (16)
    ScopedTarget scope(tg);
    AccT c(20, 40);
    Nz<half, M, N> mat;
    TASSIGN(c, 0);
    TASSIGN(mat, 0);
    fill_acc(c, acc_value);
    TMOV(mat, c);
    int bad = 0;
    for (int r = 0; r < M; ++r)
      for (int j = 0; j < N; ++j) bad += at(mat, r, j) != double(half(float(acc_value(r, j))));  // 32 x 48: all of it
    BOOST_TEST_CONTEXT(name_of(tg) << " Acc -> Mat NZ") { BOOST_TEST(bad == 0); }
  }
  ScopedTarget scope(Target::A5);
  AccT c(20, 40);
  TASSIGN(c, 0);
  fill_acc(c, acc_value);
  // A5 Acc -> Vec: ND float with ReLU, DN float, a TEXTRACT window, an int8 quantisation, per-column words
  Tile<TileType::Vec, float, M, N, BLayout::RowMajor, -1, -1> nd(20, 40);
  Tile<TileType::Vec, float, M, N, BLayout::ColMajor, -1, -1> dn(20, 40);
  Tile<TileType::Vec, float, 16, 16> win;
  Tile<TileType::Vec, std::int8_t, M, 64, BLayout::RowMajor, -1, -1> q(20, 40);
  Tile<TileType::Vec, half, M, N, BLayout::RowMajor, -1, -1> qv(20, 40);
  TASSIGN(nd, 0);
  TASSIGN(dn, 0x2000);
  TASSIGN(win, 0x4000);
  TASSIGN(q, 0x5000);
  TASSIGN(qv, 0x6000);
  std::memset(static_cast<void*>(nd.data()), 0x7F, sizeof(float) * M * N);
  TMOV<decltype(nd), AccT, AccToVecMode::SingleModeVec0, ReluPreMode::NormalRelu>(nd, c);
  TMOV(dn, c);
  TEXTRACT(win, c, 16, 16);
  const std::uint64_t w = quant_word(0.5f, 3, true);
  TMOV(q, c, w);
  std::vector<std::uint64_t> words(N);
  for (int j = 0; j < N; ++j) words[std::size_t(j)] = quant_word(float(j % 5 + 1) * 0.25f, 0, false);
  auto fp = scaling_words<N>(words, 0);
  TMOV_FP(qv, c, fp);
  int bad = 0, untouched = 0;
  for (int r = 0; r < M; ++r)
    for (int j = 0; j < N; ++j) {
      const double x = acc_value(r, j);
      if (r < 20 && j < 40) {
        bad += at(nd, r, j) != std::max(x, 0.0);
        bad += at(dn, r, j) != x;
        bad += at(q, r, j) != quant_ref<std::int8_t>(x, w, false);
        bad += at(qv, r, j) != quant_ref<half>(x, words[std::size_t(j)], false);
      } else {
        std::uint32_t bits;
        std::memcpy(&bits, &nd.data()[GetTileElementOffset<decltype(nd)>(r, j)], 4);
        untouched += bits != 0x7F7F7F7Fu;  // ND / DN: the valid region only
      }
    }
  for (int r = 0; r < 16; ++r)
    for (int j = 0; j < 16; ++j) bad += at(win, r, j) != acc_value(16 + r, 16 + j);
  BOOST_TEST(bad == 0);
  BOOST_TEST(untouched == 0);
}

BOOST_AUTO_TEST_CASE(fixpipe_move_errors_name_the_rule) {
  using pto_test::contains;
  using pto_test::error_of;
  auto to_vec = [](Target tg) {
    return error_of([&] {
      ScopedTarget scope(tg);
      TileAcc<float, 16, 16> c;
      Tile<TileType::Vec, float, 16, 16> v;
      TASSIGN(c, 0);
      TASSIGN(v, 0);
      TMOV(v, c);
    });
  };
  BOOST_TEST(contains(to_vec(Target::A2A3), "A2A3's fixpipe moves L0C to L1 only, as NZ"), to_vec(Target::A2A3));
  BOOST_TEST(to_vec(Target::A5) == "no pto::Error");
  auto f32_mat = [](Target tg) {
    return error_of([&] {
      ScopedTarget scope(tg);
      TileAcc<float, 16, 16> c;
      Nz<float, 16, 16> m;
      TASSIGN(c, 0);
      TASSIGN(m, 0);
      TMOV(m, c);
    });
  };
  BOOST_TEST(contains(f32_mat(Target::A2A3), "the move float -> float out of L0C is A5's"), f32_mat(Target::A2A3));
  BOOST_TEST(f32_mat(Target::A5) == "no pto::Error");
  const std::string e = error_of([] {
    ScopedTarget scope(Target::A5);
    TileAcc<float, 32, 32> c;
    Tile<TileType::Vec, float, 16, 16> v;
    TASSIGN(c, 0);
    TASSIGN(v, 0);
    TEXTRACT(v, c, 0, 8);
  });
  BOOST_TEST(contains(e, "indexCol 8 must be a multiple of 16"), e);
}

// TINSERT from L0C: src's valid region into a window of dst (the rest of dst untouched), on both targets
// into NZ half (A2A3's form), on A5 into ND float with ReLU and into NZ int8 with per-column words.
BOOST_AUTO_TEST_CASE(tinsert_writes_l0c_into_a_window) {
  using AccT = TileAcc<float, 16, 32, -1, -1>;
  for (Target tg : {Target::A2A3, Target::A5}) {
    ScopedTarget scope(tg);
    AccT c(16, 32);
    Nz<half, 64, 96> mat;
    TASSIGN(c, 0);
    TASSIGN(mat, 0);
    fill_acc(c, acc_value);
    std::fill(mat.data(), mat.data() + 64 * 96, half(-99.0f));
    TINSERT(mat, c, 40, 48);
    int bad = 0;
    for (int r = 0; r < 64; ++r)
      for (int j = 0; j < 96; ++j) {
        const bool in = r >= 40 && r < 56 && j >= 48 && j < 80;
        bad += at(mat, r, j) != (in ? double(half(float(acc_value(r - 40, j - 48)))) : -99.0);
      }
    BOOST_TEST_CONTEXT(name_of(tg)) { BOOST_TEST(bad == 0); }
  }
  ScopedTarget scope(Target::A5);
  AccT c(16, 32);
  Tile<TileType::Vec, float, 32, 64> nd;
  Tile<TileType::Vec, std::int8_t, 32, 64, BLayout::ColMajor, 32, 64, SLayout::RowMajor, 512> nz;
  Tile<TileType::Scaling, std::uint64_t, 1, 32> fp;
  Tile<TileType::Mat, std::uint64_t, 1, 32> mw;
  TASSIGN(c, 0);
  TASSIGN(nd, 0);
  TASSIGN(nz, 0x4000);
  TASSIGN(fp, 0);
  TASSIGN(mw, 0);
  fill_acc(c, acc_value);
  std::fill(nd.data(), nd.data() + 32 * 64, 7.0f);
  std::fill(nz.data(), nz.data() + 32 * 64, std::int8_t(5));
  std::vector<std::uint64_t> words(32);
  for (int j = 0; j < 32; ++j) words[std::size_t(j)] = quant_word(float(j % 3 + 1) * 0.5f, j % 5, true);
  GlobalTensor<std::uint64_t, Shape<1, 1, 1, 1, 32>, pto::Stride<1, 1, 1, 32, 1>> gw(words.data());
  TLOAD(mw, gw);
  TMOV(fp, mw);
  TINSERT<decltype(nd), AccT, ReluPreMode::NormalRelu>(nd, c, 3, 5);
  TINSERT_FP(nz, c, fp, 16, 32);
  int bad = 0;
  for (int r = 0; r < 32; ++r)
    for (int j = 0; j < 64; ++j) {
      const bool in_nd = r >= 3 && r < 19 && j >= 5 && j < 37, in_nz = r >= 16 && j >= 32;
      bad += at(nd, r, j) != (in_nd ? std::max(acc_value(r - 3, j - 5), 0.0) : 7.0);
      bad += at(nz, r, j) != (in_nz ? quant_ref<std::int8_t>(acc_value(r - 16, j - 32), words[std::size_t(j - 32)], false) : 5.0);
    }
  BOOST_TEST(bad == 0);
  // an NZ dst's window starts on a C0 column block
  Nz<half, 32, 64> hz;
  TASSIGN(hz, 0x8000);
  const std::string e = pto_test::error_of([&] { TINSERT(hz, c, 0, 8); });
  BOOST_TEST((pto_test::contains(e, "TINSERT: operand dst") && pto_test::contains(e, "indexCol 8 must be a multiple of 16")), e);
}

// TEXTRACT's quant forms: one word, or the words of src's columns (TEXTRACT_FP reads fp from indexCol on).
BOOST_AUTO_TEST_CASE(textract_quantises_the_window) {
  ScopedTarget scope(Target::A5);
  TileAcc<float, 32, 48> c;
  Tile<TileType::Vec, std::int8_t, 16, 32> q;
  Tile<TileType::Vec, half, 16, 16> h;
  Tile<TileType::Mat, std::uint64_t, 1, 48> mw;
  Tile<TileType::Scaling, std::uint64_t, 1, 48> fp;
  TASSIGN(c, 0);
  TASSIGN(q, 0);
  TASSIGN(h, 0x1000);
  TASSIGN(mw, 0);
  TASSIGN(fp, 0);
  fill_acc(c, acc_value);
  std::vector<std::uint64_t> words(48);
  for (int j = 0; j < 48; ++j) words[std::size_t(j)] = quant_word(float(j % 4 + 1) * 0.25f, 0, false);
  GlobalTensor<std::uint64_t, Shape<1, 1, 1, 1, 48>, pto::Stride<1, 1, 1, 48, 1>> gw(words.data());
  TLOAD(mw, gw);
  TMOV(fp, mw);
  const std::uint64_t w = quant_word(0.75f, 2, true);
  TEXTRACT(q, c, w, 8, 16);
  TEXTRACT_FP(h, c, fp, 16, 32);
  int bad = 0;
  for (int r = 0; r < 16; ++r) {
    for (int j = 0; j < 32; ++j) bad += at(q, r, j) != quant_ref<std::int8_t>(acc_value(8 + r, 16 + j), w, false);
    for (int j = 0; j < 16; ++j) bad += at(h, r, j) != quant_ref<half>(acc_value(16 + r, 32 + j), words[std::size_t(32 + j)], false);
  }
  BOOST_TEST(bad == 0);
  Tile<TileType::Scaling, std::uint64_t, 1, 40> narrow;
  TASSIGN(narrow, 0x200);
  const std::string e = pto_test::error_of([&] { TEXTRACT_FP(h, c, narrow, 16, 32); });
  BOOST_TEST((pto_test::contains(e, "TEXTRACT_FP: operand fp") && pto_test::contains(e, "fewer than the 48 words")), e);
}

// pto-isa's CPU system tests address tiles through pto::GetTileElementOffset (<pto/cpu/tile_offsets.hpp>):
// the box layouts' offsets from their definitions (16-row fractals of 32 bytes per row; Acc 16 x 16).
BOOST_AUTO_TEST_CASE(get_tile_element_offset_follows_the_box_layouts) {
  int bad = 0;
  for (int r = 0; r < 48; ++r)
    for (int c = 0; c < 64; ++c) {
      // NZ half 48 x 64: column blocks of 16, each 48 rows of 16 elements
      bad += GetTileElementOffset<Nz<half, 48, 64>>(r, c) != std::size_t((c / 16) * 48 * 16 + r * 16 + c % 16);
      // ZN half 48 x 64: row blocks of 16, each 64 columns of 16 elements
      bad += GetTileElementOffset<Zn<half, 48, 64>>(r, c) != std::size_t((r / 16) * 64 * 16 + c * 16 + r % 16);
      // Left zZ int8 (A2A3): 16 x 32 fractals, row-major fractal order, rows of 32 inside
      using LeftZz = Tile<TileType::Left, std::int8_t, 48, 64, BLayout::RowMajor, 48, 64, SLayout::RowMajor, 512>;
      bad += GetTileElementOffset<LeftZz>(r, c) != std::size_t((r / 16) * 2 * 512 + (c / 32) * 512 + (r % 16) * 32 + c % 32);
      // Acc float: NZ with 16 x 16 fractals
      bad += GetTileElementOffset<TileAcc<float, 48, 64>>(r, c) != std::size_t((c / 16) * 48 * 16 + r * 16 + c % 16);
    }
  BOOST_TEST(bad == 0);
}

namespace {
// x to `bits` fraction bits from its definition (frexp / ldexp), half away from zero or half to even.
double tf32_ref(float x, int bits, bool rint) {
  int e = 0;
  const double m = std::frexp(double(x), &e);  // |m| in [0.5, 1): bits + 1 significant bits kept
  const double s = std::ldexp(m, bits + 1);
  return std::ldexp(rint ? std::nearbyint(s) : std::round(s), e - bits - 1);
}

// C = A * B for float A, B with more fraction bits than TF32 keeps; mode < 0: no TF32 mode.
// Returns the elements outside the bound of the reference on inputs rounded (or not) as `ref_bits` says.
int tf32_mismatches(Target tg, int mode, int ref_bits, bool ref_rint) {
  constexpr int M = 16, K = 40, N = 32;
  std::vector<float> a(M * K), b(K * N), out(M * N);
  for (int i = 0; i < M * K; ++i) a[std::size_t(i)] = 1.0f + float((i * 7919) % 4093) * 0x1p-12f + float(i % 5) * 0x1p-22f;
  for (int i = 0; i < K * N; ++i) b[std::size_t(i)] = -1.5f + float((i * 104729) % 4091) * 0x1p-12f + float(i % 3) * 0x1p-21f;
  {
    ScopedTarget scope(tg);
    Nz<float, M, K> ma;
    Zn<float, K, N> mb;
    TileLeft<float, M, K> l;
    TileRight<float, K, N> r;
    TileAcc<float, M, N> c;
    TASSIGN(ma, 0);
    TASSIGN(mb, 0x8000);
    TASSIGN(l, 0);
    TASSIGN(r, 0);
    TASSIGN(c, 0);
    GlobalTensor<float, Shape<1, 1, 1, M, K>, pto::Stride<1, 1, 1, K, 1>> ga(a.data());
    GlobalTensor<float, Shape<1, 1, 1, K, N>, pto::Stride<1, 1, 1, 1, K>, Layout::DN> gb(b.data());  // column j at j * K
    TLOAD(ma, ga);
    TLOAD(mb, gb);
    TMOV(l, ma);
    TMOV(r, mb);
    if (mode >= 0) l.SetMadTF32Mode(RoundMode(mode));
    TMATMUL(c, l, r);
    l.ResetMadMode();
    GlobalTensor<float, Shape<1, 1, 1, M, N>, pto::Stride<1, 1, 1, N, 1>> go(out.data());
    TSTORE(go, c);
  }
  int bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0, mag = 0;
      for (int p = 0; p < K; ++p) {
        const float x = a[std::size_t(i) * K + p], y = b[std::size_t(j) * K + p];
        const double t = ref_bits ? tf32_ref(x, ref_bits, ref_rint) * tf32_ref(y, ref_bits, ref_rint) : double(x) * double(y);
        ref += t;
        mag += std::abs(t);
      }
      bad += !(std::abs(double(out[std::size_t(i) * N + j]) - ref) <= (K + 2) * 0x1p-24 * mag);
    }
  return bad;
}
}  // namespace

// Tile::SetMadTF32Mode: float inputs keep 11 fraction bits on A2A3 and 10 on A5 (pto_tile.hpp's e8m11 /
// e8m10), rounded by the mode; ResetMadMode ends it. Each run also fails the other references.
BOOST_AUTO_TEST_CASE(the_tf32_mode_rounds_float_inputs) {
  const int round = int(RoundMode::CAST_ROUND), rint = int(RoundMode::CAST_RINT);
  for (Target tg : {Target::A2A3, Target::A5}) {
    const int bits = tg == Target::A2A3 ? 11 : 10;
    BOOST_TEST_CONTEXT(name_of(tg)) {
      BOOST_TEST(tf32_mismatches(tg, -1, 0, false) == 0);
      BOOST_TEST(tf32_mismatches(tg, round, bits, false) == 0);
      BOOST_TEST(tf32_mismatches(tg, rint, bits, true) == 0);
      BOOST_TEST(tf32_mismatches(tg, round, 0, false) > 0);        // the mode changes the result ...
      BOOST_TEST(tf32_mismatches(tg, round, bits, true) > 0);      // ... the two roundings differ ...
      BOOST_TEST(tf32_mismatches(tg, rint, 21 - bits, true) > 0);  // ... and so do the targets
    }
  }
  TileLeft<float, 16, 16> l;
  const std::string e = pto_test::error_of([&] { l.SetMadTF32Mode(RoundMode::CAST_FLOOR); });
  BOOST_TEST(pto_test::contains(e, "SetMadTF32Mode: operand tf32TransMode must be RoundMode::CAST_ROUND or RoundMode::CAST_RINT"), e);
}

namespace {
// GEMV as pto-isa's kernels spell it: A is one ND row in a 1-row Mat tile, moved to a 1-row Left tile
// (TEXTRACT or TMOV: whole 512-byte blocks), B loaded DN -> ZN; TGEMV (or split over K: TGEMV /
// TGEMV_BIAS then TGEMV_ACC, with the AccPhase and STPhase forms) into a 16-row Acc tile, row 0 stored.
template <class In, int KL, int NT>
int gemv_vector_mismatches(Target tg, int k, int n, int splits, bool bias, bool extract) {
  const int ks = k / splits;  // K per step
  std::vector<In> a(static_cast<std::size_t>(k)), b(static_cast<std::size_t>(k) * std::size_t(n));
  for (int p = 0; p < k; ++p) a[std::size_t(p)] = value<In>(0, p, 1);
  for (int j = 0; j < n; ++j)
    for (int p = 0; p < k; ++p) b[std::size_t(j) * k + p] = value<In>(p, j, 2);  // DN: column j at j * k
  std::vector<float> bvec(NT, 0.0f), out(std::size_t(n), -7.0f);
  for (int j = 0; j < n; ++j) bvec[std::size_t(j)] = float(j % 5) - 2.0f;
  {
    ScopedTarget scope(tg);
    Tile<TileType::Mat, In, 1, KL, BLayout::RowMajor, 1, -1> ma(ks);
    Tile<TileType::Mat, In, KL, NT, BLayout::RowMajor, -1, -1, SLayout::ColMajor, 512> mb(ks, n);
    TileLeft<In, 1, KL, 1, -1> l(ks);
    TileRight<In, KL, NT, -1, -1> r(ks, n);
    TileAcc<float, 16, NT, 1, -1> c(n);
    Tile<TileType::Mat, float, 1, NT> mbias;
    Tile<TileType::Bias, float, 1, NT> bt;
    TASSIGN(ma, 0);
    TASSIGN(mb, 0x4000);
    TASSIGN(mbias, 0x40000);
    TASSIGN(l, 0);
    TASSIGN(r, 0);
    TASSIGN(c, 0);
    TASSIGN(bt, 0);
    if (bias) {
      GlobalTensor<float, Shape<1, 1, 1, 1, NT>, pto::Stride<1, 1, 1, NT, 1>> gbias(bvec.data());
      TLOAD(mbias, gbias);
      TMOV(bt, mbias);
    }
    for (int s = 0; s < splits; ++s) {
      Gm2D<In> ga(a.data() + s * ks, {1, ks}, {k});
      Gm2DN<In> gb(b.data() + s * ks, {ks, n}, {k});
      TLOAD(ma, ga);
      TLOAD(mb, gb);
      if (extract) TEXTRACT(l, ma, 0, 0);
      else TMOV(l, ma);
      TMOV(r, mb);
      if (s > 0) TGEMV_ACC<AccPhase::Final>(c, c, l, r);
      else if (bias) TGEMV_BIAS(c, l, r, bt);
      else TGEMV<AccPhase::Partial>(c, l, r);
    }
    Gm2D<float> go(out.data(), {1, n}, {n});
    TSTORE<STPhase::Final>(go, c);
  }
  int bad = 0;
  for (int j = 0; j < n; ++j) {
    double ref = bias ? double(bvec[std::size_t(j)]) : 0.0, mag = std::abs(ref);
    for (int p = 0; p < k; ++p) {
      const double t = double(a[std::size_t(p)]) * double(b[std::size_t(j) * k + p]);
      ref += t;
      mag += std::abs(t);
    }
    bad += !(std::abs(double(out[std::size_t(j)]) - ref) <= (k + 2) * 0x1p-24 * mag);
  }
  return bad;
}
}  // namespace

// pto-isa's GEMV cases: a2a3 1x16x32 and 1x200x32 (half), split-K 1x512x32 in two steps of 256 with
// bias; a5 1x300x60 and its split-K 1x512x85 with the phase forms. f32 and int8 rows move too.
BOOST_AUTO_TEST_CASE(gemv_takes_a_row_vector_from_a_1_row_mat_tile) {
  for (Target tg : {Target::A2A3, Target::A5})
    BOOST_TEST_CONTEXT(name_of(tg)) {
      BOOST_TEST((gemv_vector_mismatches<half, 256, 32>(tg, 16, 32, 1, false, true)) == 0);
      BOOST_TEST((gemv_vector_mismatches<half, 256, 32>(tg, 200, 32, 1, false, false)) == 0);
      BOOST_TEST((gemv_vector_mismatches<half, 256, 32>(tg, 512, 32, 2, true, true)) == 0);
      BOOST_TEST((gemv_vector_mismatches<half, 512, 64>(tg, 300, 60, 1, false, true)) == 0);
      BOOST_TEST((gemv_vector_mismatches<half, 256, 96>(tg, 512, 85, 2, true, false)) == 0);
      BOOST_TEST((gemv_vector_mismatches<float, 128, 32>(tg, 100, 20, 1, false, true)) == 0);
    }
  // the window's rules: indexCol on a 512-byte block, the blocks inside src
  using pto_test::contains;
  auto window = [](int c0) {
    return pto_test::error_of([&] {
      Tile<TileType::Mat, half, 1, 512, BLayout::RowMajor> ma;
      TileLeft<half, 1, 256, 1, 200> l;
      TASSIGN(ma, 0);
      TASSIGN(l, 0);
      TEXTRACT(l, ma, 0, std::uint16_t(c0));
    });
  };
  BOOST_TEST(window(256) == "no pto::Error");
  std::string e = window(128);
  BOOST_TEST(contains(e, "TEXTRACT: operand src Tile<Mat,half,1,512> valid 1x512 (GEMV's row vector): indexRow 0 must be 0 "
                         "and indexCol 128 a multiple of 256 (whole 512-byte blocks)"), e);
  // TMOV's STPhase forms are A5's
  e = pto_test::error_of([] {
    ScopedTarget scope(Target::A2A3);
    TileAcc<float, 16, 16> c;
    Nz<float, 16, 16> m;
    TASSIGN(c, 0);
    TASSIGN(m, 0);
    TMOV<STPhase::Final>(m, c);
  });
  BOOST_TEST(contains(e, "TMOV<STPhase, ...>: the STPhase forms of TMOV are A5's"), e);
}

// A2A3's int32 -> int16 out of L0C into L1 (pto-isa's tmov_acc2mat golden): an arithmetic right shift by
// the word's bits 35-32 plus one, then saturation; no scale, no offset. One word, or one per column.
BOOST_AUTO_TEST_CASE(int32_to_int16_shifts_and_saturates) {
  constexpr int M = 16, N = 32;
  ScopedTarget scope(Target::A2A3);
  TileAcc<std::int32_t, M, N> c;
  Nz<std::int16_t, M, N> mat, matv;
  TASSIGN(c, 0);
  TASSIGN(mat, 0);
  TASSIGN(matv, 0x2000);
  auto acc = [](int r, int j) { return double((r * 977 + j * 131) % 4001 - 2000) * double(1 << (j % 12)) + (j == 3 ? 1e9 : 0); };
  for (int r = 0; r < M; ++r)
    for (int j = 0; j < N; ++j) c.data()[GetTileElementOffset<decltype(c)>(r, j)] = std::int32_t(acc(r, j));
  auto ref = [&](int r, int j, int field) {  // floor(x / 2^(field + 1)), clamped
    return std::clamp(std::floor(acc(r, j) / std::ldexp(1.0, field + 1)), -32768.0, 32767.0);
  };
  const std::uint64_t word = (std::uint64_t(4) << 32) | 0x3F800000u | (std::uint64_t(0x1FF) << 37);  // shift 5; scale, offset ignored
  TMOV(mat, c, word);
  std::vector<std::uint64_t> words(N);
  for (int j = 0; j < N; ++j) words[std::size_t(j)] = std::uint64_t(j % 16) << 32;
  auto fp = scaling_words<N>(words, 0x8000);
  TMOV_FP(matv, c, fp);
  int bad = 0, saturated = 0;
  for (int r = 0; r < M; ++r)
    for (int j = 0; j < N; ++j) {
      bad += at(mat, r, j) != ref(r, j, 4);
      bad += at(matv, r, j) != ref(r, j, j % 16);
      saturated += std::abs(ref(r, j, j % 16)) == 32768.0 || ref(r, j, j % 16) == 32767.0;
    }
  BOOST_TEST(bad == 0);
  BOOST_TEST(saturated > 0);
  // A5's fixpipe has no int16 output
  const std::string e = pto_test::error_of([] {
    ScopedTarget a5(Target::A5);
    TileAcc<std::int32_t, 16, 32> c5;
    Nz<std::int16_t, 16, 32> m5;
    TASSIGN(c5, 0);
    TASSIGN(m5, 0);
    TMOV(m5, c5, std::uint64_t(1) << 32);
  });
  BOOST_TEST(pto_test::contains(e, "int32_t -> int16_t (the fixpipe's shift mode) is A2A3's; A5's fixpipe has no int16 output"), e);
}

namespace {
// TSTORE of an m x n Acc tile to an NZ tensor [S0, S1, S2, 16, C0]: element (r, c) lands at
// (c / C0) * (S2 * 16 * C0) + r * C0 + c % C0 (pto-isa's tstore_acc2gm NZ golden), converted.
template <class A, class E, int S0, int S1, int S2, int C0>
int nz_store_mismatches(Target tg) {
  constexpr int M = S2 * 16, N = S0 * S1 * C0;
  std::vector<E> out(std::size_t(M) * N, E(0));
  {
    ScopedTarget scope(tg);
    TileAcc<A, M, N> c;
    TASSIGN(c, 0);
    fill_acc(c, acc_value);
    GlobalTensor<E, Shape<S0, S1, S2, 16, C0>, pto::Stride<S1 * S2 * 16 * C0, S2 * 16 * C0, 16 * C0, C0, 1>, Layout::NZ> g(out.data());
    TSTORE(g, c);
  }
  int bad = 0;
  for (int r = 0; r < M; ++r)
    for (int j = 0; j < N; ++j)
      bad += double(out[std::size_t(j / C0) * (S2 * 16 * C0) + std::size_t(r) * C0 + std::size_t(j % C0)]) != double(E(A(acc_value(r, j))));
  return bad;
}
}  // namespace

// pto-isa's NZ output cases: float [2,2,2,16,16], float with the channel split [3,8,4,16,8], int32
// [2,3,4,16,16], float -> bf16 [4,4,3,16,16]; both targets.
BOOST_AUTO_TEST_CASE(tstore_writes_nz_tensors_from_l0c) {
  for (Target tg : {Target::A2A3, Target::A5})
    BOOST_TEST_CONTEXT(name_of(tg)) {
      BOOST_TEST((nz_store_mismatches<float, float, 2, 2, 2, 16>(tg)) == 0);
      BOOST_TEST((nz_store_mismatches<float, float, 3, 8, 4, 8>(tg)) == 0);
      BOOST_TEST((nz_store_mismatches<std::int32_t, std::int32_t, 2, 3, 4, 16>(tg)) == 0);
      BOOST_TEST((nz_store_mismatches<float, bfloat16_t, 4, 4, 3, 16>(tg)) == 0);
    }
}

// A2A3's TSTORE of an NZ Mat tile to an NZ tensor (a2a3 TStore.hpp's raw copy of C0 column blocks):
// the bytes TLOAD ND -> NZ put in L1 come back as the NZ tensor's [S0, S1, S2, 16, C0] (element (r, c) at
// (c / C0) * S2 * 16 * C0 + r * C0 + c % C0); A5 stores no Mat tile.
BOOST_AUTO_TEST_CASE(a2a3_stores_an_nz_mat_tile) {
  constexpr int M = 32, N = 48, C0 = 16;
  std::vector<half> in(M * N), out(M * N, half(0.0f));
  for (int i = 0; i < M * N; ++i) in[std::size_t(i)] = half(float(i % 251) - 125.0f);
  GlobalTensor<half, Shape<1, 1, 1, M, N>, pto::Stride<1, 1, 1, N, 1>> gin(in.data());
  GlobalTensor<half, Shape<1, N / C0, M / 16, 16, C0>, pto::Stride<N * M, M * C0, 16 * C0, C0, 1>, Layout::NZ> gout(out.data());
  {
    ScopedTarget scope(Target::A2A3);
    Nz<half, M, N> mat;
    TASSIGN(mat, 0);
    TLOAD(mat, gin);
    TSTORE(gout, mat);
  }
  int bad = 0;
  for (int r = 0; r < M; ++r)
    for (int j = 0; j < N; ++j)
      bad += out[std::size_t(j / C0) * M * C0 + std::size_t(r) * C0 + std::size_t(j % C0)] != in[std::size_t(r) * N + std::size_t(j)];
  BOOST_TEST(bad == 0);
  const std::string e = pto_test::error_of([&] {
    ScopedTarget scope(Target::A5);
    Nz<half, M, N> mat;
    TASSIGN(mat, 0);
    TSTORE(gout, mat);
  });
  BOOST_TEST(pto_test::contains(e, "a Mat (L1) source is an A2A3 form"), e);
}

// TFILLPAD of an NZ Mat tile (a2a3 TFillPad.hpp's create_cbuf_matrix): zero 32-byte lines below the valid
// rows in the column blocks the valid columns touch, and every column block past them; the valid
// columns' last block keeps its tail. RowAlignedPadding zeroes only up to the next multiple of 16 rows.
BOOST_AUTO_TEST_CASE(tfillpad_zeroes_around_the_valid_region_of_an_nz_mat_tile) {
  auto run = [](auto tile, int vr, int vc, bool row_aligned) {
    using T = decltype(tile);
    T t(vr, vc);
    TASSIGN(t, 0);
    std::memset(static_cast<void*>(t.data()), 0x3C, sizeof(half) * T::Rows * T::Cols);  // 0x3C3C: a nonzero half
    TFILLPAD(t, t);
    int bad = 0;
    const int vcb = (vc + 15) / 16 * 16, last = row_aligned ? (vr + 15) / 16 * 16 : T::Rows;
    for (int r = 0; r < T::Rows; ++r)
      for (int c = 0; c < T::Cols; ++c) {
        const bool zero = c < vcb ? (r >= vr && r < last) : !row_aligned;
        bad += (at(t, r, c) == 0.0) != zero;
      }
    return bad;
  };
  for (Target tg : {Target::A2A3, Target::A5}) {
    ScopedTarget scope(tg);
    BOOST_TEST(run(Tile<TileType::Mat, half, 32, 64, BLayout::ColMajor, -1, -1, SLayout::RowMajor, 512>{}, 20, 40, false) == 0);
    BOOST_TEST(run(Tile<TileType::Mat, half, 48, 32, BLayout::ColMajor, -1, -1, SLayout::RowMajor, 512, PadValue::Null,
                        CompactMode::RowAlignedPadding>{},
                   20, 32, true) == 0);
  }
}

// TMOV Mat -> Bias moves 64-byte units: A2A3 checks src's row (a2a3 TMov.hpp), A5 dst's (a5 TMov.hpp), so
// 16 halves into 16 floats run on A5 only.
BOOST_AUTO_TEST_CASE(the_bias_move_checks_the_side_each_target_checks) {
  auto move = [](Target tg) {
    return pto_test::error_of([&] {
      ScopedTarget scope(tg);
      Tile<TileType::Mat, half, 1, 16> m;
      Tile<TileType::Bias, float, 1, 16> b;
      TASSIGN(m, 0);
      TASSIGN(b, 0);
      TMOV(b, m);
    });
  };
  BOOST_TEST(move(Target::A5) == "no pto::Error");
  const std::string e = move(Target::A2A3);
  BOOST_TEST(pto_test::contains(e, "src's row must be a multiple of 64 bytes on A2A3 (a2a3 checks src, a5 dst)"), e);
}

namespace {
// TSTORE of an m x n Acc tile to a convolution output, against the dense N-major tensor pto-isa's goldens
// build (a numpy reshape and transpose): `at(r, c)` is element (r, c)'s offset there; every other
// element of GM stays as it was (7).
template <class A, class E, int M, int N, class G, bool Relu = false, class At>
int conv_store_mismatches(Target tg, std::size_t gm_elems, At at) {
  std::vector<E> out(gm_elems, E(7));
  std::vector<char> written(gm_elems, 0);
  {
    ScopedTarget scope(tg);
    using C = TileAcc<A, (M + 15) / 16 * 16, (N + 15) / 16 * 16, M, N>;
    C c;
    TASSIGN(c, 0);
    fill_acc(c, acc_value);
    G g(out.data());
    TSTORE<C, G, AtomicType::AtomicNone, Relu ? ReluPreMode::NormalRelu : ReluPreMode::NoRelu>(g, c);
  }
  int bad = 0;
  for (int r = 0; r < M; ++r)
    for (int j = 0; j < N; ++j) {
      const std::size_t o = at(r, j);
      written[o] = 1;
      const double v = Relu ? std::max(0.0, acc_value(r, j)) : acc_value(r, j);
      bad += double(out[o]) != double(E(A(v)));
    }
  for (std::size_t o = 0; o < gm_elems; ++o) bad += !written[o] && double(out[o]) != 7.0;
  return bad;
}
// A2A3's NDC1HWC0 [N, D, C1, H, W] (C0 from the dtype): rows (n, h, w), columns (d, c1, c0).
template <class A, class E, int N, int D, int C1, int H, int W, int C0, bool Relu = false>
int ndc1hwc0_mismatches() {
  using G = GlobalTensor<E, Shape<N, D, C1, H, W>, pto::Stride<D * C1 * H * W * C0, C1 * H * W * C0, H * W * C0, W * C0, C0>, Layout::NDC1HWC0>;
  return conv_store_mismatches<A, E, N * H * W, D * C1 * C0, G, Relu>(Target::A2A3, std::size_t(N) * D * C1 * H * W * C0, [](int r, int c) {
    const int n = r / (H * W), hw = r % (H * W), c0 = c % C0, c1 = (c / C0) % C1, d = c / (C1 * C0);
    return ((std::size_t(n * D + d) * C1 + c1) * H * W + hw) * C0 + c0;
  });
}
}  // namespace

// The fixpipe's convolution outputs with pto-isa's tstore_acc2gm shapes: A2A3 NDC1HWC0 (float in C0 = 8,
// the channel split) and NC1HWC0; A5 NHWC (N = 4), NCHW and NCDHW (one D plane of three; the others
// untouched). The errors: each target's layouts only, NHWC's loop count.
BOOST_AUTO_TEST_CASE(tstore_writes_convolution_outputs) {
  BOOST_TEST((ndc1hwc0_mismatches<float, float, 1, 2, 4, 16, 8, 8>()) == 0);
  BOOST_TEST((ndc1hwc0_mismatches<std::int32_t, std::int32_t, 1, 3, 1, 16, 16, 16>()) == 0);
  BOOST_TEST((ndc1hwc0_mismatches<float, bfloat16_t, 1, 2, 3, 10, 4, 16>()) == 0);
  BOOST_TEST((ndc1hwc0_mismatches<float, float, 1, 1, 8, 9, 7, 8, true>()) == 0);
  {  // NC1HWC0 [1, 4, 5, 6, 16], float -> half
    constexpr int C1 = 4, H = 5, W = 6, C0 = 16;
    using G = GlobalTensor<half, Shape<1, C1, H, W, C0>, pto::Stride<C1 * H * W * C0, H * W * C0, W * C0, C0, 1>, Layout::NC1HWC0>;
    BOOST_TEST((conv_store_mismatches<float, half, H * W, C1 * C0, G>(Target::A2A3, std::size_t(C1) * H * W * C0, [](int r, int c) {
                 return (std::size_t(c / C0) * H * W + std::size_t(r)) * C0 + std::size_t(c % C0);
               })) == 0);
  }
  {  // NHWC [1, 4, 8, 16, 63], int32 (N = 4: rows of every image, 63 apart)
    using G = GlobalTensor<std::int32_t, Shape<1, 4, 8, 16, 63>, pto::Stride<4 * 8 * 16 * 63, 8 * 16 * 63, 16 * 63, 63, 1>, Layout::NHWC>;
    BOOST_TEST((conv_store_mismatches<std::int32_t, std::int32_t, 512, 63, G>(Target::A5, 512 * 63, [](int r, int c) {
                 return std::size_t(r) * 63 + std::size_t(c);
               })) == 0);
  }
  {  // NHWC [1, 1, 2, 63, 43] with ReLU
    using G = GlobalTensor<float, Shape<1, 1, 2, 63, 43>, pto::Stride<2 * 63 * 43, 2 * 63 * 43, 63 * 43, 43, 1>, Layout::NHWC>;
    BOOST_TEST((conv_store_mismatches<float, float, 126, 43, G, true>(Target::A5, 126 * 43, [](int r, int c) {
                 return std::size_t(r) * 43 + std::size_t(c);
               })) == 0);
  }
  {  // NCHW [1, 1, 43, 2, 63], float -> bf16: channel planes of H * W
    using G = GlobalTensor<bfloat16_t, Shape<1, 1, 43, 2, 63>, pto::Stride<43 * 126, 43 * 126, 126, 63, 1>, Layout::NCHW>;
    BOOST_TEST((conv_store_mismatches<float, bfloat16_t, 126, 43, G>(Target::A5, 43 * 126, [](int r, int c) {
                 return std::size_t(c) * 126 + std::size_t(r);
               })) == 0);
  }
  {  // NCDHW [1, 63, 1, 32, 16] of a tensor with D = 3: plane d = 0, channels 3 * 512 apart
    using G = GlobalTensor<std::int32_t, Shape<1, 63, 1, 32, 16>, pto::Stride<63 * 3 * 512, 3 * 512, 512, 16, 1>, Layout::NCDHW>;
    BOOST_TEST((conv_store_mismatches<std::int32_t, std::int32_t, 512, 63, G>(Target::A5, 63 * 3 * 512, [](int r, int c) {
                 return std::size_t(c) * 3 * 512 + std::size_t(r);
               })) == 0);
  }
  using pto_test::contains;
  using pto_test::error_of;
  auto store = [](Target tg, auto layout, auto s0) {
    return error_of([&] {
      ScopedTarget scope(tg);
      std::vector<float> out(2 * 512 * 16);
      TileAcc<float, 32, 16> c;
      TASSIGN(c, 0);
      constexpr Layout L = decltype(layout)::value;
      constexpr int S0 = decltype(s0)::value;
      if constexpr (L == Layout::NHWC) {
        GlobalTensor<float, Shape<S0, 1, 4, 8, 16>, pto::Stride<512, 512, 128, 16, 1>, L> g(out.data());
        TSTORE(g, c);
      } else {
        GlobalTensor<float, Shape<1, 1, 2, 4, 8>, pto::Stride<512, 512, 256, 64, 8>, L> g(out.data());  // NDC1HWC0: C0 = 8
        TSTORE(g, c);
      }
    });
  };
  using Nhwc = std::integral_constant<Layout, Layout::NHWC>;
  using Ndc1hwc0 = std::integral_constant<Layout, Layout::NDC1HWC0>;
  using One = std::integral_constant<int, 1>;
  std::string e = store(Target::A5, Ndc1hwc0{}, One{});
  BOOST_TEST((contains(e, "TSTORE: operand dst GlobalTensor<float,NDC1HWC0>") && contains(e, "the fixpipe writes NC1HWC0 / NDC1HWC0 on A2A3 only")), e);
  BOOST_TEST(store(Target::A2A3, Ndc1hwc0{}, One{}) == "no pto::Error");
  e = store(Target::A2A3, Nhwc{}, One{});
  BOOST_TEST(contains(e, "the fixpipe writes NHWC / NCHW / NCDHW on A5 only (A2A3 has NC1HWC0 and NDC1HWC0)"), e);
  e = store(Target::A5, Nhwc{}, std::integral_constant<int, 2>{});
  BOOST_TEST(contains(e, "NHWC's dim 0 (the fixpipe's outer loop count, 1 in every pto-isa kernel) must be 1"), e);
  BOOST_TEST(store(Target::A5, Nhwc{}, One{}) == "no pto::Error");
}
