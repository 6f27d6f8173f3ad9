// pto::Error — the one exception type every legality rule raises.
// Messages name the instruction, the operand and the rule, with values (see docs/errors.md).
#pragma once
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace pto {

class Error : public std::runtime_error {
public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

namespace detail {
// Concatenates streamable pieces into one message.
template <class... Parts>
std::string cat(Parts&&... parts) {
  std::ostringstream os;
  (os << ... << std::forward<Parts>(parts));
  return os.str();
}
// Builds a message from streamable pieces: fail("TLOAD: operand dst ", tile, ": rule").
template <class... Parts>
[[noreturn]] void fail(Parts&&... parts) {
  std::ostringstream os;
  (os << ... << std::forward<Parts>(parts));
  throw Error(os.str());
}
}  // namespace detail

}  // namespace pto
