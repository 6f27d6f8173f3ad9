// TROWSUM, TROWMAX, TROWMIN, TCOLSUM (both forms), TCOLMAX, TCOLMIN: pto-isa's CPU test shapes (f32
// 64x64, f16 16x256 and 64x64, int8 / uint8 on A5), every dtype each target allows, partial valid
// regions, odd widths and row counts, more than 255 rows, one row, one column, DN destinations, the
// A2A3 fp32 shortcut shapes, the error paths and modeled cycles.
//
// References: max, min and integer sums (wrapping) exactly; float sums in double, within the bound any
// summation order meets ((n - 1) u sum |x|, u the unit roundoff of T, plus the final rounding). The
// order itself is checked by the device path and the CPU reference agreeing bit for bit (two
// implementations of each target's order: the emulated intrinsics and the direct loops).
#define BOOST_TEST_MODULE reduce
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <pto/pto-inst.hpp>

#include "element_ref.hpp"

using namespace pto;
using pto_test::bits_of;
using pto_test::contains;
using pto_test::error_of;
using pto_test::kFloat;
using pto_test::to_double;

namespace {
enum class Red { RowSum, RowMax, RowMin, ColSum, ColSumBinary, ColSumSeq, ColMax, ColMin };
constexpr Red kOps[] = {Red::RowSum, Red::RowMax, Red::RowMin, Red::ColSum, Red::ColSumBinary, Red::ColSumSeq, Red::ColMax, Red::ColMin};
const char* name(Red op) {
  constexpr const char* n[] = {"TROWSUM", "TROWMAX", "TROWMIN", "TCOLSUM", "TCOLSUM(isBinary)", "TCOLSUM(tmp, false)", "TCOLMAX", "TCOLMIN"};
  return n[int(op)];
}
bool is_row(Red op) { return op == Red::RowSum || op == Red::RowMax || op == Red::RowMin; }
bool is_sum(Red op) { return op == Red::RowSum || op == Red::ColSum || op == Red::ColSumBinary || op == Red::ColSumSeq; }

// The NPU headers' dtype lists (a2a3/TRowReduceOps.hpp, TColReduceOps.hpp; a5/TRowReduce.hpp,
// TColReduceOps.hpp, Int64Reduce.hpp), written out here.
bool allowed(Red op, DType t, Target target) {
  using D = DType;
  auto in = [t](std::initializer_list<DType> s) { return std::find(s.begin(), s.end(), t) != s.end(); };
  if (target == Target::A2A3) return in({D::F16, D::F32, D::I16, D::I32});
  if (is_row(op)) return in({D::F16, D::F32, D::I16, D::I32, D::I64, D::U64}) || (op != Red::RowSum && in({D::I8, D::U8}));
  return in({D::F16, D::F32, D::BF16, D::I8, D::U8, D::I16, D::U16, D::I32, D::U32, D::I64, D::U64});
}

struct Valid {
  int rows, cols;
};
template <class T, int R, int C> using DynTile = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1>;
template <class T, int R> using DnTile = Tile<TileType::Vec, T, R, 1, BLayout::ColMajor, -1, -1>;
template <class T, int C> using Gm = GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, C, 1>>;
template <class T> using GmDN = GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, 1, -1>, Layout::DN>;
template <class T> constexpr int kBE = int(32 / sizeof(T));

// Runs one reduction of a [R, C] source (valid v) and returns the results (rows or columns). `dn`: row
// reductions into a DN [R,1] tile instead of a RowMajor [R, BE] one.
template <class T, int R, int C>
std::vector<T> run(Red op, Target target, bool cpu_reference, Valid v, const std::vector<T>& src, bool dn) {
  const int n = is_row(op) ? v.rows : v.cols;
  std::vector<T> out(std::size_t(is_row(op) ? R * kBE<T> : C)), in = src;
  auto kernel = [=](T* o, T* p) {
    DynTile<T, R, C> s(v.rows, v.cols), tmp(R, C);
    TASSIGN(s, 0);
    TASSIGN(tmp, std::size_t(R) * C * sizeof(T));
    Gm<T, C> gs(p, {v.rows, v.cols});
    TLOAD(s, gs);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    const std::size_t at = 2 * std::size_t(R) * C * sizeof(T);
    if (is_row(op)) {
      auto row = [&](auto& d) {
        if (op == Red::RowSum) TROWSUM(d, s, tmp);
        if (op == Red::RowMax) TROWMAX(d, s, tmp);
        if (op == Red::RowMin) TROWMIN(d, s, tmp);
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      };
      if constexpr (R * sizeof(T) % 32 == 0) {  // a DN tile's column is whole 32-byte blocks
        if (dn) {
          DnTile<T, R> d(v.rows, 1);
          TASSIGN(d, at);
          row(d);
          GmDN<T> go(o, {v.rows, 1}, {R});
          TSTORE(go, d);
          return;
        }
      }
      {
        DynTile<T, R, kBE<T>> d(v.rows, 1);
        TASSIGN(d, at);
        row(d);
        Gm<T, kBE<T>> go(o, {v.rows, 1});
        TSTORE(go, d);
      }
    } else {
      DynTile<T, 1, C> d(1, v.cols);
      TASSIGN(d, at);
      if (op == Red::ColSum) TCOLSUM(d, s);
      if (op == Red::ColSumBinary) TCOLSUM(d, s, tmp, true);
      if (op == Red::ColSumSeq) TCOLSUM(d, s, tmp, false);
      if (op == Red::ColMax) TCOLMAX(d, s);
      if (op == Red::ColMin) TCOLMIN(d, s);
      set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      Gm<T, C> go(o, {1, v.cols});
      TSTORE(go, d);
    }
  };
  launch({.target = target, .check = SyncCheck::Throw, .cpu_reference = cpu_reference}, kernel, out, in);
  std::vector<T> r;
  for (int k = 0; k < n; ++k) r.push_back(out[std::size_t(is_row(op) && !dn ? k * kBE<T> : k)]);
  return r;
}

// The exact value of a max / min / integer sum, or the double sum with its error bound.
template <class T>
void reference(Red op, const std::vector<T>& xs, T& exact, double& sum, double& bound) {
  exact = xs[0];
  sum = 0;
  double abs_sum = 0;
  for (T x : xs) {
    if (op == Red::RowMax || op == Red::ColMax) exact = to_double(x) > to_double(exact) ? x : exact;
    else if (op == Red::RowMin || op == Red::ColMin) exact = to_double(x) < to_double(exact) ? x : exact;
    sum += to_double(x);
    abs_sum += std::fabs(to_double(x));
  }
  if constexpr (std::is_integral_v<T>) {
    if (is_sum(op)) {
      using U = std::make_unsigned_t<T>;
      U acc = 0;
      for (T x : xs) acc = U(acc + U(x));
      exact = T(acc);
    }
  }
  const double u = std::is_same_v<T, float> ? std::ldexp(1.0, -24) : std::is_same_v<T, half> ? std::ldexp(1.0, -11) : std::ldexp(1.0, -8);
  bound = (double(xs.size()) + 1) * u * abs_sum;
}

using Rng = std::mt19937_64;
template <class T> T random_value(Rng& rng, bool small_ints) {
  if (small_ints) return T(float(std::uniform_int_distribution<int>(1, 9)(rng)));  // pto-isa's randint(1, 10)
  if constexpr (kFloat<T>) return T(float(std::uniform_real_distribution<double>(-8, 8)(rng)));
  else if constexpr (std::is_signed_v<T>)
    return T(std::uniform_int_distribution<long long>(std::numeric_limits<T>::min(), std::numeric_limits<T>::max())(rng));
  else return T(std::uniform_int_distribution<unsigned long long>(0, std::numeric_limits<T>::max())(rng));
}

template <class T, int R, int C>
void check(Red op, Target target, Valid v, unsigned seed, bool dn = false, bool small_ints = false) {
  if (!allowed(op, dtype_v<T>, target)) return;
  Rng rng(seed);
  std::vector<T> src(static_cast<std::size_t>(R) * C);
  for (auto& x : src) x = random_value<T>(rng, small_ints);
  const std::vector<T> dev = run<T, R, C>(op, target, false, v, src, dn);
  const std::vector<T> cpu = run<T, R, C>(op, target, true, v, src, dn);
  const std::string what = std::string(name(op)) + " " + name_of(dtype_v<T>) + " " + std::to_string(R) + "x" +
                           std::to_string(C) + " valid " + std::to_string(v.rows) + "x" + std::to_string(v.cols) + " on " +
                           name_of(target) + (dn ? " into DN" : "");
  std::size_t bad = 0, differ = 0;
  for (std::size_t k = 0; k < dev.size(); ++k) {
    std::vector<T> xs;
    for (int i = 0; i < (is_row(op) ? v.cols : v.rows); ++i)
      xs.push_back(is_row(op) ? src[k * C + std::size_t(i)] : src[std::size_t(i) * C + k]);
    T exact;
    double sum, bound;
    reference(op, xs, exact, sum, bound);
    const bool ok = kFloat<T> && is_sum(op) ? std::fabs(to_double(dev[k]) - sum) <= bound
                                            : bits_of(dev[k]) == bits_of(exact);
    if (!ok && bad++ == 0)
      BOOST_ERROR(what << ": result " << k << " is " << to_double(dev[k]) << ", want "
                       << (kFloat<T> && is_sum(op) ? sum : to_double(exact)) << (kFloat<T> && is_sum(op) ? " within " : "")
                       << (kFloat<T> && is_sum(op) ? std::to_string(bound) : std::string()));
    if (bits_of(dev[k]) != bits_of(cpu[k])) ++differ;
  }
  BOOST_TEST(bad == 0u, what << ": " << bad << " wrong results");
  BOOST_TEST(differ == 0u, what << ": device path and CPU reference differ in " << differ << " results");
}

template <class T, int R, int C>
void check_all(Target target, Valid v, unsigned seed, bool small_ints = false) {
  for (Red op : kOps) check<T, R, C>(op, target, v, seed + unsigned(op), false, small_ints);
}
}  // namespace

