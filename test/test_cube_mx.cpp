// A5's MX matmul: TLOAD of the MX scale layouts into ZZ / NN Mat tiles, TMOV / TEXTRACT into ScaleLeft /
// ScaleRight tiles, TMATMUL_MX / TGEMV_MX in every form, against a double reference computed from the
// definition (docs/cube.md "MX"); the errors.
#define BOOST_TEST_MODULE cube_mx
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <pto/pto-inst.hpp>

#include "element_ref.hpp"
#include "test_util.hpp"

using namespace pto;

namespace {
constexpr int up(int v, int a) { return (v + a - 1) / a * a; }
enum class Form { Plain, Acc, Bias };

// e8m0 codes around 127 (2^-3 .. 2^3) and fp8 values from a small grid: every product exact in float.
std::uint8_t scale_code(int i, int j, int salt) { return std::uint8_t(124 + (i * 5 + j * 3 + salt) % 7); }
double fp8_value(int i, int j, int salt) { return double((i * 7 + j * 13 + salt * 5) % 17 - 8) / 4.0; }

// A and B as pto-isa's kernels hand them over: row-major in GM, an 8-bit code a byte, or (the 4-bit
// types) two codes a byte, element 2k in the low nibble (the reference reads the same codes).
template <class T>
struct GmMatrix {
  static constexpr bool four = std::is_same_v<T, float4_e2m1x2_t> || std::is_same_v<T, float4_e1m2x2_t>;
  int rows, cols;
  std::vector<std::uint8_t> bytes;
  std::vector<double> value;  // the decoded values, row-major
  GmMatrix(int r, int c, int salt) : rows(r), cols(c), bytes(four ? (std::size_t(r) * c + 1) / 2 : std::size_t(r) * c), value(std::size_t(r) * c) {
    for (int i = 0; i < r; ++i)
      for (int j = 0; j < c; ++j) {
        const std::size_t o = std::size_t(i) * c + j;
        if constexpr (four) {  // every code, the negative zero included
          const auto code = std::uint8_t((i * 7 + j * 13 + salt * 5) % 16);
          bytes[o / 2] = std::uint8_t(o % 2 ? (bytes[o / 2] & 0x0F) | code << 4 : (bytes[o / 2] & 0xF0) | code);
          value[o] = double(T::FromRaw(code));
        } else {
          const T v(fp8_value(i, j, salt));
          bytes[o] = v.RawData();
          value[o] = double(v);
        }
      }
  }
  T* gm() { return reinterpret_cast<T*>(bytes.data()); }
  double at(int i, int j) const { return value[std::size_t(i) * cols + j]; }
};

// C = A * B (+ bias, or + a previous C) for fp8 / fp4 A (m x k) and B (k x n) with MX scales, through GM,
// L1, L0A / L0B and the scale buffers. SA / SB: the GM layouts of the scales.
// Pad: as pto-isa's NPU kernels, K runs to the tiles' multiple of 64 over L1's lines TFILLPAD zeroed
// (L1 holds garbage before).
template <class TA, class TB, int VM, int VK, int VN, Layout SA, Layout SB, bool Pad = false>
int mx_mismatches(Form form, bool gemv = false, bool unscaled = false) {
  constexpr bool four = GmMatrix<TA>::four;
  constexpr int M = up(VM, 16), K = up(VK, 64), N = up(VN, four ? 64 : 32), G = K / 32;  // G: scale groups of the tiles
  GmMatrix<TA> a(VM, VK, 1);
  GmMatrix<TB> b(VK, VN, 2);
  // the scales, logically sa[i][g] and sb[g][j], placed in GM by the layouts' definitions
  std::vector<std::uint8_t> sa(std::size_t(M) * G), sb(std::size_t(G) * N);
  auto sa_at = [&](int i, int g) -> std::size_t {
    if (SA == Layout::MX_A_ZZ) return std::size_t(i / 16) * G * 16 + std::size_t(g / 2) * 32 + std::size_t(i % 16) * 2 + g % 2;
    if (SA == Layout::MX_A_ND) return std::size_t(i) * G + g;
    return std::size_t(g / 2) * M * 2 + std::size_t(i) * 2 + g % 2;  // MX_A_DN
  };
  auto sb_at = [&](int g, int j) -> std::size_t {
    if (SB == Layout::MX_B_NN) return std::size_t(j / 16) * G * 16 + std::size_t(g / 2) * 32 + std::size_t(j % 16) * 2 + g % 2;
    if (SB == Layout::MX_B_ND) return std::size_t(g / 2) * N * 2 + std::size_t(j) * 2 + g % 2;
    return std::size_t(j) * G + g;  // MX_B_DN
  };
  for (int i = 0; i < M; ++i)
    for (int g = 0; g < G; ++g) sa[sa_at(i, g)] = scale_code(i, g, 1);
  for (int g = 0; g < G; ++g)
    for (int j = 0; j < N; ++j) sb[sb_at(g, j)] = scale_code(g, j, 2);
  std::vector<float> bias(N), out(static_cast<std::size_t>(VM) * VN, -9.0f);
  for (int j = 0; j < N; ++j) bias[std::size_t(j)] = float(j % 5) - 2.0f;
  {
    ScopedTarget scope(Target::A5);
    Tile<TileType::Mat, TA, M, K, BLayout::ColMajor, VM, VK, SLayout::RowMajor, 512> ma;
    Tile<TileType::Mat, TB, K, N, BLayout::ColMajor, VK, VN, SLayout::RowMajor, 512> mb;
    Tile<TileType::Mat, float8_e8m0_t, M, G, BLayout::RowMajor, M, G, SLayout::RowMajor, 32> msa;
    Tile<TileType::Mat, float8_e8m0_t, G, N, BLayout::ColMajor, G, N, SLayout::ColMajor, 32> msb;
    Tile<TileType::Mat, float, 1, N> mbias;
    constexpr int LK = Pad ? K : VK;  // the mad's k
    TileLeft<TA, M, K, VM, LK> l;
    TileRight<TB, K, N, LK, VN> r;
    TileLeftScale<float8_e8m0_t, M, G> ls;
    TileRightScale<float8_e8m0_t, G, N> rs;
    TileAcc<float, M, N, VM, VN> c;
    Tile<TileType::Bias, float, 1, N> bt;
    TASSIGN(ma, 0);
    TASSIGN(mb, 0x10000);
    TASSIGN(msa, 0x20000);
    TASSIGN(msb, 0x24000);
    TASSIGN(mbias, 0x28000);
    TASSIGN(l, 0);
    TASSIGN(r, 0);
    TASSIGN(ls, GetScaleAddr(l.data()));  // as pto-isa's MX kernels place them
    TGET_SCALE_ADDR(rs, r);
    TASSIGN(c, 0);
    TASSIGN(bt, 0);
    GlobalTensor<TA, Shape<1, 1, 1, VM, VK>, pto::Stride<1, 1, 1, VK, 1>> ga(a.gm());
    GlobalTensor<TB, Shape<1, 1, 1, VK, VN>, pto::Stride<1, 1, 1, VN, 1>> gb(b.gm());
    GlobalTensor<float8_e8m0_t, TileShape2D<float8_e8m0_t, M, G, SA>, BaseShape2D<float8_e8m0_t, M, G, SA>, SA> gsa(
        reinterpret_cast<float8_e8m0_t*>(sa.data()));
    GlobalTensor<float8_e8m0_t, TileShape2D<float8_e8m0_t, G, N, SB>, BaseShape2D<float8_e8m0_t, G, N, SB>, SB> gsb(
        reinterpret_cast<float8_e8m0_t*>(sb.data()));
    if constexpr (Pad) {
      std::memset(static_cast<void*>(ma.data()), 0x5A, ma.GetSizeInBytes());
      std::memset(static_cast<void*>(mb.data()), 0xA5, mb.GetSizeInBytes());
    }
    TLOAD(ma, ga);
    TLOAD(mb, gb);
    if constexpr (Pad) {
      TFILLPAD(ma, ma);
      TFILLPAD(mb, mb);
    }
    TLOAD(msa, gsa);
    TLOAD(msb, gsb);
    TMOV(l, ma);
    TMOV(r, mb);
    TMOV(ls, msa);
    TEXTRACT(rs, msb, 0, 0);
    if (form == Form::Bias) {
      GlobalTensor<float, Shape<1, 1, 1, 1, N>, pto::Stride<1, 1, 1, N, 1>> gbias(bias.data());
      TLOAD(mbias, gbias);
      TMOV(bt, mbias);
      if (gemv) TGEMV_MX(c, l, ls, r, rs, bt);
      else TMATMUL_MX(c, l, ls, r, rs, bt);
    } else {
      if (unscaled) {
        if constexpr (!four) TMATMUL(c, l, r);  // A5's plain fp8 mad: no scales (none for fp4)
      }
      else if (gemv) TGEMV_MX<AccPhase::Partial>(c, l, ls, r, rs);
      else TMATMUL_MX(c, l, ls, r, rs);
      if (form == Form::Acc) {  // a second pass: c = 2 * A * B
        if (gemv) TGEMV_MX(c, c, l, ls, r, rs);
        else TMATMUL_MX<AccPhase::Final>(c, c, l, ls, r, rs);
      }
    }
    GlobalTensor<float, Shape<1, 1, 1, VM, VN>, pto::Stride<1, 1, 1, VN, 1>> go(out.data());
    TSTORE(go, c);
  }
  int bad = 0;
  const int rows = gemv ? 1 : VM;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < VN; ++j) {
      double ref = 0, mag = 0;
      for (int p = 0; p < VK; ++p) {
        const double t = a.at(i, p) * std::ldexp(1.0, unscaled ? 0 : sa[sa_at(i, p / 32)] - 127) * b.at(p, j) *
                         std::ldexp(1.0, unscaled ? 0 : sb[sb_at(p / 32, j)] - 127);
        ref += t;
        mag += std::abs(t);
      }
      if (form == Form::Acc) ref *= 2, mag *= 2;
      if (form == Form::Bias) ref += bias[std::size_t(j)], mag += std::abs(bias[std::size_t(j)]);
      const bool miss = !(std::abs(double(out[std::size_t(i) * VN + j]) - ref) <= (2 * VK + 2) * 0x1p-24 * mag);
      if (miss && bad < 3 && std::getenv("MXDBG")) std::printf("(%d,%d) got %g ref %g\n", i, j, double(out[std::size_t(i) * VN + j]), ref);
      bad += miss;
    }
  return bad;
}
using E4 = float8_e4m3_t;
using E5 = float8_e5m2_t;
}  // namespace

