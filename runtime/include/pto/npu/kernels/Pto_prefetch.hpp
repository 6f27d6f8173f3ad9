// <pto/npu/kernels/Pto_prefetch.hpp>: PTO_PREFETCH, the host call that warms the chip's L2 with a GM
// tensor before a kernel (through SDMA, or a vector-core kernel of TPREFETCHes). The runtime has no L2
// model yet, so a prefetch changes nothing a launch computes or models: it checks its arguments and
// returns. (docs/clusters.md, "Running pto-isa's flash attention".)
#pragma once
#include <cstdint>

#include <pto/isa/error.hpp>
#include <pto/runtime/qualifiers.hpp>

namespace pto {
inline constexpr std::uint32_t kPtoPrefetchTileBytes = 64U * 1024U;  // one AIV TPREFETCH's bytes
inline constexpr std::uint32_t kPtoPrefetchDefaultBlocks = 20U;
}  // namespace pto

template <bool UseSdma = true, int AivCores = -1>
void PTO_PREFETCH(__gm__ void* tensor, std::uint64_t tensor_bytes, aclrtStream /*stream*/) {
  if (!tensor && tensor_bytes)
    pto::detail::fail("PTO_PREFETCH: operand tensor is a null GM pointer with ", tensor_bytes, " bytes to prefetch");
}
