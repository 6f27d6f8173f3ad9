// The one place the CPU backend touches oneTBB.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstdlib>

#include "elementwise.hpp"

namespace pto::cpu {

long parallel_threshold_elems() {
  static const long value = [] {
    const char* env = std::getenv("PTO_CPU_PARALLEL_MIN_ELEMS");
    return env ? std::atol(env) : kDefaultParallelThresholdElems;
  }();
  return value;
}

void for_blocks(int R, int C, void (*fn)(void*, int, int, int, int), void* ctx) {
  if (R >= 16) {
    tbb::parallel_for(tbb::blocked_range<int>(0, R, std::max(1, 8192 / std::max(C, 1))),
                      [&](const tbb::blocked_range<int>& r) { fn(ctx, r.begin(), r.end(), 0, C); });
  } else {  // few long rows (1 x 16384): split the columns, in multiples of 64 elements
    const int chunks = (C + 4095) / 4096;
    tbb::parallel_for(0, chunks, [&](int k) { fn(ctx, 0, R, k * 4096, std::min(C, (k + 1) * 4096)); });
  }
}

}  // namespace pto::cpu
