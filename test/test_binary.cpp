// TADD, TSUB, TMUL, TDIV, TMAX, TMIN, TAND, TOR, TXOR, TSHL, TSHR: pto-isa's CPU test matrix (tests/cpu/st/testcase/t{add,sub,mul,
// div,max,min}: f32, i32, i16 64x64, f16 16x256, and TMUL's unsigned cases), every dtype each target
// allows, the device path and the CPU reference (bit-identical to each other), random valid shapes,
// in-place operands, the largest tiles that fit, the error paths, and modeled cycles.
//
// References are independent of the library: integers exactly (two's complement wrap, truncating
// division; the one overflowing quotient min / -1 wraps), floats in double rounded once to T.
#define BOOST_TEST_MODULE binary
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <pto/pto-inst.hpp>

#include "element_ref.hpp"

using namespace pto;

namespace {
enum class Bin { Add, Sub, Mul, Div, Max, Min, And, Or, Xor, Shl, Shr };
constexpr Bin kArith[] = {Bin::Add, Bin::Sub, Bin::Mul, Bin::Div, Bin::Max, Bin::Min};
constexpr Bin kOps[] = {Bin::Add, Bin::Sub, Bin::Mul, Bin::Div, Bin::Max, Bin::Min, Bin::And, Bin::Or, Bin::Xor, Bin::Shl, Bin::Shr};
const char* name(Bin op) {
  constexpr const char* n[] = {"TADD", "TSUB", "TMUL", "TDIV", "TMAX", "TMIN", "TAND", "TOR", "TXOR", "TSHL", "TSHR"};
  return n[int(op)];
}
template <class D, class A, class B, class Tmp>
void issue(Bin op, D& d, A& a, B& b, Tmp& t) {
  switch (op) {
    case Bin::And: TAND(d, a, b); break;
    case Bin::Or: TOR(d, a, b); break;
    case Bin::Xor: TXOR(d, a, b, t); break;
    case Bin::Shl: TSHL(d, a, b); break;
    case Bin::Shr: TSHR(d, a, b); break;
    case Bin::Add: TADD(d, a, b); break;
    case Bin::Sub: TSUB(d, a, b); break;
    case Bin::Mul: TMUL(d, a, b); break;
    case Bin::Div: TDIV(d, a, b); break;
    case Bin::Max: TMAX(d, a, b); break;
    case Bin::Min: TMIN(d, a, b); break;
  }
}

// The NPU headers' dtype lists (pto-isa include/pto/npu/a2a3/T*.hpp, a5/T*.hpp), written out here.
bool allowed(Bin op, DType t, Target target) {
  using D = DType;
  auto in = [t](std::initializer_list<DType> s) { return std::find(s.begin(), s.end(), t) != s.end(); };
  if (op >= Bin::And) return in({D::U8, D::I8, D::U16, D::I16, D::U32, D::I32});  // bit operations and shifts
  if (target == Target::A2A3) return op == Bin::Div ? in({D::F16, D::F32}) : in({D::I32, D::I16, D::F16, D::F32});
  if (op == Bin::Mul) return in({D::U16, D::I16, D::U32, D::I32, D::I64, D::U64, D::F16, D::F32, D::BF16});
  if (op == Bin::Div) return in({D::U16, D::I16, D::U32, D::I32, D::I64, D::U64, D::F16, D::F32});
  return in({D::U8, D::I8, D::U16, D::I16, D::U32, D::I32, D::I64, D::U64, D::F16, D::F32, D::BF16});
}

using pto_test::bits_of;
using pto_test::kFloat;
using pto_test::round_to;
using pto_test::to_double;

template <class T> T reference(Bin op, T x, T y) {
  if constexpr (kFloat<T>) {
    const double a = to_double(x), b = to_double(y);
    switch (op) {
      case Bin::Add: return round_to<T>(a + b);
      case Bin::Sub: return round_to<T>(a - b);
      case Bin::Mul: return round_to<T>(a * b);
      case Bin::Div: return round_to<T>(a / b);
      case Bin::Max: return a < b ? y : x;
      case Bin::Min: return b < a ? y : x;
      default: break;  // bit operations take integers only
    }
  } else {
    const auto ua = std::uint64_t(x), ub = std::uint64_t(y);
    switch (op) {
      case Bin::Add: return T(ua + ub);
      case Bin::Sub: return T(ua - ub);
      case Bin::Mul: return T(ua * ub);
      case Bin::Div:
        if constexpr (std::is_signed_v<T>)
          if (x == std::numeric_limits<T>::min() && y == T(-1)) return x;
        return T(x / y);
      case Bin::Max: return x < y ? y : x;
      case Bin::Min: return y < x ? y : x;
      case Bin::And: return T(ua & ub);
      case Bin::Or: return T(ua | ub);
      case Bin::Xor: return T(ua ^ ub);
      case Bin::Shl: return T(ua << ub);  // counts in [0, bits): exact in 64 bits, then wrapped to T
      case Bin::Shr:
        if constexpr (std::is_signed_v<T>) return T(std::int64_t(x) >> int(y));  // arithmetic (C++20)
        else return T(ua >> ub);
    }
  }
  return x;
}

using Rng = std::mt19937_64;
template <class T> T random_value(Rng& rng, bool divisor, bool shift = false) {
  if constexpr (std::is_integral_v<T>)
    if (shift) return T(std::uniform_int_distribution<int>(0, int(8 * sizeof(T)) - 1)(rng));
  using L = std::numeric_limits<T>;
  const int sign = std::is_signed_v<T> || kFloat<T> ? (rng() % 2 ? -1 : 1) : 1;
  if constexpr (kFloat<T>) {
    if (divisor) return T(float(sign * std::uniform_real_distribution<double>(0.5, 8)(rng)));
    return T(float(std::uniform_real_distribution<double>(-10, 10)(rng)));
  } else {
    if (divisor) return T(sign * int(std::uniform_int_distribution<int>(1, 100)(rng)));
    if constexpr (std::is_signed_v<T>) return T(std::uniform_int_distribution<long long>(L::min(), L::max())(rng));
    else return T(std::uniform_int_distribution<unsigned long long>(0, L::max())(rng));
  }
}

struct Valid {
  int rows, cols;
};
template <class T, int R, int C> using DynTile = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1>;
template <class T, int C> using Gm = GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, C, 1>>;

// Where the three tiles sit in UB; equal offsets are in-place forms (dst aliasing a source).
struct Where {
  std::size_t d, a, b;
};

// dst = a op b on `target` through a one-core manual kernel; returns dst's valid region, packed.
template <class T, int R, int C>
std::vector<T> run(Bin op, Target target, bool cpu_reference, Valid v, const std::vector<T>& a, const std::vector<T>& b,
                   Where w) {
  std::vector<T> out(static_cast<std::size_t>(R) * C), ah = a, bh = b;
  auto kernel = [=](T* o, T* pa, T* pb) {
    DynTile<T, R, C> d(v.rows, v.cols), x(v.rows, v.cols), y(v.rows, v.cols), t(v.rows, v.cols);
    TASSIGN(d, w.d);
    TASSIGN(x, w.a);
    TASSIGN(y, w.b);
    if (op == Bin::Xor) TASSIGN(t, std::max({w.d, w.a, w.b}) + std::size_t(R) * C * sizeof(T));  // TXOR's tmp, apart
    Gm<T, C> ga(pa, {v.rows, v.cols}), gb(pb, {v.rows, v.cols}), go(o, {v.rows, v.cols});
    TLOAD(x, ga);
    if (w.b != w.a) TLOAD(y, gb);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    issue(op, d, x, y, t);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, d);
  };
  launch({.target = target, .check = SyncCheck::Throw, .cpu_reference = cpu_reference}, kernel, out, ah, bh);
  std::vector<T> valid;
  for (int r = 0; r < v.rows; ++r)
    for (int c = 0; c < v.cols; ++c) valid.push_back(out[std::size_t(r) * C + c]);
  return valid;
}

