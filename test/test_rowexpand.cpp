// TROWEXPAND family conformance (spec §2.2, §3.3, §3.10, §5.1, §5.2, §6 items 5, 9 and 23).
//
// Every expected value is computed here in double, independently of the library: ADD/SUB/MUL/DIV of
// float types rounded to the element type once, MAX/MIN exact, EXPDIF = T(exp(double(T(a - b)))),
// integers exact with two's-complement wrap and C truncating division. Floats are compared with the
// spec §5 rule (pto_test::compare_eps, eps 0.001) over the whole output array, integers and pure
// broadcasts exactly. Output GM is pre-zeroed, so the golden is zero outside dst's valid region.
//
// The expand operand E is either Mode 1 (ColMajor tile, valid Rx1, s_i = E[i][0], loaded from a DN
// tensor) or Mode 2 (RowMajor tile of one 32-byte block per row, valid R x BE, E[i][j mod BE]).
#define BOOST_TEST_MODULE test_rowexpand
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <pto/pto-inst.hpp>

#include "bcast_reference.hpp"
#include "test_util.hpp"

using namespace pto;
using namespace pto_test;

namespace {

// Dtype rules of spec §2.2 (A2A3 and A5 columns; no 64-bit binary TROWEXPAND* anywhere).
template <class T>
constexpr bool a2a3_allows(Bop op) {
  constexpr bool f = std::is_same_v<T, float> || std::is_same_v<T, half>;
  if (op == Bop::DIV || op == Bop::EXPDIF) return f;
  return f || std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int16_t>;
}
template <class T>
constexpr bool a5_allows(Bop op) {
  if (op == Bop::EXPDIF) return std::is_same_v<T, float> || std::is_same_v<T, half>;
  return sizeof(T) < 8;
}
template <class T> Target target_for(Bop op) { return a2a3_allows<T>(op) ? Target::A2A3 : Target::A5; }

// ============================================================================================
// Harness: one plain manual-mode kernel for every binary case
// ============================================================================================
template <class T> using Gm2D = GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, -1, -1, 1>>;
template <class T> using GmDN = GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, 1, -1>, Layout::DN>;

template <class T, int R, int C> using VTile = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1>;
template <class T> constexpr int kBE = 32 / int(sizeof(T));  // elements per 32-byte block
// Mode 1 and Mode 2 expand tiles with capacity for R rows.
template <class T, int R> using ETile1 = Tile<TileType::Vec, T, R, 1, BLayout::ColMajor, -1, -1>;
template <class T, int R> using ETile2 = Tile<TileType::Vec, T, R, kBE<T>, BLayout::RowMajor, -1, -1>;
template <class T, int R, bool Mode2> using ETile = std::conditional_t<Mode2, ETile2<T, R>, ETile1<T, R>>;
// An 8 KiB tmp tile: enough for any A2A3 vbrcb scratch (spec §2.2).
template <class T> using TmpTile = Tile<TileType::Vec, T, 1, 8192 / int(sizeof(T))>;

// GM holds a RowMajor tile as a Rows x Cols row-major array (row stride = tile Cols) and a ColMajor
// tile column-major with column stride = tile Rows (a DN tensor, spec §5.1: shape (R,1), stride (iRow,1)).
template <class TileT>
void load(TileT& t, typename TileT::DType* p) {
  using T = typename TileT::DType;
  if constexpr (TileT::isRowMajor) {
    Gm2D<T> g(p, {t.GetValidRow(), t.GetValidCol()}, {TileT::Rows * TileT::Cols, TileT::Cols});
    TLOAD(t, g);
  } else {
    GmDN<T> g(p, {t.GetValidRow(), t.GetValidCol()}, {TileT::Rows});
    TLOAD(t, g);
  }
}
template <class TileT>
void store(typename TileT::DType* p, TileT& t) {
  Gm2D<typename TileT::DType> g(p, {t.GetValidRow(), t.GetValidCol()}, {TileT::Rows * TileT::Cols, TileT::Cols});
  TSTORE(g, t);
}

struct Valid {
  int r, c;
};

// dst valid R x C; which operand E is; UB byte offsets (dst may share the full operand's or E's bytes).
struct RowLayout {
  int R, C;
  bool e_is_src0;  // math order stays src0 O src1 (spec §2.2)
  std::uint32_t off_full, off_e, off_dst, off_tmp;
};

// TLOAD full, E -> MTE2->V flag -> op (3-argument, or 4-argument when Tmp is a tile) -> V->MTE3 flag -> TSTORE.
template <class Full, class E, class D, class Tmp, class F>
void row_kernel(typename D::DType* out, typename D::DType* full_gm, typename D::DType* e_gm, RowLayout L, F op) {
  using T = typename D::DType;
  Full f(L.R, L.C);
  E e(L.R, E::isRowMajor ? kBE<T> : 1);
  D d(L.R, L.C);
  TASSIGN(f, L.off_full);
  TASSIGN(e, L.off_e);
  TASSIGN(d, L.off_dst);
  load(f, full_gm);
  load(e, e_gm);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  if constexpr (std::is_void_v<Tmp>) {
    if (L.e_is_src0) op(d, e, f);
    else op(d, f, e);
  } else {
    Tmp t;
    TASSIGN(t, L.off_tmp);
    if (L.e_is_src0) op(d, e, f, t);
    else op(d, f, e, t);
  }
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  store(out, d);
}

// Golden: s = E[i][0] (mode 1, host index i) or E[i][j mod BE] (mode 2); dst = src0 O src1 with E on
// the side the layout says. `full` is a full_rows x full_cols array; zeros outside dst's valid region.
template <class T>
std::vector<T> row_golden(Bop op, bool mode2, const RowLayout& L, const std::vector<T>& full, int full_cols,
                          const std::vector<T>& e, int out_rows, int out_cols) {
  std::vector<T> want(std::size_t(out_rows) * out_cols, T(0));
  for (int i = 0; i < L.R; ++i)
    for (int j = 0; j < L.C; ++j) {
      const T s = mode2 ? e[std::size_t(i) * kBE<T> + std::size_t(j % kBE<T>)] : e[std::size_t(i)];
      const T f = full[std::size_t(i) * full_cols + j];
      want[std::size_t(i) * out_cols + j] = L.e_is_src0 ? ref(op, s, f) : ref(op, f, s);
    }
  return want;
}

// Runs one case on `target` and checks it. `full` holds Full::Numel elements, `e` E::Numel.
template <class Full, class E, class D, class Tmp, class F>
void check_row(const std::string& what, Target target, Bop op, F fn, const RowLayout& L,
               std::vector<typename D::DType> full, std::vector<typename D::DType> e) {
  using T = typename D::DType;
  BOOST_TEST_REQUIRE(full.size() == std::size_t(Full::Numel));
  BOOST_TEST_REQUIRE(e.size() == std::size_t(E::Numel));
  std::vector<T> out(std::size_t(D::Numel), T(0));
  launch({.blocks = 1, .target = target}, row_kernel<Full, E, D, Tmp, F>, out.data(), full.data(), e.data(), L, fn);
  const auto want = row_golden(op, E::isRowMajor, L, full, Full::Cols, e, D::Rows, D::Cols);
  check_output(out, want, !kFloat<T>, what + " on " + name_of(target));
}

#define ROW_FN(OP) [](auto&... x) { TROWEXPAND##OP(x...); }

// Calls g(OpC<op>{}, callable) for the seven binary ops; the callable takes 3 or 4 operands.
template <class G>
void for_each_row_op(G&& g) {
  g(OpC<Bop::ADD>{}, ROW_FN(ADD));
  g(OpC<Bop::SUB>{}, ROW_FN(SUB));
  g(OpC<Bop::MUL>{}, ROW_FN(MUL));
  g(OpC<Bop::DIV>{}, ROW_FN(DIV));
  g(OpC<Bop::MAX>{}, ROW_FN(MAX));
  g(OpC<Bop::MIN>{}, ROW_FN(MIN));
  g(OpC<Bop::EXPDIF>{}, ROW_FN(EXPDIF));
}

template <class T>
constexpr bool allows(Target t, Bop op) {
  return t == Target::A2A3 ? a2a3_allows<T>(op) : a5_allows<T>(op);
}
constexpr Target kTargets[] = {Target::A2A3, Target::A5};

// ============================================================================================
// Spec §5.1 trowexpandop: src0 Tile<iRow,iCol> valid RxC, src1 = E Tile<iRow,1,ColMajor> valid Rx1
// (Mode 1) from a DN tensor, dst Tile<oRow,oCol>; UB 0, iRow*iCol*sizeof(T), 2*iRow*iCol*sizeof(T);
// src0 U(-2,2), E U(1,2) (integers randint(1,8)); seed 19.
// ============================================================================================
template <class T, int iRow, int iCol, int oRow, int oCol, class F>
void run_rowop_case(Bop op, F fn, int R, int C) {
  std::vector<T> full, e;
  if constexpr (kFloat<T>) {
    full = uniform<T>(std::size_t(iRow) * iCol, -2, 2, 19);
    e = uniform<T>(iRow, 1, 2, 20);
  } else {
    full = randint<T>(std::size_t(iRow) * iCol, 1, 7, 19);
    e = randint<T>(iRow, 1, 7, 20);
  }
  constexpr std::uint32_t bytes = std::uint32_t(iRow) * iCol * sizeof(T);
  const RowLayout L{R, C, false, 0, bytes, 2 * bytes, 0};
  check_row<VTile<T, iRow, iCol>, ETile1<T, iRow>, VTile<T, oRow, oCol>, void>(
      std::string("trowexpand") + op_name(op), target_for<T>(op), op, fn, L, full, e);
}
}  // namespace

