// Runtime rules of TAXPY, TEXP, the tile-scalar family and the TCOLEXPAND*/TROWEXPAND* families: each
// raises pto::Error whose message names the instruction, the operand and the rule (spec §2.1-§2.5).
// Kernels run through pto::launch on one core of the target the rule belongs to.
#define BOOST_TEST_MODULE errors_families
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>


#include <pto/pto-inst.hpp>

#include "scalar_ops.hpp"

using namespace pto;
using pto_test::issue;
using pto_test::ScalarOp;

namespace {

void check_fragments(const std::string& m, std::initializer_list<const char*> fragments) {
  BOOST_TEST_MESSAGE(m);
  for (const char* frag : fragments) BOOST_TEST(m.find(frag) != std::string::npos, "'" << frag << "' not in: " << m);
}

// Runs `f` and checks that it throws pto::Error whose message contains every fragment.
template <class F>
void expect_error(F&& f, std::initializer_list<const char*> fragments) {
  try {
    f();
  } catch (const Error& e) {
    check_fragments(e.what(), fragments);
    return;
  }
  BOOST_ERROR("no pto::Error was thrown");
}


template <class K>
void run(Target target, K kernel) {
  launch({.blocks = 1, .target = target}, kernel);
}
template <class K>
void expect_kernel_error(Target target, K kernel, std::initializer_list<const char*> fragments) {
  expect_error([&] { run(target, kernel); }, fragments);
}
template <class K>
void expect_ok(Target target, K kernel) {
  BOOST_CHECK_NO_THROW(run(target, kernel));
}

template <class T, int R, int C, BLayout L = BLayout::RowMajor>
using VT = Tile<TileType::Vec, T, R, C, L, -1, -1>;

// TASSIGNs the tiles one after another from UB 0.
template <class... Ts>
void place(Ts&... tiles) {
  std::size_t at = 0;
  ((TASSIGN(tiles, at), at += Ts::GetSizeInBytes()), ...);
}

// TLOADs a tile's valid region from a host matrix laid out like the tile (element (r, c) at
// GetTileOffset(r, c)); call to_vector() before the vector instruction.
template <class TileT>
void load(TileT& t, typename TileT::DType* host) {
  using T = typename TileT::DType;
  if constexpr (TileT::isRowMajor) {
    GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, -1, 1>> g(host, {t.GetValidRow(), t.GetValidCol()}, {TileT::Cols});
    TLOAD(t, g);
  } else {
    GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, 1, -1>, Layout::DN> g(host, {t.GetValidRow(), t.GetValidCol()},
                                                                                       {TileT::Rows});
    TLOAD(t, g);
  }
}
void to_vector() {
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
}
// A host matrix of TileT's capacity filled with `fill`, with element (r, c) set to `at`.
template <class TileT>
std::vector<typename TileT::DType> matrix(typename TileT::DType fill, int r = -1, int c = -1, typename TileT::DType at = {}) {
  std::vector<typename TileT::DType> m(std::size_t(TileT::Numel), fill);
  if (r >= 0) m[std::size_t(TileT::GetTileOffset(r, c))] = at;
  return m;
}

// A 16 x (64 bytes) tile-scalar op of element type T on one core of `target`.
template <class T>
auto tile_scalar_kernel(ScalarOp op) {
  return [op] {
    VT<T, 16, 64> dst(16, 64), src(16, 64);
    place(dst, src);
    issue(op, dst, src, T(1));
  };
}

constexpr Target A2A3 = Target::A2A3, A5 = Target::A5;

}  // namespace

