// MGATHER and MSCATTER: pto-isa's CPU test shapes (tests/cpu/st/testcase/mgather, mscatter) on both
// targets, written as its kernels are (TLOAD of the index tile, MTE2 -> V, the instruction, V -> MTE3,
// TSTORE), with random and repeated indices, every out-of-bounds mode, the atomic scatters, each chip's
// table-row addressing and the error paths. References are computed here from the ISA's definitions
// (row r = table row idx[r]; element = flat element idx; a later write to one slot wins; atomics combine
// in order), bit for bit.
#define BOOST_TEST_MODULE gm_indexed
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

#include "element_ref.hpp"

using namespace pto;
using pto_test::contains;
using pto_test::error_of;

namespace {
Target both[] = {Target::A2A3, Target::A5};

template <class T> std::vector<T> values(std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::vector<T> v(n);
  for (auto& e : v) e = T(int(g() % 200) - 100 + int(g() % 7));
  return v;
}
template <class T> bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}
std::vector<std::int32_t> indices(std::size_t n, int below, unsigned seed) {
  std::mt19937 g(seed);
  std::vector<std::int32_t> v(n);
  for (auto& e : v) e = std::int32_t(g() % unsigned(below));
  return v;
}
// The remap every mode makes of an index against `count` slots: -1 for "no slot" (Zero / Skip).
std::int64_t remap(std::int32_t raw, std::int64_t count, int mode_clamp_wrap_none) {
  const auto u = std::uint64_t(std::uint32_t(raw));
  if (u < std::uint64_t(count)) return std::int64_t(u);
  if (mode_clamp_wrap_none == 0) return count - 1;
  if (mode_clamp_wrap_none == 1) return std::int64_t(u % std::uint64_t(count));
  return -1;
}
constexpr int kClamp = 0, kWrap = 1, kDrop = 2;

// pto-isa's kernel shape: the index TLOAD, MTE2 -> V, the gather, V -> MTE3, the TSTORE of dst.
template <Coalesce M, GatherOOB O = GatherOOB::Undefined, class D, class Table, class X, class XG, class OG>
void load_gather_store(D& d, Table& table, X& x, XG& idxG, OG& outG) {
  TLOAD(x, idxG);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  MGATHER<M, O>(d, table, x);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(outG, d);
}

// ---- MGATHER, Row: dst R x C from a table of TR rows, a 1 x R index line ------------------------------

template <GatherOOB Oob, class T, int R, int C, int TR>
void check_gather_row(Target tg, const std::vector<std::int32_t>& idx) {
  const std::vector<T> table = values<T>(std::size_t(TR) * C, 11);
  std::vector<T> out(R * std::size_t(C), T(7));
  launch({.target = tg}, [](T* o, const T* tb, const std::int32_t* ix) {
    GlobalTensor<T, Shape<1, 1, 1, TR, C>, pto::Stride<1, 1, 1, C, 1>> tableG(const_cast<T*>(tb));
    GlobalTensor<std::int32_t, Shape<1, 1, 1, 1, R>, pto::Stride<1, 1, 1, R, 1>> idxG(const_cast<std::int32_t*>(ix));
    GlobalTensor<T, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>> outG(o);
    Tile<TileType::Vec, T, R, C> d;
    Tile<TileType::Vec, std::int32_t, 1, (R + 7) / 8 * 8, BLayout::RowMajor, 1, R> x;
    TASSIGN(x, 0);
    TASSIGN(d, 4096);
    load_gather_store<Coalesce::Row, Oob>(d, tableG, x, idxG, outG);
  }, out, table, idx);
  std::vector<T> want(out.size());
  const int mode = Oob == GatherOOB::Clamp ? kClamp : Oob == GatherOOB::Wrap ? kWrap : kDrop;
  for (int r = 0; r < R; ++r) {
    const std::int64_t s = remap(idx[std::size_t(r)], TR, mode);
    for (int c = 0; c < C; ++c) want[std::size_t(r) * C + c] = s < 0 ? T(0) : table[std::size_t(s) * C + c];
  }
  BOOST_TEST_CONTEXT(name_of(tg) << " MGATHER Row " << name_of(dtype_v<T>) << ' ' << R << 'x' << C << " of " << TR << " rows, oob "
                                 << int(Oob)) {
    BOOST_TEST(same_bits(out, want));
  }
}

// ---- MGATHER, Elem: dst R x C (valid VR x VC) from a flat table of N -----------------------------------

template <GatherOOB Oob, class T, int R, int C, int N>
void check_gather_elem(Target tg, int vr, int vc, const std::vector<std::int32_t>& idx) {
  const std::vector<T> table = values<T>(N, 5);
  std::vector<T> out(R * std::size_t(C), T(9));
  launch({.target = tg}, [vr, vc](T* o, const T* tb, const std::int32_t* ix) {
    GlobalTensor<T, Shape<1, 1, 1, 1, N>, pto::Stride<1, 1, 1, N, 1>> tableG(const_cast<T*>(tb));
    GlobalTensor<std::int32_t, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>> idxG(const_cast<std::int32_t*>(ix));
    GlobalTensor<T, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>> outG(o);
    Tile<TileType::Vec, T, R, C> whole;
    Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1> d(vr, vc);
    Tile<TileType::Vec, std::int32_t, R, C> xl;
    Tile<TileType::Vec, std::int32_t, R, C, BLayout::RowMajor, -1, -1> x(vr, vc);
    TASSIGN(xl, 0), TASSIGN(x, 0), TASSIGN(whole, 65536), TASSIGN(d, 65536);
    TLOAD(xl, idxG);
    TEXPANDS(whole, T(9));  // what the valid region leaves
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    MGATHER<Coalesce::Elem, Oob>(d, tableG, x);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(outG, whole);
  }, out, table, idx);
  std::vector<T> want(out.size(), T(9));
  const int mode = Oob == GatherOOB::Clamp ? kClamp : Oob == GatherOOB::Wrap ? kWrap : kDrop;
  for (int r = 0; r < vr; ++r)
    for (int c = 0; c < vc; ++c) {
      const std::int64_t s = remap(idx[std::size_t(r) * C + c], N, mode);
      want[std::size_t(r) * C + c] = s < 0 ? T(0) : table[std::size_t(s)];
    }
  BOOST_TEST_CONTEXT(name_of(tg) << " MGATHER Elem " << name_of(dtype_v<T>) << ' ' << vr << 'x' << vc << " in " << R << 'x' << C
                                 << " of " << N << ", oob " << int(Oob)) {
    BOOST_TEST(same_bits(out, want));
  }
}