#define ROWOP_CASE(op, OP, T, tname, shape, iR, iC, oR, oC, R, C) \
  BOOST_AUTO_TEST_CASE(case_##op##_##tname##_##shape) {            \
    run_rowop_case<T, iR, iC, oR, oC>(Bop::OP, ROW_FN(OP), R, C);  \
  }
#define OPS7(X) X(div, DIV) X(mul, MUL) X(sub, SUB) X(add, ADD) X(min, MIN) X(max, MAX) X(expdif, EXPDIF)
#define OPS6(X) X(div, DIV) X(mul, MUL) X(sub, SUB) X(add, ADD) X(min, MIN) X(max, MAX)

#define F32_64(op, OP) ROWOP_CASE(op, OP, float, float, 64x64, 64, 64, 64, 64, 64, 64)
#define F16_16(op, OP) ROWOP_CASE(op, OP, half, half, 16x256, 16, 256, 16, 256, 16, 256)
#define F32_SUB(op, OP) ROWOP_CASE(op, OP, float, float, 16x16_32x32_64x64, 32, 32, 64, 64, 16, 16)
#define I16_16(op, OP) ROWOP_CASE(op, OP, std::int16_t, int16, 16x256, 16, 256, 16, 256, 16, 256)
#define I32_64(op, OP) ROWOP_CASE(op, OP, std::int32_t, int32, 64x64, 64, 64, 64, 64, 64, 64)
#define U16_64(op, OP) ROWOP_CASE(op, OP, std::uint16_t, uint16, 64x64, 64, 64, 64, 64, 64, 64)
#define U32_64(op, OP) ROWOP_CASE(op, OP, std::uint32_t, uint32, 64x64, 64, 64, 64, 64, 64, 64)