// pto-isa's tmatmul_mx shapes (the 8-bit ones), with each scale layout on A and B.
BOOST_AUTO_TEST_CASE(tmatmul_mx_matches_the_definition) {
  BOOST_TEST((mx_mismatches<E5, E5, 128, 64, 64, Layout::MX_A_ZZ, Layout::MX_B_NN>(Form::Plain)) == 0);
  BOOST_TEST((mx_mismatches<E4, E4, 127, 72, 64, Layout::MX_A_ND, Layout::MX_B_ND>(Form::Plain)) == 0);
  BOOST_TEST((mx_mismatches<E4, E5, 128, 110, 63, Layout::MX_A_DN, Layout::MX_B_DN>(Form::Plain)) == 0);
  BOOST_TEST((mx_mismatches<E4, E4, 16, 32, 16, Layout::MX_A_ZZ, Layout::MX_B_NN>(Form::Plain)) == 0);
  BOOST_TEST((mx_mismatches<E4, E5, 10, 50, 54, Layout::MX_A_ND, Layout::MX_B_NN>(Form::Plain)) == 0);
  BOOST_TEST((mx_mismatches<E5, E4, 115, 64, 30, Layout::MX_A_ZZ, Layout::MX_B_ND>(Form::Bias)) == 0);
  BOOST_TEST((mx_mismatches<E4, E5, 64, 192, 64, Layout::MX_A_DN, Layout::MX_B_NN>(Form::Acc)) == 0);
  BOOST_TEST((mx_mismatches<E4, E5, 1, 256, 20, Layout::MX_A_ND, Layout::MX_B_ND>(Form::Plain, true)) == 0);
  BOOST_TEST((mx_mismatches<E4, E4, 1, 128, 32, Layout::MX_A_ZZ, Layout::MX_B_NN>(Form::Bias, true)) == 0);
  BOOST_TEST((mx_mismatches<E5, E5, 1, 64, 32, Layout::MX_A_ZZ, Layout::MX_B_NN>(Form::Acc, true)) == 0);
  // A5's plain TMATMUL of 8-bit floats (the same path without scales)
  BOOST_TEST((mx_mismatches<E4, E5, 40, 96, 48, Layout::MX_A_ZZ, Layout::MX_B_NN>(Form::Plain, false, true)) == 0);
}