// ---- MSCATTER: src R x C into a table, Row (TR rows of C) or Elem (N flat) --------------------------

template <Coalesce M, ScatterAtomicOp A, ScatterOOB Oob, class T, int R, int C, int TN>
void check_scatter(Target tg, const std::vector<std::int32_t>& idx) {
  constexpr bool elem = M == Coalesce::Elem;
  static constexpr int TR = elem ? 1 : TN, TC = elem ? TN : C;  // the table: TR x TC (static: clang 14 would make the kernel lambda capture it)
  const std::vector<T> src = values<T>(std::size_t(R) * C, 3);
  std::vector<T> table = values<T>(std::size_t(TR) * TC, 17);
  std::vector<T> want = table;
  launch({.target = tg}, [](T* tb, const T* s, const std::int32_t* ix) {
    GlobalTensor<T, Shape<1, 1, 1, TR, TC>, pto::Stride<1, 1, 1, TC, 1>> tableG(tb);
    GlobalTensor<T, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>> srcG(const_cast<T*>(s));
    constexpr int XR = elem ? R : 1, XC = elem ? C : R;
    GlobalTensor<std::int32_t, Shape<1, 1, 1, XR, XC>, pto::Stride<1, 1, 1, XC, 1>> idxG(const_cast<std::int32_t*>(ix));
    Tile<TileType::Vec, T, R, C> st;
    Tile<TileType::Vec, std::int32_t, XR, (XC + 7) / 8 * 8, BLayout::RowMajor, XR, XC> x;
    TASSIGN(x, 0), TASSIGN(st, 65536);
    TLOAD(x, idxG);
    TLOAD(st, srcG);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    MSCATTER<M, A, Oob>(tableG, st, x);
  }, table, src, idx);
  const int mode = Oob == ScatterOOB::Clamp ? kClamp : Oob == ScatterOOB::Wrap ? kWrap : kDrop;
  auto put = [&](T& slot, T v) {
    if constexpr (A == ScatterAtomicOp::Add) {
      if constexpr (std::is_integral_v<T>) slot = T(std::make_unsigned_t<T>(slot) + std::make_unsigned_t<T>(v));
      else slot = T(double(slot) + double(v));
    } else if constexpr (A == ScatterAtomicOp::Max) {
      slot = v > slot ? v : slot;
    } else if constexpr (A == ScatterAtomicOp::Min) {
      slot = v < slot ? v : slot;
    } else {
      slot = v;
    }
  };
  for (int r = 0; r < R; ++r) {
    if constexpr (elem) {
      for (int c = 0; c < C; ++c)
        if (const std::int64_t s = remap(idx[std::size_t(r) * C + c], TN, mode); s >= 0) put(want[std::size_t(s)], src[std::size_t(r) * C + c]);
    } else if (const std::int64_t s = remap(idx[std::size_t(r)], TN, mode); s >= 0) {
      for (int c = 0; c < C; ++c) put(want[std::size_t(s) * C + c], src[std::size_t(r) * C + c]);
    }
  }
  BOOST_TEST_CONTEXT(name_of(tg) << " MSCATTER " << (elem ? "Elem " : "Row ") << name_of(dtype_v<T>) << ' ' << R << 'x' << C
                                 << " atomic " << int(A) << " oob " << int(Oob)) {
    BOOST_TEST(same_bits(table, want));
  }
}

// ---- A2A3's NZ form: an NZ table of shape (S0, S1, S2, 16, C0), its s0 slices kNzGap elements apart, and
// NZ tiles. Table logical (row, col): row = s2 * 16 + i3, col = (s0 * S1 + s1) * C0 + i4, written out here
// from the shape and strides. A tile's (r, c) lies at (c / C0) * Rows * C0 + r * C0 + c % C0.
template <class T> constexpr int kC0 = int(32 / sizeof(T));
constexpr int kS0 = 2, kS1 = 2, kS2 = 3, kNzRows = kS2 * 16, kNzGap = 64;
template <class T> constexpr int kNzCols = kS0 * kS1 * kC0<T>;
template <class T> constexpr int kNzSt1 = kS2 * 16 * kC0<T>;
template <class T> constexpr int kNzSt0 = kS1 * kNzSt1<T> + kNzGap;
template <class T> std::size_t table_at(std::int64_t row, std::int64_t col) {
  const int c0 = kC0<T>;
  return std::size_t((col / (c0 * kS1)) * kNzSt0<T> + (col / c0 % kS1) * kNzSt1<T> + (row / 16) * (16 * c0) + (row % 16) * c0 + col % c0);
}
template <class T> using NzTable =
    GlobalTensor<T, Shape<kS0, kS1, kS2, 16, kC0<T>>, pto::Stride<kNzSt0<T>, kNzSt1<T>, 16 * kC0<T>, kC0<T>, 1>, Layout::NZ>;
template <class T, int Rows, int Cols> using NzGm =
    GlobalTensor<T, Shape<1, Cols / kC0<T>, Rows / 16, 16, kC0<T>>, pto::Stride<Rows * Cols, Rows * kC0<T>, 16 * kC0<T>, kC0<T>, 1>, Layout::NZ>;
template <class T, int Rows, int Cols, int VR = Rows, int VC = Cols> using NzTile =
    Tile<TileType::Vec, T, Rows, Cols, BLayout::ColMajor, VR, VC, SLayout::RowMajor, 512>;
template <class T> std::size_t tile_at(int rows, int r, int c) {
  return std::size_t(c / kC0<T>) * std::size_t(rows) * kC0<T> + std::size_t(r) * kC0<T> + std::size_t(c % kC0<T>);
}

