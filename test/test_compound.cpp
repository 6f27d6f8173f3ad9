// TREM, TREMS, TFMOD, TFMODS, TPOW, TPOWS, TPRELU, TADDC, TSUBC, TADDSC, TSUBSC, TFUSEDMULADD,
// TFUSEDMULADDRELU, TMULADDDST, TSUBRELU, TADDDEQRELU: pto-isa's CPU test matrices (tests/cpu/st/testcase/
// <name>: shapes, dtypes, value ranges), on both targets, random valid shapes, in-place forms, errors.
//
// References are written here from the chips' operation sequences (docs/compound.md), in double with
// one rounding to the element type per step (for +, -, *, / that is the correctly rounded float
// operation), integers exactly. The remainders are also checked against the mathematical remainder
// (its sign rule), the powers against pow() within the spec's tolerance.
#define BOOST_TEST_MODULE compound
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <pto/pto-inst.hpp>

#include "element_ref.hpp"
#include "test_util.hpp"

using namespace pto;
using pto_test::bits_of;
using pto_test::contains;
using pto_test::error_of;
using pto_test::kFloat;
using pto_test::round_to;
using pto_test::to_double;

namespace {
enum class Ins { Rem, RemS, Fmod, FmodS, Pow, PowS, Prelu, AddC, SubC, AddSC, SubSC, FusedMulAdd, FusedMulAddRelu, MulAddDst, SubRelu };
const char* name(Ins i) {
  constexpr const char* n[] = {"TREM",   "TREMS",  "TFMOD",  "TFMODS", "TPOW",         "TPOWS",            "TPRELU",    "TADDC",
                               "TSUBC",  "TADDSC", "TSUBSC", "TFUSEDMULADD", "TFUSEDMULADDRELU", "TMULADDDST", "TSUBRELU"};
  return n[int(i)];
}
bool reads_dst(Ins i) { return i == Ins::FusedMulAdd || i == Ins::FusedMulAddRelu || i == Ins::MulAddDst; }
bool has_scalar(Ins i) { return i == Ins::RemS || i == Ins::FmodS || i == Ins::PowS || i == Ins::AddSC || i == Ins::SubSC; }

// ---- references ------------------------------------------------------------------------------------------
template <class T> T r(double x) { return round_to<T>(x); }
template <class T> double d(T x) { return to_double(x); }

// The chips' remainder sequence: q = a / b, floor or trunc, a - q * b, the divisor-sign correction.
template <class T>
T rem_ref(Ins op, Target tg, T a, T b) {
  const bool floor_q = op == Ins::Rem || op == Ins::RemS;
  const bool fix = op == Ins::Rem || (op == Ins::RemS && tg == Target::A2A3);
  if constexpr (std::is_integral_v<T>) {
    if (sizeof(T) == 8) {  // A5 Int64Rem: truncating, 0 for b == 0
      if (b == 0) return T(0);
      if constexpr (std::is_signed_v<T>) return T(b == T(-1) ? 0 : a % b);
      return T(a % b);
    }
    const std::int64_t x = std::int64_t(a), y = std::int64_t(b);
    std::int64_t m = x % y;
    if (floor_q && m != 0 && ((m < 0) != (y < 0))) m += y;
    return T(m);
  } else {
    const double q0 = d(r<float>(d(a) / d(b)));
    const double q = floor_q ? std::floor(q0) : std::trunc(q0);
    const double p = d(r<float>(q * d(b)));
    const double f = d(r<float>(d(a) - p));
    T res;
    if constexpr (std::is_same_v<T, float>) {
      res = T(f);
    } else {  // toward zero into half
      res = r<T>(f);
      if (std::fabs(d(res)) > std::fabs(f)) res = std::bit_cast<T>(std::uint16_t(std::bit_cast<std::uint16_t>(res) - 1));
    }
    if (fix && d(r<T>(d(b) * d(res))) < 0) res = r<T>(d(res) + d(b));
    return res;
  }
}

template <class T>
T pow_ref(Target tg, T b, T e) {
  if constexpr (std::is_integral_v<T>) {
    if (e == 0 || b == 1) return T(1);
    if constexpr (std::is_signed_v<T>)
      if (e < 0) return b == T(-1) ? T(e % 2 ? -1 : 1) : T(0);
    std::uint64_t acc = 1;
    for (std::uint64_t k = 0; k < std::uint64_t(e); ++k) acc *= std::uint64_t(b);  // wraps like T's low bits
    return T(acc);
  } else {
    const double x = d(b), y = d(e);
    if (y == 0) return T(1);
    if (tg == Target::A2A3 && x == 0) return T(y > 0 ? 0.0 : INFINITY);
    // the magnitude through ln and exp, each step rounded to float
    const double l = d(r<float>(std::log(std::fabs(x))));
    const double m = d(r<float>(l * y));
    double mag = d(r<float>(std::exp(m)));
    const bool integral = std::trunc(y) == y;
    if (x < 0 && !integral) return T(NAN);
    if (x < 0 && std::fmod(std::fabs(y), 2.0) == 1.0) mag = -mag;
    return r<T>(mag);
  }
}

template <class T>
T ref(Ins op, Target tg, T a, T b, T c, T dst, T s) {
  auto relu = [](double v) { return v > 0 ? v : 0.0; };
  if constexpr (std::is_integral_v<T>) {
    const auto ua = std::uint64_t(a), ub = std::uint64_t(b), uc = std::uint64_t(c), us = std::uint64_t(s);
    switch (op) {
      case Ins::Rem: case Ins::Fmod: return rem_ref(op, tg, a, b);
      case Ins::RemS: case Ins::FmodS: return rem_ref(op, tg, a, s);
      case Ins::Pow: return pow_ref(tg, a, b);
      case Ins::PowS: return pow_ref(tg, a, s);
      case Ins::AddC: return T(ua + ub + uc);
      case Ins::SubC: return T(ua - ub + uc);
      case Ins::AddSC: return T(ua + us + ub);
      case Ins::SubSC: return T(ua - us + ub);
      default: return dst;
    }
  } else {
    switch (op) {
      case Ins::Rem: case Ins::Fmod: return rem_ref(op, tg, a, b);
      case Ins::RemS: case Ins::FmodS: return rem_ref(op, tg, a, s);
      case Ins::Pow: return pow_ref(tg, a, b);
      case Ins::PowS: return pow_ref(tg, a, s);
      case Ins::Prelu: return d(a) > 0 ? a : r<T>(d(a) * d(b));
      case Ins::AddC: return r<T>(d(r<T>(d(a) + d(b))) + d(c));
      case Ins::SubC: return r<T>(d(r<T>(d(a) - d(b))) + d(c));
      case Ins::AddSC: return r<T>(d(r<T>(d(a) + d(s))) + d(b));
      case Ins::SubSC: return r<T>(d(r<T>(d(a) - d(s))) + d(b));
      // vmadd / vmla: one rounding (the product is exact in double)
      case Ins::FusedMulAdd: return r<T>(d(a) * d(dst) + d(b));
      case Ins::FusedMulAddRelu: return r<T>(relu(d(a) * d(dst) + d(b)));
      case Ins::MulAddDst: return r<T>(d(a) * d(b) + d(dst));
      case Ins::SubRelu: return r<T>(relu(d(r<T>(d(a) - d(b)))));
    }
    return dst;
  }
}

// ---- data (the reference tests' ranges) ---------------------------------------------------------------
using Rng = std::mt19937_64;
template <class T> T uniform(Rng& g, double lo, double hi) {
  if constexpr (std::is_integral_v<T>) return T(std::uniform_int_distribution<long long>((long long)lo, (long long)hi)(g));
  else return T(float(std::uniform_real_distribution<double>(lo, hi)(g)));
}
// a, b, c and the scalar for op; for the remainders an integer-valued divisor that is never 0.
template <class T>
void fill(Ins op, Rng& g, T& a, T& b, T& c, T& dst) {
  switch (op) {
    case Ins::Rem: case Ins::RemS: case Ins::Fmod: case Ins::FmodS:
      a = T(uniform<int>(g, std::is_unsigned_v<T> ? 0 : -100, 100));
      do b = T(uniform<int>(g, std::is_unsigned_v<T> ? 1 : -100, 100)); while (b == T(0));
      if constexpr (kFloat<T>) a = T(float(a) + float(uniform<float>(g, 0, 1)) * (std::is_same_v<T, float> ? 1.0f : 0.5f));
      break;
    case Ins::Pow: case Ins::PowS:
      if constexpr (std::is_integral_v<T>) a = uniform<T>(g, 0, 9), b = uniform<T>(g, 0, 6);
      else a = uniform<T>(g, 0.1, 5), b = uniform<T>(g, 0, 3);
      break;
    case Ins::Prelu: a = uniform<T>(g, -9, 9), b = uniform<T>(g, 0, 1); break;
    case Ins::SubRelu: a = uniform<T>(g, -10, 10), b = uniform<T>(g, -10, 10); break;
    default:
      if constexpr (std::is_integral_v<T>) a = uniform<T>(g, 1, 9), b = uniform<T>(g, 1, 9), c = uniform<T>(g, 1, 9);
      else a = uniform<T>(g, -10, 10), b = uniform<T>(g, -10, 10), c = uniform<T>(g, -10, 10);
  }
  dst = kFloat<T> ? uniform<T>(g, -10, 10) : T(0);
}

// ---- the runner ------------------------------------------------------------------------------------------
template <class T, int R, int C> using DynTile = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1>;
template <class T, int C> using Gm = GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, C, 1>>;

template <class T> T scalar_for(Ins op) {
  switch (op) {
    case Ins::RemS: case Ins::FmodS: return T(std::is_unsigned_v<T> ? 7 : -7);
    case Ins::PowS: return T(std::is_integral_v<T> ? 4 : 2.5f);
    default: return T(3);
  }
}

template <class D, class A, class B, class Cc, class Tm, class Tp>
void issue(Ins op, D& dst, A& a, B& b, Cc& c, Tm& tmp, Tp& tmp8, typename D::DType s) {
  switch (op) {
    case Ins::Rem: TREM(dst, a, b, tmp); break;
    case Ins::RemS: TREMS(dst, a, s, tmp); break;
    case Ins::Fmod: TFMOD(dst, a, b); break;
    case Ins::FmodS: TFMODS(dst, a, s); break;
    case Ins::Pow: TPOW(dst, a, b, tmp); break;
    case Ins::PowS: TPOWS(dst, a, s, tmp); break;
    case Ins::Prelu:
      if constexpr (kFloat<typename D::DType>) TPRELU(dst, a, b, tmp8);
      break;
    case Ins::AddC: TADDC(dst, a, b, c); break;
    case Ins::SubC: TSUBC(dst, a, b, c); break;
    case Ins::AddSC: TADDSC(dst, a, s, b); break;
    case Ins::SubSC: TSUBSC(dst, a, s, b); break;
    case Ins::FusedMulAdd: TFUSEDMULADD(dst, a, b); break;
    case Ins::FusedMulAddRelu: TFUSEDMULADDRELU(dst, a, b); break;
    case Ins::MulAddDst: TMULADDDST(dst, a, b); break;
    case Ins::SubRelu: TSUBRELU(dst, a, b); break;
  }
}

struct Valid {
  int rows, cols;
};

// op on target through a one-core manual kernel: dst tile DR x DC, source tiles SR x SC (valid v), each
// in its own bytes (in_place: src0 is dst itself). Returns dst's valid region, packed.
template <class T, int DR, int DC, int SR = DR, int SC = DC>
std::vector<T> run(Ins op, Target target, Valid v, const std::vector<T>& a, const std::vector<T>& b, const std::vector<T>& c,
                   const std::vector<T>& d0, T s, bool in_place = false) {
  static_assert(SR <= DR && SC <= DC);
  std::vector<T> out(static_cast<std::size_t>(DR) * DC), ah = a, bh = b, ch = c;
  for (int i = 0; i < v.rows; ++i)
    for (int j = 0; j < v.cols; ++j) out[std::size_t(i) * DC + j] = d0[std::size_t(i) * v.cols + j];
  auto kernel = [=](T* o, T* pa, T* pb, T* pc) {
    constexpr std::size_t kD = std::size_t(DR) * DC * sizeof(T), kS = std::size_t(SR) * SC * sizeof(T);
    constexpr int kTmpCols = (DC + (DC + 63) / 64 * 2 + 31) / 32 * 32;  // TREM's A2A3 row: RowStride + 2 per 64
    DynTile<T, DR, DC> dst(v.rows, v.cols), tmp(v.rows, v.cols);
    DynTile<T, SR, SC> x(v.rows, v.cols), y(v.rows, v.cols), z(v.rows, v.cols);
    DynTile<T, 1, kTmpCols> trem(1, kTmpCols);
    Tile<TileType::Vec, std::uint8_t, SR + 1, 256> t8;  // TPRELU's A2A3 bits and TSEL scratch
    // only the tiles op uses, one after another
    std::size_t at = kD;
    auto place = [&](auto& t, std::size_t bytes) {
      TASSIGN(t, at);
      at += bytes;
    };
    TASSIGN(dst, 0);
    if (in_place) TASSIGN(x, 0);
    else place(x, kS);
    place(y, kS);
    if (op == Ins::AddC || op == Ins::SubC) place(z, kS);
    if (op == Ins::Prelu) place(t8, std::size_t(SR + 1) * 256);
    if (op == Ins::Rem || op == Ins::RemS) place(trem, std::size_t(kTmpCols) * sizeof(T));
    if (op == Ins::Pow || op == Ins::PowS) place(tmp, kD);
    Gm<T, SC> ga(pa, {v.rows, v.cols}), gb(pb, {v.rows, v.cols}), gc(pc, {v.rows, v.cols});
    Gm<T, DC> go(o, {v.rows, v.cols});
    if (!in_place) TLOAD(x, ga);
    if (reads_dst(op) || in_place) TLOAD(dst, go);
    if (op != Ins::RemS && op != Ins::FmodS && op != Ins::PowS) TLOAD(y, gb);
    if (op == Ins::AddC || op == Ins::SubC) TLOAD(z, gc);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    if (op == Ins::Rem || op == Ins::RemS) issue(op, dst, x, y, z, trem, t8, s);
    else issue(op, dst, x, y, z, tmp, t8, s);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, dst);
  };
  launch({.target = target, .check = SyncCheck::Throw}, kernel, out, ah, bh, ch);
  std::vector<T> valid;
  for (int i = 0; i < v.rows; ++i)
    for (int j = 0; j < v.cols; ++j) valid.push_back(out[std::size_t(i) * DC + j]);
  return valid;
}

