// The mad on the CPU: the operands' fractal tiles are gathered into dense float matrices and multiplied
// by the BLAS (OpenBLAS sgemm, one thread: the emulated cores are the parallelism); int8 inputs are
// multiplied exactly in int32 (wrapping, as the accumulator does).
//
// Numerics: half, bfloat16_t and the 8-bit floats widen to float exactly, so their products are exact
// and the only rounding is float accumulation, as in the cube's float accumulator (whose summation
// order the NPUs do not document); float inputs round their products too. Tests compare against a
// double reference within k * 2^-24 * sum |a * b| (docs/cube.md).
#include "cube.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <cstdint>
#include <mutex>
#include <vector>

#include <cblas.h>

extern "C" void openblas_set_num_threads(int);

namespace pto::cpu::cube {
namespace {

// The view's valid region as O: rows x cols row-major when its fractals are row-major (Left, Acc), else
// cols x rows (Right's ZN: the transpose, gathered down its contiguous columns).
template <class T, class O>
void gather(const TileView& t, O* out) {
  const bool rows = t.inner_row_major;
  const int run = rows ? t.inner_cols : t.inner_rows;
  const int outer = rows ? t.valid_rows : t.valid_cols, inner = rows ? t.valid_cols : t.valid_rows;
  for (int a = 0; a < outer; ++a)
    for (int b = 0; b < inner; b += run) {
      const T* in = rows ? t.ptr<T>(a, b) : t.ptr<T>(b, a);
      const int n = std::min(run, inner - b);
      O* o = out + std::ptrdiff_t(a) * inner + b;
      for (int i = 0; i < n; ++i) o[i] = O(in[i]);
    }
}
// An 8-bit float code as float (exact: the formats' values are floats).
struct NarrowCode {
  float table[256];
  explicit NarrowCode(numeric::Narrow k) {
    for (int c = 0; c < 256; ++c) table[c] = float(numeric::decode(k, std::uint8_t(c)));
  }
  float operator()(std::uint8_t c) const { return table[c]; }
};
void gather_float(const TileView& t, float* out) {
  if (t.nibbles()) {  // the 4-bit floats, packed: decode each nibble (Left: rows x cols, Right: its transpose)
    static const NarrowCode e2m1(numeric::Narrow::E2M1), e1m2(numeric::Narrow::E1M2);
    const NarrowCode& code = t.dtype == DType::F4E2M1 ? e2m1 : e1m2;
    const bool rows = t.inner_row_major;
    const int outer = rows ? t.valid_rows : t.valid_cols, inner = rows ? t.valid_cols : t.valid_rows;
    for (int a = 0; a < outer; ++a)
      for (int b = 0; b < inner; ++b)
        out[std::ptrdiff_t(a) * inner + b] = code(nibble_get(t.base, rows ? t.elem_offset(a, b) : t.elem_offset(b, a)));
    return;
  }
  if (is_narrow(t.dtype)) {  // the 8-bit floats are visited as their bytes: decode them
    static const NarrowCode e4m3(numeric::Narrow::E4M3), e5m2(numeric::Narrow::E5M2), hif8(numeric::Narrow::HiF8);
    const NarrowCode& code = t.dtype == DType::F8E4M3 ? e4m3 : t.dtype == DType::F8E5M2 ? e5m2 : hif8;
    thread_local std::vector<std::uint8_t> bytes;
    bytes.resize(std::size_t(t.valid_rows) * std::size_t(t.valid_cols));
    gather<std::uint8_t, std::uint8_t>(t, bytes.data());
    for (std::size_t i = 0; i < bytes.size(); ++i) out[i] = code(bytes[i]);
    return;
  }
  visit_dtype(t.dtype, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, float> ||
                  std::is_same_v<T, float8_e4m3_t> || std::is_same_v<T, float8_e5m2_t> || std::is_same_v<T, hifloat8_t>)
      gather<T, float>(t, out);
  });
}

// TF32 (the mad's TF32 mode): x keeps `bits` fraction bits, rounded half away from zero (CAST_ROUND) or
// half to even (CAST_RINT); infinities and NaNs pass. A carry into the exponent rounds up a binade (or to
// infinity), as IEEE rounding does.
float to_tf32(float x, int bits, bool rint) {
  std::uint32_t u = std::bit_cast<std::uint32_t>(x);
  if ((u & 0x7F800000u) == 0x7F800000u) return x;
  const int drop = 23 - bits;
  const std::uint32_t half = 1u << (drop - 1), mask = ~((1u << drop) - 1);
  u += rint ? half - 1 + ((u >> drop) & 1) : half;
  return std::bit_cast<float>(u & mask);
}

// The Acc tile's valid region (row-major fractals of 16) to and from a dense row-major m x n matrix.
template <class T>
void acc_rows(const TileView& c, T* dense, bool to_tile) {
  for (int r = 0; r < c.valid_rows; ++r)
    for (int j = 0; j < c.valid_cols; j += c.inner_cols) {
      T* tile = c.ptr<T>(r, j);
      T* d = dense + std::ptrdiff_t(r) * c.valid_cols + j;
      const std::size_t n = std::size_t(std::min<int>(c.inner_cols, c.valid_cols - j)) * sizeof(T);
      if (to_tile) std::memcpy(tile, d, n);
      else std::memcpy(d, tile, n);
    }
}

