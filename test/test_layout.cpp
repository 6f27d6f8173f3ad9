// TTRANS and the TFILLPAD family: pto-isa's CPU test shapes (tests/cpu/st/testcase/ttrans, tfillpad) and
// the a2a3 NPU suite's unaligned ones, every element size, both targets, through TLOAD -> op -> TSTORE.
// References: the transpose, and the pad rule built element by element from the inputs (A2A3 keeps the
// rest of src's last 32-byte block when dst's and src's PadVal agree). Errors and modeled streams too.
#define BOOST_TEST_MODULE layout
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <cstring>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

#include "element_ref.hpp"

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
    constexpr int DC = decltype(dcols)::value;
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
