// The cube: TLOAD GM -> Mat, TEXTRACT / TMOV Mat -> Left / Right / Bias, TMATMUL and its forms, TSTORE
// Acc -> GM, against references computed in double (integers exactly), on both targets; the M pipe's
// cost against pto-isa's TMATMUL cases; the errors.
// Plain kernels called directly run on the implicit core, instruction by instruction.
#define BOOST_TEST_MODULE cube
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

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
