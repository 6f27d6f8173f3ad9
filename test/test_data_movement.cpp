// TLOAD / TSTORE over ND and DN tensors with partial valid regions and pads, TMOV, TEXPANDS.
// Plain kernels called directly run on the implicit core, instruction by instruction.
#define BOOST_TEST_MODULE data_movement
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

#include "element_ref.hpp"
#include "test_util.hpp"

using namespace pto;

namespace {
template <class T> using Gm2D = GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, -1, 1>>;
template <class T> using Gm2DN = GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, 1, -1>, Layout::DN>;

// Loads a `vr x vc` window of a `rows x stride` GM matrix into a RowMajor tile pre-filled with `sentinel`,
// stores the tile's whole capacity back, and returns it (row-major, Rows x Cols).
template <class T, int R, int C, PadValue P>
std::vector<T> load_window(const std::vector<T>& gm, int stride, int vr, int vc, T sentinel) {
  using Full = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1, SLayout::NoneBox, 512, P>;
  Full full(R, C), part(vr, vc);
  TASSIGN(full, 0x1000);
  TASSIGN(part, 0x1000);
  TEXPANDS(full, sentinel);
  Gm2D<T> src(const_cast<T*>(gm.data()), {vr, vc}, {stride});
  TLOAD(part, src);
  std::vector<T> out(static_cast<std::size_t>(R) * C);
  Gm2D<T> dst(out.data(), {R, C}, {C});
  TSTORE(dst, full);
  return out;
}
}  // namespace

BOOST_AUTO_TEST_CASE(tload_nd_partial_valid_pads_only_the_row_tail_block) {
  const int stride = 100;
  auto gm = pto_test::random_vector<half>(std::size_t(8) * stride, -4, 4, 19);
  const half sentinel = half(7.0f);
  auto t = load_window<half, 4, 64, PadValue::Max>(gm, stride, 3, 40, sentinel);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 64; ++c) {
      const float got = float(t[std::size_t(r) * 64 + c]);
      float want = 7.0f;                                      // untouched
      if (r < 3 && c < 40) want = float(gm[std::size_t(r) * stride + c]);
      else if (r < 3 && c < 48) want = std::numeric_limits<float>::infinity();  // 40 -> next 16-element block
      BOOST_TEST_REQUIRE(got == want, "r=" << r << " c=" << c);
    }
}

BOOST_AUTO_TEST_CASE(tload_null_pad_leaves_the_tail_untouched) {
  auto gm = pto_test::random_vector<float>(64 * 16, -4, 4, 3);
  auto t = load_window<float, 2, 16, PadValue::Null>(gm, 16, 2, 5, -9.0f);
  for (int c = 0; c < 16; ++c) BOOST_TEST(t[std::size_t(c)] == (c < 5 ? gm[std::size_t(c)] : -9.0f));
}

BOOST_AUTO_TEST_CASE(tload_min_and_custom_pads_per_dtype) {
  std::vector<std::int16_t> gi(64, 3);
  auto ti = load_window<std::int16_t, 1, 32, PadValue::Min>(gi, 32, 1, 3, 5);
  BOOST_TEST(ti[2] == 3);
  for (int c = 3; c < 16; ++c) BOOST_TEST(ti[std::size_t(c)] == std::numeric_limits<std::int16_t>::min());
  BOOST_TEST(ti[16] == 5);
  std::vector<float> gf(64, 1.0f);
  auto tf = load_window<float, 1, 16, PadValueCustom(-1.5f)>(gf, 16, 1, 9, 0.0f);
  for (int c = 9; c < 16; ++c) BOOST_TEST(tf[std::size_t(c)] == -1.5f);
  std::vector<std::uint8_t> gu(64, 1);
  auto tu = load_window<std::uint8_t, 1, 64, PadValue::Max>(gu, 64, 1, 1, 0);
  for (int c = 1; c < 32; ++c) BOOST_TEST(int(tu[std::size_t(c)]) == 255);
  BOOST_TEST(int(tu[32]) == 0);
}

BOOST_AUTO_TEST_CASE(tload_tstore_dn_round_trip_with_partial_valid) {
  // GM holds a 13 x 5 matrix column-major with leading dimension 20.
  const int ld = 20;
  auto gm = pto_test::random_vector<float>(std::size_t(ld) * 5, -1, 1, 7);
  using TileDN = Tile<TileType::Vec, float, 16, 8, BLayout::ColMajor, -1, -1, SLayout::NoneBox, 512, PadValue::Zero>;
  TileDN t(13, 5);
  TASSIGN(t, 0x2000);
  Gm2DN<float> src(gm.data(), {13, 5}, {ld});
  TLOAD(t, src);
  for (int c = 0; c < 5; ++c)
    for (int r = 0; r < 16; ++r) {
      const float want = r < 13 ? gm[std::size_t(c) * ld + r] : 0.0f;
      BOOST_TEST_REQUIRE(t.data()[c * 16 + r] == want, "r=" << r << " c=" << c);
    }
  std::vector<float> out(std::size_t(ld) * 5, 99.0f);
  Gm2DN<float> dst(out.data(), {13, 5}, {ld});
  TSTORE(dst, t);
  for (int c = 0; c < 5; ++c)
    for (int r = 0; r < ld; ++r)
      BOOST_TEST_REQUIRE(out[std::size_t(c) * ld + r] == (r < 13 ? gm[std::size_t(c) * ld + r] : 99.0f));
}

