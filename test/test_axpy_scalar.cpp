// TAXPY (spec §2.3), TEXP (§2.4) and the tile-scalar family TADDS/TSUBS/TMULS/TDIVS/TMAXS/TMINS (§2.5):
// every §5.1/§5.2 TAXPY case, every dtype each target allows, ColMajor and in-place tiles, randomised
// valid shapes, and the accuracy of the vectorised exp.
//
// Every result goes through a one-core manual-mode kernel (TLOAD, flags, the op, flags, TSTORE) on the
// target under test. References are independent of the library: integers exactly (two's complement
// wrap, truncating division), floating point in double and rounded once to T per rounding step the spec
// names (half/bf16 rounding of one exact double result is the correctly rounded result).
#define BOOST_TEST_MODULE axpy_scalar
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <pto/pto-inst.hpp>

#include "element_ref.hpp"

#include "scalar_ops.hpp"
#include "test_util.hpp"

using namespace pto;
using pto_test::issue;
using pto_test::ScalarOp;

namespace {

// ---- element types -----------------------------------------------------------------------------------
using pto_test::bits_of;
using pto_test::kFloat;
using pto_test::round_to;
using pto_test::to_double;

template <class... Ts, class F>
void for_types(F&& f) {
  (f(std::type_identity<Ts>{}), ...);
}
// Calls f(std::type_identity<T>{}) for every element type the family knows.
template <class F>
void for_all_types(F&& f) {
  for_types<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t, std::int64_t,
            std::uint64_t, half, bfloat16_t, float>(f);
}

template <class T> std::string show(T v) {
  std::ostringstream os;
  os.precision(9);
  if constexpr (kFloat<T>) os << float(v) << " (0x" << std::hex << bits_of(v) << ")";
  else if constexpr (sizeof(T) == 1) os << int(v);
  else os << v;
  return os.str();
}

// ---- random data -------------------------------------------------------------------------------------
using Rng = std::mt19937_64;

// Floats U(lo, hi) rounded to T; integers uniform over T's whole range (so add/sub/mul wrap often).
template <class T> T random_value(Rng& rng, double lo = -8, double hi = 8) {
  using L = std::numeric_limits<T>;
  if constexpr (kFloat<T>) return T(float(std::uniform_real_distribution<double>(lo, hi)(rng)));
  else if constexpr (std::is_signed_v<T>) return T(std::uniform_int_distribution<long long>(L::min(), L::max())(rng));
  else return T(std::uniform_int_distribution<unsigned long long>(0, L::max())(rng));
}
// A non-zero divisor: floats +-U(0.5, 8); integers +-[1, 100] (unsigned: [1, 100]).
template <class T> T random_divisor(Rng& rng) {
  const int sign = std::is_signed_v<T> || kFloat<T> ? (rng() % 2 ? -1 : 1) : 1;
  if constexpr (kFloat<T>) return T(float(sign * std::uniform_real_distribution<double>(0.5, 8)(rng)));
  else return T(sign * int(std::uniform_int_distribution<int>(1, 100)(rng)));
}
template <class T> std::vector<T> random_vector(std::size_t n, Rng& rng, double lo = -8, double hi = 8) {
  std::vector<T> v(n);
  for (auto& x : v) x = random_value<T>(rng, lo, hi);
  return v;
}

// ---- the tile-scalar family and its reference -----------------------------------------------------------
constexpr ScalarOp kScalarOps[] = {ScalarOp::Adds, ScalarOp::Subs,    ScalarOp::Muls, ScalarOp::Divs,
                                   ScalarOp::DivsRev, ScalarOp::Maxs, ScalarOp::Mins, ScalarOp::LRelu};
const char* op_label(ScalarOp op) {
  switch (op) {
    case ScalarOp::Adds: return "TADDS";
    case ScalarOp::Subs: return "TSUBS";
    case ScalarOp::Muls: return "TMULS";
    case ScalarOp::Divs: return "TDIVS(dst, src, scalar)";
    case ScalarOp::DivsRev: return "TDIVS(dst, scalar, src)";
    case ScalarOp::Maxs: return "TMAXS";
    case ScalarOp::Mins: return "TMINS";
    case ScalarOp::LRelu: return "TLRELU";
  }
  return "?";
}

// Spec §2.5 dtype table, written out here so the test does not read the library's own lists.
bool allowed(ScalarOp op, DType t, Target target) {
  using D = DType;
  auto in = [t](std::initializer_list<DType> s) { return std::find(s.begin(), s.end(), t) != s.end(); };
  if (op == ScalarOp::LRelu) return in({D::F16, D::F32});  // a2a3 / a5 TLRelu.hpp
  if (target == Target::A2A3) return in({D::I32, D::I16, D::F16, D::F32});
  switch (op) {
    case ScalarOp::Muls: return in({D::U16, D::I16, D::U32, D::I32, D::I64, D::U64, D::F16, D::F32, D::BF16});
    case ScalarOp::Divs:
    case ScalarOp::DivsRev: return in({D::U16, D::I16, D::U32, D::I32, D::I64, D::U64, D::F16, D::F32});
    case ScalarOp::Maxs:
      return in({D::I32, D::U32, D::I64, D::U64, D::F32, D::I16, D::U16, D::F16, D::BF16, D::U8, D::I8});
    default: return in({D::U8, D::I8, D::U16, D::I16, D::U32, D::I32, D::I64, D::U64, D::F16, D::F32, D::BF16});
  }
}
bool is_div(ScalarOp op) { return op == ScalarOp::Divs || op == ScalarOp::DivsRev; }


// dst = src op k. Floats: the exact result rounded once to T. Integers: two's complement wrap for
// add/sub/mul (computed modulo 2^64, then truncated), C truncation for division (the one overflowing
// quotient, min / -1, wraps to min).
template <class T> T reference(ScalarOp op, T x, T k) {
  if constexpr (kFloat<T>) {
    const double a = to_double(x), b = to_double(k);
    switch (op) {
      case ScalarOp::Adds: return round_to<T>(a + b);
      case ScalarOp::Subs: return round_to<T>(a - b);
      case ScalarOp::Muls: return round_to<T>(a * b);
      case ScalarOp::Divs: return round_to<T>(a / b);
      case ScalarOp::DivsRev: return round_to<T>(b / a);
      case ScalarOp::Maxs: return a < b ? k : x;
      case ScalarOp::Mins: return b < a ? k : x;
      case ScalarOp::LRelu: return a > 0 ? x : round_to<T>(a * b);
    }
  } else {
    const auto ua = std::uint64_t(x), ub = std::uint64_t(k);
    auto quot = [](T n, T d) -> T {
      if constexpr (std::is_signed_v<T>)
        if (n == std::numeric_limits<T>::min() && d == T(-1)) return n;
      return T(n / d);
    };
    switch (op) {
      case ScalarOp::Adds: return T(ua + ub);
      case ScalarOp::Subs: return T(ua - ub);
      case ScalarOp::Muls: return T(ua * ub);
      case ScalarOp::Divs: return quot(x, k);
      case ScalarOp::DivsRev: return quot(k, x);
      case ScalarOp::Maxs: return x < k ? k : x;
      case ScalarOp::Mins: return k < x ? k : x;
      case ScalarOp::LRelu: break;  // floats only
    }
  }
  return x;
}

// ---- TAXPY reference (spec §2.3, §3.5, §3.9.3) -------------------------------------------------------------
// half <- half:  p = half(k * x), dst = half(dst + p)             (two half roundings)
// float <- half: p = k * x in float from the exactly widened half (exact: 22 bits), dst = float(dst + p)
// float <- float: p = float(k * x), dst = float(dst + p)          (two float roundings)
template <class D, class S> D axpy_reference(D d, S x, S k) {
  const double p = to_double(round_to<D>(to_double(k) * to_double(x)));
  return round_to<D>(to_double(d) + p);
}

// ---- kernels: host matrices <-> tiles ---------------------------------------------------------------------
struct Valid {
  int rows, cols;
};
std::ostream& operator<<(std::ostream& os, Valid v) { return os << v.rows << 'x' << v.cols; }

// A host matrix is laid out like its tile: element (r, c) at TileT::GetTileOffset(r, c).
template <class TileT>
auto gm_view(typename TileT::DType* p, Valid v) {
  using T = typename TileT::DType;
  if constexpr (TileT::isRowMajor)
    return GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, -1, 1>>(p, {v.rows, v.cols}, {TileT::Cols});
  else
    return GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, 1, -1>, Layout::DN>(p, {v.rows, v.cols},
                                                                                            {TileT::Rows});
}

// UB placement of the two tiles: src at `src`, dst at `dst` (kAfterSrc: right behind src). dst == src
// is the in-place form: one TLOAD, and the op reads and writes the same bytes.
constexpr std::size_t kAfterSrc = ~std::size_t(0);
struct Where {
  std::size_t src = 0, dst = kAfterSrc;
};
constexpr Where kInPlace{0, 0};

// Runs op(dst, src) as a one-core manual-mode kernel on `target`: dst (read-modify-write ops need it,
// TLOADed first as in the seed tests) and src come from host matrices, the result goes back into dst_host.
template <class DstT, class SrcT, class F>
void run_on_tiles(Target target, Valid v, std::vector<typename DstT::DType>& dst_host,
                  const std::vector<typename SrcT::DType>& src_host, F op, Where where = {}) {
  using D = typename DstT::DType;
  using S = typename SrcT::DType;
  const std::size_t src_addr = where.src, dst_addr = where.dst == kAfterSrc ? where.src + SrcT::GetSizeInBytes() : where.dst;
  const bool in_place = src_addr == dst_addr;
  auto kernel = [=](D* dgm, S* sgm) {
    DstT dst(v.rows, v.cols);
    SrcT src(v.rows, v.cols);
    TASSIGN(src, src_addr);
    TASSIGN(dst, dst_addr);
    auto gd = gm_view<DstT>(dgm, v);
    auto gs = gm_view<SrcT>(sgm, v);
    if (!in_place) TLOAD(dst, gd);
    TLOAD(src, gs);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    op(dst, src);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gd, dst);
  };
  launch({.blocks = 1, .target = target}, kernel, dst_host.data(), const_cast<S*>(src_host.data()));
}

