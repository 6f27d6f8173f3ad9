// Sized GM arguments. A raw pointer carries no size, so a GlobalTensor larger than the buffer behind it
// would read or write past it. Pass `pto::gm(ptr, count)`, a `std::span<T>` or a `std::vector<T>` to
// pto::launch instead: the kernel still receives `__gm__ T*`, and every GM access whose footprint
// starts inside such an allocation and leaves it is a pto::Error naming the instruction, the tensor and
// the allocation. Raw pointers stay accepted and unchecked.
#pragma once
#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace pto {

template <class T>
struct GmArg {
  T* data = nullptr;
  std::size_t count = 0;  // elements
  operator T*() const { return data; }  // NOLINT: the kernel's parameter is `__gm__ T*`
};

template <class T>
GmArg<T> gm(T* data, std::size_t count) {
  return {data, count};
}

namespace detail {
// One sized allocation of a launch: bytes [lo, hi) of its argument `arg` (0-based).
struct GmAllocation {
  std::uintptr_t lo = 0, hi = 0;
  int arg = 0;
  std::size_t count = 0;
  std::size_t elem_bytes = 0;
};

template <class A> struct is_sized_gm : std::false_type {};
template <class T> struct is_sized_gm<GmArg<T>> : std::true_type {};
template <class T, std::size_t E> struct is_sized_gm<std::span<T, E>> : std::true_type {};
template <class T, class Al> struct is_sized_gm<std::vector<T, Al>> : std::true_type {};

// What a launch argument becomes in the kernel's argument tuple: sized GM arguments become GmArg<T>
// (a pointer to the caller's buffer, never a copy of it); everything else is copied as it is.
template <class A>
auto launch_arg(A&& a) {
  using D = std::remove_cvref_t<A>;
  if constexpr (requires { typename D::value_type; } && is_sized_gm<D>::value) {
    using T = std::remove_reference_t<decltype(*a.data())>;
    return GmArg<T>{a.data(), a.size()};
  } else if constexpr (is_sized_gm<D>::value) {
    return a;
  } else {
    return std::decay_t<A>(std::forward<A>(a));
  }
}
template <class A> using launch_arg_t = decltype(launch_arg(std::declval<A>()));

template <class T>
void note_allocation(const T&, int, std::vector<GmAllocation>&) {}
// A raw GM pointer argument: its address only (count and elem_bytes 0); launch_impl keeps these apart
// from the sized ones, for the memory system's L2 lines (placed relative to each argument, as the chip's
// allocator aligns a buffer, so hits never depend on where the host's allocator put it).
template <class T>
void note_allocation(T* const& p, int arg, std::vector<GmAllocation>& out) {
  const auto lo = reinterpret_cast<std::uintptr_t>(p);
  out.push_back({lo, lo, arg, 0, 0});
}
template <class T>
void note_allocation(const GmArg<T>& g, int arg, std::vector<GmAllocation>& out) {
  const auto lo = reinterpret_cast<std::uintptr_t>(g.data);
  out.push_back({lo, lo + g.count * sizeof(T), arg, g.count, sizeof(T)});
}
}  // namespace detail

}  // namespace pto
