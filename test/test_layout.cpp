// TTRANS and the TFILLPAD family: pto-isa's CPU test shapes (tests/cpu/st/testcase/ttrans, tfillpad) and
// the a2a3 NPU suite's unaligned ones, every element size, both targets, through TLOAD -> op -> TSTORE.
// References: the transpose, and the pad rule built element by element from the inputs (A2A3 keeps the
// rest of src's last 32-byte block when dst's and src's PadVal agree). Errors and modeled streams too.
#define BOOST_TEST_MODULE layout
#include <boost/test/unit_test.hpp>

#include <array>
#include <cmath>
#include <random>
#include <cstdint>
#include <limits>
#include <cstring>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

#include "element_ref.hpp"
#include "ub_harness.hpp"

using namespace pto;
using pto_test::contains;
using pto_test::error_of;

namespace {
constexpr int pad32(int n, int es) { return (n * es + 31) / 32 * 32 / es; }

template <class T> std::vector<T> pattern(std::size_t n, unsigned seed) {
  std::vector<T> v(n);
  std::uint32_t x = seed * 2654435761u + 1;
  for (auto& e : v) {
    x = x * 1664525u + 1013904223u;
    const std::uint32_t b = x >> 8;
    std::memcpy(static_cast<void*>(&e), &b, sizeof(T));
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half>) e = T(float(int(b % 2001) - 1000) / 8.0f);
  }
  return v;
}

// The element a PadValue stands for, written out independently of the runtime's table.
template <class T> T ref_pad(PadValue p) {
  T v{};
  if (isCustomPadValue(p)) {
    const std::uint32_t bits = getCustomPadBits(p);
    std::memcpy(static_cast<void*>(&v), &bits, sizeof(T));
  } else if (p == PadValue::Max || p == PadValue::Min) {
    const bool max = p == PadValue::Max;
    if constexpr (std::is_same_v<T, float>) v = max ? INFINITY : -INFINITY;
    else if constexpr (std::is_same_v<T, half>) v = half(max ? INFINITY : -INFINITY);
    else if constexpr (std::is_same_v<T, bfloat16_t>) v = bfloat16_t::from_bits(max ? 0x7f80 : 0xff80);
    else v = max ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
  }
  return v;
}

