// Flash attention on clusters: O = softmax(Q K^T / sqrt(D)) V, one source for the cube core and the two
// vector cores (built by pto_add_mix_kernel, as the chip's toolchain builds a mixed kernel). Each cluster
// owns kRows query rows; for every tile of kTile keys:
//   AIC:  S = Q K_j^T (L0C, float)          --TPUSH QK, split by rows-->  AIV s: its kRows / 2 rows of S
//   AIV:  online softmax: m' = max(m, rowmax S), P = exp((S - m') / sqrt(D)) (half), l = l a + rowsum P
//         with a = exp((m - m') / sqrt(D))  --TPUSH P, its rows-->       AIC: P (L1, both halves)
//   AIC:  PV = P V_j (float)                --TPUSH PV, split by rows--> AIV: O = O a + PV
// and at the end each AIV stores O / l for its rows. Auto mode orders each core's own pipes; the FIFOs
// (TPUSH / TPOP, flags 0-5) order the cores. The layout follows pto-isa's flash attention kernel.
#include <cstdint>

#include <pto/pto-inst.hpp>

#include "fa_kernel.hpp"

using namespace pto;

#ifdef __DAV_CUBE__
constexpr bool DAV_CUBE = true;
#else
constexpr bool DAV_CUBE = false;
#endif

