// isa/: element types, Tile properties and offsets, Shape/Stride/GlobalTensor and the 5-D index map.
#define BOOST_TEST_MODULE isa
#include <boost/test/unit_test.hpp>

#include <bit>
#include <cmath>
#include <cstring>

#include <pto/isa/soft_half.hpp>  // tested directly, whatever half is here
#include <pto/pto-inst.hpp>

using namespace pto;

// ---- element types ---------------------------------------------------------------------------------

// Independent bf16 rounding: the nearest bf16 value by exhaustive comparison of the two neighbours.
static std::uint16_t bf16_reference(float f) {
  std::uint32_t u = std::bit_cast<std::uint32_t>(f);
  std::uint16_t lo = std::uint16_t(u >> 16), hi = std::uint16_t(lo + 1);
  double vlo = std::bit_cast<float>(std::uint32_t(lo) << 16), vhi = std::bit_cast<float>(std::uint32_t(hi) << 16);
  double dlo = std::fabs(double(f) - vlo), dhi = std::fabs(double(f) - vhi);
  if (dlo < dhi) return lo;
  if (dhi < dlo) return hi;
  return (lo & 1) ? hi : lo;  // tie: even mantissa
}

BOOST_AUTO_TEST_CASE(bfloat16_rounds_to_nearest_even) {
  std::uint32_t state = 12345;
  for (int i = 0; i < 200000; ++i) {
    state = state * 1664525u + 1013904223u;
    float f = std::bit_cast<float>((state & 0x7effffffu) | (i & 1 ? 0x80000000u : 0));  // finite values
    BOOST_TEST_REQUIRE(bfloat16_t(f).bits == bf16_reference(f), "f = " << f);
  }
  // Exact ties: 1 + 2^-8 lies halfway between 1 and 1 + 2^-7; even is 1.
  BOOST_TEST(float(bfloat16_t(1.0f + 0x1p-8f)) == 1.0f);
  BOOST_TEST(float(bfloat16_t(1.0f + 3 * 0x1p-8f)) == 1.0f + 0x1p-6f);
  BOOST_TEST(std::isnan(float(bfloat16_t(std::nanf("")))));
  BOOST_TEST(std::isinf(float(bfloat16_t(3.0e38f * 10.0f))));
  BOOST_TEST(bfloat16_t(3.3999e38f).bits == 0x7f80);  // beyond max + half an ulp: overflows to +inf
  BOOST_TEST(bfloat16_t(3.3895e38f).bits == 0x7f7f);  // the largest finite bf16
}

BOOST_AUTO_TEST_CASE(half_is_fp16_with_per_operation_rounding) {
  static_assert(sizeof(half) == 2 && std::is_same_v<aclFloat16, half>);
  half a = half(1.0f), b = half(0x1p-11f);  // b is half an ulp of 1
  BOOST_TEST(float(a + b) == 1.0f);          // rounds to even
  BOOST_TEST(float(half(65504.0f)) == 65504.0f);
  BOOST_TEST(aclFloat16ToFloat(aclFloat16(0.5f)) == 0.5f);
}

// Independent fp16 rounding of a double: the nearer of the two neighbouring fp16 values, found by
// bisection over the positive encodings (ordered as their values); a tie goes to the even encoding.
static double f16_value(unsigned b) {  // b <= 0x7c00 (0x7c00 decodes as 2^16: the next binade's start)
  const unsigned e = b >> 10, m = b & 0x3ffu;
  return e == 0 ? std::ldexp(double(m), -24) : std::ldexp(double(1024 + m), int(e) - 25);
}
static std::uint16_t f16_reference(double x) {
  if (std::isnan(x)) return 0x7e00;
  const unsigned sign = std::signbit(x) ? 0x8000u : 0u;
  x = std::fabs(x);
  if (x >= 65520.0) return std::uint16_t(sign | 0x7c00u);  // max + half an ulp (a tie, odd max) and beyond: inf
  unsigned lo = 0, hi = 0x7bff;  // the largest encoding whose value is at most x
  while (lo < hi) {
    const unsigned mid = (lo + hi + 1) / 2;
    if (f16_value(mid) <= x) lo = mid;
    else hi = mid - 1;
  }
  const double below = x - f16_value(lo), above = f16_value(lo + 1) - x;
  return std::uint16_t(sign | (above < below || (above == below && (lo & 1u)) ? lo + 1 : lo));
}
static bool same_f16(std::uint16_t got, std::uint16_t want) {  // any NaN matches a NaN
  const bool nan_got = (got & 0x7fffu) > 0x7c00u, nan_want = (want & 0x7fffu) > 0x7c00u;
  return nan_got || nan_want ? nan_got == nan_want : got == want;
}

