// TCOLEXPAND family conformance (spec §2.1, §3.10, §5.1, §5.2, §6 items 1 and 4).
//
// Every expected value is computed here in double, independently of the library: ADD/SUB/MUL/DIV of
// float types rounded to the element type once, MAX/MIN exact, EXPDIF = T(exp(double(T(a - b)))),
// integers exact with two's-complement wrap and C truncating division. Floats are compared with the
// spec §5 rule (pto_test::compare_eps, eps 0.001) over the whole output array, integers and pure
// broadcasts exactly. Output GM is pre-zeroed, so the golden is zero outside dst's valid region.
#define BOOST_TEST_MODULE test_colexpand
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

#include "kernels/seed_tcolexpandadd.hpp"
#include "bcast_reference.hpp"
#include "test_util.hpp"

using namespace pto;
using namespace pto_test;

namespace {

// Dtype rules of spec §2.1 (A2A3 and A5 columns; A5 TCOLEXPANDADD also takes int64/uint64, §6 item 1).
template <class T>
constexpr bool a2a3_allows(Bop op) {
  constexpr bool f = std::is_same_v<T, float> || std::is_same_v<T, half>;
  if (op == Bop::DIV || op == Bop::EXPDIF) return f;
  return f || std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int16_t>;
}
template <class T>
constexpr bool a5_allows(Bop op) {
  if (op == Bop::EXPDIF) return std::is_same_v<T, float> || std::is_same_v<T, half>;
  if (sizeof(T) == 8) return op == Bop::ADD;
  return true;
}
template <class T> Target target_for(Bop op) { return a2a3_allows<T>(op) ? Target::A2A3 : Target::A5; }

// ============================================================================================
// Harness: one plain manual-mode kernel for every binary case
// ============================================================================================
template <class T> using Gm2D = GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, -1, -1, 1>>;

struct Valid {
  int r, c;
};
// Valid shapes of src0, src1 and dst, and their UB byte offsets.
struct ColLayout {
  Valid v0, v1, vd;
  std::uint32_t off0, off1, offd;
};

// GM holds each operand as a Rows x Cols row-major array (row stride = tile Cols, spec §5.1).
template <class TileT>
Gm2D<typename TileT::DType> gm_of(typename TileT::DType* p, const TileT& t) {
  return Gm2D<typename TileT::DType>(p, {t.GetValidRow(), t.GetValidCol()}, {TileT::Rows * TileT::Cols, TileT::Cols});
}

// TLOAD src0, src1 -> MTE2->V flag -> op -> V->MTE3 flag -> TSTORE dst.
template <class S0, class S1, class D, class F>
void col_kernel(typename D::DType* out, typename D::DType* in0, typename D::DType* in1, ColLayout L, F op) {
  S0 a(L.v0.r, L.v0.c);
  S1 b(L.v1.r, L.v1.c);
  D d(L.vd.r, L.vd.c);
  TASSIGN(a, L.off0);
  TASSIGN(b, L.off1);
  TASSIGN(d, L.offd);
  auto g0 = gm_of(in0, a);
  auto g1 = gm_of(in1, b);
  auto gd = gm_of(out, d);
  TLOAD(a, g0);
  TLOAD(b, g1);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  op(d, a, b);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(gd, d);
}

// Golden: F is the full operand, v_j = V[0][j]; math order always src0 O src1 (spec §2.1).
// `swapped` = the per-column operand is src0. Zeros outside dst's valid region.
template <class T>
std::vector<T> col_golden(Bop op, bool swapped, const std::vector<T>& in0, int cols0, const std::vector<T>& in1,
                          int cols1, Valid vd, int out_rows, int out_cols) {
  std::vector<T> want(std::size_t(out_rows) * out_cols, T(0));
  for (int i = 0; i < vd.r; ++i)
    for (int j = 0; j < vd.c; ++j)
      want[std::size_t(i) * out_cols + j] = swapped ? ref(op, in0[j], in1[std::size_t(i) * cols1 + j])
                                                    : ref(op, in0[std::size_t(i) * cols0 + j], in1[j]);
  return want;
}

// Runs one case on `target` and checks it. in0/in1 hold S0::Numel / S1::Numel elements.
template <class S0, class S1, class D, class F>
void check_col(const std::string& what, Target target, Bop op, F fn, bool swapped, std::vector<typename D::DType> in0,
               std::vector<typename D::DType> in1, ColLayout L, bool cpu_reference = false) {
  using T = typename D::DType;
  BOOST_TEST_REQUIRE(in0.size() == std::size_t(S0::Numel));
  BOOST_TEST_REQUIRE(in1.size() == std::size_t(S1::Numel));
  std::vector<T> out(std::size_t(D::Numel), T(0));
  launch({.blocks = 1, .target = target, .cpu_reference = cpu_reference}, col_kernel<S0, S1, D, F>, out.data(), in0.data(),
         in1.data(), L, fn);
  const auto want = col_golden(op, swapped, in0, S0::Cols, in1, S1::Cols, L.vd, D::Rows, D::Cols);
  check_output(out, want, !kFloat<T>, what + " on " + name_of(target));
}

template <class T, int R, int C> using VTile = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1>;

#define COL_FN(OP) [](auto& d, auto& a, auto& b) { TCOLEXPAND##OP(d, a, b); }

// Calls g(OpC<op>{}, callable) for the seven binary ops.
template <class G>
void for_each_col_op(G&& g) {
  g(OpC<Bop::ADD>{}, COL_FN(ADD));
  g(OpC<Bop::SUB>{}, COL_FN(SUB));
  g(OpC<Bop::MUL>{}, COL_FN(MUL));
  g(OpC<Bop::DIV>{}, COL_FN(DIV));
  g(OpC<Bop::MAX>{}, COL_FN(MAX));
  g(OpC<Bop::MIN>{}, COL_FN(MIN));
  g(OpC<Bop::EXPDIF>{}, COL_FN(EXPDIF));
}

// ============================================================================================
// Spec §5.1 tcolexpandop: src0 Tile<iRow,iCol> valid RxC, src1 Tile<1,iCol> valid 1xC,
// dst Tile<oRow,oCol>; UB 0, iRow*iCol*sizeof(T), 2*iRow*iCol*sizeof(T); seed 19.
// ============================================================================================
template <class T, int iRow, int iCol, int oRow, int oCol, class F>
void run_colop_case(Bop op, F fn, int R, int C) {
  std::vector<T> in0, in1;
  if constexpr (kFloat<T>) {
    in0 = uniform<T>(std::size_t(iRow) * iCol, -2, 2, 19);
    in1 = uniform<T>(iCol, 1, 2, 20);
  } else {
    in0 = randint<T>(std::size_t(iRow) * iCol, 1, 7, 19);
    in1 = randint<T>(iCol, 1, 7, 20);
  }
  constexpr std::uint32_t bytes = std::uint32_t(iRow) * iCol * sizeof(T);
  const ColLayout L{{R, C}, {1, C}, {R, C}, 0, bytes, 2 * bytes};
  check_col<VTile<T, iRow, iCol>, VTile<T, 1, iCol>, VTile<T, oRow, oCol>>(
      std::string("tcolexpand") + op_name(op), target_for<T>(op), op, fn, false, in0, in1, L);
}

}  // namespace