bool allowed(Ins op, DType t, Target tg) {
  using D = DType;
  auto in = [t](std::initializer_list<DType> s) { return std::find(s.begin(), s.end(), t) != s.end(); };
  const bool a5 = tg == Target::A5;
  switch (op) {
    case Ins::Rem: case Ins::RemS:
      return a5 ? in({D::F16, D::F32, D::U16, D::I16, D::U32, D::I32, D::I64, D::U64}) : in({D::F32, D::I32});
    case Ins::Fmod: case Ins::FmodS: return a5 ? in({D::F16, D::F32, D::U16, D::I16, D::U32, D::I32}) : in({D::F32});
    case Ins::Pow: case Ins::PowS:
      return in({D::F32, D::I32, D::U32, D::I16, D::U16, D::I8, D::U8}) || (a5 && t == D::F16);
    case Ins::AddC: case Ins::SubC: case Ins::AddSC: case Ins::SubSC: return in({D::I32, D::I16, D::F16, D::F32});
    default: return in({D::F16, D::F32});
  }
}

// One case: every element bit-exact against the reference; floats whose sequence is the exact function
// within the spec's tolerance (eps 1e-3) of it too.
template <class T, int DR, int DC, int SR = DR, int SC = DC>
void check(Ins op, Target tg, Valid v, unsigned seed, bool in_place = false) {
  if (!allowed(op, dtype_v<T>, tg)) return;
  Rng g(seed);
  const std::size_t n = std::size_t(v.rows) * v.cols;
  std::vector<T> a(static_cast<std::size_t>(SR) * SC), b(a.size()), c(a.size()), d0(n);
  for (int i = 0; i < v.rows; ++i)
    for (int j = 0; j < v.cols; ++j) {
      const std::size_t k = std::size_t(i) * SC + j;
      fill(op, g, a[k], b[k], c[k], d0[std::size_t(i) * v.cols + j]);
    }
  if (in_place)  // src0 is dst: its values are dst's initial ones
    for (int i = 0; i < v.rows; ++i)
      for (int j = 0; j < v.cols; ++j) d0[std::size_t(i) * v.cols + j] = a[std::size_t(i) * SC + j];
  const T s = scalar_for<T>(op);
  const std::vector<T> got = run<T, DR, DC, SR, SC>(op, tg, v, a, b, c, d0, s, in_place);
  const std::string what = std::string(name(op)) + " " + name_of(dtype_v<T>) + " " + std::to_string(DR) + "x" + std::to_string(DC) +
                           " valid " + std::to_string(v.rows) + "x" + std::to_string(v.cols) + (in_place ? " in place" : "") +
                           " on " + name_of(tg);
  std::size_t bad = 0;
  std::vector<double> want_math, got_math;
  for (int i = 0; i < v.rows; ++i)
    for (int j = 0; j < v.cols; ++j) {
      const std::size_t k = std::size_t(i) * v.cols + j, src = std::size_t(i) * SC + j;
      const T want = ref(op, tg, a[src], b[src], c[src], d0[k], s);
      const bool same = bits_of(got[k]) == bits_of(want) || (std::isnan(d(got[k])) && std::isnan(d(want)));
      if (!same && bad++ == 0)
        BOOST_ERROR(what << ": element (" << i << ", " << j << ") of " << d(a[src]) << ", " << d(b[src]) << " is " << d(got[k])
                         << ", want " << d(want));
      if constexpr (kFloat<T>) {  // the mathematical function the sequence computes
        const double x = d(a[src]), y = has_scalar(op) ? d(s) : d(b[src]);
        double m = NAN;
        if (op == Ins::Fmod || op == Ins::FmodS) m = std::fmod(x, y);
        if (op == Ins::Rem || (op == Ins::RemS && tg == Target::A2A3)) m = x - std::floor(x / y) * y;
        if (op == Ins::Pow || op == Ins::PowS) m = std::pow(x, y);
        if (!std::isnan(m)) want_math.push_back(m), got_math.push_back(d(got[k]));
      }
    }
  BOOST_TEST(bad == 0u, what << ": " << bad << " wrong elements");
  if (!want_math.empty()) {
    // half stores three decimal digits: its results are within its own rounding of the function
    const double eps = std::is_same_v<T, float> ? 1e-3 : 4e-3;
    const auto cmp = pto_test::compare_eps(got_math, want_math, eps);
    BOOST_TEST(cmp.ok(), what << ": " << cmp.errors << " elements off the mathematical result (first " << cmp.first_bad << ")");
  }
}