// One case on both backends: the device path matches the reference bit for bit (16-bit floats compute
// in float and round once to T: float's 24 bits make that the correctly rounded result, 24 >= 2 * 11 + 2)
// and the CPU reference is bit-identical to it.
template <class T, int R, int C>
void check(Bin op, Target target, Valid v, Where w, unsigned seed) {
  Rng rng(seed);
  std::vector<T> a(static_cast<std::size_t>(R) * C), b(a.size());
  for (auto& x : a) x = random_value<T>(rng, false);
  for (auto& x : b) x = random_value<T>(rng, op == Bin::Div, op == Bin::Shl || op == Bin::Shr);
  if (w.b == w.a) b = a;  // src0 and src1 are one tile
  const std::vector<T> dev = run<T, R, C>(op, target, false, v, a, b, w);
  const std::vector<T> cpu = run<T, R, C>(op, target, true, v, a, b, w);
  const std::string what = std::string(name(op)) + " " + name_of(dtype_v<T>) + " " + std::to_string(R) + "x" +
                           std::to_string(C) + " valid " + std::to_string(v.rows) + "x" + std::to_string(v.cols) + " on " +
                           name_of(target);
  std::size_t bad = 0, differ = 0;
  for (int r = 0; r < v.rows; ++r)
    for (int c = 0; c < v.cols; ++c) {
      const std::size_t k = std::size_t(r) * v.cols + std::size_t(c), src = std::size_t(r) * C + std::size_t(c);
      const T want = reference(op, a[src], b[src]);
      const bool ok = bits_of(dev[k]) == bits_of(want);
      if (!ok && bad++ == 0)
        BOOST_ERROR(what << ": element (" << r << ", " << c << ") is " << to_double(dev[k]) << ", want " << to_double(want));
      if (bits_of(dev[k]) != bits_of(cpu[k])) ++differ;
    }
  BOOST_TEST(bad == 0u, what << ": " << bad << " wrong elements");
  BOOST_TEST(differ == 0u, what << ": device path and CPU reference differ in " << differ << " elements");
}