BOOST_AUTO_TEST_SUITE(trowexpandop)
OPS7(F32_64)
OPS7(F16_16)
OPS7(F32_SUB)
OPS6(I16_16)
OPS6(I32_64)
OPS6(U16_64)
OPS6(U32_64)
ROWOP_CASE(mul, MUL, std::uint8_t, uint8, 64x64, 64, 64, 64, 64, 64, 64)
BOOST_AUTO_TEST_SUITE_END()

namespace {
// ============================================================================================
// Spec §5.1 trowexpand: dst[i][j] = src[i][0], exact.
// ============================================================================================
template <class Src, class D>
void rowexpand_kernel(typename D::DType* out, typename D::DType* in, int R, int C) {
  Src s(R, Src::isRowMajor ? C : 1);
  D d(R, C);
  TASSIGN(s, 0);
  TASSIGN(d, Src::GetSizeInBytes());
  load(s, in);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  TROWEXPAND(d, s);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  store(out, d);
}

// src is a RowMajor tile (column 0 of each row is read) or a ColMajor Rx1 tile (host index i).
template <class Src, class D>
void run_rowexpand(Target target, std::vector<typename D::DType> in, int R, int C) {
  using T = typename D::DType;
  std::vector<T> out(std::size_t(D::Numel), T(0)), want(out.size(), T(0));
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j)
      want[std::size_t(i) * D::Cols + j] = in[Src::isRowMajor ? std::size_t(i) * Src::Cols : std::size_t(i)];
  launch({.blocks = 1, .target = target}, rowexpand_kernel<Src, D>, out.data(), in.data(), R, C);
  check_output(out, want, true, std::string("trowexpand on ") + name_of(target));
}
}  // namespace

BOOST_AUTO_TEST_SUITE(trowexpand)
BOOST_AUTO_TEST_CASE(case_expand_float_64x64) {
  const auto in = uniform<float>(64 * 64, -2, 2, 19);
  for (Target t : kTargets) run_rowexpand<VTile<float, 64, 64>, VTile<float, 64, 64>>(t, in, 64, 64);
}
BOOST_AUTO_TEST_CASE(colmajor_source_partial_valid) {
  run_rowexpand<ETile1<half, 48>, VTile<half, 48, 128>>(Target::A2A3, uniform<half>(48, -2, 2, 5), 45, 117);
}
BOOST_AUTO_TEST_CASE(int64_on_a5) {
  auto in = full_range<std::int64_t>(32, 6);
  run_rowexpand<ETile1<std::int64_t, 32>, VTile<std::int64_t, 32, 16>>(Target::A5, in, 29, 13);
}
BOOST_AUTO_TEST_SUITE_END()