// The 4-bit inputs: pto-isa's fp4 tmatmul_mx shapes (A5), packed two a byte in GM, L1 and L0, every code.
using F4 = float4_e2m1x2_t;
using F41 = float4_e1m2x2_t;
BOOST_AUTO_TEST_CASE(tmatmul_mx_fp4_matches_the_definition) {
  BOOST_TEST((mx_mismatches<F4, F4, 128, 64, 64, Layout::MX_A_ZZ, Layout::MX_B_NN>(Form::Plain)) == 0);
  BOOST_TEST((mx_mismatches<F41, F4, 117, 64, 60, Layout::MX_A_ND, Layout::MX_B_ND>(Form::Plain)) == 0);
  BOOST_TEST((mx_mismatches<F4, F41, 128, 118, 64, Layout::MX_A_DN, Layout::MX_B_DN>(Form::Plain)) == 0);
  BOOST_TEST((mx_mismatches<F4, F41, 115, 64, 30, Layout::MX_A_ZZ, Layout::MX_B_NN>(Form::Plain)) == 0);
  BOOST_TEST((mx_mismatches<F4, F4, 4, 30, 8, Layout::MX_A_ZZ, Layout::MX_B_NN>(Form::Plain)) == 0);
  BOOST_TEST((mx_mismatches<F4, F41, 35, 128, 56, Layout::MX_A_ZZ, Layout::MX_B_NN>(Form::Bias)) == 0);
  BOOST_TEST((mx_mismatches<F41, F41, 47, 128, 62, Layout::MX_A_ND, Layout::MX_B_NN>(Form::Acc)) == 0);
  BOOST_TEST((mx_mismatches<F41, F41, 1, 64, 62, Layout::MX_A_ZZ, Layout::MX_B_NN>(Form::Plain)) == 0);   // M = 1, TMATMUL_MX
  BOOST_TEST((mx_mismatches<F41, F41, 1, 128, 62, Layout::MX_A_ND, Layout::MX_B_ND>(Form::Plain, true)) == 0);  // TGEMV_MX
  // K short of the tiles' 64, zero-padded in L1 by TFILLPAD as the NPU kernels do (fp8 too)
  BOOST_TEST((mx_mismatches<F4, F41, 128, 118, 64, Layout::MX_A_ZZ, Layout::MX_B_NN, true>(Form::Plain)) == 0);
  BOOST_TEST((mx_mismatches<F4, F4, 4, 30, 8, Layout::MX_A_ZZ, Layout::MX_B_NN, true>(Form::Bias)) == 0);
  BOOST_TEST((mx_mismatches<E4, E5, 10, 50, 54, Layout::MX_A_ZZ, Layout::MX_B_NN, true>(Form::Plain)) == 0);
}