// =================================================================================================
// dtype rules (spec §2.1, §2.2, §2.5 tables): the message names the targets that do support the dtype
// =================================================================================================
BOOST_AUTO_TEST_CASE(tile_scalar_dtypes_of_a5_only) {
  struct Case {
    ScalarOp op;
    const char* name;
  };
  for (Case c : {Case{ScalarOp::Adds, "TADDS"}, Case{ScalarOp::Subs, "TSUBS"}, Case{ScalarOp::Maxs, "TMAXS"},
                 Case{ScalarOp::Mins, "TMINS"}}) {
    const std::string head = std::string(c.name) + ": operand dst dtype uint8 is not supported on A2A3";
    expect_kernel_error(A2A3, tile_scalar_kernel<std::uint8_t>(c.op),
                        {head.c_str(), "allowed there: half, float, int16, int32", "supported on: A5"});
    expect_ok(A5, tile_scalar_kernel<std::uint8_t>(c.op));
  }
  expect_kernel_error(A2A3, tile_scalar_kernel<std::uint16_t>(ScalarOp::Muls),
                      {"TMULS: operand dst dtype uint16 is not supported on A2A3", "supported on: A5"});
  expect_kernel_error(A2A3, tile_scalar_kernel<std::uint32_t>(ScalarOp::DivsRev),
                      {"TDIVS: operand dst dtype uint32 is not supported on A2A3", "supported on: A5"});
  expect_kernel_error(A2A3, tile_scalar_kernel<std::int64_t>(ScalarOp::Adds),
                      {"TADDS: operand dst dtype int64 is not supported on A2A3", "supported on: A5"});
  expect_kernel_error(A2A3, tile_scalar_kernel<bfloat16_t>(ScalarOp::Maxs),
                      {"TMAXS: operand dst dtype bfloat16 is not supported on A2A3", "supported on: A5"});
}

BOOST_AUTO_TEST_CASE(tile_scalar_dtypes_no_target_supports) {
  expect_kernel_error(A5, tile_scalar_kernel<std::int8_t>(ScalarOp::Muls),
                      {"TMULS: operand dst dtype int8 is not supported on A5", "no target supports it"});
  expect_kernel_error(A5, tile_scalar_kernel<bfloat16_t>(ScalarOp::Divs),
                      {"TDIVS: operand dst dtype bfloat16 is not supported on A5", "no target supports it"});
  expect_kernel_error(A5, tile_scalar_kernel<std::uint8_t>(ScalarOp::DivsRev),
                      {"TDIVS: operand dst dtype uint8 is not supported on A5", "no target supports it"});
}

BOOST_AUTO_TEST_CASE(broadcast_dtypes) {
  auto col = []<class T, Op O>() {
    return [] {
      VT<T, 16, 64> dst(16, 64), src0(16, 64);
      VT<T, 1, 64> src1(1, 64);
      place(dst, src0, src1);
      if constexpr (O == Op::TCOLEXPANDDIV) TCOLEXPANDDIV(dst, src0, src1);
      else if constexpr (O == Op::TCOLEXPANDADD) TCOLEXPANDADD(dst, src0, src1);
      else if constexpr (O == Op::TCOLEXPANDSUB) TCOLEXPANDSUB(dst, src0, src1);
      else TCOLEXPANDEXPDIF(dst, src0, src1);
    };
  };
  auto row = []<class T, Op O>() {
    return [] {
      VT<T, 16, 64> dst(16, 64), src0(16, 64);
      VT<T, 16, int(32 / sizeof(T))> src1(16, int(32 / sizeof(T)));  // mode 2: no A2A3 scratch involved
      place(dst, src0, src1);
      if constexpr (O == Op::TROWEXPANDDIV) TROWEXPANDDIV(dst, src0, src1);
      else if constexpr (O == Op::TROWEXPANDMUL) TROWEXPANDMUL(dst, src0, src1);
      else TROWEXPANDEXPDIF(dst, src0, src1);
    };
  };
  expect_kernel_error(A2A3, col.template operator()<std::int32_t, Op::TCOLEXPANDDIV>(),
                      {"TCOLEXPANDDIV: operand dst dtype int32 is not supported on A2A3", "allowed there: half, float",
                       "supported on: A5"});
  expect_kernel_error(A2A3, row.template operator()<std::int16_t, Op::TROWEXPANDDIV>(),
                      {"TROWEXPANDDIV: operand dst dtype int16 is not supported on A2A3", "supported on: A5"});
  expect_kernel_error(A2A3, col.template operator()<std::uint8_t, Op::TCOLEXPANDADD>(),
                      {"TCOLEXPANDADD: operand dst dtype uint8 is not supported on A2A3", "supported on: A5"});
  expect_kernel_error(A2A3, row.template operator()<std::uint32_t, Op::TROWEXPANDMUL>(),
                      {"TROWEXPANDMUL: operand dst dtype uint32 is not supported on A2A3", "supported on: A5"});
  // 64-bit: TCOLEXPANDADD only, and only on A5 (project policy, spec §6 item 1).
  expect_kernel_error(A2A3, col.template operator()<std::int64_t, Op::TCOLEXPANDADD>(),
                      {"TCOLEXPANDADD: operand dst dtype int64 is not supported on A2A3", "supported on: A5"});
  expect_ok(A5, col.template operator()<std::uint64_t, Op::TCOLEXPANDADD>());
  expect_kernel_error(A5, col.template operator()<std::int64_t, Op::TCOLEXPANDSUB>(),
                      {"TCOLEXPANDSUB: operand dst dtype int64 is not supported on A5", "no target supports it"});
  // EXPDIF: half and float only, everywhere.
  expect_kernel_error(A5, row.template operator()<std::int32_t, Op::TROWEXPANDEXPDIF>(),
                      {"TROWEXPANDEXPDIF: operand dst dtype int32 is not supported on A5", "allowed there: half, float",
                       "no target supports it"});
  expect_kernel_error(A2A3, col.template operator()<std::int16_t, Op::TCOLEXPANDEXPDIF>(),
                      {"TCOLEXPANDEXPDIF: operand dst dtype int16 is not supported on A2A3", "no target supports it"});
}