namespace {
// ============================================================================================
// Spec §5.2 trowexpandexpdif, A2A3 (cases 1..18; inputs U[0,1), seed 2025). dst and src0 share UB
// address 0 (in place), src1 sits at Row*Col*sizeof(T), the tmp tile (cases 15-18) right after src1
// and declared E-shaped. E has src1Row = roundup(validR, BE) rows. GM arrays use the tile's row
// stride and the golden is computed at the same positions (not the packed-array quirk of §6 item 23).
// ============================================================================================
template <class T, int R, int C, int TR, int TC, bool Mode2, bool ESrc0, bool WithTmp>
void run_a2a3_expdif() {
  constexpr int ER = (R + kBE<T> - 1) / kBE<T> * kBE<T>;
  using Full = VTile<T, TR, TC>;
  using E = ETile<T, ER, Mode2>;
  using Tmp = std::conditional_t<WithTmp, E, void>;
  constexpr std::uint32_t src0_bytes = std::uint32_t(TR) * TC * sizeof(T);
  constexpr std::uint32_t src1_bytes = ESrc0 ? Full::GetSizeInBytes() : E::GetSizeInBytes();
  const RowLayout L = ESrc0 ? RowLayout{R, C, true, src0_bytes, 0, 0, src0_bytes + src1_bytes}
                            : RowLayout{R, C, false, 0, src0_bytes, 0, src0_bytes + src1_bytes};
  check_row<Full, E, Full, Tmp>("trowexpandexpdif", Target::A2A3, Bop::EXPDIF, ROW_FN(EXPDIF), L,
                                uniform<T>(Full::Numel, 0, 1, 2025), uniform<T>(E::Numel, 0, 1, 2026));
}

// Spec §5.2 trowexpandexpdif, A5 (inputs U(-10,10)): separate tiles at 0, after src0, after src1.
template <class T, int R, int C, bool Mode2, bool ESrc0>
void run_a5_expdif() {
  using Full = VTile<T, R, C>;
  using E = ETile<T, R, Mode2>;
  constexpr std::uint32_t src0_bytes = ESrc0 ? E::GetSizeInBytes() : Full::GetSizeInBytes();
  constexpr std::uint32_t src1_bytes = ESrc0 ? Full::GetSizeInBytes() : E::GetSizeInBytes();
  const RowLayout L = ESrc0 ? RowLayout{R, C, true, src0_bytes, 0, src0_bytes + src1_bytes, 0}
                            : RowLayout{R, C, false, 0, src0_bytes, src0_bytes + src1_bytes, 0};
  check_row<Full, E, Full, void>("trowexpandexpdif", Target::A5, Bop::EXPDIF, ROW_FN(EXPDIF), L,
                                 uniform<T>(Full::Numel, -10, 10, 2025), uniform<T>(E::Numel, -10, 10, 2026));
}
}  // namespace

//                 dtype  validR validC tileR tileC Mode2  ESrc0  tmp
BOOST_AUTO_TEST_SUITE(trowexpandexpdif_a2a3)
BOOST_AUTO_TEST_CASE(case1) { run_a2a3_expdif<float, 16, 16, 16, 16, false, false, false>(); }
BOOST_AUTO_TEST_CASE(case2) { run_a2a3_expdif<float, 16, 16, 32, 32, false, false, false>(); }
BOOST_AUTO_TEST_CASE(case3) { run_a2a3_expdif<half, 16, 16, 16, 16, false, false, false>(); }
BOOST_AUTO_TEST_CASE(case4) { run_a2a3_expdif<half, 16, 16, 32, 32, false, false, false>(); }
BOOST_AUTO_TEST_CASE(case5) { run_a2a3_expdif<float, 1, 16384, 1, 16384, false, false, false>(); }
BOOST_AUTO_TEST_CASE(case6) { run_a2a3_expdif<float, 2048, 1, 2048, 8, false, false, false>(); }
BOOST_AUTO_TEST_CASE(case7) { run_a2a3_expdif<float, 16, 16, 16, 16, true, false, false>(); }
BOOST_AUTO_TEST_CASE(case8) { run_a2a3_expdif<float, 16, 16, 32, 32, true, false, false>(); }
BOOST_AUTO_TEST_CASE(case9) { run_a2a3_expdif<half, 16, 16, 16, 16, true, false, false>(); }
BOOST_AUTO_TEST_CASE(case10) { run_a2a3_expdif<half, 16, 16, 32, 32, true, false, false>(); }
BOOST_AUTO_TEST_CASE(case11) { run_a2a3_expdif<float, 1, 16384, 1, 16384, true, false, false>(); }
BOOST_AUTO_TEST_CASE(case12) { run_a2a3_expdif<float, 2048, 1, 2048, 8, true, false, false>(); }
BOOST_AUTO_TEST_CASE(case13) { run_a2a3_expdif<float, 16, 16, 16, 16, false, true, false>(); }
BOOST_AUTO_TEST_CASE(case14) { run_a2a3_expdif<float, 16, 16, 16, 16, true, true, false>(); }
BOOST_AUTO_TEST_CASE(case15) { run_a2a3_expdif<float, 16, 16, 32, 32, false, false, true>(); }
BOOST_AUTO_TEST_CASE(case16) { run_a2a3_expdif<half, 16, 16, 16, 16, false, false, true>(); }
BOOST_AUTO_TEST_CASE(case17) { run_a2a3_expdif<float, 1, 16384, 1, 16384, false, false, true>(); }
BOOST_AUTO_TEST_CASE(case18) { run_a2a3_expdif<float, 2048, 1, 2048, 8, false, false, true>(); }
BOOST_AUTO_TEST_SUITE_END()