// MGATHER<M, Oob> into an NZ dst of R valid rows (Row: whole logical rows; Elem: VC valid columns), over a
// sentinel; the whole tile is compared.
template <Coalesce M, GatherOOB Oob, class T, int R, int VC = kNzCols<T>>
void check_gather_nz(const std::vector<std::int32_t>& idx) {
  constexpr bool elem = M == Coalesce::Elem;
  static constexpr int Rows = (R + 15) / 16 * 16, Cols = kNzCols<T>, XR = elem ? R : 1, XC = elem ? VC : R;  // static: clang 14 would make the kernel lambda capture it
  const std::vector<T> table = values<T>(std::size_t(kNzSt0<T>) * kS0, 21), sentinel(std::size_t(Rows) * Cols, T(9));
  std::vector<T> out(sentinel.size());
  launch({.target = Target::A2A3}, [](T* o, const T* sn, const T* tb, const std::int32_t* ix) {
    NzTable<T> tableG(const_cast<T*>(tb));
    NzGm<T, Rows, Cols> sentG(const_cast<T*>(sn)), outG(o);
    GlobalTensor<std::int32_t, Shape<1, 1, 1, XR, XC>, pto::Stride<1, 1, 1, XC, 1>> idxG(const_cast<std::int32_t*>(ix));
    NzTile<T, Rows, Cols> whole;
    NzTile<T, Rows, Cols, R, VC> d;
    Tile<TileType::Vec, std::int32_t, XR, (XC + 7) / 8 * 8, BLayout::RowMajor, XR, XC> x;
    TASSIGN(x, 0), TASSIGN(whole, 32768), TASSIGN(d, 32768);
    TLOAD(whole, sentG);
    TLOAD(x, idxG);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    MGATHER<M, Oob>(d, tableG, x);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(outG, whole);
  }, out, sentinel, table, idx);
  std::vector<T> want = sentinel;
  const int mode = Oob == GatherOOB::Clamp ? kClamp : Oob == GatherOOB::Wrap ? kWrap : kDrop;
  if (!elem && Oob == GatherOOB::Zero) std::fill(want.begin(), want.end(), T(0));  // the chip zeroes the whole tile first
  for (int r = 0; r < R; ++r) {
    if (!elem) {
      const std::int64_t sl = remap(idx[std::size_t(r)], kNzRows, mode);
      if (sl >= 0)
        for (int c = 0; c < Cols; ++c) want[tile_at<T>(Rows, r, c)] = table[table_at<T>(sl, c)];
      continue;
    }
    for (int c = 0; c < VC; ++c) {
      const std::int64_t sl = remap(idx[std::size_t(r) * VC + c], std::int64_t(kNzRows) * Cols, mode);
      want[tile_at<T>(Rows, r, c)] = sl < 0 ? T(0) : table[table_at<T>(sl / Cols, sl % Cols)];
    }
  }
  BOOST_TEST_CONTEXT("A2A3 MGATHER NZ " << (elem ? "Elem " : "Row ") << name_of(dtype_v<T>) << ' ' << R << " rows, oob " << int(Oob)) {
    BOOST_TEST(same_bits(out, want));
  }
}

// MSCATTER<M, A, Oob> from an NZ src of R valid rows (Row: whole logical rows; Elem: VC valid columns,
// walked as the chip walks them: column blocks of C0, rows, the block's columns).
template <Coalesce M, ScatterAtomicOp A, ScatterOOB Oob, class T, int R, int VC = kNzCols<T>>
std::vector<T> check_scatter_nz(const std::vector<std::int32_t>& idx) {
  constexpr bool elem = M == Coalesce::Elem;
  static constexpr int Rows = (R + 15) / 16 * 16, Cols = kNzCols<T>, XR = elem ? R : 1, XC = elem ? VC : R, c0 = kC0<T>;  // static: clang 14 would make the kernel lambda capture it
  const std::vector<T> src = values<T>(std::size_t(Rows) * Cols, 4);
  std::vector<T> table = values<T>(std::size_t(kNzSt0<T>) * kS0, 23), want = table;
  launch({.target = Target::A2A3}, [](T* tb, const T* sv, const std::int32_t* ix) {
    NzTable<T> tableG(tb);
    NzGm<T, Rows, Cols> srcG(const_cast<T*>(sv));
    GlobalTensor<std::int32_t, Shape<1, 1, 1, XR, XC>, pto::Stride<1, 1, 1, XC, 1>> idxG(const_cast<std::int32_t*>(ix));
    NzTile<T, Rows, Cols> whole;
    NzTile<T, Rows, Cols, R, VC> s;
    Tile<TileType::Vec, std::int32_t, XR, (XC + 7) / 8 * 8, BLayout::RowMajor, XR, XC> x;
    TASSIGN(x, 0), TASSIGN(whole, 32768), TASSIGN(s, 32768);
    TLOAD(whole, srcG);
    TLOAD(x, idxG);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    MSCATTER<M, A, Oob>(tableG, s, x);
    (void)whole;
  }, table, src, idx);
  const int mode = Oob == ScatterOOB::Clamp ? kClamp : Oob == ScatterOOB::Wrap ? kWrap : kDrop;
  auto put = [&](T& slot, T v) {
    if constexpr (A == ScatterAtomicOp::Add) slot = T(double(slot) + double(v));
    else slot = v;
  };
  if (!elem) {
    for (int r = 0; r < R; ++r)
      if (const std::int64_t sl = remap(idx[std::size_t(r)], kNzRows, mode); sl >= 0)
        for (int c = 0; c < Cols; ++c) put(want[table_at<T>(sl, c)], src[tile_at<T>(Rows, r, c)]);
  } else {
    for (int b = 0; b < VC; b += c0)
      for (int r = 0; r < R; ++r)
        for (int c = b; c < std::min(b + c0, VC); ++c)
          if (const std::int64_t sl = remap(idx[std::size_t(r) * VC + c], std::int64_t(kNzRows) * Cols, mode); sl >= 0)
            put(want[table_at<T>(sl / Cols, sl % Cols)], src[tile_at<T>(Rows, r, c)]);
  }
  BOOST_TEST_CONTEXT("A2A3 MSCATTER NZ " << (elem ? "Elem " : "Row ") << name_of(dtype_v<T>) << ' ' << R << " rows, atomic "
                                         << int(A) << " oob " << int(Oob)) {
    BOOST_TEST(same_bits(table, want));
  }
  return src;
}
}  // namespace