#define COLOP_CASE(op, OP, T, tname, shape, iR, iC, oR, oC, R, C) \
  BOOST_AUTO_TEST_CASE(case_##op##_##tname##_##shape) {            \
    run_colop_case<T, iR, iC, oR, oC>(Bop::OP, COL_FN(OP), R, C);  \
  }
#define OPS7(X) X(div, DIV) X(mul, MUL) X(sub, SUB) X(add, ADD) X(min, MIN) X(max, MAX) X(expdif, EXPDIF)
#define OPS6(X) X(div, DIV) X(mul, MUL) X(sub, SUB) X(add, ADD) X(min, MIN) X(max, MAX)

#define F32_64(op, OP) COLOP_CASE(op, OP, float, float, 64x64, 64, 64, 64, 64, 64, 64)
#define F16_16(op, OP) COLOP_CASE(op, OP, half, half, 16x256, 16, 256, 16, 256, 16, 256)
#define F32_SUB(op, OP) COLOP_CASE(op, OP, float, float, 16x16_32x32_64x64, 32, 32, 64, 64, 16, 16)
#define I16_16(op, OP) COLOP_CASE(op, OP, std::int16_t, int16, 16x256, 16, 256, 16, 256, 16, 256)
#define I32_64(op, OP) COLOP_CASE(op, OP, std::int32_t, int32, 64x64, 64, 64, 64, 64, 64, 64)
#define U16_64(op, OP) COLOP_CASE(op, OP, std::uint16_t, uint16, 64x64, 64, 64, 64, 64, 64, 64)
#define U32_64(op, OP) COLOP_CASE(op, OP, std::uint32_t, uint32, 64x64, 64, 64, 64, 64, 64, 64)