template <class T, int DR, int DC, int SR = DR, int SC = DC>
void check_ops(std::initializer_list<Ins> ops, Valid v, unsigned seed) {
  for (Target tg : {Target::A2A3, Target::A5})
    for (Ins op : ops) check<T, DR, DC, SR, SC>(op, tg, v, seed + unsigned(op));
}
constexpr std::initializer_list<Ins> kRems{Ins::Rem, Ins::RemS, Ins::Fmod, Ins::FmodS};
constexpr std::initializer_list<Ins> kCarry{Ins::AddC, Ins::SubC, Ins::AddSC, Ins::SubSC};
constexpr std::initializer_list<Ins> kFused{Ins::FusedMulAdd, Ins::FusedMulAddRelu, Ins::MulAddDst, Ins::SubRelu};
}  // namespace

// pto-isa tests/cpu/st/testcase/trem, tfmod, trems, tfmods: float 64x64, half 16x256, float dst 64x512 over
// a 64x64 valid region, half 32x512 over 16x256; int32 and int16 for the scalar forms.
BOOST_AUTO_TEST_CASE(remainders_on_the_reference_shapes) {
  check_ops<float, 64, 64>(kRems, {64, 64}, 1);
  check_ops<half, 16, 256>(kRems, {16, 256}, 2);
  check_ops<float, 64, 512, 64, 64>(kRems, {64, 64}, 3);
  check_ops<half, 32, 512, 16, 256>(kRems, {16, 256}, 4);
  check_ops<std::int32_t, 64, 64>(kRems, {64, 64}, 5);
  check_ops<std::int16_t, 64, 64>(kRems, {64, 64}, 6);
  check_ops<std::uint16_t, 16, 64>(kRems, {16, 64}, 7);
  check_ops<std::uint32_t, 16, 64>(kRems, {16, 64}, 8);
  check_ops<std::int64_t, 8, 64>(kRems, {8, 64}, 9);
  check_ops<std::uint64_t, 8, 64>(kRems, {8, 64}, 10);
}