// TTRANS of a vr x vc region of an R x C src tile on `target`; returns dst's C' x R' tile, whole.
template <class T, int R, int C>
void check_trans(Target target, int vr, int vc) {
  constexpr int es = int(sizeof(T)), DC = pad32(R, es), DR = C;
  using Src = Tile<TileType::Vec, T, R, pad32(C, es), BLayout::RowMajor, -1, -1>;
  using Dst = Tile<TileType::Vec, T, DR, DC, BLayout::RowMajor, -1, -1>;
  using Tmp = Tile<TileType::Vec, T, DR, DC>;
  const std::vector<T> in = pattern<T>(std::size_t(vr) * vc, unsigned(vr * 131 + vc));
  std::vector<T> out(std::size_t(vc) * vr);
  launch({.target = target}, [=](const T* i, T* o) {
    Src s(vr, vc);
    Dst d(vc, vr);
    Tmp t;
    TASSIGN(s, 0), TASSIGN(d, 0x10000), TASSIGN(t, 0x20000);
    GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, -1, 1>> gi(const_cast<T*>(i), {vr, vc}, {vc});
    GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, -1, 1>> go(o, {vc, vr}, {vr});
    TLOAD(s, gi);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TTRANS(d, s, t);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, d);
  }, in, out);
  std::size_t bad = 0;
  for (int i = 0; i < vr; ++i)
    for (int j = 0; j < vc; ++j) bad += std::memcmp(&out[std::size_t(j) * vr + i], &in[std::size_t(i) * vc + j], sizeof(T)) != 0;
  BOOST_TEST_CONTEXT(name_of(target) << " TTRANS " << name_of(dtype_v<T>) << " " << vr << "x" << vc << " of " << R << "x" << C) {
    BOOST_TEST(bad == 0u);
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(ttrans_transposes_the_valid_region) {
  for (Target t : {Target::A2A3, Target::A5}) {
    check_trans<float, 128, 128>(t, 128, 128);  // pto-isa case_float32 (and the cost-model case)
    check_trans<float, 16, 8>(t, 16, 8);        // the a2a3 NPU suite's shapes
    check_trans<half, 16, 16>(t, 16, 16);
    check_trans<float, 32, 16>(t, 31, 15);
    check_trans<half, 32, 32>(t, 31, 31);
    check_trans<float, 2, 512>(t, 2, 512);
    check_trans<float, 9, 512>(t, 9, 512);
    check_trans<float, 64, 128>(t, 27, 77);
    check_trans<half, 128, 64>(t, 100, 64);
    check_trans<float, 512, 32>(t, 512, 2);
    check_trans<std::uint8_t, 32, 32>(t, 32, 32);
    check_trans<std::uint8_t, 64, 64>(t, 22, 63);
    check_trans<std::int8_t, 40, 96>(t, 33, 70);
    check_trans<bfloat16_t, 48, 16>(t, 48, 16);
    check_trans<std::int32_t, 8, 8>(t, 8, 8);
    check_trans<std::uint16_t, 20, 24>(t, 17, 9);  // dst 24 x 32: A2A3's vnchwconv path; tmp rounds rows to 32
  }
}

namespace {
// TFILLPAD<Mode> of a vr x vc src (loaded with LoadPad) into dst (dst valid rows dvr, FillPad) on `target`;
// dst starts as a sentinel pattern, and the whole DR x DC tile is compared.
template <class T, int R, int C, int DR, int DC, PadValue LP, PadValue FP, TFillPadMode M>
void check_fill(Target target, int vr, int vc, int dvr) {
  using Src = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1, SLayout::NoneBox, 512, LP>;
  using Dst = Tile<TileType::Vec, T, DR, DC, BLayout::RowMajor, -1, DC, SLayout::NoneBox, 512, FP>;
  using Whole = Tile<TileType::Vec, T, DR, DC>;
  constexpr bool in_place = M == TFillPadMode::InPlace;
  const std::vector<T> in = pattern<T>(std::size_t(vr) * vc, unsigned(vr + 7 * vc));
  const std::vector<T> sentinel = pattern<T>(std::size_t(DR) * DC, 99);
  std::vector<T> out(static_cast<std::size_t>(DR * DC));
  launch({.target = target}, [=](const T* i, const T* z, T* o) {
    Src s(vr, vc);
    Dst d(dvr);
    Whole w;
    TASSIGN(s, 0), TASSIGN(d, in_place ? 0 : 0x18000), TASSIGN(w, in_place ? 0 : 0x18000);
    GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, -1, 1>> gi(const_cast<T*>(i), {vr, vc}, {vc});
    GlobalTensor<T, Shape<1, 1, 1, DR, DC>, pto::Stride<1, 1, 1, DC, 1>> gz(const_cast<T*>(z)), go(o);
    TLOAD(w, gz);
    TLOAD(s, gi);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TFILLPAD<M>(d, s);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, w);
  }, in, sentinel, out);
  // What TLOAD left in src's tile row (its last 32-byte block padded with LP when LP is not Null).
  const int block = int(32 / sizeof(T));
  const bool keep = target == Target::A2A3 && LP == FP;
  const int kept = keep ? std::min(DC, (vc + block - 1) / block * block) : vc;
  const T pad = ref_pad<T>(FP), lpad = ref_pad<T>(LP);
  std::size_t bad = 0;
  for (int r = 0; r < DR; ++r)
    for (int c = 0; c < DC; ++c) {
      T want = sentinel[std::size_t(r) * DC + c];
      if (r < vr) {
        if (c < vc) want = in[std::size_t(r) * vc + c];
        else if (c < kept) want = lpad;  // (TLOAD padded src to there: the pads agree)
        else want = pad;
      } else if (r < dvr) {
        want = pad;
      }
      bad += std::memcmp(&out[std::size_t(r) * DC + c], &want, sizeof(T)) != 0;
    }
  BOOST_TEST_CONTEXT(name_of(target) << " TFILLPAD mode " << int(M) << " " << name_of(dtype_v<T>) << " " << vr << "x" << vc << " -> "
                                     << dvr << " rows of " << DR << "x" << DC) {
    BOOST_TEST(bad == 0u);
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(tfillpad_pads_around_src_valid_region) {
  using enum PadValue;
  constexpr auto N = TFillPadMode::Normal, I = TFillPadMode::InPlace, E = TFillPadMode::Expand;
  for (Target t : {Target::A2A3, Target::A5}) {
    check_fill<float, 128, 128, 128, 128, Max, Max, N>(t, 128, 127, 128);  // pto-isa cases 1 ...
    check_fill<float, 128, 160, 128, 160, Min, Max, N>(t, 128, 127, 128);
    check_fill<float, 260, 16, 260, 16, Min, Max, N>(t, 260, 7, 260);
    check_fill<float, 260, 16, 260, 16, Min, Max, I>(t, 260, 7, 260);
    check_fill<std::uint16_t, 260, 32, 260, 32, Min, Max, N>(t, 260, 7, 260);
    check_fill<std::uint8_t, 260, 64, 260, 64, Min, Max, N>(t, 260, 7, 260);
    check_fill<std::uint16_t, 260, 16, 260, 32, Min, Max, E>(t, 259, 7, 260);
    check_fill<std::int8_t, 260, 32, 260, 64, Min, Max, E>(t, 259, 7, 260);
    check_fill<float, 128, 128, 128, 128, Null, PadValueCustom(-1.0f), N>(t, 128, 64, 128);
    check_fill<half, 128, 128, 128, 128, Null, PadValueCustom16(0xBC00), N>(t, 128, 64, 128);
    check_fill<std::int8_t, 1, 32, 1, 32, Null, Zero, N>(t, 1, 15, 1);  // ... 13-16
    check_fill<std::uint8_t, 1, 32, 1, 32, Null, Zero, N>(t, 1, 16, 1);
    check_fill<std::int16_t, 260, 32, 260, 32, Min, Min, N>(t, 260, 7, 260);  // a2a3 suite: equal pads
    check_fill<std::int32_t, 260, 32, 260, 32, Min, Min, N>(t, 260, 7, 260);
    check_fill<std::int8_t, 1, 64, 1, 64, Min, Max, N>(t, 1, 40, 1);
    check_fill<float, 16, 24, 32, 40, Zero, Min, E>(t, 9, 13, 20);  // bottom rows padded, rows past 20 untouched
    check_fill<half, 16, 32, 16, 32, Max, Max, I>(t, 10, 5, 14);   // in place, equal pads (A2A3 keeps the block)
    check_fill<bfloat16_t, 8, 32, 8, 32, Null, Max, N>(t, 8, 17, 8);
  }
}

// A2A3 pads from src's last 32-byte block boundary when dst's and src's PadVal agree: the elements of that
// block past validCol keep src's bytes (here GM data, not a pad). A5 pads from validCol.
BOOST_AUTO_TEST_CASE(a2a3_keeps_the_rest_of_the_last_block_when_the_pads_agree) {
  for (Target t : {Target::A2A3, Target::A5}) {
    std::vector<float> in(16 * 32), out(16 * 32);
    for (std::size_t k = 0; k < in.size(); ++k) in[k] = float(k);
    launch({.target = t}, [](const float* i, float* o) {
      Tile<TileType::Vec, float, 16, 32> whole;
      Tile<TileType::Vec, float, 16, 32, BLayout::RowMajor, -1, -1, SLayout::NoneBox, 512, PadValue::Max> src(16, 5);
      Tile<TileType::Vec, float, 16, 32, BLayout::RowMajor, -1, 32, SLayout::NoneBox, 512, PadValue::Max> dst(16);
      TASSIGN(whole, 0), TASSIGN(src, 0), TASSIGN(dst, 0x4000);
      GlobalTensor<float, Shape<1, 1, 1, 16, 32>, pto::Stride<1, 1, 1, 32, 1>> gi(const_cast<float*>(i)), go(o);
      Tile<TileType::Vec, float, 16, 32> dwhole;
      TASSIGN(dwhole, 0x4000);
      TLOAD(whole, gi);
      set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      TFILLPAD(dst, src);
      set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      TSTORE(go, dwhole);
    }, in, out);
    std::size_t bad = 0;
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 32; ++c) {
        const bool kept = c < 5 || (t == Target::A2A3 && c < 8);
        const float want = kept ? in[std::size_t(r) * 32 + c] : INFINITY;
        bad += out[std::size_t(r) * 32 + c] != want;
      }
    BOOST_TEST_CONTEXT(name_of(t)) { BOOST_TEST(bad == 0u); }
  }
}

// ---- the device paths against the CPU reference, over the whole UB ---------------------------------
namespace {
using pto_test::Ub;
template <class T, int R, int C> using DynTile = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1>;
constexpr std::size_t up32(std::size_t n) { return (n + 31) / 32 * 32; }
Ub random_ub(unsigned seed) {
  Ub ub(pto_test::kUb);
  std::mt19937 g(seed);
  for (auto& b : ub) b = std::byte(g() & 0xFF);
  return ub;
}

// TTRANS of src's vr x vc (src R x C at kS, dst DR x DC after it, tmp TR x TC after that) over random
// UB bytes, by the device path and by the CPU reference. Every byte outside tmp must agree, but for
// A2A3's vnchwconv path the rest of each written dst row's last 32-byte block: the chip's whole-block
// copy carries tmp's padding columns there, which the partial row group fills from unset VA lanes, that
// is from UB's first bytes: row x gets element x of UB. The reference's transpose is checked apart.
template <class T, int R, int C, int DR, int DC, int TR, int TC>
void trans_device_vs_cpu(Target tg, int vr, int vc, unsigned seed) {
  constexpr std::size_t es = sizeof(T), kS = 0x400, kD = kS + up32(R * C * es), kT = kD + up32(DR * DC * es);
  static_assert(kT + TR * TC * es <= pto_test::kUb);
  const Ub init = random_ub(seed);
  auto issue = [&] {
    DynTile<T, R, C> s(vr, vc);
    DynTile<T, DR, DC> d(vc, vr);
    Tile<TileType::Vec, T, TR, TC> t;
    TASSIGN(s, kS), TASSIGN(d, kD), TASSIGN(t, kT);
    TTRANS(d, s, t);
  };
  const Ub dev = pto_test::run_ub(tg, init, issue), ref = pto_test::run_ub(tg, init, issue, true);
  const bool a2a3_aligned = tg == Target::A2A3 && DC % (es == 1 ? 32 : 16) == 0 && (C * es) % 32 == 0;
  const std::size_t tail_end = up32(std::size_t(vr) * es) / es;  // dst columns the copy writes
  std::size_t bad = 0, bad_tail = 0, bad_ref = 0, tails = 0;
  for (std::size_t b = 0; b < pto_test::kUb; ++b) {
    if (b >= kT && b < kT + TR * TC * es) continue;
    if (a2a3_aligned && b >= kD && b < kD + DR * DC * es) {
      const std::size_t x = (b - kD) / (DC * es), col = (b - kD) % (DC * es) / es;
      if (int(x) < vc && col >= std::size_t(vr) && col < tail_end) {
        ++tails;
        bad_tail += dev[b] != init[x * es + (b - kD) % es];
        continue;
      }
    }
    bad += dev[b] != ref[b];
  }
  for (int i = 0; i < vr; ++i)
    for (int j = 0; j < vc; ++j)
      bad_ref += std::memcmp(&ref[kD + (std::size_t(j) * DC + i) * es], &init[kS + (std::size_t(i) * C + j) * es], es) != 0;
  BOOST_TEST_CONTEXT(name_of(tg) << " TTRANS " << name_of(dtype_v<T>) << " " << vr << "x" << vc << " of " << R << "x" << C
                                 << " -> " << DR << "x" << DC) {
    BOOST_TEST(bad_ref == 0u);
    BOOST_TEST(bad == 0u);
    BOOST_TEST(bad_tail == 0u);
    if (a2a3_aligned) BOOST_TEST(std::memcmp(dev.data() + kT, init.data() + kT, TR * TC * es) != 0);  // staged: the device path ran
    if (a2a3_aligned && vr % (es == 1 ? 32 : 16) && tail_end > std::size_t(vr)) BOOST_TEST(tails > 0u);
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(ttrans_device_paths_match_the_cpu_reference_over_the_whole_ub) {
  for (Target t : {Target::A2A3, Target::A5}) {
    trans_device_vs_cpu<float, 64, 128, 128, 64, 128, 64>(t, 64, 128, 1);      // whole 16-row groups
    trans_device_vs_cpu<float, 20, 24, 24, 32, 24, 32>(t, 19, 21, 2);         // a partial group, a partial block
    trans_device_vs_cpu<float, 16, 8, 8, 16, 8, 16>(t, 16, 8, 3);             // one group, one block
    trans_device_vs_cpu<float, 9, 512, 512, 16, 512, 16>(t, 9, 500, 4);       // A5 row-wise
    trans_device_vs_cpu<half, 40, 48, 48, 48, 48, 48>(t, 37, 45, 5);
    trans_device_vs_cpu<bfloat16_t, 16, 16, 16, 16, 16, 16>(t, 16, 16, 6);
    trans_device_vs_cpu<std::int16_t, 8, 256, 256, 16, 256, 16>(t, 5, 250, 7);  // A5 row-wise, 16-bit lanes
    trans_device_vs_cpu<std::uint8_t, 70, 64, 64, 96, 64, 96>(t, 66, 63, 8);  // 8-bit: two 32-row groups and a tail
    trans_device_vs_cpu<std::int8_t, 32, 32, 32, 32, 32, 32>(t, 32, 32, 9);
    trans_device_vs_cpu<std::uint8_t, 16, 320, 320, 32, 320, 32>(t, 16, 300, 10);  // A5 row-wise bytes
    trans_device_vs_cpu<float, 20, 24, 24, 24, 24, 24>(t, 19, 21, 11);        // A2A3: dst rows of 24, the scalar loop
    trans_device_vs_cpu<std::int32_t, 200, 8, 8, 208, 8, 208>(t, 200, 8, 12);  // 12 groups and a tail, one block
  }
}

namespace {
// TFILLPAD<M> of src's vr x vc (src R x C at kS, dst DR x DC after it, or src itself in place) over
// random UB bytes, device path vs CPU reference: every byte of UB identical.
template <class T, int R, int C, int DR, int DC, PadValue FP, TFillPadMode M>
void fill_device_vs_cpu(Target tg, int vr, int vc, int dvr, unsigned seed) {
  constexpr std::size_t es = sizeof(T), kS = 0x400, kD = M == TFillPadMode::InPlace ? kS : kS + up32(R * C * es);
  const Ub init = random_ub(seed);
  auto issue = [&] {
    DynTile<T, R, C> s(vr, vc);
    Tile<TileType::Vec, T, DR, DC, BLayout::RowMajor, -1, DC, SLayout::NoneBox, 512, FP> d(dvr);
    TASSIGN(s, kS), TASSIGN(d, kD);
    TFILLPAD<M>(d, s);
  };
  const Ub dev = pto_test::run_ub(tg, init, issue), ref = pto_test::run_ub(tg, init, issue, true);
  std::size_t bad = 0;
  for (std::size_t b = 0; b < pto_test::kUb; ++b) bad += dev[b] != ref[b];
  BOOST_TEST_CONTEXT(name_of(tg) << " TFILLPAD mode " << int(M) << " " << name_of(dtype_v<T>) << " " << vr << "x" << vc << " -> "
                                 << dvr << " rows of " << DR << "x" << DC) {
    BOOST_TEST(bad == 0u);
    BOOST_TEST(std::memcmp(dev.data() + kD, init.data() + kD, DR * DC * es) != 0);
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(tfillpad_device_path_matches_the_cpu_reference_over_the_whole_ub) {
  using enum PadValue;
  constexpr auto N = TFillPadMode::Normal, I = TFillPadMode::InPlace, E = TFillPadMode::Expand;
  for (Target t : {Target::A5}) {  // A2A3 has no TFILLPAD device path
    fill_device_vs_cpu<float, 128, 160, 128, 160, Max, N>(t, 128, 127, 128, 1);
    fill_device_vs_cpu<float, 260, 16, 260, 16, Min, I>(t, 260, 7, 260, 2);
    fill_device_vs_cpu<std::uint16_t, 60, 32, 70, 96, Max, E>(t, 59, 7, 66, 3);   // right pad wider than a register
    fill_device_vs_cpu<std::int8_t, 40, 320, 48, 352, Min, E>(t, 33, 300, 48, 4);  // 8-bit, two registers a row
    fill_device_vs_cpu<half, 16, 32, 16, 32, PadValueCustom16(0xBC00), N>(t, 10, 5, 14, 5);
    fill_device_vs_cpu<bfloat16_t, 8, 32, 8, 32, Max, N>(t, 8, 17, 8, 6);
    fill_device_vs_cpu<std::int32_t, 16, 24, 32, 40, Zero, E>(t, 9, 13, 20, 7);  // rows past dst's valid ones untouched
    fill_device_vs_cpu<float, 8, 64, 8, 64, Min, N>(t, 8, 64, 8, 8);  // no right pad
  }
}

BOOST_AUTO_TEST_CASE(errors_name_the_instruction_the_operand_and_the_rule) {
  auto on = [](Target tg, auto body) { return error_of([&] { launch({.target = tg}, [&] { body(); }); }); };
  std::string e = on(Target::A2A3, [] {
    Tile<TileType::Vec, float, 32, 16> s;
    Tile<TileType::Vec, float, 8, 32> d;  // needs 16 rows
    Tile<TileType::Vec, float, 16, 32> t;
    TASSIGN(s, 0), TASSIGN(d, 0x1000), TASSIGN(t, 0x2000);
    TTRANS(d, s, t);
  });
  BOOST_TEST(contains(e, "TTRANS: operand dst"), e);
  BOOST_TEST(contains(e, "needs at least 16 rows and 32 columns"), e);
  e = on(Target::A2A3, [] {
    Tile<TileType::Vec, float, 20, 16, BLayout::RowMajor, -1, -1> s(20, 10);
    Tile<TileType::Vec, float, 10, 32> d;
    Tile<TileType::Vec, float, 10, 32> t;  // the vnchwconv path stages 16 rows of 32
    TASSIGN(s, 0), TASSIGN(d, 0x1000), TASSIGN(t, 0x2000);
    TTRANS(d, s, t);
  });
  BOOST_TEST(contains(e, "TTRANS: operand tmp"), e);
  BOOST_TEST(contains(e, "16 x 32 elements"), e);
  e = on(Target::A5, [] {  // A5 ignores tmp: the same call is fine there
    Tile<TileType::Vec, float, 20, 16, BLayout::RowMajor, -1, -1> s(20, 10);
    Tile<TileType::Vec, float, 10, 32> d;
    Tile<TileType::Vec, float, 10, 32> t;
    TASSIGN(s, 0), TASSIGN(d, 0x1000), TASSIGN(t, 0x2000);
    TTRANS(d, s, t);
  });
  BOOST_TEST(contains(e, "no pto::Error"), e);
  e = on(Target::A5, [] {
    Tile<TileType::Vec, half, 16, 512> s;  // fewer rows than columns: scattered into dst
    Tile<TileType::Vec, half, 520, 128> d;  // its last element at 66559 > 65535: 16-bit scatter offsets
    TASSIGN(s, 0), TASSIGN(d, 0x4000);
    TTRANS(d, s, s);
  });
  BOOST_TEST(contains(e, "TTRANS: operand dst"), e);
  BOOST_TEST(contains(e, "scatter offsets of 2-byte elements are 16-bit"), e);
  e = on(Target::A5, [] {  // column-wise with no valid rows: the chip's chunk counter would wrap
    Tile<TileType::Vec, float, 16, 16, BLayout::RowMajor, -1, -1> s(0, 8);
    Tile<TileType::Vec, float, 16, 16> d;
    TASSIGN(s, 0), TASSIGN(d, 0x1000);
    TTRANS(d, s, s);
  });
  BOOST_TEST(contains(e, "TTRANS: operand src"), e);
  BOOST_TEST(contains(e, "would run its chunk counter from 65535"), e);
  e = on(Target::A2A3, [] {
    Tile<TileType::Vec, float, 16, 16, BLayout::RowMajor, -1, -1> s(12, 8);
    Tile<TileType::Vec, float, 16, 16, BLayout::RowMajor, -1, 16, SLayout::NoneBox, 512, PadValue::Zero> d(10);
    TASSIGN(s, 0), TASSIGN(d, 0x1000);
    TFILLPAD(d, s);
  });
  BOOST_TEST(contains(e, "TFILLPAD: operand dst"), e);
  BOOST_TEST(contains(e, "fewer valid rows"), e);
  e = on(Target::A5, [] {
    Tile<TileType::Vec, float, 16, 16, BLayout::RowMajor, -1, -1> s(12, 8);
    Tile<TileType::Vec, float, 16, 16, BLayout::RowMajor, -1, 16, SLayout::NoneBox, 512, PadValue::Zero> d(16);
    TASSIGN(s, 0), TASSIGN(d, 0x1000);
    TFILLPAD_INPLACE(d, s);
  });
  BOOST_TEST(contains(e, "TFILLPAD_INPLACE: operands dst"), e);
  BOOST_TEST(contains(e, "same storage"), e);
}

// Modeled (A2A3, f32 128x128, pto-isa's cost-model case): 16 scatter_vnchwconv calls of 8 repeats, then
// one copy of 128 bursts of 16 blocks; vs an unaligned dst row (the scalar loop, 4 cycles an element).
BOOST_AUTO_TEST_CASE(a2a3_stream_follows_the_strides) {
  auto v_busy = [](auto dcols) {
    static constexpr int DC = decltype(dcols)::value;  // static: clang 14 would make the kernel lambda capture it
    return launch({.target = Target::A2A3, .model_only = true}, [] {
      Tile<TileType::Vec, float, 128, 128> s;
      Tile<TileType::Vec, float, 128, DC, BLayout::RowMajor, 128, 128> d;
      Tile<TileType::Vec, float, 128, 128> t;
      TASSIGN(s, 0), TASSIGN(d, 0x10000), TASSIGN(t, 0x20000);
      TTRANS(d, s, t);
    }).cycles;
  };
  const std::uint64_t fast = v_busy(std::integral_constant<int, 128>{}), slow = v_busy(std::integral_constant<int, 136>{});
  BOOST_TEST_MESSAGE("TTRANS f32 128x128 A2A3 modeled: " << fast << " cycles (vnchwconv path), " << slow << " (scalar loop)");
  BOOST_TEST(slow > 128u * 128u * 4u);  // the scalar loop pays each element
  BOOST_TEST(fast < slow / 10);
}

// ---- TRESHAPE and TSUBVIEW: address rebinds --------------------------------------------------------

// A window of an R x C tile at (r0, c0), TLOADed from GM and stored back through the window: out is
// in[r0 + i][c0 + j]. Then TADDS through the window and TSTORE of the whole src: only the window moved.
template <class T, int R, int C, int WR, int WC>
void check_subview(Target target, Mode mode, int r0, int c0) {
  using Src = Tile<TileType::Vec, T, R, C>;
  using Win = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, WR, WC>;
  using GSrc = GlobalTensor<T, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>>;
  using GWin = GlobalTensor<T, Shape<1, 1, 1, WR, WC>, pto::Stride<1, 1, 1, WC, 1>>;
  auto plus3 = [](T x) { return T(float(x) + 3.0f); };  // exact: |x| <= 500
  std::vector<T> in(R * std::size_t(C));
  for (std::size_t k = 0; k < in.size(); ++k) in[k] = T(float(int(k % 1000) - 500));
  std::vector<T> win(WR * std::size_t(WC)), whole(in.size());
  launch({.target = target, .mode = mode, .check = SyncCheck::Throw}, [=](const T* i, T* w, T* o) {
    Src s;
    Win v;
    if (mode == Mode::Manual) TASSIGN(s, 0x100);
    GSrc gi(const_cast<T*>(i)), go(o);
    GWin gw(w);
    TLOAD(s, gi);
    TSUBVIEW(v, s, std::uint16_t(r0), std::uint16_t(c0));
    if (mode == Mode::Manual) {
      set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    }
    TADDS(v, v, T(3));
    if (mode == Mode::Manual) {
      set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    }
    TSTORE(gw, v);
    TSTORE(go, s);
  }, in, win, whole);
  std::size_t bad = 0;
  for (int i = 0; i < WR; ++i)
    for (int j = 0; j < WC; ++j) bad += win[std::size_t(i) * WC + j] != T(in[std::size_t(r0 + i) * C + c0 + j] + T(3));
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) {
      const bool inside = i >= r0 && i < r0 + WR && j >= c0 && j < c0 + WC;
      bad += whole[std::size_t(i) * C + j] != (inside ? plus3(in[std::size_t(i) * C + j]) : in[std::size_t(i) * C + j]);
    }
  BOOST_TEST(bad == 0u, name_of(target) << (mode == Mode::Auto ? " auto " : " manual ") << R << 'x' << C << " window "
                                          << WR << 'x' << WC << " at (" << r0 << ',' << c0 << ")");
}

// pto-isa's tsubview shapes (64x64 -> 32x32 for float, int32, int16; 16x256 -> 8x128 for half), at
// windows off the origin (its kernel passes (0, 0)), both targets, manual and auto mode.
BOOST_AUTO_TEST_CASE(tsubview_is_a_window_of_src) {
  for (Target t : {Target::A2A3, Target::A5})
    for (Mode m : {Mode::Manual, Mode::Auto}) {
      check_subview<float, 64, 64, 32, 32>(t, m, 0, 0);
      check_subview<float, 64, 64, 32, 32>(t, m, 5, 24);
      check_subview<std::int32_t, 64, 64, 32, 32>(t, m, 32, 32);
      check_subview<std::int16_t, 64, 64, 32, 32>(t, m, 7, 16);
      check_subview<half, 16, 256, 8, 128>(t, m, 8, 64);
    }
}

// pto-isa's tisa_coverage window: a 3x6 view at (1, 2) of a 4x8 float tile starts 40 bytes in, which
// scalar access reads; an instruction given that tile is an error (the units address 32-byte blocks).
BOOST_AUTO_TEST_CASE(tsubview_window_off_a_block_boundary) {
  launch({}, [] {
    Tile<TileType::Vec, float, 4, 8> s;
    Tile<TileType::Vec, float, 3, 8, BLayout::RowMajor, 3, 6> d;
    TASSIGN(s, 0);
    for (int k = 0; k < 32; ++k) s.SetValue(k, float(k + 1));
    TSUBVIEW(d, s, 1, 2);
    std::size_t bad = 0;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 6; ++c) bad += d.GetValue(r * 8 + c) != s.GetValue((r + 1) * 8 + c + 2);
    BOOST_TEST(bad == 0u);
  });
  const std::string e = error_of([] {
    launch({}, [] {
      Tile<TileType::Vec, float, 4, 8> s;
      Tile<TileType::Vec, float, 3, 8, BLayout::RowMajor, 3, 6> d;
      TASSIGN(s, 0);
      TSUBVIEW(d, s, 1, 2);
      TADDS(d, d, 1.0f);
    });
  });
  BOOST_TEST(contains(e, "TADDS: operand dst"), e);
  BOOST_TEST(contains(e, "address 0x28 is not 32-byte aligned"), e);
}

// TRESHAPE: pto-isa's treshape case (2x16 float seen as 1x32 share bytes), and a reshape across dtype
// kinds that a2a3 TQuant.hpp relies on: half viewed as int16, its sign bit cleared by TANDS, the result
// viewed as half again (|x|).
BOOST_AUTO_TEST_CASE(treshape_views_the_same_bytes) {
  launch({}, [] {
    Tile<TileType::Vec, float, 2, 16> s;
    Tile<TileType::Vec, float, 1, 32> d;
    TASSIGN(s, 0), TASSIGN(d, 0x100);
    for (int k = 0; k < 32; ++k) s.SetValue(k, float(k + 1));
    TRESHAPE(d, s);
    BOOST_TEST(static_cast<void*>(d.data()) == static_cast<void*>(s.data()));
    s.SetValue(17, 123.0f);
    BOOST_TEST(d.GetValue(17) == 123.0f);
    d.SetValue(3, -5.0f);
    BOOST_TEST(s.GetValue(3) == -5.0f);
  });
  for (Target t : {Target::A2A3, Target::A5})
    for (Mode m : {Mode::Manual, Mode::Auto}) {
      std::vector<half> in(16 * 32), out(16 * 32);
      for (std::size_t k = 0; k < in.size(); ++k) in[k] = half(float(int(k % 97) - 48) / 4.0f);
      launch({.target = t, .mode = m, .check = SyncCheck::Throw}, [m](const half* i, half* o) {
        Tile<TileType::Vec, half, 16, 32> h, habs;
        Tile<TileType::Vec, std::int16_t, 32, 16> bits, absbits;
        if (m == Mode::Manual) TASSIGN(h, 0), TASSIGN(absbits, 0x400);
        GlobalTensor<half, Shape<1, 1, 1, 16, 32>, pto::Stride<1, 1, 1, 32, 1>> gi(const_cast<half*>(i)), go(o);
        TLOAD(h, gi);
        TRESHAPE(bits, h);
        if (m == Mode::Manual) {
          set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
          wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        }
        TANDS(absbits, bits, std::int16_t(0x7fff));
        TRESHAPE(habs, absbits);
        if (m == Mode::Manual) {
          set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
          wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        }
        TSTORE(go, habs);
      }, in, out);
      std::size_t bad = 0;
      for (std::size_t k = 0; k < in.size(); ++k) bad += float(out[k]) != std::fabs(float(in[k]));
      BOOST_TEST(bad == 0u, name_of(t) << (m == Mode::Auto ? " auto" : " manual"));
    }
}

// Auto mode: a view holds its source's placement, so a tile placed after the source died does not take
// the window's bytes (the window is stored after that tile is loaded).
BOOST_AUTO_TEST_CASE(auto_mode_views_hold_their_source_placement) {
  std::vector<float> a(32 * 32), b(32 * 32), out(16 * 32);
  for (std::size_t k = 0; k < a.size(); ++k) a[k] = float(k), b[k] = -float(k);
  launch({.mode = Mode::Auto, .check = SyncCheck::Throw}, [](const float* pa, const float* pb, float* o) {
    using T32 = Tile<TileType::Vec, float, 32, 32>;
    using Gm = GlobalTensor<float, Shape<1, 1, 1, 32, 32>, pto::Stride<1, 1, 1, 32, 1>>;
    Tile<TileType::Vec, float, 32, 32, BLayout::RowMajor, 16, 32> lower;
    Gm ga(const_cast<float*>(pa)), gb(const_cast<float*>(pb));
    GlobalTensor<float, Shape<1, 1, 1, 16, 32>, pto::Stride<1, 1, 1, 32, 1>> go(o);
    {
      T32 s;
      TLOAD(s, ga);
      TSUBVIEW(lower, s, 16, 0);
    }  // s dies; lower still holds its bytes
    T32 t;
    TLOAD(t, gb);
    TSTORE(go, lower);
    TSTORE(gb, t);
  }, a, b, out);
  std::size_t bad = 0;
  for (std::size_t k = 0; k < out.size(); ++k) bad += out[k] != a[16 * 32 + k];
  BOOST_TEST(bad == 0u);
}

BOOST_AUTO_TEST_CASE(rebind_errors_name_the_operand_and_the_rule) {
  auto on = [](auto body) { return error_of([&] { launch({}, [&] { body(); }); }); };
  std::string e = on([] {
    Tile<TileType::Vec, float, 8, 16> s;
    Tile<TileType::Vec, float, 8, 8> d;  // row stride 8, src's 16
    TASSIGN(s, 0);
    TSUBVIEW(d, s, 0, 8);
  });
  BOOST_TEST(contains(e, "TSUBVIEW: operand dst"), e);
  BOOST_TEST(contains(e, "row stride 8 differs from src's 16"), e);
  e = on([] {  // one valid row: the strides do not matter (a2a3 TPrelu.hpp takes such a window)
    Tile<TileType::Vec, std::uint8_t, 4, 64> s;
    Tile<TileType::Vec, std::uint8_t, 1, 32> d;
    TASSIGN(s, 0);
    TSUBVIEW(d, s, 3, 32);
  });
  BOOST_TEST(contains(e, "no pto::Error"), e);
  e = on([] {
    Tile<TileType::Vec, float, 8, 16> s;
    Tile<TileType::Vec, float, 8, 16, BLayout::RowMajor, 4, 16> d;
    TASSIGN(s, 0);
    TSUBVIEW(d, s, 6, 0);  // rows 6..9 of 8
  });
  BOOST_TEST(contains(e, "TSUBVIEW: operand dst"), e);
  BOOST_TEST(contains(e, "runs past src"), e);
  e = on([] {
    Tile<TileType::Vec, float, 8, 16> s;
    Tile<TileType::Vec, float, 8, 16, BLayout::RowMajor, 0, 0> d;
    TASSIGN(s, 0);
    TSUBVIEW(d, s, 0, 16);
  });
  BOOST_TEST(contains(e, "first element (rowIdx 0, colIdx 16) is outside src's 8 x 16 elements"), e);
  e = on([] {
    Tile<TileType::Vec, float, 64, 64> s;
    Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, 8, 8> d;
    TASSIGN(s, 192 * 1024 - 64 * 64 * 4);  // the last 16 KiB of A2A3's UB
    TSUBVIEW(d, s, 32, 0);                   // dst's 64 rows would run 8 KiB past it
  });
  BOOST_TEST(contains(e, "runs past the 192 KiB"), e);
  e = on([] {
    Tile<TileType::Vec, float, 8, 16> s;
    Tile<TileType::Vec, float, 16, 8> d;
    TRESHAPE(d, s);
  });
  BOOST_TEST(contains(e, "TRESHAPE: operand src"), e);
  BOOST_TEST(contains(e, "call TASSIGN first"), e);
  e = on([] {
    Tile<TileType::Vec, float, 16, 8, BLayout::ColMajor> s;  // columns 16 apart
    Tile<TileType::Vec, float, 8, 8, BLayout::ColMajor> d;   // columns 8 apart
    TASSIGN(s, 0);
    TSUBVIEW(d, s, 8, 0);
  });
  BOOST_TEST(contains(e, "column stride 8 differs from src's 16"), e);
  BOOST_TEST(contains(e, "give dst src's Rows"), e);
  e = on([] {  // NZ half: 16 x 16 boxes; a window 8 rows down cuts through them
    Tile<TileType::Vec, half, 32, 32, BLayout::ColMajor, 32, 32, SLayout::RowMajor> s;
    Tile<TileType::Vec, half, 16, 32, BLayout::ColMajor, 16, 32, SLayout::RowMajor> d;
    TASSIGN(s, 0);
    TSUBVIEW(d, s, 8, 0);
  });
  BOOST_TEST(contains(e, "TSUBVIEW: operand dst"), e);
  BOOST_TEST(contains(e, "where the boxes line up"), e);
  e = on([] {  // the next column of boxes is a window (rowIdx * RowStride + colIdx * ColStride lands on it)
    Tile<TileType::Vec, half, 32, 32, BLayout::ColMajor, 32, 32, SLayout::RowMajor> s;
    Tile<TileType::Vec, half, 32, 16, BLayout::ColMajor, 32, 16, SLayout::RowMajor> d;
    TASSIGN(s, 0);
    TSUBVIEW(d, s, 0, 16);
  });
  BOOST_TEST(contains(e, "no pto::Error"), e);
  e = error_of([] {
    launch({.target = Target::A5}, [] {
      Tile<TileType::Vec, float, 4, 64> s;   // 1 KiB, the last of A5's 256 KiB UB
      Tile<TileType::Vec, float, 16, 64> d;  // 4 KiB from there
      TASSIGN(s, 256 * 1024 - 1024);
      TGET_SCALE_ADDR(d, s);
    });
  });
  BOOST_TEST(contains(e, "TGET_SCALE_ADDR: operand dst"), e);
  BOOST_TEST(contains(e, "its 4096 bytes run past the buffer"), e);
}

// TGET_SCALE_ADDR within one TileType (pto-isa's tget_scale_addr cases: TLOAD src, rebind, TSTORE dst
// gives the input back), A5 only.
template <class T, int R, int C>
void check_scale_addr() {
  using TileData = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1>;
  using Gm = GlobalTensor<T, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>>;
  std::vector<T> in = pattern<T>(std::size_t(R) * C, 7), out(in.size());
  launch({.target = Target::A5, .check = SyncCheck::Throw}, [](const T* i, T* o) {
    TileData s(R, C), d(R, C);
    TASSIGN(s, 0x0), TASSIGN(d, 0x10000);
    Gm gi(const_cast<T*>(i)), go(o);
    TLOAD(s, gi);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TGET_SCALE_ADDR(d, s);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, d);
  }, in, out);
  BOOST_TEST(std::memcmp(in.data(), out.data(), in.size() * sizeof(T)) == 0);
}

BOOST_AUTO_TEST_CASE(tget_scale_addr_aliases_on_a5) {
  check_scale_addr<float, 64, 64>();
  check_scale_addr<std::int32_t, 64, 64>();
  check_scale_addr<std::int16_t, 64, 64>();
  check_scale_addr<half, 16, 256>();
  check_scale_addr<bfloat16_t, 16, 256>();
  const std::string e = error_of([] {
    launch({.target = Target::A2A3}, [] {
      Tile<TileType::Vec, float, 8, 16> s, d;
      TASSIGN(s, 0);
      TGET_SCALE_ADDR(d, s);
    });
  });
  BOOST_TEST(contains(e, "TGET_SCALE_ADDR: operand dst"), e);
  BOOST_TEST(contains(e, "exists on A5 only"), e);
}

// ---- TCONCAT ---------------------------------------------------------------------------------------

template <class T> using DynGm = GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, -1, 1>>;

// TCONCAT of a vr x v0 src0 and a vr x v1 src1 (pto-isa's tconcat shapes: dst DR x DC, sources SR x S0C and
// SR x S1C). form 0: the basic form, dst valid vr x (v0 + v1); form 1: the counts from int32 index tiles
// (random byte counts below 4 * vk, as pto-isa's gen_data draws them), dst valid vr x w; form 2: also
// dstIdx. dst starts as zeros over whole rows; the reference is built row by row from the inputs.
template <class T, int DR, int DC, int SR, int S0C, int S1C>
void check_concat(Target tg, int form, int vr, int v0, int v1, int w) {
  using D = Tile<TileType::Vec, T, DR, DC, BLayout::RowMajor, -1, -1>;
  using S0 = Tile<TileType::Vec, T, SR, S0C, BLayout::RowMajor, -1, -1>;
  using S1 = Tile<TileType::Vec, T, SR, S1C, BLayout::RowMajor, -1, -1>;
  using Ix = Tile<TileType::Vec, std::int32_t, SR, 8, BLayout::RowMajor, -1, -1>;
  if (form == 0) w = v0 + v1;
  const std::vector<T> a = pattern<T>(std::size_t(vr) * v0, 11), b = pattern<T>(std::size_t(vr) * v1, 12);
  std::vector<std::int32_t> i0(vr), i1(vr), oi(vr, -1);
  std::uint32_t x = 99;
  for (int i = 0; i < vr; ++i) {
    x = x * 1664525u + 1013904223u, i0[i] = std::int32_t((x >> 8) % std::uint32_t(4 * v0));
    x = x * 1664525u + 1013904223u, i1[i] = std::int32_t((x >> 8) % std::uint32_t(4 * v1));
  }
  std::vector<T> out(std::size_t(vr) * DC);
  launch({.target = tg, .check = SyncCheck::Throw},
         [=](const T* pa, const T* pb, const std::int32_t* p0, const std::int32_t* p1, T* po, std::int32_t* poi) {
           D whole(vr, DC), d(vr, w);
           S0 s0(vr, v0);
           S1 s1(vr, v1);
           Ix x0(vr, 1), x1(vr, 1), xo(vr, 1);
           TASSIGN(whole, 0), TASSIGN(d, 0), TASSIGN(s0, 0x10000), TASSIGN(s1, 0x18000);
           TASSIGN(x0, 0x20000), TASSIGN(x1, 0x21000), TASSIGN(xo, 0x22000);
           DynGm<T> ga(const_cast<T*>(pa), {vr, v0}, {v0}), gb(const_cast<T*>(pb), {vr, v1}, {v1}), gd(po, {vr, DC}, {DC});
           DynGm<std::int32_t> g0(const_cast<std::int32_t*>(p0), {vr, 1}, {1}), g1(const_cast<std::int32_t*>(p1), {vr, 1}, {1}),
               go(poi, {vr, 1}, {1});
           TEXPANDS(whole, T(0));
           TLOAD(s0, ga);
           TLOAD(s1, gb);
           if (form) {
             TLOAD(x0, g0);
             TLOAD(x1, g1);
           }
           set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
           wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
           pipe_barrier(PIPE_V);
           if (form == 0) TCONCAT(d, s0, s1);
           else if (form == 1) TCONCAT(d, s0, s1, x0, x1);
           else TCONCAT(d, s0, s1, xo, x0, x1);
           set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
           wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
           TSTORE(gd, whole);
           if (form == 2) TSTORE(go, xo);
         },
         a, b, i0, i1, out, oi);
  std::size_t bad = 0;
  for (int i = 0; i < vr; ++i) {
    const int n0 = form ? std::min(i0[i] / 4, w) : v0, n1 = form ? std::min(i1[i] / 4, w - n0) : v1;
    for (int j = 0; j < DC; ++j) {
      const T e = j < n0 ? a[std::size_t(i) * v0 + j] : j < n0 + n1 ? b[std::size_t(i) * v1 + j - n0] : T(0);
      bad += std::memcmp(&out[std::size_t(i) * DC + j], &e, sizeof(T)) != 0;
    }
    if (form == 2) bad += oi[i] != (n0 + n1) * 4;
  }
  BOOST_TEST(bad == 0u, name_of(tg) << " form " << form << ' ' << DR << 'x' << DC << " valid " << vr << "x(" << v0 << ','
                                    << v1 << ") w " << w);
}

BOOST_AUTO_TEST_CASE(tconcat_joins_rows) {
  for (Target t : {Target::A2A3, Target::A5})
    for (int f = 0; f < 3; ++f) {
      check_concat<float, 64, 128, 64, 64, 64>(t, f, 64, 64, 64, 128);
      check_concat<std::int32_t, 64, 128, 64, 64, 64>(t, f, 64, 64, 64, 128);
      check_concat<half, 16, 256, 16, 128, 128>(t, f, 16, 128, 128, 256);
      check_concat<float, 16, 64, 16, 32, 32>(t, f, 16, 32, 32, 64);
      check_concat<std::int16_t, 32, 256, 32, 128, 128>(t, f, 32, 128, 128, 256);
      check_concat<half, 16, 128, 16, 64, 64>(t, f, 16, 63, 64, 127);
      check_concat<float, 16, 64, 16, 32, 32>(t, f, 16, 31, 32, 63);
      check_concat<std::int16_t, 32, 256, 32, 128, 128>(t, f, 32, 127, 128, 255);
      check_concat<std::uint8_t, 8, 128, 8, 64, 64>(t, f, 5, 40, 50, 90);
      if (f) check_concat<float, 16, 64, 16, 32, 32>(t, f, 16, 32, 32, 20);  // the counts clamped to dst's 20 columns
    }
}

// A2A3's basic form moves whole 32-byte blocks: float src0 4 wide ends inside a block, so its block lands
// whole and src1's 2 elements overwrite 2 of it; src0 8 wide ends on one, so src1's block lands whole.
// A5 writes exactly n0 + n1 elements. Sources hold 100 + k / 200 + k past their valid columns too.
BOOST_AUTO_TEST_CASE(a2a3_tconcat_writes_whole_blocks) {
  for (Target t : {Target::A2A3, Target::A5})
    for (int n0 : {4, 8}) {
      const int n1 = n0 == 4 ? 2 : 3;
      std::vector<float> out(2 * 32);
      launch({.target = t, .check = SyncCheck::Throw}, [=](float* o) {
        Tile<TileType::Vec, float, 2, 32, BLayout::RowMajor, -1, -1> whole(2, 32), d(2, n0 + n1);
        Tile<TileType::Vec, float, 2, 16, BLayout::RowMajor, -1, -1> a(2, n0), b(2, n1);
        TASSIGN(whole, 0), TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x2000);
        for (int k = 0; k < 32; ++k) a.SetValue(k, 100.0f + k), b.SetValue(k, 200.0f + k), whole.SetValue(k, -1.0f), whole.SetValue(32 + k, -1.0f);
        TCONCAT(d, a, b);
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        DynGm<float> go(o, {2, 32}, {32});
        TSTORE(go, whole);
      }, out);
      std::size_t bad = 0;
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 32; ++j) {
          float e = j < n0 ? 100.0f + float(i * 16 + j) : j < n0 + n1 ? 200.0f + float(i * 16 + j - n0) : -1.0f;
          if (t == Target::A2A3 && n0 == 4 && j >= 6 && j < 8) e = 100.0f + float(i * 16 + j);        // src0's block
          if (t == Target::A2A3 && n0 == 8 && j >= 11 && j < 16) e = 200.0f + float(i * 16 + j - 8);  // src1's block
          bad += out[std::size_t(i) * 32 + j] != e;
        }
      BOOST_TEST(bad == 0u, name_of(t) << " n0 " << n0);
    }
}

BOOST_AUTO_TEST_CASE(tconcat_errors_name_the_operand_and_the_rule) {
  auto on = [](Target tg, auto body) { return error_of([&] { launch({.target = tg}, [&] { body(); }); }); };
  auto basic = [](int dcols_valid, int v0, int v1) {
    return [=] {
      Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, -1, -1> d(8, dcols_valid);
      Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, -1, -1> a(8, v0), b(8, v1);
      TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x2000);
      TCONCAT(d, a, b);
    };
  };
  std::string e = on(Target::A2A3, basic(64, 40, 30));
  BOOST_TEST(contains(e, "TCONCAT: operand dst"), e);
  BOOST_TEST(contains(e, "(A2A3: their sum must fit dst's Cols)"), e);
  e = on(Target::A2A3, basic(10, 30, 30));  // A2A3 does not read dst's valid columns
  BOOST_TEST(contains(e, "no pto::Error"), e);
  e = on(Target::A5, basic(50, 30, 30));
  BOOST_TEST(contains(e, "(A5: their sum must equal dst's valid columns)"), e);
  e = on(Target::A5, [] {
    Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, -1, -1> d(8, 64), a(8, 32), b(6, 32);
    TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x2000);
    TCONCAT(d, a, b);
  });
  BOOST_TEST(contains(e, "must have dst's 8 valid rows"), e);
  e = on(Target::A2A3, [] {
    Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, -1, -1> d(8, 64), a(8, 32), b(8, 32);
    Tile<TileType::Vec, std::int32_t, 8, 8, BLayout::RowMajor, -1, -1> i0(8, 1), i1(8, 1), o(8, 2);
    TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x2000), TASSIGN(i0, 0x3000), TASSIGN(i1, 0x3100), TASSIGN(o, 0x3200);
    TCONCAT(d, a, b, o, i0, i1);
  });
  BOOST_TEST(contains(e, "operand dstIdx"), e);
  BOOST_TEST(contains(e, "must have 1 valid column"), e);
  e = on(Target::A2A3, [] {
    Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, -1, -1> d(8, 64), a(8, 32), b(8, 32);
    Tile<TileType::Vec, std::int32_t, 4, 8, BLayout::RowMajor, -1, -1> i0(4, 1);  // 4 rows for dst's 8
    Tile<TileType::Vec, std::int32_t, 8, 8, BLayout::RowMajor, -1, -1> i1(8, 1);
    TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x2000), TASSIGN(i0, 0x3000), TASSIGN(i1, 0x3100);
    TCONCAT(d, a, b, i0, i1);
  });
  BOOST_TEST(contains(e, "operand src0Idx"), e);
  BOOST_TEST(contains(e, "has 4 rows; dst has 8 valid rows and each takes its count from element (row, 0)"), e);
  e = on(Target::A5, [] {
    Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, -1, -1> d(8, 64), a(8, 32), b(8, 32);
    Tile<TileType::Vec, std::int32_t, 8, 8, BLayout::RowMajor, -1, -1> i0(8, 1), i1(8, 0);
    TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x2000), TASSIGN(i0, 0x3000), TASSIGN(i1, 0x3100);
    TCONCAT(d, a, b, i0, i1);
  });
  BOOST_TEST(contains(e, "operand src1Idx"), e);
  BOOST_TEST(contains(e, "has no valid column; each row's count is its element (row, 0)"), e);
  e = on(Target::A5, [] {
    Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, -1, -1> d(8, 64), a(8, 32), b(8, 32);
    Tile<TileType::Vec, std::int32_t, 8, 8, BLayout::RowMajor, -1, -1> i0(8, 1), i1(8, 1);
    TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x2000), TASSIGN(i0, 0x3000), TASSIGN(i1, 0x3100);
    TEXPANDS(i0, -4);
    TEXPANDS(i1, 8);
    pipe_barrier(PIPE_V);
    TCONCAT(d, a, b, i0, i1);
  });
  BOOST_TEST(contains(e, "TCONCAT: operand src0Idx holds -4 at row 0; a count of bytes is never negative"), e);
  e = on(Target::A5, [] {
    Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, -1, -1> d(8, 64);
    Tile<TileType::Vec, float, 8, 32, BLayout::RowMajor, -1, -1> a(8, 32), b(8, 32);
    Tile<TileType::Vec, std::int32_t, 8, 8, BLayout::RowMajor, -1, -1> i0(8, 1), i1(8, 1);
    TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x2000), TASSIGN(i0, 0x3000), TASSIGN(i1, 0x3100);
    TEXPANDS(i0, 40 * 4);  // 40 elements of src0's 32-column rows
    TEXPANDS(i1, 0);
    pipe_barrier(PIPE_V);
    TCONCAT(d, a, b, i0, i1);
  });
  BOOST_TEST(contains(e, "TCONCAT: row 0 takes 40 elements of src0"), e);
  BOOST_TEST(contains(e, "more than its row holds"), e);
}