// c's starting value: zero (TMATMUL), itself (_ACC) or the bias row over every row (_BIAS).
template <class T>
void start_value(ExecContext& ctx, T* c) {
  const TileView& ct = ctx.ops[0].tile;
  const std::ptrdiff_t m = ct.valid_rows, n = ct.valid_cols;
  if (ctx.ops[0].role == Role::ReadWrite) return acc_rows<T>(ct, c, false);  // the _ACC forms read c
  if (ctx.nops > 3 && ctx.ops[3].tile.loc == TileType::Bias) {  // the _BIAS forms (the MX ones too: bias before the scales)
    const T* bias = reinterpret_cast<const T*>(ctx.ops[3].tile.base);
    for (std::ptrdiff_t r = 0; r < m; ++r) std::copy(bias, bias + n, c + r * n);
    return;
  }
  std::fill(c, c + m * n, T(0));
}

void mad_int8(ExecContext& ctx) {
  const TileView& ct = ctx.ops[0].tile;
  const int m = ct.valid_rows, n = ct.valid_cols, k = ctx.ops[1].tile.valid_cols;
  thread_local std::vector<std::int32_t> a, b, c;
  a.resize(std::size_t(m) * std::size_t(k));
  b.resize(std::size_t(k) * std::size_t(n));
  c.resize(std::size_t(m) * std::size_t(n));
  gather<std::int8_t, std::int32_t>(ctx.ops[1].tile, a.data());  // m x k
  gather<std::int8_t, std::int32_t>(ctx.ops[2].tile, b.data());  // n x k
  start_value<std::int32_t>(ctx, c.data());
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      const std::int32_t* x = &a[std::size_t(i) * std::size_t(k)];
      const std::int32_t* y = &b[std::size_t(j) * std::size_t(k)];
      std::uint32_t s = std::uint32_t(c[std::size_t(i) * std::size_t(n) + std::size_t(j)]);  // wraps, as the int32 accumulator
      for (int p = 0; p < k; ++p) s += std::uint32_t(x[p] * y[p]);
      c[std::size_t(i) * std::size_t(n) + std::size_t(j)] = std::int32_t(s);
    }
  acc_rows<std::int32_t>(ct, c.data(), true);
}
}  // namespace

void mad(ExecContext& ctx) {
  if (ctx.ops[1].tile.dtype == DType::I8) return mad_int8(ctx);
  static std::once_flag one_thread;
  std::call_once(one_thread, [] { openblas_set_num_threads(1); });
  const TileView& ct = ctx.ops[0].tile;
  const TileView& a = ctx.ops[1].tile;
  const TileView& b = ctx.ops[2].tile;
  const int m = ct.valid_rows, n = ct.valid_cols, k = a.valid_cols;
  thread_local std::vector<float> fa, fb, fc;
  fa.resize(std::size_t(m) * std::size_t(k));
  fb.resize(std::size_t(k) * std::size_t(n));
  fc.resize(std::size_t(m) * std::size_t(n));
  gather_float(a, fa.data());  // m x k (Left: row-major fractals)
  gather_float(b, fb.data());  // n x k (Right: ZN, gathered as its transpose)
  if (ctx.ops[ctx.nops - 1].tile.loc == TileType::ScaleRight) {  // the MX forms: every 32-group of K scaled by 2^(e - 127) (e8m0; 0xFF is NaN)
    const TileView& as = ctx.ops[ctx.nops - 2].tile;
    const TileView& bs = ctx.ops[ctx.nops - 1].tile;
    auto scale = [](std::uint8_t e) { return e == 0xFF ? std::numeric_limits<float>::quiet_NaN() : std::ldexp(1.0f, int(e) - 127); };
    // row r of a dense m x k (or, for b, n x k) matrix times its groups' scales, one scale per group
    auto apply = [&](float* row, auto code_of_group) {
      for (int g = 0; g * 32 < k; ++g) {
        const float f = scale(code_of_group(g));
        for (int p = g * 32; p < std::min(k, g * 32 + 32); ++p) row[p] *= f;
      }
    };
    for (int i = 0; i < m; ++i) apply(&fa[std::size_t(i) * std::size_t(k)], [&](int g) { return *as.ptr<std::uint8_t>(i, g); });
    for (int j = 0; j < n; ++j) apply(&fb[std::size_t(j) * std::size_t(k)], [&](int g) { return *bs.ptr<std::uint8_t>(g, j); });
  }
  if (ctx.variant & kVariantTf32) {  // A2A3's TF32 is e8m11, A5's e8m10: products stay exact in float
    const int bits = ctx.target == Target::A2A3 ? 11 : 10;
    const bool rint = ctx.variant & kVariantTf32Rint;
    for (float& x : fa) x = to_tf32(x, bits, rint);
    for (float& x : fb) x = to_tf32(x, bits, rint);
  }
  start_value<float>(ctx, fc.data());
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, fa.data(), k, fb.data(), k, 1.0f, fc.data(), n);
  acc_rows<float>(ct, fc.data(), true);
}

}  // namespace pto::cpu::cube
