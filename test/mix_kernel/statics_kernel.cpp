// A mixed kernel with writable data of its own: a function-local static (as pto-isa's flash attention
// keeps its L0 ping-pong index) and a global. On the chip each core has its own; the AIC and its AIVs
// take turns through cross-core flags every iteration, so the host switches cores between increments.
#include <vector>

#include <pto/pto-inst.hpp>

namespace {
inline int next_count() {
  static int n = 0;
  return ++n;
}
}  // namespace
int g_statics_calls = 0;

void statics_kernel(__gm__ int* out, int iters) {
  const int core = int(get_block_idx()) * 3 + (get_subblockdim() == 2 ? 1 + int(get_subblockid()) : 0);
  for (int i = 0; i < iters; ++i) {
    out[core * (iters + 1) + i] = next_count();
    ++g_statics_calls;
#ifdef __DAV_CUBE__
    ffts_cross_core_sync(PIPE_S, 1 | 2 << 4 | 1 << 8);  // to both AIVs
    wait_flag_dev(2);                                   // from both
#else
    wait_flag_dev(1);
    ffts_cross_core_sync(PIPE_S, 1 | 2 << 4 | 2 << 8);
#endif
  }
  out[core * (iters + 1) + iters] = g_statics_calls;
}

pto::LaunchReport run_statics_kernel(std::vector<int>& out, int clusters, int iters, int host_threads) {
  return pto::launch_mix({.blocks = clusters, .host_threads = host_threads}, pto::mix_entry<&statics_kernel>(), out, iters);
}