BOOST_AUTO_TEST_CASE(pure_broadcasts_of_64_bit_elements_are_a5_only) {
  auto col = [] {
    VT<std::int64_t, 8, 8> dst(8, 8), src(1, 8);
    place(dst, src);
    TCOLEXPAND(dst, src);
  };
  auto row = [] {
    VT<std::uint64_t, 8, 8> dst(8, 8);
    VT<std::uint64_t, 8, 1, BLayout::ColMajor> src(8, 1);
    place(dst, src);
    TROWEXPAND(dst, src);
  };
  expect_kernel_error(A2A3, col, {"TCOLEXPAND: operand dst dtype int64 is not supported on A2A3",
                                  "allowed there: 1-, 2- and 4-byte elements; supported on: A5"});
  expect_kernel_error(A2A3, row, {"TROWEXPAND: operand dst dtype uint64 is not supported on A2A3", "supported on: A5"});
  expect_ok(A5, col);
  expect_ok(A5, row);
}

// =================================================================================================
// valid shapes of the element-wise instructions
// =================================================================================================
BOOST_AUTO_TEST_CASE(tile_scalar_valid_shape_mismatch) {
  auto kernel = [](ScalarOp op) {
    return [op] {
      VT<float, 16, 16> dst(16, 16), src(8, 16);
      place(dst, src);
      issue(op, dst, src, 2.0f);
    };
  };
  expect_kernel_error(A2A3, kernel(ScalarOp::Adds),
                      {"TADDS: operand src0 Tile<Vec,float,16,16> valid 8x16 must have the same valid shape as operand "
                       "dst Tile<Vec,float,16,16> valid 16x16"});
  expect_kernel_error(A2A3, kernel(ScalarOp::Subs), {"TSUBS: operand src0", "must have the same valid shape"});
  expect_kernel_error(A5, kernel(ScalarOp::Muls), {"TMULS: operand src0", "must have the same valid shape"});
  expect_kernel_error(A2A3, kernel(ScalarOp::Divs), {"TDIVS: operand src0", "must have the same valid shape"});
  expect_kernel_error(A5, kernel(ScalarOp::DivsRev), {"TDIVS: operand src0", "must have the same valid shape"});
  expect_kernel_error(A2A3, kernel(ScalarOp::Maxs), {"TMAXS: operand src ", "valid 8x16", "must have the same valid shape"});
  expect_kernel_error(A5, kernel(ScalarOp::Mins), {"TMINS: operand src ", "valid 8x16", "must have the same valid shape"});
}