BOOST_AUTO_TEST_CASE(the_reference_shapes_on_both_targets) {
  for (Target t : {Target::A2A3, Target::A5}) {
    check_all<float, 64, 64>(t, {64, 64}, 1, true);
    check_all<half, 16, 256>(t, {16, 256}, 2, true);
    check_all<float, 64, 64>(t, {64, 64}, 3);
    check_all<half, 64, 64>(t, {64, 64}, 4);
    check_all<std::int32_t, 64, 64>(t, {64, 64}, 5);
    check_all<std::int16_t, 64, 64>(t, {64, 64}, 6);
    check_all<std::int8_t, 64, 64>(t, {64, 64}, 7);
    check_all<std::uint8_t, 64, 64>(t, {64, 64}, 8);
  }
  check_all<bfloat16_t, 16, 256>(Target::A5, {16, 256}, 9);
  check_all<std::uint16_t, 16, 128>(Target::A5, {16, 128}, 10);
  check_all<std::uint32_t, 16, 64>(Target::A5, {16, 64}, 11);
  check_all<std::int64_t, 16, 64>(Target::A5, {13, 60}, 12);
  check_all<std::uint64_t, 8, 32>(Target::A5, {8, 32}, 13);
}

// Every branch of the A2A3 row algorithm: within one repeat (masked), exactly one, between one and
// two (the tmp copy), two or more with an odd repeat count and a tail; columns past one repeat;
// more than 255 rows; one row; one column.
BOOST_AUTO_TEST_CASE(partial_valid_regions_odd_shapes_and_many_rows) {
  for (Target t : {Target::A2A3, Target::A5}) {
    check_all<float, 32, 64>(t, {31, 45}, 21);
    check_all<float, 8, 128>(t, {8, 100}, 22);
    check_all<float, 8, 256>(t, {7, 200}, 23);
    check_all<float, 4, 512>(t, {4, 450}, 24);
    check_all<half, 16, 512>(t, {9, 333}, 25);
    check_all<float, 1, 512>(t, {1, 333}, 26);
    check_all<half, 64, 16>(t, {64, 1}, 27);
    check_all<float, 300, 16>(t, {290, 9}, 28);
    check_all<float, 300, 64>(t, {300, 64}, 29);
    check_all<std::int32_t, 17, 64>(t, {17, 37}, 30);
    check_all<std::int16_t, 33, 48>(t, {33, 45}, 31);
    check_all<float, 1, 3072>(t, {1, 3072}, 32);
  }
}

