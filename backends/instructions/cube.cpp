// The cube: the MTE1 moves into L0A / L0B and the bias table, the mad on M, the fixpipe's store of L0C
// to GM. CPU kernels only (backends/cpu/cube.hpp): the pipeline model prices the moves by bytes and
// the mad by its fractal count (runtime/src/cost_model.cpp).
#include "../cpu/cube.hpp"
#include "families.hpp"

namespace pto::backend {
namespace {
constexpr InstrImpl kTable[] = {
    {Op::TEXTRACT_M2LR, cpu::cube::kL0Copy, {}},
    {Op::TMOV_M2L, cpu::cube::kL0Copy, {}},
    {Op::TMOV_M2R, cpu::cube::kL0Copy, {}},
    {Op::TMOV_M2B, cpu::cube::kBiasMove, {}},
    {Op::TMATMUL, cpu::cube::kMad, {}},
    {Op::TMATMUL_ACC, cpu::cube::kMad, {}},
    {Op::TMATMUL_BIAS, cpu::cube::kMad, {}},
    {Op::TGEMV, cpu::cube::kMad, {}},
    {Op::TGEMV_ACC, cpu::cube::kMad, {}},
    {Op::TGEMV_BIAS, cpu::cube::kMad, {}},
    {Op::TMATMUL_MX, cpu::cube::kMad, {}},
    {Op::TMATMUL_MX_ACC, cpu::cube::kMad, {}},
    {Op::TMATMUL_MX_BIAS, cpu::cube::kMad, {}},
    {Op::TGEMV_MX, cpu::cube::kMad, {}},
    {Op::TGEMV_MX_ACC, cpu::cube::kMad, {}},
    {Op::TGEMV_MX_BIAS, cpu::cube::kMad, {}},
    {Op::TMOV_M2S, cpu::cube::kWordsMove, {}},
    {Op::TSTORE_ACC, cpu::cube::kStoreAcc, {}},
    {Op::TSTORE_ACC_FP, cpu::cube::kStoreAcc, {}},
    {Op::TMOV_A2M, cpu::cube::kMoveAcc, {}},
    {Op::TMOV_A2M_FP, cpu::cube::kMoveAcc, {}},
    {Op::TEXTRACT_A2M, cpu::cube::kMoveAcc, {}},
    {Op::TEXTRACT_A2M_FP, cpu::cube::kMoveAcc, {}},
    {Op::TINSERT_A2M, cpu::cube::kMoveAcc, {}},
    {Op::TINSERT_A2M_FP, cpu::cube::kMoveAcc, {}},
    {Op::TFILLPAD_MAT, cpu::cube::kFillPadMat, {}},
};
}  // namespace

std::span<const InstrImpl> cube_instructions() { return kTable; }

}  // namespace pto::backend
