// TSCATTER (index and mask-pattern forms) and TGATHERB: pto-isa's CPU test shapes (tests/cpu/st/testcase/
// tscatter, tgatherb) on both targets, with indices and offsets that are not the identity, repeated
// indices, partial blocks, and the error paths. References are written here from the NPUs' definitions:
// TSCATTER zeroes dst whole, then places src[i][j] at the flat element indexes[i][j] (or at column
// times * j + position, row times * i + position), later elements winning; TGATHERB copies the 32-byte
// block at src + offset[r][b] to dst's row r, block b. Results are compared bit for bit.
#define BOOST_TEST_MODULE scatter
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

#include "element_ref.hpp"
#include "ub_harness.hpp"

using namespace pto;
using pto_test::contains;
using pto_test::error_of;
using pto_test::get;
using pto_test::kUb;
using pto_test::put;
using pto_test::run_ub;
using pto_test::Ub;

namespace {
template <class T, int R, int C> using DynTile = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1>;
Target both[] = {Target::A2A3, Target::A5};

template <class T> std::vector<T> values(std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::vector<T> v(n);
  for (auto& e : v) e = T(int(g() % 200) - 100 + (g() % 2 ? 0 : 1));
  return v;
}

// ---- TSCATTER, index form ----------------------------------------------------------------------------

// src R x C (valid xr x xc, the indexes' region), dst DR x DC; indices drawn over dst's storage, some
// repeated. dst starts as garbage (0x5a) to show it is zeroed whole.
template <class T, class I, int R, int C, int DR, int DC>
void check_scatter_index(Target tg, int xr, int xc, unsigned seed) {
  const std::vector<T> src = values<T>(std::size_t(R) * C, seed);
  std::mt19937 g(seed + 7);
  std::vector<I> idx(R * std::size_t(C));
  for (auto& e : idx) e = I(g() % (DR * DC));
  idx[1] = idx[0];  // a repeated index: the later element wins
  constexpr std::size_t kIdx = std::size_t(R) * C * sizeof(T), kDst = kIdx + std::size_t(R) * C * sizeof(I);
  Ub ub(kUb, std::byte{0x5a});
  put(ub, 0, src);
  put(ub, kIdx, idx);
  const Ub out = run_ub(tg, ub, [&] {
    DynTile<T, R, C> s(R, C);
    DynTile<I, R, C> x(xr, xc);
    DynTile<T, DR, DC> d(1, 1);  // the chips zero and address dst's storage whatever its valid region
    TASSIGN(s, 0), TASSIGN(x, kIdx), TASSIGN(d, kDst);
    TSCATTER(d, s, x);
  });
  std::vector<T> want(DR * std::size_t(DC), T(0));
  for (int i = 0; i < xr; ++i)
    for (int j = 0; j < xc; ++j) want[std::size_t(idx[std::size_t(i) * C + j])] = src[std::size_t(i) * C + j];
  const auto got = get<T>(out, kDst, want.size());
  BOOST_TEST_CONTEXT(name_of(tg) << " TSCATTER " << name_of(dtype_v<T>) << " indexes " << name_of(dtype_v<I>) << ' ' << xr << 'x' << xc) {
    BOOST_TEST(std::memcmp(got.data(), want.data(), want.size() * sizeof(T)) == 0);
  }
}

// ---- TSCATTER, mask-pattern form ---------------------------------------------------------------------

template <class T, int SR, int SC, MaskPattern P, ScatterAxis A>
void check_scatter_mask(Target tg) {
  constexpr int times = P == MaskPattern::P1111 ? 1 : (P == MaskPattern::P0101 || P == MaskPattern::P1010) ? 2 : 4;
  constexpr int at = (P == MaskPattern::P1010 || P == MaskPattern::P0010) ? 1 : P == MaskPattern::P0100 ? 2 : P == MaskPattern::P1000 ? 3 : 0;
  constexpr bool col = A == ScatterAxis::SCATTER_COL;
  constexpr int DR = col ? SR * times : SR, DC = col ? SC : SC * times;
  const std::vector<T> src = values<T>(std::size_t(SR) * SC, unsigned(SR * 31 + SC + int(P)));
  constexpr std::size_t kDst = std::size_t(SR) * SC * sizeof(T);
  Ub ub(kUb, std::byte{0x5a});
  put(ub, 0, src);
  const Ub out = run_ub(tg, ub, [&] {
    Tile<TileType::Vec, T, SR, SC> s;
    Tile<TileType::Vec, T, DR, DC> d;
    TASSIGN(s, 0), TASSIGN(d, kDst);
    TSCATTER<P, A>(d, s);
  });
  std::vector<T> want(DR * std::size_t(DC), T(0));
  for (int i = 0; i < SR; ++i)
    for (int j = 0; j < SC; ++j) {
      const std::size_t to = col ? std::size_t(times * i + at) * DC + std::size_t(j) : std::size_t(i) * DC + std::size_t(times * j + at);
      want[to] = src[std::size_t(i) * SC + j];
    }
  const auto got = get<T>(out, kDst, want.size());
  BOOST_TEST_CONTEXT(name_of(tg) << " TSCATTER pattern " << int(P) << (col ? " by columns " : " by rows ") << name_of(dtype_v<T>) << ' ' << SR << 'x' << SC) {
    BOOST_TEST(std::memcmp(got.data(), want.data(), want.size() * sizeof(T)) == 0);
  }
}

// ---- TGATHERB ------------------------------------------------------------------------------------------

// dst R x C (valid vr x vc) from src R x C with the blocks in a shuffled order (identity when `shuffle`
// is false: pto-isa's cases). Returns whether dst's valid region matched; A2A3's whole-block tail of
// one row is checked in its own test.
template <class T, int R, int C>
void check_gatherb(Target tg, int vr, int vc, bool shuffle) {
  constexpr int kBlocks = R * C * int(sizeof(T)) / 32, OC = std::max(8, (C * int(sizeof(T)) / 32 + 7) / 8 * 8);
  std::vector<T> src(R * std::size_t(C));
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = T(int(i % 251));
  std::vector<std::uint32_t> perm(kBlocks);
  std::iota(perm.begin(), perm.end(), 0u);
  if (shuffle) std::shuffle(perm.begin(), perm.end(), std::mt19937(unsigned(R * C)));
  std::vector<std::uint32_t> off(R * std::size_t(OC), 0);
  const int per_row = C * int(sizeof(T)) / 32;
  for (int r = 0; r < R; ++r)
    for (int b = 0; b < per_row; ++b) off[std::size_t(r) * OC + b] = perm[std::size_t(r) * per_row + b] * 32;
  constexpr std::size_t kOff = std::size_t(R) * C * sizeof(T), kDst = kOff + std::size_t(R) * OC * 4;
  static_assert(kDst + std::size_t(R) * C * sizeof(T) <= kUb);
  Ub ub(kUb, std::byte{0x5a});
  put(ub, 0, src);
  put(ub, kOff, off);
  const Ub out = run_ub(tg, ub, [&] {
    Tile<TileType::Vec, T, R, C> s;
    Tile<TileType::Vec, std::uint32_t, R, OC> o;
    DynTile<T, R, C> d(vr, vc);
    TASSIGN(s, 0), TASSIGN(o, kOff), TASSIGN(d, kDst);
    TGATHERB(d, s, o);
  });
  const std::size_t epb = 32 / sizeof(T);
  std::size_t bad = 0;
  for (int r = 0; r < vr; ++r)
    for (int c = 0; c < vc; ++c) {
      const std::size_t block = perm[std::size_t(r) * per_row + std::size_t(c) / epb];
      const T want = src[block * epb + std::size_t(c) % epb];
      const T got = get<T>(out, kDst + (std::size_t(r) * C + std::size_t(c)) * sizeof(T), 1)[0];
      bad += std::memcmp(&got, &want, sizeof(T)) != 0;
    }
  std::size_t touched = 0;  // past the valid columns dst keeps its bytes (no A2A3 case here has a tail)
  for (int r = 0; r < R; ++r)
    for (std::size_t b = std::size_t(r < vr ? vc : 0) * sizeof(T); b < C * sizeof(T); ++b)
      touched += out[kDst + std::size_t(r) * C * sizeof(T) + b] != std::byte{0x5a};
  BOOST_TEST_CONTEXT(name_of(tg) << " TGATHERB " << name_of(dtype_v<T>) << ' ' << vr << 'x' << vc << " of " << R << 'x' << C << (shuffle ? " shuffled" : "")) {
    BOOST_TEST(bad == 0u);
    BOOST_TEST(touched == 0u);
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(tscatter_places_each_element_at_its_index) {
  for (Target tg : both) {
    // pto-isa's case is float data with uint16 indices, which both NPUs reject: here its shape with 32-bit ones
    check_scatter_index<float, std::uint32_t, 2, 32, 2, 32>(tg, 1, 32, 1);
    check_scatter_index<float, std::int32_t, 16, 16, 16, 16>(tg, 16, 16, 2);
    check_scatter_index<std::int32_t, std::uint32_t, 32, 32, 16, 64>(tg, 12, 10, 3);
    check_scatter_index<half, std::uint16_t, 16, 16, 16, 32>(tg, 16, 16, 4);
    check_scatter_index<std::int16_t, std::int16_t, 16, 16, 8, 64>(tg, 16, 16, 5);
    check_scatter_index<std::uint8_t, std::uint16_t, 8, 32, 8, 64>(tg, 8, 32, 6);
  }
  check_scatter_index<std::int64_t, std::uint32_t, 4, 64, 8, 32>(Target::A5, 4, 64, 7);
}

BOOST_AUTO_TEST_CASE(tscatter_spreads_by_pattern) {
  for (Target tg : both) {
    // pto-isa's by-rows cases (dst 4x64 ... 7x320) and by-columns cases
    check_scatter_mask<float, 4, 32, MaskPattern::P0101, ScatterAxis::SCATTER_ROW>(tg);
    check_scatter_mask<float, 7, 512, MaskPattern::P1010, ScatterAxis::SCATTER_ROW>(tg);
    check_scatter_mask<float, 3, 264, MaskPattern::P0001, ScatterAxis::SCATTER_ROW>(tg);
    check_scatter_mask<float, 4, 32, MaskPattern::P0010, ScatterAxis::SCATTER_ROW>(tg);
    check_scatter_mask<float, 5, 64, MaskPattern::P0100, ScatterAxis::SCATTER_ROW>(tg);
    check_scatter_mask<float, 6, 72, MaskPattern::P1000, ScatterAxis::SCATTER_ROW>(tg);
    check_scatter_mask<float, 7, 320, MaskPattern::P1111, ScatterAxis::SCATTER_ROW>(tg);
    check_scatter_mask<half, 5, 64, MaskPattern::P0101, ScatterAxis::SCATTER_ROW>(tg);
    check_scatter_mask<std::uint16_t, 7, 512, MaskPattern::P1010, ScatterAxis::SCATTER_ROW>(tg);
    check_scatter_mask<std::int32_t, 6, 72, MaskPattern::P1000, ScatterAxis::SCATTER_ROW>(tg);
    check_scatter_mask<float, 4, 64, MaskPattern::P0101, ScatterAxis::SCATTER_COL>(tg);
    check_scatter_mask<float, 4, 64, MaskPattern::P1010, ScatterAxis::SCATTER_COL>(tg);
    check_scatter_mask<float, 4, 64, MaskPattern::P0100, ScatterAxis::SCATTER_COL>(tg);
    check_scatter_mask<half, 5, 64, MaskPattern::P1010, ScatterAxis::SCATTER_COL>(tg);
    check_scatter_mask<half, 4, 64, MaskPattern::P1000, ScatterAxis::SCATTER_COL>(tg);
    check_scatter_mask<float, 7, 64, MaskPattern::P1111, ScatterAxis::SCATTER_COL>(tg);
    check_scatter_mask<std::uint8_t, 4, 64, MaskPattern::P0010, ScatterAxis::SCATTER_ROW>(tg);
  }
  check_scatter_mask<std::int8_t, 4, 64, MaskPattern::P0101, ScatterAxis::SCATTER_COL>(Target::A5);
  check_scatter_mask<std::int64_t, 4, 16, MaskPattern::P0100, ScatterAxis::SCATTER_ROW>(Target::A5);
  check_scatter_mask<std::uint64_t, 4, 32, MaskPattern::P1010, ScatterAxis::SCATTER_COL>(Target::A5);
}

BOOST_AUTO_TEST_CASE(tgatherb_copies_blocks_at_their_offsets) {
  for (Target tg : both) {
    // pto-isa's cases (identity offsets; its 1 x 32768 ones shortened to fit beside their offsets)
    check_gatherb<float, 2, 128>(tg, 2, 128, false);
    check_gatherb<std::int32_t, 2, 128>(tg, 2, 128, false);
    check_gatherb<std::int16_t, 1, 16384>(tg, 1, 16384, false);
    check_gatherb<std::uint16_t, 257, 128>(tg, 257, 128, false);
    check_gatherb<std::int8_t, 2, 256>(tg, 2, 256, false);
    check_gatherb<std::uint8_t, 2, 8192>(tg, 2, 8192, false);
    // shuffled blocks
    check_gatherb<float, 8, 128>(tg, 8, 128, true);
    check_gatherb<half, 16, 256>(tg, 12, 256, true);
  }
  check_gatherb<float, 8, 128>(Target::A5, 8, 100, true);  // A5 masks a row's last block per element
  check_gatherb<std::int8_t, 4, 256>(Target::A5, 3, 77, true);
}

// A2A3 gathers one row's part past its whole 256-byte repeats as 8 whole blocks: the bytes past the
// valid columns, up to the 8th block, are gathered too.
BOOST_AUTO_TEST_CASE(a2a3_tgatherb_gathers_a_row_tail_as_eight_blocks) {
  constexpr std::size_t kOff = 0x1000, kDst = 0x2000;
  std::vector<float> src(1024);
  std::iota(src.begin(), src.end(), 0.0f);
  std::vector<std::uint32_t> off(16);
  for (int b = 0; b < 16; ++b) off[std::size_t(b)] = std::uint32_t((15 - b) * 32);  // reversed blocks
  Ub ub(kUb, std::byte{0x5a});
  put(ub, 0, src);
  put(ub, kOff, off);
  const Ub out = run_ub(Target::A2A3, ub, [&] {
    Tile<TileType::Vec, float, 4, 256> s;
    Tile<TileType::Vec, std::uint32_t, 1, 16> o;
    DynTile<float, 1, 128> d(1, 70);  // one repeat of 64, then 6 columns in 8 blocks
    TASSIGN(s, 0), TASSIGN(o, kOff), TASSIGN(d, kDst);
    TGATHERB(d, s, o);
  });
  const auto got = get<float>(out, kDst, 128);
  std::size_t bad = 0;
  for (int c = 0; c < 128; ++c) bad += got[std::size_t(c)] != src[std::size_t(15 - c / 8) * 8 + std::size_t(c % 8)];
  BOOST_TEST(bad == 0u);
}

BOOST_AUTO_TEST_CASE(errors_name_the_instruction_the_operand_and_the_rule) {
  auto on = [](Target tg, auto body) { return error_of([&] { launch({.target = tg}, [&] { body(); }); }); };
  // TSCATTER: an index past dst, a larger index region than src, a pattern's shape, A2A3's 8-bit rows
  std::string e = on(Target::A2A3, [] {
    Tile<TileType::Vec, float, 1, 32> s, d;
    Tile<TileType::Vec, std::uint32_t, 1, 32> x;
    TASSIGN(s, 0), TASSIGN(d, 0x100), TASSIGN(x, 0x200);
    x.SetValue(3, 32);
    TSCATTER(d, s, x);
  });
  BOOST_TEST(contains(e, "TSCATTER: operand indexes has 32 at element (0, 3), outside dst's 1 x 32 elements"), e);
  e = on(Target::A5, [] {
    DynTile<float, 2, 32> s(1, 32), d(2, 32);
    DynTile<std::uint32_t, 2, 32> x(2, 32);
    TASSIGN(s, 0), TASSIGN(d, 0x100), TASSIGN(x, 0x200);
    TSCATTER(d, s, x);
  });
  BOOST_TEST(contains(e, "TSCATTER: operand indexes"), e);
  BOOST_TEST(contains(e, "larger valid region than operand src"), e);
  e = on(Target::A2A3, [] {
    Tile<TileType::Vec, float, 4, 32> s;
    Tile<TileType::Vec, float, 4, 32> d;
    TASSIGN(s, 0), TASSIGN(d, 0x1000);
    TSCATTER<MaskPattern::P0101, ScatterAxis::SCATTER_ROW>(d, s);
  });
  BOOST_TEST(contains(e, "TSCATTER: operand dst"), e);
  BOOST_TEST(contains(e, "dst's valid region must be 4x64"), e);
  e = on(Target::A2A3, [] {
    Tile<TileType::Vec, std::int8_t, 4, 64> s;
    Tile<TileType::Vec, std::int8_t, 8, 64> d;
    TASSIGN(s, 0), TASSIGN(d, 0x1000);
    TSCATTER<MaskPattern::P0101, ScatterAxis::SCATTER_COL>(d, s);
  });
  BOOST_TEST(contains(e, "A2A3 copies the rows of 8-bit data as 16-bit lanes"), e);
  e = on(Target::A2A3, [] {
    Tile<TileType::Vec, std::int64_t, 1, 32> s, d;
    Tile<TileType::Vec, std::uint32_t, 1, 32> x;
    TASSIGN(s, 0), TASSIGN(d, 0x100), TASSIGN(x, 0x200);
    TSCATTER(d, s, x);
  });
  BOOST_TEST(contains(e, "TSCATTER"), e);
  BOOST_TEST(contains(e, "int64"), e);
  e = on(Target::A5, [] {
    Tile<TileType::Vec, std::int64_t, 1, 128> s, d;
    Tile<TileType::Vec, std::uint32_t, 1, 128> x;
    TASSIGN(s, 0), TASSIGN(d, 0x400), TASSIGN(x, 0x800);
    TSCATTER(d, s, x);
  });
  BOOST_TEST(contains(e, "A5 scatters at most 64 columns of 64-bit data"), e);
  // TGATHERB: an offset off a block, one past src, too few offsets, A2A3's multi-row tail
  e = on(Target::A5, [] {
    Tile<TileType::Vec, float, 1, 64> s, d;
    Tile<TileType::Vec, std::uint32_t, 1, 8> o;
    TASSIGN(s, 0), TASSIGN(d, 0x100), TASSIGN(o, 0x200);
    o.SetValue(0, 0), o.SetValue(1, 20);
    TGATHERB(d, s, o);
  });
  BOOST_TEST(contains(e, "TGATHERB: operand offset has 20 at element (0, 1)"), e);
  e = on(Target::A2A3, [] {
    Tile<TileType::Vec, float, 1, 64> s, d;
    Tile<TileType::Vec, std::uint32_t, 1, 8> o;
    TASSIGN(s, 0), TASSIGN(d, 0x100), TASSIGN(o, 0x200);
    for (int b = 0; b < 8; ++b) o.SetValue(b, std::uint32_t(b * 32));
    o.SetValue(7, 256);
    TGATHERB(d, s, o);
  });
  BOOST_TEST(contains(e, "has 256 at element (0, 7): a byte offset must name a 32-byte block inside src's 256 bytes"), e);
  e = on(Target::A5, [] {
    Tile<TileType::Vec, float, 2, 64> s, d;
    Tile<TileType::Vec, std::uint32_t, 1, 8> o;
    TASSIGN(s, 0), TASSIGN(d, 0x200), TASSIGN(o, 0x400);
    TGATHERB(d, s, o);
  });
  BOOST_TEST(contains(e, "TGATHERB: operand offset"), e);
  BOOST_TEST(contains(e, "each block takes its own offset"), e);
  e = on(Target::A2A3, [] {
    Tile<TileType::Vec, float, 2, 128> s;
    DynTile<float, 2, 128> d(2, 70);
    Tile<TileType::Vec, std::uint32_t, 2, 16> o;
    TASSIGN(s, 0), TASSIGN(d, 0x400), TASSIGN(o, 0x800);
    TGATHERB(d, s, o);
  });
  BOOST_TEST(contains(e, "A2A3 gathers a row's last part"), e);
}

// Modeled cycles (deterministic; pto-isa publishes no figure for either): A2A3's TSCATTER is a scalar
// loop, so its cost grows with the element count; A5's index form is a vector scatter per row chunk.
BOOST_AUTO_TEST_CASE(modeled_cycles_follow_the_chips_streams) {
  auto cycles = [](Target tg, auto body) { return launch({.target = tg, .model_only = true}, [&] { body(); }).cores[0].pipes[PIPE_V].busy_cycles; };
  auto scatter = [&](Target tg, auto rows) {
    static constexpr int R = decltype(rows)::value;  // static: clang 14 would make the kernel lambda capture it
    return cycles(tg, [] {
      Tile<TileType::Vec, float, R, 64> s, d;
      Tile<TileType::Vec, std::uint32_t, R, 64> x;
      TASSIGN(s, 0), TASSIGN(d, 0x8000), TASSIGN(x, 0x10000);
      TSCATTER(d, s, x);
    });
  };
  for (Target tg : both) {
    const auto small = scatter(tg, std::integral_constant<int, 8>{}), big = scatter(tg, std::integral_constant<int, 16>{});
    BOOST_TEST_MESSAGE(name_of(tg) << " TSCATTER f32 8x64: " << small << " cycles, 16x64: " << big);
    BOOST_TEST(big > small);
  }
  // A2A3: 8 x 64 elements, 4 cycles each on the scalar unit, dominate
  BOOST_TEST(scatter(Target::A2A3, std::integral_constant<int, 8>{}) > 8u * 64u * 4u);
  BOOST_TEST(scatter(Target::A5, std::integral_constant<int, 8>{}) < 8u * 64u);
}