BOOST_AUTO_TEST_SUITE(tcolexpandop)
OPS7(F32_64)
OPS7(F16_16)
OPS7(F32_SUB)
OPS6(I16_16)
OPS6(I32_64)
OPS6(U16_64)
OPS6(U32_64)
COLOP_CASE(mul, MUL, std::uint8_t, uint8, 64x64, 64, 64, 64, 64, 64, 64)
BOOST_AUTO_TEST_SUITE_END()

namespace {
// ============================================================================================
// Spec §5.1 tcolexpand: dst[i][j] = src[0][j], global = tile = valid, U(-16,16), exact.
// ============================================================================================
template <class T, int R, int C>
void colexpand_kernel(T* out, T* in) {
  VTile<T, R, C> s(R, C), d(R, C);
  TASSIGN(s, 0);
  TASSIGN(d, std::uint32_t(R) * C * sizeof(T));
  auto gs = gm_of(in, s);
  auto gd = gm_of(out, d);
  TLOAD(s, gs);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  TCOLEXPAND(d, s);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(gd, d);
}

template <class T, int R, int C>
void run_colexpand_case(Target target) {
  auto in = uniform<T>(std::size_t(R) * C, -16, 16, 19);
  std::vector<T> out(in.size(), T(0)), want(in.size());
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) want[std::size_t(i) * C + j] = in[std::size_t(j)];
  launch({.blocks = 1, .target = target}, colexpand_kernel<T, R, C>, out.data(), in.data());
  check_output(out, want, true, "tcolexpand");
}
}  // namespace

BOOST_AUTO_TEST_SUITE(tcolexpand)
BOOST_AUTO_TEST_CASE(case_float_64x64) {
  for (Target t : {Target::A2A3, Target::A5}) run_colexpand_case<float, 64, 64>(t);
}
BOOST_AUTO_TEST_CASE(case_half_16x256) {
  for (Target t : {Target::A2A3, Target::A5}) run_colexpand_case<half, 16, 256>(t);
}
BOOST_AUTO_TEST_CASE(case_bf16_16x256) { run_colexpand_case<bfloat16_t, 16, 256>(Target::A5); }
BOOST_AUTO_TEST_SUITE_END()

