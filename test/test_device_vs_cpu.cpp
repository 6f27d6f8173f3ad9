// The device code paths against the CPU reference, differentially: for every instruction an A2/A3 or
// A5 device path covers, random cases run twice through pto::launch, with LaunchConfig::cpu_reference
// = false (the device path) and = true (the CPU reference), from the same UB contents. dst's valid
// region must come out identical (integers bit for bit, floats under the spec's rule, spec §5), or both
// runs must fail with the same error.
//
// The cases vary what the device algorithms branch on: valid shapes smaller than the tile (dynamic
// valid shapes) and static ones (the algorithms choose their path from the tile type), row strides
// wider than the valid width, more than 255 rows, one wide row, expand operands of one 32-byte block
// per row or with a wider row stride or as a view into another operand, tiles at random UB offsets,
// and aliased operands: in place (dst is src) and dst overlapping src a few rows before it. (A dst
// that overlaps a source further on is read differently by design: docs/cpu-backend.md, "Operands
// that share bytes"; TDIVS writes the scalar into dst before it divides, so it is only run in place.)
// Fixed seed: the same cases every run.
#define BOOST_TEST_MODULE device_vs_cpu
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <pto/pto-inst.hpp>

#include "test_util.hpp"

using namespace pto;

namespace {
constexpr std::size_t kUb = 192 * 1024;   // compared: A2A3's whole UB, the first 192 KiB of A5's
constexpr std::size_t kLimit = 184 * 1024;  // operands stay below A2A3's fixed vbrcb scratch

std::mt19937& rng() {
  static std::mt19937 g(0x5eed2026);
  return g;
}
int pick(int lo, int hi) { return lo + int(rng()() % unsigned(hi - lo + 1)); }
bool coin(int percent = 50) { return pick(0, 99) < percent; }

struct Stats {
  int compared = 0, rejected = 0, failed = 0;
  long elements = 0, float_elements = 0, float_inexact = 0;
  long special_elements = 0;  // dst elements where either side is NaN or infinite
  std::chrono::steady_clock::duration time{};
  std::map<std::string, long> inexact_by_op;  // float elements not bit-identical, per instruction and dtype
};
Stats g_stats;
long g_specials = 0;  // NaN, +-inf and -0 inputs written (floats)

// ---- running one case twice ----------------------------------------------------------------------

struct Outcome {
  std::vector<std::byte> ub;
  std::string error;
};

Outcome run_once(Target target, const std::function<void()>& issue, const std::vector<std::byte>& init, bool cpu) {
  Outcome o;
  o.ub.resize(kUb);
  try {
    launch({.blocks = 1, .target = target, .check = SyncCheck::Off, .cpu_reference = cpu}, [&]() -> Kernel {
      Tile<TileType::Vec, std::uint8_t, 184, 1024> probe;  // UB below A2A3's scratch: its data() writes count
      TASSIGN(probe, 0);
      std::memcpy(probe.data(), init.data(), kUb);  // before any instruction runs
      issue();
      co_await pipe_barrier(PIPE_ALL);
      std::memcpy(o.ub.data(), probe.data(), kUb);
    });
  } catch (const Error& e) {
    o.error = e.what();
  }
  return o;
}

// dst's valid region: `lines` lines of `len` elements, `step` elements apart, from byte `base`.
struct Region {
  std::size_t base;
  int lines, len, step;
};

template <class T>
void fill(std::vector<std::byte>& ub, std::size_t lo, std::size_t hi) {
  auto* p = reinterpret_cast<T*>(ub.data() + lo);
  for (std::size_t i = 0; i < (hi - lo) / sizeof(T); ++i) {
    if constexpr (std::is_integral_v<T>) {
      const int v = pick(1, 7) * (std::is_signed_v<T> && coin() ? -1 : 1);  // never 0: integer divisors
      p[i] = T(v);
    } else if (pick(0, 31) == 0) {  // one element in 32 is special: NaN, +-inf or -0
      constexpr float specials[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                                    -std::numeric_limits<float>::infinity(), -0.0f};
      p[i] = T(specials[pick(0, 3)]);
      ++g_specials;
    } else {
      p[i] = T(float(pick(250, 2250)) / 1000.0f * (coin() ? -1.0f : 1.0f));  // |x| in [0.25, 2.25]
    }
  }
}

// One random UB image per dtype (the cases differ in where their tiles are).
template <class T>
const std::vector<std::byte>& random_ub() {
  static const std::vector<std::byte> ub = [] {
    std::vector<std::byte> u(kUb);
    fill<T>(u, 0, kUb);
    return u;
  }();
  return ub;
}

template <class T>
T random_scalar() {
  if constexpr (std::is_integral_v<T>) return T(pick(1, 7) * (std::is_signed_v<T> && coin() ? -1 : 1));
  else return T(float(pick(500, 2000)) / 1000.0f * (coin() ? -1.0f : 1.0f));
}

// Runs `issue` with the device path and with the CPU reference and compares dst's valid region.
template <class T>
void differential(const std::string& what, Target target, const std::function<void()>& issue, const std::vector<std::byte>& init,
                  Region d) {
  const auto t0 = std::chrono::steady_clock::now();
  const Outcome dev = run_once(target, issue, init, false), cpu = run_once(target, issue, init, true);
  g_stats.time += std::chrono::steady_clock::now() - t0;
  const std::string label = what + " on " + name_of(target);
  if (!dev.error.empty() || !cpu.error.empty()) {
    if (dev.error == cpu.error) {
      ++g_stats.rejected;
      if (std::getenv("PTO_DVC_VERBOSE")) BOOST_TEST_MESSAGE("rejected: " << label << ": " << dev.error);
      return;
    }
    ++g_stats.failed;
    BOOST_ERROR(label << ": device path " << (dev.error.empty() ? "ran" : "failed: " + dev.error) << "; CPU reference "
                      << (cpu.error.empty() ? "ran" : "failed: " + cpu.error));
    return;
  }
  ++g_stats.compared;
  std::vector<double> a, e;
  std::size_t int_diff = 0, first = 0;
  long inexact = 0;
  std::size_t special_bad = 0;
  for (int l = 0; l < d.lines; ++l)
    for (int k = 0; k < d.len; ++k) {
      const std::size_t off = d.base + (std::size_t(l) * std::size_t(d.step) + std::size_t(k)) * sizeof(T);
      T x, y;
      std::memcpy(&x, dev.ub.data() + off, sizeof(T));
      std::memcpy(&y, cpu.ub.data() + off, sizeof(T));
      if constexpr (std::is_integral_v<T>) {
        if (x != y && int_diff++ == 0) first = a.size();
      } else {
        if (std::memcmp(&x, &y, sizeof(T)) != 0) ++inexact;
        const double dx = double(x), dy = double(y);
        if (!std::isfinite(dx) || !std::isfinite(dy)) {  // NaN and infinities agree exactly (eps cannot judge them)
          ++g_stats.special_elements;
          if (!(dx == dy || (std::isnan(dx) && std::isnan(dy))) && special_bad++ == 0) first = a.size();
        }
      }
      a.push_back(double(x));
      e.push_back(double(y));
    }
  g_stats.elements += long(a.size());
  bool ok = true;
  std::string detail;
  if constexpr (std::is_integral_v<T>) {
    ok = int_diff == 0;
    if (!ok) detail = std::to_string(int_diff) + " elements differ, first #" + std::to_string(first) + ": device " +
                      std::to_string(a[first]) + ", CPU " + std::to_string(e[first]);
  } else {
    g_stats.float_elements += long(a.size());
    g_stats.float_inexact += inexact;
    if (inexact) g_stats.inexact_by_op[what.substr(0, what.find(' ', what.find(' ') + 1)) + " on " + name_of(target)] += inexact;
    const auto r = pto_test::compare_eps(a, e, 1e-3);
    ok = r.ok() && special_bad == 0;
    if (special_bad)
      detail = std::to_string(special_bad) + " elements disagree on NaN or infinity, first #" + std::to_string(first) +
               ": device " + std::to_string(a[first]) + ", CPU " + std::to_string(e[first]);
    else if (!ok) detail = std::to_string(r.errors) + " of " + std::to_string(e.size()) + " elements beyond eps, first #" +
                      std::to_string(r.first_bad) + ": device " + std::to_string(a[r.first_bad]) + ", CPU " +
                      std::to_string(e[r.first_bad]);
  }
  if (!ok) {
    ++g_stats.failed;
    BOOST_ERROR(label << ": " << detail);
  }
}

// ---- tiles, placement ------------------------------------------------------------------------------

template <class Tl> constexpr bool kDyn = Tl::ValidRow == -1 && Tl::ValidCol == -1;
template <class Tl> constexpr std::size_t kBytes = Tl::GetSizeInBytes();
template <class Tl> constexpr std::size_t kRowBytes = std::size_t(Tl::RowStride) * sizeof(typename Tl::DType);

template <class Tl>
Tl make(int r, int c) {
  if constexpr (kDyn<Tl>) return Tl(unsigned(r), unsigned(c));
  else return Tl{};  // a static valid shape: the type's
}
// A valid shape for a tile of type Tl: random when dynamic, the type's when static.
template <class Tl>
std::pair<int, int> valid_of() {
  if constexpr (kDyn<Tl>) return {pick(1, Tl::Rows), pick(1, Tl::Cols)};
  else return {Tl::ValidRow, Tl::ValidCol};
}

// Sequential placement below kLimit with random gaps of whole 32-byte blocks.
struct Placer {
  std::size_t cursor = std::size_t(pick(0, 8)) * 32;
  std::size_t take(std::size_t bytes) {
    const std::size_t at = (cursor + std::size_t(pick(0, 3)) * 32 + 31) / 32 * 32;
    cursor = at + bytes;
    return at;
  }
  bool fits() const { return cursor <= kLimit; }
};

template <class T> constexpr bool kFloat = std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;
template <class T> constexpr bool kExpAxpy = std::is_same_v<T, float> || std::is_same_v<T, half>;
template <class T> constexpr int kBE = 32 / int(sizeof(T));
template <class T> constexpr int kEPR = 256 / int(sizeof(T));

std::string shape(const char* role, int r, int c, int tr, int tc, bool dyn, std::size_t off) {
  return std::string(" ") + role + " " + std::to_string(r) + "x" + std::to_string(c) + " in " + std::to_string(tr) + "x" +
         std::to_string(tc) + (dyn ? "" : " static") + " @" + std::to_string(off);
}

// ---- tile-scalar ops, TEXP, TAXPY, TEXPANDS, TMOV --------------------------------------------------

enum EOp { Adds, Subs, Muls, Maxs, Mins, Divs, DivsRev, Exp, Axpy, Expands, Mov, kEOps };
const char* const kEOpName[] = {"TADDS", "TSUBS", "TMULS", "TMAXS", "TMINS", "TDIVS", "TDIVS(scalar/src)", "TEXP", "TAXPY",
                                "TEXPANDS", "TMOV"};

// `n` cases of the ops in `ops` with dst of type DT and src of type ST (the same valid shape).
template <class DT, class ST>
void elementwise(Target target, int n, std::vector<EOp> ops) {
  using T = typename DT::DType;
  using S = typename ST::DType;
  constexpr bool same = std::is_same_v<DT, ST>;
  for (int c = 0; c < n; ++c) {
    const EOp op = ops[std::size_t(pick(0, int(ops.size()) - 1))];
    int R, C;  // not a structured binding: the lambdas below capture them (clang 14 cannot capture one)
    std::tie(R, C) = valid_of<DT>();
    if constexpr (!kDyn<ST>) std::tie(R, C) = std::pair<int, int>{ST::ValidRow, ST::ValidCol};
    if constexpr (!kDyn<DT> && !kDyn<ST>)
      if (DT::ValidRow != ST::ValidRow || DT::ValidCol != ST::ValidCol) return;
    // 0: separate tiles; 1: in place; 2: dst `k` rows before src, overlapping it.
    int alias = same ? pick(0, 2) : 0;
    if (op == Expands || ((op == Divs || op == DivsRev) && alias == 2)) alias = alias == 2 ? 0 : alias;
    const int k = pick(1, std::max(1, DT::Rows - 1));
    Placer p;
    std::size_t s_off, d_off;
    if (alias == 2) {
      const std::size_t at = p.take(kBytes<ST> + std::size_t(k) * kRowBytes<DT>);
      d_off = at;
      s_off = at + std::size_t(k) * kRowBytes<DT>;
    } else {
      s_off = p.take(kBytes<ST>);
      d_off = alias == 1 ? s_off : p.take(kBytes<DT>);
    }
    if (!p.fits()) continue;
    const T k_t = random_scalar<T>();
    const S k_s = random_scalar<S>();
    auto issue = [=]() {
      DT d = make<DT>(R, C);
      ST s = make<ST>(R, C);
      TASSIGN(s, s_off);
      TASSIGN(d, d_off);
      if constexpr (std::is_same_v<T, S>) {
        switch (op) {
          case Adds: TADDS(d, s, k_s); break;
          case Subs: TSUBS(d, s, k_s); break;
          case Muls: TMULS(d, s, k_s); break;
          case Maxs: TMAXS(d, s, k_s); break;
          case Mins: TMINS(d, s, k_s); break;
          case Divs: TDIVS(d, s, k_s); break;
          case DivsRev: TDIVS(d, k_s, s); break;
          case Exp: if constexpr (kExpAxpy<T> && DT::isRowMajor) TEXP(d, s); break;
          case Axpy: if constexpr (kExpAxpy<T> && DT::isRowMajor) TAXPY(d, s, k_s); break;
          case Expands: TEXPANDS(d, k_t); break;
          case Mov:  // A2A3 moves between tiles of one shape only
            if constexpr (DT::isRowMajor == ST::isRowMajor)
              if (target == Target::A5 || (DT::Rows == ST::Rows && DT::Cols == ST::Cols)) TMOV(d, s);
            break;
          default: break;
        }
      } else if constexpr (DT::isRowMajor) {
        TAXPY(d, s, k_s);  // float <- half
      }
    };
    std::vector<std::byte> init = random_ub<S>();
    if constexpr (!std::is_same_v<T, S>) fill<T>(init, d_off, d_off + kBytes<DT>);
    const Region region = DT::isRowMajor ? Region{d_off, R, C, DT::Cols} : Region{d_off, C, R, DT::Rows};
    const std::string what = std::string(kEOpName[op]) + " " + name_of(dtype_v<T>) + shape("dst", R, C, DT::Rows, DT::Cols, kDyn<DT>, d_off) +
                             (DT::isRowMajor ? "" : " ColMajor") +
                             (op == Expands ? std::string() : shape("src", R, C, ST::Rows, ST::Cols, kDyn<ST>, s_off)) +
                             (alias == 1 ? " in place" : alias == 2 ? " dst overlapping src" : "");
    differential<T>(what, target, issue, init, region);
  }
}

// ---- TCOLEXPAND* and pure TCOLEXPAND ---------------------------------------------------------------

enum BOp { Add, Sub, Mul, Div, Max, Min, ExpDif, Pure, kBOps };
const char* const kColName[] = {"TCOLEXPANDADD", "TCOLEXPANDSUB", "TCOLEXPANDMUL", "TCOLEXPANDDIV",
                                "TCOLEXPANDMAX", "TCOLEXPANDMIN", "TCOLEXPANDEXPDIF", "TCOLEXPAND"};
const char* const kRowName[] = {"TROWEXPANDADD", "TROWEXPANDSUB", "TROWEXPANDMUL", "TROWEXPANDDIV",
                                "TROWEXPANDMAX", "TROWEXPANDMIN", "TROWEXPANDEXPDIF", "TROWEXPAND"};

template <class T>
std::vector<BOp> bops(Target target, bool binary = true) {
  std::vector<BOp> v = {Pure};
  if (!binary) return v;
  for (BOp o : {Add, Sub, Mul, Max, Min}) v.push_back(o);
  if (kFloat<T> || target == Target::A5) v.push_back(Div);
  if (kFloat<T> && !std::is_same_v<T, bfloat16_t>) v.push_back(ExpDif);
  return v;
}

template <class F, class... A>
void col_op(BOp op, A&... a) {
  switch (op) {
    case Add: TCOLEXPANDADD(a...); break;
    case Sub: TCOLEXPANDSUB(a...); break;
    case Mul: TCOLEXPANDMUL(a...); break;
    case Div: TCOLEXPANDDIV(a...); break;
    case Max: TCOLEXPANDMAX(a...); break;
    case Min: TCOLEXPANDMIN(a...); break;
    case ExpDif: if constexpr (kFloat<F> && !std::is_same_v<F, bfloat16_t>) TCOLEXPANDEXPDIF(a...); break;
    default: break;
  }
}

// dst and the full operand of type FT; the per-column operand of type VT (a separate tile, or VT == FT:
// a one-row view into the full operand).
template <class FT, class VT>
void colexpand(Target target, int n, std::vector<BOp> ops) {
  using T = typename FT::DType;
  static_assert(kDyn<VT>);
  constexpr bool view = std::is_same_v<FT, VT>;
  for (int c = 0; c < n; ++c) {
    const BOp op = ops[std::size_t(pick(0, int(ops.size()) - 1))];
    int R, C;  // not a structured binding: the lambdas below capture them (clang 14 cannot capture one)
    std::tie(R, C) = valid_of<FT>();
    if (C > VT::Cols) C = VT::Cols;
    if constexpr (!kDyn<FT>) std::tie(R, C) = std::pair<int, int>{FT::ValidRow, FT::ValidCol};
    const bool swap = coin();
    // 0: separate; 1: dst is the full operand; 2: dst k rows before the full operand; 3: vec a row of it.
    int alias = pick(0, view ? 3 : 2);
    if (op == Pure && alias == 2) alias = 0;
    const int k = pick(1, std::max(1, FT::Rows - 1));
    const int vr = pick(1, view ? 1 : VT::Rows), vc = op == Pure ? C : pick(C, VT::Cols);
    // A vector with dst's valid shape ties the role selection: it may become the full operand and
    // the full operand the vector, which then overlaps dst with another layout. Not in place then.
    if ((alias == 1 || alias == 2) && vr == R && vc == C) alias = 0;
    Placer p;
    std::size_t f_off, d_off, v_off;
    if (alias == 2) {
      d_off = p.take(kBytes<FT> + std::size_t(k) * kRowBytes<FT>);
      f_off = d_off + std::size_t(k) * kRowBytes<FT>;
    } else {
      f_off = p.take(kBytes<FT>);
      d_off = alias == 1 ? f_off : p.take(kBytes<FT>);
    }
    const int vrow = pick(0, FT::Rows - 1);
    v_off = alias == 3 ? f_off + std::size_t(vrow) * kRowBytes<FT> : p.take(kBytes<VT>);
    if (alias == 3 && (vrow + 1 > FT::Rows || v_off + kBytes<VT> > kLimit)) continue;
    if (!p.fits()) continue;
    auto issue = [=]() {
      FT d = make<FT>(R, C), f = make<FT>(R, C);
      VT v = make<VT>(vr, vc);
      TASSIGN(f, f_off);
      TASSIGN(d, d_off);
      TASSIGN(v, v_off);
      if (op == Pure) TCOLEXPAND(d, v);
      else if (swap) col_op<T>(op, d, v, f);
      else col_op<T>(op, d, f, v);
    };
    const std::vector<std::byte>& init = random_ub<T>();
    const std::string what = std::string(kColName[op]) + " " + name_of(dtype_v<T>) + shape("dst", R, C, FT::Rows, FT::Cols, kDyn<FT>, d_off) +
                             (op == Pure ? std::string() : shape("full", R, C, FT::Rows, FT::Cols, kDyn<FT>, f_off)) +
                             shape("vec", vr, vc, VT::Rows, VT::Cols, true, v_off) + (swap && op != Pure ? " vec is src0" : "") +
                             (alias == 1 ? " dst is the full operand" : alias == 2 ? " dst overlapping the full operand" : alias == 3 ? " vec a row of the full operand" : "");
    differential<T>(what, target, issue, init, Region{d_off, R, C, FT::Cols});
  }
}

// ---- TROWEXPAND* and pure TROWEXPAND ---------------------------------------------------------------

template <class F, class... A>
void row_op(BOp op, A&... a) {
  switch (op) {
    case Add: TROWEXPANDADD(a...); break;
    case Sub: TROWEXPANDSUB(a...); break;
    case Mul: TROWEXPANDMUL(a...); break;
    case Div: TROWEXPANDDIV(a...); break;
    case Max: TROWEXPANDMAX(a...); break;
    case Min: TROWEXPANDMIN(a...); break;
    case ExpDif: if constexpr (kFloat<F> && !std::is_same_v<F, bfloat16_t>) TROWEXPANDEXPDIF(a...); break;
    default: break;
  }
}

// dst and the full operand of type FT; the expand operand of type ET: ColMajor (mode 1, one value per
// row), RowMajor (mode 2, one 32-byte block per row; ET::Cols > BE: a wider row stride), or ET == FT
// (a block-wide view into the full operand, or a separate tile of the full operand's type).
template <class FT, class ET>
void rowexpand(Target target, int n, std::vector<BOp> ops) {
  using T = typename FT::DType;
  static_assert(kDyn<ET> || !ET::isRowMajor);
  constexpr bool mode2 = ET::isRowMajor;
  constexpr bool same = std::is_same_v<FT, ET>;
  using Tmp = Tile<TileType::Vec, T, 1, 8192 / int(sizeof(T))>;
  for (int c = 0; c < n; ++c) {
    const BOp op = ops[std::size_t(pick(0, int(ops.size()) - 1))];
    int R, C;  // not a structured binding: the lambdas below capture them (clang 14 cannot capture one)
    std::tie(R, C) = valid_of<FT>();
    if constexpr (!kDyn<FT>) std::tie(R, C) = std::pair<int, int>{FT::ValidRow, FT::ValidCol};
    if (R > ET::Rows) R = ET::Rows;
    if constexpr (!kDyn<FT>)
      if (R != FT::ValidRow) return;
    if constexpr (!kDyn<ET>)
      if (R != ET::ValidRow) return;
    const int ec = op == Pure ? pick(1, ET::Cols) : mode2 ? kBE<T> : 1;
    if (ec > ET::Cols) continue;
    const bool swap = coin(), tmp = !mode2 && op != Pure && coin(30);
    // 0: separate; 1: dst is the full operand; 2: dst k rows before it; 3: E a view into the full operand.
    int alias = pick(0, same ? 3 : 2);
    if (op == Pure && alias == 2) alias = 0;
    // E with dst's valid shape (mode 2 with C == BE) ties the role selection: E may become the full
    // operand and the full operand the expand operand, which then overlaps dst with another layout.
    if ((alias == 1 || alias == 2) && op != Pure && ec == C) alias = 0;
    const int k = pick(1, std::max(1, FT::Rows - 1));
    Placer p;
    std::size_t f_off, d_off, e_off, t_off = 0;
    if (alias == 2) {
      d_off = p.take(kBytes<FT> + std::size_t(k) * kRowBytes<FT>);
      f_off = d_off + std::size_t(k) * kRowBytes<FT>;
    } else {
      f_off = p.take(kBytes<FT>);
      d_off = alias == 1 ? f_off : p.take(kBytes<FT>);
    }
    if (alias == 3) {  // E's blocks are the full operand's first columns, or a few blocks in
      const std::size_t blocks = std::size_t(FT::Cols) * sizeof(T) / 32;
      e_off = f_off + std::size_t(pick(0, int(blocks) - 1)) * 32;
      if (e_off + kBytes<ET> > kLimit) continue;
      if ((e_off - f_off) / sizeof(T) + std::size_t(ec) > std::size_t(FT::Cols)) e_off = f_off;
    } else {
      e_off = p.take(kBytes<ET>);
    }
    if (tmp) t_off = p.take(kBytes<Tmp>);
    if (!p.fits()) continue;
    auto issue = [=]() {
      FT d = make<FT>(R, C), f = make<FT>(R, C);
      ET e = make<ET>(R, ec);
      Tmp t;
      TASSIGN(f, f_off);
      TASSIGN(d, d_off);
      TASSIGN(e, e_off);
      TASSIGN(t, t_off);
      if (op == Pure) TROWEXPAND(d, e);
      else if (tmp && swap) row_op<T>(op, d, e, f, t);
      else if (tmp) row_op<T>(op, d, f, e, t);
      else if (swap) row_op<T>(op, d, e, f);
      else row_op<T>(op, d, f, e);
    };
    const std::vector<std::byte>& init = random_ub<T>();
    const std::string what = std::string(kRowName[op]) + " " + name_of(dtype_v<T>) + shape("dst", R, C, FT::Rows, FT::Cols, kDyn<FT>, d_off) +
                             (op == Pure ? std::string() : shape("full", R, C, FT::Rows, FT::Cols, kDyn<FT>, f_off)) +
                             shape(mode2 ? "E (RowMajor)" : "E (ColMajor)", R, ec, ET::Rows, ET::Cols, kDyn<ET>, e_off) +
                             (swap && op != Pure ? " E is src0" : "") + (tmp ? " tmp @" + std::to_string(t_off) : "") +
                             (alias == 1 ? " dst is the full operand" : alias == 2 ? " dst overlapping the full operand" : alias == 3 ? " E a view into the full operand" : "");
    differential<T>(what, target, issue, init, Region{d_off, R, C, FT::Cols});
  }
}

// ---- the tile families per dtype ---------------------------------------------------------------------

template <class T, int R, int C> using Dyn = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, -1, -1>;
template <class T, int R, int C> using Static = Tile<TileType::Vec, T, R, C>;
template <class T, int R, int C> using DynCol = Tile<TileType::Vec, T, R, C, BLayout::ColMajor, -1, -1>;

// Every family on one dtype. `wide`: the full set of tile geometries (else a few).
template <class T>
void all_families(Target target, int n, bool wide) {
  constexpr int BE = kBE<T>, EPR = kEPR<T>;
  // A2/A3 computes on half, float, int16 and int32 (other dtypes: the pure broadcasts, TEXPANDS, TMOV).
  const bool moves_only = target == Target::A2A3 && sizeof(T) == 1;
  std::vector<EOp> eops = {Expands, Mov};
  if (!moves_only) eops.insert(eops.end(), {Adds, Subs, Muls, Maxs, Mins});
  if (!moves_only && sizeof(T) != 1 && sizeof(T) != 8) eops.push_back(Divs), eops.push_back(DivsRev);
  if constexpr (kExpAxpy<T>) eops.push_back(Exp), eops.push_back(Axpy);
  const auto b = bops<T>(target, !moves_only), pure = bops<T>(target, false);
  const bool binary = sizeof(T) < 8 && !moves_only;  // 64-bit: the pure broadcasts and TCOLEXPANDADD only
  const std::vector<BOp> cb = binary ? b : sizeof(T) == 8 ? std::vector<BOp>{Pure, Add} : pure;

  // Element-wise: wide rows (repeats per row), narrow rows, > 255 rows, one wide row, static valid
  // shapes (contiguous), a wider src stride, static dst with a dynamic src.
  elementwise<Dyn<T, 16, 2 * EPR>, Dyn<T, 16, 2 * EPR>>(target, n, eops);
  elementwise<Dyn<T, 64, 3 * BE>, Dyn<T, 64, 3 * BE>>(target, n, eops);
  elementwise<Static<T, 8, EPR>, Static<T, 8, EPR>>(target, n, eops);
  if (wide) {
    elementwise<Dyn<T, 300, 2 * BE>, Dyn<T, 300, 2 * BE>>(target, n, eops);
    elementwise<Dyn<T, 1, 8 * EPR + BE>, Dyn<T, 1, 8 * EPR + BE>>(target, n, eops);
    elementwise<Static<T, 4, EPR + 4 * BE>, Static<T, 4, EPR + 4 * BE>>(target, n, eops);
    elementwise<Static<T, 300, 2 * BE>, Static<T, 300, 2 * BE>>(target, n, eops);
    elementwise<Dyn<T, 64, 3 * BE>, Dyn<T, 64, 5 * BE>>(target, n, eops);
    elementwise<Static<T, 8, EPR>, Dyn<T, 8, EPR>>(target, n, eops);
    elementwise<Tile<TileType::Vec, T, 16, 2 * BE, BLayout::RowMajor, 16, BE>, Tile<TileType::Vec, T, 16, 2 * BE, BLayout::RowMajor, 16, BE>>(
        target, n, eops);
    if (target == Target::A2A3) elementwise<DynCol<T, 64, 8>, DynCol<T, 64, 8>>(target, n, {Expands, Mov});
  }
  if constexpr (std::is_same_v<T, float>) {  // TAXPY float <- half
    elementwise<Dyn<float, 16, 128>, Dyn<half, 16, 128>>(target, n, {Axpy});
    elementwise<Dyn<float, 300, 16>, Dyn<half, 300, 16>>(target, n, {Axpy});
    elementwise<Static<float, 8, 64>, Static<half, 8, 64>>(target, n, {Axpy});
  }

  // Column broadcasts: a separate one- or two-row vector, or a row of the full operand.
  colexpand<Dyn<T, 16, 2 * EPR>, Dyn<T, 2, 2 * EPR>>(target, n, cb);
  colexpand<Dyn<T, 64, 3 * BE>, Dyn<T, 64, 3 * BE>>(target, n, cb);
  colexpand<Static<T, 8, EPR>, Dyn<T, 2, EPR>>(target, n, cb);
  if (wide) {
    colexpand<Dyn<T, 300, 2 * BE>, Dyn<T, 1, 2 * BE>>(target, n, cb);
    colexpand<Dyn<T, 1, 8 * EPR + BE>, Dyn<T, 1, 8 * EPR + BE>>(target, n, cb);
    colexpand<Static<T, 4, EPR + 4 * BE>, Dyn<T, 1, EPR + 4 * BE>>(target, n, cb);
  }

  // Row broadcasts: mode 1 (ColMajor, also two columns wide), mode 2 (one block per row, or a wider
  // row stride), E a view into the full operand.
  if (binary) {
    rowexpand<Dyn<T, 16, 2 * EPR>, DynCol<T, 32, 1>>(target, n, b);
    rowexpand<Dyn<T, 16, 2 * EPR>, Dyn<T, 16, BE>>(target, n, b);
    rowexpand<Dyn<T, 64, 3 * BE>, Dyn<T, 64, 2 * BE>>(target, n, b);
    rowexpand<Dyn<T, 64, 3 * BE>, Dyn<T, 64, 3 * BE>>(target, n, b);
    if (wide) {
      rowexpand<Dyn<T, 300, 2 * BE>, DynCol<T, 320, 1>>(target, n, b);
      rowexpand<Dyn<T, 300, 2 * BE>, Dyn<T, 300, BE>>(target, n, b);
      rowexpand<Dyn<T, 300, 2 * BE>, Dyn<T, 300, 2 * BE>>(target, n, b);
      rowexpand<Dyn<T, 64, 3 * BE>, DynCol<T, 64, 2>>(target, n, b);
      rowexpand<Static<T, 8, EPR>, Dyn<T, 8, 4 * BE>>(target, n, b);
      rowexpand<Dyn<T, 1, 8 * EPR + BE>, Dyn<T, 8, BE>>(target, n, b);
    }
  } else {
    rowexpand<Dyn<T, 16, 2 * EPR>, DynCol<T, 32, 1>>(target, n, pure);
    rowexpand<Dyn<T, 64, 3 * BE>, Dyn<T, 64, 2 * BE>>(target, n, pure);
  }
  // Pure TROWEXPAND from a full static [M,1] ColMajor source into [M, BE] (A2A3: vbrcb).
  if constexpr (sizeof(T) <= 4) rowexpand<Static<T, 64, BE>, Tile<TileType::Vec, T, 64, 1, BLayout::ColMajor>>(target, n, pure);
}

// ---- TCVT, TSEL / TSELS -----------------------------------------------------------------------------

// Conversion sources span the destinations' ranges and beyond (saturation and the SaturationMode::OFF
// wrap-around), finite in every source type.
template <class S>
void fill_wide(std::vector<std::byte>& ub, std::size_t lo, std::size_t hi) {
  auto* p = reinterpret_cast<S*>(ub.data() + lo);
  for (std::size_t i = 0; i < (hi - lo) / sizeof(S); ++i) {
    if constexpr (std::is_integral_v<S>) {
      const std::uint64_t bits = (std::uint64_t(rng()()) << 32) | rng()();
      p[i] = coin() ? S(bits) : S(int(pick(0, 600)) * (std::is_signed_v<S> && coin() ? -1 : 1));
    } else {
      const float mag = coin() ? float(pick(0, 2250)) / 1000.0f : float(pick(0, 60000)) + float(pick(0, 3)) / 4.0f;
      p[i] = S(coin() ? -mag : mag);
    }
  }
}

constexpr RoundMode kCvtModes[] = {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_ROUND, RoundMode::CAST_FLOOR,
                                   RoundMode::CAST_CEIL, RoundMode::CAST_TRUNC, RoundMode::CAST_ODD};

// `n` random TCVT calls from ST into DT (a random mode; with or without a SaturationMode and a tmp).
template <class DT, class ST>
void convert_cases(Target target, int n) {
  using D = typename DT::DType;
  using S = typename ST::DType;
  if (!find_cvt(target, dtype_v<S>, dtype_v<D>)) return;
  using Tmp = Tile<TileType::Vec, std::int32_t, 1, 4096>;
  for (int c = 0; c < n; ++c) {
    int R, C;  // not a structured binding: the lambdas below capture them (clang 14 cannot capture one)
    std::tie(R, C) = valid_of<DT>();
    if constexpr (!kDyn<ST>) std::tie(R, C) = std::pair<int, int>{ST::ValidRow, ST::ValidCol};
    if constexpr (!kDyn<DT> && !kDyn<ST>)
      if (DT::ValidRow != ST::ValidRow || DT::ValidCol != ST::ValidCol) return;
    const RoundMode mode = kCvtModes[pick(0, 6)];
    const int form = pick(0, 3);  // 0: mode; 1: + SaturationMode; 2: tmp + mode; 3: tmp + both
    const SaturationMode sat = coin() ? SaturationMode::OFF : SaturationMode::ON;
    Placer p;
    const std::size_t s_off = p.take(kBytes<ST>), d_off = p.take(kBytes<DT>), t_off = p.take(kBytes<Tmp>);
    if (!p.fits()) continue;
    auto issue = [=]() {
      DT d = make<DT>(R, C);
      ST s = make<ST>(R, C);
      Tmp t;
      TASSIGN(s, s_off);
      TASSIGN(d, d_off);
      TASSIGN(t, t_off);
      switch (form) {
        case 0: TCVT(d, s, mode); break;
        case 1: TCVT(d, s, mode, sat); break;
        case 2: TCVT(d, s, t, mode); break;
        default: TCVT(d, s, t, mode, sat); break;
      }
    };
    std::vector<std::byte> init = random_ub<D>();
    fill_wide<S>(init, s_off, s_off + kBytes<ST>);
    const std::string what = std::string("TCVT ") + name_of(dtype_v<S>) + "->" + name_of(dtype_v<D>) + " mode " +
                             std::to_string(int(mode)) + " form " + std::to_string(form) + (form % 2 ? sat == SaturationMode::OFF ? " OFF" : " ON" : "") +
                             shape("dst", R, C, DT::Rows, DT::Cols, kDyn<DT>, d_off) + shape("src", R, C, ST::Rows, ST::Cols, kDyn<ST>, s_off);
    differential<D>(what, target, issue, init, Region{d_off, R, C, DT::Cols});
  }
}

// The geometries the TCVT paths branch on: head repeats and a tail per row, more than 255 rows (the
// tail's row calls), statically full tiles (A5's 1-D loop), one long row, a wider source row stride.
template <class D, class S>
void convert_shapes(Target target, int n) {
  convert_cases<Dyn<D, 8, 224>, Dyn<S, 8, 224>>(target, n);
  convert_cases<Dyn<D, 300, 32>, Dyn<S, 300, 32>>(target, n);
  convert_cases<Static<D, 4, 128>, Static<S, 4, 128>>(target, n);
  convert_cases<Dyn<D, 1, 1088>, Dyn<S, 1, 1088>>(target, n);
  convert_cases<Dyn<D, 16, 64>, Dyn<S, 16, 96>>(target, n);
}

void all_conversions(Target t, int n) {
  convert_shapes<half, float>(t, n);
  convert_shapes<float, half>(t, n);
  convert_shapes<bfloat16_t, float>(t, n);
  convert_shapes<float, bfloat16_t>(t, n);
  convert_shapes<float, float>(t, n);
  convert_shapes<std::int16_t, float>(t, n);
  convert_shapes<std::int32_t, float>(t, n);
  convert_shapes<std::int64_t, float>(t, n);
  convert_shapes<std::int16_t, half>(t, n);
  convert_shapes<std::int32_t, half>(t, n);
  convert_shapes<std::int8_t, half>(t, n);
  convert_shapes<std::uint8_t, half>(t, n);
  convert_shapes<std::int32_t, bfloat16_t>(t, n);
  convert_shapes<half, std::int16_t>(t, n);
  convert_shapes<float, std::int16_t>(t, n);
  convert_shapes<float, std::int32_t>(t, n);
  convert_shapes<half, std::int32_t>(t, n);
  convert_shapes<std::int16_t, std::int32_t>(t, n);
  convert_shapes<std::int64_t, std::int32_t>(t, n);
  convert_shapes<float, std::int64_t>(t, n);
  convert_shapes<std::int32_t, std::int64_t>(t, n);
  convert_shapes<half, std::int8_t>(t, n);
  convert_shapes<half, std::uint8_t>(t, n);
  convert_shapes<std::uint32_t, std::uint8_t>(t, n);
  convert_shapes<std::int32_t, std::int16_t>(t, n);
  convert_shapes<std::uint8_t, std::uint16_t>(t, n);
  convert_shapes<std::int8_t, std::int32_t>(t, n);
}

// `n` random TSEL (or TSELS) calls on tiles of type TT with random mask bits.
template <class TT>
void select_cases(Target target, int n, bool scalar) {
  using T = typename TT::DType;
  constexpr int MC = std::max(32, (TT::Cols / 8 + 31) / 32 * 32);
  using MaskT = Tile<TileType::Vec, std::uint8_t, TT::Rows, MC, BLayout::RowMajor, -1, -1>;
  using Tmp = Tile<TileType::Vec, std::uint8_t, 1, 32>;
  for (int c = 0; c < n; ++c) {
    int R, C;  // not a structured binding: the lambdas below capture them (clang 14 cannot capture one)
    std::tie(R, C) = valid_of<TT>();
    const int alias = pick(0, 2);  // 1: dst is src0; 2: dst is src1 (TSEL)
    Placer p;
    const std::size_t a_off = p.take(kBytes<TT>), b_off = p.take(kBytes<TT>), m_off = p.take(kBytes<MaskT>), t_off = p.take(32);
    const std::size_t d_off = alias == 1 ? a_off : alias == 2 && !scalar ? b_off : p.take(kBytes<TT>);
    if (!p.fits()) continue;
    const T k = random_scalar<T>();
    auto issue = [=]() {
      TT d = make<TT>(R, C), a = make<TT>(R, C), b = make<TT>(R, C);
      MaskT m(static_cast<unsigned>(R), static_cast<unsigned>(MC));
      Tmp t;
      TASSIGN(a, a_off);
      TASSIGN(b, b_off);
      TASSIGN(d, d_off);
      TASSIGN(m, m_off);
      TASSIGN(t, t_off);
      if (scalar) TSELS(d, m, a, t, k);
      else TSEL(d, m, a, b, t);
    };
    std::vector<std::byte> init = random_ub<T>();
    for (std::size_t i = m_off; i < m_off + kBytes<MaskT>; ++i) init[i] = std::byte(rng()());
    const std::string what = std::string(scalar ? "TSELS " : "TSEL ") + name_of(dtype_v<T>) + shape("dst", R, C, TT::Rows, TT::Cols, kDyn<TT>, d_off) +
                             (alias == 1 ? " in place over src0" : alias == 2 && !scalar ? " in place over src1" : "");
    differential<T>(what, target, issue, init, Region{d_off, R, C, TT::Cols});
  }
}

// 32-bit elements: pairs of chunks and an odd last one; more than 255 rows; statically full tiles.
template <class T>
void select_shapes(Target t, int n) {
  for (bool scalar : {false, true}) {
    select_cases<Dyn<T, 4, 3 * kEPR<T> / 2 + kBE<T>>>(t, n, scalar);
    select_cases<Dyn<T, 300, 2 * kBE<T>>>(t, n, scalar);
    select_cases<Static<T, 8, 2 * kEPR<T>>>(t, n, scalar);
    select_cases<Dyn<T, 2, 3 * kEPR<T> + 2 * kBE<T>>>(t, n, scalar);
  }
}

void summary(const char* when) {
  std::string inexact;
  for (const auto& [op, count] : g_stats.inexact_by_op) inexact += (inexact.empty() ? "" : ", ") + op + " " + std::to_string(count);
  BOOST_TEST_MESSAGE("device vs CPU reference (" << when << "): " << g_stats.compared << " cases compared ("
                                                 << g_stats.elements << " dst elements, " << g_stats.float_inexact << " of "
                                                 << g_stats.float_elements << " float elements not bit-identical, "
                                                 << g_stats.special_elements << " NaN or infinite), "
                                                 << g_stats.rejected << " rejected identically by both, " << g_stats.failed
                                                 << " disagreeing; "
                                                 << std::chrono::duration<double>(g_stats.time).count() << " s"
                                                 << (inexact.empty() ? "" : "; not bit-identical: " + inexact));
}
}  // namespace

