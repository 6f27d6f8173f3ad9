// The independent reference the broadcast-family suites (test_colexpand, test_rowexpand) share:
// element values computed in double (or exactly for integers), never by the library; seeded data;
// the spec §5 comparison.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <pto/pto-inst.hpp>

#include "test_util.hpp"

namespace pto_test {
using namespace pto;

// ============================================================================================
// Reference arithmetic of the broadcast families
// ============================================================================================
enum class Bop { ADD, SUB, MUL, DIV, MAX, MIN, EXPDIF };
template <Bop O> using OpC = std::integral_constant<Bop, O>;

const char* op_name(Bop op) {
  constexpr const char* names[] = {"add", "sub", "mul", "div", "max", "min", "expdif"};
  return names[int(op)];
}

template <class T>
constexpr bool kFloat = std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

template <class T> double to_d(T v) {
  if constexpr (std::is_same_v<T, bfloat16_t>) return double(float(v));
  else return double(v);
}
// Printable form of an element (int8 as a number, floats as double).
template <class T> auto show(T v) {
  if constexpr (kFloat<T>) return to_d(v);
  else if constexpr (std::is_signed_v<T>) return static_cast<long long>(v);
  else return static_cast<unsigned long long>(v);
}

template <class T>
T ref(Bop op, T a, T b) {
  if constexpr (kFloat<T>) {
    const double x = to_d(a), y = to_d(b);
    switch (op) {
      case Bop::ADD: return T(x + y);  // exact in double, rounded to T once
      case Bop::SUB: return T(x - y);
      case Bop::MUL: return T(x * y);
      case Bop::DIV: return T(x / y);
      case Bop::MAX: return x < y ? b : a;
      case Bop::MIN: return y < x ? b : a;
      case Bop::EXPDIF: return T(std::exp(to_d(T(x - y))));  // the difference is a T value first
    }
  } else {
    using U = std::make_unsigned_t<T>;
    const std::uint64_t ua = U(a), ub = U(b);  // wrap modulo 2^64, then truncate to T's width
    switch (op) {
      case Bop::ADD: return T(U(ua + ub));
      case Bop::SUB: return T(U(ua - ub));
      case Bop::MUL: return T(U(ua * ub));
      case Bop::DIV:
        if constexpr (std::is_signed_v<T>) return T(std::int64_t(a) / std::int64_t(b));  // C truncation
        else return T(ua / ub);
      case Bop::MAX: return a < b ? b : a;
      case Bop::MIN: return b < a ? b : a;
      case Bop::EXPDIF: break;
    }
  }
  return T(0);
}

// ---- data -----------------------------------------------------------------------------------
template <class T>
std::vector<T> uniform(std::size_t n, double lo, double hi, unsigned seed) {
  return pto_test::random_vector<T>(n, lo, hi, seed);
}
// Integers in [lo, hi] (numpy randint(lo, hi + 1)).
template <class T>
std::vector<T> randint(std::size_t n, long long lo, long long hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<long long> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = T(d(rng));
  return v;
}
// Integers over T's whole range (dividends: the most negative value is left out, so no quotient overflows).
template <class T>
std::vector<T> full_range(std::size_t n, unsigned seed, bool dividend = false) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint64_t> d;
  std::vector<T> v(n);
  for (auto& x : v) {
    x = T(d(rng));
    if (dividend && std::is_signed_v<T> && x == std::numeric_limits<T>::min()) x = T(x + 1);
  }
  return v;
}
// Non-zero divisors of either sign (unsigned: 1..100).
template <class T>
std::vector<T> divisors(std::size_t n, unsigned seed) {
  auto v = randint<T>(n, std::is_signed_v<T> ? -100 : 1, 100, seed);
  for (auto& x : v)
    if (x == T(0)) x = T(7);
  return v;
}

// ---- comparison -----------------------------------------------------------------------------
// Floats (unless exact): spec §5 rule; additionally an infinity must be an infinity of the same sign
// (the §5 rule alone would accept a finite value where +inf is expected). Otherwise: exact.
template <class T>
void check_output(const std::vector<T>& got, const std::vector<T>& want, bool exact, const std::string& what) {
  BOOST_TEST_REQUIRE(got.size() == want.size(), what);
  if constexpr (kFloat<T>) {
    if (!exact) {
      std::vector<double> g(got.size()), w(want.size());
      std::size_t inf_bad = 0;
      for (std::size_t i = 0; i < got.size(); ++i) {
        g[i] = to_d(got[i]);
        w[i] = to_d(want[i]);
        if (std::isinf(w[i]) != std::isinf(g[i]) || (std::isinf(w[i]) && (w[i] > 0) != (g[i] > 0))) ++inf_bad;
      }
      const pto_test::CmpResult r = pto_test::compare_eps(g, w, 0.001);
      BOOST_TEST_REQUIRE(r.ok(), what << ": " << r.errors << " elements differ (allowed " << r.allowed
                                      << "); first at " << r.first_bad << ": got " << g[r.first_bad] << ", want "
                                      << w[r.first_bad]);
      BOOST_TEST_REQUIRE(inf_bad == 0u, what << ": " << inf_bad << " elements disagree about infinity");
      return;
    }
  }
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(to_d(got[i]) == to_d(want[i])) && !(kFloat<T> && std::isnan(to_d(got[i])) && std::isnan(to_d(want[i]))))
      BOOST_TEST_REQUIRE(false, what << ": element " << i << ": got " << show(got[i]) << ", want " << show(want[i]));
}

}  // namespace pto_test
