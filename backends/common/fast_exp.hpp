// A branch-free expf that GCC vectorises (no libm call per element). Range reduction
// x = n*ln2 + r with ln2 split in two parts, exp(r) by the Cephes degree-7 polynomial, and 2^n applied
// as two power-of-two factors so results near FLT_MAX and gradual underflow stay exact in exponent.
// Measured accuracy against std::exp in double: see test_cpu_numerics (max_ulp) and docs/cpu-backend.md.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>

namespace pto::lanes {

inline float fast_expf(float x) {
  constexpr float kLog2e = 1.44269504088896341f;
  constexpr float kLn2Hi = 0.693359375f;     // exact in 8 bits: n * kLn2Hi has no rounding error
  constexpr float kLn2Lo = -2.12194440e-4f;
  float xc = x < -104.0f ? -104.0f : x;  // ternaries, not fmin/fmax: they vectorise without -ffast-math
  xc = xc > 89.0f ? 89.0f : xc;
  const float fn = std::floor(xc * kLog2e + 0.5f);
  const float r = (xc - fn * kLn2Hi) - fn * kLn2Lo;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  const std::int32_t n = static_cast<std::int32_t>(fn);
  const std::int32_t n1 = n / 2, n2 = n - n1;  // each within [-64, 65]: both factors are normal floats
  const float s1 = std::bit_cast<float>((n1 + 127) << 23);
  const float s2 = std::bit_cast<float>((n2 + 127) << 23);
  float y = p * s1 * s2;
  y = x > 88.7228394f ? INFINITY : y;   // beyond FLT_MAX
  y = x < -103.972084f ? 0.0f : y;      // below the smallest subnormal
  return x != x ? x : y;                // NaN in, NaN out
}

}  // namespace pto::lanes