BOOST_AUTO_TEST_CASE(mgather_rows) {
  for (Target tg : both) {
    check_gather_row<GatherOOB::Undefined, float, 8, 32, 64>(tg, indices(8, 64, 1));
    check_gather_row<GatherOOB::Undefined, half, 16, 64, 64>(tg, indices(16, 64, 2));
    check_gather_row<GatherOOB::Undefined, std::int32_t, 8, 16, 32>(tg, indices(8, 32, 3));
    check_gather_row<GatherOOB::Undefined, std::uint8_t, 8, 32, 32>(tg, indices(8, 32, 4));
    check_gather_row<GatherOOB::Undefined, std::int16_t, 8, 16, 32>(tg, {5, 5, 0, 31, 7, 7, 7, 1});  // repeated rows
    check_gather_row<GatherOOB::Undefined, std::int32_t, 3, 8, 8>(tg, {7, 0, 3});                  // 3 rows, a padded index line
    // Out of bounds: past the 8 rows, and -1 (read as unsigned).
    const std::vector<std::int32_t> oob = {0, 9, 7, 8, -1, 20, 3, 15};
    check_gather_row<GatherOOB::Clamp, float, 8, 32, 8>(tg, oob);
    check_gather_row<GatherOOB::Wrap, std::int32_t, 8, 16, 8>(tg, oob);
    check_gather_row<GatherOOB::Zero, half, 8, 32, 8>(tg, oob);
  }
}

BOOST_AUTO_TEST_CASE(mgather_elements) {
  for (Target tg : both) {
    check_gather_elem<GatherOOB::Undefined, float, 8, 32, 256>(tg, 8, 32, indices(256, 256, 5));
    check_gather_elem<GatherOOB::Undefined, half, 4, 32, 256>(tg, 4, 32, indices(128, 256, 6));
    check_gather_elem<GatherOOB::Undefined, std::uint8_t, 3, 32, 256>(tg, 3, 32, indices(96, 256, 7));
    check_gather_elem<GatherOOB::Undefined, std::int32_t, 3, 8, 64>(tg, 3, 3, indices(24, 64, 8));  // 3x3 of a 3x8 tile
    check_gather_elem<GatherOOB::Undefined, std::int32_t, 1, 8, 8>(tg, 1, 1, {6, 0, 0, 0, 0, 0, 0, 0});
    std::vector<std::int32_t> oob = indices(32 * 16, 40, 9);
    oob[3] = -5;
    check_gather_elem<GatherOOB::Clamp, float, 32, 16, 16>(tg, 32, 16, oob);
    check_gather_elem<GatherOOB::Wrap, std::int32_t, 32, 16, 16>(tg, 32, 16, oob);
    check_gather_elem<GatherOOB::Zero, half, 32, 16, 16>(tg, 32, 16, oob);
  }
}

// A5 reads a Row index from a ColMajor R x 1 tile too, and may gather into a ColMajor dst; A2A3 takes
// neither.
BOOST_AUTO_TEST_CASE(mgather_a5_column_index_and_colmajor_dst) {
  static constexpr int R = 8, C = 16, TR = 32;
  const std::vector<float> table = values<float>(TR * C, 21);
  const std::vector<std::int32_t> idx = indices(R, TR, 22);
  auto run = [&](Target tg) {
    std::vector<float> out(R * C, -1);
    launch({.target = tg}, [](float* o, const float* tb, const std::int32_t* ix) {
      GlobalTensor<float, Shape<1, 1, 1, TR, C>, pto::Stride<1, 1, 1, C, 1>> tableG(const_cast<float*>(tb));
      GlobalTensor<std::int32_t, Shape<1, 1, 1, R, 1>, pto::Stride<1, 1, 1, 1, 1>, Layout::DN> idxG(const_cast<std::int32_t*>(ix));
      GlobalTensor<float, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, 1, R>, Layout::DN> outG(o);  // column-major out
      Tile<TileType::Vec, std::int32_t, R, 1, BLayout::ColMajor> x;
      Tile<TileType::Vec, float, R, C, BLayout::ColMajor> d;
      TASSIGN(x, 0), TASSIGN(d, 1024);
      load_gather_store<Coalesce::Row>(d, tableG, x, idxG, outG);
    }, out, table, idx);
    return out;
  };
  std::vector<float> want(R * C);
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) want[std::size_t(c) * R + r] = table[std::size_t(idx[std::size_t(r)]) * C + c];
  BOOST_TEST(same_bits(run(Target::A5), want));
  const std::string e = error_of([&] { run(Target::A2A3); });
  BOOST_TEST((contains(e, "MGATHER") && contains(e, "A2A3 takes RowMajor tiles")), e);
}

