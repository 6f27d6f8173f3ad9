// Shared helpers for the suites: seeded data and the spec §5 comparison rule.
#pragma once
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <pto/isa/error.hpp>

namespace pto_test {

// The message of the pto::Error f throws, or "" when it throws none.
inline std::string error_text(const auto& f) {
  try {
    f();
  } catch (const pto::Error& e) {
    return e.what();
  }
  return "";
}

// A file name in the temporary directory, unique to this process.
inline std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("pto_" + std::to_string(::getpid()) + "_" + name)).string();
}
inline std::string read_file(const std::string& path) {
  std::ifstream is(path);
  std::stringstream ss;
  ss << is.rdbuf();
  return ss.str();
}

template <class T>
std::vector<T> random_vector(std::size_t n, double lo, double hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(d(rng));
  return v;
}

// Spec §5 (ResultCmp): element i is an error if (|d| > eps and |d / expected| > eps) or exactly one side
// is NaN; passes iff errors <= floor(N * eps).
struct CmpResult {
  std::size_t errors = 0, allowed = 0, first_bad = 0;
  bool ok() const { return errors <= allowed; }
};
template <class A, class E>
CmpResult compare_eps(const std::vector<A>& actual, const std::vector<E>& expected, double eps) {
  CmpResult r;
  r.allowed = std::size_t(std::floor(double(expected.size()) * eps));
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double a = double(actual[i]), e = double(expected[i]);
    const bool nan_mismatch = std::isnan(a) != std::isnan(e);
    const double d = std::fabs(a - e);
    if (nan_mismatch || (d > eps && d / std::fabs(e) > eps)) {
      if (r.errors++ == 0) r.first_bad = i;
    }
  }
  return r;
}

}  // namespace pto_test