namespace {
// ============================================================================================
// Spec §5.2 tcolexpandadd through the seed article's kernel (src0 0x0, src1 0x10000, dst 0x20000;
// dst TLOADed first; floats U(-10,10), ints randint(1,10), seed 2025).
// ============================================================================================
template <class T, std::uint32_t R, std::uint32_t C>
void check_seed(const std::vector<T>& src0, const std::vector<T>& src1, Target target, bool direct) {
  std::vector<T> want(static_cast<std::size_t>(R) * C);
  for (std::size_t i = 0; i < R; ++i)
    for (std::size_t j = 0; j < C; ++j) want[i * C + j] = ref(Bop::ADD, src0[i * C + j], src1[j]);
  auto a = src0, b = src1;
  {
    std::vector<T> out(want.size(), T(0));
    launch({.blocks = 1, .target = target}, runCOLEXPANDADD<T, R, C, 1, C>, out.data(), a.data(), b.data());
    check_output(out, want, !kFloat<T>, std::string("runCOLEXPANDADD launched on ") + name_of(target));
  }
  if (direct) {  // the implicit core of a direct call is an A2A3 core
    std::vector<T> out(want.size(), T(0));
    runCOLEXPANDADD<T, R, C, 1, C>(out.data(), a.data(), b.data());
    check_output(out, want, !kFloat<T>, "runCOLEXPANDADD called directly");
  }
}

template <class T, std::uint32_t R, std::uint32_t C>
void run_seed_case(Target target) {
  std::vector<T> src0, src1;
  if constexpr (kFloat<T>) {
    src0 = uniform<T>(std::size_t(R) * C, -10, 10, 2025);
    src1 = uniform<T>(C, -10, 10, 2026);
  } else {
    src0 = randint<T>(std::size_t(R) * C, 1, 9, 2025);
    src1 = randint<T>(C, 1, 9, 2026);
  }
  check_seed<T, R, C>(src0, src1, target, a2a3_allows<T>(Bop::ADD));
}

// 64-bit: full-range values mixed with values at the 64-bit and 32-bit limits, so that the sum wraps
// past the 64-bit limit and carries out of the low 32-bit word (what the A5 register-pair add must get right).
template <class T, std::uint32_t R, std::uint32_t C>
void run_seed_case_64() {
  const std::vector<T> edges =
      std::is_signed_v<T>
          ? std::vector<T>{T(std::numeric_limits<std::int64_t>::max()), T(std::numeric_limits<std::int64_t>::max() - 5),
                           T(std::numeric_limits<std::int64_t>::min()), T(std::numeric_limits<std::int64_t>::min() + 3),
                           T(-1), T(0xFFFFFFFFll), T(0x7FFFFFFFll), T(-0x100000000ll), T(0x3FFFFFFFFFFFFFFFll)}
          : std::vector<T>{T(~0ull), T(~0ull - 5), T(1ull << 63), T((1ull << 63) - 1), T(0xFFFFFFFFull),
                           T(0x100000000ull), T(0xFFFFFFFF00000000ull), T(0), T(0x00000001FFFFFFFFull)};
  auto src0 = full_range<T>(std::size_t(R) * C, 2025);
  for (std::size_t k = 0; k < src0.size(); k += 3) src0[k] = edges[(k / 3) % edges.size()];
  auto src1 = randint<T>(C, 1, 9, 2026);
  for (std::size_t j = 0; j < C; j += 4) src1[j] = edges[(j / 4 + 2) % edges.size()];
  // The data must exercise both effects.
  int wraps = 0, carries = 0;
  for (std::size_t i = 0; i < R; ++i)
    for (std::size_t j = 0; j < C; ++j) {
      const std::uint64_t a = std::uint64_t(src0[i * C + j]), b = std::uint64_t(src1[j]);
      if (std::is_signed_v<T> ? ((std::int64_t(a) > 0 && std::int64_t(b) > 0 && std::int64_t(a + b) < 0) ||
                                 (std::int64_t(a) < 0 && std::int64_t(b) < 0 && std::int64_t(a + b) >= 0))
                              : a + b < a)
        ++wraps;
      if ((a & 0xFFFFFFFFull) + (b & 0xFFFFFFFFull) > 0xFFFFFFFFull) ++carries;
    }
  BOOST_TEST_REQUIRE(wraps > 0);
  BOOST_TEST_REQUIRE(carries > 0);
  check_seed<T, R, C>(src0, src1, Target::A5, false);
}
}  // namespace

BOOST_AUTO_TEST_SUITE(tcolexpandadd_a2a3)
BOOST_AUTO_TEST_CASE(case_fp32_16_128_1_128) { run_seed_case<float, 16, 128>(Target::A2A3); }
BOOST_AUTO_TEST_CASE(case_fp32_32_32_1_32) { run_seed_case<float, 32, 32>(Target::A2A3); }
BOOST_AUTO_TEST_CASE(case_fp16_4_256_1_256) { run_seed_case<half, 4, 256>(Target::A2A3); }
BOOST_AUTO_TEST_CASE(case_fp16_10_64_1_64) { run_seed_case<half, 10, 64>(Target::A2A3); }
BOOST_AUTO_TEST_CASE(case_int32_8_32_1_32) { run_seed_case<std::int32_t, 8, 32>(Target::A2A3); }
BOOST_AUTO_TEST_CASE(case_int16_8_32_1_32) { run_seed_case<std::int16_t, 8, 32>(Target::A2A3); }
BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(tcolexpandadd_a5)
BOOST_AUTO_TEST_CASE(case_fp32_16_128_1_128) { run_seed_case<float, 16, 128>(Target::A5); }
BOOST_AUTO_TEST_CASE(case_fp32_32_32_1_32) { run_seed_case<float, 32, 32>(Target::A5); }
BOOST_AUTO_TEST_CASE(case_fp16_4_256_1_256) { run_seed_case<half, 4, 256>(Target::A5); }
BOOST_AUTO_TEST_CASE(case_fp16_10_64_1_64) { run_seed_case<half, 10, 64>(Target::A5); }
BOOST_AUTO_TEST_CASE(case_int32_16_32_1_32) { run_seed_case<std::int32_t, 16, 32>(Target::A5); }
BOOST_AUTO_TEST_CASE(case_int16_16_64_1_64) { run_seed_case<std::int16_t, 16, 64>(Target::A5); }
BOOST_AUTO_TEST_CASE(case_fp32_1_128_1_128) { run_seed_case<float, 1, 128>(Target::A5); }
BOOST_AUTO_TEST_CASE(case_int64_16_32_1_32) { run_seed_case_64<std::int64_t, 16, 32>(); }
BOOST_AUTO_TEST_CASE(case_uint64_16_32_1_32) { run_seed_case_64<std::uint64_t, 16, 32>(); }
BOOST_AUTO_TEST_SUITE_END()

