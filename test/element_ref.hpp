// What the element-wise suites share for their independent references: which types are floats, a
// value in double, one rounding to T, the bits of a value (exact comparisons), and an error's message.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include <pto/pto-inst.hpp>

namespace pto_test {

template <class T>
constexpr bool kFloat = std::is_same_v<T, pto::half> || std::is_same_v<T, pto::bfloat16_t> || std::is_same_v<T, float>;

template <class T> double to_double(T x) {
  if constexpr (kFloat<T>) return double(float(x));
  else return double(x);
}
// x rounded once to T: libgcc's double -> half conversion rounds once; for bf16 the detour through float
// is innocuous for the result of one operation on bf16 values (24 >= 2 * 8 + 2 bits).
template <class T> T round_to(double x) {
  if constexpr (std::is_same_v<T, pto::bfloat16_t>) return pto::bfloat16_t(float(x));
  else return T(x);
}
// The message of the pto::Error f throws ("no pto::Error" when it throws none), and a substring test.
inline std::string error_of(const auto& f) {
  try {
    f();
  } catch (const pto::Error& e) {
    return e.what();
  }
  return "no pto::Error";
}
inline bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

template <class T> std::uint64_t bits_of(T v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

}  // namespace pto_test