BOOST_AUTO_TEST_CASE(taxpy_valid_shape_mismatch) {
  auto kernel = [] {
    VT<float, 16, 16> dst(16, 16);
    VT<half, 16, 16> src(16, 15);
    place(dst, src);
    TAXPY(dst, src, half(2.0f));
  };
  for (Target t : {A2A3, A5})
    expect_kernel_error(t, kernel,
                        {"TAXPY: operand src0 Tile<Vec,half,16,16> valid 16x15 must have the same valid shape as "
                         "operand dst Tile<Vec,float,16,16> valid 16x16"});
}

BOOST_AUTO_TEST_CASE(texp_valid_shape_mismatch) {
  auto kernel = [] {
    VT<half, 16, 32> dst(4, 32), src(5, 32);
    place(dst, src);
    TEXP(dst, src);
  };
  for (Target t : {A2A3, A5})
    expect_kernel_error(t, kernel, {"TEXP: operand src Tile<Vec,half,16,32> valid 5x32 must have the same valid shape as "
                                    "operand dst Tile<Vec,half,16,32> valid 4x32"});
}

// =================================================================================================
// TCOLEXPAND* / TROWEXPAND*: role selection and the broadcast operand (spec §2.1, §2.2)
// =================================================================================================
BOOST_AUTO_TEST_CASE(colexpand_needs_a_full_operand) {
  auto kernel = [] {
    VT<float, 16, 16> dst(16, 16), src0(8, 16);
    VT<float, 1, 16> src1(1, 16);
    place(dst, src0, src1);
    TCOLEXPANDADD(dst, src0, src1);
  };
  for (Target t : {A2A3, A5})
    expect_kernel_error(t, kernel,
                        {"TCOLEXPANDADD: neither operand src0 Tile<Vec,float,16,16> valid 8x16 nor operand src1 "
                         "Tile<Vec,float,1,16> valid 1x16 has dst's valid shape 16x16",
                         "one of them must be the full operand"});
}

BOOST_AUTO_TEST_CASE(rowexpand_needs_a_rowmajor_full_operand) {
  auto no_match = [] {
    VT<float, 16, 16> dst(16, 16), src0(16, 8);
    VT<float, 16, 1, BLayout::ColMajor> src1(16, 1);
    place(dst, src0, src1);
    TROWEXPANDSUB(dst, src0, src1);
  };
  auto colmajor_full = [] {  // src0 has dst's valid shape but is ColMajor: it cannot be the full operand
    VT<half, 16, 16> dst(16, 16);
    VT<half, 16, 16, BLayout::ColMajor> src0(16, 16);
    VT<half, 16, 1, BLayout::ColMajor> src1(16, 1);
    place(dst, src0, src1);
    TROWEXPANDMUL(dst, src0, src1);
  };
  for (Target t : {A2A3, A5}) {
    expect_kernel_error(t, no_match,
                        {"TROWEXPANDSUB: neither operand src0 Tile<Vec,float,16,16> valid 16x8 nor operand src1",
                         "is a RowMajor tile with dst's valid shape 16x16"});
    expect_kernel_error(t, colmajor_full,
                        {"TROWEXPANDMUL: neither operand src0 Tile<Vec,half,16,16,ColMajor> valid 16x16",
                         "is a RowMajor tile with dst's valid shape 16x16"});
  }
}

