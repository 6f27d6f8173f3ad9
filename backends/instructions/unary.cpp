// Element-wise unary instructions (TABS, TRELU, TNOT, TSQRT, TRSQRT, TLOG): one entry per instruction,
// with its CPU kernel and, per target, its device path (A2A3 and A5 TUnaryOp; A5 TRSQRT as vsqrt +
// vdiv). Every form the public functions accept is covered by a device path. TNEG and TRECIP are
// tile-scalar forms (tile_scalar.cpp).
#include "../a2a3/paths.hpp"
#include "../a5/paths.hpp"
#include "../cpu/unary.hpp"
#include "families.hpp"

namespace pto::backend {
namespace {
using lanes::UnOp;
using dtypes::kFloats;
constexpr DTypeSet kAbsA5 = kFloats | DTypeSet{DType::I8, DType::I16, DType::I32};
constexpr DTypeSet kRelu = kFloats | DTypeSet{DType::I32};

template <Op O, UnOp U, DTypeSet A2A3, DTypeSet A5>
constexpr InstrImpl unary() {
  return {O, cpu::unary::kUnary<U>, {{a2a3::unary_path<U, A2A3>, nullptr}, {a5::unary_path<U, A5>, nullptr}}};
}

constexpr InstrImpl kTable[] = {
    unary<Op::TABS, UnOp::Abs, kFloats, kAbsA5>(),
    unary<Op::TRELU, UnOp::Relu, kRelu, kRelu>(),
    {Op::TNOT, cpu::unary::kUnary<UnOp::Not>, {{a2a3::not_path, nullptr}, {a5::unary_path<UnOp::Not, a2a3::kNotTypes>, nullptr}}},
    unary<Op::TSQRT, UnOp::Sqrt, kFloats, kFloats>(),
    unary<Op::TRSQRT, UnOp::Rsqrt, kFloats, kFloats>(),
    unary<Op::TLOG, UnOp::Log, kFloats, kFloats>(),
};
}  // namespace

std::span<const InstrImpl> unary_instructions() { return kTable; }

}  // namespace pto::backend