// The valid region of a host matrix laid out like TileT, packed row by row.
template <class TileT, class T>
std::vector<T> valid_region(const std::vector<T>& m, Valid v) {
  std::vector<T> out;
  out.reserve(std::size_t(v.rows) * v.cols);
  for (int r = 0; r < v.rows; ++r)
    for (int c = 0; c < v.cols; ++c) out.push_back(m[std::size_t(TileT::GetTileOffset(r, c))]);
  return out;
}
// ref(r, c) over the valid region, packed row by row.
template <class Ref>
auto reference_region(Valid v, Ref ref) {
  std::vector<decltype(ref(0, 0))> out;
  out.reserve(std::size_t(v.rows) * v.cols);
  for (int r = 0; r < v.rows; ++r)
    for (int c = 0; c < v.cols; ++c) out.push_back(ref(r, c));
  return out;
}

// Integers always compare exactly. Floats always pass the spec §5 rule (eps 0.001, at most floor(N*eps)
// misses); Exact additionally demands identical bits (one IEEE round-to-nearest-even per step, §3.1).
enum class Cmp { Exact, Eps };
template <class T>
void check_region(const std::vector<T>& got, const std::vector<T>& want, Cmp how, Valid v, const std::string& what) {
  BOOST_TEST_REQUIRE(got.size() == want.size());
  if constexpr (kFloat<T>) {
    const auto r = pto_test::compare_eps(got, want, 0.001);
    BOOST_TEST(r.ok(), what << ": " << r.errors << " of " << want.size() << " elements miss eps 0.001 (allowed "
                            << r.allowed << "); first at (" << r.first_bad / std::size_t(v.cols) << ", "
                            << r.first_bad % std::size_t(v.cols) << "): got " << show(got[r.first_bad]) << ", want "
                            << show(want[r.first_bad]));
    if (how == Cmp::Eps) return;
  }
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (bits_of(got[i]) != bits_of(want[i]) && bad++ == 0) first = i;
  BOOST_TEST(bad == 0u, what << ": " << bad << " of " << want.size() << " elements differ; first at ("
                             << first / std::size_t(v.cols) << ", " << first % std::size_t(v.cols) << "): got "
                             << show(got[first]) << ", want " << show(want[first]));
}

