// TCI, TRANDOM and THISTOGRAM. TCI: pto-isa's CPU test cases (tests/cpu/st/testcase/tci: int32 1x16, ascending from 0, descending
// from 100), every dtype each target takes, wrap-around, A2A3's tmp form (whose descending order
// computes -(start + j), as the chip's vector path does), TCI on the scalar pipe feeding a vector
// instruction, the errors, the scalar loop's cycles. References: start +- j in the element type.
#define BOOST_TEST_MODULE generate
#include <boost/test/unit_test.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <random>
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

// Auto mode: TCI (the scalar pipe, at issue) into bytes an earlier TLOAD still writes waits for that TLOAD,
// as a queued instruction would (a regression: TCI wrote first and the load overwrote it).
BOOST_AUTO_TEST_CASE(auto_mode_orders_tci_after_a_pending_write_to_its_bytes) {
  for (Target t : {Target::A2A3, Target::A5}) {
    std::vector<float> x(32, 123.0f);
    std::vector<std::int32_t> out(32, -1);
    const LaunchReport r = launch({.target = t, .mode = Mode::Auto, .check = SyncCheck::Report}, [](float* xs, std::int32_t* o) {
      {
        Tile<TileType::Vec, float, 1, 32> a;  // auto-placed, dies with its load in flight
        GlobalTensor<float, Shape<1, 1, 1, 1, 32>, pto::Stride<1, 1, 1, 32, 1>> gx(xs);
        TLOAD(a, gx);
      }
      Tile<TileType::Vec, std::int32_t, 1, 32> c;  // placed over a's bytes
      TCI<decltype(c), std::int32_t, 0>(c, 5);
      GlobalTensor<std::int32_t, Shape<1, 1, 1, 1, 32>, pto::Stride<1, 1, 1, 32, 1>> g(o);
      TSTORE(g, c);
    }, x, out);
    BOOST_TEST(r.findings().empty());
    std::size_t compared = 0;
    for (int j = 0; j < 32; ++j, ++compared) BOOST_TEST(out[std::size_t(j)] == 5 + j);
    BOOST_TEST(compared == 32u);
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
    static constexpr int C = decltype(cols)::value;  // static: clang 14 would make the kernel lambda capture it
    return launch({.target = Target::A2A3, .model_only = true}, [] {
      Tile<TileType::Vec, std::int32_t, 1, C> d;
      TASSIGN(d, 0);
      TCI<decltype(d), std::int32_t, 0>(d, 0);
    }).cores[0].pipes[PIPE_S].busy_cycles;
  };
  BOOST_TEST(s_busy(std::integral_constant<int, 64>{}) - s_busy(std::integral_constant<int, 16>{}) == 48u * 4u);
}

