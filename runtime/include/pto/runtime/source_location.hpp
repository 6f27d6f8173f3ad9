// pto::source_location: a sync call's call site, for the synchronisation checker's messages.
// std::source_location where the standard library provides it. libstdc++'s needs the compiler's
// __builtin_source_location (clang has it from 15), so clang 14 gets this stand-in instead: the
// same members, filled by the older __builtin_FILE / __builtin_LINE / ..., which a default argument
// also evaluates at the caller's site.
#pragma once
#include <cstdint>
#include <source_location>

namespace pto {

#if defined(__cpp_lib_source_location)
using source_location = std::source_location;
#else
struct source_location {
  static constexpr source_location current(const char* file = __builtin_FILE(), const char* fn = __builtin_FUNCTION(),
                                           std::uint_least32_t line = __builtin_LINE(),
                                           std::uint_least32_t column = __builtin_COLUMN()) noexcept {
    source_location s;
    s.file_ = file;
    s.function_ = fn;
    s.line_ = line;
    s.column_ = column;
    return s;
  }
  constexpr const char* file_name() const noexcept { return file_; }
  constexpr const char* function_name() const noexcept { return function_; }
  constexpr std::uint_least32_t line() const noexcept { return line_; }
  constexpr std::uint_least32_t column() const noexcept { return column_; }

 private:
  const char* file_ = "";  // as a default-constructed std::source_location: no file, line 0
  const char* function_ = "";
  std::uint_least32_t line_ = 0;
  std::uint_least32_t column_ = 0;
};
#endif

}  // namespace pto