namespace {
// ============================================================================================
// Role selection (spec §2.1, §6 item 4) and randomised properties
// ============================================================================================
template <class T>
constexpr bool allows(Target t, Bop op) {
  return t == Target::A2A3 ? a2a3_allows<T>(op) : a5_allows<T>(op);
}

// Data for one case: `full` for the full operand(s), `vec` for the per-column operand. For DIV the
// divisor side (`vec_divides`) is kept away from zero: |x| >= 0.5 for floats, non-zero for integers.
// Integers take both signs where the type has them, so the truncating direction of DIV is visible.
template <class T>
void role_data(Bop op, std::size_t n_full, std::size_t n_vec, bool vec_divides, std::vector<T>& full,
               std::vector<T>& vec, unsigned seed) {
  if constexpr (kFloat<T>) {
    full = uniform<T>(n_full, -2, 2, seed);
    vec = uniform<T>(n_vec, -2, 2, seed + 1);
    if (op == Bop::DIV)
      for (auto& x : vec_divides ? vec : full) x = T(to_d(x) < 0 ? to_d(x) - 0.5 : to_d(x) + 0.5);
  } else {
    full = randint<T>(n_full, std::is_signed_v<T> ? -60 : 0, 60, seed);
    vec = randint<T>(n_vec, std::is_signed_v<T> ? -60 : 0, 60, seed + 1);
    if (op == Bop::DIV) (vec_divides ? vec : full) = divisors<T>(vec_divides ? n_vec : n_full, seed + 2);
  }
}

constexpr Target kTargets[] = {Target::A2A3, Target::A5};

// Per-column operand in src0 (a 1-row tile, valid 1xC), full operand in src1 (valid RxC): the NPU rule
// (§2.1, §6 item 4) swaps roles but keeps the math order, so SUB is v_j - F[i][j], DIV v_j / F[i][j],
// EXPDIF exp(v_j - F[i][j]).
template <class T>
void check_swapped() {
  constexpr int TR = 32, TC = 256 / int(sizeof(T));
  using Full = VTile<T, TR, TC>;
  using Row = VTile<T, 1, TC>;
  const int R = 21, C = TC - 13;
  const ColLayout L{{1, C}, {R, C}, {R, C}, 0, Row::GetSizeInBytes(), Row::GetSizeInBytes() + Full::GetSizeInBytes()};
  for_each_col_op([&](auto opc, auto fn) {
    constexpr Bop op = decltype(opc)::value;
    if constexpr (a5_allows<T>(op) && sizeof(T) < 8) {
      for (Target t : kTargets) {
        if (!allows<T>(t, op)) continue;
        std::vector<T> full, vec;
        role_data(op, Full::Numel, Row::Numel, false, full, vec, 31);
        check_col<Row, Full, Full>(std::string("swapped ") + op_name(op) + " " + name_of(dtype_v<T>), t, op, fn, true,
                                   vec, full, L);
      }
    }
  });
}

// Both sources have dst's valid shape: src0 is the full operand and only row 0 of src1 is read.
template <class T>
void check_both_full() {
  constexpr int TR = 16, TC = 256 / int(sizeof(T));
  using Full = VTile<T, TR, TC>;
  const int R = 11, C = TC - 3;
  constexpr std::uint32_t bytes = Full::GetSizeInBytes();
  const ColLayout L{{R, C}, {R, C}, {R, C}, 0, bytes, 2 * bytes};
  for_each_col_op([&](auto opc, auto fn) {
    constexpr Bop op = decltype(opc)::value;
    if constexpr (a5_allows<T>(op) && sizeof(T) < 8) {
      for (Target t : kTargets) {
        if (!allows<T>(t, op)) continue;
        std::vector<T> in0, in1;
        role_data(op, Full::Numel, Full::Numel, true, in0, in1, 37);  // rows 1.. of src1 differ from row 0
        check_col<Full, Full, Full>(std::string("both full ") + op_name(op) + " " + name_of(dtype_v<T>), t, op, fn,
                                    false, in0, in1, L);
      }
    }
  });
}
}  // namespace

