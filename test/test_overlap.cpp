// A destination that shares bytes with a source without being it (a tile one row further down or up,
// or 32 bytes along; a float dst over a half src): the CPU reference reads such a source as it was
// before the instruction, whichever oneTBB thread computes which rows, so the result is one defined
// value, not an order that changes from run to run. (In place, dst == src, is the other suites' case.)
//
// Every family that reads a source at the destination's positions: tile-scalar (float and half, and
// on ColMajor tiles), TEXP, TAXPY (float and float <- half), TCOLEXPANDSUB with the full operand in
// either position, TROWEXPANDMUL (mode 2) and TMOV; at 16x64 (inline), 32x512 (oneTBB row blocks) and
// 2x8192 (column chunks). The reference mirrors the kernel's loads into a host image of UB and computes
// from that image in double.
#define BOOST_TEST_MODULE overlap
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <pto/pto-inst.hpp>


using namespace pto;

namespace {

enum class Case { AddS, AddSHalf, Exp, Axpy, AxpyWiden, ColSub, ColSubSwapped, RowMul, Mov };
const char* name_of(Case c) {
  constexpr const char* names[] = {"TADDS f32", "TADDS f16", "TEXP f32", "TAXPY f32", "TAXPY f32<-f16",
                                   "TCOLEXPANDSUB", "TCOLEXPANDSUB (per-column operand in src0)", "TROWEXPANDMUL mode 2",
                                   "TMOV"};
  return names[int(c)];
}

constexpr std::uint32_t kSrc = 0x8000;   // the full source; dst sits at kSrc + shift
constexpr std::uint32_t kAux = 0x20000;  // the per-column row or the expand operand (apart from both)
constexpr float kScalar = 2.5f;

template <class T, int R, int C>
using GmOf = GlobalTensor<T, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>>;

// S: the full source's element type, D: the destination's.
template <class S, class D, int R, int C>
void kernel(Case c, int shift, D* out, D* dst_init, S* src, float* aux) {
  Tile<TileType::Vec, S, R, C> s;
  Tile<TileType::Vec, D, R, C> d;
  Tile<TileType::Vec, float, 1, C> v;
  Tile<TileType::Vec, float, R, 8> e;
  TASSIGN(s, kSrc);
  TASSIGN(d, std::uint32_t(std::int64_t(kSrc) + shift));
  TASSIGN(v, kAux);
  TASSIGN(e, kAux);
  GmOf<D, R, C> gd(out), gi(dst_init);
  GmOf<S, R, C> gs(src);
  GmOf<float, 1, C> gv(aux);
  GmOf<float, R, 8> ge(aux);
  const bool axpy = c == Case::Axpy || c == Case::AxpyWiden;
  if (axpy) TLOAD(d, gi);  // TAXPY reads dst too: its bytes outside the source are these
  pipe_barrier(PIPE_MTE2);
  TLOAD(s, gs);
  if (c == Case::ColSub || c == Case::ColSubSwapped) TLOAD(v, gv);
  if (c == Case::RowMul) TLOAD(e, ge);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  if constexpr (std::is_same_v<S, D>) {
    switch (c) {
      case Case::AddS:
      case Case::AddSHalf: TADDS(d, s, S(kScalar)); break;
      case Case::Exp: TEXP(d, s); break;
      case Case::Axpy: TAXPY(d, s, S(kScalar)); break;
      case Case::ColSub:
        if constexpr (std::is_same_v<S, float>) TCOLEXPANDSUB(d, s, v);
        break;
      case Case::ColSubSwapped:
        if constexpr (std::is_same_v<S, float>) TCOLEXPANDSUB(d, v, s);
        break;
      case Case::RowMul:
        if constexpr (std::is_same_v<S, float>) TROWEXPANDMUL(d, s, e);
        break;
      case Case::Mov: TMOV(d, s); break;
      default: break;
    }
  } else {
    TAXPY(d, s, S(kScalar));
  }
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(gd, d);
}

template <class T> double as_double(T x) { return double(float(x)); }
template <class T> T round_to(double x) { return T(float(x)); }

template <class S, class D, int R, int C>
void check(Case c, int shift) {
  std::ostringstream what;
  what << name_of(c) << " " << R << "x" << C << ", dst " << (shift > 0 ? "+" : "") << shift << " bytes from the source";
  BOOST_TEST_CONTEXT(what.str()) {
    const auto n = std::size_t(R) * C;
    std::vector<S> src(n);
    std::vector<D> dst_init(n), out(n, D(0));
    std::vector<float> aux(std::max(std::size_t(R) * 8, std::size_t(C)));
    std::mt19937 rng(unsigned(R * 131 + C + shift + 7 * int(c)));
    std::uniform_real_distribution<double> u(-2.0, 2.0), pos(0.5, 2.0);
    for (auto& x : src) x = S(float(u(rng)));
    for (auto& x : dst_init) x = D(float(u(rng)));
    for (auto& x : aux) x = float(c == Case::RowMul ? pos(rng) : u(rng));
    launch({.cpu_reference = true}, kernel<S, D, R, C>, c, shift, out.data(), dst_init.data(), src.data(), aux.data());

    // UB as the kernel left it before the instruction: dst's initial bytes (TAXPY), then the source's.
    std::vector<std::byte> ub(192 * 1024);
    const std::size_t d_off = std::size_t(std::int64_t(kSrc) + shift);
    const bool axpy = c == Case::Axpy || c == Case::AxpyWiden;
    if (axpy) std::memcpy(ub.data() + d_off, dst_init.data(), n * sizeof(D));
    std::memcpy(ub.data() + kSrc, src.data(), n * sizeof(S));
    auto s_at = [&](int i, int j) {
      S x;
      std::memcpy(&x, ub.data() + kSrc + (std::size_t(i) * C + j) * sizeof(S), sizeof x);
      return as_double(x);
    };
    auto d_at = [&](int i, int j) {
      D x;
      std::memcpy(&x, ub.data() + d_off + (std::size_t(i) * C + j) * sizeof(D), sizeof x);
      return as_double(x);
    };
    std::vector<double> want(n);
    for (int i = 0; i < R; ++i)
      for (int j = 0; j < C; ++j) {
        const double x = s_at(i, j);
        double r = 0;
        switch (c) {
          case Case::AddS:
          case Case::AddSHalf: r = x + kScalar; break;
          case Case::Exp: r = std::exp(x); break;
          case Case::Axpy:
          case Case::AxpyWiden: r = kScalar * x + d_at(i, j); break;
          case Case::ColSub: r = x - double(aux[std::size_t(j)]); break;
          case Case::ColSubSwapped: r = double(aux[std::size_t(j)]) - x; break;
          case Case::RowMul: r = x * double(aux[std::size_t(i) * 8 + std::size_t(j % 8)]); break;
          case Case::Mov: r = x; break;
        }
        want[std::size_t(i) * C + j] = as_double(round_to<D>(r));
      }
    // Every element within the spec's per-element tolerance (0.001 absolute or relative): unlike §5's
    // rule, no element may be off, since a race at a block edge touches only a few of them.
    std::size_t wrong = 0, first = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const double g = as_double(out[k]), e = want[k], d = std::fabs(g - e);
      if (!(d <= 0.001 || d <= 0.001 * std::fabs(e)) && wrong++ == 0) first = k;
    }
    BOOST_TEST(wrong == 0u, wrong << " of " << n << " elements wrong, first at row " << first / C << " column " << first % C
                                  << ": " << as_double(out[first]) << " (want " << want[first] << ")");
  }
}

