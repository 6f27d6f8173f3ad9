// SPMD queries: which emulated core the kernel runs on (spec §1.9).
#pragma once
#include <cstdint>

#include <pto/runtime/core_api.hpp>

inline std::int64_t get_block_idx() { return pto::detail::core_block_idx(pto::detail::current_core()); }
inline std::int64_t get_block_num() { return pto::detail::core_block_num(pto::detail::current_core()); }
// The chip core the block runs on (pto::launch_mix's blocks beyond the chip's 24 AI cores run in waves, on
// the core of the block 24 before).
inline std::int64_t get_coreid() { return pto::detail::core_chip_core(pto::detail::current_core()); }
// The system counter kernels time themselves with (50 MHz on the chip): the modeled time this core's
// scalar pipe has reached, in 20 ns ticks.
inline std::uint64_t get_sys_cnt() { return pto::detail::core_sys_cnt(pto::detail::current_core()); }
// In a cluster launch (pto::launch_mix) the AIVs of a cluster are sub-blocks 0 and 1 of its block; the
// vector side sees two of them, the cube side one.
inline std::int64_t get_subblockid() { return pto::detail::core_subblock(pto::detail::current_core()); }
inline std::int64_t get_subblockdim() {
  return pto::detail::core_kind(pto::detail::current_core()) == pto::CoreKind::Vector ? 2 : 1;
}

namespace pto {
inline std::int64_t GetBlockIdx() { return get_block_idx(); }
inline std::int64_t GetBlockNum() { return get_block_num(); }
inline std::int64_t GetSubBlockIdx() { return get_subblockid(); }
inline std::int64_t GetSubBlockNum() { return get_subblockdim(); }
}  // namespace pto
