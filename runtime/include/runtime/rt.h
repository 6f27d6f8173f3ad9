// The part of CANN's runtime API (runtime/rt.h) that PTO kernels' host drivers call: the FFTS control
// block's address, which a mixed kernel passes to set_ffts_base_addr. The runtime's cross-core flags
// need no control block, so the address is a valid dummy that set_ffts_base_addr accepts and ignores.
#pragma once
#include <cstdint>

typedef int32_t rtError_t;
#ifndef RT_ERROR_NONE
#define RT_ERROR_NONE 0
#endif

inline rtError_t rtGetC2cCtrlAddr(uint64_t* addr, uint32_t* len) {
  static std::uint64_t control_block[8];
  if (addr) *addr = reinterpret_cast<std::uintptr_t>(control_block);
  if (len) *len = sizeof(control_block);
  return RT_ERROR_NONE;
}