// ---- TEXTRACT / TINSERT between Vec tiles --------------------------------------------------------

// A VR x VC window (the small tile SR x SC, static valid) at (r0, c0) of a BR x BC tile: TEXTRACT stores
// the window; TINSERT writes the small tile's data there and stores the whole big tile (the rest must be
// unchanged).
template <class T, int BR, int BC, int SR, int SC, int VR, int VC>
void check_window(Target tg, bool insert, int r0, int c0) {
  using Big = Tile<TileType::Vec, T, BR, BC>;
  using Small = Tile<TileType::Vec, T, SR, SC, BLayout::RowMajor, VR, VC>;
  const std::vector<T> big = pattern<T>(std::size_t(BR) * BC, 21), small = pattern<T>(std::size_t(VR) * VC, 22);
  std::vector<T> out(insert ? big.size() : small.size());
  launch({.target = tg, .check = SyncCheck::Throw}, [=](const T* pb, const T* ps, T* po) {
    Big b;
    Small w;
    TASSIGN(b, 0), TASSIGN(w, 0x20000);
    GlobalTensor<T, Shape<1, 1, 1, BR, BC>, pto::Stride<1, 1, 1, BC, 1>> gb(const_cast<T*>(pb)), gbo(po);
    GlobalTensor<T, Shape<1, 1, 1, VR, VC>, pto::Stride<1, 1, 1, VC, 1>> gs(const_cast<T*>(ps)), gso(po);
    TLOAD(b, gb);
    if (insert) TLOAD(w, gs);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    if (insert) TINSERT(b, w, std::uint16_t(r0), std::uint16_t(c0));
    else TEXTRACT(w, b, std::uint16_t(r0), std::uint16_t(c0));
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    if (insert) TSTORE(gbo, b);
    else TSTORE(gso, w);
  }, big, small, out);
  std::size_t bad = 0;
  if (insert) {
    for (int i = 0; i < BR; ++i)
      for (int j = 0; j < BC; ++j) {
        const bool in = i >= r0 && i < r0 + VR && j >= c0 && j < c0 + VC;
        const T e = in ? small[std::size_t(i - r0) * VC + j - c0] : big[std::size_t(i) * BC + j];
        bad += std::memcmp(&out[std::size_t(i) * BC + j], &e, sizeof(T)) != 0;
      }
  } else {
    for (int i = 0; i < VR; ++i)
      for (int j = 0; j < VC; ++j) bad += std::memcmp(&out[std::size_t(i) * VC + j], &big[std::size_t(r0 + i) * BC + c0 + j], sizeof(T)) != 0;
  }
  BOOST_TEST(bad == 0u, name_of(tg) << (insert ? " TINSERT " : " TEXTRACT ") << VR << 'x' << VC << " at (" << r0 << ',' << c0
                                    << ") of " << BR << 'x' << BC);
}