BOOST_AUTO_TEST_SUITE(roles)

BOOST_AUTO_TEST_CASE(swapped_sub_div_expdif_by_hand) {
  // v = (10, 1, 0.5, ...) in src0, F = 4 everywhere in src1: v_j - F, v_j / F, exp(v_j - F).
  using Row = VTile<float, 1, 8>;
  using Full = VTile<float, 2, 8>;
  std::vector<float> v = {10, 1, 0.5f, 2, 3, 4, 5, 6}, f(16, 4.0f);
  const ColLayout L{{1, 8}, {2, 8}, {2, 8}, 0, 32, 32 + 64};
  auto run = [&](auto fn) {
    std::vector<float> out(16, 0.0f);
    launch({.blocks = 1, .target = Target::A2A3}, col_kernel<Row, Full, Full, decltype(fn)>, out.data(), v.data(),
           f.data(), L, fn);
    return out;
  };
  const auto sub = run(COL_FN(SUB));
  const auto div = run(COL_FN(DIV));
  const auto exd = run(COL_FN(EXPDIF));
  for (int i = 0; i < 2; ++i) {
    BOOST_TEST(sub[std::size_t(i) * 8 + 0] == 6.0f);
    BOOST_TEST(sub[std::size_t(i) * 8 + 1] == -3.0f);
    BOOST_TEST(div[std::size_t(i) * 8 + 0] == 2.5f);
    BOOST_TEST(div[std::size_t(i) * 8 + 2] == 0.125f);
    BOOST_TEST(std::fabs(exd[std::size_t(i) * 8 + 0] - std::exp(6.0f)) <= 1e-3f * std::exp(6.0f));
    BOOST_TEST(std::fabs(exd[std::size_t(i) * 8 + 1] - std::exp(-3.0f)) <= 1e-3f * std::exp(-3.0f));
  }
}

template <int R, int C>
void cpu_in_place_and_apart() {
  using Full = VTile<float, R, C>;
  using Row = VTile<float, 1, C>;
  constexpr std::uint32_t F = Full::GetSizeInBytes(), V = 2 * F;  // full at 0, an apart dst at F, the row at V
  const bool dst_on_row = 3 * F <= 192 * 1024;                      // a whole dst tile fits from V on
  for_each_col_op([&](auto opc, auto fn) {
    constexpr Bop op = decltype(opc)::value;
    for (bool swapped : {false, true}) {
      std::vector<float> full, vec;
      role_data(op, Full::Numel, Row::Numel, !swapped, full, vec, 61);
      const Valid vf{R, C - 3}, vv{1, C - 3};
      for (std::uint32_t offd : {F, 0u, V}) {  // apart, dst = the full operand, dst row 0 = the vector
        if (offd == V && !dst_on_row) continue;
        const std::string what = std::string("cpu ") + op_name(op) + " " + std::to_string(R) + "x" + std::to_string(C) +
                                 (swapped ? " swapped" : "") + " dst at " + std::to_string(offd);
        if (swapped)
          check_col<Row, Full, Full>(what, Target::A2A3, op, fn, true, vec, full, {vv, vf, vf, V, 0, offd}, true);
        else
          check_col<Full, Row, Full>(what, Target::A2A3, op, fn, false, full, vec, {vf, vv, vf, 0, V, offd}, true);
      }
    }
  });
}

