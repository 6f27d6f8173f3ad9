// A kernel file in the chip's style: the kernel and its own launcher, which calls it with chevrons
// (<<<blocks, l2ctrl, stream>>>). pto_add_mix_kernel rewrites the launch (and nothing else), so the file
// builds unmodified. The AIVs of each cluster scale their half of a block's rows.
#include <cstdint>

#include <pto/pto-inst.hpp>

namespace demo {
template <int Rows, typename T>
__global__ AICORE void scale_rows(__gm__ T* x, __gm__ T* y, T factor) {
#ifdef __DAV_VEC__
  using Half = pto::Tile<pto::TileType::Vec, T, Rows / 2, 16>;
  using G = pto::GlobalTensor<T, pto::Shape<1, 1, 1, Rows / 2, 16>, pto::Stride<1, 1, 1, 16, 1>>;
  const std::int64_t at = (get_block_idx() * Rows + get_subblockid() * (Rows / 2)) * 16;
  Half a, b;
  TASSIGN(a, 0x0);
  TASSIGN(b, 0x4000);
  G in(x + at), out(y + at);
  TLOAD(a, in);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  TMULS(b, a, factor);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(out, b);
#else
  (void)x, (void)y, (void)factor;  // <<< the cube side has nothing to do >>>
#endif
}
}  // namespace demo

// The host calls this; `blocks` clusters of Rows rows each.
void launch_scale_rows(float* x, float* y, float factor, int blocks, aclrtStream stream) {
  demo::scale_rows<32, float><<<blocks, nullptr, stream>>>(x, y, factor);
}