// The sign rules on chosen values: TREM follows the divisor, TFMOD the dividend; A5 64-bit truncates.
BOOST_AUTO_TEST_CASE(remainder_sign_rules) {
  auto one = [](Ins op, Target tg, float a, float b) {
    std::vector<float> x{a}, y{b}, z{0}, d0{0};
    return run<float, 1, 8>(op, tg, {1, 1}, x, y, z, d0, b)[0];
  };
  for (Target tg : {Target::A2A3, Target::A5}) {
    BOOST_TEST(one(Ins::Rem, tg, 7.5f, -2.0f) == -0.5f);
    BOOST_TEST(one(Ins::Rem, tg, -7.5f, 2.0f) == 0.5f);
    BOOST_TEST(one(Ins::Fmod, tg, 7.5f, -2.0f) == 1.5f);
    BOOST_TEST(one(Ins::Fmod, tg, -7.5f, 2.0f) == -1.5f);
    BOOST_TEST(one(Ins::FmodS, tg, -7.5f, 2.0f) == -1.5f);
    BOOST_TEST(std::isnan(one(Ins::Fmod, tg, 1.0f, 0.0f)));  // 1 / 0 = inf, inf * 0 = NaN
  }
  // The divisor-sign correction: fl(a / b) rounds up to 26751 though a / b < 26751, so a - q * b = -0.125
  // has the dividend's sign; TREM (both) and A2A3's TREMS add b, A5's TREMS keeps it.
  const float ca = 0x1.c45a0ap+20f, cb = 0x1.150c7ap+6f;
  for (Target tg : {Target::A2A3, Target::A5}) BOOST_TEST(one(Ins::Rem, tg, ca, cb) == 0x1.148c7ap+6f);
  BOOST_TEST(one(Ins::RemS, Target::A2A3, ca, cb) == 0x1.148c7ap+6f);
  BOOST_TEST(one(Ins::RemS, Target::A5, ca, cb) == -0.125f);
  BOOST_TEST(one(Ins::RemS, Target::A2A3, -7.5f, 2.0f) == 0.5f);
  BOOST_TEST(one(Ins::RemS, Target::A5, -7.5f, 2.0f) == 0.5f);  // floor quotient: already the divisor's sign
  std::vector<std::int64_t> x{-7, 7, 5}, y{2, -2, 0}, z(3), d0(3);
  const auto r64 = run<std::int64_t, 1, 8>(Ins::Rem, Target::A5, {1, 3}, x, y, z, d0, 0);
  BOOST_TEST(r64[0] == -1);  // truncating: the dividend's sign
  BOOST_TEST(r64[1] == 1);
  BOOST_TEST(r64[2] == 0);  // a zero divisor gives 0 (Int64Rem)
  std::vector<std::int32_t> xi{-7, 7}, yi{2, -2}, zi(2), di(2);
  const auto r32 = run<std::int32_t, 1, 8>(Ins::Rem, Target::A5, {1, 2}, xi, yi, zi, di, 0);
  BOOST_TEST(r32[0] == 1);  // vmod: floor, the divisor's sign
  BOOST_TEST(r32[1] == -1);
}