// The CPU kernel has a path for a dst apart from both sources and one for a dst that is one of them
// (in place, the same bytes); on both, every element reads the sources' values from before the
// instruction. (A dst that only partly overlaps a source: test_overlap.)
// 32x512 and 2x8192 run on oneTBB (row blocks, and column chunks starting past column 0).
BOOST_AUTO_TEST_CASE(in_place_and_apart_on_the_cpu_reference) {
  cpu_in_place_and_apart<16, 64>();
  cpu_in_place_and_apart<32, 512>();
  cpu_in_place_and_apart<2, 8192>();
}

// DivAlgorithm::HIGH_PRECISION selects another A5 device algorithm; the result is IEEE division either way.
BOOST_AUTO_TEST_CASE(div_high_precision) {
  using Full = VTile<float, 16, 64>;
  using Row = VTile<float, 1, 64>;
  auto hp = [](auto& d, auto& a, auto& b) { TCOLEXPANDDIV<DivAlgorithm::HIGH_PRECISION>(d, a, b); };
  for (bool swapped : {false, true})
    for (Target t : kTargets) {
      std::vector<float> full, vec;
      role_data(Bop::DIV, Full::Numel, Row::Numel, !swapped, full, vec, 53);
      const ColLayout L{swapped ? Valid{1, 60} : Valid{16, 60}, swapped ? Valid{16, 60} : Valid{1, 60}, {16, 60}, 0,
                        0x1000, 0x2000};
      if (swapped) check_col<Row, Full, Full>("div high precision", t, Bop::DIV, hp, true, vec, full, L);
      else check_col<Full, Row, Full>("div high precision", t, Bop::DIV, hp, false, full, vec, L);
    }
}

BOOST_AUTO_TEST_CASE(swapped_float) { check_swapped<float>(); }
BOOST_AUTO_TEST_CASE(swapped_half) { check_swapped<half>(); }
BOOST_AUTO_TEST_CASE(swapped_int32) { check_swapped<std::int32_t>(); }
BOOST_AUTO_TEST_CASE(swapped_int16) { check_swapped<std::int16_t>(); }
BOOST_AUTO_TEST_CASE(swapped_uint8) { check_swapped<std::uint8_t>(); }
BOOST_AUTO_TEST_CASE(both_full_float) { check_both_full<float>(); }
BOOST_AUTO_TEST_CASE(both_full_half) { check_both_full<half>(); }
BOOST_AUTO_TEST_CASE(both_full_int32) { check_both_full<std::int32_t>(); }
BOOST_AUTO_TEST_CASE(both_full_uint16) { check_both_full<std::uint16_t>(); }

BOOST_AUTO_TEST_SUITE_END()

namespace {
// Randomised properties: every operand is the same TR x TC tile type, so the roles come from the valid
// shapes alone (the per-column operand is valid 1xC inside a full-size tile whose other rows hold
// unrelated data). Even-numbered shapes put the full operand in src0, odd-numbered ones in src1; a
// single-row dst always takes src0 as full (both sources match). Run on A5, and on A2A3 where allowed.
template <class T, int TR, int TC>
void property(std::vector<Valid> shapes, unsigned seed) {
  using Tl = VTile<T, TR, TC>;
  constexpr std::uint32_t bytes = Tl::GetSizeInBytes();
  std::mt19937 rng(seed);
  for (int k = 0; k < 2; ++k)  // two random shapes as well
    shapes.push_back({std::uniform_int_distribution<int>(1, TR)(rng), std::uniform_int_distribution<int>(1, TC)(rng)});
  for_each_col_op([&](auto opc, auto fn) {
    constexpr Bop op = decltype(opc)::value;
    if constexpr (a5_allows<T>(op)) {
      for (std::size_t k = 0; k < shapes.size(); ++k) {
        const Valid v = shapes[k];
        const bool swapped = (k % 2 == 1) && v.r > 1;
        const ColLayout L{swapped ? Valid{1, v.c} : v, swapped ? v : Valid{1, v.c}, v, 0, bytes, 2 * bytes};
        std::vector<T> full, vec;
        if constexpr (!kFloat<T>) {
          if (op != Bop::DIV) {  // whole range: ADD/SUB/MUL wrap, MAX/MIN see both signs
            full = full_range<T>(Tl::Numel, seed + 100 * k);
            vec = full_range<T>(Tl::Numel, seed + 100 * k + 1);
          } else {
            (swapped ? vec : full) = full_range<T>(Tl::Numel, seed + 100 * k, true);
            (swapped ? full : vec) = divisors<T>(Tl::Numel, seed + 100 * k + 1);
          }
        } else {
          role_data(op, Tl::Numel, Tl::Numel, !swapped, full, vec, seed + 100 * unsigned(k));
        }
        std::ostringstream what;
        what << "property " << name_of(dtype_v<T>) << " " << op_name(op) << " " << v.r << "x" << v.c << " in " << TR
             << "x" << TC << (swapped ? " (per-column operand in src0)" : "");
        for (Target t : kTargets)
          if (allows<T>(t, op))
            check_col<Tl, Tl, Tl>(what.str(), t, op, fn, swapped, swapped ? vec : full, swapped ? full : vec, L);
      }
    }
  });
}

// Wide tiles (32 KiB, 1024 columns: 8x1024 float, 16x1024 half) and tall tiles (256 rows of one
// 256-byte repeat: 256x64 float, 256x128 half; 64-bit types have 32 columns there, so 31 replaces 63).
template <class T>
void property_all_shapes(unsigned seed) {
  constexpr int WR = 32768 / (1024 * int(sizeof(T))), TC = 256 / int(sizeof(T));
  property<T, WR, 1024>({{1, 1023}, {WR, 63}, {WR, 1023}, {1, 1}, {WR - 1, 1}, {1, 63}, {WR, 1024}}, seed);
  property<T, 256, TC>({{256, TC > 63 ? 63 : TC - 1}, {255, TC - 1}, {1, TC}, {256, 1}, {129, TC}}, seed + 7);
}
}  // namespace

