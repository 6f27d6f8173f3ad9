// Reductions (TROWSUM, TROWMAX, TROWMIN, TCOLSUM, TCOLMAX, TCOLMIN): one entry per instruction, with its
// CPU kernel and, per target, its device path (A2A3 TRowReduceOps / TColReduceOps / TColSum, A5
// TRowReduce / TColReduceOps / TColSum). A5 64-bit forms (Int64Reduce) are planned, and so are TROWPROD,
// TCOLPROD and the index reductions (TROWARGMAX ... TCOLARGMIN) on both targets.
#include <bit>

#include "../a2a3/paths.hpp"
#include "../a5/paths.hpp"
#include "../common/planner.hpp"
#include "../cpu/arg_reduce.hpp"
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

// ---- TROWPROD / TCOLPROD and the index reductions: no device path; priced by what the NPU headers issue.
using I = Intrinsic;
// A2A3 TRowProd.hpp, per row: a counter-mode vector_dup of one block, one counter-mode vmul per block of
// the row (a barrier after each), then the scalar unit's product of the block's lanes after a V->S flag.
void a2a3_row_prod(const ExecContext& c, IntrinsicStream& s) {
  const TileView& src = c.ops[1].tile;
  const std::size_t es = src.elem_bytes(), b = 32 / es;
  plan::A2A3 m(s, es);
  const auto rows = std::uint32_t(src.valid_rows);
  m.count(I::vector_dup, b, rows);
  const std::uint64_t blocks = plan::ceil_div(std::uint64_t(src.valid_cols), b);
  for (std::uint64_t k = 0; k < blocks; ++k) {
    m.count(I::vmul, b, rows);
    s.barrier();
  }
  s.add({.op = I::sync_roundtrip, .calls = rows});
  s.add({.op = I::scalar_elem, .repeats = std::uint32_t(b * rows)});
}
// A5 TRowProd.hpp, per row: a vlds and a vmul per chunk, the halving tree (a vintlv, priced as vsel, and
// a vmul per level), one vsts.
void a5_row_prod(const ExecContext& c, IntrinsicStream& s) {
  const TileView& src = c.ops[1].tile;
  plan::A5 m(s, src.elem_bytes());
  const std::uint64_t chunks = m.iterations_2d(lines_of(src));
  const std::uint64_t levels = std::uint64_t(std::bit_width(256 / src.elem_bytes()) - 1) * std::uint64_t(src.valid_rows);
  m.add(I::vlds, chunks);
  m.alu(I::vmul, chunks + levels);
  m.add(I::vsel, levels);
  m.add(I::vsts, std::uint64_t(src.valid_rows));
}
// A2A3 TColProd.hpp: row 0 copied to dst, then one counter-mode vmul over the row per further row.
void a2a3_col_prod(const ExecContext& c, IntrinsicStream& s) {
  const TileView& src = c.ops[1].tile;
  plan::A2A3 m(s, src.elem_bytes());
  s.add({.op = I::copy_ubuf_to_ubuf, .bytes = plan::ceil_div(std::uint64_t(src.valid_cols) * src.elem_bytes(), 32) * 32ull});
  for (int i = 1; i < src.valid_rows; ++i) {
    m.count(I::vmul, std::uint64_t(src.valid_cols));
    s.barrier();
  }
}
// A5 TColProd.hpp / TColReduceOps.hpp: per 256-byte column chunk, a vlds per row, a vmul per further row,
// one vsts.
void a5_col_prod(const ExecContext& c, IntrinsicStream& s) {
  const TileView& src = c.ops[1].tile;
  plan::A5 m(s, src.elem_bytes());
  const std::uint64_t chunks = plan::ceil_div(std::uint64_t(src.valid_cols) * src.elem_bytes(), 256);
  m.add(I::vloop, chunks);
  m.add(I::vlds, chunks * std::uint64_t(src.valid_rows));
  m.alu(I::vmul, chunks * std::uint64_t(src.valid_rows - 1));
  m.add(I::vsts, chunks);
}
// A2A3 TRowReduceIdxOps.hpp: a vcmax / vcmin (value and index) per repeat of each row, a second level
// over the repeats' results when a row spans more than one, the index arithmetic on the scalar unit.
template <I Cmp>
void a2a3_row_arg(const ExecContext& c, IntrinsicStream& s) {
  const TileView& src = c.ops[1].tile;
  plan::A2A3 m(s, src.elem_bytes());
  const std::size_t epr = 256 / src.elem_bytes();
  const auto rows = std::uint32_t(src.valid_rows);
  if (std::size_t(src.valid_cols) <= epr) {
    m.norm(Cmp, rows, std::uint64_t(src.valid_cols) % epr);
    return;
  }
  m.count(Cmp, std::uint64_t(src.valid_cols), rows);
  s.barrier();
  m.count(Cmp, plan::ceil_div(std::uint64_t(src.valid_cols), epr), rows);
  s.add({.op = I::sync_roundtrip, .calls = rows});
  s.add({.op = I::scalar_elem, .repeats = rows});
}
// A5 TRowReduceIdx.hpp, per chunk of each row: vlds, vcmax / vcmin, the lane split, the offset add, the
// compare and two selects; one store per row.
template <I Cmp>
void a5_row_arg(const ExecContext& c, IntrinsicStream& s) {
  const TileView& src = c.ops[1].tile;
  plan::A5 m(s, src.elem_bytes());
  const std::uint64_t n = m.iterations_2d(lines_of(src));
  m.add(I::vlds, n);
  for (I op : {Cmp, I::vsel, I::vadd, I::vcmp, I::vsel, I::vsel}) m.add(op, n);
  m.add(I::vsts, std::uint64_t(src.valid_rows) * (c.nops > 3 ? 2 : 1));
}
// A2A3 TColReduceIdx.hpp, per column chunk: the counter and index set to 0, row 0 copied, then per
// further row vadds (the counter), vcmp, vsel and vmax / vmin.
template <I Best>
void a2a3_col_arg(const ExecContext& c, IntrinsicStream& s) {
  const TileView& src = c.ops[1].tile;
  plan::A2A3 m(s, src.elem_bytes());
  const auto steps = std::uint32_t(std::max(src.valid_rows - 1, 0));
  const std::uint64_t cols = std::uint64_t(src.valid_cols);
  m.count(I::vector_dup, cols, 2);
  s.add({.op = I::copy_ubuf_to_ubuf, .bytes = plan::ceil_div(cols * src.elem_bytes(), 32) * 32ull});
  for (I op : {I::vadds, I::vcmp, I::vsel, Best}) m.count(op, cols, steps);
  if (src.dtype == DType::F16 && c.nops == 3) m.count(I::vconv, cols, 2);  // int16 -> half -> int32 indices
}
// A5 TColReduceIdx.hpp, per 256-byte column chunk and row: vlds, the index increment, vcmp, two vsel.
void a5_col_arg(const ExecContext& c, IntrinsicStream& s) {
  const TileView& src = c.ops[1].tile;
  plan::A5 m(s, src.elem_bytes());
  const std::uint64_t chunks = plan::ceil_div(std::uint64_t(src.valid_cols) * src.elem_bytes(), 256);
  const std::uint64_t n = chunks * std::uint64_t(src.valid_rows);
  m.add(I::vloop, chunks);
  m.add(I::vlds, n);
  for (I op : {I::vadds, I::vcmp, I::vsel, I::vsel}) m.add(op, n);
  m.add(I::vsts, chunks * (c.nops > 3 ? 2 : 1));
}

