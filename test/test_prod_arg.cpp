// TROWPROD, TCOLPROD and the index reductions TROWARGMAX, TROWARGMIN, TCOLARGMAX, TCOLARGMIN (index and
// value forms): pto-isa's CPU test cases (tests/cpu/st/testcase/trowprod, tcolprod, targreduceop,
// trowreduceidx, tcolreduceidx: shapes, dtypes, ties), both targets, random shapes, errors, cycles.
//
// References: the products in each target's order, written here from the NPU headers (A2A3 TRowProd:
// per-lane block products, the lanes multiplied on the scalar unit in float for half; A5: per-lane
// chunk products, then a halving tree; TCOLPROD: A2A3 row after row, A5 row 0 times products of row
// pairs), every multiply rounded once to T in double; and against the exact product in double within
// the rounding the order allows. Indices: the first occurrence, exactly.
#define BOOST_TEST_MODULE prod_arg
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <pto/pto-inst.hpp>

#include "element_ref.hpp"

using namespace pto;
using pto_test::bits_of;
using pto_test::contains;
using pto_test::error_of;
using pto_test::kFloat;
using pto_test::round_to;
using pto_test::to_double;

namespace {
using Rng = std::mt19937_64;
template <class T, int R, int C> using DynTile = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1>;
template <class T, int R, int C> using VecTile = Tile<TileType::Vec, T, R, C>;
template <class T, int C> using Gm = GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, C, 1>>;

template <class T> T mul(T a, T b) {
  if constexpr (kFloat<T>) return round_to<T>(to_double(a) * to_double(b));
  else return T(std::uint64_t(a) * std::uint64_t(b));
}

template <class T>
T row_prod_ref(Target tg, const T* x, int n) {
  if (tg == Target::A2A3) {
    constexpr int B = int(32 / sizeof(T));
    std::vector<T> lane(B, T(1));
    for (int j = 0; j < n; ++j) lane[std::size_t(j % B)] = mul(lane[std::size_t(j % B)], x[j]);
    if constexpr (std::is_same_v<T, half>) {
      float acc = float(lane[0]);
      for (int l = 1; l < B; ++l) acc = float(double(acc) * double(float(lane[std::size_t(l)])));
      return T(acc);
    }
    T acc = lane[0];
    for (int l = 1; l < B; ++l) acc = mul(acc, lane[std::size_t(l)]);
    return acc;
  }
  constexpr int E = int(256 / sizeof(T));
  std::vector<T> v(E, T(1));
  for (int j = 0; j < n; ++j) v[std::size_t(j % E)] = mul(v[std::size_t(j % E)], x[j]);
  for (int h = E / 2; h >= 1; h /= 2)
    for (int m = 0; m < h; ++m) v[std::size_t(m)] = mul(v[std::size_t(m)], v[std::size_t(m + h)]);
  return v[0];
}
template <class T>
std::vector<T> col_prod_ref(Target tg, const std::vector<T>& x, int R, int C, int stride) {
  std::vector<T> acc(x.begin(), x.begin() + C);
  auto at = [&](int i, int j) { return x[std::size_t(i) * stride + j]; };
  for (int j = 0; j < C; ++j) {
    if (tg == Target::A2A3) {
      for (int i = 1; i < R; ++i) acc[std::size_t(j)] = mul(acc[std::size_t(j)], at(i, j));
    } else {
      int i = 1;
      for (; i + 1 < R; i += 2) acc[std::size_t(j)] = mul(acc[std::size_t(j)], mul(at(i, j), at(i + 1, j)));
      if (i < R) acc[std::size_t(j)] = mul(acc[std::size_t(j)], at(i, j));
    }
  }
  return acc;
}

// ---- products ----------------------------------------------------------------------------------------------
template <class T, int R, int C>
void check_prod(bool row, Target tg, int vr, int vc, double lo, double hi, unsigned seed) {
  Rng g(seed);
  std::vector<T> x(static_cast<std::size_t>(R) * C);
  for (auto& v : x) {
    if constexpr (std::is_integral_v<T>) v = T(std::uniform_int_distribution<int>(int(lo), int(hi))(g));
    else v = T(float(std::uniform_real_distribution<double>(lo, hi)(g)));
  }
  std::vector<T> out(static_cast<std::size_t>(R) * C, T(0)), xh = x;
  launch({.target = tg, .check = SyncCheck::Throw}, [=](T* o, T* px) {
    DynTile<T, R, C> s(vr, vc), tmp(vr, vc);
    DynTile<T, R, C> d(row ? vr : 1, row ? 1 : vc);
    TASSIGN(s, 0);
    TASSIGN(tmp, std::size_t(R) * C * sizeof(T));
    TASSIGN(d, 2 * std::size_t(R) * C * sizeof(T));
    Gm<T, C> gs(px, {vr, vc}), go(o, {row ? vr : 1, row ? 1 : vc});
    TLOAD(s, gs);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    if (row) TROWPROD(d, s, tmp);
    else TCOLPROD(d, s);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, d);
  }, out, xh);
  const std::string what = std::string(row ? "TROWPROD " : "TCOLPROD ") + name_of(dtype_v<T>) + " " + std::to_string(vr) + "x" +
                           std::to_string(vc) + " on " + name_of(tg);
  const int n = row ? vr : vc;
  const std::vector<T> col = row ? std::vector<T>{} : col_prod_ref<T>(tg, x, vr, vc, C);
  std::size_t bad = 0;
  for (int k = 0; k < n; ++k) {
    const T got = row ? out[std::size_t(k) * C] : out[std::size_t(k)];
    const T want = row ? row_prod_ref<T>(tg, x.data() + std::size_t(k) * C, vc) : col[std::size_t(k)];
    if (bits_of(got) != bits_of(want) && bad++ == 0)
      BOOST_ERROR(what << ": result " << k << " is " << to_double(got) << ", want " << to_double(want));
    if constexpr (kFloat<T>) {  // the exact product, within one rounding per multiply
      double exact = 1;
      const int len = row ? vc : vr;
      for (int j = 0; j < len; ++j) exact *= to_double(row ? x[std::size_t(k) * C + j] : x[std::size_t(j) * C + k]);
      const double u = std::is_same_v<T, float> ? 0x1p-24 : std::is_same_v<T, half> ? 0x1p-11 : 0x1p-8;
      const double max = std::is_same_v<T, half> ? 65504.0 : 3.4e38;
      if (std::fabs(exact) < max) BOOST_TEST(std::fabs(to_double(got) - exact) <= 1.01 * len * u * std::fabs(exact) + 1e-300, what);
    }
  }
  BOOST_TEST(bad == 0u, what << ": " << bad << " wrong results");
}