//              dtype validR validC Mode2 ESrc0
BOOST_AUTO_TEST_SUITE(trowexpandexpdif_a5)
BOOST_AUTO_TEST_CASE(case_fp32_32x64_e32x1) { run_a5_expdif<float, 32, 64, false, false>(); }
BOOST_AUTO_TEST_CASE(case_fp32_16x32_e16x1) { run_a5_expdif<float, 16, 32, false, false>(); }
BOOST_AUTO_TEST_CASE(case_fp16_16x32_e16x1) { run_a5_expdif<half, 16, 32, false, false>(); }
BOOST_AUTO_TEST_CASE(case_fp16_48x64_e48x1) { run_a5_expdif<half, 48, 64, false, false>(); }
BOOST_AUTO_TEST_CASE(case_fp32_24x64_e24x8_mode2) { run_a5_expdif<float, 24, 64, true, false>(); }
BOOST_AUTO_TEST_CASE(case_fp32_16x128_src0_e16x1) { run_a5_expdif<float, 16, 128, false, true>(); }
BOOST_AUTO_TEST_CASE(case_fp16_16x64_src0_e16x16_mode2) { run_a5_expdif<half, 16, 64, true, true>(); }
BOOST_AUTO_TEST_SUITE_END()

namespace {
// ============================================================================================
// Operand order (spec §2.2): the math is always src0 O src1, whichever side E is on.
// ============================================================================================
// Data for one case: for DIV the divisor side is kept away from zero (|x| >= 0.5 for floats,
// non-zero for integers). Integers take both signs where the type has them.
template <class T>
void row_data(Bop op, std::size_t n_full, std::size_t n_e, bool e_divides, std::vector<T>& full, std::vector<T>& e,
              unsigned seed) {
  if constexpr (kFloat<T>) {
    full = uniform<T>(n_full, -2, 2, seed);
    e = uniform<T>(n_e, -2, 2, seed + 1);
    if (op == Bop::DIV)
      for (auto& x : e_divides ? e : full) x = T(to_d(x) < 0 ? to_d(x) - 0.5 : to_d(x) + 0.5);
  } else if (op != Bop::DIV) {  // whole range: ADD/SUB/MUL wrap, MAX/MIN see both signs
    full = full_range<T>(n_full, seed);
    e = full_range<T>(n_e, seed + 1);
  } else {
    (e_divides ? full : e) = full_range<T>(e_divides ? n_full : n_e, seed, true);
    (e_divides ? e : full) = divisors<T>(e_divides ? n_e : n_full, seed + 1);
  }
}

// One tile geometry (16 x 256 bytes, valid 13 x (cols-7), so mode 2's period ends mid-block), both
// sides for E, on both targets; the 4-argument form where the target takes it (A2A3: mode 1 only).
template <class T, bool Mode2, bool WithTmp, class F>
void check_orders(Bop op, F fn) {
  constexpr int TR = 16, TC = 256 / int(sizeof(T));
  using Full = VTile<T, TR, TC>;
  using E = ETile<T, TR, Mode2>;
  using Tmp = std::conditional_t<WithTmp, TmpTile<T>, void>;
  for (bool e_is_src0 : {false, true})
    for (Target t : kTargets) {
      if (!allows<T>(t, op) || (WithTmp && Mode2 && t == Target::A2A3)) continue;
      const RowLayout L{13, TC - 7, e_is_src0, 0, 0x2000, 0x4000, 0x6000};
      std::vector<T> full, e;
      row_data(op, Full::Numel, E::Numel, !e_is_src0, full, e, 41);
      std::ostringstream what;
      what << op_name(op) << " " << name_of(dtype_v<T>) << " mode " << (Mode2 ? 2 : 1) << " E=" << (e_is_src0 ? "src0" : "src1")
           << (WithTmp ? " with tmp" : "");
      check_row<Full, E, Full, Tmp>(what.str(), t, op, fn, L, full, e);
    }
}

template <class T, class F>
void check_orders_all_forms(Bop op, F fn) {
  check_orders<T, false, false>(op, fn);
  check_orders<T, true, false>(op, fn);
  check_orders<T, false, true>(op, fn);
  check_orders<T, true, true>(op, fn);
}
}  // namespace