// The table's rows as each chip addresses them: A2A3 counts s0*s1*s2*s3 rows at stride 3 (a padded row
// pitch is skipped); A5 counts shape[3] rows packed at dst's valid columns, whatever the strides say.
BOOST_AUTO_TEST_CASE(mgather_table_rows_per_target) {
  static constexpr int R = 4, C = 16, PITCH = 24, ROWS = 6;  // 2 x 3 rows of 24 elements, 16 of them used
  std::vector<float> table(std::size_t(ROWS) * PITCH);
  for (std::size_t i = 0; i < table.size(); ++i) table[i] = float(i);
  auto run = [&](Target tg, std::vector<std::int32_t> idx) {
    std::vector<float> out(R * C, -1);
    launch({.target = tg}, [](float* o, const float* tb, const std::int32_t* ix) {
      GlobalTensor<float, Shape<1, 1, 2, 3, C>, pto::Stride<1, 1, 3 * PITCH, PITCH, 1>> tableG(const_cast<float*>(tb));
      GlobalTensor<std::int32_t, Shape<1, 1, 1, 1, R>, pto::Stride<1, 1, 1, R, 1>> idxG(const_cast<std::int32_t*>(ix));
      GlobalTensor<float, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>> outG(o);
      Tile<TileType::Vec, std::int32_t, 1, 8, BLayout::RowMajor, 1, R> x;
      Tile<TileType::Vec, float, R, C> d;
      TASSIGN(x, 0), TASSIGN(d, 1024);
      load_gather_store<Coalesce::Row>(d, tableG, x, idxG, outG);
    }, out, table, idx);
    return out;
  };
  auto want = [&](const std::vector<std::int32_t>& idx, int pitch) {
    std::vector<float> w(R * C);
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < C; ++c) w[std::size_t(r) * C + c] = table[std::size_t(idx[std::size_t(r)]) * pitch + c];
    return w;
  };
  BOOST_TEST(same_bits(run(Target::A2A3, {5, 0, 3, 4}), want({5, 0, 3, 4}, PITCH)));
  BOOST_TEST(same_bits(run(Target::A5, {2, 0, 1, 2}), want({2, 0, 1, 2}, C)));
  const std::string e = error_of([&] { run(Target::A5, {5, 0, 3, 4}); });
  BOOST_TEST(contains(e, "MGATHER: operand idx holds 5 at (0, 0), past the table's 3 slots"), e);
  // A5's rule on shape[4]: it must be dst's valid columns.
  const std::string e2 = error_of([&] {
    std::vector<float> t(64), o(64);
    launch({.target = Target::A5}, [](float* tb) {
      GlobalTensor<float, Shape<1, 1, 1, 2, 32>, pto::Stride<1, 1, 1, 32, 1>> tableG(tb);
      Tile<TileType::Vec, float, 2, 32, BLayout::RowMajor, 2, 16> d;
      Tile<TileType::Vec, std::int32_t, 1, 8, BLayout::RowMajor, 1, 2> x;
      TASSIGN(x, 0), TASSIGN(d, 1024);
      MGATHER<Coalesce::Row>(d, tableG, x);
    }, t);
  });
  BOOST_TEST((contains(e2, "MGATHER") && contains(e2, "shape dimension 4 must be 16")), e2);
}

BOOST_AUTO_TEST_CASE(mscatter_rows_and_elements) {
  using S = ScatterAtomicOp;
  using O = ScatterOOB;
  for (Target tg : both) {
    check_scatter<Coalesce::Row, S::None, O::Undefined, float, 8, 32, 64>(tg, indices(8, 64, 31));
    check_scatter<Coalesce::Row, S::None, O::Undefined, float, 8, 32, 16>(tg, {3, 3, 3, 9, 0, 9, 15, 3});  // later rows win
    check_scatter<Coalesce::Row, S::None, O::Undefined, half, 16, 64, 64>(tg, indices(16, 64, 32));
    check_scatter<Coalesce::Row, S::None, O::Undefined, std::uint8_t, 8, 32, 32>(tg, indices(8, 32, 33));
    check_scatter<Coalesce::Row, S::Add, O::Undefined, float, 8, 32, 8>(tg, {1, 1, 2, 1, 0, 7, 7, 1});     // duplicates add
    const std::vector<std::int32_t> oob = {0, 9, 7, 8, -1, 20, 3, 15};
    check_scatter<Coalesce::Row, S::None, O::Skip, float, 8, 32, 8>(tg, oob);
    check_scatter<Coalesce::Row, S::None, O::Clamp, std::int32_t, 8, 16, 8>(tg, oob);
    check_scatter<Coalesce::Row, S::None, O::Wrap, half, 8, 32, 8>(tg, oob);
    check_scatter<Coalesce::Elem, S::None, O::Undefined, float, 8, 16, 128>(tg, indices(128, 128, 34));
    check_scatter<Coalesce::Elem, S::None, O::Undefined, float, 8, 8, 8>(tg, indices(64, 8, 35));  // many writers per slot
    check_scatter<Coalesce::Elem, S::Add, O::Undefined, float, 4, 32, 32>(tg, indices(128, 32, 36));
    check_scatter<Coalesce::Elem, S::Add, O::Undefined, half, 4, 32, 16>(tg, indices(128, 16, 37));
    check_scatter<Coalesce::Elem, S::Add, O::Skip, std::int32_t, 4, 16, 16>(tg, indices(64, 24, 38));
    check_scatter<Coalesce::Elem, S::None, O::Clamp, std::int16_t, 2, 16, 16>(tg, indices(32, 24, 39));
  }
  // A5 only: atomic max / min, unsigned atomic adds.
  check_scatter<Coalesce::Elem, S::Max, O::Undefined, std::int32_t, 4, 8, 16>(Target::A5, indices(32, 16, 40));
  check_scatter<Coalesce::Elem, S::Min, O::Undefined, float, 4, 8, 16>(Target::A5, indices(32, 16, 41));
  check_scatter<Coalesce::Elem, S::Add, O::Undefined, std::uint32_t, 4, 8, 16>(Target::A5, indices(32, 16, 42));
  // A2A3 only: 8- and 16-bit signed atomic adds.
  check_scatter<Coalesce::Elem, S::Add, O::Undefined, std::int8_t, 1, 32, 8>(Target::A2A3, indices(32, 8, 43));
}