// ---- index reductions --------------------------------------------------------------------------------------
enum class Arg { RowMax, RowMin, ColMax, ColMin };
const char* name(Arg a) {
  constexpr const char* n[] = {"TROWARGMAX", "TROWARGMIN", "TCOLARGMAX", "TCOLARGMIN"};
  return n[int(a)];
}
bool is_row(Arg a) { return a == Arg::RowMax || a == Arg::RowMin; }
bool is_max(Arg a) { return a == Arg::RowMax || a == Arg::ColMax; }

template <class V, class I, class S, class Tm>
void issue(Arg a, V* val, I& idx, S& src, Tm& tmp) {
  switch (a) {
    case Arg::RowMax: val ? (void)TROWARGMAX(*val, idx, src, tmp) : (void)TROWARGMAX(idx, src, tmp); break;
    case Arg::RowMin: val ? (void)TROWARGMIN(*val, idx, src, tmp) : (void)TROWARGMIN(idx, src, tmp); break;
    case Arg::ColMax: val ? (void)TCOLARGMAX(*val, idx, src, tmp) : (void)TCOLARGMAX(idx, src, tmp); break;
    case Arg::ColMin: val ? (void)TCOLARGMIN(*val, idx, src, tmp) : (void)TCOLARGMIN(idx, src, tmp); break;
  }
}