constexpr InstrImpl kTable[] = {
    row<Op::TROWSUM, BinOp::Add, a5::kRowReduce>(),
    row<Op::TROWMAX, BinOp::Max, a5::kRowMinMax>(),
    row<Op::TROWMIN, BinOp::Min, a5::kRowMinMax>(),
    {Op::TCOLSUM, kColReduce<BinOp::Add>, {{a2a3::col_sum_path, nullptr}, {a5::col_sum_path, plan::a5::col_reduce64}}},
    col<Op::TCOLMAX, BinOp::Max>(),
    col<Op::TCOLMIN, BinOp::Min>(),
    {Op::TROWPROD, kRowReduce<BinOp::Mul>, {{{}, a2a3_row_prod}, {{}, a5_row_prod}}},
    {Op::TCOLPROD, kColReduce<BinOp::Mul>, {{{}, a2a3_col_prod}, {{}, a5_col_prod}}},
    {Op::TROWARGMAX, cpu::arg::kArgReduce<true, true>, {{{}, a2a3_row_arg<I::vcmax>}, {{}, a5_row_arg<I::vcmax>}}},
    {Op::TROWARGMIN, cpu::arg::kArgReduce<false, true>, {{{}, a2a3_row_arg<I::vcmin>}, {{}, a5_row_arg<I::vcmin>}}},
    {Op::TCOLARGMAX, cpu::arg::kArgReduce<true, false>, {{{}, a2a3_col_arg<I::vmax>}, {{}, a5_col_arg}}},
    {Op::TCOLARGMIN, cpu::arg::kArgReduce<false, false>, {{{}, a2a3_col_arg<I::vmin>}, {{}, a5_col_arg}}},
};
}  // namespace

std::span<const InstrImpl> reduce_instructions() { return kTable; }

}  // namespace pto::backend