// pto-isa's same-dtype tinsert Vec cases (half 32x32 with an 8x16 source at (24, 16); float 128x96 with
// an 8x16 source at (120, 80)), and extracts of aligned, unaligned-width and 1 x 1 windows.
BOOST_AUTO_TEST_CASE(textract_tinsert_copy_the_window) {
  for (Target t : {Target::A2A3, Target::A5})
    for (bool ins : {true, false}) {
      check_window<half, 32, 32, 8, 16, 8, 16>(t, ins, 24, 16);
      check_window<float, 128, 96, 8, 16, 8, 16>(t, ins, 120, 80);
      check_window<float, 64, 64, 16, 32, 13, 29>(t, ins, 8, 24);   // a width ending inside a block
      check_window<std::int8_t, 64, 64, 8, 32, 8, 30>(t, ins, 4, 32);
      check_window<float, 16, 16, 1, 8, 1, 1>(t, ins, 3, 5);         // 1 x 1: the scalar path, any column
      check_window<bfloat16_t, 16, 64, 16, 32, 16, 32>(t, ins, 0, 32);
    }
  for (bool ins : {true, false}) check_window<float, 64, 64, 16, 32, 13, 29>(Target::A5, ins, 5, 3);  // A5: any column
}

BOOST_AUTO_TEST_CASE(textract_tinsert_errors_name_the_rule) {
  auto on = [](Target tg, auto body) { return error_of([&] { launch({.target = tg}, [&] { body(); }); }); };
  auto unaligned = [] {
    Tile<TileType::Vec, float, 64, 64> b;
    Tile<TileType::Vec, float, 16, 32> w;
    TASSIGN(b, 0), TASSIGN(w, 0x10000);
    TEXTRACT(w, b, 0, 4);
  };
  std::string e = on(Target::A2A3, unaligned);
  BOOST_TEST(contains(e, "TEXTRACT: indexCol 4 is 16 bytes into a row of operand src"), e);
  BOOST_TEST(contains(e, "must be a multiple of 32"), e);
  e = on(Target::A5, unaligned);
  BOOST_TEST(contains(e, "no pto::Error"), e);
  e = on(Target::A5, [] {
    Tile<TileType::Vec, float, 64, 64> b;
    Tile<TileType::Vec, float, 16, 32> w;
    TASSIGN(b, 0), TASSIGN(w, 0x10000);
    TINSERT(b, w, 56, 0);
  });
  BOOST_TEST(contains(e, "TINSERT: operand dst"), e);
  BOOST_TEST(contains(e, "16 x 32 window at (indexRow 56, indexCol 0) runs past its 64 x 64 elements"), e);
  e = on(Target::A5, [] {
    Tile<TileType::Vec, std::uint16_t, 16, 32> b, w;
    TASSIGN(b, 0), TASSIGN(w, 0x10000);
    TEXTRACT(w, b);
  });
  BOOST_TEST(contains(e, "TEXTRACT"), e);
  BOOST_TEST(contains(e, "uint16"), e);
  e = on(Target::A2A3, [] {
    Tile<TileType::Vec, std::int8_t, 16, 64> b;
    Tile<TileType::Vec, std::int8_t, 16, 32, BLayout::RowMajor, 16, -1> w(32);
    TASSIGN(b, 0), TASSIGN(w, 0x10000);
    TEXTRACT(w, b);
  });
  BOOST_TEST(contains(e, "needs an even static ValidCol"), e);
}

