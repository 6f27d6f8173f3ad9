// The part of CANN's ACL runtime API that PTO kernels' host code calls (pto-isa's kernels/ drivers and
// launchers), on the host: "device" memory is host memory, a stream is a token, copies are memcpy, and
// a kernel launched on a stream (a chevron launch, pto/runtime/chevron.hpp) has run when the launch call
// returns, so synchronising does nothing. Same names, types and signatures as CANN's acl/acl.h, so a
// kernel file and its driver compile unmodified. Calls report errors as CANN does (a non-zero aclError)
// and also keep the last message for aclGetRecentErrMsg.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include <pto/isa/dtype.hpp>  // aclFloat16, aclFloat16ToFloat, aclFloatToFloat16
#include <pto/runtime/qualifiers.hpp>  // aclrtStream

typedef int aclError;
typedef void* aclrtEvent;
typedef void* aclrtContext;

#ifndef ACL_SUCCESS
#define ACL_SUCCESS 0
#define ACL_ERROR_INVALID_PARAM 100000
#define ACL_ERROR_BAD_ALLOC 200000
#endif

typedef enum aclrtMemcpyKind {
  ACL_MEMCPY_HOST_TO_HOST,
  ACL_MEMCPY_HOST_TO_DEVICE,
  ACL_MEMCPY_DEVICE_TO_HOST,
  ACL_MEMCPY_DEVICE_TO_DEVICE,
  ACL_MEMCPY_DEFAULT,
} aclrtMemcpyKind;

typedef enum aclrtMemMallocPolicy {
  ACL_MEM_MALLOC_HUGE_FIRST,
  ACL_MEM_MALLOC_HUGE_ONLY,
  ACL_MEM_MALLOC_NORMAL_ONLY,
  ACL_MEM_MALLOC_HUGE_FIRST_P2P,
  ACL_MEM_MALLOC_HUGE_ONLY_P2P,
  ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
} aclrtMemMallocPolicy;

namespace pto::acl {
inline std::string& last_error() {
  static thread_local std::string msg;
  return msg;
}
inline aclError error(aclError code, const char* call, const char* why) {
  last_error() = std::string(call) + ": " + why;
  return code;
}
// Allocations are 64-byte aligned (CANN's device allocations are at least 32-byte aligned; kernels
// assume it for their GM tiles).
inline aclError allocate(void** p, std::size_t size, const char* call) {
  if (!p) return error(ACL_ERROR_INVALID_PARAM, call, "the pointer argument is null");
  *p = nullptr;
  if (size == 0) return error(ACL_ERROR_INVALID_PARAM, call, "size 0");
  *p = ::operator new(size, std::align_val_t(64), std::nothrow);
  return *p ? ACL_SUCCESS : error(ACL_ERROR_BAD_ALLOC, call, "out of host memory");
}
inline void release(void* p) { ::operator delete(p, std::align_val_t(64)); }
}  // namespace pto::acl

inline aclError aclInit(const char* /*configPath*/) { return ACL_SUCCESS; }
inline aclError aclFinalize() { return ACL_SUCCESS; }
inline aclError aclrtSetDevice(int32_t /*deviceId*/) { return ACL_SUCCESS; }
inline aclError aclrtResetDevice(int32_t /*deviceId*/) { return ACL_SUCCESS; }
inline aclError aclrtGetDeviceCount(uint32_t* count) {
  if (!count) return pto::acl::error(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount", "count is null");
  *count = 1;
  return ACL_SUCCESS;
}
inline aclError aclrtCreateStream(aclrtStream* stream) {
  if (!stream) return pto::acl::error(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream", "stream is null");
  static char token;  // launches run to their end: one stream is as good as many
  *stream = &token;
  return ACL_SUCCESS;
}
inline aclError aclrtDestroyStream(aclrtStream /*stream*/) { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeStream(aclrtStream /*stream*/) { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeDevice() { return ACL_SUCCESS; }

inline aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy /*policy*/) {
  return pto::acl::allocate(devPtr, size, "aclrtMalloc");
}
inline aclError aclrtMallocHost(void** hostPtr, size_t size) { return pto::acl::allocate(hostPtr, size, "aclrtMallocHost"); }
inline aclError aclrtFree(void* devPtr) {
  pto::acl::release(devPtr);
  return ACL_SUCCESS;
}
inline aclError aclrtFreeHost(void* hostPtr) {
  pto::acl::release(hostPtr);
  return ACL_SUCCESS;
}
inline aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind /*kind*/) {
  if (count > destMax) return pto::acl::error(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy", "count is larger than destMax");
  if (count && (!dst || !src)) return pto::acl::error(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy", "a null pointer");
  if (count) std::memmove(dst, src, count);
  return ACL_SUCCESS;
}
inline aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                                 aclrtStream /*stream*/) {
  return aclrtMemcpy(dst, destMax, src, count, kind);
}
inline aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  if (count > maxCount) return pto::acl::error(ACL_ERROR_INVALID_PARAM, "aclrtMemset", "count is larger than maxCount");
  if (count && !devPtr) return pto::acl::error(ACL_ERROR_INVALID_PARAM, "aclrtMemset", "a null pointer");
  if (count) std::memset(devPtr, value, count);
  return ACL_SUCCESS;
}
inline const char* aclGetRecentErrMsg() { return pto::acl::last_error().c_str(); }