// tpow: float, int32, int16 63x63 in 64x64, half 16x256; tpows: float 32x64, half 63x64, int32 31x128,
// int16 15x192, float 7x448, float 256x16, float 16x16 in a 64x64 dst.
BOOST_AUTO_TEST_CASE(powers_on_the_reference_shapes) {
  for (Target tg : {Target::A2A3, Target::A5}) {
    check<float, 64, 64>(Ins::Pow, tg, {63, 63}, 11);
    check<std::int32_t, 64, 64>(Ins::Pow, tg, {63, 63}, 12);
    check<std::int16_t, 64, 64>(Ins::Pow, tg, {63, 63}, 13);
    check<half, 16, 256>(Ins::Pow, tg, {16, 256}, 14);
    check<std::uint8_t, 16, 64>(Ins::Pow, tg, {16, 64}, 15);
    check<float, 32, 64>(Ins::PowS, tg, {32, 64}, 16);
    check<half, 64, 64>(Ins::PowS, tg, {63, 64}, 17);
    check<std::int32_t, 32, 128>(Ins::PowS, tg, {31, 128}, 18);
    check<std::int16_t, 16, 192>(Ins::PowS, tg, {15, 192}, 19);
    check<float, 8, 448>(Ins::PowS, tg, {7, 448}, 20);
    check<float, 256, 16>(Ins::PowS, tg, {256, 16}, 21);
    check<float, 64, 64, 32, 32>(Ins::PowS, tg, {16, 16}, 22);
  }
}

BOOST_AUTO_TEST_CASE(power_special_values_per_target) {
  auto one = [](Target tg, float b, float e) {
    std::vector<float> x{b}, y{e}, z{0}, d0{0};
    return run<float, 1, 8>(Ins::Pow, tg, {1, 1}, x, y, z, d0, 0)[0];
  };
  for (Target tg : {Target::A2A3, Target::A5}) {
    BOOST_TEST(one(tg, -2.0f, 3.0f) == -8.0f);
    BOOST_TEST(one(tg, -2.0f, 2.0f) == 4.0f);
    BOOST_TEST(std::isnan(one(tg, -2.0f, 0.5f)));
    BOOST_TEST(one(tg, NAN, 0.0f) == 1.0f);
    BOOST_TEST(one(tg, 0.0f, 2.0f) == 0.0f);
    BOOST_TEST(one(tg, -1.0f, INFINITY) == 1.0f);
  }
  BOOST_TEST(one(Target::A2A3, -0.0f, -1.0f) == INFINITY);  // A2A3's scalar fix-up: +inf for any zero base
  BOOST_TEST(one(Target::A5, -0.0f, -1.0f) == -INFINITY);   // A5: IEEE pow
  BOOST_TEST(std::isnan(one(Target::A2A3, 1.0f, NAN)));     // exp(NaN * ln 1)
  BOOST_TEST(one(Target::A5, 1.0f, NAN) == 1.0f);
  std::vector<std::int32_t> b{2, -1, -1, 5, 3, 0}, e{31, -3, -4, -1, 0, 0}, z(6), d0(6);
  const auto p = run<std::int32_t, 1, 8>(Ins::Pow, Target::A2A3, {1, 6}, b, e, z, d0, 0);
  BOOST_TEST(p[0] == std::numeric_limits<std::int32_t>::min());  // 2^31 wraps
  BOOST_TEST(p[1] == -1);
  BOOST_TEST(p[2] == 1);
  BOOST_TEST(p[3] == 0);  // a negative exponent: 0
  BOOST_TEST(p[4] == 1);
  BOOST_TEST(p[5] == 1);  // 0^0
}

