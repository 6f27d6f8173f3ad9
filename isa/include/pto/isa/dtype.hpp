// Element types: the C++ names PTO kernels use, and a runtime DType tag the type-erased layers read.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>

#include <pto/isa/bfloat16.hpp>
#include <pto/isa/low_precision.hpp>
// Whether C++ has _Float16 here: the compiler defines __FLT16_MAX__ where C has it, and C++ follows
// on clang (15+ on x86-64) and on g++ for x86 (12) or everywhere (13); g++ 12 on aarch64 has none.
#if defined(__FLT16_MAX__) && !defined(PTO_SOFT_HALF) && \
    (defined(__clang__) || defined(__x86_64__) || defined(__i386__) || __GNUC__ >= 13)
#define PTO_NATIVE_HALF 1
#else
#include <pto/isa/soft_half.hpp>
#endif

#if (defined(__x86_64__) || defined(__i386__)) && !defined(__F16C__)
#error "pto-runtime needs F16C (build with -mf16c or -march=x86-64-v3): without it every half conversion is a library call"
#endif

namespace pto {

// fp16 arithmetic rounds per operation (RNE), as fp16 hardware does. The compiler's _Float16 where C++
// has one on this target (PTO_NATIVE_HALF); else (clang 14 on x86-64, g++ 12 on aarch64) our soft_half,
// which computes the same results. PTO_SOFT_HALF forces soft_half (to test it with g++).
#if defined(PTO_NATIVE_HALF)
using half = _Float16;
#else
using half = soft_half;
#endif
using float16_t = half;
using float32_t = float;

// The arithmetic types first (up to U64), then the 8- and 4-bit storage types TCVT converts.
enum class DType : std::uint8_t { F16, BF16, F32, I8, U8, I16, U16, I32, U32, I64, U64, F8E4M3, F8E5M2, F8E8M0, HF8, F4E2M1, F4E1M2, I4 };
inline constexpr int kNumDTypes = int(DType::I4) + 1;

// A set of dtypes as a bitmask (instruction descriptors' per-target dtype rules, device paths' covers).
struct DTypeSet {
  std::uint32_t bits = 0;
  constexpr DTypeSet() = default;
  constexpr DTypeSet(std::initializer_list<DType> ts) {
    for (DType t : ts) bits |= 1u << unsigned(t);
  }
  constexpr bool has(DType t) const { return (bits >> unsigned(t)) & 1u; }
  constexpr bool empty() const { return bits == 0; }
  constexpr DTypeSet operator|(DTypeSet o) const { return from_bits(bits | o.bits); }
  constexpr DTypeSet operator&(DTypeSet o) const { return from_bits(bits & o.bits); }
  constexpr bool operator==(const DTypeSet&) const = default;
  static constexpr DTypeSet from_bits(std::uint32_t b) {
    DTypeSet s;
    s.bits = b;
    return s;
  }
};

template <class T> struct dtype_of;  // primary left undefined: an unsupported element type does not compile
template <> struct dtype_of<half> { static constexpr DType value = DType::F16; };
template <> struct dtype_of<bfloat16_t> { static constexpr DType value = DType::BF16; };
template <> struct dtype_of<float> { static constexpr DType value = DType::F32; };
template <> struct dtype_of<std::int8_t> { static constexpr DType value = DType::I8; };
template <> struct dtype_of<std::uint8_t> { static constexpr DType value = DType::U8; };
template <> struct dtype_of<std::int16_t> { static constexpr DType value = DType::I16; };
template <> struct dtype_of<std::uint16_t> { static constexpr DType value = DType::U16; };
template <> struct dtype_of<std::int32_t> { static constexpr DType value = DType::I32; };
template <> struct dtype_of<std::uint32_t> { static constexpr DType value = DType::U32; };
template <> struct dtype_of<std::int64_t> { static constexpr DType value = DType::I64; };
template <> struct dtype_of<std::uint64_t> { static constexpr DType value = DType::U64; };
template <> struct dtype_of<float8_e4m3_t> { static constexpr DType value = DType::F8E4M3; };
template <> struct dtype_of<float8_e5m2_t> { static constexpr DType value = DType::F8E5M2; };
template <> struct dtype_of<float8_e8m0_t> { static constexpr DType value = DType::F8E8M0; };
template <> struct dtype_of<hifloat8_t> { static constexpr DType value = DType::HF8; };
template <> struct dtype_of<float4_e2m1x2_t> { static constexpr DType value = DType::F4E2M1; };
template <> struct dtype_of<float4_e1m2x2_t> { static constexpr DType value = DType::F4E1M2; };
template <> struct dtype_of<int4b_t> { static constexpr DType value = DType::I4; };

template <class T>
concept ElementType = requires { dtype_of<std::remove_cv_t<T>>::value; };

template <class T> inline constexpr DType dtype_v = dtype_of<std::remove_cv_t<T>>::value;

constexpr std::size_t size_of(DType t) {
  switch (t) {
    case DType::I8: case DType::U8: return 1;
    case DType::F8E4M3: case DType::F8E5M2: case DType::F8E8M0: case DType::HF8: return 1;
    case DType::F4E2M1: case DType::F4E1M2: case DType::I4: return 1;  // a byte per element in a tile's shape; data packed two per byte
    case DType::F16: case DType::BF16: case DType::I16: case DType::U16: return 2;
    case DType::F32: case DType::I32: case DType::U32: return 4;
    case DType::I64: case DType::U64: return 8;
  }
  return 0;
}

constexpr const char* name_of(DType t) {
  switch (t) {
    case DType::F16: return "half";
    case DType::BF16: return "bfloat16";
    case DType::F32: return "float";
    case DType::I8: return "int8";
    case DType::U8: return "uint8";
    case DType::I16: return "int16";
    case DType::U16: return "uint16";
    case DType::I32: return "int32";
    case DType::U32: return "uint32";
    case DType::I64: return "int64";
    case DType::U64: return "uint64";
    case DType::F8E4M3: return "float8_e4m3";
    case DType::F8E5M2: return "float8_e5m2";
    case DType::F8E8M0: return "float8_e8m0";
    case DType::HF8: return "hifloat8";
    case DType::F4E2M1: return "float4_e2m1x2";
    case DType::F4E1M2: return "float4_e1m2x2";
    case DType::I4: return "int4b";
  }
  return "?";
}

constexpr bool is_float(DType t) { return t == DType::F16 || t == DType::BF16 || t == DType::F32; }
// The 4-bit types: two elements per byte (element 2k in the low nibble), a row's data in ceil(n / 2) bytes.
constexpr bool is_packed4(DType t) { return t == DType::F4E2M1 || t == DType::F4E1M2 || t == DType::I4; }
// Elements in one 32-byte block (a fractal line's C0): 64 for the 4-bit types.
constexpr int block_elems(DType t) { return is_packed4(t) ? 64 : int(32 / size_of(t)); }
template <class T> inline constexpr int kBlockElems = block_elems(dtype_v<T>);
constexpr bool is_narrow(DType t) { return int(t) > int(DType::U64); }  // the 8- and 4-bit storage types
// The narrow float format behind a narrow float DType.
constexpr numeric::Narrow narrow_of(DType t) {
  switch (t) {
    case DType::F8E5M2: return numeric::Narrow::E5M2;
    case DType::F8E8M0: return numeric::Narrow::E8M0;
    case DType::HF8: return numeric::Narrow::HiF8;
    case DType::F4E2M1: return numeric::Narrow::E2M1;
    case DType::F4E1M2: return numeric::Narrow::E1M2;
    default: return numeric::Narrow::E4M3;
  }
}

// Calls f(T{}) with the C++ type behind a runtime DType tag: the one switch type-erased kernels need.
// The narrow types come as their storage byte (std::uint8_t): only data movement and TCVT reach them,
// and TCVT reads their encodings itself.
template <class F>
decltype(auto) visit_dtype(DType t, F&& f) {
  switch (t) {
    case DType::F16: return f(half{});
    case DType::BF16: return f(bfloat16_t{});
    case DType::F32: return f(float{});
    case DType::I8: return f(std::int8_t{});
    case DType::U8: return f(std::uint8_t{});
    case DType::I16: return f(std::int16_t{});
    case DType::U16: return f(std::uint16_t{});
    case DType::I32: return f(std::int32_t{});
    case DType::U32: return f(std::uint32_t{});
    case DType::I64: return f(std::int64_t{});
    case DType::U64: return f(std::uint64_t{});
    case DType::F8E4M3: case DType::F8E5M2: case DType::F8E8M0: case DType::HF8:
    case DType::F4E2M1: case DType::F4E1M2: case DType::I4: return f(std::uint8_t{});
  }
  return f(float{});
}

}  // namespace pto

// The element types at global scope too, as the device compilers (and pto-isa's CPU simulator for the 8-
// and 4-bit floats) declare them: kernels spell `half` and `float8_e4m3_t` without `pto::`. The same
// types as pto::'s, so `using namespace pto;` is not ambiguous. (int4b_t stays in pto, as pto-isa has it.)
using half = pto::half;
using bfloat16_t = pto::bfloat16_t;
using float8_e4m3_t = pto::float8_e4m3_t;
using float8_e5m2_t = pto::float8_e5m2_t;
using float8_e8m0_t = pto::float8_e8m0_t;
using hifloat8_t = pto::hifloat8_t;
using float4_e2m1x2_t = pto::float4_e2m1x2_t;
using float4_e1m2x2_t = pto::float4_e1m2x2_t;

// Host-side half type of the CANN runtime (acl). Same bits as half.
using aclFloat16 = half;
inline float aclFloat16ToFloat(aclFloat16 v) { return static_cast<float>(v); }
inline aclFloat16 aclFloatToFloat16(float v) { return static_cast<aclFloat16>(v); }