BOOST_AUTO_TEST_CASE(a2a3_nz_tables_with_nz_tiles) {
  check_gather_nz<Coalesce::Row, GatherOOB::Undefined, float, 12>(indices(12, kNzRows, 31));  // pto-isa's NZ row shapes
  check_gather_nz<Coalesce::Row, GatherOOB::Undefined, half, 16>(indices(16, kNzRows, 32));
  check_gather_nz<Coalesce::Row, GatherOOB::Zero, float, 16>(indices(16, kNzRows + 9, 33));  // the whole tile zeroed first
  check_gather_nz<Coalesce::Row, GatherOOB::Wrap, std::int8_t, 20>(indices(20, 3 * kNzRows, 34));
  check_gather_nz<Coalesce::Elem, GatherOOB::Undefined, float, 9, 20>(indices(9 * 20, kNzRows * kNzCols<float>, 35));
  check_gather_nz<Coalesce::Elem, GatherOOB::Zero, half, 17, 40>(indices(17 * 40, kNzRows * kNzCols<half> + 500, 36));
  check_gather_nz<Coalesce::Elem, GatherOOB::Clamp, std::uint16_t, 16, 64>(indices(16 * 64, 2 * kNzRows * kNzCols<std::uint16_t>, 37));
  check_scatter_nz<Coalesce::Row, ScatterAtomicOp::None, ScatterOOB::Undefined, float, 12>(indices(12, kNzRows, 41));  // repeats: later wins
  check_scatter_nz<Coalesce::Row, ScatterAtomicOp::Add, ScatterOOB::Skip, float, 16>(indices(16, kNzRows + 6, 42));
  check_scatter_nz<Coalesce::Row, ScatterAtomicOp::None, ScatterOOB::Clamp, std::int32_t, 8>(indices(8, 2 * kNzRows, 43));
  check_scatter_nz<Coalesce::Elem, ScatterAtomicOp::None, ScatterOOB::Wrap, half, 10, 37>(indices(10 * 37, 5000, 44));
  check_scatter_nz<Coalesce::Elem, ScatterAtomicOp::Add, ScatterOOB::Undefined, float, 4, 12>(indices(4 * 12, 50, 45));
  // A slot named at (0, C0) and at (1, 0): the chip's walk takes column block 0 (row 1) first, so (0, C0) wins.
  std::vector<std::int32_t> idx = indices(2 * 16, kNzRows * kNzCols<float>, 46);
  idx[8] = idx[16] = 77;
  const std::vector<float> src = check_scatter_nz<Coalesce::Elem, ScatterAtomicOp::None, ScatterOOB::Undefined, float, 2, 16>(idx);
  BOOST_TEST(src[tile_at<float>(16, 0, 8)] != src[tile_at<float>(16, 1, 0)]);  // the two candidates differ
}

BOOST_AUTO_TEST_CASE(nz_form_errors_name_the_rule) {
  std::string e = error_of([] {
    launch({.target = Target::A5}, [](float* tb) {
      NzTable<float> t(tb);
      NzTile<float, 16, kNzCols<float>> d;
      Tile<TileType::Vec, std::int32_t, 1, 16> x;
      TASSIGN(d, 0), TASSIGN(x, 0x8000);
      MGATHER<Coalesce::Row>(d, t, x);
    }, std::vector<float>(std::size_t(kNzSt0<float>) * kS0));
  });
  BOOST_TEST((contains(e, "MGATHER: operand table") && contains(e, "A5 takes ND tables only")), e);
  e = error_of([] {
    launch({.target = Target::A2A3}, [](float* tb) {
      NzTable<float> t(tb);
      NzTile<float, 16, 16> d;  // a logical row of the table has 32 elements
      Tile<TileType::Vec, std::int32_t, 1, 16> x;
      TASSIGN(d, 0), TASSIGN(x, 0x8000);
      MGATHER<Coalesce::Row>(d, t, x);
    }, std::vector<float>(std::size_t(kNzSt0<float>) * kS0));
  });
  BOOST_TEST(contains(e, "the chip moves whole logical rows of the NZ table, 32 elements"), e);
  e = error_of([] {
    launch({.target = Target::A2A3}, [](float* tb) {
      NzTable<float> t(tb);
      NzTile<float, 16, kNzCols<float>> s;
      Tile<TileType::Vec, std::int32_t, 1, 8> x;  // 8 indices for 16 rows
      TASSIGN(s, 0), TASSIGN(x, 0x8000);
      MSCATTER<Coalesce::Row>(t, s, x);
    }, std::vector<float>(std::size_t(kNzSt0<float>) * kS0));
  });
  BOOST_TEST(contains(e, "Coalesce::Row takes one index per row of src (16)"), e);
  e = error_of([] {
    launch({.target = Target::A2A3}, [](float* tb) {
      GlobalTensor<float, Shape<1, -1, 1, 16, 8>, pto::Stride<256, -1, 128, 8, 1>, Layout::NZ> t(tb, {1, 2, 1, 16, 8}, {256, 4, 128, 8, 1});
      NzTile<float, 16, 16> d;
      Tile<TileType::Vec, std::int32_t, 1, 16> x;
      TASSIGN(d, 0), TASSIGN(x, 0x8000);
      MGATHER<Coalesce::Row>(d, t, x);
    }, std::vector<float>(256));
  });
  BOOST_TEST(contains(e, "stride dimension 1 must be at least C0"), e);
  e = error_of([] {
    launch({.target = Target::A2A3}, [](float* tb) {
      NzTable<float> t(tb);
      NzTile<float, 16, kNzCols<float>, 16, 16> d;
      Tile<TileType::Vec, std::int32_t, 16, 8> x;  // 16 x 8 indices for a 16 x 16 region
      TASSIGN(d, 0), TASSIGN(x, 0x8000);
      MGATHER<Coalesce::Elem>(d, t, x);
    }, std::vector<float>(std::size_t(kNzSt0<float>) * kS0));
  });
  BOOST_TEST(contains(e, "Coalesce::Elem takes one index per element, so idx's valid region must be dst's 16x16"), e);
}

BOOST_AUTO_TEST_CASE(mscatter_atomic_dtype_rules) {
  using S = ScatterAtomicOp;
  std::string e = error_of([] { check_scatter<Coalesce::Elem, S::Max, ScatterOOB::Undefined, float, 1, 8, 8>(Target::A2A3, indices(8, 8, 1)); });
  BOOST_TEST((contains(e, "MSCATTER") && contains(e, "atomic Max on A2A3 does not exist")), e);
  e = error_of([] { check_scatter<Coalesce::Elem, S::Add, ScatterOOB::Undefined, std::uint32_t, 1, 8, 8>(Target::A2A3, indices(8, 8, 1)); });
  BOOST_TEST((contains(e, "atomic Add on A2A3 takes") && contains(e, "uint32")), e);
  e = error_of([] { check_scatter<Coalesce::Elem, S::Add, ScatterOOB::Undefined, std::int16_t, 1, 16, 8>(Target::A5, indices(16, 8, 1)); });
  BOOST_TEST(contains(e, "atomic Add on A5 takes"), e);
}

