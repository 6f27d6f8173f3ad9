// One kernel source, two compilations: the cube side (__DAV_CUBE__) and the vector side (__DAV_VEC__),
// as the chip's toolchain builds a mixed kernel. pto_add_mix_kernel (CMake, docs/clusters.md) compiles
// each source twice with the target's macros and PTO_MIX_SIDE (1 cube, 2 vector), renames every symbol
// the cube compilation defines (so an inline function or template that differs between the two is never
// merged by the linker into one), and links both into one object. Each compilation registers its copy of
// an entry point the first time code naming it is compiled: pto::mix_entry<&kernel>() then gives both.
//
//   void my_kernel(__gm__ float* x, int n) { if constexpr (DAV_CUBE) { ... } else { ... } }
//   void run(std::vector<float>& x, int n) {   // in the same source, called by the host
//     pto::launch_mix({.blocks = 4}, pto::mix_entry<&my_kernel>(), x, n);
//   }
#pragma once
#include <typeinfo>

#include <pto/isa/error.hpp>

namespace pto::detail {
using AnyFn = void (*)();
// The registry (runtime/src/mix_registry.cpp): an entry's key is its compilation-independent type name.
void register_mix_entry(const char* key, bool cube, AnyFn fn);
AnyFn find_mix_entry(const char* key, bool cube);

template <auto F> struct MixTag {};
template <auto F> const char* mix_key() { return typeid(MixTag<F>).name(); }

#ifdef PTO_MIX_SIDE
// Instantiated in each compilation that names the entry: registers that compilation's copy at start-up.
template <auto F>
inline const bool mix_registered = (register_mix_entry(mix_key<F>(), PTO_MIX_SIDE == 1, reinterpret_cast<AnyFn>(F)), true);
#endif
template <auto> inline constexpr bool kMixSideDefined =
#ifdef PTO_MIX_SIDE
    true;
#else
    false;
#endif
}  // namespace pto::detail

namespace pto {

// The two compilations of one kernel entry: launch_mix(cfg, entry, args...) runs `cube` on each
// cluster's AIC and `vec` on its AIVs.
template <class Fn>
struct MixEntry {
  Fn cube, vec;
};

template <class T> inline constexpr bool is_mix_entry = false;
template <class Fn> inline constexpr bool is_mix_entry<MixEntry<Fn>> = true;

template <auto F>
MixEntry<decltype(F)> mix_entry() {
  static_assert(detail::kMixSideDefined<F>,
                "pto::mix_entry: this source is not compiled as a mixed kernel; build it with pto_add_mix_kernel "
                "(CMake), which compiles its cube and vector sides");
#ifdef PTO_MIX_SIDE
  (void)detail::mix_registered<F>;
#endif
  const char* key = detail::mix_key<F>();
  const detail::AnyFn cube = detail::find_mix_entry(key, true), vec = detail::find_mix_entry(key, false);
  if (!cube || !vec)
    detail::fail("pto::mix_entry: the kernel entry ", key, " has no ", !cube ? "cube" : "vector",
                 " compilation registered; build its source with pto_add_mix_kernel (CMake)");
  return {reinterpret_cast<decltype(F)>(cube), reinterpret_cast<decltype(F)>(vec)};
}

}  // namespace pto