template <class T, int R, int C>
void check_all_ops(Target target, Valid v, unsigned seed) {
  const std::size_t bytes = std::size_t(R) * C * sizeof(T);
  for (Bin op : kOps)
    if (allowed(op, dtype_v<T>, target)) check<T, R, C>(op, target, v, {2 * bytes, 0, bytes}, seed + unsigned(op));
}
}  // namespace

// pto-isa tests/cpu/st/testcase/t{add,sub,mul,div,max,min}: valid = tile, on both targets.
BOOST_AUTO_TEST_CASE(the_reference_test_matrix_on_both_targets) {
  for (Target t : {Target::A2A3, Target::A5}) {
    check_all_ops<float, 64, 64>(t, {64, 64}, 1);
    check_all_ops<std::int32_t, 64, 64>(t, {64, 64}, 2);
    check_all_ops<std::int16_t, 64, 64>(t, {64, 64}, 3);
    check_all_ops<half, 16, 256>(t, {16, 256}, 4);
  }
  // TMUL's unsigned cases and bf16 (A5 only; TMUL takes no 8-bit type there, TDIV no bf16).
  check_all_ops<std::uint8_t, 64, 64>(Target::A5, {64, 64}, 5);
  check_all_ops<std::uint16_t, 64, 64>(Target::A5, {64, 64}, 6);
  check_all_ops<std::uint32_t, 64, 64>(Target::A5, {64, 64}, 7);
  check_all_ops<bfloat16_t, 16, 256>(Target::A5, {16, 256}, 8);
}