// soft_half (half with clang 14) and half (whatever it is here) against the reference: every
// conversion and + - * / rounds once to nearest even, as IEEE binary16 does. Each exact operation in
// double, then rounded once (double's 53 bits make the quotient's double rounding harmless).
template <class H>
void check_fp16_rounding() {
  static_assert(sizeof(H) == 2 && std::is_trivially_copyable_v<H>);
  static_assert(std::is_same_v<decltype(H{} + 1), H> && std::is_same_v<decltype(H{} * 1.0f), float> &&
                std::is_same_v<decltype(H{} - 1.0), double>);  // mixed operands: _Float16's usual conversions
  auto bits = [](H h) { return std::bit_cast<std::uint16_t>(h); };
  auto from = [](unsigned b) { return std::bit_cast<H>(std::uint16_t(b)); };
  std::uint32_t state = 2024;
  for (unsigned a = 0; a < 0x10000u; ++a) {
    const H x = from(a);
    const double dx = double(float(x));
    for (int k = 0; k < 24; ++k) {
      state = state * 1664525u + 1013904223u;
      const H y = from(state >> 16);
      const double dy = double(float(y));
      BOOST_TEST_REQUIRE(same_f16(bits(x + y), f16_reference(dx + dy)), a << " + " << (state >> 16));
      BOOST_TEST_REQUIRE(same_f16(bits(x - y), f16_reference(dx - dy)), a << " - " << (state >> 16));
      BOOST_TEST_REQUIRE(same_f16(bits(x * y), f16_reference(dx * dy)), a << " * " << (state >> 16));
      BOOST_TEST_REQUIRE(same_f16(bits(x / y), f16_reference(dx / dy)), a << " / " << (state >> 16));
      BOOST_TEST_REQUIRE((x < y) == (dx < dy));
      BOOST_TEST_REQUIRE((x == y) == (dx == dy));
    }
  }
  // Conversions from double at and around every tie: a double is not first rounded to float (that
  // could make a tie that is not there: 1 + 2^-11 + 2^-40 must round up).
  BOOST_TEST(bits(H(1.0 + 0x1p-11 + 0x1p-40)) == 0x3c01);
  for (unsigned a = 0; a < 0x7c00u; ++a) {
    const double tie = (f16_value(a) + f16_value(a + 1)) / 2;
    for (double d : {tie, std::nextafter(tie, 0.0), std::nextafter(tie, 1e6), tie * (1 + 0x1p-30), tie * (1 - 0x1p-30)})
      for (double v : {d, -d}) {
        BOOST_TEST_REQUIRE(bits(H(v)) == f16_reference(v), "double " << v);
        BOOST_TEST_REQUIRE(bits(H(float(v))) == f16_reference(double(float(v))), "float " << v);
      }
  }
  for (int i = -70000; i <= 70000; ++i) BOOST_TEST_REQUIRE(bits(H(i)) == f16_reference(double(i)), "int " << i);
  BOOST_TEST(bits(H(std::int64_t(1) << 40)) == 0x7c00);
  BOOST_TEST(bits(-H(0.0f)) == 0x8000);
  BOOST_TEST(std::isnan(float(H(std::nan("")))));
}

BOOST_AUTO_TEST_CASE(soft_half_and_half_round_like_binary16) {
  check_fp16_rounding<soft_half>();
  check_fp16_rounding<half>();
}

BOOST_AUTO_TEST_CASE(dtype_tags_and_sizes) {
  BOOST_TEST(int(dtype_v<half>) == int(DType::F16));
  BOOST_TEST(int(dtype_v<bfloat16_t>) == int(DType::BF16));
  BOOST_TEST(int(dtype_v<std::uint64_t>) == int(DType::U64));
  BOOST_TEST(size_of(DType::I8) == 1u);
  BOOST_TEST(size_of(DType::BF16) == 2u);
  BOOST_TEST(size_of(DType::U64) == 8u);
}

