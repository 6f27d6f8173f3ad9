// One core's whole UB as a byte vector: a test lays out its tiles' bytes, runs instructions on them
// (with the sync checker off: the caller's instructions alone, then a full barrier) and reads UB back.
#pragma once
#include <cstddef>
#include <cstring>
#include <functional>
#include <vector>

#include <pto/pto-inst.hpp>

namespace pto_test {

constexpr std::size_t kUb = 192 * 1024;
using Ub = std::vector<std::byte>;

// Runs `issue` on one core of `target` with UB holding `init` first; returns UB afterwards.
inline Ub run_ub(pto::Target target, const Ub& init, const std::function<void()>& issue, bool cpu_reference = false) {
  using namespace pto;
  Ub out(kUb);
  launch({.blocks = 1, .target = target, .check = SyncCheck::Off, .cpu_reference = cpu_reference}, [&]() -> Kernel {
    Tile<TileType::Vec, std::uint8_t, 184, 1024> probe;  // UB below A2A3's scratch: its data() writes count
    TASSIGN(probe, 0);
    std::memcpy(probe.data(), init.data(), kUb);
    issue();
    co_await pipe_barrier(PIPE_ALL);
    std::memcpy(out.data(), probe.data(), kUb);
  });
  return out;
}
template <class T> void put(Ub& ub, std::size_t at, const std::vector<T>& v) { std::memcpy(ub.data() + at, v.data(), v.size() * sizeof(T)); }
template <class T> std::vector<T> get(const Ub& ub, std::size_t at, std::size_t n) {
  std::vector<T> v(n);
  std::memcpy(v.data(), ub.data() + at, n * sizeof(T));
  return v;
}

}  // namespace pto_test
