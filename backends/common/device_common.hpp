// What the A2/A3 and A5 device code paths share: the element-wise operations of their lanes (in the
// compute type: float for half, the element type otherwise; integers wrap) and the UB window every
// intrinsic checks its bytes against.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <pto/isa/error.hpp>
#include <pto/runtime/cost_table.hpp>

namespace pto::device {

enum class Fn { Add, Sub, Mul, Div, Max, Min };

template <Fn F, class C>
C apply(C a, C b) {
  if constexpr (std::is_integral_v<C>) {
    using U = std::make_unsigned_t<C>;  // two's complement wrap, no signed overflow
    if constexpr (F == Fn::Add) return C(U(a) + U(b));
    if constexpr (F == Fn::Sub) return C(U(a) - U(b));
    if constexpr (F == Fn::Mul) return C(U(a) * U(b));
    if constexpr (F == Fn::Div) return b == 0 ? C(0) : C(a / b);  // not reached: integer division is not covered
    if constexpr (F == Fn::Max) return a < b ? b : a;
    if constexpr (F == Fn::Min) return b < a ? b : a;
  } else {
    if constexpr (F == Fn::Add) return a + b;
    if constexpr (F == Fn::Sub) return a - b;
    if constexpr (F == Fn::Mul) return a * b;
    if constexpr (F == Fn::Div) return a / b;
    if constexpr (F == Fn::Max) return a < b ? b : a;
    if constexpr (F == Fn::Min) return b < a ? b : a;
  }
}

constexpr Intrinsic intrinsic_of(Fn f) {
  switch (f) {
    case Fn::Add: return Intrinsic::vadd;
    case Fn::Sub: return Intrinsic::vsub;
    case Fn::Mul: return Intrinsic::vmul;
    case Fn::Div: return Intrinsic::vdiv;
    case Fn::Max: return Intrinsic::vmax;
    case Fn::Min: return Intrinsic::vmin;
  }
  return Intrinsic::vadd;
}

// The core's UB as an instruction's intrinsics address it.
struct UbWindow {
  std::byte* base;
  std::size_t bytes;
  const char* instruction;
  // Host addresses [lo, hi) must lie inside UB.
  void check(const char* intrinsic, const char* verb, std::uintptr_t lo, std::uintptr_t hi) const {
    const auto u = reinterpret_cast<std::uintptr_t>(base);
    if (lo < u || hi > u + bytes)
      detail::fail(instruction, ": ", intrinsic, " ", verb, " UB bytes [", std::int64_t(lo - u), ", ", std::int64_t(hi - u),
                   "), outside the ", bytes / 1024, " KiB UB");
  }
};

}  // namespace pto::device