// NZ tiles (16 x C0 fractals, column block after column block): the window moves as column stripes.
// Both tiles are loaded and stored whole through dense NZ tensors; the reference works on matrices.
// A5 copies the last stripe whole, so a window whose width ends inside a stripe also carries the rest
// of that stripe's columns; A2A3 masks them off.
template <class T, int BR, int BC, int SR, int SC, int VR, int VC>
void check_window_nz(Target tg, bool insert, int r0, int c0) {
  constexpr int C0 = int(32 / sizeof(T));
  using BigT = Tile<TileType::Vec, T, BR, BC, BLayout::ColMajor, BR, BC, SLayout::RowMajor, 512>;
  using SmallAll = Tile<TileType::Vec, T, SR, SC, BLayout::ColMajor, SR, SC, SLayout::RowMajor, 512>;
  using Small = Tile<TileType::Vec, T, SR, SC, BLayout::ColMajor, VR, VC, SLayout::RowMajor, 512>;
  using GB = GlobalTensor<T, TileShape2D<T, BR, BC, Layout::NZ>, BaseShape2D<T, BR, BC, Layout::NZ>, Layout::NZ>;
  using GS = GlobalTensor<T, TileShape2D<T, SR, SC, Layout::NZ>, BaseShape2D<T, SR, SC, Layout::NZ>, Layout::NZ>;
  auto at = [](int r, int c, int rows) { return std::size_t((c / C0) * rows * C0 + r * C0 + c % C0); };
  const std::vector<T> big = pattern<T>(std::size_t(BR) * BC, 31), small = pattern<T>(std::size_t(SR) * SC, 32);
  std::vector<T> out(insert ? big.size() : small.size());
  launch({.target = tg, .check = SyncCheck::Throw}, [=](const T* pb, const T* ps, T* po) {
    BigT b;
    Small w;
    SmallAll wall;
    TASSIGN(b, 0), TASSIGN(w, 0x20000), TASSIGN(wall, 0x20000);
    GB gb(const_cast<T*>(pb)), gbo(po);
    GS gs(const_cast<T*>(ps)), gso(po);
    TLOAD(b, gb);
    TLOAD(wall, gs);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    if (insert) TINSERT(b, w, std::uint16_t(r0), std::uint16_t(c0));
    else TEXTRACT(w, b, std::uint16_t(r0), std::uint16_t(c0));
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    if (insert) TSTORE(gbo, b);
    else TSTORE(gso, wall);
  }, big, small, out);
  const int moved = tg == Target::A5 && !(VR == 1 && VC == 1) ? std::min((VC + C0 - 1) / C0 * C0, SC) : VC;
  std::size_t bad = 0;
  if (insert) {
    for (int i = 0; i < BR; ++i)
      for (int j = 0; j < BC; ++j) {
        const bool in = i >= r0 && i < r0 + VR && j >= c0 && j < c0 + moved;
        const T e = in ? small[at(i - r0, j - c0, SR)] : big[at(i, j, BR)];
        bad += std::memcmp(&out[at(i, j, BR)], &e, sizeof(T)) != 0;
      }
  } else {
    for (int i = 0; i < SR; ++i)
      for (int j = 0; j < SC; ++j) {
        const bool in = i < VR && j < moved;
        const T e = in ? big[at(r0 + i, c0 + j, BR)] : small[at(i, j, SR)];
        bad += std::memcmp(&out[at(i, j, SR)], &e, sizeof(T)) != 0;
      }
  }
  BOOST_TEST(bad == 0u, name_of(tg) << " NZ" << (insert ? " TINSERT " : " TEXTRACT ") << VR << 'x' << VC << " at (" << r0 << ','
                                    << c0 << ") of " << BR << 'x' << BC);
}