BOOST_AUTO_TEST_CASE(every_a5_dtype_including_64_bit) {
  check_all_ops<std::int8_t, 8, 64>(Target::A5, {7, 50}, 11);
  check_all_ops<std::uint8_t, 8, 64>(Target::A2A3, {7, 33}, 14);  // TAND/TOR/TXOR: an odd 8-bit width on 16-bit lanes
  check_all_ops<std::uint16_t, 16, 48>(Target::A2A3, {16, 45}, 15);
  check_all_ops<std::int64_t, 16, 32>(Target::A5, {16, 32}, 12);
  check_all_ops<std::uint64_t, 8, 64>(Target::A5, {5, 61}, 13);  // TDIV: CPU reference, priced by the planner
}

// Valid regions smaller than the tile (every branch of the A2A3 algorithm: small tile, runtime
// contiguous, two-level count / norm / row-repeat / head and tail), one row, one column, odd widths.
BOOST_AUTO_TEST_CASE(partial_valid_regions_one_row_one_column) {
  for (Target t : {Target::A2A3, Target::A5}) {
    check_all_ops<float, 32, 64>(t, {31, 45}, 21);    // two-level, row repeat with a tail mask
    check_all_ops<float, 8, 32>(t, {5, 17}, 22);      // small tile: one call, a row per repeat
    check_all_ops<float, 1, 512>(t, {1, 333}, 23);    // one row: one level
    check_all_ops<float, 64, 8>(t, {64, 1}, 24);      // one column
    check_all_ops<half, 2, 512>(t, {2, 300}, 25);     // ncr > 1, Rows * ncr < 4: count mode per row
    check_all_ops<half, 3, 1024>(t, {3, 1024}, 26);   // Rows < ncr + 1, whole chunks: norm per row
    check_all_ops<std::int32_t, 300, 16>(t, {290, 16}, 27);  // Rows > 255: head and 255-row tail runs
    check_all_ops<std::int16_t, 64, 64>(t, {64, 40}, 28);
  }
}

// dst aliasing src0 or src1, and src0 == src1.
BOOST_AUTO_TEST_CASE(in_place_operands) {
  constexpr std::size_t kB = 32 * 64 * sizeof(float);
  for (Target t : {Target::A2A3, Target::A5}) {
    for (Bin op : {Bin::And, Bin::Or}) {  // 16-bit lanes on A2A3, in place too
      check<std::int32_t, 32, 64>(op, t, {32, 64}, {0, 0, kB}, 34);
      check<std::uint8_t, 32, 64>(op, t, {31, 63}, {kB, 0, kB}, 35);
    }
    for (Bin op : kArith) {
      check<float, 32, 64>(op, t, {32, 64}, {0, 0, kB}, 31);       // dst = src0
      check<float, 32, 64>(op, t, {20, 64}, {kB, 0, kB}, 32);      // dst = src1
      if (op != Bin::Div) check<float, 32, 64>(op, t, {32, 50}, {2 * kB, 0, 0}, 33);  // src0 = src1
    }
  }
}

// The largest f32 tiles that fit: three 64 KiB tiles fill the A2A3 UB.
BOOST_AUTO_TEST_CASE(the_largest_tiles_that_fit) {
  constexpr std::size_t kB = 128 * 128 * sizeof(float);
  check<float, 128, 128>(Bin::Add, Target::A2A3, {128, 128}, {2 * kB, 0, kB}, 41);
  check<float, 128, 128>(Bin::Div, Target::A5, {127, 127}, {2 * kB, 0, kB}, 42);
}