// ---- TRANDOM ------------------------------------------------------------------------------------------
// The reference: Philox-4x32-R written from its definition (Salmon, Moraes, Dror, Shaw, SC'11), checked
// against the published known-answer vectors of Philox-4x32-10 (Random123's kat_vectors), then arranged
// as a5 TRandom.hpp stores it (runtime/generate.hpp: element k of a row is word k % 4 of the block for
// counter + base(row) + k / 4).
namespace {
using Block = std::array<std::uint32_t, 4>;
Block philox_ref(Block x, std::uint32_t k0, std::uint32_t k1, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    if (r) k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
    const std::uint64_t a = std::uint64_t(x[0]) * 0xD2511F53u, b = std::uint64_t(x[2]) * 0xCD9E8D57u;
    x = {std::uint32_t(b >> 32) ^ x[1] ^ k0, std::uint32_t(b), std::uint32_t(a >> 32) ^ x[3] ^ k1, std::uint32_t(a)};
  }
  return x;
}
Block plus(Block c, unsigned __int128 n) {
  unsigned __int128 v = 0;
  for (int w = 3; w >= 0; --w) v = v << 32 | c[std::size_t(w)];
  v += n;
  for (int w = 0; w < 4; ++w, v >>= 32) c[std::size_t(w)] = std::uint32_t(v);
  return c;
}
template <class T, int R, int C, std::uint16_t Rounds>
std::vector<T> run_trandom(int vr, int vc, const TRandomKey& key, const TRandomCounter& ctr) {
  std::vector<T> out(R * std::size_t(C), T(0x5a5a5a5a));
  launch({.target = Target::A5}, [&](T* o) {
    Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1> d(vr, vc);
    TASSIGN(d, 0);
    Event<Op::SCALAR, Op::TRANDOM> e0;
    e0.Init();
    Event<Op::TRANDOM, Op::TSTORE_VEC> e1 = TRANDOM<Rounds>(d, key, ctr, e0);
    GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, C, 1>> g(o, {vr, vc});
    TSTORE(g, d, e1);
  }, out);
  return out;
}
template <class T, int R, int C, std::uint16_t Rounds>
void check_trandom(int vr, int vc, std::uint32_t k0, std::uint32_t k1, Block ctr) {
  const TRandomKey key = {k0, k1};
  const TRandomCounter c = {ctr[0], ctr[1], ctr[2], ctr[3]};
  const std::vector<T> got = run_trandom<T, R, C, Rounds>(vr, vc, key, c);
  std::vector<T> want(got.size(), T(0x5a5a5a5a));
  const int chunks = (vc + 255) / 256;
  const unsigned __int128 row_step = 64u * unsigned(chunks - 1) + unsigned((vc - 1) % 64 + 1);
  for (int i = 0; i < vr; ++i)
    for (int k = 0; k < vc; ++k) {
      const Block b = philox_ref(plus(ctr, row_step * unsigned(i) + unsigned(k) / 4), k0, k1, Rounds);
      want[std::size_t(i) * C + std::size_t(k)] = T(b[std::size_t(k % 4)]);
    }
  BOOST_TEST_CONTEXT("TRANDOM<" << Rounds << "> " << name_of(dtype_v<T>) << ' ' << vr << 'x' << vc << " of " << R << 'x' << C) {
    BOOST_TEST(std::memcmp(got.data(), want.data(), got.size() * sizeof(T)) == 0);
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(philox_reference_matches_the_published_vectors) {
  BOOST_TEST((philox_ref({0, 0, 0, 0}, 0, 0, 10) == Block{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  BOOST_TEST((philox_ref({~0u, ~0u, ~0u, ~0u}, ~0u, ~0u, 10) == Block{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  BOOST_TEST((philox_ref({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, 0xa4093822, 0x299f31d0, 10) ==
              Block{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

BOOST_AUTO_TEST_CASE(trandom_is_philox_in_the_chips_order) {
  check_trandom<std::uint32_t, 4, 256, 10>(4, 256, 0x01234, 0x56789, {0, 0, 0, 0});  // pto-isa's case, its doc's key
  check_trandom<std::int32_t, 4, 256, 10>(4, 256, 0x9a3b, 0x77, {0xfffffff0u, ~0u, ~0u, 5});  // carries across words
  check_trandom<std::uint32_t, 3, 512, 7>(3, 300, 1, 2, {7, 0, 0, 0});   // two chunks, a partial one; 7 rounds
  check_trandom<std::uint32_t, 5, 64, 10>(5, 18, 3, 4, {0, 1, 0, 0});    // a row of 18: the next row starts 18 later
  check_trandom<std::int32_t, 2, 1024, 10>(2, 1024, 5, 6, {1, 2, 3, 4}); // four whole chunks per row
}

BOOST_AUTO_TEST_CASE(trandom_errors) {
  const TRandomKey key = {1, 2};
  const TRandomCounter ctr = {0, 0, 0, 0};
  const std::string e = error_of([&] {
    launch({.target = Target::A2A3}, [&] {
      Tile<TileType::Vec, std::uint32_t, 1, 64> d;
      TASSIGN(d, 0);
      TRANDOM(d, key, ctr);
    });
  });
  BOOST_TEST((contains(e, "TRANDOM: operand dst") && contains(e, "exists on A5 only")), e);
}

// ---- THISTOGRAM ---------------------------------------------------------------------------------------
// pto-isa's A5 test shapes (tests/npu/a5/src/st/testcase/thistogram: uint16 2x128, 4x64, 8x128, 1x256,
// 4x256, 2x100 for both bytes; uint32 for every byte), values drawn so the filters pass some elements
// and not others. Reference: count the selected byte of every valid element that passes the filter,
// then sum the bins up (the chip's histogram is cumulative).
namespace {
template <class S, int R, int C, HistByte B>
void check_histogram(unsigned seed) {
  static constexpr bool u16 = sizeof(S) == 2;  // static: clang 14 would make the kernel lambda capture it
  static constexpr int CP = u16 ? (C + 15) / 16 * 16 : (C + 31) / 32 * 32;  // src Cols (uint32: idx's Cols too) (static: clang 14 would make the kernel lambda capture it)
  constexpr int levels = u16 ? (B == HistByte::BYTE_0 ? 1 : 0) : 3 - int(B);
  std::mt19937 g(seed);
  std::vector<S> src(R * std::size_t(C));
  // Upper bytes from a few values, so the filters select part of each row.
  for (auto& v : src) {
    const std::uint32_t top = g() % 3, b2 = g() % 2, b1 = g() % 2, low = g() % 256;
    v = u16 ? S(top << 8 | low) : S(top << 24 | b2 << 16 | b1 << 8 | low);
  }
  std::vector<std::uint8_t> idx(u16 ? 32 : 3 * std::size_t(CP), 0);
  if (u16) {
    for (int r = 0; r < R; ++r) idx[std::size_t(r)] = std::uint8_t(r % 3);
  } else {
    for (int c = 0; c < CP; ++c) idx[std::size_t(c)] = 1, idx[std::size_t(CP) + c] = std::uint8_t(c == 0 ? 0 : 1), idx[2 * std::size_t(CP) + c] = std::uint8_t(c == 0 ? 1 : 0);
  }
  std::vector<std::uint32_t> out(R * std::size_t(256), 0xdeadbeefu);
  launch({.target = Target::A5}, [](const S* s, std::uint32_t* o, const std::uint8_t* ix) {
    GlobalTensor<S, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>> sg(const_cast<S*>(s));
    GlobalTensor<std::uint32_t, Shape<1, 1, 1, R, 256>, pto::Stride<1, 1, 1, 256, 1>> og(o);
    Tile<TileType::Vec, S, R, CP, BLayout::RowMajor, -1, -1> st(R, C);
    Tile<TileType::Vec, std::uint32_t, R, 256, BLayout::RowMajor, -1, -1> dt(R, 256);
    TASSIGN(st, 0x0);
    TASSIGN(dt, 0x10000);
    // idx: uint16, a ColMajor column of one byte per row; uint32, RowMajor rows of one byte per level.
    constexpr int IR = u16 ? 32 : levels ? levels : 1, IC = u16 ? 1 : CP;
    using It = std::conditional_t<u16, Tile<TileType::Vec, std::uint8_t, IR, IC, BLayout::ColMajor, -1, -1>,
                                  Tile<TileType::Vec, std::uint8_t, IR, IC, BLayout::RowMajor, -1, -1>>;
    using Ig = std::conditional_t<u16, GlobalTensor<std::uint8_t, Shape<1, 1, 1, R, 1>, pto::Stride<1, 1, 1, 1, 1>, Layout::DN>,
                                  GlobalTensor<std::uint8_t, Shape<1, 1, 1, IR, CP>, pto::Stride<1, 1, 1, CP, 1>>>;
    It it(u16 ? R : IR, IC);
    Ig ig(const_cast<std::uint8_t*>(ix));
    TASSIGN(it, 0x30000);
    TLOAD(st, sg);
    TLOAD(it, ig);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    THISTOGRAM<B>(dt, st, it);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(og, dt);
  }, src, out, idx);
  std::vector<std::uint32_t> want(out.size(), 0);
  const int k = int(B);
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      const std::uint32_t v = src[std::size_t(r) * C + c];
      bool pass = true;
      if (u16 && levels) pass = (v >> 8) == idx[std::size_t(r)];
      if (!u16)
        for (int l = 0; l < levels; ++l) pass = pass && ((v >> (24 - 8 * l)) & 0xff) == idx[std::size_t(l) * CP];
      if (pass) ++want[std::size_t(r) * 256 + ((v >> (8 * k)) & 0xff)];
    }
  for (int r = 0; r < R; ++r)  // ascending cumulative, as the chip's chistv2 (pto-isa's A5 goldens)
    for (int b = 1; b < 256; ++b) want[std::size_t(r) * 256 + b] += want[std::size_t(r) * 256 + b - 1];
  BOOST_TEST_CONTEXT("THISTOGRAM<BYTE_" << k << "> " << name_of(dtype_v<S>) << ' ' << R << 'x' << C) {
    BOOST_TEST(out == want);
    std::uint64_t total = 0;
    for (int r = 0; r < R; ++r) total += want[std::size_t(r) * 256 + 255];
    BOOST_TEST(total > 0u);  // the filter passes something
    if (levels) BOOST_TEST(total < std::uint64_t(R) * C);  // ... and drops something
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(thistogram_counts_the_bytes_that_pass_the_filter) {
  check_histogram<std::uint16_t, 2, 128, HistByte::BYTE_1>(1);
  check_histogram<std::uint16_t, 4, 64, HistByte::BYTE_1>(2);
  check_histogram<std::uint16_t, 8, 128, HistByte::BYTE_1>(3);
  check_histogram<std::uint16_t, 1, 256, HistByte::BYTE_1>(4);
  check_histogram<std::uint16_t, 4, 256, HistByte::BYTE_1>(5);
  check_histogram<std::uint16_t, 2, 100, HistByte::BYTE_1>(6);
  check_histogram<std::uint16_t, 2, 128, HistByte::BYTE_0>(7);
  check_histogram<std::uint16_t, 4, 64, HistByte::BYTE_0>(8);
  check_histogram<std::uint16_t, 8, 128, HistByte::BYTE_0>(9);
  check_histogram<std::uint16_t, 1, 256, HistByte::BYTE_0>(10);
  check_histogram<std::uint16_t, 4, 256, HistByte::BYTE_0>(11);
  check_histogram<std::uint16_t, 2, 100, HistByte::BYTE_0>(12);
  check_histogram<std::uint32_t, 2, 128, HistByte::BYTE_3>(13);
  check_histogram<std::uint32_t, 4, 300, HistByte::BYTE_2>(14);
  check_histogram<std::uint32_t, 2, 256, HistByte::BYTE_1>(15);
  check_histogram<std::uint32_t, 3, 100, HistByte::BYTE_0>(16);
}

BOOST_AUTO_TEST_CASE(thistogram_errors) {
  auto run = [](Target tg, int src_rows) {
    return error_of([=] {
      launch({.target = tg}, [=] {
        Tile<TileType::Vec, std::uint16_t, 4, 128, BLayout::RowMajor, -1, -1> s(src_rows, 128);
        Tile<TileType::Vec, std::uint32_t, 2, 256> d;
        Tile<TileType::Vec, std::uint8_t, 32, 1, BLayout::ColMajor> x;
        TASSIGN(s, 0), TASSIGN(d, 0x1000), TASSIGN(x, 0x4000);
        THISTOGRAM<HistByte::BYTE_0>(d, s, x);
      });
    });
  };
  const std::string e = run(Target::A2A3, 2);
  BOOST_TEST((contains(e, "THISTOGRAM: operand dst") && contains(e, "exists on A5 only")), e);
  const std::string e2 = run(Target::A5, 4);
  BOOST_TEST(contains(e2, "fewer than src"), e2);
  // uint16, BYTE_0: one filter byte per src row, and idx holds 32.
  const std::string e3 = error_of([] {
    launch({.target = Target::A5}, [] {
      Tile<TileType::Vec, std::uint16_t, 40, 16> s;
      Tile<TileType::Vec, std::uint32_t, 40, 256> d;
      Tile<TileType::Vec, std::uint8_t, 32, 1, BLayout::ColMajor> x;
      TASSIGN(s, 0), TASSIGN(d, 0x1000), TASSIGN(x, 0xc000);
      THISTOGRAM<HistByte::BYTE_0>(d, s, x);
    });
  });
  BOOST_TEST((contains(e3, "THISTOGRAM: operand idx") && contains(e3, "one filter byte per src row, and src has 40 valid rows")), e3);
}