BOOST_AUTO_TEST_SUITE(property_a5_dtypes)
BOOST_AUTO_TEST_CASE(prop_float) { property_all_shapes<float>(101); }
BOOST_AUTO_TEST_CASE(prop_half) { property_all_shapes<half>(102); }
BOOST_AUTO_TEST_CASE(prop_bf16) { property_all_shapes<bfloat16_t>(103); }
BOOST_AUTO_TEST_CASE(prop_int32) { property_all_shapes<std::int32_t>(104); }
BOOST_AUTO_TEST_CASE(prop_uint32) { property_all_shapes<std::uint32_t>(105); }
BOOST_AUTO_TEST_CASE(prop_int16) { property_all_shapes<std::int16_t>(106); }
BOOST_AUTO_TEST_CASE(prop_uint16) { property_all_shapes<std::uint16_t>(107); }
BOOST_AUTO_TEST_CASE(prop_int8) { property_all_shapes<std::int8_t>(108); }
BOOST_AUTO_TEST_CASE(prop_uint8) { property_all_shapes<std::uint8_t>(109); }
BOOST_AUTO_TEST_CASE(prop_int64_add) { property_all_shapes<std::int64_t>(110); }
BOOST_AUTO_TEST_CASE(prop_uint64_add) { property_all_shapes<std::uint64_t>(111); }
BOOST_AUTO_TEST_SUITE_END()

// ============================================================================================
// Target rules
// ============================================================================================
namespace {
bool names_a2a3_and_a5(const pto::Error& e) {
  const std::string m = e.what();
  BOOST_TEST_MESSAGE("pto::Error: " << m);
  return m.find("TCOLEXPANDADD") != std::string::npos && m.find("not supported on A2A3") != std::string::npos &&
         m.find("A5") != std::string::npos;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(target_rules)

BOOST_AUTO_TEST_CASE(int64_tcolexpandadd_on_a2a3_is_rejected_and_names_a5) {
  std::vector<std::int64_t> out(16 * 32, 0), a(16 * 32, 1), b(32, 2);
  BOOST_CHECK_EXCEPTION(launch({.blocks = 1, .target = Target::A2A3}, runCOLEXPANDADD<std::int64_t, 16, 32, 1, 32>,
                               out.data(), a.data(), b.data()),
                        pto::Error, names_a2a3_and_a5);
  std::vector<std::uint64_t> uout(16 * 32, 0), ua(16 * 32, 1), ub(32, 2);
  BOOST_CHECK_EXCEPTION(launch({.blocks = 1, .target = Target::A2A3}, runCOLEXPANDADD<std::uint64_t, 16, 32, 1, 32>,
                               uout.data(), ua.data(), ub.data()),
                        pto::Error, names_a2a3_and_a5);
}

BOOST_AUTO_TEST_SUITE_END()
