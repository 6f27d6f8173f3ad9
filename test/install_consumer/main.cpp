// Both kinds of kernel, compiled against the installed headers and library.
#include <cstdio>
#include <vector>

#include <pto/pto-inst.hpp>

using namespace pto;
using T = Tile<TileType::Vec, float, 8, 8>;
using G = GlobalTensor<float, Shape<1, 1, 1, 8, 8>, pto::Stride<1, 1, 1, 8, 1>>;

Kernel fill(__gm__ float* out) {
  T t;
  TASSIGN(t, 0);
  RecordEvent e = co_await TEXPANDS(t, float(get_block_idx()));
  G g(out + get_block_idx() * 64);
  co_await TSTORE(g, t, e);
}

AICORE void copy(__gm__ float __out__* out, __gm__ float __in__* in) {
  T t;
  TASSIGN(t, 0);
  G src(in), dst(out);
  TLOAD(t, src);
  set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  TSTORE(dst, t);
}

int main() {
  std::vector<float> a(4 * 64, -1.0f), b(64, 0.0f);
  launch({.blocks = 4}, fill, a.data());
  copy(b.data(), a.data() + 3 * 64);  // direct call: the implicit core
  for (int i = 0; i < 4 * 64; ++i)
    if (a[i] != float(i / 64)) return std::printf("coroutine kernel: wrong element %d\n", i), 1;
  for (float v : b)
    if (v != 3.0f) return std::printf("plain kernel: wrong element\n"), 1;
  std::printf("consumer OK\n");
  return 0;
}