// ---- Tile ------------------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(tile_static_members_follow_pto_parameter_order) {
  using T = Tile<TileType::Vec, float, 16, 64, BLayout::RowMajor, 8, -1>;
  static_assert(T::Rows == 16 && T::Cols == 64 && T::ValidRow == 8 && T::ValidCol == -1);
  static_assert(T::RowStride == 64 && T::ColStride == 1 && T::Numel == 1024 && T::isRowMajor);
  static_assert(T::GetValidRow() == 8);
  T t(40u);  // row static, col dynamic
  BOOST_TEST(t.GetValidCol() == 40);
  using C = Tile<TileType::Vec, float, 32, 1, BLayout::ColMajor, -1, 1>;
  static_assert(C::RowStride == 1 && C::ColStride == 32 && !C::isRowMajor);
  C c(20u);
  BOOST_TEST(c.GetValidRow() == 20);
  BOOST_TEST(C::GetTileOffset(5, 0) == 5);
}

BOOST_AUTO_TEST_CASE(tile_dynamic_valid_shape) {
  Tile<TileType::Vec, half, 32, 64, BLayout::RowMajor, -1, -1> t(17, 33);
  BOOST_TEST(t.GetValidRow() == 17);
  BOOST_TEST(t.GetValidCol() == 33);
  t.SetValidShape(32, 64);
  BOOST_TEST(t.GetValidRow() == 32);
  BOOST_TEST(t.view().valid_cols == 64);
}

BOOST_AUTO_TEST_CASE(tile_boxed_offsets_match_spec_formulas) {
  // NZ: ColMajor outer, RowMajor inner, 16 x (32/sizeof) boxes.
  using NZ = Tile<TileType::Mat, half, 32, 32, BLayout::ColMajor, 32, 32, SLayout::RowMajor>;
  static_assert(NZ::InnerRows == 16 && NZ::InnerCols == 16);
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c) {
      int expect = ((c / 16) * 2 + r / 16) * 256 + (r % 16) * 16 + c % 16;
      BOOST_TEST_REQUIRE(NZ::GetTileOffset(r, c) == expect);
    }
  // ZZ: RowMajor outer and inner.
  using ZZ = Tile<TileType::Mat, float, 32, 16, BLayout::RowMajor, 32, 16, SLayout::RowMajor>;
  static_assert(ZZ::InnerRows == 16 && ZZ::InnerCols == 8);
  BOOST_TEST(ZZ::GetTileOffset(17, 9) == (1 * 2 + 1) * 128 + 1 * 8 + 1);
}

BOOST_AUTO_TEST_CASE(set_valid_beyond_capacity_is_an_error) {
  Tile<TileType::Vec, float, 16, 16, BLayout::RowMajor, -1, -1> t(16, 16);
  BOOST_CHECK_EXCEPTION(t.SetValidRow(17), Error, [](const Error& e) {
    return std::string(e.what()) == "Tile::SetValidRow: valid rows 17 exceed the tile's Rows 16";
  });
  BOOST_CHECK_EXCEPTION((Tile<TileType::Vec, float, 16, 16, BLayout::RowMajor, -1, -1>(4, 20)), Error,
                        [](const Error& e) { return std::string(e.what()).find("valid cols 20 exceed the tile's Cols 16") != std::string::npos; });
}

// ---- Shape / Stride / GlobalTensor -------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(shape_fills_dynamic_dims_left_to_right) {
  Shape<1, -1, 1, -1, 8> s(3, 5);
  BOOST_TEST(s[0] == 1);
  BOOST_TEST(s[1] == 3);
  BOOST_TEST(s[3] == 5);
  BOOST_TEST(s[4] == 8);
  Shape<1, -1, 1, -1, 8> all(9, 3, 9, 5, 9);  // five values: static ones ignored
  BOOST_TEST(all[1] == 3);
  BOOST_TEST(all[3] == 5);
  BOOST_TEST(all[4] == 8);
  Shape<-1, -1, -1, -1, -1> none;
  for (int k = 0; k < 5; ++k) BOOST_TEST(none[k] == 1);
}