BOOST_AUTO_TEST_SUITE(operand_order)

BOOST_AUTO_TEST_CASE(src0_is_expand_by_hand) {
  // E = (10, 1) per row in src0, F = 4 everywhere in src1: s_i - F, s_i / F, exp(s_i - F).
  using Full = VTile<float, 2, 8>;
  using E = ETile1<float, 8>;
  std::vector<float> f(16, 4.0f), e = {10, 1, 0, 0, 0, 0, 0, 0};
  const RowLayout L{2, 8, true, 0, 0x100, 0x200, 0};
  auto run = [&](auto fn) {
    std::vector<float> out(16, 0.0f);
    launch({.blocks = 1, .target = Target::A2A3}, row_kernel<Full, E, Full, void, decltype(fn)>, out.data(), f.data(),
           e.data(), L, fn);
    return out;
  };
  const auto sub = run(ROW_FN(SUB));
  const auto div = run(ROW_FN(DIV));
  const auto exd = run(ROW_FN(EXPDIF));
  for (int j = 0; j < 8; ++j) {
    BOOST_TEST(sub[std::size_t(j)] == 6.0f);
    BOOST_TEST(sub[std::size_t(8 + j)] == -3.0f);
    BOOST_TEST(div[std::size_t(j)] == 2.5f);
    BOOST_TEST(div[std::size_t(8 + j)] == 0.25f);
    BOOST_TEST(std::fabs(exd[std::size_t(j)] - std::exp(6.0f)) <= 1e-3f * std::exp(6.0f));
    BOOST_TEST(std::fabs(exd[std::size_t(8 + j)] - std::exp(-3.0f)) <= 1e-3f * std::exp(-3.0f));
  }
}

BOOST_AUTO_TEST_CASE(sub_float) { check_orders_all_forms<float>(Bop::SUB, ROW_FN(SUB)); }
// DivAlgorithm::HIGH_PRECISION selects another A5 device algorithm; the result is IEEE division either way.
BOOST_AUTO_TEST_CASE(div_high_precision_float) {
  check_orders_all_forms<float>(Bop::DIV, [](auto&... x) { TROWEXPANDDIV<DivAlgorithm::HIGH_PRECISION>(x...); });
}
BOOST_AUTO_TEST_CASE(sub_half) { check_orders_all_forms<half>(Bop::SUB, ROW_FN(SUB)); }
BOOST_AUTO_TEST_CASE(sub_int32) { check_orders_all_forms<std::int32_t>(Bop::SUB, ROW_FN(SUB)); }
BOOST_AUTO_TEST_CASE(div_float) { check_orders_all_forms<float>(Bop::DIV, ROW_FN(DIV)); }
BOOST_AUTO_TEST_CASE(div_half) { check_orders_all_forms<half>(Bop::DIV, ROW_FN(DIV)); }
BOOST_AUTO_TEST_CASE(div_int16) { check_orders_all_forms<std::int16_t>(Bop::DIV, ROW_FN(DIV)); }
BOOST_AUTO_TEST_CASE(expdif_float) { check_orders_all_forms<float>(Bop::EXPDIF, ROW_FN(EXPDIF)); }
BOOST_AUTO_TEST_CASE(expdif_half) { check_orders_all_forms<half>(Bop::EXPDIF, ROW_FN(EXPDIF)); }

// A2A3 3-argument tie-break (spec §2.2): with C == 1 both sources match dst, and the larger static row
// stride wins. A ColMajor Rx1 src0 (row stride 1) against a RowMajor src1 (row stride 8) makes src1
// the full operand and src0 the Mode 1 expand operand; the math order stays src0 O src1.
BOOST_AUTO_TEST_CASE(a2a3_three_argument_tie_break_c1) {
  using Full = VTile<float, 16, 8>;
  using E = ETile1<float, 16>;
  const RowLayout L{16, 1, true, 0, 0x1000, 0x2000, 0x3000};
  auto each = [&](Bop op, auto fn) {
    std::vector<float> full, e;
    row_data(op, Full::Numel, E::Numel, false, full, e, 43);
    check_row<Full, E, Full, void>(std::string("tie-break ") + op_name(op), Target::A2A3, op, fn, L, full, e);
    // No tie-break in the 4-argument form or on A5: src0 (ColMajor) would be the full operand.
    std::vector<float> out(Full::Numel);
    BOOST_CHECK_THROW(launch({.blocks = 1, .target = Target::A5}, row_kernel<Full, E, Full, void, decltype(fn)>,
                             out.data(), full.data(), e.data(), L, fn),
                      pto::Error);
    BOOST_CHECK_THROW(launch({.blocks = 1, .target = Target::A2A3}, row_kernel<Full, E, Full, TmpTile<float>, decltype(fn)>,
                             out.data(), full.data(), e.data(), L, fn),
                      pto::Error);
  };
  each(Bop::SUB, ROW_FN(SUB));
  each(Bop::DIV, ROW_FN(DIV));
  each(Bop::EXPDIF, ROW_FN(EXPDIF));
  each(Bop::MAX, ROW_FN(MAX));
}