BOOST_AUTO_TEST_CASE(errors_name_the_instruction_the_operand_and_the_rule) {
  auto error_of = [](auto f) -> std::string {
    try {
      f();
    } catch (const Error& e) {
      return e.what();
    }
    return "no pto::Error";
  };
  auto contains = [](const std::string& s, const char* part) { return s.find(part) != std::string::npos; };
  // A dtype the target lacks names the targets that have it.
  const std::string u16 = error_of([] {
    launch({}, [] {
      Tile<TileType::Vec, std::uint16_t, 16, 16> d, a, b;
      TASSIGN(d, 0);
      TASSIGN(a, 512);
      TASSIGN(b, 1024);
      TADD(d, a, b);
    });
  });
  BOOST_TEST(contains(u16, "TADD: operand dst"), u16);
  BOOST_TEST(contains(u16, "A5"), u16);
  const std::string idiv = error_of([] {
    launch({}, [] {
      Tile<TileType::Vec, std::int32_t, 8, 8> d, a, b;
      TASSIGN(d, 0);
      TASSIGN(a, 256);
      TASSIGN(b, 512);
      TDIV(d, a, b);
    });
  });
  BOOST_TEST(contains(idiv, "TDIV: operand dst"), idiv);
  // Valid shapes must agree.
  const std::string shape = error_of([] {
    launch({}, [] {
      DynTile<float, 16, 16> d(16, 16), a(16, 16), b(8, 16);
      TASSIGN(d, 0);
      TASSIGN(a, 1024);
      TASSIGN(b, 2048);
      TMUL(d, a, b);
    });
  });
  BOOST_TEST(contains(shape, "TMUL: operand src1 Tile<Vec,float,16,16> valid 8x16 must have the same valid shape as operand dst"), shape);
  // Integer division by zero (A5), on both backends.
  for (bool cpu : {false, true}) {
    std::vector<std::int32_t> out(64), a(64, 7), b(64, 3);
    b[37] = 0;
    const std::string zero = error_of([&] {
      launch({.target = Target::A5, .cpu_reference = cpu}, [](std::int32_t* o, std::int32_t* pa, std::int32_t* pb) {
        DynTile<std::int32_t, 8, 8> d(8, 8), x(8, 8), y(8, 8);
        TASSIGN(d, 0);
        TASSIGN(x, 256);
        TASSIGN(y, 512);
        Gm<std::int32_t, 8> ga(pa, {8, 8}), gb(pb, {8, 8}), go(o, {8, 8});
        TLOAD(x, ga);
        TLOAD(y, gb);
        pipe_barrier(PIPE_ALL);
        TDIV(d, x, y);
        pipe_barrier(PIPE_ALL);
        TSTORE(go, d);
      }, out, a, b);
    });
    BOOST_TEST(contains(zero, "TDIV: integer division by zero: operand src1 (the divisor) has 0 at element (4, 5)"), zero);
  }
  // A5 64-bit division is one 64-lane predicate per row on the chip.
  const std::string wide = error_of([] {
    launch({.target = Target::A5}, [] {
      Tile<TileType::Vec, std::int64_t, 2, 128> d, a, b;
      TASSIGN(d, 0);
      TASSIGN(a, 2048);
      TASSIGN(b, 4096);
      TDIV(d, a, b);
    });
  });
  BOOST_TEST(contains(wide, "A5 divides 64-bit integers with one 64-lane predicate per row"), wide);
  // A2A3 TXOR writes tmp and dst before it has read both sources.
  const std::string xor_alias = error_of([] {
    launch({}, [] {
      Tile<TileType::Vec, std::int32_t, 8, 8> d, a, b;
      TASSIGN(d, 0);
      TASSIGN(a, 256);
      TASSIGN(b, 512);
      TXOR(d, a, b, a);
    });
  });
  BOOST_TEST(contains(xor_alias, "TXOR: operand tmp Tile<Vec,int32,8,8> valid 8x8 shares bytes with operand src0"), xor_alias);
  BOOST_TEST(contains(xor_alias, "requires dst, src0, src1 and tmp in different memory"), xor_alias);
  const std::string and_f = error_of([] {
    launch({.target = Target::A5}, [] {
      Tile<TileType::Vec, float, 8, 8> d, a, b;
      TASSIGN(d, 0);
      TASSIGN(a, 256);
      TASSIGN(b, 512);
      TAND(d, a, b);
    });
  });
  BOOST_TEST(contains(and_f, "TAND: operand dst dtype float is not supported on A5"), and_f);
  for (Target t : {Target::A2A3, Target::A5}) {
    const std::string count = error_of([t] {
      std::vector<std::int16_t> out(64), a(64, 1), b(64, 3);
      b[13] = 16;
      launch({.target = t}, [](std::int16_t* o, std::int16_t* pa, std::int16_t* pb) {
        DynTile<std::int16_t, 4, 16> d(4, 16), x(4, 16), y(4, 16);
        TASSIGN(d, 0);
        TASSIGN(x, 256);
        TASSIGN(y, 512);
        Gm<std::int16_t, 16> ga(pa, {4, 16}), gb(pb, {4, 16}), go(o, {4, 16});
        TLOAD(x, ga);
        TLOAD(y, gb);
        pipe_barrier(PIPE_ALL);
        TSHL(d, x, y);
        pipe_barrier(PIPE_ALL);
        TSTORE(go, d);
      }, out, a, b);
    });
    BOOST_TEST(contains(count, "TSHL: operand src1 (the shift counts) has 16 at element (0, 13): a shift count must be in [0, 15] for dtype int16"), count);
  }
}