BOOST_AUTO_TEST_CASE(undefined_oob_and_shape_errors) {
  for (Target tg : both) {
    std::string e = error_of([&] { check_gather_row<GatherOOB::Undefined, float, 8, 32, 8>(tg, {0, 1, 2, 8, 0, 0, 0, 0}); });
    BOOST_TEST(contains(e, "MGATHER: operand idx holds 8 at (0, 3), past the table's 8 slots under GatherOOB::Undefined"), e);
    e = error_of([&] { check_gather_elem<GatherOOB::Undefined, float, 1, 8, 8>(tg, 1, 8, {0, 1, -1, 0, 0, 0, 0, 0}); });
    BOOST_TEST(contains(e, "holds 4294967295 at (0, 2)"), e);
    e = error_of([&] {
      check_scatter<Coalesce::Elem, ScatterAtomicOp::None, ScatterOOB::Undefined, float, 1, 8, 8>(tg, {0, 1, 2, 3, 4, 5, 6, 9});
    });
    BOOST_TEST((contains(e, "MSCATTER: operand idx holds 9 at (0, 7)") && contains(e, "Skip")), e);
    // The index tile's shape for the mode.
    e = error_of([&] {
      launch({.target = tg}, [](float* tb) {
        GlobalTensor<float, Shape<1, 1, 1, 8, 8>, pto::Stride<1, 1, 1, 8, 1>> t(tb);
        Tile<TileType::Vec, float, 4, 8> d;
        Tile<TileType::Vec, std::int32_t, 4, 8> x;  // 4 x 8: an Elem index, given to Row
        TASSIGN(d, 0), TASSIGN(x, 1024);
        MGATHER<Coalesce::Row>(d, t, x);
      }, std::vector<float>(64));
    });
    BOOST_TEST((contains(e, "MGATHER: operand idx") && contains(e, "Coalesce::Row takes one index per row of dst (4)")), e);
    e = error_of([&] {
      launch({.target = tg}, [](float* tb) {
        GlobalTensor<float, Shape<1, 1, 1, 1, 64>, pto::Stride<1, 1, 1, 64, 1>> t(tb);
        Tile<TileType::Vec, float, 4, 8> s;
        Tile<TileType::Vec, std::int32_t, 2, 8> x;
        TASSIGN(s, 0), TASSIGN(x, 1024);
        MSCATTER<Coalesce::Elem>(t, s, x);
      }, std::vector<float>(64));
    });
    BOOST_TEST((contains(e, "MSCATTER: operand idx") && contains(e, "idx's valid region must be src's 4x8")), e);
    // A row burst needs unit stride along the row; an empty data tile has nothing to move.
    e = error_of([&] {
      launch({.target = tg}, [](float* tb) {
        GlobalTensor<float, Shape<1, 1, 1, 4, 8>, pto::Stride<1, 1, 1, 16, 2>> t(tb);
        Tile<TileType::Vec, float, 2, 8> d;
        Tile<TileType::Vec, std::int32_t, 1, 8, BLayout::RowMajor, 1, 2> x;
        TASSIGN(d, 0), TASSIGN(x, 1024);
        MGATHER<Coalesce::Row>(d, t, x);
      }, std::vector<float>(64));
    });
    BOOST_TEST(contains(e, "a row moves as one burst, so stride dimension 4 must be 1"), e);
    e = error_of([&] {
      launch({.target = tg}, [](float* tb) {
        GlobalTensor<float, Shape<1, 1, 1, 1, 64>, pto::Stride<1, 1, 1, 64, 1>> t(tb);
        Tile<TileType::Vec, float, 2, 8, BLayout::RowMajor, -1, -1> d(2, 0);
        Tile<TileType::Vec, std::int32_t, 2, 8, BLayout::RowMajor, -1, -1> x(2, 0);
        TASSIGN(d, 0), TASSIGN(x, 1024);
        MGATHER<Coalesce::Elem>(d, t, x);
      }, std::vector<float>(64));
    });
    BOOST_TEST((contains(e, "MGATHER: operand dst") && contains(e, "at least one row and column")), e);
  }
  // A2A3: dst's valid columns past the table's row length.
  const std::string e = error_of([] {
    launch({.target = Target::A2A3}, [](float* tb) {
      GlobalTensor<float, Shape<1, 1, 1, 8, 8>, pto::Stride<1, 1, 1, 8, 1>> t(tb);
      Tile<TileType::Vec, float, 2, 16> d;
      Tile<TileType::Vec, std::int32_t, 1, 8, BLayout::RowMajor, 1, 2> x;
      TASSIGN(d, 0), TASSIGN(x, 1024);
      MGATHER<Coalesce::Row>(d, t, x);
    }, std::vector<float>(64));
  });
  BOOST_TEST(contains(e, "its rows have 8 elements, fewer than dst's 16 valid columns"), e);
}

// The table a kernel gives is checked against its launch allocation like any GM operand: A2A3's rows
// over dims 0-3 reach past a table whose allocation holds only the first slice.
BOOST_AUTO_TEST_CASE(table_past_its_allocation) {
  const std::string e = error_of([] {
    launch({.target = Target::A2A3}, [](float* tb) {
      GlobalTensor<float, Shape<1, 1, 1, 16, 8>, pto::Stride<1, 1, 1, 8, 1>> t(tb);  // 16 rows, 8 allocated
      Tile<TileType::Vec, float, 1, 8> d;
      Tile<TileType::Vec, std::int32_t, 1, 8> x;
      TASSIGN(d, 0), TASSIGN(x, 1024);
      TEXPANDS(x, 0);
      pipe_barrier(PIPE_V);
      MGATHER<Coalesce::Row>(d, t, x);
    }, std::vector<float>(64));
  });
  BOOST_TEST(contains(e, "MGATHER"), e);
}