BOOST_AUTO_TEST_CASE(a2a3_device_paths_agree_with_the_cpu_reference) {
  const Target t = Target::A2A3;
  all_families<float>(t, 18, true);
  all_families<half>(t, 18, true);
  all_families<std::int32_t>(t, 12, true);
  all_families<std::int16_t>(t, 12, true);
  all_families<std::uint8_t>(t, 9, false);
  summary("A2A3");
  // The seed fixes the cases: a change of how many are compared is a change of the test, not noise.
  BOOST_TEST(g_stats.failed == 0);
  BOOST_TEST(g_stats.compared == 1793);
  BOOST_TEST(g_specials > 0);
  BOOST_TEST(g_stats.special_elements > 0);
}

BOOST_AUTO_TEST_CASE(a5_device_paths_agree_with_the_cpu_reference) {
  const Target t = Target::A5;
  all_families<float>(t, 18, true);
  all_families<half>(t, 18, true);
  all_families<std::int32_t>(t, 12, true);
  all_families<std::int16_t>(t, 12, true);
  all_families<bfloat16_t>(t, 9, false);
  all_families<std::uint8_t>(t, 9, false);
  all_families<std::int8_t>(t, 9, false);
  all_families<std::uint16_t>(t, 9, false);
  all_families<std::uint32_t>(t, 9, false);
  all_families<std::int64_t>(t, 9, false);
  all_families<std::uint64_t>(t, 9, false);
  summary("A2A3 and A5");
  BOOST_TEST(g_stats.failed == 0);
  BOOST_TEST(g_stats.compared == 4028);
}

BOOST_AUTO_TEST_CASE(conversion_and_select_device_paths_agree_with_the_cpu_reference) {
  g_stats = Stats{};
  for (Target t : {Target::A2A3, Target::A5}) {
    all_conversions(t, 4);
    select_shapes<float>(t, 6);
    select_shapes<half>(t, 6);
    select_shapes<std::int32_t>(t, 4);
    select_shapes<std::uint16_t>(t, 4);
    if (t == Target::A5) select_shapes<std::int8_t>(t, 4), select_shapes<std::uint8_t>(t, 4);
  }
  summary("TCVT, TSEL, TSELS on A2A3 and A5");
  BOOST_TEST(g_stats.failed == 0);
  BOOST_TEST(g_stats.compared == 1300);
  BOOST_TEST(g_stats.special_elements > 0);
}