// pto-isa's a2a3 textract_vec / tinsert_vec NZ shapes (src 32x32 -> 16x32 at row 0 and 16, 64x32
// windows), other dtypes, a partial last stripe and A5's any-row start.
BOOST_AUTO_TEST_CASE(nz_textract_tinsert_move_column_stripes) {
  for (Target t : {Target::A2A3, Target::A5})
    for (bool ins : {true, false}) {
      check_window_nz<float, 32, 32, 16, 32, 16, 32>(t, ins, 0, 0);
      check_window_nz<float, 32, 32, 16, 32, 16, 32>(t, ins, 16, 0);
      check_window_nz<half, 64, 64, 32, 32, 32, 32>(t, ins, 32, 32);
      check_window_nz<std::int8_t, 32, 128, 16, 64, 16, 64>(t, ins, 16, 64);
      check_window_nz<float, 64, 32, 32, 16, 32, 12>(t, ins, 16, 8);  // the last stripe partly valid
      check_window_nz<float, 32, 32, 16, 16, 1, 1>(t, ins, 5, 16);     // 1 x 1: the scalar path
    }
  for (bool ins : {true, false}) check_window_nz<bfloat16_t, 48, 64, 16, 32, 16, 32>(Target::A5, ins, 5, 16);  // A5: any row
}