namespace {
constexpr int R = fa::kRows, T = fa::kTile, D = fa::kHead, H = R / 2;  // H: one AIV's rows
constexpr std::uint32_t kRingSlots = 2;

using QKPipe = TPipe<0, DIR_C2V, R * T * sizeof(float), kRingSlots>;
using PPipe = TPipe<2, DIR_V2C, R * T * sizeof(half), kRingSlots>;
using PVPipe = TPipe<4, DIR_C2V, R * D * sizeof(float), kRingSlots>;

// Cube tiles: Q (R x D), K_j^T (D x T, from K's rows: a DN view), P (R x T), V_j (T x D).
using MatQ = Tile<TileType::Mat, half, R, D, BLayout::ColMajor, R, D, SLayout::RowMajor, 512>;
using MatK = Tile<TileType::Mat, half, D, T, BLayout::RowMajor, D, T, SLayout::ColMajor, 512>;
using MatP = Tile<TileType::Mat, half, R, T, BLayout::ColMajor, R, T, SLayout::RowMajor, 512>;
using MatV = Tile<TileType::Mat, half, T, D, BLayout::ColMajor, T, D, SLayout::RowMajor, 512>;
using GmQ = GlobalTensor<half, Shape<1, 1, 1, R, D>, pto::Stride<1, 1, 1, D, 1>>;
using GmK = GlobalTensor<half, Shape<1, 1, 1, D, T>, pto::Stride<1, 1, 1, 1, D>, Layout::DN>;
using GmV = GlobalTensor<half, Shape<1, 1, 1, T, D>, pto::Stride<1, 1, 1, D, 1>>;
using AccS = TileAcc<float, R, T>;
using AccPV = TileAcc<float, R, D>;

// Vector tiles (one AIV's rows).
using RowsF = Tile<TileType::Vec, float, H, T>;
using RowsH = Tile<TileType::Vec, half, H, T>;
using OutF = Tile<TileType::Vec, float, H, D>;
// One value per row: a column (ColMajor H x 1) for the row reductions and expansions, and the same bytes
// seen as one row (RowMajor 1 x H) for the element-wise updates, as the chip's kernels alias them.
using ColF = Tile<TileType::Vec, float, H, 1, BLayout::ColMajor>;
using LineF = Tile<TileType::Vec, float, 1, H>;
using GmO = GlobalTensor<float, Shape<1, 1, 1, H, D>, pto::Stride<1, 1, 1, D, 1>>;

void cube_side(const fa::Args& a, QKPipe& qk, PPipe& pp, PVPipe& pv) {
  const std::int64_t row0 = get_block_idx() * R;
  MatQ q;
  MatK k;
  MatP p;
  MatV v;
  TileLeft<half, R, D> lq;
  TileRight<half, D, T> rk;
  TileLeft<half, R, T> lp;
  TileRight<half, T, D> rv;
  AccS s;
  AccPV o;
  TASSIGN(q, 0x0);
  TASSIGN(k, 0x4000);
  TASSIGN(v, 0x8000);
  TASSIGN(lq, 0x0);
  TASSIGN(lp, 0x4000);
  TASSIGN(rk, 0x0);
  TASSIGN(rv, 0x4000);
  TASSIGN(s, 0x0);
  TASSIGN(o, 0x10000);
  GmQ gq(a.q + row0 * D);
  TLOAD(q, gq);
  TEXTRACT(lq, q, 0, 0);
  for (int j = 0; j < a.s1 / T; ++j) {
    GmK gk(a.k + std::int64_t(j) * T * D);
    TLOAD(k, gk);
    TEXTRACT(rk, k, 0, 0);
    TMATMUL(s, lq, rk);
    TPUSH<QKPipe, AccS, TILE_UP_DOWN>(qk, s);
    GmV gv(a.v + std::int64_t(j) * T * D);
    TLOAD(v, gv);
    TEXTRACT(rv, v, 0, 0);
    TPOP<PPipe, MatP, TILE_UP_DOWN>(pp, p);  // both AIVs' rows of P
    TEXTRACT(lp, p, 0, 0);
    TMATMUL(o, lp, rv);
    TPUSH<PVPipe, AccPV, TILE_UP_DOWN>(pv, o);
  }
}

void vector_side(const fa::Args& a, QKPipe& qk, PPipe& pp, PVPipe& pv) {
  const float scale = 1.0f / 8.0f;  // 1 / sqrt(D), D = 64
  RowsF s, p, tmp;
  RowsH ph;
  OutF part, out;
  ColF mj, alpha, l, rs;
  LineF m_, mj_, alpha_, l_, rs_;
  TASSIGN(p, 0x18000);
  TASSIGN(tmp, 0x1C000);
  TASSIGN(ph, 0x20000);
  TASSIGN(out, 0x22000);
  TASSIGN(m_, 0x24000);
  TASSIGN(mj, 0x24400);
  TASSIGN(mj_, 0x24400);
  TASSIGN(alpha, 0x24800);
  TASSIGN(alpha_, 0x24800);
  TASSIGN(l, 0x24c00);
  TASSIGN(l_, 0x24c00);
  TASSIGN(rs, 0x25000);
  TASSIGN(rs_, 0x25000);
  for (int j = 0; j < a.s1 / T; ++j) {
    TPOP<QKPipe, RowsF, TILE_UP_DOWN>(qk, s);  // this AIV's rows of S, into the UB ring at 0x0
    TROWMAX(mj, s, tmp);
    if (j > 0) {
      TMAX(mj_, mj_, m_);      // m' = max(m, rowmax S)
      TSUB(alpha_, m_, mj_);   // a = exp((m - m') / sqrt(D))
      TMULS(alpha_, alpha_, scale);
      TEXP(alpha_, alpha_);
    }
    TROWEXPANDSUB(p, s, mj);  // P = exp((S - m') / sqrt(D))
    TMULS(p, p, scale);
    TEXP(p, p);
    TROWSUM(rs, p, tmp);
    if (j == 0) {
      TMULS(l_, rs_, 1.0f);
    } else {
      TMUL(l_, l_, alpha_);
      TADD(l_, l_, rs_);
    }
    TMULS(m_, mj_, 1.0f);  // m = m'
    TCVT(ph, p, RoundMode::CAST_ROUND);
    TPUSH<PPipe, RowsH, TILE_UP_DOWN>(pp, ph);
    TPOP<PVPipe, OutF, TILE_UP_DOWN>(pv, part);  // this AIV's rows of P V_j, into the ring at 0x10000
    if (j == 0) {
      TMULS(out, part, 1.0f);
    } else {
      TROWEXPANDMUL(out, out, alpha);
      TADD(out, out, part);
    }
  }
  TROWEXPANDDIV(out, out, l);
  GmO go(a.o + (get_block_idx() * R + get_subblockid() * H) * D);
  TSTORE(go, out);
}
}  // namespace

void flash_attention(fa::Args a) {
  // The rings: per cluster, kRingSlots slots of each pipe in GM; the AIVs' local rings in UB (QK at
  // 0x0, PV at 0x10000), the AIC's P ring in L1 (0x10000).
  const std::int64_t b = get_block_idx();
  QKPipe qk(a.qk_ring + b * kRingSlots * R * T, 0x0, 0x0);
  PPipe pp(a.p_ring + b * kRingSlots * R * T, 0x0, 0x10000);
  PVPipe pv(a.pv_ring + b * kRingSlots * R * D, 0x10000, 0x0);
  if constexpr (DAV_CUBE) cube_side(a, qk, pp, pv);
  else vector_side(a, qk, pp, pv);
}

LaunchReport run_flash_attention(const fa::Args& a, int clusters, const LaunchConfig& base) {
  LaunchConfig cfg = base;
  cfg.blocks = clusters;
  cfg.mode = Mode::Auto;
  return launch_mix(cfg, mix_entry<&flash_attention>(), a);
}