BOOST_AUTO_TEST_CASE(tstore_writes_only_the_mapped_elements) {
  using T = Tile<TileType::Vec, std::int32_t, 8, 16, BLayout::RowMajor, -1, -1>;
  T t(3, 10);
  TASSIGN(t, 0);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 16; ++c) t.data()[r * 16 + c] = r * 100 + c;
  std::vector<std::int32_t> out(std::size_t(5) * 12, -1);
  Gm2D<std::int32_t> dst(out.data(), {3, 10}, {12});
  TSTORE(dst, t);
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 12; ++c)
      BOOST_TEST_REQUIRE(out[std::size_t(r) * 12 + c] == ((r < 3 && c < 10) ? r * 100 + c : -1));
}

BOOST_AUTO_TEST_CASE(tload_nd_five_dimensional_rows) {
  // Rows decompose over dims 0..3: shape (2, 1, 3, 2, 8) = 12 rows of 8, with gaps between groups.
  std::vector<float> gm(2000);
  for (std::size_t i = 0; i < gm.size(); ++i) gm[i] = float(i);
  using G = GlobalTensor<float, Shape<2, 1, 3, 2, 8>, pto::Stride<1000, 500, 100, 20, 1>>;
  G src(gm.data());
  Tile<TileType::Vec, float, 12, 8> t;
  TASSIGN(t, 0);
  TLOAD(t, src);
  for (int r = 0; r < 12; ++r)
    for (int c = 0; c < 8; ++c) {
      const int i0 = r / 6, i2 = (r / 2) % 3, i3 = r % 2;
      BOOST_TEST_REQUIRE(t.data()[r * 8 + c] == float(i0 * 1000 + i2 * 100 + i3 * 20 + c));
    }
}

// TMOV moves the bits of the smaller valid region (either operand's), the dtypes of one size: A5 between
// any two tiles, A2A3 between tiles of one shape.
BOOST_AUTO_TEST_CASE(tmov_copies_the_smaller_valid_region) {
  launch({.target = Target::A5}, [] {
    using Src = Tile<TileType::Vec, float, 16, 64, BLayout::RowMajor, -1, -1>;
    using Dst = Tile<TileType::Vec, std::int32_t, 8, 32, BLayout::RowMajor, -1, -1>;
    Src s(3, 64);
    Dst d(5, 20);
    TASSIGN(s, 0);
    TASSIGN(d, 0x8000);
    for (int i = 0; i < 16 * 64; ++i) s.data()[i] = float(i);
    for (int i = 0; i < 8 * 32; ++i) d.data()[i] = -1;
    TMOV(d, s);
    pipe_barrier(PIPE_ALL);
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 32; ++c) {
        const float f = float(r * 64 + c);
        std::int32_t want = -1;
        if (r < 3 && c < 20) std::memcpy(&want, &f, 4);
        BOOST_TEST_REQUIRE(d.data()[r * 32 + c] == want);
      }
  });
  using Tl = Tile<TileType::Vec, half, 16, 32, BLayout::RowMajor, -1, -1>;
  Tl s(16, 16), d(6, 32);  // A2A3 (the implicit core): one shape, the smaller region 6 x 16 (whole blocks)
  TASSIGN(s, 0);
  TASSIGN(d, 0x4000);
  for (int i = 0; i < 16 * 32; ++i) s.data()[i] = half(float(i % 1000));
  for (int i = 0; i < 16 * 32; ++i) d.data()[i] = half(-1.0f);
  TMOV(d, s);
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 32; ++c)
      BOOST_TEST_REQUIRE(float(d.data()[r * 32 + c]) == ((r < 6 && c < 16) ? float((r * 32 + c) % 1000) : -1.0f));
}

