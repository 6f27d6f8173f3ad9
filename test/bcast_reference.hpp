// The independent reference the broadcast-family suites (test_colexpand, test_rowexpand) share:
// element values computed in double (or exactly for integers), never by the library.
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include <pto/pto-inst.hpp>

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

}  // namespace pto_test