BOOST_AUTO_TEST_SUITE_END()

namespace {
// ============================================================================================
// A2A3 fixed scratch (spec §2.2, §6 item 9): the 3-argument Mode 1 forms use UB [184 KiB, 192 KiB).
// ============================================================================================
constexpr std::uint32_t KiB = 1024;

// full 16x64 float at 0, E at 0x1000, tmp (8 KiB) at 0x2000, dst at `dst_off`; optionally one more
// 256-byte tile TASSIGNed at `extra_off` after the instruction.
template <bool Mode2, bool WithTmp>
void scratch_kernel(float* out, float* full_gm, float* e_gm, std::uint32_t dst_off, std::uint32_t extra_off) {
  const RowLayout L{16, 64, false, 0, 0x1000, dst_off, 0x2000};
  row_kernel<VTile<float, 16, 64>, ETile<float, 16, Mode2>, VTile<float, 16, 64>,
             std::conditional_t<WithTmp, TmpTile<float>, void>>(out, full_gm, e_gm, L, ROW_FN(ADD));
  if (extra_off != 0) {
    Tile<TileType::Vec, float, 8, 8> extra;
    TASSIGN(extra, extra_off);
  }
}

template <bool Mode2, bool WithTmp>
void run_scratch(Target target, std::uint32_t dst_off, std::uint32_t extra_off = 0) {
  using E = ETile<float, 16, Mode2>;
  auto full = uniform<float>(16 * 64, -2, 2, 47);
  auto e = uniform<float>(E::Numel, -2, 2, 48);
  std::vector<float> out(16 * 64, 0.0f);
  launch({.blocks = 1, .target = target}, scratch_kernel<Mode2, WithTmp>, out.data(), full.data(), e.data(), dst_off,
         extra_off);
  const RowLayout L{16, 64, false, 0, 0, 0, 0};
  check_output(out, row_golden(Bop::ADD, Mode2, L, full, 64, e, 16, 64), false, "scratch");
}

bool mentions_184_kib(const pto::Error& err) {
  BOOST_TEST_MESSAGE("pto::Error: " << err.what());
  return std::string(err.what()).find("184 KiB") != std::string::npos;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(a2a3_scratch)

BOOST_AUTO_TEST_CASE(three_argument_mode1_with_a_tile_at_184k_raises) {
  BOOST_CHECK_EXCEPTION((run_scratch<false, false>(Target::A2A3, 184 * KiB)), pto::Error, mentions_184_kib);
  BOOST_CHECK_EXCEPTION((run_scratch<false, false>(Target::A2A3, 188 * KiB)), pto::Error, mentions_184_kib);
}
BOOST_AUTO_TEST_CASE(three_argument_mode1_with_a_tile_straddling_184k_raises) {
  BOOST_CHECK_EXCEPTION((run_scratch<false, false>(Target::A2A3, 182 * KiB)), pto::Error, mentions_184_kib);
}
BOOST_AUTO_TEST_CASE(tile_assigned_there_after_the_instruction_raises) {
  BOOST_CHECK_EXCEPTION((run_scratch<false, false>(Target::A2A3, 0x8000, 190 * KiB)), pto::Error, mentions_184_kib);
}
BOOST_AUTO_TEST_CASE(tile_ending_at_184k_is_fine) { run_scratch<false, false>(Target::A2A3, 180 * KiB); }
BOOST_AUTO_TEST_CASE(tmp_form_with_a_tile_at_184k_runs) {
  run_scratch<false, true>(Target::A2A3, 184 * KiB);
  run_scratch<false, true>(Target::A2A3, 0x8000, 190 * KiB);
}
BOOST_AUTO_TEST_CASE(a5_three_argument_with_a_tile_at_184k_runs) {
  run_scratch<false, false>(Target::A5, 184 * KiB);
  run_scratch<false, false>(Target::A5, 0x8000, 190 * KiB);
}
BOOST_AUTO_TEST_CASE(mode2_three_argument_with_a_tile_at_184k_runs) {
  run_scratch<true, false>(Target::A2A3, 184 * KiB);
}

BOOST_AUTO_TEST_SUITE_END()

namespace {
// ============================================================================================
// Randomised properties
// ============================================================================================
// Odd-numbered shapes put E in src0. Where both sources would match dst (Mode 1 with C == 1, Mode 2
// with C == BE) E stays in src1: those ties are target-specific and tested above. Every case runs on
// A5 and, where the dtype, op and form are allowed there, on A2A3.
template <class T, int TR, int TC, bool Mode2, bool WithTmp>
void row_property(std::vector<Valid> shapes, unsigned seed) {
  using Full = VTile<T, TR, TC>;
  using E = ETile<T, TR, Mode2>;
  using Tmp = std::conditional_t<WithTmp, TmpTile<T>, void>;
  constexpr std::uint32_t fb = Full::GetSizeInBytes(), eb = E::GetSizeInBytes();
  std::mt19937 rng(seed);
  for (int k = 0; k < 2; ++k)
    shapes.push_back({std::uniform_int_distribution<int>(1, TR)(rng), std::uniform_int_distribution<int>(1, TC)(rng)});
  for_each_row_op([&](auto opc, auto fn) {
    constexpr Bop op = decltype(opc)::value;
    if constexpr (a5_allows<T>(op)) {
      for (std::size_t k = 0; k < shapes.size(); ++k) {
        const Valid v = shapes[k];
        const bool tie = Mode2 ? v.c == kBE<T> : v.c == 1;
        const RowLayout L{v.r, v.c, k % 2 == 1 && !tie, 0, 2 * fb, fb, 2 * fb + eb};
        std::vector<T> full, e;
        row_data(op, Full::Numel, E::Numel, !L.e_is_src0, full, e, seed + 100 * unsigned(k));
        std::ostringstream what;
        what << "property " << name_of(dtype_v<T>) << " " << op_name(op) << " " << v.r << "x" << v.c << " in " << TR
             << "x" << TC << " mode " << (Mode2 ? 2 : 1) << " E=" << (L.e_is_src0 ? "src0" : "src1")
             << (WithTmp ? " with tmp" : "");
        for (Target t : kTargets)
          if (allows<T>(t, op) && !(t == Target::A2A3 && WithTmp && Mode2))
            check_row<Full, E, Full, Tmp>(what.str(), t, op, fn, L, full, e);
      }
    }
  });
}

// Wide tiles (32 KiB, 1024 columns: 8x1024 float, 16x1024 half) and tall tiles (2048 rows of one
// 32-byte block), both modes; the 4-argument form in Mode 1.
template <class T>
void row_property_all(unsigned seed) {
  constexpr int WR = 32768 / (1024 * int(sizeof(T))), BE = kBE<T>;
  const std::vector<Valid> wide = {{1, 1023}, {WR, 63}, {WR, 1023}, {1, 1}, {WR - 1, 1}, {1, 63}, {WR, 1024}};
  const std::vector<Valid> tall = {{2048, 1}, {2048, BE}, {1, 1}, {1, BE - 1}, {2047, BE - 1}, {256, 3}, {255, BE}};
  row_property<T, WR, 1024, false, false>(wide, seed);
  row_property<T, WR, 1024, true, false>(wide, seed + 1);
  row_property<T, 2048, BE, false, false>(tall, seed + 2);
  row_property<T, 2048, BE, true, false>(tall, seed + 3);
  row_property<T, WR, 1024, false, true>(wide, seed + 4);
  row_property<T, 2048, BE, false, true>(tall, seed + 5);
}
}  // namespace

BOOST_AUTO_TEST_SUITE(property_a5_dtypes)
BOOST_AUTO_TEST_CASE(prop_float) { row_property_all<float>(201); }
BOOST_AUTO_TEST_CASE(prop_half) { row_property_all<half>(202); }
BOOST_AUTO_TEST_CASE(prop_bf16) { row_property_all<bfloat16_t>(203); }
BOOST_AUTO_TEST_CASE(prop_int32) { row_property_all<std::int32_t>(204); }
BOOST_AUTO_TEST_CASE(prop_uint32) { row_property_all<std::uint32_t>(205); }
BOOST_AUTO_TEST_CASE(prop_int16) { row_property_all<std::int16_t>(206); }
BOOST_AUTO_TEST_CASE(prop_uint16) { row_property_all<std::uint16_t>(207); }
BOOST_AUTO_TEST_CASE(prop_int8) { row_property_all<std::int8_t>(208); }
BOOST_AUTO_TEST_CASE(prop_uint8) { row_property_all<std::uint8_t>(209); }
BOOST_AUTO_TEST_SUITE_END()
