// Compound element-wise instructions: the ones each NPU composes from several vector operations
// (TREM, TFMOD, TPOW, TPRELU and their tile-scalar forms), the carry forms (TADDC, TSUBC, TADDSC,
// TSUBSC), the fused ones (TFUSEDMULADD, TFUSEDMULADDRELU, TMULADDDST, TSUBRELU) and TADDDEQRELU.
//
// Numerics follow the chips' operation sequences (pto-isa include/pto/npu/a2a3 and a5), each step
// rounded to its lane type, so results match the chip where its sequence is not the exact function
// (a remainder of a large quotient, a power through exp and ln). docs/compound.md states every sequence.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include <pto/backends/kernel_abi.hpp>
#include "elementwise.hpp"

namespace pto::cpu::compound {

enum class Kind : std::uint8_t { Rem, Fmod, Pow, Prelu, AddAdd, SubAdd, MulAdd, MulAddRelu, SubRelu };

// What an element's result depends on besides its operands.
struct Env {
  Target target;
  Op op;
  bool high_precision;  // the instruction's *Algorithm::HIGH_PRECISION (A5 float only)
};

// The dtypes a kind is computed for (the descriptors reject the others before a kernel runs).
template <Kind K, class T>
inline constexpr bool kComputed = K == Kind::Pow || K == Kind::Rem || K == Kind::Fmod || K == Kind::AddAdd || K == Kind::SubAdd
                                      ? !std::is_same_v<T, bfloat16_t> || K == Kind::Pow
                                      : !std::is_integral_v<T>;

// ---- remainders -----------------------------------------------------------------------------------------
// float -> half toward zero, saturating (A5 vcvt ROUND_Z, RS_ENABLE).
inline half half_toward_zero(float x) {
  half h = half(x);
  if (std::isfinite(x) && std::fabs(float(h)) > std::fabs(x)) h = std::bit_cast<half>(std::uint16_t(std::bit_cast<std::uint16_t>(h) - 1));
  return h;
}

// The float sequence both chips issue: q = a / b, q rounded to an integral value (floor for TREM, toward
// zero for TFMOD), then a - q * b; every step rounded to float.
inline float remainder_steps(float a, float b, bool floor_quotient) {
  float q = a / b;
  q = floor_quotient ? std::floor(q) : std::trunc(q);
  const float p = q * b;
  return a - p;
}
// The divisor-sign correction of TREM (and A2A3 TREMS): where r * b < 0, r + b.
template <class T>
T divisor_sign_fix(T r, T b) {
  return lanes::combine<lanes::BinOp::Mul, T>(b, r) < T(0) ? lanes::combine<lanes::BinOp::Add, T>(r, b) : r;
}
// A5 HIGH_PRECISION: the exact remainder (fmod is exact; the floor form adds b once when signs differ).
inline float exact_remainder(float a, float b, bool floor_quotient) {
  if (std::isinf(b) && std::isfinite(a)) return a;
  double r = std::fmod(double(a), double(b));
  if (floor_quotient && r != 0 && (r < 0) != (b < 0)) r += b;
  return float(r);
}

template <class T>
T int_remainder(T a, T b, bool floor_quotient) {
  if constexpr (sizeof(T) == 8) {  // A5 Int64Rem: truncating whichever the op, 0 for a zero divisor
    (void)floor_quotient;
    if (b == T(0)) return T(0);
    if constexpr (std::is_signed_v<T>)
      if (b == T(-1)) return T(0);
    return T(a % b);
  } else {
    if constexpr (std::is_signed_v<T>)
      if (b == T(-1)) return T(0);  // INT_MIN % -1 has no C++ value; the remainder is 0
    T r = T(a % b);
    if constexpr (std::is_signed_v<T>)
      if (floor_quotient && r != T(0) && ((r < T(0)) != (b < T(0)))) r = T(r + b);
    return r;
  }
}

template <class T>
T remainder(const Env& e, T a, T b) {
  const bool floor_q = e.op == Op::TREM || e.op == Op::TREMS;
  const bool fix = e.op == Op::TREM || (e.op == Op::TREMS && e.target == Target::A2A3);
  if constexpr (std::is_integral_v<T>) {
    return int_remainder(a, b, floor_q);
  } else if constexpr (std::is_same_v<T, float>) {
    if (e.high_precision) return exact_remainder(a, b, floor_q);
    const float r = remainder_steps(a, b, floor_q);
    return fix ? divisor_sign_fix(r, b) : r;
  } else {  // half (A5): the steps in float, narrowed toward zero, the correction in half
    const T r = half_toward_zero(remainder_steps(float(a), float(b), floor_q));
    return fix ? divisor_sign_fix(r, b) : r;
  }
}

// ---- power ----------------------------------------------------------------------------------------------
inline bool integral(float e) { return std::trunc(e) == e; }  // +-inf counts (trunc(inf) == inf)
inline bool odd(float e) { return std::isfinite(e) && std::fabs(std::fmod(e, 2.0f)) == 1.0f; }

// exp(e * ln|b|), each step rounded to float: the vector core of both chips' float TPOW.
inline float pow_magnitude(float b, float e) {
  const float l = float(std::log(double(std::fabs(b))));
  const float m = l * e;
  return float(std::exp(double(m)));
}
inline float float_pow(Target t, float b, float e) {
  if (t == Target::A2A3) {  // TPow.hpp: the vector result, then the scalar unit's fix-ups in this order
    if (e == 0) return 1.0f;
    if (b == 0) return e > 0 ? 0.0f : std::numeric_limits<float>::infinity();  // -0 too: +0 / +inf
    if (b == -1 && std::isinf(e)) return 1.0f;
    if (integral(e)) {
      const float t2 = pow_magnitude(b, e);
      return b < 0 && odd(e) ? -t2 : t2;
    }
    return b < 0 ? std::numeric_limits<float>::quiet_NaN() : pow_magnitude(b, e);  // exp(e * ln b): NaN for b < 0
  }
  // A5: the same core with IEEE pow's special values
  if (e == 0 || b == 1) return 1.0f;
  if (std::isnan(b) || std::isnan(e)) return std::numeric_limits<float>::quiet_NaN();
  if (b == -1 && std::isinf(e)) return 1.0f;
  if (b == 0 || std::isinf(b)) return float(std::pow(double(b), double(e)));  // exact: 0, inf and their signs
  if (b < 0 && !integral(e)) return std::numeric_limits<float>::quiet_NaN();
  const float t2 = pow_magnitude(b, e);
  return b < 0 && odd(e) ? -t2 : t2;
}
// Integers: square and multiply, wrapping in T; a negative exponent gives 0 except for a base of +-1.
template <class T>
T int_pow(T b, T e) {
  using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
  if (e == T(0) || b == T(1)) return T(1);
  if constexpr (std::is_signed_v<T>)
    if (e < T(0)) return b == T(-1) ? T((e & T(1)) ? -1 : 1) : T(0);
  U acc = 1, base = U(std::make_unsigned_t<T>(b));
  for (auto n = std::make_unsigned_t<T>(e); n; n >>= 1) {
    if (n & 1u) acc = U(std::make_unsigned_t<T>(acc * base));
    base = U(std::make_unsigned_t<T>(base * base));
  }
  return T(std::make_unsigned_t<T>(acc));
}
template <class T>
T power(const Env& e, T b, T x) {
  if constexpr (std::is_integral_v<T>) return int_pow(b, x);
  else if constexpr (std::is_same_v<T, float>) return float_pow(e.target, b, x);
  else return T(float_pow(e.target, float(b), float(x)));  // A5 half / bf16: in float, stored rounding to nearest
}

// ---- one element ----------------------------------------------------------------------------------------
// vmadd / vmla (TFUSEDMULADD, TFUSEDMULADDRELU, TMULADDDST): a fused multiply-add, rounded once to T, as
// the instruction's name and pto-isa's vmula.md ("fused ... better numerical precision") say and the
// tests' goldens compute. The product of two half or float values is exact in double; the sum is rounded
// to double, then to T.
template <class T>
T fused_mul_add(T a, T b, T c) {
  return T(double(a) * double(b) + double(c));
}

template <Kind K, class T>
T element(const Env& e, T a, T b, T c) {
  using lanes::BinOp;
  using lanes::combine;
  if constexpr (K == Kind::Rem || K == Kind::Fmod) return remainder(e, a, b);
  else if constexpr (K == Kind::Pow) return power(e, a, b);
  else if constexpr (K == Kind::Prelu) return a > T(0) ? a : combine<BinOp::Mul, T>(a, b);
  else if constexpr (K == Kind::AddAdd) return combine<BinOp::Add, T>(combine<BinOp::Add, T>(a, b), c);
  else if constexpr (K == Kind::SubAdd) return combine<BinOp::Add, T>(combine<BinOp::Sub, T>(a, b), c);
  else if constexpr (K == Kind::MulAdd) return fused_mul_add(a, b, c);
  else if constexpr (K == Kind::MulAddRelu) {
    const T r = fused_mul_add(a, b, c);
    return r > T(0) ? r : T(0);
  } else {
    const T r = combine<BinOp::Sub, T>(a, b);
    return r > T(0) ? r : T(0);
  }
}

// ---- the rules the data must meet -----------------------------------------------------------------------
// Integer remainders: a zero divisor has no result (64-bit A5 defines 0); A2A3 computes int32 through
// float, exact only for |x| <= 2^24 (pto-isa docs/isa/TREMS.md), so larger values are an error there.
template <Kind K, class T>
void check_values(const Env& e, const TileView& a, const TileView* b, T scalar) {
  if constexpr ((K == Kind::Rem || K == Kind::Fmod) && std::is_integral_v<T> && sizeof(T) < 8) {
    const char* name = op_name(e.op);
    if (b) lanes::check_divisor_tile<T>(e.op, "src1", *b);
    else if (scalar == T(0))
      detail::fail(name, ": integer division by zero: the scalar divisor is 0 (dtype ", name_of(dtype_v<T>), ")");
    if (e.target == Target::A2A3) {
      constexpr std::int64_t kExact = std::int64_t(1) << 24;
      auto in_range = [&](const char* operand, std::int64_t v, int r, int c) {
        if (v > kExact || v < -kExact)
          detail::fail(name, ": operand ", operand, " has ", v, " at element (", r, ", ", c, "): A2A3 computes the int32 ",
                       "remainder through float, exact only for |x| <= 2^24 = 16777216 (pto-isa a2a3 TRem.hpp / TRemS.hpp)");
      };
      for (int r = 0; r < a.valid_rows; ++r)
        for (int c = 0; c < a.valid_cols; ++c) {
          in_range(b ? "src0" : "src", std::int64_t(*a.ptr<T>(r, c)), r, c);
          if (b) in_range("src1", std::int64_t(*b->ptr<T>(r, c)), r, c);
        }
      if (!b) in_range("scalar", std::int64_t(scalar), 0, 0);
    }
  } else {
    (void)e, (void)a, (void)b, (void)scalar;
  }
}

// ---- the kernel -----------------------------------------------------------------------------------------
// Where an element's operands come from: ctx.ops[i] (0 is dst itself, read before it is written), the
// scalar, or nothing.
inline constexpr int kScalar = -1, kNone = -2;

template <Kind K, int A, int B, int C>
void kernel(ExecContext& ctx) {
  const TileView d = ctx.ops[0].tile;
  std::vector<std::byte> copies[3];
  auto view = [&](int idx, int k) -> TileView { return idx > 0 ? stable_source(ctx.ops[idx].tile, d, copies[k]) : d; };
  const TileView va = view(A, 0), vb = B >= 0 ? view(B, 1) : d, vc = C >= 0 ? view(C, 2) : d;
  const Env env{ctx.target, ctx.op, (ctx.variant & kVariantHighPrecision) != 0};
  visit_dtype(d.dtype, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (kComputed<K, T>) {
      const T s = ctx.scalar.as<T>();
      check_values<K, T>(env, ctx.ops[A].tile, B >= 0 ? &ctx.ops[B].tile : nullptr, s);
      for_each_block(d.valid_rows, d.valid_cols, [&](int r0, int r1, int c0, int c1) {
        for (int i = r0; i < r1; ++i)
          for (int j = c0; j < c1; ++j) {
            const T a = *va.ptr<T>(i, j);
            const T b = B == kScalar ? s : B == kNone ? T{} : *vb.ptr<T>(i, j);
            const T c = C == kScalar ? s : C == kNone ? T{} : *vc.ptr<T>(i, j);
            *d.ptr<T>(i, j) = element<K, T>(env, a, b, c);
          }
      });
    }
  });
}
template <Kind K, int A, int B, int C> inline constexpr BackendKernel kCompound{nullptr, kernel<K, A, B, C>};