BOOST_AUTO_TEST_CASE(row_reductions_into_a_dn_tile_and_the_a2a3_fp32_shortcut_shapes) {
  for (Target t : {Target::A2A3, Target::A5})
    for (Red op : {Red::RowSum, Red::RowMax, Red::RowMin}) {
      check<float, 64, 64>(op, t, {60, 64}, 40, true);
      check<half, 16, 256>(op, t, {16, 256}, 41, true);
    }
}

namespace {
// A static [R,1] DN dst and a static full source: the shapes TryOptimizeFP32Reduce takes.
template <int R, int C>
std::vector<float> shortcut(Target target, bool cpu_reference, const std::vector<float>& src, Red op) {
  std::vector<float> out(R), in = src;
  launch({.target = target, .check = SyncCheck::Throw, .cpu_reference = cpu_reference}, [op](float* o, float* p) {
    Tile<TileType::Vec, float, R, C> s, tmp;
    Tile<TileType::Vec, float, R, 1, BLayout::ColMajor> d;
    TASSIGN(s, 0);
    TASSIGN(tmp, R * C * 4);
    TASSIGN(d, 2 * R * C * 4);
    GlobalTensor<float, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>> gs(p);
    GlobalTensor<float, Shape<1, 1, 1, R, 1>, pto::Stride<1, 1, 1, 1, R>, Layout::DN> go(o);
    TLOAD(s, gs);
    pipe_barrier(PIPE_ALL);
    if (op == Red::RowSum) TROWSUM(d, s, tmp);
    if (op == Red::RowMax) TROWMAX(d, s, tmp);
    pipe_barrier(PIPE_ALL);
    TSTORE(go, d);
  }, out, in);
  return out;
}
template <int R, int C>
void check_shortcut(Target target, Red op) {
  Rng rng(R + C);
  std::vector<float> src(static_cast<std::size_t>(R) * C);
  for (auto& x : src) x = random_value<float>(rng, false);
  const std::vector<float> dev = shortcut<R, C>(target, false, src, op), cpu = shortcut<R, C>(target, true, src, op);
  for (int i = 0; i < R; ++i) {
    std::vector<float> xs(src.begin() + i * C, src.begin() + (i + 1) * C);
    float exact;
    double sum, bound;
    reference(op, xs, exact, sum, bound);
    if (op == Red::RowSum) BOOST_TEST(std::fabs(double(dev[std::size_t(i)]) - sum) <= bound, "row " << i);
    else BOOST_TEST(dev[std::size_t(i)] == exact, "row " << i);
  }
  // The shortcut adds in another order than TRowReduceInstr: the CPU reference matches maximum
  // exactly, the sums within the bound.
  if (op == Red::RowMax) BOOST_TEST(dev == cpu);
}
}  // namespace