// tprelu: float 64x64, half 16x256 (its int32 / int16 cases are on neither NPU); the carry forms: float,
// int32, int16 64x64, half 16x256; the fused: float and half 64x64 and a 32x127 region of 32x128 dst
// with 32x192 / 32x256 sources (here both 32x128), TMULADDDST half 1x16384.
BOOST_AUTO_TEST_CASE(prelu_carry_and_fused_on_the_reference_shapes) {
  check_ops<float, 64, 64>({Ins::Prelu}, {64, 64}, 30);
  check_ops<half, 16, 256>({Ins::Prelu}, {16, 256}, 31);
  check_ops<float, 64, 64>(kCarry, {64, 64}, 32);
  check_ops<std::int32_t, 64, 64>(kCarry, {64, 64}, 33);
  check_ops<std::int16_t, 64, 64>(kCarry, {64, 64}, 34);
  check_ops<half, 16, 256>(kCarry, {16, 256}, 35);
  check_ops<float, 64, 64>(kFused, {64, 64}, 36);
  check_ops<half, 64, 64>(kFused, {64, 64}, 37);
  check_ops<float, 32, 128>(kFused, {32, 127}, 38);
  check_ops<half, 32, 128>(kFused, {32, 127}, 39);
  for (Target tg : {Target::A2A3, Target::A5}) check<half, 1, 16384>(Ins::MulAddDst, tg, {1, 16384}, 40);
}

// Random valid regions (one row, one column, odd widths) and in-place forms where the target allows them.
BOOST_AUTO_TEST_CASE(random_valid_shapes_and_in_place) {
  Rng g(77);
  const Ins all[] = {Ins::Rem,  Ins::RemS,  Ins::Fmod,  Ins::FmodS,       Ins::Pow,            Ins::PowS,      Ins::Prelu,   Ins::AddC,
                     Ins::SubC, Ins::AddSC, Ins::SubSC, Ins::FusedMulAdd, Ins::FusedMulAddRelu, Ins::MulAddDst, Ins::SubRelu};
  for (int k = 0; k < 40; ++k) {
    const Valid v{std::uniform_int_distribution<int>(1, 16)(g), std::uniform_int_distribution<int>(1, 64)(g)};
    const Ins op = all[std::size_t(k) % std::size(all)];
    const Target tg = k % 2 ? Target::A5 : Target::A2A3;
    check<float, 16, 64>(op, tg, v, unsigned(100 + k));
    check<half, 16, 64>(op, tg, v, unsigned(200 + k));
    check<std::int32_t, 16, 64>(op, tg, v, unsigned(300 + k));
  }
  // in place (dst is src0): A5 runs in registers; A2A3's element-at-a-time forms allow it too
  for (Ins op : {Ins::Rem, Ins::Fmod, Ins::Pow, Ins::Prelu}) check<float, 8, 64>(op, Target::A5, {8, 60}, 400 + unsigned(op), true);
  for (Ins op : {Ins::AddC, Ins::SubSC, Ins::SubRelu})
    for (Target tg : {Target::A2A3, Target::A5}) check<float, 8, 64>(op, tg, {8, 60}, 500 + unsigned(op), true);
}

// pto-isa tests/cpu/st/testcase/tadddeqrelu: 10 cases (shape, valid, deqScale, input range).
BOOST_AUTO_TEST_CASE(add_deq_relu_cases) {
  struct Case {
    int rows, cols, valid_cols;
    float deq;
    double lo, hi;
  };
  const Case cases[] = {{32, 64, 64, 0.5f, -1000, 1000},       {64, 64, 64, 0.0625f, -1000, 1000}, {1, 2048, 2048, 0.25f, -1000, 1000},
                        {64, 128, 128, 0.0625f, -1000, 1000},  {31, 128, 128, 0.5f, -1000, 1000},  {32, 128, 127, 0.5f, -1000, 1000},
                        {16, 64, 64, 0.5f, -50000, -1},        {32, 64, 64, 1e-5f, 536.0e6, 536.9e6}, {16, 128, 128, 0.001f, -1000, 1000},
                        {16, 128, 128, 100.0f, -5, 5}};
  for (Target tg : {Target::A2A3, Target::A5})
    for (const Case& cs : cases) {
      Rng g(unsigned(cs.rows * 1000 + cs.valid_cols));
      const int n = cs.rows * cs.cols;
      std::vector<std::int32_t> a(static_cast<std::size_t>(n)), b(a.size());
      for (auto& x : a) x = std::int32_t(uniform<long long>(g, cs.lo, cs.hi));
      for (auto& x : b) x = std::int32_t(uniform<long long>(g, cs.lo, cs.hi));
      std::vector<half> out(static_cast<std::size_t>(n), half(0));
      auto ah = a, bh = b;
      const int rows = cs.rows, vc = cs.valid_cols;
      const float deq = cs.deq;
      // Tiles as large as the biggest case would not fit UB four times; run each case with its own types.
      auto run_case = [&]<int R, int C>() {
        auto k = [=](half* o, std::int32_t* pa, std::int32_t* pb) {
          Tile<TileType::Vec, half, R, C, BLayout::RowMajor, -1, -1> dst(rows, vc);
          Tile<TileType::Vec, std::int32_t, R, C, BLayout::RowMajor, -1, -1> x(rows, vc), y(rows, vc), t(rows, vc);
          constexpr std::size_t kI = std::size_t(R) * C * 4;
          TASSIGN(dst, 0);
          TASSIGN(x, kI);
          TASSIGN(y, 2 * kI);
          TASSIGN(t, 3 * kI);
          GlobalTensor<std::int32_t, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, C, 1>> ga(pa, {rows, vc}), gb(pb, {rows, vc});
          GlobalTensor<half, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, C, 1>> go(o, {rows, vc});
          TLOAD(x, ga);
          TLOAD(y, gb);
          set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
          wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
          TADDDEQRELU(dst, x, y, deq, t);
          set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
          wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
          TSTORE(go, dst);
          TSTORE(ga, x);  // A2A3 leaves the scaled floats in src0
        };
        launch({.target = tg, .check = SyncCheck::Throw}, k, out, ah, bh);
      };
      if (cs.cols == 2048) run_case.template operator()<1, 2048>();
      else if (cs.cols == 64) run_case.template operator()<64, 64>();
      else run_case.template operator()<64, 128>();
      std::size_t bad = 0;
      for (int i = 0; i < cs.rows; ++i)
        for (int j = 0; j < cs.valid_cols; ++j) {
          const std::size_t k = std::size_t(i) * cs.cols + j;
          const std::int32_t sum = std::int32_t(std::uint32_t(a[k]) + std::uint32_t(b[k]));
          const float f = float(double(float(double(float(double(float(sum)) * 0x1p-17)) * double(cs.deq))) * 0x1p17);
          const half want = half(std::max(f, 0.0f));
          if (bits_of(out[k]) != bits_of(want) && bad++ == 0)
            BOOST_ERROR("TADDDEQRELU " << cs.rows << "x" << cs.valid_cols << " deq " << cs.deq << " on " << name_of(tg) << ": ("
                                       << i << ", " << j << ") is " << float(out[k]) << ", want " << float(want));
          const std::int32_t left = ah[k];
          if (tg == Target::A2A3) BOOST_TEST(std::bit_cast<float>(left) == f);
          else BOOST_TEST(left == a[k]);
        }
      BOOST_TEST(bad == 0u);
    }
}

