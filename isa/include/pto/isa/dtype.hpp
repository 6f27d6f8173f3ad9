// Element types: the C++ names PTO kernels use, and a runtime DType tag the type-erased layers read.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>

#include <pto/isa/bfloat16.hpp>

#if !defined(__F16C__)
#error "pto-runtime needs F16C (build with -mf16c or -march=x86-64-v3): without it every half conversion is a library call"
#endif

namespace pto {

using half = _Float16;       // fp16 arithmetic rounds per operation (RNE), as fp16 hardware does
using float16_t = _Float16;
using float32_t = float;

enum class DType : std::uint8_t { F16, BF16, F32, I8, U8, I16, U16, I32, U32, I64, U64 };

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
template <> struct dtype_of<_Float16> { static constexpr DType value = DType::F16; };
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

template <class T>
concept ElementType = requires { dtype_of<std::remove_cv_t<T>>::value; };

template <class T> inline constexpr DType dtype_v = dtype_of<std::remove_cv_t<T>>::value;

constexpr std::size_t size_of(DType t) {
  switch (t) {
    case DType::I8: case DType::U8: return 1;
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
  }
  return "?";
}

constexpr bool is_float(DType t) { return t == DType::F16 || t == DType::BF16 || t == DType::F32; }

// Calls f(T{}) with the C++ type behind a runtime DType tag: the one switch type-erased kernels need.
template <class F>
decltype(auto) visit_dtype(DType t, F&& f) {
  switch (t) {
    case DType::F16: return f(_Float16{});
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
  }
  return f(float{});
}

}  // namespace pto

// Host-side half type of the CANN runtime (acl). Same bits as half.
using aclFloat16 = _Float16;
inline float aclFloat16ToFloat(aclFloat16 v) { return static_cast<float>(v); }
inline aclFloat16 aclFloatToFloat16(float v) { return static_cast<aclFloat16>(v); }