template <class TileT>
std::string describe(const char* op, Target target, Valid v, Where where) {
  std::ostringstream os;
  os << op << ' ' << name_of(dtype_v<typename TileT::DType>) << " on " << name_of(target) << ", tile " << TileT::Rows
     << 'x' << TileT::Cols << (TileT::isRowMajor ? "" : " ColMajor") << " valid " << v
     << (where.src == where.dst ? " in place" : "");
  return os.str();
}

template <class T, int R, int C, BLayout L = BLayout::RowMajor>
using VecTile = Tile<TileType::Vec, T, R, C, L, -1, -1>;

// ---- one op on one tile shape, against its reference ---------------------------------------------------------
template <class TileT>
void check_scalar_op(ScalarOp op, Target target, Valid v, Where where, Rng& rng) {
  using T = typename TileT::DType;
  if (!allowed(op, dtype_v<T>, target)) return;
  std::vector<T> src(TileT::Numel);
  for (std::size_t i = 0; i < src.size(); ++i) {
    src[i] = op == ScalarOp::DivsRev ? random_divisor<T>(rng) : random_value<T>(rng);
    if (!kFloat<T> && op != ScalarOp::DivsRev && i % 5 == 0) src[i] = T(0);  // 0 as an operand (0 / k is 0)
  }
  std::vector<T> dst = random_vector<T>(TileT::Numel, rng);
  T k = op == ScalarOp::Divs ? random_divisor<T>(rng) : random_value<T>(rng);
  // A2/A3's TSUBS adds T(-(float)k) (spec §6 item 14): its device path rejects int32 scalars that are
  // not exact in float (test_device_paths checks that error).
  if constexpr (std::is_same_v<T, std::int32_t>)
    if (op == ScalarOp::Subs && target == Target::A2A3) k = T(k % (1 << 24));
  run_on_tiles<TileT, TileT>(target, v, dst, src, [op, k](auto& d, auto& s) { issue(op, d, s, k); }, where);
  const auto want = reference_region(v, [&](int r, int c) { return reference(op, src[std::size_t(TileT::GetTileOffset(r, c))], k); });
  check_region(valid_region<TileT>(dst, v), want, is_div(op) ? Cmp::Eps : Cmp::Exact, v,
               describe<TileT>(op_label(op), target, v, where) + ", scalar " + show(k));
}

template <class TileT>
void check_scalar_ops(Target target, Valid v, Where where, Rng& rng) {
  for (ScalarOp op : kScalarOps) check_scalar_op<TileT>(op, target, v, where, rng);
}