// TADDDEQRELU(dst half, src0 int32, src1 int32, deqScale, tmp int32): half(max(0, float(src0 + src1) *
// 2^-17 * deqScale * 2^17)), each step rounded to float. A2A3 works in its operands' bytes (TAddDeqRelu.hpp):
// afterwards src0 holds the scaled float, src1 the clamped float, tmp zeros; A5 works in registers.
inline void add_deq_relu(ExecContext& ctx) {
  const TileView d = ctx.ops[0].tile, a = ctx.ops[1].tile, b = ctx.ops[2].tile, t = ctx.ops[3].tile;
  const float deq = ctx.scalar.as<float>();
  const bool clobber = ctx.target == Target::A2A3;
  for (int i = 0; i < d.valid_rows; ++i)
    for (int j = 0; j < d.valid_cols; ++j) {
      const auto sum = std::int32_t(std::uint32_t(*a.ptr<std::int32_t>(i, j)) + std::uint32_t(*b.ptr<std::int32_t>(i, j)));
      float f = float(sum);  // vconv_s322f32: to nearest
      f = f * 0x1p-17f;
      f = f * deq;
      f = f * 0x1p17f;
      const float relu = f > 0.0f ? f : 0.0f;
      *d.ptr<half>(i, j) = half(relu);
      if (clobber) {
        std::memcpy(a.ptr<std::int32_t>(i, j), &f, 4);  // the float's bits in the int32 tile
        std::memcpy(b.ptr<std::int32_t>(i, j), &relu, 4);
        *t.ptr<std::int32_t>(i, j) = 0;
      }
    }
}
inline constexpr BackendKernel kAddDeqRelu{nullptr, add_deq_relu};

}  // namespace pto::cpu::compound