// TADDS on ColMajor tiles (the kernel walks columns as rows): dst a column to either side, or 32
// bytes along; GM holds the tiles column by column (DN).
template <int R, int C>
void colmajor_adds(int shift) {
  using CM = Tile<TileType::Vec, float, R, C, BLayout::ColMajor>;
  using Dn = GlobalTensor<float, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, 1, R>, Layout::DN>;
  std::ostringstream what;
  what << "TADDS f32 ColMajor " << R << "x" << C << ", dst " << (shift > 0 ? "+" : "") << shift << " bytes from the source";
  BOOST_TEST_CONTEXT(what.str()) {
    const auto n = std::size_t(R) * C;
    std::vector<float> src(n), out(n, 0.0f);
    std::mt19937 rng(unsigned(R * 7 + C + shift));
    std::uniform_real_distribution<float> u(-2.0f, 2.0f);
    for (auto& x : src) x = u(rng);
    auto kernel = [](float* o, float* in, int sh) {
      CM s, d;
      TASSIGN(s, kSrc);
      TASSIGN(d, std::uint32_t(std::int64_t(kSrc) + sh));
      Dn gs(in), gd(o);
      TLOAD(s, gs);
      set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      TADDS(d, s, kScalar);
      set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      TSTORE(gd, d);
    };
    launch({.cpu_reference = true}, kernel, out.data(), src.data(), shift);
    std::size_t wrong = 0, first = 0;  // column-major on both sides: element k is the same (i, j)
    for (std::size_t k = 0; k < n; ++k) {
      const double e = double(float(double(src[k]) + kScalar));
      if (std::fabs(double(out[k]) - e) > 0.001 && wrong++ == 0) first = k;
    }
    BOOST_TEST(wrong == 0u, wrong << " of " << n << " elements wrong, first at row " << first % R << " column "
                                  << first / R << ": " << out[first] << " (want " << src[first] + kScalar << ")");
  }
}

template <int R, int C>
void all_cases() {
  const int row_f = C * 4, row_h = C * 2;
  for (int shift : {row_f, -row_f, 32, -32}) {
    check<float, float, R, C>(Case::AddS, shift);
    check<float, float, R, C>(Case::Exp, shift);
    check<float, float, R, C>(Case::Axpy, shift);
    check<float, float, R, C>(Case::ColSub, shift);
    check<float, float, R, C>(Case::ColSubSwapped, shift);
    check<float, float, R, C>(Case::RowMul, shift);
    check<float, float, R, C>(Case::Mov, shift);
  }
  for (int shift : {row_h, -row_h, 32, -32}) check<half, half, R, C>(Case::AddSHalf, shift);
  if constexpr (R % 8 == 0)  // a column of R floats is a whole number of 32-byte blocks
    for (int shift : {R * 4, -R * 4, 32, -32}) colmajor_adds<R, C>(shift);
  for (int shift : {row_h, -row_h, row_f, -row_f, 32, -32}) check<half, float, R, C>(Case::AxpyWiden, shift);
}

}  // namespace

BOOST_AUTO_TEST_CASE(inline_16x64) { all_cases<16, 64>(); }
BOOST_AUTO_TEST_CASE(row_blocks_32x512) { all_cases<32, 512>(); }
BOOST_AUTO_TEST_CASE(column_chunks_2x8192) { all_cases<2, 8192>(); }