BOOST_AUTO_TEST_CASE(colexpand_vector_operand_needs_every_column) {
  auto short_src1 = [] {
    VT<float, 16, 16> dst(16, 16), src0(16, 16);
    VT<float, 1, 16> src1(1, 8);
    place(dst, src0, src1);
    TCOLEXPANDMUL(dst, src0, src1);
  };
  auto short_src0 = [] {  // src1 is the full operand, so src0 is the per-column vector
    VT<float, 16, 16> dst(16, 16), src1(16, 16);
    VT<float, 1, 16> src0(1, 12);
    place(dst, src0, src1);
    TCOLEXPANDSUB(dst, src0, src1);
  };
  auto no_row = [] {
    VT<half, 16, 16> dst(16, 16), src0(16, 16);
    VT<half, 1, 16> src1(0, 16);
    place(dst, src0, src1);
    TCOLEXPANDMAX(dst, src0, src1);
  };
  for (Target t : {A2A3, A5}) {
    expect_kernel_error(t, short_src1, {"TCOLEXPANDMUL: operand src1 Tile<Vec,float,1,16> valid 1x8",
                                        "must provide one value per column of dst (16 columns in row 0)"});
    expect_kernel_error(t, short_src0, {"TCOLEXPANDSUB: operand src0 Tile<Vec,float,1,16> valid 1x12",
                                        "must provide one value per column of dst (16 columns in row 0)"});
    expect_kernel_error(t, no_row, {"TCOLEXPANDMAX: operand src1", "valid 0x16", "must provide one value per column"});
  }
}

BOOST_AUTO_TEST_CASE(rowexpand_expand_operand_shape) {
  auto two_cols = [] {  // mode 1 (ColMajor) needs exactly one column
    VT<float, 16, 16> dst(16, 16), src0(16, 16);
    VT<float, 16, 8, BLayout::ColMajor> src1(16, 2);
    place(dst, src0, src1);
    TROWEXPANDADD(dst, src0, src1);
  };
  auto half_block = [] {  // mode 2 (RowMajor) needs one 32-byte block: 8 floats
    VT<float, 16, 16> dst(16, 16), src0(16, 16);
    VT<float, 16, 8> src1(16, 4);
    place(dst, src0, src1);
    TROWEXPANDMAX(dst, src0, src1);
  };
  auto half_block16 = [] {  // ... 16 halves
    VT<half, 16, 32> dst(16, 32), src0(16, 32);
    VT<half, 16, 16> src1(16, 8);
    place(dst, src0, src1);
    TROWEXPANDMIN(dst, src0, src1);
  };
  auto rows_short = [] {
    VT<float, 16, 16> dst(16, 16), src0(16, 16);
    VT<float, 16, 1, BLayout::ColMajor> src1(15, 1);
    place(dst, src0, src1);
    TROWEXPANDDIV(dst, src0, src1);
  };
  auto swapped = [] {  // src1 is the full operand: src0 is the expand operand
    VT<float, 16, 16> dst(16, 16), src1(16, 16);
    VT<float, 16, 8, BLayout::ColMajor> src0(16, 3);
    place(dst, src0, src1);
    TROWEXPANDSUB(dst, src0, src1);
  };
  for (Target t : {A2A3, A5}) {
    expect_kernel_error(t, two_cols, {"TROWEXPANDADD: operand src1 Tile<Vec,float,16,8,ColMajor> valid 16x2 is the expand "
                                      "operand; it needs 16 valid rows and one value per row (ColMajor, valid cols 1)"});
    expect_kernel_error(t, half_block, {"TROWEXPANDMAX: operand src1 Tile<Vec,float,16,8> valid 16x4 is the expand operand",
                                        "one 32-byte block per row (valid cols 8)"});
    expect_kernel_error(t, half_block16, {"TROWEXPANDMIN: operand src1", "one 32-byte block per row (valid cols 16)"});
    expect_kernel_error(t, rows_short, {"TROWEXPANDDIV: operand src1", "valid 15x1", "needs 16 valid rows"});
    expect_kernel_error(t, swapped, {"TROWEXPANDSUB: operand src0", "valid 16x3 is the expand operand"});
  }
}

BOOST_AUTO_TEST_CASE(rowexpand_tmp_form_on_a2a3_needs_a_colmajor_expand_operand) {
  auto kernel = [] {
    VT<float, 16, 16> dst(16, 16), src0(16, 16);
    VT<float, 16, 8> src1(16, 8);  // mode 2
    VT<float, 16, 8> tmp(16, 8);
    place(dst, src0, src1, tmp);
    TROWEXPANDMAX(dst, src0, src1, tmp);
  };
  expect_kernel_error(A2A3, kernel, {"TROWEXPANDMAX: operand src1 Tile<Vec,float,16,8> valid 16x8",
                                     "the tmp-tile form on A2A3 needs a ColMajor (mode 1) expand operand"});
  expect_ok(A5, kernel);  // A5 ignores tmp
}