// The checker orders MSCATTER's GM with the other pipes: a TLOAD of the table it wrote needs V -> MTE2.
BOOST_AUTO_TEST_CASE(checker_sees_the_table) {
  auto run = [](bool flag) {
    std::vector<float> table(64, 0.0f), out(64);
    return launch({.target = Target::A5, .check = SyncCheck::Report}, [flag](float* tb, float* o) {
      GlobalTensor<float, Shape<1, 1, 1, 8, 8>, pto::Stride<1, 1, 1, 8, 1>> t(tb), og(o);
      Tile<TileType::Vec, float, 8, 8> s, back;
      Tile<TileType::Vec, std::int32_t, 1, 8> x;
      TASSIGN(s, 0), TASSIGN(x, 1024), TASSIGN(back, 2048);
      TCI<decltype(x), std::int32_t, 0>(x, 0);
      TEXPANDS(s, 1.0f);
      pipe_barrier(PIPE_ALL);
      MSCATTER<Coalesce::Row>(t, s, x);
      if (flag) {
        set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
      }
      TLOAD(back, t);
      set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
      wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
      TSTORE(og, back);
    }, table, out).findings().size();
  };
  BOOST_TEST(run(true) == 0u);
  BOOST_TEST(run(false) > 0u);
}

// Modeled cycles (deterministic; pto-isa publishes no figure): A2A3 pays a DMA call per row (or a
// scalar GM access per element) on the scalar unit; A5 one SIMT launch.
BOOST_AUTO_TEST_CASE(modeled_cycles) {
  auto cycles = [](Target tg, bool elem) {
    std::vector<float> table(64 * 32);
    return launch({.target = tg, .model_only = true}, [elem](float* tb) {
      GlobalTensor<float, Shape<1, 1, 1, 64, 32>, pto::Stride<1, 1, 1, 32, 1>> t(tb);
      Tile<TileType::Vec, float, 8, 32> d;
      Tile<TileType::Vec, std::int32_t, 1, 8> x;
      Tile<TileType::Vec, std::int32_t, 8, 32> xe;
      TASSIGN(d, 0), TASSIGN(x, 2048), TASSIGN(xe, 4096);
      if (elem) MGATHER<Coalesce::Elem>(d, t, xe);
      else MGATHER<Coalesce::Row>(d, t, x);
    }, table).cores[0].pipes[PIPE_V].busy_cycles;
  };
  const auto a2_row = cycles(Target::A2A3, false), a2_elem = cycles(Target::A2A3, true);
  const auto a5_row = cycles(Target::A5, false), a5_elem = cycles(Target::A5, true);
  BOOST_TEST_MESSAGE("MGATHER f32 8x32: A2A3 Row " << a2_row << ", Elem " << a2_elem << "; A5 Row " << a5_row << ", Elem " << a5_elem);
  // A2A3 Row: 7 round trips of 13 + 8 loop steps of 4 + 8 DMA calls of 264 + 1 KiB at 128 B/cycle.
  BOOST_TEST(a2_row == 91u + 32u + 8u * 264u + 8u);
  // A2A3 Elem: 91 + 256 elements of (4 + 32).
  BOOST_TEST(a2_elem == 91u + 256u * 36u);
  // A5: one launch (264) + 1 KiB (Row) or 256 sectors of 32 B (Elem) at 256 B/cycle.
  BOOST_TEST(a5_row == 264u + 4u);
  BOOST_TEST(a5_elem == 264u + 32u);
}

// Auto mode: no flags; the runtime orders the index TLOAD, the gather, the scatter into a second table
// and a TLOAD reading that table back from its bytes (UB and GM), on 4 cores each with its own table.
BOOST_AUTO_TEST_CASE(auto_mode_orders_gm_and_ub) {
  static constexpr int R = 8, C = 16, TR = 32, CORES = 4;
  const std::vector<float> table = values<float>(TR * C, 51);
  std::vector<std::int32_t> idx = indices(R * CORES, TR, 52), perm(R * CORES);
  for (int b = 0; b < CORES; ++b)
    for (int r = 0; r < R; ++r) perm[std::size_t(b) * R + r] = (r * 3 + 1) % R;  // a permutation of the rows
  std::vector<float> scattered(std::size_t(CORES) * R * C, -1), out(std::size_t(CORES) * R * C, -1);
  launch({.blocks = CORES, .target = Target::A5, .mode = Mode::Auto, .check = SyncCheck::Throw},
         [](const float* tb, const std::int32_t* ix, const std::int32_t* pm, float* sc, float* o) {
           const int b = int(get_block_idx());
           GlobalTensor<float, Shape<1, 1, 1, TR, C>, pto::Stride<1, 1, 1, C, 1>> tableG(const_cast<float*>(tb));
           using Line = GlobalTensor<std::int32_t, Shape<1, 1, 1, 1, R>, pto::Stride<1, 1, 1, R, 1>>;
           Line idxG(const_cast<std::int32_t*>(ix) + b * R), permG(const_cast<std::int32_t*>(pm) + b * R);
           using Block = GlobalTensor<float, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>>;
           Block scG(sc + b * R * C), outG(o + b * R * C);
           Tile<TileType::Vec, std::int32_t, 1, R> x, p;
           Tile<TileType::Vec, float, R, C> d, back;
           TASSIGN(x, 0), TASSIGN(p, 64), TASSIGN(d, 1024), TASSIGN(back, 4096);
           TLOAD(x, idxG);
           TLOAD(p, permG);
           MGATHER<Coalesce::Row>(d, tableG, x);
           MSCATTER<Coalesce::Row>(scG, d, p);
           TLOAD(back, scG);
           TSTORE(outG, back);
         }, table, idx, perm, scattered, out);
  std::vector<float> want(out.size());
  for (int b = 0; b < CORES; ++b)
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < C; ++c)
        want[(std::size_t(b) * R + std::size_t(perm[std::size_t(b) * R + r])) * C + c] = table[std::size_t(idx[std::size_t(b) * R + r]) * C + c];
  BOOST_TEST(same_bits(scattered, want));
  BOOST_TEST(same_bits(out, want));
}