BOOST_AUTO_TEST_CASE(the_a2a3_fp32_shortcuts_compute_the_same_reductions) {
  for (Red op : {Red::RowSum, Red::RowMax}) {
    check_shortcut<64, 128>(Target::A2A3, op);
    check_shortcut<32, 256>(Target::A2A3, op);
    check_shortcut<16, 512>(Target::A2A3, op);
    check_shortcut<8, 1024>(Target::A2A3, op);
  }
}

BOOST_AUTO_TEST_CASE(errors_name_the_instruction_the_operand_and_the_rule) {
  const std::string u8 = error_of([] {
    launch({}, [] {
      Tile<TileType::Vec, std::uint8_t, 8, 32> d, s, t;
      TASSIGN(d, 0);
      TASSIGN(s, 256);
      TASSIGN(t, 512);
      TROWMAX(d, s, t);
    });
  });
  BOOST_TEST(contains(u8, "TROWMAX: operand dst dtype uint8 is not supported on A2A3"), u8);
  BOOST_TEST(contains(u8, "supported on: A5"), u8);
  const std::string rows = error_of([] {
    launch({}, [] {
      DynTile<float, 16, 64> s(16, 64), t(16, 64);
      DynTile<float, 16, 8> d(15, 1);
      TASSIGN(s, 0);
      TASSIGN(t, 4096);
      TASSIGN(d, 8192);
      TROWSUM(d, s, t);
    });
  });
  BOOST_TEST(contains(rows, "TROWSUM: operand dst"), rows);
  BOOST_TEST(contains(rows, "must have as many valid rows as src"), rows);
  const std::string cols = error_of([] {
    launch({}, [] {
      DynTile<float, 16, 64> s(16, 64);
      DynTile<float, 1, 64> d(1, 60);
      TASSIGN(s, 0);
      TASSIGN(d, 4096);
      TCOLMAX(d, s);
    });
  });
  BOOST_TEST(contains(cols, "TCOLMAX: operand dst"), cols);
  BOOST_TEST(contains(cols, "must have as many valid columns as src"), cols);
  const std::string empty = error_of([] {
    launch({}, [] {
      DynTile<float, 16, 64> s(16, 0);
      DynTile<float, 1, 64> d(1, 0);
      TASSIGN(s, 0);
      TASSIGN(d, 4096);
      TCOLSUM(d, s);
    });
  });
  BOOST_TEST(contains(empty, "TCOLSUM: operand src"), empty);
  BOOST_TEST(contains(empty, "the valid region is empty"), empty);
  const std::string wide = error_of([] {
    launch({.target = Target::A5}, [] {
      DynTile<std::int64_t, 4, 128> s(4, 100), t(4, 128);
      DynTile<std::int64_t, 4, 4> d(4, 1);
      TASSIGN(s, 0);
      TASSIGN(t, 4096);
      TASSIGN(d, 8192);
      TROWSUM(d, s, t);
    });
  });
  BOOST_TEST(contains(wide, "TROWSUM: operand src"), wide);
  BOOST_TEST(contains(wide, "columns past 64 would be ignored on the chip"), wide);
  // A2A3 writes one partial sum per row into tmp: a tmp with fewer rows would be overrun.
  const std::string small = error_of([] {
    launch({}, [] {
      DynTile<float, 16, 128> s(16, 128);
      DynTile<float, 8, 128> t(8, 128);
      DynTile<float, 16, 8> d(16, 1);
      TASSIGN(s, 0);
      TASSIGN(t, 8192);
      TASSIGN(d, 16384);
      TROWSUM(d, s, t);
    });
  });
  BOOST_TEST(contains(small, "TROWSUM: operand tmp"), small);
  BOOST_TEST(contains(small, "is too small: the A2A3 algorithm writes the row's partial results there (16 rows of 64 elements)"), small);
  const std::string binary = error_of([] {
    launch({}, [] {
      DynTile<float, 16, 64> s(16, 64);
      DynTile<float, 4, 64> t(4, 64);
      DynTile<float, 1, 64> d(1, 64);
      TASSIGN(s, 0);
      TASSIGN(t, 4096);
      TASSIGN(d, 8192);
      TCOLSUM(d, s, t, true);
    });
  });
  BOOST_TEST(contains(binary, "TCOLSUM: operand tmp"), binary);
  BOOST_TEST(contains(binary, "the pairwise sums of the rows there (8 rows of 64 elements)"), binary);
  // A5 stores its pair sums to tmp as well, as wide as src's valid columns.
  const std::string a5_binary = error_of([] {
    launch({.target = Target::A5}, [] {
      DynTile<float, 16, 64> s(16, 64);
      DynTile<float, 4, 64> t(4, 64);
      DynTile<float, 1, 64> d(1, 64);
      TASSIGN(s, 0);
      TASSIGN(t, 4096);
      TASSIGN(d, 8192);
      TCOLSUM(d, s, t, true);
    });
  });
  BOOST_TEST(contains(a5_binary, "TCOLSUM: operand tmp"), a5_binary);
  BOOST_TEST(contains(a5_binary, "is too small: the A5 algorithm stores 8 rows of partial sums there"), a5_binary);
  // The A2A3 fp32 shortcut writes R x C / 8 group results into tmp.
  const std::string shortcut = error_of([] {
    launch({}, [] {
      Tile<TileType::Vec, float, 64, 128> s;
      Tile<TileType::Vec, float, 1, 512> t;
      Tile<TileType::Vec, float, 64, 1, BLayout::ColMajor> d;
      TASSIGN(s, 0);
      TASSIGN(t, 64 * 128 * 4);
      TASSIGN(d, 64 * 128 * 4 + 2048);
      TROWSUM(d, s, t);
    });
  });
  BOOST_TEST(contains(shortcut, "TROWSUM: operand tmp"), shortcut);
  BOOST_TEST(contains(shortcut, "writes the group reductions' 1024 partial results there"), shortcut);
}