template <class TileT>
void check_texp(Target target, Valid v, Where where, Rng& rng) {
  using T = typename TileT::DType;
  if constexpr ((std::is_same_v<T, half> || std::is_same_v<T, float>) && TileT::isRowMajor) {
    const auto src = random_vector<T>(TileT::Numel, rng);
    auto dst = random_vector<T>(TileT::Numel, rng);
    run_on_tiles<TileT, TileT>(target, v, dst, src, [](auto& d, auto& s) { TEXP(d, s); }, where);
    const auto want = reference_region(v, [&](int r, int c) {
      return round_to<T>(std::exp(to_double(src[std::size_t(TileT::GetTileOffset(r, c))])));
    });
    check_region(valid_region<TileT>(dst, v), want, Cmp::Eps, v, describe<TileT>("TEXP", target, v, where));
  }
}

// TAXPY on DstT <- SrcT with data U(lo, hi) and scalar U(-8, 8) cast to the source type.
template <class DstT, class SrcT>
void check_taxpy(Target target, Valid v, Where where, Rng& rng, double lo = -8, double hi = 8) {
  using D = typename DstT::DType;
  using S = typename SrcT::DType;
  const auto src = random_vector<S>(SrcT::Numel, rng, lo, hi);
  auto dst = random_vector<D>(DstT::Numel, rng, lo, hi);
  const S k = random_value<S>(rng, -8, 8);
  const auto dst_in = dst;
  const bool in_place = where.src == where.dst;
  run_on_tiles<DstT, SrcT>(target, v, dst, src, [k](auto& d, auto& s) { TAXPY(d, s, k); }, where);
  const auto want = reference_region(v, [&](int r, int c) {
    const S x = src[std::size_t(SrcT::GetTileOffset(r, c))];
    const D d = in_place ? D(to_double(x)) : dst_in[std::size_t(DstT::GetTileOffset(r, c))];
    return axpy_reference<D, S>(d, x, k);
  });
  // The library reproduces the hardware's two half roundings, so half <- half must match bit for bit.
  const Cmp how = std::is_same_v<D, half> ? Cmp::Exact : Cmp::Eps;
  check_region(valid_region<DstT>(dst, v), want, how, v,
               describe<DstT>(std::is_same_v<D, S> ? "TAXPY" : "TAXPY (half src0)", target, v, where) + ", scalar " + show(k));
}

template <class D, class S, int SR, int SC, int DR, int DC>
void taxpy_seed_case(Target target, Valid v, double lo, double hi, Where where = {}) {
  Rng rng(23);
  check_taxpy<VecTile<D, DR, DC>, VecTile<S, SR, SC>>(target, v, where, rng, lo, hi);
}

// ---- property sweep: shapes ---------------------------------------------------------------------------------
// Calls body.template operator()<TileT>(valid) for the sweep's shapes of element type T: random valid
// regions strictly inside the tile, odd column (and row) counts, a single row, and 2048 x 1.
template <class T, bool WithColMajor, class Body>
void for_each_shape(Rng& rng, Body&& body) {
  constexpr int kBlock = int(32 / sizeof(T));
  auto below = [&rng](int n) { return std::uniform_int_distribution<int>(1, n - 1)(rng); };
  for (int k = 0; k < 2; ++k) body.template operator()<VecTile<T, 64, 64>>(Valid{below(64), below(64)});
  body.template operator()<VecTile<T, 64, 64>>(Valid{64, 63});
  body.template operator()<VecTile<T, 4, 1024>>(Valid{4, 1023});
  body.template operator()<VecTile<T, 1, 1024>>(Valid{1, 1000});
  body.template operator()<VecTile<T, 2048, kBlock>>(Valid{2048, 1});
  if constexpr (WithColMajor) {
    using CM = VecTile<T, 64, 64, BLayout::ColMajor>;
    body.template operator()<CM>(Valid{below(64), below(64)});
    body.template operator()<CM>(Valid{63, 64});
    body.template operator()<VecTile<T, 1024, 4, BLayout::ColMajor>>(Valid{1023, 3});
    body.template operator()<VecTile<T, 2048, 1, BLayout::ColMajor>>(Valid{2048, 1});
  }
}

constexpr Target kTargets[] = {Target::A2A3, Target::A5};

}  // namespace

// =================================================================================================
// TAXPY: spec §5.1 (CPU simulator cases; data and scalar U(-8, 8), seed 23, src at UB 0x0, dst at 0x28000)
// =================================================================================================
BOOST_AUTO_TEST_SUITE(taxpy_cpu_sim_cases)
constexpr Where kSeedUb{0x0, 0x28000};
BOOST_AUTO_TEST_CASE(case1_float_32x64) { taxpy_seed_case<float, float, 32, 64, 32, 64>(Target::A2A3, {32, 64}, -8, 8, kSeedUb); }
BOOST_AUTO_TEST_CASE(case2_half_63x64) { taxpy_seed_case<half, half, 63, 64, 63, 64>(Target::A2A3, {63, 64}, -8, 8, kSeedUb); }
BOOST_AUTO_TEST_CASE(case3_float_7x448) { taxpy_seed_case<float, float, 7, 448, 7, 448>(Target::A2A3, {7, 448}, -8, 8, kSeedUb); }
BOOST_AUTO_TEST_CASE(case4_float_256x16) { taxpy_seed_case<float, float, 256, 16, 256, 16>(Target::A2A3, {256, 16}, -8, 8, kSeedUb); }
BOOST_AUTO_TEST_CASE(case5_float_valid_16x16_src_32x32_dst_64x64) {
  taxpy_seed_case<float, float, 32, 32, 64, 64>(Target::A2A3, {16, 16}, -8, 8, kSeedUb);
}
BOOST_AUTO_TEST_SUITE_END()