BOOST_AUTO_TEST_CASE(rowexpand_tmp_bytes_must_fit_in_ub_on_a2a3) {
  // Only the tmp tile's address matters (spec §2.2; the reference tests pass an E-shaped tmp): from it
  // the chip writes ceil(R / 8) * 256 bytes below 256 rows, 7680 bytes from 256 on. They must fit in UB.
  auto kernel = []<int R, class TmpT>(std::size_t tmp_at) {
    return [tmp_at] {
      VT<float, R, 8> dst(R, 8), src0(R, 8);
      VT<float, R, 1, BLayout::ColMajor> src1(R, 1);
      TmpT tmp;
      place(dst, src0, src1);
      TASSIGN(tmp, tmp_at);
      TROWEXPANDADD(dst, src0, src1, tmp);
    };
  };
  using Small = Tile<TileType::Vec, float, 8, 1, BLayout::ColMajor>;  // 32 bytes
  expect_ok(A2A3, kernel.template operator()<16, Small>(0x10000));     // 512 bytes written from 64 KiB
  expect_kernel_error(A2A3, kernel.template operator()<16, Small>(192 * 1024 - 256),
                      {"TROWEXPANDADD: operand tmp", "A2A3 writes 512 bytes of vbrcb scratch", "beyond the 192 KiB UB"});
  expect_kernel_error(A2A3, kernel.template operator()<304, Small>(192 * 1024 - 7424),
                      {"TROWEXPANDADD: operand tmp", "writes 7680 bytes", "(304 rows)"});
  expect_ok(A5, kernel.template operator()<16, Small>(256 * 1024 - 32));  // A5 ignores tmp
}

BOOST_AUTO_TEST_CASE(rowexpand_tmp_without_an_address) {
  auto kernel = [] {
    VT<float, 16, 16> dst(16, 16), src0(16, 16);
    VT<float, 16, 1, BLayout::ColMajor> src1(16, 1);
    Tile<TileType::Vec, float, 16, 8> tmp;
    place(dst, src0, src1);
    TROWEXPANDSUB(dst, src0, src1, tmp);
  };
  expect_kernel_error(A2A3, kernel, {"TROWEXPANDSUB: operand tmp", "no buffer address; call TASSIGN first"});
}

BOOST_AUTO_TEST_CASE(rowexpand_a2a3_scratch_must_stay_free) {
  // The 3-argument mode-1 form uses UB [184 KiB, 192 KiB) as vbrcb scratch on A2A3 (spec §2.2, §6 item 9).
  using Full = VT<float, 16, 16>;
  using Col = VT<float, 16, 1, BLayout::ColMajor>;
  auto tile_first = [] {
    Full dst(16, 16), src0(16, 16), victim(16, 16);
    Col src1(16, 1);
    place(dst, src0, src1);
    TASSIGN(victim, 184 * 1024);
    TROWEXPANDADD(dst, src0, src1);
  };
  auto op_first = [] {
    Full dst(16, 16), src0(16, 16), victim(16, 16);
    Col src1(16, 1);
    place(dst, src0, src1);
    TROWEXPANDMUL(dst, src0, src1);
    TASSIGN(victim, 190 * 1024);
  };
  expect_kernel_error(A2A3, tile_first,
                      {"TROWEXPANDADD: the 3-argument form with a ColMajor expand operand uses UB [184 KiB, 192 KiB) as "
                       "scratch on A2A3",
                       "place that tile below 184 KiB or pass a tmp tile"});
  expect_kernel_error(A2A3, op_first, {"TASSIGN: operand tile Tile<Vec,float,16,16>",
                                       "overlaps UB [184 KiB, 192 KiB), which TROWEXPANDMUL"});
  expect_ok(A5, tile_first);
  expect_ok(A5, op_first);
  expect_ok(A2A3, [] {  // the tmp form and mode 2 leave the scratch alone
    Full dst(16, 16), src0(16, 16), victim(16, 16);
    Col src1(16, 1);
    VT<float, 16, 8> blocks(16, 8), tmp(16, 8);
    place(dst, src0, src1, blocks, tmp);
    TASSIGN(victim, 184 * 1024);
    TROWEXPANDADD(dst, src0, src1, tmp);
    TROWEXPANDADD(dst, src0, blocks);
  });
}