BOOST_AUTO_TEST_CASE(nz_window_errors_name_the_rule) {
  auto on = [](Target tg, int r0, int c0) {
    return error_of([&] {
      launch({.target = tg}, [&] {
        Tile<TileType::Vec, float, 32, 32, BLayout::ColMajor, -1, -1, SLayout::RowMajor, 512> b;
        Tile<TileType::Vec, float, 16, 16, BLayout::ColMajor, -1, -1, SLayout::RowMajor, 512> w;
        TASSIGN(b, 0), TASSIGN(w, 0x10000);
        TEXTRACT(w, b, std::uint16_t(r0), std::uint16_t(c0));
      });
    });
  };
  std::string e = on(Target::A5, 0, 4);
  BOOST_TEST((contains(e, "TEXTRACT: indexCol 4 of operand src") && contains(e, "indexCol must be a multiple of 8")), e);
  e = on(Target::A2A3, 5, 0);
  BOOST_TEST(contains(e, "A2A3's NZ copy needs Rows and indexRow to be multiples of 16"), e);
  e = on(Target::A5, 5, 8);
  BOOST_TEST(e == "no pto::Error", e);
}

// ---- TTRI and the partial element-wise ops (kept here: they share this suite's helpers) ----------

// pto-isa's ttri cases (np.triu / np.tril of ones with k = diagonal over the valid region).
template <class T, int R, int C>
void check_tri(Target tg, bool upper, int vr, int vc, int diag) {
  std::vector<T> out(std::size_t(vr) * vc);
  launch({.target = tg, .check = SyncCheck::Throw}, [=](T* o) {
    Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1> d(vr, vc);
    TASSIGN(d, 0);
    if (upper) TTRI<decltype(d), 1>(d, diag);
    else TTRI<decltype(d), 0>(d, diag);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    DynGm<T> g(o, {vr, vc}, {vc});
    TSTORE(g, d);
  }, out);
  std::size_t bad = 0;
  for (int i = 0; i < vr; ++i)
    for (int j = 0; j < vc; ++j) bad += double(out[std::size_t(i) * vc + j]) != ((upper ? j >= i + diag : j <= i + diag) ? 1.0 : 0.0);
  BOOST_TEST(bad == 0u, name_of(tg) << (upper ? " upper " : " lower ") << vr << 'x' << vc << " d " << diag);
}

BOOST_AUTO_TEST_CASE(ttri_fills_the_triangle) {
  for (Target t : {Target::A2A3, Target::A5})
    for (bool up : {true, false}) {
      check_tri<float, 4, 8>(t, up, 4, 4, 0);
      check_tri<float, 64, 64>(t, up, 64, 64, 0);
      check_tri<std::int32_t, 64, 64>(t, up, 64, 64, 0);
      check_tri<std::int16_t, 64, 64>(t, up, 64, 64, 0);
      check_tri<std::uint32_t, 64, 64>(t, up, 64, 64, 0);
      check_tri<half, 16, 256>(t, up, 16, 256, 0);
      check_tri<float, 128, 128>(t, up, 128, 125, 0);
      check_tri<float, 128, 128>(t, up, 128, 111, 2);
      check_tri<float, 128, 128>(t, up, 128, 111, -2);
      check_tri<float, 128, 128>(t, up, 128, 31, 444);
      check_tri<float, 128, 128>(t, up, 128, 31, -444);
    }
  check_tri<std::uint8_t, 32, 96>(Target::A5, true, 32, 91, 3);  // A5's 8-bit types
  const std::string e = error_of([] {
    launch({.target = Target::A2A3}, [] {
      Tile<TileType::Vec, std::uint8_t, 32, 64> d;
      TASSIGN(d, 0);
      TTRI<decltype(d), 0>(d, 0);
    });
  });
  BOOST_TEST(contains(e, "TTRI"), e);
  BOOST_TEST(contains(e, "uint8"), e);
}

// The partial ops: pto-isa's tpartadd / tpartmax / tpartmin case (64x64 with a 32x32 src1) and its
// tpartmul cases (int32 2x8: src1 1x4; dst 2x6 with src0 1x4 and src1 2x6), both targets; the reference
// is op where both sources are valid, the covering source elsewhere.
template <class T, Op O>
void check_part(Target tg, int r0, int c0, int r1, int c1) {
  constexpr int R = 64, C = 64;
  using Tl = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1>;
  const int R0 = std::max(r0, r1), C0 = std::max(c0, c1);
  std::vector<T> a = pattern<T>(std::size_t(r0) * c0, 31), b = pattern<T>(std::size_t(r1) * c1, 32), out(std::size_t(R0) * C0);
  launch({.target = tg, .check = SyncCheck::Throw}, [=](const T* pa, const T* pb, T* po) {
    Tl d(R0, C0), x(r0, c0), y(r1, c1);
    TASSIGN(d, 0), TASSIGN(x, 0x4000), TASSIGN(y, 0x8000);
    DynGm<T> ga(const_cast<T*>(pa), {r0, c0}, {c0}), gb(const_cast<T*>(pb), {r1, c1}, {c1}), go(po, {R0, C0}, {C0});
    TLOAD(x, ga);
    TLOAD(y, gb);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    if constexpr (O == Op::TPARTADD) TPARTADD(d, x, y);
    else if constexpr (O == Op::TPARTMUL) TPARTMUL(d, x, y);
    else if constexpr (O == Op::TPARTMAX) TPARTMAX(d, x, y);
    else TPARTMIN(d, x, y);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, d);
  }, a, b, out);
  std::size_t bad = 0;
  for (int i = 0; i < R0; ++i)
    for (int j = 0; j < C0; ++j) {
      const bool in0 = i < r0 && j < c0, in1 = i < r1 && j < c1;
      T e;
      if (in0 && in1) {
        const double u = double(a[std::size_t(i) * c0 + j]), v = double(b[std::size_t(i) * c1 + j]);
        const double r = O == Op::TPARTADD ? u + v : O == Op::TPARTMUL ? u * v : O == Op::TPARTMAX ? std::max(u, v) : std::min(u, v);
        if constexpr (std::is_integral_v<T>) e = T(std::int64_t(r));
        else e = T(float(r));  // one rounding of the exact result (half: the float product is exact)
      } else {
        e = in0 ? a[std::size_t(i) * c0 + j] : b[std::size_t(i) * c1 + j];
      }
      bad += std::memcmp(&out[std::size_t(i) * C0 + j], &e, sizeof(T)) != 0;
    }
  BOOST_TEST(bad == 0u, name_of(tg) << ' ' << op_name(O) << " src0 " << r0 << 'x' << c0 << " src1 " << r1 << 'x' << c1);
}

BOOST_AUTO_TEST_CASE(tpart_ops_combine_where_both_are_valid) {
  for (Target t : {Target::A2A3, Target::A5}) {
    check_part<float, Op::TPARTADD>(t, 64, 64, 32, 32);
    check_part<float, Op::TPARTMAX>(t, 64, 64, 32, 32);
    check_part<float, Op::TPARTMIN>(t, 64, 64, 32, 32);
    check_part<std::int32_t, Op::TPARTMUL>(t, 2, 8, 1, 4);
    check_part<std::int32_t, Op::TPARTMUL>(t, 1, 4, 2, 6);
    check_part<half, Op::TPARTADD>(t, 8, 48, 8, 16);
    check_part<std::int16_t, Op::TPARTMAX>(t, 8, 64, 64, 64);
  }
  check_part<std::int8_t, Op::TPARTMAX>(Target::A5, 64, 64, 32, 32);
  check_part<std::uint8_t, Op::TPARTMIN>(Target::A5, 64, 64, 32, 32);
  std::string e = error_of([] {
    launch({}, [] {
      Tile<TileType::Vec, float, 16, 16, BLayout::RowMajor, -1, -1> d(16, 16), a(16, 8), b(8, 16);  // crossed
      TASSIGN(d, 0), TASSIGN(a, 0x1000), TASSIGN(b, 0x2000);
      TPARTADD(d, a, b);
    });
  });
  BOOST_TEST(contains(e, "TPARTADD: operands src0"), e);
  BOOST_TEST(contains(e, "one source's valid region must be dst's"), e);
}