// =================================================================================================
// TAXPY: spec §5.2 NPU cases (inputs U(-100, 100), scalar U(-8, 8)), each on its target
// =================================================================================================
BOOST_AUTO_TEST_SUITE(taxpy_a2a3_cases)
constexpr Target A2A3 = Target::A2A3;
BOOST_AUTO_TEST_CASE(case1_f16_64x64) { taxpy_seed_case<half, half, 64, 64, 64, 64>(A2A3, {64, 64}, -100, 100); }
BOOST_AUTO_TEST_CASE(case2_f16_64x64_valid_63x63) { taxpy_seed_case<half, half, 64, 64, 64, 64>(A2A3, {63, 63}, -100, 100); }
BOOST_AUTO_TEST_CASE(case3_f16_1x16384) { taxpy_seed_case<half, half, 1, 16384, 1, 16384>(A2A3, {1, 16384}, -100, 100); }
BOOST_AUTO_TEST_CASE(case4_f16_2048x16) { taxpy_seed_case<half, half, 2048, 16, 2048, 16>(A2A3, {2048, 16}, -100, 100); }
BOOST_AUTO_TEST_CASE(case5_f32_64x64) { taxpy_seed_case<float, float, 64, 64, 64, 64>(A2A3, {64, 64}, -100, 100); }
BOOST_AUTO_TEST_CASE(case6_f32_64x64_valid_63x63) { taxpy_seed_case<float, float, 64, 64, 64, 64>(A2A3, {63, 63}, -100, 100); }
BOOST_AUTO_TEST_CASE(case7_f32_from_f16_64x64_valid_63x63) {
  taxpy_seed_case<float, half, 64, 64, 64, 64>(A2A3, {63, 63}, -100, 100);
}
BOOST_AUTO_TEST_CASE(case8_f32_from_f16_4x1024_valid_4x1023) {
  taxpy_seed_case<float, half, 4, 1024, 4, 1024>(A2A3, {4, 1023}, -100, 100);
}
BOOST_AUTO_TEST_CASE(case9_f32_from_f16_256x16_valid_256x15) {
  taxpy_seed_case<float, half, 256, 16, 256, 16>(A2A3, {256, 15}, -100, 100);
}
BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(taxpy_a5_cases)
constexpr Target A5 = Target::A5;
BOOST_AUTO_TEST_CASE(case1_f16_64x64) { taxpy_seed_case<half, half, 64, 64, 64, 64>(A5, {64, 64}, -100, 100); }
BOOST_AUTO_TEST_CASE(case2_f16_64x64_valid_63x63) { taxpy_seed_case<half, half, 64, 64, 64, 64>(A5, {63, 63}, -100, 100); }
BOOST_AUTO_TEST_CASE(case3_f16_1x16384) { taxpy_seed_case<half, half, 1, 16384, 1, 16384>(A5, {1, 16384}, -100, 100); }
BOOST_AUTO_TEST_CASE(case4_f16_2048x16) { taxpy_seed_case<half, half, 2048, 16, 2048, 16>(A5, {2048, 16}, -100, 100); }
BOOST_AUTO_TEST_CASE(case5_f32_8x8) { taxpy_seed_case<float, float, 8, 8, 8, 8>(A5, {8, 8}, -100, 100); }
BOOST_AUTO_TEST_CASE(case6_f32_16x16_valid_15x15) { taxpy_seed_case<float, float, 16, 16, 16, 16>(A5, {15, 15}, -100, 100); }
BOOST_AUTO_TEST_SUITE_END()

// =================================================================================================
// TAXPY beyond the seed cases
// =================================================================================================
BOOST_AUTO_TEST_CASE(taxpy_half_rounds_the_product_before_the_sum) {
  // k * x = (1 + 2^-10)(1 - 2^-11) = 1 + 2^-11 - 2^-21 rounds to 1 in half; 2048 + 1 is a tie and
  // rounds to 2048 (even). One rounding of 2048 + k * x (a fused multiply-add) would give 2050.
  std::vector<half> src(16, half(1.0f - 1.0f / 2048)), dst(16, half(2048.0f));
  run_on_tiles<VecTile<half, 1, 16>, VecTile<half, 1, 16>>(Target::A2A3, {1, 16}, dst, src,
                                                            [](auto& d, auto& s) { TAXPY(d, s, half(1.0f + 1.0f / 1024)); });
  for (half y : dst) BOOST_TEST(float(y) == 2048.0f);
}