// TGEMV_MX as pto-isa's GEMV kernels spell it: A one ND row in a 1-row Mat tile moved to a 1-row Left
// tile in whole 512-byte blocks (1024 4-bit elements), its scales one ND row into a 1-row scale tile
// (contiguous, as A5 keeps it), B's scales MX_B_ND; row 0 of C against the definition.
template <class TA, class TB, int VK, int VN>
int gemv_row_mismatches() {
  constexpr bool four = GmMatrix<TA>::four;
  constexpr int K = up(VK, 64), KL = up(VK, four ? 1024 : 512), N = up(VN, four ? 64 : 32), G = K / 32;
  GmMatrix<TA> a(1, VK, 3);
  GmMatrix<TB> b(VK, VN, 4);
  std::vector<std::uint8_t> sa(G), sb(std::size_t(G) * N);
  for (int g = 0; g < G; ++g) sa[std::size_t(g)] = scale_code(0, g, 3);
  auto sb_at = [&](int g, int j) { return std::size_t(g / 2) * N * 2 + std::size_t(j) * 2 + g % 2; };  // MX_B_ND
  for (int g = 0; g < G; ++g)
    for (int j = 0; j < N; ++j) sb[sb_at(g, j)] = scale_code(g, j, 4);
  std::vector<float> out(VN, -9.0f);
  {
    ScopedTarget scope(Target::A5);
    Tile<TileType::Mat, TA, 1, KL, BLayout::RowMajor, 1, VK> ma;
    Tile<TileType::Mat, TB, K, N, BLayout::ColMajor, VK, VN, SLayout::RowMajor, 512> mb;
    Tile<TileType::Mat, float8_e8m0_t, 1, G, BLayout::RowMajor, 1, G, SLayout::RowMajor, 32> msa;
    Tile<TileType::Mat, float8_e8m0_t, G, N, BLayout::ColMajor, G, N, SLayout::ColMajor, 32> msb;
    TileLeft<TA, 1, KL, 1, VK> l;
    TileRight<TB, K, N, VK, VN> r;
    TileLeftScale<float8_e8m0_t, 1, G> ls;
    TileRightScale<float8_e8m0_t, G, N> rs;
    TileAcc<float, 16, N, 1, VN> c;
    TASSIGN(ma, 0);
    TASSIGN(mb, 0x10000);
    TASSIGN(msa, 0x20000);
    TASSIGN(msb, 0x24000);
    TASSIGN(l, 0);
    TASSIGN(r, 0);
    TASSIGN(c, 0);
    TGET_SCALE_ADDR(ls, l);
    TGET_SCALE_ADDR(rs, r);
    GlobalTensor<TA, Shape<1, 1, 1, 1, VK>, pto::Stride<1, 1, 1, VK, 1>> ga(a.gm());
    GlobalTensor<TB, Shape<1, 1, 1, VK, VN>, pto::Stride<1, 1, 1, VN, 1>> gb(b.gm());
    GlobalTensor<float8_e8m0_t, Shape<1, 1, 1, 1, G>, pto::Stride<1, 1, 1, G, 1>> gsa(reinterpret_cast<float8_e8m0_t*>(sa.data()));
    GlobalTensor<float8_e8m0_t, TileShape2D<float8_e8m0_t, G, N, Layout::MX_B_ND>, BaseShape2D<float8_e8m0_t, G, N, Layout::MX_B_ND>,
                 Layout::MX_B_ND>
        gsb(reinterpret_cast<float8_e8m0_t*>(sb.data()));
    TLOAD(ma, ga);
    TLOAD(mb, gb);
    TLOAD(msa, gsa);
    TLOAD(msb, gsb);
    TEXTRACT(l, ma, 0, 0);
    TMOV(r, mb);
    TMOV(ls, msa);
    TMOV(rs, msb);
    TGEMV_MX(c, l, ls, r, rs);
    GlobalTensor<float, Shape<1, 1, 1, 1, VN>, pto::Stride<1, 1, 1, VN, 1>> go(out.data());
    TSTORE(go, c);
  }
  int bad = 0;
  for (int j = 0; j < VN; ++j) {
    double ref = 0, mag = 0;
    for (int p = 0; p < VK; ++p) {
      const double t = a.at(0, p) * std::ldexp(1.0, sa[std::size_t(p / 32)] - 127) * b.at(p, j) * std::ldexp(1.0, sb[sb_at(p / 32, j)] - 127);
      ref += t;
      mag += std::abs(t);
    }
    bad += !(std::abs(double(out[std::size_t(j)]) - ref) <= (2 * VK + 2) * 0x1p-24 * mag);
  }
  return bad;
}