BOOST_AUTO_TEST_CASE(tcolexpand_source_columns) {
  auto kernel = [](int src_cols) {
    return [src_cols] {
      VT<float, 16, 16> dst(16, 16);
      VT<float, 1, 32> src(1, src_cols);
      place(dst, src);
      TCOLEXPAND(dst, src);
    };
  };
  expect_kernel_error(A2A3, kernel(8), {"TCOLEXPAND: operand src Tile<Vec,float,1,32> valid 1x8",
                                        "must have a valid row 0 covering dst's 16 valid columns"});
  expect_kernel_error(A5, kernel(8), {"TCOLEXPAND: operand src", "valid 1x8", "with exactly dst's 16 valid columns"});
  expect_ok(A2A3, kernel(20));  // A2A3 copies row 0 of src: more columns are fine
  expect_kernel_error(A5, kernel(20), {"TCOLEXPAND: operand src", "valid 1x20", "with exactly dst's 16 valid columns"});
  expect_kernel_error(A2A3, [] {
    VT<half, 16, 16> dst(16, 16), src(0, 16);
    place(dst, src);
    TCOLEXPAND(dst, src);
  }, {"TCOLEXPAND: operand src", "valid 0x16", "must have a valid row 0"});
}

BOOST_AUTO_TEST_CASE(trowexpand_source_rows) {
  auto kernel = [](int src_rows, int dst_cols) {
    return [src_rows, dst_cols] {
      VT<float, 16, 16> dst(16, dst_cols);
      VT<float, 16, 1, BLayout::ColMajor> src(src_rows, 1);
      place(dst, src);
      TROWEXPAND(dst, src);
    };
  };
  for (Target t : {A2A3, A5}) {
    expect_kernel_error(t, kernel(8, 16), {"TROWEXPAND: operand src Tile<Vec,float,16,1,ColMajor> valid 8x1",
                                           "must have dst's 16 valid rows"});
    expect_kernel_error(t, kernel(16, 0), {"TROWEXPAND: operand dst", "the valid shape must not be empty"});
    expect_ok(t, kernel(16, 16));
  }
}

// =================================================================================================
// integer division by zero: the message names the instruction and where the zero divisor is
// =================================================================================================
BOOST_AUTO_TEST_CASE(tdivs_integer_scalar_zero) {
  auto kernel = []<class T>() {
    return [] {
      VT<T, 8, 16> dst(8, 16), src(8, 16);
      place(dst, src);
      TDIVS(dst, src, T(0));
    };
  };
  expect_error([&] { run(A2A3, kernel.template operator()<std::int32_t>()); },
                        {"TDIVS", "integer division by zero", "scalar divisor is 0"});
  expect_error([&] { run(A2A3, kernel.template operator()<std::int16_t>()); },
                        {"TDIVS", "integer division by zero", "scalar divisor is 0"});
  expect_error([&] { run(A5, kernel.template operator()<std::uint64_t>()); },
                        {"TDIVS", "integer division by zero", "scalar divisor is 0"});
}