// src tile SR x SC (valid vr x vc), index and value tiles DR x DC; x holds the SR x SC source.
template <class T, class Ix, int SR, int SC, int DR = SR, int DC = SC>
void check_arg(Arg a, Target tg, bool with_value, int vr, int vc, const std::vector<T>& x) {
  const bool row = is_row(a);
  const int n = row ? vr : vc;
  std::vector<Ix> idx_out(static_cast<std::size_t>(DR) * DC, Ix(0));
  std::vector<T> val_out(static_cast<std::size_t>(DR) * DC, T(0)), xh = x;
  launch({.target = tg, .check = SyncCheck::Throw}, [=](Ix* oi, T* ov, T* px) {
    DynTile<T, SR, SC> s(vr, vc), tmp(SR, SC);
    DynTile<Ix, DR, DC> di(row ? vr : 1, row ? 1 : vc);
    DynTile<T, DR, DC> dv(row ? vr : 1, row ? 1 : vc);
    constexpr std::size_t kS = std::size_t(SR) * SC * sizeof(T);
    TASSIGN(s, 0);
    TASSIGN(tmp, kS);
    TASSIGN(di, 2 * kS);
    TASSIGN(dv, 2 * kS + std::size_t(DR) * DC * sizeof(Ix));
    Gm<T, SC> gs(px, {vr, vc});
    Gm<Ix, DC> gi(oi, {row ? vr : 1, row ? 1 : vc});
    Gm<T, DC> gv(ov, {row ? vr : 1, row ? 1 : vc});
    TLOAD(s, gs);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    issue(a, with_value ? &dv : nullptr, di, s, tmp);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gi, di);
    if (with_value) TSTORE(gv, dv);
  }, idx_out, val_out, xh);
  const std::string what = std::string(name(a)) + (with_value ? " (value form) " : " ") + name_of(dtype_v<T>) + " -> " +
                           name_of(dtype_v<Ix>) + " " + std::to_string(vr) + "x" + std::to_string(vc) + " on " + name_of(tg);
  std::size_t bad = 0;
  for (int l = 0; l < n; ++l) {
    int best = 0;
    auto at = [&](int k) { return to_double(row ? x[std::size_t(l) * SC + k] : x[std::size_t(k) * SC + l]); };
    const int len = row ? vc : vr;
    for (int k = 1; k < len; ++k)
      if (is_max(a) ? at(k) > at(best) : at(k) < at(best)) best = k;
    const std::size_t o = row ? std::size_t(l) * DC : std::size_t(l);
    if (std::int64_t(idx_out[o]) != best && bad++ == 0)
      BOOST_ERROR(what << ": result " << l << " is index " << std::int64_t(idx_out[o]) << ", want " << best);
    if (with_value) BOOST_TEST(to_double(val_out[o]) == at(best), what);
  }
  BOOST_TEST(bad == 0u, what << ": " << bad << " wrong indices");
}

template <class T>
std::vector<T> uniform_data(std::size_t n, double lo, double hi, unsigned seed) {
  Rng g(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_integral_v<T>) x = T(std::uniform_int_distribution<int>(int(lo), int(hi))(g));
    else x = T(float(std::uniform_real_distribution<double>(lo, hi)(g)));
  }
  return v;
}
}  // namespace

