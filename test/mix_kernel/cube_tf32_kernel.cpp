// A mixed kernel whose cube side leans on the runtime's hooks that pto's headers hold as inline variables:
// its tiles are placed by auto mode (Tile's retain / release hooks) and it sets the cube's TF32 mode (the
// mad_mode hook). The cube compilation's symbols are renamed by pto_add_mix_kernel; these hooks must stay
// the runtime's, or the cube side would silently run unplaced tiles and full-precision products.
#include <vector>

#include <pto/pto-inst.hpp>

namespace {
constexpr int M = 16, K = 40, N = 32;
}

void tf32_kernel(__gm__ float* a, __gm__ float* b, __gm__ float* c) {
#ifdef __DAV_CUBE__
  using namespace pto;
  Tile<TileType::Mat, float, M, K, BLayout::ColMajor, M, K, SLayout::RowMajor, 512> ma;
  Tile<TileType::Mat, float, K, N, BLayout::RowMajor, K, N, SLayout::ColMajor, 512> mb;
  TileLeft<float, M, K> l;
  TileRight<float, K, N> r;
  TileAcc<float, M, N> acc;
  GlobalTensor<float, Shape<1, 1, 1, M, K>, pto::Stride<1, 1, 1, K, 1>> ga(a);
  GlobalTensor<float, Shape<1, 1, 1, K, N>, pto::Stride<1, 1, 1, 1, K>, Layout::DN> gb(b);  // column j at j * K
  GlobalTensor<float, Shape<1, 1, 1, M, N>, pto::Stride<1, 1, 1, N, 1>> gc(c);
  TLOAD(ma, ga);
  TLOAD(mb, gb);
  TMOV(l, ma);
  TMOV(r, mb);
  l.SetMadTF32Mode(RoundMode::CAST_ROUND);
  TMATMUL(acc, l, r);
  l.ResetMadMode();
  TSTORE(gc, acc);
#else
  (void)a, (void)b, (void)c;  // the vector cores have nothing to do
#endif
}

pto::LaunchReport run_tf32_kernel(std::vector<float>& a, std::vector<float>& b, std::vector<float>& c) {
  return pto::launch_mix({.blocks = 1, .mode = pto::Mode::Auto}, pto::mix_entry<&tf32_kernel>(), a, b, c);
}
