// The runtime's environment variables (PTO_TARGET, PTO_SYNC_CHECK, PTO_WATCHDOG_*): read one way, any
// case, with a pto::Error naming the variable and what it accepts.
#pragma once
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <pto/isa/error.hpp>

namespace pto::detail {

inline std::string env_lower(const char* v) {
  std::string s = v;
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A whole non-negative number from `name`, or `fallback` when it is unset or empty.
inline std::uint64_t env_count(const char* name, std::uint64_t fallback) {
  const char* env = std::getenv(name);
  if (!env || !*env) return fallback;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(env, &end, 10);
  if (*end != '\0' || errno != 0 || env[0] == '-')
    fail(name, "='", env, "': use a whole number >= 0 (0 turns the limit off)");
  return v;
}

}  // namespace pto::detail
