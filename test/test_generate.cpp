// TCI: pto-isa's CPU test cases (tests/cpu/st/testcase/tci: int32 1x16, ascending from 0, descending
// from 100), every dtype each target takes, wrap-around, A2A3's tmp form (whose descending order
// computes -(start + j), as the chip's vector path does), TCI on the scalar pipe feeding a vector
// instruction, the errors, the scalar loop's cycles. References: start +- j in the element type.
#define BOOST_TEST_MODULE generate
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <pto/pto-inst.hpp>

#include "element_ref.hpp"

using namespace pto;
using pto_test::contains;
using pto_test::error_of;

namespace {
template <class T, int C> using Row = Tile<TileType::Vec, T, 1, C, BLayout::RowMajor, -1, -1>;
template <class T, int C> using GmRow = GlobalTensor<T, Shape<1, 1, 1, 1, -1>, pto::Stride<1, 1, 1, C, 1>>;

// TCI of `vc` columns on `target`, stored to GM; `tmp`: the tmp form.
template <class T, int C, int Desc>
std::vector<T> run_tci(Target target, int vc, T start, bool tmp) {
  std::vector<T> out(C, T(0));
  launch({.target = target}, [=](T* o) {
    Row<T, C> d(1, vc);
    Tile<TileType::Vec, float, 1, 1024> t;
    TASSIGN(d, 0), TASSIGN(t, 0x4000);
    if (tmp) TCI<Row<T, C>, decltype(t), T, Desc>(d, start, t);
    else TCI<Row<T, C>, T, Desc>(d, start);
    GmRow<T, C> g(o, {vc});
    set_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
    TSTORE(g, d);
  }, out);
  return out;
}
template <class T, int C, int Desc>
void check(Target target, int vc, T start, bool tmp) {
  const std::vector<T> got = run_tci<T, C, Desc>(target, vc, start, tmp);
  const bool negate = tmp && target == Target::A2A3 && Desc;
  std::size_t bad = 0;
  for (int j = 0; j < vc; ++j) {
    T want;
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      const U s = U(start);
      want = T(negate ? U(U(0) - U(s + U(j))) : Desc ? U(s - U(j)) : U(s + U(j)));
    } else {
      want = T(float(Desc ? double(float(start)) - j : double(float(start)) + j));
    }
    bad += std::memcmp(&got[std::size_t(j)], &want, sizeof(T)) != 0;
  }
  BOOST_TEST_CONTEXT(name_of(target) << " TCI " << name_of(dtype_v<T>) << " 1x" << vc << (Desc ? " descending" : "") << (tmp ? " tmp" : "")) {
    BOOST_TEST(bad == 0u);
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(tci_writes_start_plus_or_minus_the_column) {
  for (Target t : {Target::A2A3, Target::A5}) {
    check<std::int32_t, 16, 0>(t, 16, 0, false);    // pto-isa case_i32_asc_S0
    check<std::int32_t, 16, 1>(t, 16, 100, false);  // case_i32_desc_S100
    check<std::int32_t, 256, 1>(t, 200, -7, false);
    check<std::uint32_t, 256, 0>(t, 200, 4294967200u, false);  // wraps past 2^32 - 1
    check<std::int16_t, 512, 0>(t, 300, 32700, false);          // wraps past 32767
    check<std::uint16_t, 512, 1>(t, 300, 5, false);              // wraps below 0
    check<std::int32_t, 256, 0>(t, 200, 5, true);
    check<std::int32_t, 256, 1>(t, 200, 5, true);  // A2A3: -(5 + j); A5: 5 - j
    check<std::int16_t, 512, 1>(t, 300, 9, true);
    check<std::int32_t, 64, 1>(t, 40, 0, true);     // the start the NPU's own tests use: both orders agree
  }
  check<float, 256, 0>(Target::A2A3, 200, 0.5f, false);
  check<half, 256, 1>(Target::A2A3, 200, half(10.0f), false);
  check<bfloat16_t, 256, 0>(Target::A2A3, 100, bfloat16_t(3.0f), false);
}

// TCI runs on the scalar pipe in program order: a vector instruction issued after it reads its values
// (the checker sees no race), in manual and auto mode.
BOOST_AUTO_TEST_CASE(a_vector_instruction_issued_after_tci_reads_its_values) {
  for (Mode m : {Mode::Manual, Mode::Auto}) {
    std::vector<std::int32_t> out(64, 0);
    launch({.target = Target::A2A3, .mode = m, .check = SyncCheck::Throw}, [m](std::int32_t* o) {
      Tile<TileType::Vec, std::int32_t, 1, 64> d, e;
      TASSIGN(d, 0), TASSIGN(e, 0x100);
      TCI<decltype(d), std::int32_t, 0>(d, 10);
      TADDS(e, d, 1);
      GlobalTensor<std::int32_t, Shape<1, 1, 1, 1, 64>, pto::Stride<1, 1, 1, 64, 1>> g(o);
      if (m == Mode::Manual) {
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      }
      TSTORE(g, e);
    }, out);
    std::size_t bad = 0;
    for (int j = 0; j < 64; ++j) bad += out[std::size_t(j)] != 11 + j;
    BOOST_TEST(bad == 0u);
  }
}

BOOST_AUTO_TEST_CASE(errors_name_the_instruction_the_operand_and_the_rule) {
  auto on = [](Target tg, auto body) { return error_of([&] { launch({.target = tg}, [&] { body(); }); }); };
  std::string e = on(Target::A5, [] {
    Tile<TileType::Vec, float, 1, 16> d;
    TASSIGN(d, 0);
    TCI<decltype(d), float, 0>(d, 0.0f);
  });
  BOOST_TEST(contains(e, "TCI: operand dst dtype float is not supported on A5"), e);
  BOOST_TEST(contains(e, "supported on: A2A3"), e);
  e = on(Target::A2A3, [] {
    Tile<TileType::Vec, float, 1, 16> d;
    Tile<TileType::Vec, float, 1, 512> t;
    TASSIGN(d, 0), TASSIGN(t, 0x1000);
    TCI<decltype(d), decltype(t), float, 0>(d, 0.0f, t);
  });
  BOOST_TEST(contains(e, "integer bit patterns"), e);
  e = on(Target::A2A3, [] {
    Tile<TileType::Vec, std::int32_t, 1, 128> d;
    Tile<TileType::Vec, float, 1, 512> t;  // 2048 bytes: the repeat path writes 2560
    TASSIGN(d, 0), TASSIGN(t, 0x1000);
    TCI<decltype(d), decltype(t), std::int32_t, 0>(d, 0, t);
  });
  BOOST_TEST(contains(e, "TCI: operand tmp"), e);
  BOOST_TEST(contains(e, "writes 2560 bytes"), e);
}

// Modeled: A2A3's scalar loop costs a scalar element store per column (4 cycles each).
BOOST_AUTO_TEST_CASE(the_scalar_loop_costs_per_column) {
  auto s_busy = [](auto cols) {
    constexpr int C = decltype(cols)::value;
    return launch({.target = Target::A2A3, .model_only = true}, [] {
      Tile<TileType::Vec, std::int32_t, 1, C> d;
      TASSIGN(d, 0);
      TCI<decltype(d), std::int32_t, 0>(d, 0);
    }).cores[0].pipes[PIPE_S].busy_cycles;
  };
  BOOST_TEST(s_busy(std::integral_constant<int, 64>{}) - s_busy(std::integral_constant<int, 16>{}) == 48u * 4u);
}
