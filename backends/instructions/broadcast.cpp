// The column- and row-broadcast families (TCOLEXPAND*, TROWEXPAND*): one entry per instruction, with
// its CPU kernel and, per target, its device path and the planner for forms no path covers.
#include "../a2a3/paths.hpp"
#include "../a5/paths.hpp"
#include "../common/planner.hpp"
#include "../cpu/broadcast.hpp"
#include "families.hpp"

namespace pto::backend {
namespace {
using device::Fn;
using I = Intrinsic;
using lanes::BinOp;

// dst = full op broadcast row / column. D2 / D5: the dtypes the A2A3 / A5 device paths cover.
template <Op O, BinOp B, Fn F, I In, bool ExpDif, DTypeSet D2, DTypeSet D5, class A5Run = void>
constexpr InstrImpl colexpand() {
  return {O, cpu::bcast::kColExpandOp<B, O>,
          {{a2a3::colexpand_path<F, ExpDif, D2>, plan::a2a3::colexpand<In, ExpDif>},
           {a5::colexpand_path<F, ExpDif, D5>, plan::a5::colexpand<In, ExpDif>}}};
}
template <Op O, BinOp B, Fn F, I In, bool ExpDif, DTypeSet D2, DTypeSet D5>
constexpr InstrImpl rowexpand() {
  return {O, cpu::bcast::kRowExpandOp<B, O>,
          {{a2a3::rowexpand_path<F, ExpDif, D2>, plan::a2a3::rowexpand<In, ExpDif>},
           {a5::rowexpand_path<F, ExpDif, D5>, plan::a5::rowexpand<In, ExpDif>}}};
}

// TCOLEXPANDADD on A5 also runs 64-bit elements (register pairs).
constexpr backend::DevicePath kA5ColExpandAdd =
    a5::path<a5::typed<a5::ColExpandOp<Fn::Add, false>, a5::kEvery, a5::ColExpand64<Fn::Add>>, a5::covers<a5::kEvery>>;

constexpr InstrImpl kTable[] = {
    {Op::TCOLEXPAND, cpu::bcast::kColExpand,
     {{a2a3::path<a2a3::colexpand, a2a3::covers<a2a3::kEvery>, a2a3::overrun_colexpand>, plan::a2a3::colexpand_pure},
      {a5::path<a5::typed<a5::ColExpand, a5::kEvery, a5::ColExpand>, a5::covers<a5::kEvery>>, plan::a5::colexpand_pure}}},
    {Op::TCOLEXPANDADD, cpu::bcast::kColExpandOp<BinOp::Add, Op::TCOLEXPANDADD>,
     {{a2a3::colexpand_path<Fn::Add, false, a2a3::kNumbers>, plan::a2a3::colexpand<I::vadd, false>},
      {kA5ColExpandAdd, plan::a5::colexpand<I::vadd, false>}}},
    colexpand<Op::TCOLEXPANDSUB, BinOp::Sub, Fn::Sub, I::vsub, false, a2a3::kNumbers, a5::kUpTo32>(),
    colexpand<Op::TCOLEXPANDMUL, BinOp::Mul, Fn::Mul, I::vmul, false, a2a3::kNumbers, a5::kUpTo32>(),
    colexpand<Op::TCOLEXPANDDIV, BinOp::Div, Fn::Div, I::vdiv, false, a2a3::kFloats, a5::kUpTo32>(),
    colexpand<Op::TCOLEXPANDMAX, BinOp::Max, Fn::Max, I::vmax, false, a2a3::kNumbers, a5::kUpTo32>(),
    colexpand<Op::TCOLEXPANDMIN, BinOp::Min, Fn::Min, I::vmin, false, a2a3::kNumbers, a5::kUpTo32>(),
    colexpand<Op::TCOLEXPANDEXPDIF, BinOp::ExpDif, Fn::Sub, I::vsub, true, a2a3::kFloats, a5::kFloats>(),

    {Op::TROWEXPAND, cpu::bcast::kRowExpand,
     {{a2a3::path<a2a3::rowexpand_pure, a2a3::covers<a2a3::kUpTo32, true>, a2a3::overrun_rowexpand>, plan::a2a3::rowexpand_pure},
      {a5::path<a5::typed<a5::RowExpand, a5::kEvery, a5::RowExpand>, a5::covers<a5::kEvery, true>>, plan::a5::rowexpand_pure}}},
    rowexpand<Op::TROWEXPANDADD, BinOp::Add, Fn::Add, I::vadd, false, a2a3::kNumbers, a5::kUpTo32>(),
    rowexpand<Op::TROWEXPANDSUB, BinOp::Sub, Fn::Sub, I::vsub, false, a2a3::kNumbers, a5::kUpTo32>(),
    rowexpand<Op::TROWEXPANDMUL, BinOp::Mul, Fn::Mul, I::vmul, false, a2a3::kNumbers, a5::kUpTo32>(),
    rowexpand<Op::TROWEXPANDDIV, BinOp::Div, Fn::Div, I::vdiv, false, a2a3::kFloats, a5::kUpTo32>(),
    rowexpand<Op::TROWEXPANDMAX, BinOp::Max, Fn::Max, I::vmax, false, a2a3::kNumbers, a5::kUpTo32>(),
    rowexpand<Op::TROWEXPANDMIN, BinOp::Min, Fn::Min, I::vmin, false, a2a3::kNumbers, a5::kUpTo32>(),
    rowexpand<Op::TROWEXPANDEXPDIF, BinOp::ExpDif, Fn::Sub, I::vsub, true, a2a3::kFloats, a5::kFloats>(),
};
}  // namespace

std::span<const InstrImpl> broadcast_instructions() { return kTable; }

}  // namespace pto::backend