BOOST_AUTO_TEST_CASE(errors_name_the_instruction_the_operand_and_the_rule) {
  auto on = [](Target tg, auto body) {
    return error_of([&] { launch({.target = tg, .model_only = false}, [&] { body(); }); });
  };
  using F = DynTile<float, 8, 64>;
  // a dtype the target lacks names the targets that have it
  std::string e = on(Target::A2A3, [] {
    DynTile<half, 8, 64> d(8, 64), a(8, 64), b(8, 64);
    TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x2000);
    TFMOD(d, a, b);
  });
  BOOST_TEST(contains(e, "TFMOD"), e);
  BOOST_TEST(contains(e, "A5"), e);
  // A2A3: operands sharing bytes
  e = on(Target::A2A3, [] {
    F d(8, 64), b(8, 64);
    TASSIGN(d, 0), TASSIGN(b, 0x4000);
    TFMOD(d, d, b);
  });
  BOOST_TEST(contains(e, "TFMOD: operand dst"), e);
  BOOST_TEST(contains(e, "shares bytes with operand src0"), e);
  // integer division by zero
  e = on(Target::A5, [] {
    DynTile<std::int32_t, 8, 64> d(8, 64), a(8, 64);
    TASSIGN(d, 0), TASSIGN(a, 0x4000);
    TFMODS(d, a, 0);
  });
  BOOST_TEST(contains(e, "TFMODS: integer division by zero"), e);
  // A2A3 int32 through float: |x| > 2^24
  std::vector<std::int32_t> big(8 * 64, 1 << 25);
  e = error_of([&] {
    launch({.target = Target::A2A3}, [](std::int32_t* p) {
      DynTile<std::int32_t, 8, 64> d(8, 64), a(8, 64);
      DynTile<std::int32_t, 1, 64> t(1, 64);
      TASSIGN(d, 0), TASSIGN(a, 0x4000), TASSIGN(t, 0x8000);
      GlobalTensor<std::int32_t, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, 64, 1>> g(p, {8, 64});
      TLOAD(a, g);
      set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      TREMS(d, a, 3, t);
    }, big);
  });
  BOOST_TEST(contains(e, "TREMS: operand src has 33554432 at element (0, 0)"), e);
  BOOST_TEST(contains(e, "2^24"), e);
  // TREM's A2A3 tmp too small
  e = on(Target::A2A3, [] {
    F d(8, 64), a(8, 64), b(8, 64), t(1, 64);
    TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x2000), TASSIGN(t, 0x3000);
    TREM(d, a, b, t);
  });
  BOOST_TEST(contains(e, "TREM: operand tmp"), e);
  BOOST_TEST(contains(e, "66 elements"), e);
  // TPRELU's A2A3 tmp must be uint8
  e = on(Target::A2A3, [] {
    F d(8, 64), a(8, 64), b(8, 64), t(8, 64);
    TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x2000), TASSIGN(t, 0x3000);
    TPRELU(d, a, b, t);
  });
  BOOST_TEST(contains(e, "TPRELU: operand tmp"), e);
  BOOST_TEST(contains(e, "uint8_t"), e);
  // ... and one row more than dst's valid rows
  e = on(Target::A2A3, [] {
    F d(8, 64), a(8, 64), b(8, 64);
    Tile<TileType::Vec, std::uint8_t, 8, 32> t;
    TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x2000), TASSIGN(t, 0x3000);
    TPRELU(d, a, b, t);
  });
  BOOST_TEST(contains(e, "TPRELU: operand tmp"), e);
  BOOST_TEST(contains(e, "too small"), e);
  // bf16 TPOW on A5 needs HIGH_PRECISION
  e = on(Target::A5, [] {
    DynTile<bfloat16_t, 8, 64> d(8, 64), a(8, 64), b(8, 64), t(8, 64);
    TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x2000), TASSIGN(t, 0x3000);
    TPOW(d, a, b, t);
  });
  BOOST_TEST(contains(e, "HIGH_PRECISION"), e);
  BOOST_TEST(on(Target::A5, [] {
               DynTile<bfloat16_t, 8, 64> d(8, 64), a(8, 64), b(8, 64), t(8, 64);
               TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x2000), TASSIGN(t, 0x3000);
               TPOW<PowAlgorithm::HIGH_PRECISION>(d, a, b, t);
             }) == "no pto::Error");
  // TADDDEQRELU: dst apart from the int32 operands
  e = on(Target::A5, [] {
    DynTile<half, 8, 64> d(8, 64);
    DynTile<std::int32_t, 8, 64> a(8, 64), b(8, 64), t(8, 64);
    TASSIGN(d, 0), TASSIGN(a, 0), TASSIGN(b, 0x2000), TASSIGN(t, 0x4000);
    TADDDEQRELU(d, a, b, 0.5f, t);
  });
  BOOST_TEST(contains(e, "TADDDEQRELU: operand dst"), e);
  // ... and on A2A3 the int32 operands apart from each other (the intermediates land in them)
  e = on(Target::A2A3, [] {
    DynTile<half, 8, 64> d(8, 64);
    DynTile<std::int32_t, 8, 64> a(8, 64), b(8, 64), t(8, 64);
    TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x1000), TASSIGN(t, 0x4000);
    TADDDEQRELU(d, a, b, 0.5f, t);
  });
  BOOST_TEST(contains(e, "TADDDEQRELU: operand src0"), e);
  BOOST_TEST(contains(e, "shares bytes with operand src1"), e);
  BOOST_TEST(contains(e, "on A2A3 every operand needs its own bytes"), e);
  BOOST_TEST(on(Target::A5, [] {
               DynTile<half, 8, 64> d(8, 64);
               DynTile<std::int32_t, 8, 64> a(8, 64), b(8, 64), t(8, 64);
               TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x1000), TASSIGN(t, 0x4000);
               TADDDEQRELU(d, a, b, 0.5f, t);
             }) == "no pto::Error");
  // TREMS's A2A3 tmp: a row of dst's valid columns
  e = on(Target::A2A3, [] {
    F d(8, 64), a(8, 64);
    DynTile<float, 1, 64> t(1, 48);
    TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(t, 0x3000);
    TREMS(d, a, 3.0f, t);
  });
  BOOST_TEST(contains(e, "TREMS: operand tmp"), e);
  BOOST_TEST(contains(e, "at least one valid row of 64 elements (dst's valid columns"), e);
  // TPOW's A2A3 float tmp holds |base| ^ exp: dst's valid shape
  e = on(Target::A2A3, [] {
    F d(8, 64), a(8, 64), b(8, 64), t(4, 64);
    TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x2000), TASSIGN(t, 0x3000);
    TPOW(d, a, b, t);
  });
  BOOST_TEST(contains(e, "TPOW: operand tmp"), e);
  BOOST_TEST(contains(e, "must have the same valid shape as operand dst"), e);
}