namespace {
template <class T, int R, int C, bool Dynamic>
Kernel binary_kernel(Bin op) {
  using TileT = std::conditional_t<Dynamic, DynTile<T, R, C>, Tile<TileType::Vec, T, R, C>>;
  TileT d, a, b;
  if constexpr (Dynamic) d = TileT(R, C), a = TileT(R, C), b = TileT(R, C);
  TASSIGN(d, 0);
  TASSIGN(a, R * C * sizeof(T));
  TASSIGN(b, 2 * R * C * sizeof(T));
  switch (op) {
    case Bin::Add: co_await TADD(d, a, b); break;
    case Bin::Div: co_await TDIV(d, a, b); break;
    default: co_await TMUL(d, a, b); break;
  }
}
template <class T, int R, int C, bool Dynamic>
std::uint64_t cycles(Bin op, Target t) {
  return launch({.target = t, .model_only = true}, [op]() { return binary_kernel<T, R, C, Dynamic>(op); }).cores[0].pipes[PIPE_V].busy_cycles;
}
}  // namespace

// Priced by the recorded stream of the chip's algorithm (A2A3 table: vadd 10 + 2 per repeat + 14,
// vmul 10 + 2 + 15, vdiv 11 + 4 + 19). pto-isa's hardware figures (tests/costmodel/st) in comments.
BOOST_AUTO_TEST_CASE(modeled_cycles_follow_the_chips_stream) {
  // f32 64x64, dynamic valid = tile: runtime contiguous, 64 norm repeats of vadd: 10 + 128 + 14 = 152 (chip 160).
  BOOST_TEST((cycles<float, 64, 64, true>(Bin::Add, Target::A2A3)) == 152u);
  // ... static: the same single pass.
  BOOST_TEST((cycles<float, 64, 64, false>(Bin::Add, Target::A2A3)) == 152u);
  // f16 16x256: 32 repeats: 10 + 64 + 14 = 88 (chip 92); TMUL f32 64x64: 10 + 128 + 15 = 153 (chip 168).
  BOOST_TEST((cycles<half, 16, 256, true>(Bin::Add, Target::A2A3)) == 88u);
  BOOST_TEST((cycles<float, 64, 64, true>(Bin::Mul, Target::A2A3)) == 153u);
  // TDIV f32 64x64: 11 + 256 + 19 = 286 (chip 288).
  BOOST_TEST((cycles<float, 64, 64, true>(Bin::Div, Target::A2A3)) == 286u);
  // The CPU reference is priced by the same recording.
  const std::uint64_t planned =
      launch({.model_only = true, .cpu_reference = true}, [] { return binary_kernel<float, 64, 64, true>(Bin::Add); })
          .cores[0].pipes[PIPE_V].busy_cycles;
  BOOST_TEST(planned == 152u);
  BOOST_TEST_MESSAGE("A5 TADD f32 64x64: " << (cycles<float, 64, 64, true>(Bin::Add, Target::A5)) << " cycles");
}