BOOST_AUTO_TEST_CASE(tgemv_mx_takes_a_row_vector_and_its_scales) {
  BOOST_TEST((gemv_row_mismatches<F41, F41, 128, 62>()) == 0);  // pto-isa's case 11
  BOOST_TEST((gemv_row_mismatches<F4, F41, 300, 64>()) == 0);
  BOOST_TEST((gemv_row_mismatches<E4, E5, 256, 20>()) == 0);    // pto-isa's case 12
}

// Capacity as the chips count it: a 4-bit cube tile takes half a byte an element (two 256 x 256 fp4 Left
// tiles fill A5's 64 KiB L0A, as pto-isa's mxfp4 GEMM double-buffers them); a 1-row scale tile is contiguous.
BOOST_AUTO_TEST_CASE(fp4_tiles_take_half_a_byte_an_element) {
  using L = TileLeft<float4_e2m1x2_t, 256, 256>;
  static_assert(L::GetSizeInBytes() == 32768);
  static_assert(TileLeftScale<float8_e8m0_t, 1, 8>::GetTileOffset(0, 7) == 7);
  static_assert(Tile<TileType::Mat, float4_e1m2x2_t, 16, 64, BLayout::ColMajor, 16, 64, SLayout::RowMajor, 512>::InnerCols == 64);
  ScopedTarget scope(Target::A5);
  L l0, l1;
  TASSIGN(l0, 0);
  TASSIGN(l1, 0x8000);
  l1.SetElement(255, 255, float4_e2m1x2_t(-6.0));
  l1.SetElement(255, 254, float4_e2m1x2_t(1.5));
  BOOST_TEST(double(l1.GetElement(255, 255)) == -6.0);
  BOOST_TEST(double(l1.GetElement(255, 254)) == 1.5);
  TileLeftScale<float8_e8m0_t, 1, 8> ls;
  TASSIGN(ls, 0x100);
  BOOST_TEST(ls.view().footprint().size() == 8u);
  const std::string e = pto_test::error_of([&] { TASSIGN(l1, 0x8020); });
  BOOST_TEST(pto_test::contains(e, "exceed the 64 KiB L0A of A5 (tile size 32768 bytes at offset 32800)"), e);
}