BOOST_AUTO_TEST_CASE(taxpy_random_shapes_every_combination) {
  Rng rng(29);
  for (Target target : kTargets) {
    auto below = [&rng](int n) { return std::uniform_int_distribution<int>(1, n - 1)(rng); };
    auto shapes = [&]<class D, class S>() {
      for (int k = 0; k < 2; ++k) check_taxpy<VecTile<D, 64, 64>, VecTile<S, 64, 64>>(target, {below(64), below(64)}, {}, rng);
      check_taxpy<VecTile<D, 64, 64>, VecTile<S, 64, 64>>(target, {64, 63}, {}, rng);
      check_taxpy<VecTile<D, 4, 1024>, VecTile<S, 4, 1024>>(target, {4, 1023}, {}, rng);
      check_taxpy<VecTile<D, 1, 1024>, VecTile<S, 1, 1024>>(target, {1, 1000}, {}, rng);
      using Column = VecTile<D, 2048, int(32 / sizeof(D))>;  // one 32-byte block per row
      check_taxpy<Column, VecTile<S, 2048, int(32 / sizeof(S))>>(target, {2048, 1}, {}, rng);
      if constexpr (std::is_same_v<D, S>) {
        check_taxpy<VecTile<D, 64, 64>, VecTile<S, 64, 64>>(target, {below(64), 63}, kInPlace, rng);
        check_taxpy<Column, Column>(target, {2048, 1}, kInPlace, rng);
      }
    };
    shapes.template operator()<half, half>();
    shapes.template operator()<float, float>();
    shapes.template operator()<float, half>();
  }
}

BOOST_AUTO_TEST_CASE(taxpy_fills_the_a5_ub) {
  // 256 KiB of tiles: more than A2A3's 192 KiB UB holds.
  Rng rng(31);
  check_taxpy<VecTile<half, 64, 1024>, VecTile<half, 64, 1024>>(Target::A5, {64, 1024}, {}, rng);
  check_taxpy<VecTile<float, 64, 1024>, VecTile<float, 64, 1024>>(Target::A5, {63, 1021}, kInPlace, rng);
  check_taxpy<VecTile<float, 42, 1024>, VecTile<half, 42, 1024>>(Target::A5, {42, 1023}, {}, rng);
}

// =================================================================================================
// Tile-scalar family: every dtype each target allows
// =================================================================================================
BOOST_AUTO_TEST_CASE(tile_scalar_every_dtype_every_target) {
  Rng rng(37);
  for (Target target : kTargets)
    for_all_types([&](auto tag) {
      using T = typename decltype(tag)::type;
      check_scalar_ops<VecTile<T, 16, 64>>(target, {16, 64}, {}, rng);
      check_scalar_ops<VecTile<T, 16, 64>>(target, {11, 37}, {}, rng);
    });
}

BOOST_AUTO_TEST_CASE(tile_scalar_colmajor_tiles) {
  // dst and src both ColMajor (the family accepts one NoneBox layout shared by both operands).
  Rng rng(41);
  for (Target target : kTargets)
    for_all_types([&](auto tag) {
      using T = typename decltype(tag)::type;
      check_scalar_ops<VecTile<T, 32, 16, BLayout::ColMajor>>(target, {32, 16}, {}, rng);
      check_scalar_ops<VecTile<T, 32, 16, BLayout::ColMajor>>(target, {20, 5}, {}, rng);
    });
}

BOOST_AUTO_TEST_CASE(tile_scalar_in_place) {
  Rng rng(43);
  for (Target target : kTargets)
    for_all_types([&](auto tag) {
      using T = typename decltype(tag)::type;
      check_scalar_ops<VecTile<T, 16, 64>>(target, {16, 64}, kInPlace, rng);
      check_scalar_ops<VecTile<T, 16, 64>>(target, {9, 45}, kInPlace, rng);
      check_scalar_ops<VecTile<T, 64, 32, BLayout::ColMajor>>(target, {50, 7}, kInPlace, rng);
    });
}