// trowprod: float 64x64 and half 16x256 (their data, integers 1..9, overflows to inf: the same on both
// sides; a range whose products stay finite shows the order); int32 / int16 wrap exactly.
BOOST_AUTO_TEST_CASE(products_on_the_reference_shapes) {
  for (Target tg : {Target::A2A3, Target::A5}) {
    check_prod<float, 64, 64>(true, tg, 64, 64, 1, 9.99, 1);
    check_prod<float, 64, 64>(true, tg, 64, 64, 0.8, 1.25, 2);
    check_prod<half, 16, 256>(true, tg, 16, 256, 0.9, 1.1, 3);
    check_prod<std::int32_t, 16, 64>(true, tg, 16, 64, -9, 9, 4);
    check_prod<std::int16_t, 16, 64>(true, tg, 16, 33, -9, 9, 5);
    // tcolprod: int32 3x4 in a 3x8 tile; float 3x8; and wider ones
    check_prod<std::int32_t, 3, 8>(false, tg, 3, 4, -5, 5, 6);
    check_prod<float, 3, 8>(false, tg, 3, 8, 0.5, 2, 7);
    check_prod<float, 64, 64>(false, tg, 63, 61, 0.8, 1.25, 8);
    check_prod<half, 16, 256>(false, tg, 15, 256, 0.9, 1.1, 9);
  }
  check_prod<bfloat16_t, 16, 64>(false, Target::A5, 9, 64, 0.9, 1.1, 10);
  check_prod<std::uint16_t, 16, 64>(false, Target::A5, 9, 64, 0, 9, 11);
}

BOOST_AUTO_TEST_CASE(products_of_random_valid_shapes) {
  Rng g(5);
  for (int k = 0; k < 24; ++k) {
    const int vr = std::uniform_int_distribution<int>(1, 32)(g), vc = std::uniform_int_distribution<int>(1, 128)(g);
    const Target tg = k % 2 ? Target::A5 : Target::A2A3;
    check_prod<float, 32, 128>(k % 4 < 2, tg, vr, vc, 0.9, 1.1, unsigned(20 + k));
    check_prod<half, 32, 128>(k % 4 < 2, tg, vr, vc, 0.95, 1.05, unsigned(60 + k));
  }
}

// targreduceop: float 64x64 (uint32 indices), half 16x256 (int32), float 16x16 of a 32x32 source with
// 64x64 index and 32x32 value tiles; index and value forms; inputs in [-20, 20].
BOOST_AUTO_TEST_CASE(index_reductions_on_the_reference_shapes) {
  const auto f64 = uniform_data<float>(64 * 64, -20, 20, 1);
  const auto h16 = uniform_data<half>(16 * 256, -20, 20, 2);
  const auto f32 = uniform_data<float>(32 * 32, -20, 20, 3);
  for (Target tg : {Target::A2A3, Target::A5})
    for (Arg a : {Arg::RowMax, Arg::RowMin, Arg::ColMax, Arg::ColMin})
      for (bool v : {false, true}) {
        check_arg<float, std::uint32_t, 64, 64>(a, tg, v, 64, 64, f64);
        if (is_row(a) || !v) check_arg<half, std::int32_t, 16, 256>(a, tg, v, 16, 256, h16);
        else check_arg<half, std::int16_t, 16, 256>(a, tg, v, 16, 256, h16);  // the column value form: 16-bit indices
        check_arg<float, std::uint32_t, 32, 32, 64, 64>(a, tg, v, 16, 16, f32);
      }
}