// A2A3's TMOV converts no layout (a2a3 TMov.hpp): RowMajor -> ColMajor copies the bytes of Cols x the
// valid rows as they lie, which is why pto-isa's layout-pair TMOV cost cases all take the RM -> RM time.
// A partial valid width would copy at a ColMajor tile's RowStride of 1 element: an error.
BOOST_AUTO_TEST_CASE(a2a3_tmov_between_layouts_copies_bytes) {
  Tile<TileType::Vec, float, 16, 16> s;
  Tile<TileType::Vec, float, 16, 16, BLayout::ColMajor, -1, -1> d(12, 16);
  TASSIGN(s, 0);
  TASSIGN(d, 0x4000);
  for (int i = 0; i < 256; ++i) s.data()[i] = float(i), d.data()[i] = -1.0f;
  TMOV(d, s);
  for (int i = 0; i < 256; ++i) BOOST_TEST_REQUIRE(d.data()[i] == (i < 12 * 16 ? float(i) : -1.0f));
  Tile<TileType::Vec, float, 16, 16, BLayout::ColMajor, -1, -1> part(16, 10);
  TASSIGN(part, 0x8000);
  const std::string e = pto_test::error_of([&] { TMOV(part, s); });
  BOOST_TEST(pto_test::contains(e, "A2A3's TMOV converts no layout; with a partial valid width"), e);
}

BOOST_AUTO_TEST_CASE(texpands_fills_the_valid_region_for_each_dtype) {
  Tile<TileType::Vec, std::int8_t, 4, 64, BLayout::RowMajor, -1, -1> i8(3, 33);
  TASSIGN(i8, 0);
  Tile<TileType::Vec, std::int8_t, 4, 64> whole;  // same bytes, full valid region
  TASSIGN(whole, 0);
  TEXPANDS(whole, std::int8_t(0));
  TEXPANDS(i8, std::int8_t(-7));
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 64; ++c) BOOST_TEST_REQUIRE(int(i8.data()[r * 64 + c]) == ((r < 3 && c < 33) ? -7 : 0));
  Tile<TileType::Vec, bfloat16_t, 2, 16> b;
  TASSIGN(b, 0x400);
  TEXPANDS(b, bfloat16_t(1.5f));
  for (int i = 0; i < 32; ++i) BOOST_TEST_REQUIRE(float(b.data()[i]) == 1.5f);
}

BOOST_AUTO_TEST_CASE(int64_texpands_runs_on_a5) {
  std::vector<std::int64_t> out(32, 0);
  auto kernel = [](std::int64_t* o) {
    Tile<TileType::Vec, std::int64_t, 4, 8> t;
    TASSIGN(t, 0);
    TEXPANDS(t, std::int64_t(-(1ll << 40)));
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    Gm2D<std::int64_t> g(o, {4, 8}, {8});
    TSTORE(g, t);
  };
  launch({.blocks = 1, .target = Target::A5}, kernel, out.data());
  for (auto v : out) BOOST_TEST_REQUIRE(v == -(1ll << 40));
}