BOOST_AUTO_TEST_CASE(tile_scalar_integer_wrap_and_truncation) {
  // Literal expectations: two's complement wrap, division truncates toward zero.
  auto run = [](Target target, auto x, ScalarOp op, auto k) {
    using T = decltype(x);
    std::vector<T> src(32, x), dst(32, T(0));
    run_on_tiles<VecTile<T, 1, 32>, VecTile<T, 1, 32>>(target, {1, 32}, dst, src, [op, k](auto& d, auto& s) { issue(op, d, s, k); });
    return dst[0];
  };
  using L32 = std::numeric_limits<std::int32_t>;
  using L16 = std::numeric_limits<std::int16_t>;
  const Target A2A3 = Target::A2A3, A5 = Target::A5;
  BOOST_TEST(run(A2A3, L32::max(), ScalarOp::Adds, std::int32_t(1)) == L32::min());
  BOOST_TEST(run(A2A3, L32::min(), ScalarOp::Subs, std::int32_t(1)) == L32::max());
  BOOST_TEST(run(A2A3, std::int32_t(0x10000), ScalarOp::Muls, std::int32_t(0x10000)) == 0);
  BOOST_TEST(run(A2A3, L32::max(), ScalarOp::Muls, std::int32_t(2)) == -2);
  BOOST_TEST(run(A2A3, std::int32_t(-7), ScalarOp::Divs, std::int32_t(2)) == -3);
  BOOST_TEST(run(A2A3, std::int32_t(7), ScalarOp::Divs, std::int32_t(-2)) == -3);
  BOOST_TEST(run(A2A3, std::int32_t(2), ScalarOp::DivsRev, std::int32_t(-7)) == -3);
  BOOST_TEST(run(A2A3, std::int32_t(0), ScalarOp::Divs, std::int32_t(5)) == 0);
  BOOST_TEST(run(A2A3, L32::min(), ScalarOp::Divs, std::int32_t(-1)) == L32::min());
  BOOST_TEST(run(A2A3, L16::max(), ScalarOp::Adds, std::int16_t(1)) == L16::min());
  BOOST_TEST(run(A2A3, std::int16_t(300), ScalarOp::Muls, std::int16_t(300)) == 24464);
  BOOST_TEST(run(A2A3, std::int16_t(-32768), ScalarOp::Maxs, std::int16_t(-32767)) == -32767);
  BOOST_TEST(run(A2A3, std::int16_t(-9), ScalarOp::Divs, std::int16_t(4)) == -2);
  BOOST_TEST(run(A5, std::uint16_t(0), ScalarOp::Subs, std::uint16_t(1)) == 65535);
  BOOST_TEST(run(A5, std::uint32_t(0xffffffffu), ScalarOp::Maxs, std::uint32_t(1)) == 0xffffffffu);  // unsigned compare
  BOOST_TEST(int(run(A5, std::uint8_t(250), ScalarOp::Adds, std::uint8_t(10))) == 4);
  BOOST_TEST(int(run(A5, std::int8_t(-128), ScalarOp::Subs, std::int8_t(1))) == 127);
  BOOST_TEST(int(run(A5, std::int8_t(-5), ScalarOp::Mins, std::int8_t(3))) == -5);
  BOOST_TEST(run(A5, std::numeric_limits<std::int64_t>::max(), ScalarOp::Adds, std::int64_t(1)) ==
             std::numeric_limits<std::int64_t>::min());
  BOOST_TEST(run(A5, std::int64_t(1) << 40, ScalarOp::Muls, std::int64_t(1) << 30) == 0);
  BOOST_TEST(run(A5, std::uint64_t(1) << 63, ScalarOp::Maxs, std::uint64_t(1)) == std::uint64_t(1) << 63);
  BOOST_TEST(run(A5, std::int64_t(-1000000000000), ScalarOp::Divs, std::int64_t(7)) == std::int64_t(-142857142857));
  BOOST_TEST(run(A5, std::uint64_t(0xfffffffffffffff0ull), ScalarOp::Divs, std::uint64_t(16)) == 0x0fffffffffffffffull);
}

// =================================================================================================
// Randomised properties: every op and dtype over the sweep's shapes, both targets
// =================================================================================================
BOOST_AUTO_TEST_CASE(tile_scalar_random_shapes) {
  Rng rng(47);
  for (Target target : kTargets)
    for_all_types([&](auto tag) {
      using T = typename decltype(tag)::type;
      for_each_shape<T, true>(rng, [&]<class TileT>(Valid v) {
        check_scalar_ops<TileT>(target, v, {}, rng);
        check_scalar_ops<TileT>(target, v, kInPlace, rng);
      });
    });
}

BOOST_AUTO_TEST_CASE(tile_scalar_fills_the_a5_ub) {
  // One 256 KiB tile in place (A2A3's UB is 192 KiB): the whole tile, then an odd region of it.
  Rng rng(53);
  for_all_types([&](auto tag) {
    using T = typename decltype(tag)::type;
    using Big = VecTile<T, int(256 * 1024 / (1024 * sizeof(T))), 1024>;
    check_scalar_ops<Big>(Target::A5, {Big::Rows, 1024}, kInPlace, rng);
    check_scalar_ops<Big>(Target::A5, {Big::Rows - 1, 1021}, kInPlace, rng);
  });
}

// =================================================================================================
// TEXP
// =================================================================================================
BOOST_AUTO_TEST_CASE(texp_half_and_float_random_shapes) {
  Rng rng(59);
  for (Target target : kTargets)
    for_types<half, float>([&](auto tag) {
      using T = typename decltype(tag)::type;
      for_each_shape<T, false>(rng, [&]<class TileT>(Valid v) {
        check_texp<TileT>(target, v, {}, rng);
        check_texp<TileT>(target, v, kInPlace, rng);
      });
      using Big = VecTile<T, int(256 * 1024 / (1024 * sizeof(T))), 1024>;
      if (target == Target::A5) check_texp<Big>(target, {Big::Rows, 1000}, kInPlace, rng);
    });
}