// trowreduceidx / tcolreduceidx: int32 with ties (the first occurrence); uint32 bits compared as float
// on A2A3's column forms.
BOOST_AUTO_TEST_CASE(ties_give_the_first_occurrence) {
  std::vector<std::int32_t> x(4 * 8, 0);
  const std::int32_t rows[4][8] = {{3, 7, 7, 1, 7, 0, 0, 0}, {5, 5, 5, 5, 5, 0, 0, 0}, {-1, -9, 4, -9, 2, 0, 0, 0}, {2, 2, 9, 9, 1, 0, 0, 0}};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) x[std::size_t(i) * 8 + j] = rows[i][j];
  for (Arg a : {Arg::RowMax, Arg::RowMin}) {
    check_arg<std::int32_t, std::int32_t, 4, 8>(a, Target::A2A3, false, 3, 5, x);
    check_arg<std::int32_t, std::int32_t, 4, 8>(a, Target::A5, true, 4, 5, x);
  }
  for (Arg a : {Arg::ColMax, Arg::ColMin}) check_arg<std::int32_t, std::int32_t, 4, 8>(a, Target::A5, false, 4, 4, x);
  const auto u = uniform_data<std::uint16_t>(16 * 64, 0, 65535, 9);
  for (Arg a : {Arg::ColMax, Arg::ColMin}) check_arg<std::uint16_t, std::uint32_t, 16, 64>(a, Target::A5, false, 16, 64, u);
  // A2A3 compares uint16 as half: 0x3C00 (1.0) beats 0x8001 (a negative subnormal) though 0x8001 is larger
  std::vector<std::uint16_t> b{0x3C00, 0x8001, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000};
  b.resize(2 * 8, 0);
  std::vector<std::uint32_t> idx(2 * 8, 7);
  std::vector<std::uint16_t> bh = b;
  launch({.target = Target::A2A3}, [](std::uint32_t* oi, std::uint16_t* px) {
    DynTile<std::uint16_t, 2, 16> s(2, 1);
    Tile<TileType::Vec, std::uint16_t, 1, 256> tmp;
    DynTile<std::uint32_t, 1, 8> d(1, 1);
    TASSIGN(s, 0), TASSIGN(tmp, 0x100), TASSIGN(d, 0x400);
    GlobalTensor<std::uint16_t, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, 8, 1>> gs(px, {2, 1});
    GlobalTensor<std::uint32_t, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, 8, 1>> gi(oi, {1, 1});
    TLOAD(s, gs);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TCOLARGMAX(d, s, tmp);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gi, d);
  }, idx, bh);
  BOOST_TEST(idx[0] == 0u);
}

BOOST_AUTO_TEST_CASE(index_reductions_of_random_valid_shapes) {
  Rng g(11);
  for (int k = 0; k < 24; ++k) {
    const int vr = std::uniform_int_distribution<int>(1, 32)(g), vc = std::uniform_int_distribution<int>(1, 200)(g);
    const Target tg = k % 2 ? Target::A5 : Target::A2A3;
    const Arg a = Arg(k % 4);
    const auto x = uniform_data<float>(32 * 256, -3, 3, unsigned(k));
    check_arg<float, std::int32_t, 32, 256>(a, tg, k % 3 == 0, vr, vc, x);
  }
}