// A5 HIGH_PRECISION: the exact remainder where the default sequence is off (a large quotient).
BOOST_AUTO_TEST_CASE(high_precision_remainder_is_exact_on_a5) {
  std::vector<float> a{1.0e7f + 3.0f, -12345.678f}, b{0.3f, 0.7f}, z(2), d0(2);
  auto hp = [&](bool fmod) {
    std::vector<float> out(8, 0.0f), ah = a, bh = b;
    launch({.target = Target::A5}, [fmod](float* o, float* pa, float* pb) {
      DynTile<float, 1, 8> d(1, 2), x(1, 2), y(1, 2), t(1, 8);
      TASSIGN(d, 0), TASSIGN(x, 0x100), TASSIGN(y, 0x200), TASSIGN(t, 0x300);
      Gm<float, 8> ga(pa, {1, 2}), gb(pb, {1, 2}), go(o, {1, 2});
      TLOAD(x, ga);
      TLOAD(y, gb);
      set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      if (fmod) TFMOD<FmodAlgorithm::HIGH_PRECISION>(d, x, y);
      else TREM<RemAlgorithm::HIGH_PRECISION>(d, x, y, t);
      set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      TSTORE(go, d);
    }, out, ah, bh);
    return out;
  };
  const auto f = hp(true), r2 = hp(false);
  for (int i = 0; i < 2; ++i) {
    const double m = std::fmod(double(a[i]), double(b[i]));
    BOOST_TEST(f[i] == float(m));
    BOOST_TEST(r2[i] == float(m < 0 ? m + b[i] : m));
  }
  const auto seq = run<float, 1, 8>(Ins::Fmod, Target::A5, {1, 1}, a, b, z, d0, 0);
  BOOST_TEST(seq[0] != f[0]);  // the default sequence's rounded quotient is off by a few units here
}

// Priced by each recipe in the family formula (docs/compound.md): A2A3 per row one counter-mode call of
// each step; TREM's 8 steps over the 4 steps of TFMOD cost more, and the figures are deterministic.
BOOST_AUTO_TEST_CASE(modeled_cycles_follow_the_recipes) {
  auto cycles = [](Target tg, auto body) {
    return launch({.target = tg, .model_only = true}, [body]() -> Kernel {
             body();
             co_return;
           }).cores[0].pipes[PIPE_V].busy_cycles;
  };
  using F = DynTile<float, 16, 64>;
  auto trem = [] {
    F d(16, 64), a(16, 64), b(16, 64);
    DynTile<float, 1, 96> t(1, 96);
    TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x2000), TASSIGN(t, 0x3000);
    TREM(d, a, b, t);
  };
  auto tfmod = [] {
    F d(16, 64), a(16, 64), b(16, 64);
    TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x2000);
    TFMOD(d, a, b);
  };
  for (Target tg : {Target::A2A3, Target::A5}) {
    const auto r1 = cycles(tg, trem), f1 = cycles(tg, tfmod);
    BOOST_TEST_MESSAGE(name_of(tg) << " TREM f32 16x64: " << r1 << " cycles, TFMOD " << f1);
    BOOST_TEST(r1 > f1);
    BOOST_TEST(cycles(tg, trem) == r1);
  }
}