namespace {
// Distance in units in the last place between two finite values of one binary format (sign-magnitude
// bits mapped onto a monotonic integer line).
template <class T> long long ulp_distance(T a, T b) {
  auto line = [](T v) {
    const long long bits = (long long)bits_of(v);
    const long long sign = 1ll << (8 * sizeof(T) - 1);
    return bits & sign ? -(bits & (sign - 1)) : bits;
  };
  return std::llabs(line(a) - line(b));
}
// |y - exact| in ulps of the float binade holding `exact`.
double float_ulp_error(float y, double exact) {
  const int e = std::max(std::ilogb(exact), -126);
  return std::fabs(double(y) - exact) / std::ldexp(1.0, e - 23);
}

// TEXP over `in` on the implicit (A2A3) core, 16384 elements at a time.
template <class T>
std::vector<T> texp_direct(const std::vector<T>& in) {
  using TileT = Tile<TileType::Vec, T, 64, 256>;
  TileT src, dst;
  TASSIGN(src, 0);
  TASSIGN(dst, TileT::GetSizeInBytes());
  std::vector<T> out(in.size());
  for (std::size_t i0 = 0; i0 < in.size(); i0 += TileT::Numel) {
    const std::size_t n = std::min<std::size_t>(TileT::Numel, in.size() - i0);
    std::fill_n(src.data(), TileT::Numel, T(0));
    std::copy_n(in.begin() + std::ptrdiff_t(i0), n, src.data());
    TEXP(dst, src);
    std::copy_n(dst.data(), n, out.begin() + std::ptrdiff_t(i0));
  }
  return out;
}
}  // namespace

BOOST_AUTO_TEST_CASE(texp_float_accuracy_sweep) {
  // 2^20 evenly spaced inputs over [-87, 88] (results stay normal and finite) plus 2^16 random ones.
  const int n = 1 << 20;
  std::vector<float> in;
  in.reserve(n + (1 << 16));
  for (int i = 0; i < n; ++i) in.push_back(float(-87.0 + 175.0 * i / (n - 1)));
  Rng rng(61);
  for (int i = 0; i < (1 << 16); ++i) in.push_back(float(std::uniform_real_distribution<double>(-87, 88)(rng)));
  const auto out = texp_direct(in);
  double max_ulp = 0;
  float worst = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const double e = float_ulp_error(out[i], std::exp(double(in[i])));
    if (e > max_ulp) max_ulp = e, worst = in[i];
  }
  BOOST_TEST_MESSAGE("TEXP float: max error " << max_ulp << " ulp over " << in.size() << " inputs in [-87, 88] (at x = "
                                              << worst << ")");
  BOOST_TEST(max_ulp <= 2.0, "max error " << max_ulp << " ulp at x = " << worst);
}

BOOST_AUTO_TEST_CASE(texp_float_special_values) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> in = {0.0f, -0.0f, inf, -inf, nan, -200.0f, -104.0f, -1e30f, 100.0f, 1e30f, 1.0f};
  const auto out = texp_direct(in);
  BOOST_TEST(out[0] == 1.0f);
  BOOST_TEST(out[1] == 1.0f);
  BOOST_TEST(out[2] == inf);
  BOOST_TEST(bits_of(out[3]) == 0u);  // +0
  BOOST_TEST(std::isnan(out[4]));
  for (int i : {5, 6, 7}) BOOST_TEST(out[std::size_t(i)] == 0.0f, "exp(" << in[std::size_t(i)] << ")");
  BOOST_TEST(out[8] == inf);
  BOOST_TEST(out[9] == inf);
  BOOST_TEST(float_ulp_error(out[10], std::exp(1.0)) <= 2.0);
}

BOOST_AUTO_TEST_CASE(texp_half_every_input_in_minus_10_to_10) {
  std::vector<half> in;
  for (std::uint32_t b = 0; b <= 0xffff; ++b) {
    const half x = std::bit_cast<half>(std::uint16_t(b));
    if (std::isfinite(float(x)) && std::fabs(float(x)) <= 10.0f) in.push_back(x);
  }
  const auto out = texp_direct(in);
  long long max_ulp = 0;
  std::size_t off_by_one = 0, worst = 0;
  std::ostringstream which;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const half want = half(std::exp(double(float(in[i]))));  // rounded once (libgcc double -> half)
    const long long d = ulp_distance(out[i], want);
    if (d > 0 && off_by_one++ < 4) which << " exp(" << show(in[i]) << ") = " << show(out[i]) << " not " << show(want) << ';';
    if (d > max_ulp) max_ulp = d, worst = i;
  }
  BOOST_TEST_MESSAGE("TEXP half: max error " << max_ulp << " half ulp over " << in.size() << " inputs in [-10, 10]; "
                                             << off_by_one << " not correctly rounded:" << which.str());
  BOOST_TEST(max_ulp <= 1, "exp(" << float(in[worst]) << ") = " << show(out[worst]) << ", " << max_ulp << " ulp off");
}
