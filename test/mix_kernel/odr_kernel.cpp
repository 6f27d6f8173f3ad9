// A mixed kernel source, built by pto_add_mix_kernel: compiled once for the cube core and once for the
// vector cores. which_side() and side_of<N>() are the same inline function and template with a different
// body under each macro set: linked naively, the linker keeps one copy for both sides (the ODR hazard).
// test_mix_kernel checks that each core ran its own compilation's.
#include <vector>

#include <pto/pto-inst.hpp>

#ifdef __DAV_CUBE__
constexpr bool DAV_CUBE = true;
#else
constexpr bool DAV_CUBE = false;
#endif

__attribute__((noinline)) inline int which_side() {
#ifdef __DAV_CUBE__
  return 1;
#else
  return 2;
#endif
}

template <int N>
__attribute__((noinline)) int side_of() {
#if defined(__DAV_C220_CUBE__) || defined(__DAV_C310_CUBE__)
  return N * 10;
#else
  return N * 20;
#endif
}

// Each core writes what its compilation says it is; the vector side also moves a tile (its engines).
void odr_kernel(__gm__ int* out, __gm__ float* data) {
  const int core = int(get_block_idx()) * 3 + (get_subblockdim() == 2 ? 1 + int(get_subblockid()) : 0);
  out[2 * core] = which_side();
  out[2 * core + 1] = side_of<3>() + (DAV_CUBE ? 100 : 200);
  if constexpr (!DAV_CUBE) {
    using T = pto::Tile<pto::TileType::Vec, float, 8, 8>;
    using G = pto::GlobalTensor<float, pto::Shape<1, 1, 1, 8, 8>, pto::Stride<1, 1, 1, 8, 1>>;
    T t;
    TASSIGN(t, 0);
    G g(data + core * 64);
    TEXPANDS(t, float(core));
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(g, t);
  }
}

// The launcher the host calls (the vector compilation's; the cube one's is renamed and never called).
pto::LaunchReport run_odr_kernel(std::vector<int>& out, std::vector<float>& data, int clusters) {
  return pto::launch_mix({.blocks = clusters}, pto::mix_entry<&odr_kernel>(), out, data);
}