// GetElement / SetElement: a kernel's scalar access to one GM element (pto-isa's CPU simulator API), by
// offset or 5-D index; outside the tensor's extent it is an error naming the access.
BOOST_AUTO_TEST_CASE(scalar_element_access_to_gm) {
  std::vector<float> gm(4 * 8, 1.0f);
  launch({}, [](float* p) {
    GlobalTensor<float, Shape<1, 1, 1, 4, 6>, pto::Stride<32, 32, 32, 8, 1>> g(p);
    g.SetElement(9, 5.0f);              // (1, 1)
    g.SetElement(0, 0, 0, 3, 5, 7.0f);  // (3, 5): offset 29
    g.SetElement(2, g.GetElement(9) + g.GetElement(0, 0, 0, 3, 5));
  }, gm);
  BOOST_TEST(gm[9] == 5.0f);
  BOOST_TEST(gm[29] == 7.0f);
  BOOST_TEST(gm[2] == 12.0f);
  BOOST_TEST(gm[30] == 1.0f);
  auto err = [&](auto f) {
    try {
      launch({}, f, gm);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no pto::Error");
  };
  const std::string past = err([](float* p) {
    GlobalTensor<float, Shape<1, 1, 1, 4, 6>, pto::Stride<32, 32, 32, 8, 1>> g(p);
    g.SetElement(30, 0.0f);  // the extent ends at 3 * 8 + 5 = 29
  });
  BOOST_TEST(past.find("SetElement: element offset 30 is outside the tensor's extent [0, 30)") != std::string::npos, past);
  const std::string idx = err([](float* p) {
    GlobalTensor<float, Shape<1, 1, 1, 4, 6>, pto::Stride<32, 32, 32, 8, 1>> g(p);
    (void)g.GetElement(0, 0, 0, 0, 6);
  });
  BOOST_TEST(idx.find("GetElement: index 6 of dimension 4 is outside its shape 6") != std::string::npos, idx);
}

// TPREFETCH: the NPUs' DMA walk through a scratch tile. The reference replays the walk written out
// here: per (d0, d1, d2) slice one call when the slice's bytes fit the tile, else calls of at most
// Rows x Cols elements; every call writes the tile from its first byte, rows packed (A5) or each on a
// 32-byte block (A2A3). The tile's bytes afterwards are what the chip leaves there.
namespace {
template <int S2, int S3, int S4, int TR, int TC>
std::vector<float> prefetch_ref(const std::vector<float>& gm, bool a2a3) {
  std::vector<float> t(TR * std::size_t(TC), -1.0f);
  const bool fits = S3 * S4 <= TR * TC;
  const int cr = fits ? S3 : std::min(S3, TR), cc = fits ? S4 : std::min(S4, TC);
  for (int n = 0; n < S2; ++n)
    for (int r = 0; r < S3; r += cr)
      for (int c = 0; c < S4; c += cc) {
        const int rc = std::min(cr, S3 - r), ccn = std::min(cc, S4 - c), pitch = a2a3 ? (ccn + 7) / 8 * 8 : ccn;
        for (int i = 0; i < rc; ++i)
          for (int j = 0; j < ccn; ++j) t[std::size_t(i) * pitch + j] = gm[std::size_t(n) * S3 * S4 + std::size_t(r + i) * S4 + c + j];
      }
  return t;
}
template <int S2, int S3, int S4, int TR, int TC>
void check_prefetch(Target tg) {
  std::vector<float> gm(S2 * std::size_t(S3) * S4), out(TR * std::size_t(TC));
  for (std::size_t i = 0; i < gm.size(); ++i) gm[i] = float(i);
  const auto rep = launch({.target = tg}, [](const float* g, float* o) -> Kernel {
    Tile<TileType::Vec, float, TR, TC> t;
    TASSIGN(t, 0);
    co_await TEXPANDS(t, -1.0f);
    co_await pipe_barrier(PIPE_ALL);
    GlobalTensor<float, Shape<1, 1, S2, S3, S4>, pto::Stride<1, S2 * S3 * S4, S3 * S4, S4, 1>> src(const_cast<float*>(g));
    co_await TPREFETCH(t, src);
    co_await pipe_barrier(PIPE_ALL);
    GlobalTensor<float, Shape<1, 1, 1, TR, TC>, pto::Stride<1, 1, 1, TC, 1>> dst(o);
    co_await TSTORE(dst, t);
  }, gm, out);
  BOOST_TEST_CONTEXT(name_of(tg) << " TPREFETCH " << S2 << 'x' << S3 << 'x' << S4 << " through " << TR << 'x' << TC) {
    BOOST_TEST((out == prefetch_ref<S2, S3, S4, TR, TC>(gm, tg == Target::A2A3)));
    BOOST_TEST(rep.cores[0].pipes[PIPE_MTE2].busy_cycles > 0u);
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(tprefetch_leaves_the_chips_last_chunks) {
  for (Target tg : {Target::A2A3, Target::A5}) {
    check_prefetch<1, 64, 64, 64, 64>(tg);  // pto-isa's case: one call, the tensor itself
    check_prefetch<1, 3, 10, 4, 16>(tg);    // one call, rows packed (A5) or on blocks (A2A3)
    check_prefetch<2, 20, 24, 8, 16>(tg);   // chunks of 8 x 16, the last ones smaller
    check_prefetch<3, 4, 8, 4, 8>(tg);      // one call per slice
  }
}

BOOST_AUTO_TEST_CASE(tprefetch_models_every_call_and_names_its_errors) {
  auto mte2 = [](Target tg, auto body) { return launch({.target = tg, .model_only = true}, [&] { body(); }).cores[0].pipes[PIPE_MTE2].busy_cycles; };
  std::vector<float> gm(40 * 64);
  const auto one = mte2(Target::A2A3, [&] {
    Tile<TileType::Vec, float, 40, 64> t;
    TASSIGN(t, 0);
    GlobalTensor<float, Shape<1, 1, 1, 40, 64>, pto::Stride<1, 1, 1, 64, 1>> g(gm.data());
    TPREFETCH(t, g);
  });
  const auto chunked = mte2(Target::A2A3, [&] {
    Tile<TileType::Vec, float, 8, 64> t;  // five calls of 8 rows
    TASSIGN(t, 0);
    GlobalTensor<float, Shape<1, 1, 1, 40, 64>, pto::Stride<1, 1, 1, 64, 1>> g(gm.data());
    TPREFETCH(t, g);
  });
  const auto load = mte2(Target::A2A3, [&] {
    Tile<TileType::Vec, float, 40, 64> t;
    TASSIGN(t, 0);
    GlobalTensor<float, Shape<1, 1, 1, 40, 64>, pto::Stride<1, 1, 1, 64, 1>> g(gm.data());
    TLOAD(t, g);
  });
  BOOST_TEST_MESSAGE("A2A3 TPREFETCH 40x64 f32: " << one << " MTE2 cycles in one call, " << chunked << " in five; TLOAD " << load);
  BOOST_TEST(one == load);  // the same bytes in one call
  BOOST_TEST(chunked > one);  // four more call setups
  auto err = [](Target tg, auto body) {
    try {
      launch({.target = tg}, body);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no pto::Error");
  };
  std::vector<float> small(3 * 10);
  const std::string over = err(Target::A2A3, [&] {
    Tile<TileType::Vec, float, 2, 16> t;  // 128 bytes: 3 rows of 40 fit, but not each on a 64-byte step
    TASSIGN(t, 0);
    GlobalTensor<float, Shape<1, 1, 1, 3, 10>, pto::Stride<1, 1, 1, 10, 1>> g(small.data());
    TPREFETCH(t, g);
  });
  BOOST_TEST(over.find("TPREFETCH: operand dst") != std::string::npos, over);
  BOOST_TEST(over.find("past the tile's 128") != std::string::npos, over);
  BOOST_TEST(err(Target::A5, [&] {
    Tile<TileType::Vec, float, 2, 16> t;
    TASSIGN(t, 0);
    GlobalTensor<float, Shape<1, 1, 1, 3, 10>, pto::Stride<1, 1, 1, 10, 1>> g(small.data());
    TPREFETCH(t, g);
  }) == "no pto::Error");
  const std::string strided = err(Target::A5, [&] {
    Tile<TileType::Vec, float, 2, 16> t;
    TASSIGN(t, 0);
    GlobalTensor<float, Shape<1, 1, 1, 3, 5>, pto::Stride<1, 1, 1, 10, 2>> g(small.data());
    TPREFETCH(t, g);
  });
  BOOST_TEST(strided.find("stride dimension 4 must be 1") != std::string::npos, strided);
}

// ---- NZ: Vec tiles of 16 x C0 fractals, column block after column block (C0 = 32 / sizeof(T)) ------
// The tensor (s0, s1, R / 16, 16, C0): column block b = i0 * s1 + i1 at i0 * stride0 + i1 * stride1, its
// rows contiguous. The tile: element (r, c) at (c / C0) * Rows * C0 + r * C0 + c % C0, so rows past the
// valid ones in each block are a gap TLOAD leaves alone. References: index arithmetic on a dense matrix.
namespace {
template <class T, int S0, int S1, int Rows, int VR>
void check_nz_round_trip(Target tg) {
  constexpr int C0 = int(32 / sizeof(T)), VC = S0 * S1 * C0;
  constexpr std::int64_t st1 = VR * C0 + (S1 > 1 ? 2 * C0 : 0);  // a gap between the blocks in GM too
  constexpr std::int64_t st0 = S1 * st1 + 3 * C0;
  using G = GlobalTensor<T, Shape<S0, S1, VR / 16, 16, C0>, pto::Stride<st0, st1, 16 * C0, C0, 1>, Layout::NZ>;
  const std::size_t gm_elems = std::size_t(S0 * st0);
  std::vector<T> in(gm_elems), out(gm_elems, T(-1));
  auto gm_at = [&](int r, int c) {  // where (r, c) lives in the tensor
    const int b = c / C0;
    return std::size_t((b / S1) * st0 + (b % S1) * st1 + r * C0 + c % C0);
  };
  for (int r = 0; r < VR; ++r)
    for (int c = 0; c < VC; ++c) in[gm_at(r, c)] = T((r * 37 + c * 11) % 120 - 60);
  ScopedTarget scope(tg);
  using NZ = Tile<TileType::Vec, T, Rows, VC, BLayout::ColMajor, VR, VC, SLayout::RowMajor, 512>;
  NZ t;
  TASSIGN(t, 0x400);
  // a sentinel in the whole tile first, so the gap rows show what TLOAD leaves
  using Flat = Tile<TileType::Vec, T, 1, Rows * VC>;
  Flat flat;
  TASSIGN(flat, 0x400);
  TEXPANDS(flat, T(99));
  G g(in.data()), o(out.data());
  TLOAD(t, g);
  int bad = 0, gap = 0;
  for (int r = 0; r < Rows; ++r)
    for (int c = 0; c < VC; ++c) {
      const T v = flat.GetValue((c / C0) * Rows * C0 + r * C0 + c % C0);
      if (r < VR) bad += v != in[gm_at(r, c)] || t.GetElement(r, c) != v;
      else gap += v != T(99);
    }
  TSTORE(o, t);
  int bad_out = 0;
  for (std::size_t i = 0; i < gm_elems; ++i) {
    bool mapped = false;
    for (int c = 0; c < VC && !mapped; c += C0)
      for (int r = 0; r < VR && !mapped; ++r) mapped = gm_at(r, c) <= i && i < gm_at(r, c) + C0;
    bad_out += mapped ? out[i] != in[i] : out[i] != T(-1);
  }
  BOOST_TEST_CONTEXT("NZ " << name_of(dtype_v<T>) << ' ' << name_of(tg) << " s0 " << S0 << " s1 " << S1 << ' ' << VR << " of " << Rows << " rows") {
    BOOST_TEST(bad == 0);
    BOOST_TEST(gap == 0);
    BOOST_TEST(bad_out == 0);
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(nz_tload_tstore_move_whole_column_blocks) {
  for (Target tg : {Target::A2A3, Target::A5}) {
    check_nz_round_trip<float, 1, 4, 32, 32>(tg);
    check_nz_round_trip<float, 2, 2, 48, 32>(tg);
    check_nz_round_trip<half, 1, 2, 16, 16>(tg);
    check_nz_round_trip<bfloat16_t, 2, 1, 64, 48>(tg);
    check_nz_round_trip<std::int8_t, 1, 2, 32, 16>(tg);
    check_nz_round_trip<std::int32_t, 3, 1, 16, 16>(tg);
    check_nz_round_trip<float, 1, 2, 40, 32>(tg);  // Rows not a multiple of 16: blocks still Rows * C0 apart
  }
  check_nz_round_trip<std::int64_t, 1, 2, 16, 16>(Target::A5);
}

BOOST_AUTO_TEST_CASE(nz_errors_name_the_rule) {
  using NZ = Tile<TileType::Vec, float, 32, 16, BLayout::ColMajor, -1, -1, SLayout::RowMajor, 512>;
  std::vector<float> gm(1024);
  auto run = [&](Target tg, int vr, int vc, std::int64_t st3) {
    return pto_test::error_of([&] {
      ScopedTarget scope(tg);
      using G = GlobalTensor<float, Shape<1, 2, 2, 16, 8>, pto::Stride<-1, 256, 128, -1, 1>, Layout::NZ>;
      G g(gm.data(), {}, pto::Stride<-1, 256, 128, -1, 1>(512, st3));
      NZ t(vr, vc);
      TASSIGN(t, 0);
      TLOAD(t, g);
    });
  };
  std::string e = run(Target::A2A3, 32, 16, 8);
  BOOST_TEST(e == "no pto::Error", e);
  e = run(Target::A5, 16, 16, 8);
  BOOST_TEST((pto_test::contains(e, "maps 32x16 (rows = s2*s3, cols = s0*s1*s4)") && pto_test::contains(e, "NZ tensor <-> NZ tile")), e);
  e = run(Target::A2A3, 32, 16, 16);
  BOOST_TEST(pto_test::contains(e, "strides 2, 3 and 4 must be 128, 8 and 1"), e);
  const std::string e64 = pto_test::error_of([] {
    ScopedTarget scope(Target::A2A3);
    std::vector<std::int64_t> g64(512);
    GlobalTensor<std::int64_t, Shape<1, 1, 1, 16, 4>, pto::Stride<64, 64, 64, 4, 1>, Layout::NZ> g(g64.data());
    Tile<TileType::Vec, std::int64_t, 16, 4, BLayout::ColMajor, -1, -1, SLayout::RowMajor, 512> t;
    TASSIGN(t, 0);
    TLOAD(t, g);
  });
  BOOST_TEST(pto_test::contains(e64, "A2A3 moves 64-bit elements only between ND and DN layouts"), e64);
}

// ---- TMOV ND -> NZ (A5) ----------------------------------------------------------------------------
// pto-isa's a5 tmov_nd2nz cases (hifloat8 32x32, 32x64, 64x64: TLOAD ND, TMOV, TSTORE NZ), other dtypes
// and a valid height off a fractal boundary (the rows past it in each block are left alone).
namespace {
template <class T, int R, int C, int VR>
void check_nd2nz() {
  static constexpr int C0 = int(32 / sizeof(T)), P = (VR + 15) / 16 * 16;  // static: clang 14 would make the kernel lambda capture it
  std::vector<T> in(R * std::size_t(C)), out(P * std::size_t(C), T::FromRaw(0x55));
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = T::FromRaw(std::uint8_t(i * 7 + 3));
  launch({.target = Target::A5, .check = SyncCheck::Throw}, [](const T* pi, T* po) {
    GlobalTensor<T, Shape<1, 1, 1, VR, C>, pto::Stride<1, 1, 1, C, 1>> gi(const_cast<T*>(pi));
    using GZ = GlobalTensor<T, TileShape2D<T, P, C, Layout::NZ>, BaseShape2D<T, P, C, Layout::NZ>, Layout::NZ>;
    GZ go(po), gpre(po);
    Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1> s(VR, C);
    Tile<TileType::Vec, T, P, C, BLayout::ColMajor, VR, C, SLayout::RowMajor, 512> d;
    Tile<TileType::Vec, T, P, C, BLayout::ColMajor, P, C, SLayout::RowMajor, 512> whole;
    TASSIGN(s, 0), TASSIGN(d, 0x10000), TASSIGN(whole, 0x10000);
    TLOAD(s, gi);
    TLOAD(whole, gpre);  // the sentinel everywhere first
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TMOV(d, s);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, whole);
  }, in, out);
  int bad = 0;
  for (int r = 0; r < P; ++r)
    for (int c = 0; c < C; ++c) {
      const std::uint8_t got = out[std::size_t((c / C0) * P * C0 + r * C0 + c % C0)].RawData();
      bad += got != (r < VR ? in[std::size_t(r) * C + c].RawData() : 0x55);
    }
  BOOST_TEST(bad == 0, "TMOV ND -> NZ " << VR << 'x' << C << ": " << bad << " mismatches");
}
template <class T, int R, int C>
void check_nd2nz_numbers() {
  constexpr int C0 = int(32 / sizeof(T));
  std::vector<T> in(R * std::size_t(C)), out(in.size(), T(0));
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = T(int(i % 113) - 50);
  launch({.target = Target::A5}, [](const T* pi, T* po) {
    GlobalTensor<T, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>> gi(const_cast<T*>(pi));
    GlobalTensor<T, TileShape2D<T, R, C, Layout::NZ>, BaseShape2D<T, R, C, Layout::NZ>, Layout::NZ> go(po);
    Tile<TileType::Vec, T, R, C> s;
    Tile<TileType::Vec, T, R, C, BLayout::ColMajor, R, C, SLayout::RowMajor, 512> d;
    TASSIGN(s, 0), TASSIGN(d, 0x10000);
    TLOAD(s, gi);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TMOV(d, s);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(go, d);
  }, in, out);
  int bad = 0;
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) bad += !(out[std::size_t((c / C0) * R * C0 + r * C0 + c % C0)] == in[std::size_t(r) * C + c]);
  BOOST_TEST(bad == 0, "TMOV ND -> NZ " << name_of(dtype_v<T>) << ' ' << R << 'x' << C << ": " << bad << " mismatches");
}
}  // namespace

BOOST_AUTO_TEST_CASE(a5_tmov_nd_to_nz_scatters_column_blocks) {
  check_nd2nz<hifloat8_t, 32, 32, 32>();
  check_nd2nz<hifloat8_t, 32, 64, 32>();
  check_nd2nz<hifloat8_t, 64, 64, 64>();
  check_nd2nz<float8_e4m3_t, 32, 64, 20>();
  check_nd2nz_numbers<float, 32, 32>();
  check_nd2nz_numbers<half, 16, 64>();
  check_nd2nz_numbers<std::int32_t, 48, 16>();
  const std::string e = pto_test::error_of([] {
    launch({.target = Target::A2A3}, [] {
      Tile<TileType::Vec, float, 16, 16> s;
      Tile<TileType::Vec, float, 16, 16, BLayout::ColMajor, -1, -1, SLayout::RowMajor, 512> d;
      TASSIGN(s, 0), TASSIGN(d, 0x1000);
      TMOV(d, s);
    });
  });
  BOOST_TEST(pto_test::contains(e, "A2A3's TMOV converts no layout"), e);
  const std::string e2 = pto_test::error_of([] {
    launch({.target = Target::A5}, [] {
      Tile<TileType::Vec, float, 16, 16> s;
      Tile<TileType::Vec, float, 32, 16, BLayout::ColMajor, -1, -1, SLayout::RowMajor, 512> d(16, 16);
      TASSIGN(s, 0), TASSIGN(d, 0x1000);
      TMOV(d, s);
    });
  });
  BOOST_TEST(pto_test::contains(e2, "roundup16(validRow) = 16 rows apart, so dst's Rows must be 16"), e2);
  const std::string e3 = pto_test::error_of([] {
    launch({.target = Target::A5}, [] {
      Tile<TileType::Vec, float, 32, 16> s;
      Tile<TileType::Vec, float, 16, 16, BLayout::ColMajor, -1, -1, SLayout::RowMajor, 512> d(12, 16);
      TASSIGN(s, 0), TASSIGN(d, 0x1000);
      TMOV(d, s);
    });
  });
  BOOST_TEST(pto_test::contains(e3, "src may have no more valid rows than dst"), e3);
}

// ---- TLOAD into L1 (Mat) fractal tiles: ND -> NZ, DN -> ZN, NZ -> NZ (the cube's operand loads) ------
// References are the layouts' index formulas, written here from their definitions (C0 = 32 / sizeof(T)):
// NZ element (r, c) at (c / C0) * Rows * C0 + r * C0 + c % C0; ZN element (r, c) at
// ((r / C0) * (Cols / 16) + c / 16) * 16 * C0 + (c % 16) * C0 + r % C0. Bytes outside the valid region
// keep what they held (a sentinel), as the NPUs' Mat paths take no pad value.
namespace {
template <class T, int Rows, int Cols, bool Dn>
void check_mat_fractal_load(Target tg, int VR, int VC) {
  constexpr int C0 = int(32 / sizeof(T));
  // the tensor: VR x VC logical, ND row stride VC + 3 (or DN column stride VR + 5), 2-D
  const std::int64_t ld = Dn ? VR + 5 : VC + 3;
  std::vector<T> in(std::size_t(ld) * std::size_t(Dn ? VC : VR));
  auto gm_at = [&](int r, int c) { return Dn ? std::size_t(c) * ld + r : std::size_t(r) * ld + c; };
  for (int r = 0; r < VR; ++r)
    for (int c = 0; c < VC; ++c) in[gm_at(r, c)] = T((r * 29 + c * 13) % 100 - 50);
  ScopedTarget scope(tg);
  using Mat = std::conditional_t<Dn, Tile<TileType::Mat, T, Rows, Cols, BLayout::RowMajor, -1, -1, SLayout::ColMajor, 512>,
                                 Tile<TileType::Mat, T, Rows, Cols, BLayout::ColMajor, -1, -1, SLayout::RowMajor, 512>>;
  Mat t(VR, VC);
  TASSIGN(t, 0x1000);
  T* raw = t.data();
  std::memset(static_cast<void*>(raw), 0x5A, sizeof(T) * Rows * Cols);
  T sentinel;
  std::memset(static_cast<void*>(&sentinel), 0x5A, sizeof(T));
  if constexpr (Dn) {
    using G = GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, 1, -1>, Layout::DN>;
    G g(in.data(), {VR, VC}, {ld});
    TLOAD(t, g);
  } else {
    using G = GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, -1, 1>>;
    G g(in.data(), {VR, VC}, {ld});
    TLOAD(t, g);
  }
  int bad = 0, touched = 0;
  for (int r = 0; r < Rows; ++r)
    for (int c = 0; c < Cols; ++c) {
      const std::size_t at = Dn ? std::size_t(((r / C0) * (Cols / 16) + c / 16) * 16 * C0 + (c % 16) * C0 + r % C0)
                                : std::size_t((c / C0) * Rows * C0 + r * C0 + c % C0);
      const bool valid = r < VR && c < VC;
      if (valid) bad += raw[at] != in[gm_at(r, c)];
      else touched += std::memcmp(&raw[at], &sentinel, sizeof(T)) != 0;
    }
  BOOST_TEST_CONTEXT((Dn ? "DN -> ZN " : "ND -> NZ ") << name_of(dtype_v<T>) << ' ' << name_of(tg) << ' ' << VR << 'x' << VC
                                                     << " of " << Rows << 'x' << Cols) {
    BOOST_TEST(bad == 0);
    BOOST_TEST(touched == 0);
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(tload_nd_to_nz_and_dn_to_zn_fill_mat_fractal_tiles) {
  for (Target tg : {Target::A2A3, Target::A5}) {
    check_mat_fractal_load<half, 128, 64, false>(tg, 128, 64);   // the GEMM kernel's A step
    check_mat_fractal_load<half, 64, 256, false>(tg, 64, 256);   // and its B step
    check_mat_fractal_load<half, 48, 64, false>(tg, 40, 50);     // partial fractals both ways
    check_mat_fractal_load<float, 32, 32, false>(tg, 31, 17);
    check_mat_fractal_load<std::int8_t, 32, 64, false>(tg, 20, 45);
    check_mat_fractal_load<bfloat16_t, 16, 48, false>(tg, 16, 48);
    check_mat_fractal_load<half, 64, 48, true>(tg, 64, 48);
    check_mat_fractal_load<float, 32, 32, true>(tg, 30, 20);
    check_mat_fractal_load<std::int8_t, 64, 32, true>(tg, 50, 31);
  }
}

BOOST_AUTO_TEST_CASE(tload_to_mat_fractal_errors_name_the_rule) {
  using pto_test::contains;
  using pto_test::error_of;
  std::vector<half> gm(4096);
  // A2A3's nd2nz takes a 2-D tensor; A5 maps the rows of every outer dimension
  auto three_d = [&](Target tg) {
    return error_of([&] {
      ScopedTarget scope(tg);
      Tile<TileType::Mat, half, 32, 32, BLayout::ColMajor, 32, 32, SLayout::RowMajor, 512> t;
      TASSIGN(t, 0);
      GlobalTensor<half, Shape<1, 1, 2, 16, 32>, pto::Stride<1, 1, 512, 32, 1>> g(gm.data());
      TLOAD(t, g);
    });
  };
  std::string e = three_d(Target::A2A3);
  BOOST_TEST((contains(e, "TLOAD: operand src") && contains(e, "takes a 2-D tensor: dims 0-2 must be 1")), e);
  BOOST_TEST(three_d(Target::A5) == "no pto::Error");
  // the valid shape must be what the tensor maps, as for every TLOAD
  e = error_of([&] {
    ScopedTarget scope(Target::A2A3);
    Tile<TileType::Mat, half, 32, 32, BLayout::ColMajor, -1, -1, SLayout::RowMajor, 512> t(32, 16);
    TASSIGN(t, 0);
    GlobalTensor<half, Shape<1, 1, 1, 32, 32>, pto::Stride<1, 1, 1, 32, 1>> g(gm.data());
    TLOAD(t, g);
  });
  BOOST_TEST((contains(e, "maps 32x32") && contains(e, "has valid shape 32x16")), e);
}