// TPARTARGMAX / TPARTARGMIN: pto-isa's case (float 64x64 with a 32x32 src1, uint32 indices) and half
// values with 16- and 32-bit indices, both targets. The reference: where both sources are valid the
// larger (smaller) value and the index beside it, src0's on a tie; elsewhere the covering source's pair.
template <class V, class X, bool Max>
void check_partarg(Target tg, int r0, int c0, int r1, int c1, bool ties) {
  constexpr int R = 64, C = 64;
  using Tv = Tile<TileType::Vec, V, R, C, BLayout::RowMajor, -1, -1>;
  using Tx = Tile<TileType::Vec, X, R, C, BLayout::RowMajor, -1, -1>;
  const int R0 = std::max(r0, r1), C0 = std::max(c0, c1);
  std::vector<V> a = pattern<V>(std::size_t(r0) * c0, 41), b = pattern<V>(std::size_t(r1) * c1, 42), ov(std::size_t(R0) * C0);
  if (ties) {
    a.assign(a.size(), V(3));
    b.assign(b.size(), V(3));
  }
  std::vector<X> ai(a.size()), bi(b.size()), oi(ov.size());
  for (std::size_t k = 0; k < ai.size(); ++k) ai[k] = X(k % 1000);
  for (std::size_t k = 0; k < bi.size(); ++k) bi[k] = X(1000 + k % 1000);
  launch({.target = tg, .check = SyncCheck::Throw}, [=](const V* pa, const V* pb, const X* pai, const X* pbi, V* pov, X* poi) {
    Tv d(R0, C0), x(r0, c0), y(r1, c1);
    Tx di(R0, C0), xi(r0, c0), yi(r1, c1);
    constexpr unsigned kv = R * C * sizeof(V), kx = R * C * sizeof(X);
    TASSIGN(d, 0), TASSIGN(x, kv), TASSIGN(y, 2 * kv), TASSIGN(di, 3 * kv), TASSIGN(xi, 3 * kv + kx), TASSIGN(yi, 3 * kv + 2 * kx);
    DynGm<V> ga(const_cast<V*>(pa), {r0, c0}, {c0}), gb(const_cast<V*>(pb), {r1, c1}, {c1}), gov(pov, {R0, C0}, {C0});
    DynGm<X> gai(const_cast<X*>(pai), {r0, c0}, {c0}), gbi(const_cast<X*>(pbi), {r1, c1}, {c1}), goi(poi, {R0, C0}, {C0});
    TLOAD(x, ga);
    TLOAD(y, gb);
    TLOAD(xi, gai);
    TLOAD(yi, gbi);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    if constexpr (Max) TPARTARGMAX(d, x, y, di, xi, yi);
    else TPARTARGMIN(d, x, y, di, xi, yi);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gov, d);
    TSTORE(goi, di);
  }, a, b, ai, bi, ov, oi);
  std::size_t bad = 0;
  for (int i = 0; i < R0; ++i)
    for (int j = 0; j < C0; ++j) {
      const bool in0 = i < r0 && j < c0, in1 = i < r1 && j < c1;
      bool one = !in0;
      if (in0 && in1) {
        const double u = double(a[std::size_t(i) * c0 + j]), v = double(b[std::size_t(i) * c1 + j]);
        one = Max ? v > u : v < u;
      }
      const V ev = one ? b[std::size_t(i) * c1 + j] : a[std::size_t(i) * c0 + j];
      const X ex = one ? bi[std::size_t(i) * c1 + j] : ai[std::size_t(i) * c0 + j];
      const std::size_t k = std::size_t(i) * C0 + j;
      bad += std::memcmp(&ov[k], &ev, sizeof(V)) != 0 || oi[k] != ex;
    }
  BOOST_TEST(bad == 0u, name_of(tg) << (Max ? " TPARTARGMAX " : " TPARTARGMIN ") << name_of(dtype_v<V>) << "/" << name_of(dtype_v<X>)
                                     << " src0 " << r0 << "x" << c0 << " src1 " << r1 << "x" << c1 << (ties ? " ties" : ""));
}

BOOST_AUTO_TEST_CASE(tpartarg_ops_carry_the_winners_index) {
  for (Target t : {Target::A2A3, Target::A5}) {
    check_partarg<float, std::uint32_t, true>(t, 64, 64, 32, 32, false);
    check_partarg<float, std::uint32_t, false>(t, 64, 64, 32, 32, false);
    check_partarg<float, std::int32_t, true>(t, 16, 40, 16, 64, false);  // src1 covers: the compare over src0's columns
    check_partarg<half, std::uint16_t, true>(t, 8, 48, 8, 16, false);
    check_partarg<half, std::int16_t, false>(t, 40, 64, 64, 64, false);
    check_partarg<half, std::uint32_t, true>(t, 32, 64, 16, 64, false);
    check_partarg<float, std::uint32_t, true>(t, 16, 16, 16, 16, true);   // ties: src0's index
    check_partarg<half, std::uint16_t, false>(t, 16, 32, 8, 32, true);
  }
  check_partarg<half, std::uint32_t, false>(Target::A5, 8, 64, 8, 48, false);
}

// NaN: A2A3 keeps src0 only when its compare holds (so a NaN in either takes src1), A5 takes src1 only
// when its compare holds (a NaN keeps src0).
BOOST_AUTO_TEST_CASE(tpartarg_nan_follows_each_chips_compare) {
  for (Target t : {Target::A2A3, Target::A5}) {
    std::array<float, 16> out{};
    std::array<std::uint32_t, 16> idx{};
    launch({.target = t, .check = SyncCheck::Off}, [&] {
      Tile<TileType::Vec, float, 1, 16> d, a, b;
      Tile<TileType::Vec, std::uint32_t, 1, 16> di, ai, bi;
      TASSIGN(d, 0), TASSIGN(a, 0x100), TASSIGN(b, 0x200), TASSIGN(di, 0x300), TASSIGN(ai, 0x400), TASSIGN(bi, 0x500);
      for (int k = 0; k < 16; ++k) {
        a.SetValue(k, k % 2 ? NAN : 1.0f);
        b.SetValue(k, k % 2 ? 1.0f : NAN);
        ai.SetValue(k, 0), bi.SetValue(k, 1);
      }
      TPARTARGMAX(d, a, b, di, ai, bi);
      pipe_barrier(PIPE_ALL);
      for (int k = 0; k < 16; ++k) out[std::size_t(k)] = d.GetValue(k), idx[std::size_t(k)] = di.GetValue(k);
    });
    const std::uint32_t want = t == Target::A2A3 ? 1u : 0u;
    for (int k = 0; k < 16; ++k) BOOST_TEST(idx[std::size_t(k)] == want, name_of(t) << " element " << k);
  }
}

BOOST_AUTO_TEST_CASE(tpartarg_errors_name_the_operand_and_the_rule) {
  auto on = [](Target tg, auto body) { return error_of([&] { launch({.target = tg}, [&] { body(); }); }); };
  std::string e = on(Target::A2A3, [] {
    Tile<TileType::Vec, half, 8, 128> d, a, b;
    Tile<TileType::Vec, std::uint32_t, 8, 128> di, ai, bi;
    TASSIGN(d, 0), TASSIGN(a, 0x800), TASSIGN(b, 0x1000), TASSIGN(di, 0x2000), TASSIGN(ai, 0x3000), TASSIGN(bi, 0x4000);
    TPARTARGMAX(d, a, b, di, ai, bi);
  });
  BOOST_TEST(contains(e, "TPARTARGMAX: operand dst"), e);
  BOOST_TEST(contains(e, "handles only 64 valid columns"), e);
  e = on(Target::A5, [] {
    Tile<TileType::Vec, float, 8, 16, BLayout::RowMajor, -1, -1> d(8, 16), a(8, 16), b(4, 16);
    Tile<TileType::Vec, std::int32_t, 8, 16, BLayout::RowMajor, -1, -1> di(8, 16), ai(8, 16), bi(8, 16);
    TASSIGN(d, 0), TASSIGN(a, 0x200), TASSIGN(b, 0x400), TASSIGN(di, 0x600), TASSIGN(ai, 0x800), TASSIGN(bi, 0xa00);
    TPARTARGMIN(d, a, b, di, ai, bi);
  });
  BOOST_TEST(contains(e, "TPARTARGMIN"), e);
  BOOST_TEST(contains(e, "src1Idx"), e);
  e = on(Target::A2A3, [] {
    Tile<TileType::Vec, float, 8, 16, BLayout::RowMajor, -1, -1> d(0, 16), a(0, 16), b(0, 16);
    Tile<TileType::Vec, std::int32_t, 8, 16, BLayout::RowMajor, -1, -1> di(0, 16), ai(0, 16), bi(0, 16);
    TASSIGN(d, 0), TASSIGN(a, 0x200), TASSIGN(b, 0x400), TASSIGN(di, 0x600), TASSIGN(ai, 0x800), TASSIGN(bi, 0xa00);
    TPARTARGMAX(d, a, b, di, ai, bi);
  });
  BOOST_TEST(contains(e, "A2A3 requires a non-empty valid region"), e);
  e = on(Target::A5, [] {
    Tile<TileType::Vec, float, 8, 16, BLayout::RowMajor, -1, -1> d(8, 16), a(8, 8), b(4, 16);
    Tile<TileType::Vec, std::int32_t, 8, 16, BLayout::RowMajor, -1, -1> di(8, 16), ai(8, 8), bi(4, 16);
    TASSIGN(d, 0), TASSIGN(a, 0x200), TASSIGN(b, 0x400), TASSIGN(di, 0x600), TASSIGN(ai, 0x800), TASSIGN(bi, 0xa00);
    TPARTARGMAX(d, a, b, di, ai, bi);
  });
  BOOST_TEST(contains(e, "one source's valid region must be dst's"), e);
}