// The row copy of the A2A3 column algorithms writes whole 32-byte blocks: an odd width is reported.
BOOST_AUTO_TEST_CASE(a2a3_column_reductions_report_the_block_they_copy_past_the_valid_width) {
  auto kernel = [] {
    DynTile<float, 8, 64> s(8, 13);
    DynTile<float, 1, 64> d(1, 13);
    TASSIGN(s, 0);
    TASSIGN(d, 4096);
    TCOLMAX(d, s);
  };
  const std::vector<DeviceWarning> w = launch({}, kernel).warnings();
  BOOST_TEST_REQUIRE(w.size() == 1u);
  BOOST_TEST(contains(w[0].message, "TCOLMAX: the A2A3 algorithm copies src row 0 into dst in whole 32-byte blocks, so dst's "
                                    "row is also written 12 bytes past its 13 valid columns"), w[0].message);
  BOOST_TEST(launch({.target = Target::A5}, kernel).warnings().empty());
}

namespace {
template <class T, int R, int C, class Issue>
std::uint64_t cycles(Target target, Issue issue) {
  auto k = [=]() -> Kernel {
    DynTile<T, R, C> s(R, C), t(R, C), d(R, C);
    TASSIGN(s, 0);
    TASSIGN(t, 0x11000);
    TASSIGN(d, 0x22000);
    co_await issue(d, s, t);
  };
  return launch({.target = target, .model_only = true}, k).cores[0].pipes[PIPE_V].busy_cycles;
}
}  // namespace

// pto-isa tests/costmodel/st (hardware, 910B3) in comments. A2A3 TROWSUM f32 64x64: one count-mode vcadd of
// 64 repeats, 14 + 7 x 64 + 32 + 16 (counter mode) = 510 (chip 492); TROWMAX likewise 510 (chip 480);
// half 64x128: the same 510 (chip 495).
BOOST_AUTO_TEST_CASE(modeled_cycles_follow_the_chips_stream) {
  auto rowsum = [](auto& d, auto& s, auto& t) { return TROWSUM(d, s, t); };
  auto rowmax = [](auto& d, auto& s, auto& t) { return TROWMAX(d, s, t); };
  const std::uint64_t sum32 = cycles<float, 64, 64>(Target::A2A3, rowsum), max32 = cycles<float, 64, 64>(Target::A2A3, rowmax);
  const std::uint64_t sum16 = cycles<half, 64, 128>(Target::A2A3, rowsum);
  BOOST_TEST(sum32 == 510u);
  BOOST_TEST(max32 == 510u);
  BOOST_TEST(sum16 == 510u);
}