// Reference for the ND map, written from spec §1.4 independently of GmView::map.
static long nd_offset(const long s[5], const long st[5], long r, long c) {
  long i3 = r % s[3], i2 = (r / s[3]) % s[2], i1 = (r / (s[3] * s[2])) % s[1], i0 = r / (s[3] * s[2] * s[1]);
  return i0 * st[0] + i1 * st[1] + i2 * st[2] + i3 * st[3] + c * st[4];
}
static long dn_offset(const long s[5], const long st[5], long r, long c) {
  long i4 = c % s[4], i2 = (c / s[4]) % s[2], i1 = (c / (s[4] * s[2])) % s[1], i0 = c / (s[4] * s[2] * s[1]);
  return i0 * st[0] + i1 * st[1] + i2 * st[2] + r * st[3] + i4 * st[4];
}

BOOST_AUTO_TEST_CASE(global_tensor_nd_maps_rows_over_four_dims) {
  float* base = reinterpret_cast<float*>(0x1000);
  const long s[5] = {2, 3, 2, 4, 16}, st[5] = {4096, 1024, 256, 32, 1};
  GlobalTensor<float, Shape<-1, -1, -1, -1, -1>, pto::Stride<-1, -1, -1, -1, -1>> g(
      base, {s[0], s[1], s[2], s[3], s[4]}, {st[0], st[1], st[2], st[3], st[4]});
  BOOST_TEST(g.view().tile_rows() == 48);
  BOOST_TEST(g.view().tile_cols() == 16);
  for (long r = 0; r < 48; ++r)
    for (long c = 0; c < 16; ++c) BOOST_TEST_REQUIRE(g.offset_of(r, c) == nd_offset(s, st, r, c));
}

BOOST_AUTO_TEST_CASE(global_tensor_dn_maps_cols_over_four_dims) {
  float* base = reinterpret_cast<float*>(0x1000);
  const long s[5] = {2, 1, 3, 8, 4}, st[5] = {2000, 1000, 100, 1, 10};
  GlobalTensor<float, Shape<-1, 1, -1, -1, -1>, pto::Stride<-1, -1, -1, 1, -1>, Layout::DN> g(
      base, {s[0], s[2], s[3], s[4]}, {st[0], st[1], st[2], st[4]});
  BOOST_TEST(g.GetShape(GlobalTensorDim::DIM_3) == 8);
  BOOST_TEST(g.view().tile_rows() == 8);
  BOOST_TEST(g.view().tile_cols() == 24);
  for (long r = 0; r < 8; ++r)
    for (long c = 0; c < 24; ++c) BOOST_TEST_REQUIRE(g.offset_of(r, c) == dn_offset(s, st, r, c));
}

BOOST_AUTO_TEST_CASE(op_to_pipe_table) {
  static_assert(pipe_of(Op::TLOAD) == PIPE_MTE2);
  static_assert(pipe_of(Op::TSTORE_VEC) == PIPE_MTE3);
  static_assert(pipe_of(Op::TCOLEXPANDADD) == PIPE_V);
  static_assert(pipe_of(Op::TMATMUL) == PIPE_M);
  static_assert(pipe_of(Op::TMOV_M2L) == PIPE_MTE1);
  static_assert(pipe_of(Op::TSTORE_ACC) == PIPE_FIX);
  static_assert(OpPipeEntry<Op::TEXPANDS>::pipe == PIPE_V);
  BOOST_TEST(std::string(op_name(Op::TROWEXPANDEXPDIF)) == "TROWEXPANDEXPDIF");
  BOOST_TEST(std::string(desc_of<Op::TLOAD>().operands[0].name) == "dst");
  BOOST_TEST(int(desc_of<Op::TLOAD>().operands[1].role) == int(Role::Read));
}

// Kernels write pto::Shape(1, 1, 1, rows, cols) (class template argument deduction): all dynamic.
BOOST_AUTO_TEST_CASE(shape_and_stride_deduce_dynamic_dimensions) {
  const auto s = pto::Shape(1, 1, 1, 4, 8);
  const auto t = pto::Stride(32, 32, 32, 8, 1);
  static_assert(std::is_same_v<std::remove_const_t<decltype(s)>, Shape<>>);
  static_assert(std::is_same_v<std::remove_const_t<decltype(t)>, pto::Stride<>>);
  BOOST_TEST((s[3] == 4 && s[4] == 8 && t[3] == 8 && t[4] == 1));
}
