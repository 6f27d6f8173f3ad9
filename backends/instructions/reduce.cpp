// Reductions (TROWSUM, TROWMAX, TROWMIN, TCOLSUM, TCOLMAX, TCOLMIN): one entry per instruction, with its
// CPU kernel and, per target, its device path (A2A3 TRowReduceOps / TColReduceOps / TColSum, A5
// TRowReduce / TColReduceOps / TColSum). A5 64-bit forms (Int64Reduce) are planned.
#include "../a2a3/paths.hpp"
#include "../a5/paths.hpp"
#include "../common/planner.hpp"
#include "../cpu/reduce.hpp"
#include "families.hpp"

namespace pto::backend {
namespace {
using lanes::BinOp;
using cpu::reduce::kColReduce;
using cpu::reduce::kRowReduce;

template <Op O, BinOp B, DTypeSet A5Lanes>
constexpr InstrImpl row() {
  return {O, kRowReduce<B>, {{a2a3::row_reduce_path<B>, nullptr}, {a5::row_reduce_path<B, A5Lanes>, plan::a5::row_reduce64}}};
}
template <Op O, BinOp B>
constexpr InstrImpl col() {
  return {O, kColReduce<B>, {{a2a3::col_reduce_path<B>, nullptr}, {a5::col_reduce_path<B>, plan::a5::col_reduce64}}};
}

constexpr InstrImpl kTable[] = {
    row<Op::TROWSUM, BinOp::Add, a5::kRowReduce>(),
    row<Op::TROWMAX, BinOp::Max, a5::kRowMinMax>(),
    row<Op::TROWMIN, BinOp::Min, a5::kRowMinMax>(),
    {Op::TCOLSUM, kColReduce<BinOp::Add>, {{a2a3::col_sum_path, nullptr}, {a5::col_sum_path, plan::a5::col_reduce64}}},
    col<Op::TCOLMAX, BinOp::Max>(),
    col<Op::TCOLMIN, BinOp::Min>(),
};
}  // namespace

std::span<const InstrImpl> reduce_instructions() { return kTable; }

}  // namespace pto::backend