// The checker sees a 4-bit tile's real bytes: loading one Mat tile while MTE1 reads its neighbour,
// 512 bytes on, is no race (at a byte an element the two would overlap).
BOOST_AUTO_TEST_CASE(the_checker_sees_4_bit_tiles_at_half_a_byte_an_element) {
  std::vector<float4_e2m1x2_t> a(512), b(512);
  using MatT = Tile<TileType::Mat, float4_e2m1x2_t, 16, 64, BLayout::ColMajor, 16, 64, SLayout::RowMajor, 512>;
  static_assert(MatT::GetSizeInBytes() == 512);
  LaunchReport rep = launch({.blocks = 1, .target = Target::A5, .check = SyncCheck::Report}, [](float4_e2m1x2_t* pa, float4_e2m1x2_t* pb) -> Kernel {
    MatT ma, mb;
    TileLeft<float4_e2m1x2_t, 16, 64> l;
    TASSIGN(ma, 0);
    TASSIGN(mb, 0x200);
    TASSIGN(l, 0);
    GlobalTensor<float4_e2m1x2_t, Shape<1, 1, 1, 16, 64>, pto::Stride<1, 1, 1, 64, 1>> ga(pa), gb(pb);
    co_await TLOAD(mb, gb);
    co_await set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    co_await wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    co_await TMOV(l, mb);  // MTE1 reads mb's 512 bytes while MTE2 fills ma's
    co_await TLOAD(ma, ga);
  }, a, b);
  BOOST_TEST(rep.findings().empty());
}