BOOST_AUTO_TEST_CASE(errors_name_the_instruction_the_operand_and_the_rule) {
  auto on = [](Target tg, auto body) { return error_of([&] { launch({.target = tg}, [&] { body(); }); }); };
  std::string e = on(Target::A2A3, [] {
    DynTile<std::uint16_t, 8, 64> s(8, 64), t(8, 64);
    DynTile<std::int32_t, 8, 8> d(8, 1);
    TASSIGN(s, 0), TASSIGN(t, 0x1000), TASSIGN(d, 0x2000);
    TROWARGMAX(d, s, t);
  });
  BOOST_TEST(contains(e, "TROWARGMAX: operand src"), e);
  BOOST_TEST(contains(e, "A5"), e);
  e = on(Target::A5, [] {
    DynTile<float, 8, 64> s(8, 64), t(8, 64);
    DynTile<std::int32_t, 8, 8> d(4, 1);
    TASSIGN(s, 0), TASSIGN(t, 0x1000), TASSIGN(d, 0x2000);
    TROWARGMIN(d, s, t);
  });
  BOOST_TEST(contains(e, "TROWARGMIN: operand dst"), e);
  BOOST_TEST(contains(e, "as many valid rows"), e);
  e = on(Target::A5, [] {
    DynTile<half, 8, 64> s(8, 64), t(8, 64), v(1, 64);
    DynTile<std::int32_t, 1, 64> d(1, 64);
    TASSIGN(s, 0), TASSIGN(t, 0x1000), TASSIGN(v, 0x2000), TASSIGN(d, 0x3000);
    TCOLARGMAX(v, d, s, t);
  });
  BOOST_TEST(contains(e, "int16_t or uint16_t"), e);
  e = on(Target::A2A3, [] {
    DynTile<float, 8, 64> s(8, 64);
    DynTile<float, 1, 64> t(1, 64);
    DynTile<std::int32_t, 1, 64> d(1, 64);
    TASSIGN(s, 0), TASSIGN(t, 0x1000), TASSIGN(d, 0x3000);
    TCOLARGMIN(d, s, t);
  });
  BOOST_TEST(contains(e, "TCOLARGMIN: operand tmp"), e);
  BOOST_TEST(contains(e, "128 elements"), e);
  e = on(Target::A2A3, [] {
    DynTile<std::uint16_t, 8, 64> s(8, 64), d(1, 64);
    TASSIGN(s, 0), TASSIGN(d, 0x1000);
    TCOLPROD(d, s);
  });
  BOOST_TEST(contains(e, "TCOLPROD: operand"), e);
  BOOST_TEST(contains(e, "A5"), e);
  // a 16-bit index only for the value forms of 2-byte sources
  e = on(Target::A5, [] {
    DynTile<half, 8, 64> s(8, 64), t(8, 64);
    DynTile<std::int16_t, 8, 16> d(8, 1);
    TASSIGN(s, 0), TASSIGN(t, 0x1000), TASSIGN(d, 0x2000);
    TROWARGMAX(d, s, t);
  });
  BOOST_TEST(contains(e, "TROWARGMAX: operand dst"), e);
  BOOST_TEST(contains(e, "a 16-bit index is for the value forms of 2-byte sources"), e);
  // the value forms take 2- and 4-byte sources
  e = on(Target::A5, [] {
    DynTile<std::int8_t, 8, 64> s(8, 64), t(8, 64), v(1, 64);
    DynTile<std::int32_t, 1, 64> d(1, 64);
    TASSIGN(s, 0), TASSIGN(t, 0x1000), TASSIGN(v, 0x2000), TASSIGN(d, 0x3000);
    TCOLARGMIN(v, d, s, t);
  });
  BOOST_TEST(contains(e, "TCOLARGMIN: operand src"), e);
  BOOST_TEST(contains(e, "the value forms take 2- and 4-byte sources"), e);
  // column results are one row
  e = on(Target::A5, [] {
    DynTile<float, 8, 64> s(8, 64), t(8, 64);
    DynTile<std::int32_t, 2, 64> d(2, 64);
    TASSIGN(s, 0), TASSIGN(t, 0x1000), TASSIGN(d, 0x3000);
    TCOLARGMAX(d, s, t);
  });
  BOOST_TEST(contains(e, "TCOLARGMAX: operand dst"), e);
  BOOST_TEST(contains(e, "must have one valid row"), e);
}

// Priced by the planners (the NPU headers' loops): deterministic, and A2A3's per-block TROWPROD is
// dearer than one pass of TROWSUM over the same row.
BOOST_AUTO_TEST_CASE(modeled_cycles) {
  auto cycles = [](Target tg, bool prod) {
    return launch({.target = tg, .model_only = true}, [prod]() -> Kernel {
             VecTile<float, 16, 64> s, t;
             VecTile<float, 16, 8> d;
             TASSIGN(s, 0), TASSIGN(t, 0x1000), TASSIGN(d, 0x2000);
             if (prod) co_await TROWPROD(d, s, t);
             else co_await TROWSUM(d, s, t);
           }).cores[0].pipes[PIPE_V].busy_cycles;
  };
  for (Target tg : {Target::A2A3, Target::A5}) {
    const auto p = cycles(tg, true), s = cycles(tg, false);
    BOOST_TEST_MESSAGE(name_of(tg) << " TROWPROD f32 16x64: " << p << " cycles; TROWSUM " << s);
    BOOST_TEST(p == cycles(tg, true));
    if (tg == Target::A2A3) BOOST_TEST(p > s);
  }
}