// A coroutine kernel in auto mode: no TASSIGN, no flags; the runtime places the tiles and orders the pipes.
BOOST_AUTO_TEST_CASE(a_coroutine_kernel_in_auto_mode) {
  for (Target t : {Target::A2A3, Target::A5}) {
    std::vector<float> a(32 * 64), b(a.size()), out(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = float(i % 97) - 40.0f, b[i] = float(i % 13) + 0.5f;
    auto kernel = [](float* o, float* pa, float* pb) -> Kernel {
      Tile<TileType::Vec, float, 32, 64> x, y, s, q;
      GlobalTensor<float, Shape<1, 1, 1, 32, 64>, pto::Stride<1, 1, 1, 64, 1>> ga(pa), gb(pb), go(o);
      co_await TLOAD(x, ga);
      co_await TLOAD(y, gb);
      co_await TSUB(s, x, y);  // s = a - b
      co_await TDIV(q, s, y);  // q = (a - b) / b
      co_await TMAX(q, q, s);  // in place: max(q, s)
      co_await TSTORE(go, q);
    };
    launch({.target = t, .mode = Mode::Auto, .check = SyncCheck::Throw}, kernel, out, a, b);
    for (std::size_t i = 0; i < a.size(); ++i) {
      const float s = a[i] - b[i], q = s / b[i];
      BOOST_TEST_REQUIRE(out[i] == std::max(q, s), "element " << i << " on " << name_of(t));
    }
  }
}

// ---- TANDS, TORS, TXORS, TSHLS, TSHRS: the same references with a scalar second operand -----------------
namespace {
template <class T, int R, int C>
std::vector<T> run_bit_scalar(Target target, Bin op, int vr, int vc, const std::vector<T>& a, T k) {
  std::vector<T> out(static_cast<std::size_t>(R) * C, T(0x5A)), in = a;
  launch({.target = target, .check = SyncCheck::Throw}, [=](T* o, T* pa) {
    Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1> d(vr, vc), s(vr, vc), t(vr, vc);
    TASSIGN(s, 0);
    TASSIGN(d, R * C * sizeof(T));
    TASSIGN(t, 2 * R * C * sizeof(T));
    GlobalTensor<T, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>> gs(pa), gd(o);
    Tile<TileType::Vec, T, R, C> sf, df;
    TASSIGN(sf, 0);
    TASSIGN(df, R * C * sizeof(T));
    TLOAD(sf, gs);
    TLOAD(df, gd);
    pipe_barrier(PIPE_ALL);
    switch (op) {
      case Bin::And: TANDS(d, s, k); break;
      case Bin::Or: TORS(d, s, k); break;
      case Bin::Xor: TXORS(d, s, k, t); break;
      case Bin::Shl: TSHLS(d, s, k); break;
      default: TSHRS(d, s, k); break;
    }
    pipe_barrier(PIPE_ALL);
    TSTORE(gd, df);
  }, out, in);
  return out;
}

template <class T, int R, int C>
void check_bit_scalar(Target target, int vr, int vc, unsigned seed) {
  const DType t = dtype_v<T>;
  Rng rng(seed);
  std::vector<T> a(static_cast<std::size_t>(R) * C);
  for (auto& x : a) x = random_value<T>(rng, false);
  for (Bin op : {Bin::And, Bin::Or, Bin::Xor, Bin::Shl, Bin::Shr}) {
    const bool shift = op == Bin::Shl || op == Bin::Shr;
    const bool ok = shift ? (target == Target::A5 || size_of(t) >= 2) : size_of(t) <= 4;
    if (!ok) continue;
    const T k = random_value<T>(rng, false, shift);
    const std::vector<T> got = run_bit_scalar<T, R, C>(target, op, vr, vc, a, k);
    std::size_t bad = 0, outside = 0;
    // A2A3 works on 16-bit lanes: an odd 8-bit width also writes the byte after each row's last.
    const int slack = target == Target::A2A3 && !shift && sizeof(T) == 1 && vc % 2 ? 1 : 0;
    for (int i = 0; i < R; ++i)
      for (int j = 0; j < C; ++j) {
        const T g = got[std::size_t(i) * C + j];
        if (i < vr && j < vc) bad += bits_of(g) != bits_of(reference(op, a[std::size_t(i) * C + j], k));
        else if (!(i < vr && j < vc + slack)) outside += g != T(0x5A);
      }
    BOOST_TEST_CONTEXT(name_of(target) << " " << int(op) << " " << name_of(t) << " valid " << vr << "x" << vc) {
      BOOST_TEST(bad == 0u);
      BOOST_TEST(outside == 0u);
    }
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(bitwise_and_shift_with_a_scalar) {
  for (Target t : {Target::A2A3, Target::A5}) {
    check_bit_scalar<std::int16_t, 16, 64>(t, 16, 64, 1);  // pto-isa tands / tshls: int16 16x64
    check_bit_scalar<std::int32_t, 8, 64>(t, 5, 37, 2);
    check_bit_scalar<std::uint32_t, 8, 64>(t, 8, 64, 3);
    check_bit_scalar<std::uint16_t, 4, 128>(t, 1, 100, 4);
    check_bit_scalar<std::uint8_t, 8, 64>(t, 7, 33, 5);
    check_bit_scalar<std::int8_t, 8, 64>(t, 8, 64, 6);
  }
  check_bit_scalar<std::int64_t, 4, 32>(Target::A5, 3, 17, 7);  // A5 64-bit shifts (Int64Scalar)
}

BOOST_AUTO_TEST_CASE(bitwise_scalar_errors) {
  using pto_test::contains;
  using pto_test::error_of;
  const std::string count = error_of([] {
    launch({}, [] {
      Tile<TileType::Vec, std::int16_t, 4, 64> d, s;
      TASSIGN(s, 0);
      TASSIGN(d, 1024);
      TSHLS(d, s, std::int16_t(16));
    });
  });
  BOOST_TEST(contains(count, "TSHLS: the scalar shift count is 16: a shift count must be in [0, 15] for dtype int16"), count);
  const std::string alias = error_of([] {
    launch({}, [] {
      Tile<TileType::Vec, std::int32_t, 4, 64> d;
      TASSIGN(d, 0);
      TANDS(d, d, 7);
    });
  });
  BOOST_TEST(contains(alias, "TANDS: operand dst Tile<Vec,int32,4,64>"), alias);
  BOOST_TEST(contains(alias, "overlaps src"), alias);
  const std::string a5_ok = error_of([] {
    launch({.target = Target::A5}, [] {
      Tile<TileType::Vec, std::int32_t, 4, 64> d;
      TASSIGN(d, 0);
      TANDS(d, d, 7);
    });
  });
  BOOST_TEST(a5_ok == "no pto::Error");
  const std::string a2a3_8bit_shift = error_of([] {
    launch({}, [] {
      Tile<TileType::Vec, std::uint8_t, 4, 64> d, s;
      TASSIGN(s, 0);
      TASSIGN(d, 1024);
      TSHRS(d, s, std::uint8_t(1));
    });
  });
  BOOST_TEST(contains(a2a3_8bit_shift, "TSHRS: operand dst dtype uint8 is not supported on A2A3"), a2a3_8bit_shift);
}