BOOST_AUTO_TEST_CASE(tdivs_integer_zero_element_of_the_divisor_tile) {
  // TDIVS(dst, scalar, src) = scalar / src: the zero is src(3, 5); ColMajor tiles report tile coordinates too.
  auto kernel = []<class TileT>(typename TileT::DType* gm) {
    TileT dst(12, 9), src(12, 9);
    place(dst, src);
    load(src, gm);
    to_vector();
    TDIVS(dst, typename TileT::DType(100), src);
  };
  using RowT = VT<std::int32_t, 16, 16>;
  using ColT = VT<std::int16_t, 16, 16, BLayout::ColMajor>;
  using U16 = VT<std::uint16_t, 16, 16>;
  auto row_in = matrix<RowT>(7, 3, 5, 0);
  auto col_in = matrix<ColT>(7, 3, 5, 0);
  auto u16_in = matrix<U16>(7, 11, 8, 0);
  expect_error([&] { launch({.blocks = 1, .target = A2A3}, [&] { kernel.template operator()<RowT>(row_in.data()); }); },
                        {"TDIVS", "integer division by zero", "(3, 5)"});
  expect_error([&] { launch({.blocks = 1, .target = A2A3}, [&] { kernel.template operator()<ColT>(col_in.data()); }); },
                        {"TDIVS", "integer division by zero", "(3, 5)"});
  expect_error([&] { launch({.blocks = 1, .target = A5}, [&] { kernel.template operator()<U16>(u16_in.data()); }); },
                        {"TDIVS", "integer division by zero", "(11, 8)"});
}

BOOST_AUTO_TEST_CASE(tcolexpanddiv_integer_zero_divisor_on_a5) {
  using Full = VT<std::int32_t, 16, 16>;
  using Row0 = VT<std::int32_t, 1, 16>;
  auto vec_in = matrix<Row0>(3, 0, 6, 0), full_in = matrix<Full>(5, 2, 3, 0);
  auto normal = [&] {  // dst = src0 / src1[0][j]: the zero is src1(0, 6)
    Full dst(16, 16), src0(16, 16);
    Row0 src1(1, 16);
    place(dst, src0, src1);
    load(src1, vec_in.data());
    to_vector();
    TCOLEXPANDDIV(dst, src0, src1);
  };
  auto swapped = [&] {  // dst = src0[0][j] / src1: the zero is src1(2, 3)
    Full dst(16, 16), src1(16, 16);
    Row0 src0(1, 16);
    place(dst, src0, src1);
    load(src1, full_in.data());
    to_vector();
    TCOLEXPANDDIV(dst, src0, src1);
  };
  expect_error([&] { run(A5, normal); }, {"TCOLEXPANDDIV", "integer division by zero", "(0, 6)"});
  expect_error([&] { run(A5, swapped); }, {"TCOLEXPANDDIV", "integer division by zero", "(2, 3)"});
}

BOOST_AUTO_TEST_CASE(trowexpanddiv_integer_zero_divisor_on_a5) {
  using Full = VT<std::int32_t, 16, 16>;
  using Col = VT<std::int32_t, 16, 1, BLayout::ColMajor>;
  using Blocks = VT<std::int32_t, 16, 8>;
  auto col_in = matrix<Col>(3, 5, 0, 0), blocks_in = matrix<Blocks>(3, 4, 3, 0), full_in = matrix<Full>(5, 7, 9, 0);
  auto mode1 = [&] {  // the zero is src1(5, 0)
    Full dst(16, 16), src0(16, 16);
    Col src1(16, 1);
    place(dst, src0, src1);
    load(src1, col_in.data());
    to_vector();
    TROWEXPANDDIV(dst, src0, src1);
  };
  auto mode2 = [&] {  // the zero is src1(4, 3)
    Full dst(16, 16), src0(16, 16);
    Blocks src1(16, 8);
    place(dst, src0, src1);
    load(src1, blocks_in.data());
    to_vector();
    TROWEXPANDDIV(dst, src0, src1);
  };
  auto swapped = [&] {  // dst = src0[i][0] / src1: the zero is src1(7, 9)
    Full dst(16, 16), src1(16, 16);
    Col src0(16, 1);
    place(dst, src0, src1);
    load(src1, full_in.data());
    to_vector();
    TROWEXPANDDIV(dst, src0, src1);
  };
  expect_error([&] { run(A5, mode1); }, {"TROWEXPANDDIV", "integer division by zero", "(5, 0)"});
  expect_error([&] { run(A5, mode2); }, {"TROWEXPANDDIV", "integer division by zero", "(4, 3)"});
  expect_error([&] { run(A5, swapped); }, {"TROWEXPANDDIV", "integer division by zero", "(7, 9)"});
}