// A scale tile's address is its data's L0A / L0B offset >> 4 (a5 utils.hpp GetScaleAddr); TGET_SCALE_ADDR
// places it there.
BOOST_AUTO_TEST_CASE(scale_tiles_sit_at_a_sixteenth_of_their_data_address) {
  ScopedTarget scope(Target::A5);
  TileLeft<float8_e4m3_t, 32, 64> l;
  TileRight<float8_e4m3_t, 64, 32> r;
  TileLeftScale<float8_e8m0_t, 32, 2> ls, ls2;
  TileRightScale<float8_e8m0_t, 2, 32> rs;
  TASSIGN(l, 0x2000);
  TASSIGN(r, 0x4000);
  BOOST_TEST(GetScaleAddr(l.data()) == 0x200u);
  BOOST_TEST(GetScaleAddr(r.data()) == 0x400u);
  TGET_SCALE_ADDR(ls, l);
  TGET_SCALE_ADDR(rs, r);
  TASSIGN(ls2, 0x200);
  BOOST_TEST((ls.data() == ls2.data()));
  BOOST_TEST((reinterpret_cast<std::byte*>(rs.data()) - reinterpret_cast<std::byte*>(ls.data()) != 0));
  Tile<TileType::Vec, float, 8, 8> v;
  TASSIGN(v, 0);
  const std::string e = pto_test::error_of([&] { (void)GetScaleAddr(v.data()); });
  BOOST_TEST(pto_test::contains(e, "GetScaleAddr: the pointer is not in L0A or L0B"), e);
}

BOOST_AUTO_TEST_CASE(mx_errors_name_the_rule) {
  using pto_test::contains;
  using pto_test::error_of;
  // the MX matmul and its scale tiles are A5's
  std::string e = error_of([] {
    ScopedTarget scope(Target::A2A3);
    TileLeft<float8_e4m3_t, 16, 64> l;
    TileRight<float8_e4m3_t, 64, 32> r;
    TileLeftScale<float8_e8m0_t, 16, 2> ls;
    TileRightScale<float8_e8m0_t, 2, 32> rs;
    TileAcc<float, 16, 32> c;
    TASSIGN(l, 0);
    TASSIGN(r, 0);
    TASSIGN(c, 0);
    TASSIGN(ls, 0);
    TMATMUL_MX(c, l, ls, r, rs);
  });
  BOOST_TEST(contains(e, "TASSIGN: operand tile Tile<ScaleLeft"), e);  // A2A3 has no scale buffers
  // a scale tile too small for k's groups
  e = error_of([] {
    ScopedTarget scope(Target::A5);
    TileLeft<float8_e4m3_t, 16, 128> l;
    TileRight<float8_e4m3_t, 128, 32> r;
    TileLeftScale<float8_e8m0_t, 16, 2> ls;
    TileRightScale<float8_e8m0_t, 4, 32> rs;
    TileAcc<float, 16, 32> c;
    TASSIGN(l, 0);
    TASSIGN(r, 0);
    TASSIGN(ls, 0);
    TASSIGN(rs, 0);
    TASSIGN(c, 0);
    TMATMUL_MX(c, l, ls, r, rs);
  });
  BOOST_TEST((contains(e, "TMATMUL_MX: operand aScale") && contains(e, "must hold 16 x 4 scales (a's valid rows x ceil(k / 32), k = 128)")), e);
  // the MX scale layouts are A5's
  e = error_of([] {
    ScopedTarget scope(Target::A2A3);
    std::vector<std::uint8_t> s(64);
    Tile<TileType::Mat, float8_e8m0_t, 16, 4, BLayout::RowMajor, 16, 4, SLayout::RowMajor, 32> m;
    TASSIGN(m, 0);
    GlobalTensor<float8_e8m0_t, TileShape2D<float8_e8m0_t, 16, 4, Layout::MX_A_ND>, BaseShape2D<float8_e8m0_t, 16, 4, Layout::MX_A_ND>,
                 Layout::MX_A_ND>
        g(reinterpret_cast<float8_e8m0_t*>(s.data()));
    TLOAD(m, g);
  });
  BOOST_TEST(contains(e, "the MX scale layouts are A5's"), e);
}
