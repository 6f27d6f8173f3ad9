// PTO IR text files (pto::ir::Module): the parser's errors, control flow, and kernels whose results
// are checked against double-precision references and whose modeled cycles equal the same kernel
// written with the C++ API (one registry of instructions serves both).
#define BOOST_TEST_MODULE ir
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <algorithm>
#include <string>
#include <vector>

#include <pto/ir/module.hpp>
#include <pto/pto-inst.hpp>

#include "../runtime/src/ir/syntax.hpp"
#include "../runtime/src/ir/types.hpp"
#include "test_util.hpp"

using namespace pto;

namespace {

const std::string kDir = PTO_TEST_IR_DIR;         // test/ir
const std::string kEx = PTO_EXAMPLES_PTO_DIR;     // examples/pto

std::string parse_error(const std::string& text) {
  return pto_test::error_text([&] { ir::Module::parse(text, "t.pto"); });
}

// ---- the C++ twin of examples/pto/vadd.pto ------------------------------------------------------------
using T16 = Tile<TileType::Vec, float, 16, 64>;
using G16 = GlobalTensor<float, Shape<1, 1, 1, 16, 64>, pto::Stride<1, 1, 1, 64, 1>>;
void vadd_cpp(__gm__ float* a, __gm__ float* b, __gm__ float* c, int) {
  const std::size_t off = std::size_t(get_block_idx()) * 16 * 64;
  G16 ga(a + off), gb(b + off), gc(c + off);
  T16 ta, tb, tc;
  TLOAD(ta, ga);
  TLOAD(tb, gb);
  TADD(tc, ta, tb);
  TSTORE(gc, tc);
}

// ---- the C++ twin of examples/pto/matmul_bias.pto -----------------------------------------------------
using MatA = Tile<TileType::Mat, half, 32, 32, BLayout::ColMajor, 32, 32, SLayout::RowMajor, 512>;
using MatB = Tile<TileType::Mat, half, 32, 64, BLayout::ColMajor, 32, 64, SLayout::RowMajor, 512>;
using LeftZz = Tile<TileType::Left, half, 32, 32, BLayout::RowMajor, 32, 32, SLayout::RowMajor, 512>;
template <class T> using Gm2D = GlobalTensor<T, Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, -1, 1>>;
void matmul_bias_cpp(__gm__ half* a, __gm__ half* b, __gm__ float* bias, __gm__ float* out, int k) {
  MatA am;
  MatB bm;
  LeftZz al;
  TileRight<half, 32, 64> br;
  TileAcc<float, 32, 64> acc;
  Tile<TileType::Mat, float, 1, 64> bias_mat;
  Tile<TileType::Bias, float, 1, 64> bias_t;
  Gm2D<float> gbias(bias, {1, 64}, {64});
  TLOAD(bias_mat, gbias);
  TMOV(bias_t, bias_mat);
  for (int kk = 0; kk < k; kk += 32) {
    Gm2D<half> ga(a + kk, {32, 32}, {k});
    Gm2D<half> gb(b + std::size_t(kk) * 64, {32, 64}, {64});
    TLOAD(am, ga);
    TLOAD(bm, gb);
    TMOV(al, am);
    TMOV(br, bm);
    if (kk == 0) TMATMUL_BIAS(acc, al, br, bias_t);
    else TMATMUL_ACC(acc, acc, al, br);
  }
  Gm2D<float> go(out, {32, 64}, {64});
  TSTORE(go, acc);
}

// ---- the C++ twin of test/ir/data.pto's TRANDOM --------------------------------------------------------
void random_cpp(__gm__ std::int32_t* out) {
  Tile<TileType::Vec, std::int32_t, 4, 64> t;
  GlobalTensor<std::int32_t, Shape<1, 1, 1, 4, 64>, pto::Stride<1, 1, 1, 64, 1>> g(out);
  const TRandomKey key = {0x1234, 0x9876};
  const TRandomCounter counter = {1, 2, 3, 4};
  TRANDOM(t, key, counter);
  TSTORE(g, t);
}

// ---- the C++ twin of a loop that allocates its tile in the body --------------------------------------
void loop_tile_cpp(__gm__ float* x, __gm__ float* o) {
  for (int i = 0; i < 4; ++i) {
    Tile<TileType::Vec, float, 64, 64> t;
    GlobalTensor<float, Shape<1, 1, 1, 64, 64>, pto::Stride<1, 1, 1, 64, 1>> gx(x + i * 4096), go(o + i * 4096);
    TLOAD(t, gx);
    TADDS(t, t, 1.0f);
    TSTORE(go, t);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_text_kernel_computes_and_times_as_its_cpp_twin) {
  const ir::Module m = ir::Module::load(kEx + "/vadd.pto");
  BOOST_TEST(m.default_entry() == "vadd");
  for (int blocks : {1, 3}) {
    const int rows = 16 * blocks;
    auto a = pto_test::random_vector<float>(std::size_t(rows) * 64, -2, 2, 11);
    auto b = pto_test::random_vector<float>(std::size_t(rows) * 64, -2, 2, 12);
    std::vector<float> c(a.size(), -9.0f), c2(a.size(), -9.0f);
    const LaunchReport r = m.launch({.blocks = blocks, .mode = Mode::Auto}, "vadd",
                                    {ir::Arg::buffer(a), ir::Arg::buffer(b), ir::Arg::buffer(c), ir::Arg::integer(rows)});
    const LaunchReport r2 = launch({.blocks = blocks, .mode = Mode::Auto}, vadd_cpp, a, b, c2, rows);
    std::size_t compared = 0;
    for (std::size_t i = 0; i < a.size(); ++i, ++compared) BOOST_TEST(c[i] == a[i] + b[i]);  // one f32 add
    BOOST_TEST(compared == std::size_t(rows) * 64);
    BOOST_TEST(c == c2, boost::test_tools::per_element());
    BOOST_TEST(r.cycles == r2.cycles);
    BOOST_TEST(r.findings().empty());
    for (int k = 0; k < blocks; ++k) BOOST_TEST(r.cores[std::size_t(k)].instructions == r2.cores[std::size_t(k)].instructions);
  }
}

BOOST_AUTO_TEST_CASE(loops_branches_calls_and_reductions_against_a_double_reference) {
  const ir::Module m = ir::Module::load(kDir + "/accum.pto");
  BOOST_TEST(m.target_arch() == "a2a3");
  BOOST_TEST((m.entries() == std::vector<std::string>{"halve", "accum"}));
  for (int n : {1, 4, 7}) {
    auto x = pto_test::random_vector<float>(std::size_t(n) * 8 * 64, -1, 1, 40 + unsigned(n));
    std::vector<float> out(8 * 64, -9.0f), sums(8, -9.0f);
    const LaunchReport r = m.launch({.blocks = 1, .mode = Mode::Auto}, "accum",
                                    {ir::Arg::buffer(x), ir::Arg::buffer(out), ir::Arg::buffer(sums), ir::Arg::integer(n), ir::Arg::real(0.75)});
    BOOST_TEST(r.findings().empty());
    std::size_t compared = 0;
    for (int row = 0; row < 8; ++row) {
      double sum = 0;
      for (int col = 0; col < 64; ++col) {
        double acc = 0, scale = 0.75;
        for (int i = 0; i < n; ++i, scale *= 0.5) {
          const double v = double(x[std::size_t(i) * 512 + std::size_t(row) * 64 + std::size_t(col)]) * scale;
          acc += i % 2 ? -v : v;
        }
        BOOST_TEST(std::fabs(out[std::size_t(row) * 64 + std::size_t(col)] - acc) <= 1e-5 * (1 + std::fabs(acc)));
        sum += acc;
        ++compared;
      }
      BOOST_TEST(std::fabs(sums[std::size_t(row)] - sum) <= 1e-4 * (1 + std::fabs(sum)));
    }
    BOOST_TEST(compared == 512u);
  }
}

// examples/pto/softmax.pto: reductions, row-expand broadcasts, TEXP, TMOV and TCVT against a double softmax,
// on both targets.
BOOST_AUTO_TEST_CASE(a_softmax_text_kernel_against_a_double_reference) {
  const ir::Module m = ir::Module::load(kEx + "/softmax.pto");
  for (Target target : {Target::A2A3, Target::A5}) {
    auto x = pto_test::random_vector<float>(8 * 64, -4, 4, 123);
    std::vector<half> y(8 * 64, half(-1.0f));
    const LaunchReport r = m.launch({.blocks = 1, .target = target, .mode = Mode::Auto}, "softmax", {ir::Arg::buffer(x), ir::Arg::buffer(y)});
    BOOST_TEST(r.findings().empty());
    std::size_t compared = 0;
    for (int row = 0; row < 8; ++row) {
      double mx = -1e30, sum = 0;
      for (int c = 0; c < 64; ++c) mx = std::max(mx, double(x[std::size_t(row * 64 + c)]));
      for (int c = 0; c < 64; ++c) sum += std::exp(double(x[std::size_t(row * 64 + c)]) - mx);
      for (int c = 0; c < 64; ++c, ++compared) {
        const double ref = std::exp(double(x[std::size_t(row * 64 + c)]) - mx) / sum;
        BOOST_TEST(std::fabs(double(float(y[std::size_t(row * 64 + c)])) - ref) <= 1e-3 * ref + 1e-6, "row " << row << " col " << c);
      }
    }
    BOOST_TEST(compared == 512u);
  }
}

BOOST_AUTO_TEST_CASE(a_cube_text_kernel_computes_and_times_as_its_cpp_twin) {
  const ir::Module m = ir::Module::load(kEx + "/matmul_bias.pto");
  for (int k : {32, 96}) {
    std::vector<half> a(std::size_t(32) * k), b(std::size_t(k) * 64);
    const auto af = pto_test::random_vector<float>(a.size(), -1, 1, 60 + unsigned(k));
    const auto bf = pto_test::random_vector<float>(b.size(), -1, 1, 61 + unsigned(k));
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = half(af[i]);
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = half(bf[i]);
    auto bias = pto_test::random_vector<float>(64, -1, 1, 62);
    std::vector<float> out(32 * 64, -9.0f), out2(32 * 64, -9.0f);
    const LaunchReport r = m.launch({.blocks = 1, .mode = Mode::Auto}, "matmul_bias",
                                    {ir::Arg::buffer(a), ir::Arg::buffer(b), ir::Arg::buffer(bias), ir::Arg::buffer(out), ir::Arg::integer(k)});
    const LaunchReport r2 = launch({.blocks = 1, .mode = Mode::Auto}, matmul_bias_cpp, a, b, bias, out2, k);
    BOOST_TEST(r.findings().empty());
    std::size_t compared = 0;
    for (int i = 0; i < 32; ++i)
      for (int j = 0; j < 64; ++j, ++compared) {
        double ref = bias[std::size_t(j)], mag = std::abs(ref);
        for (int p = 0; p < k; ++p) {
          const double t = double(float(a[std::size_t(i) * k + p])) * double(float(b[std::size_t(p) * 64 + j]));
          ref += t;
          mag += std::abs(t);
        }
        // f16 products are exact in f32; k + 1 f32 additions (docs/cube.md)
        BOOST_TEST(std::abs(out[std::size_t(i) * 64 + j] - ref) <= (k + 2) * std::ldexp(1.0, -24) * mag);
      }
    BOOST_TEST(compared == 32u * 64u);
    BOOST_TEST(out == out2, boost::test_tools::per_element());
    BOOST_TEST(r.cycles == r2.cycles);
    BOOST_TEST(r.cores[0].instructions == r2.cores[0].instructions);
  }
}

BOOST_AUTO_TEST_CASE(the_cube_rules_are_checked_on_a_files_types) {
  const std::string text = pto_test::read_file(kEx + "/matmul_bias.pto");
  struct Case {
    std::string from, to, expect;
  };
  const std::vector<Case> cases = {
      // a Left tile in ZN fractals (the static_assert of TMOV / TEXTRACT into Left)
      {"loc=left, dtype=f16, rows=32, cols=32, v_row=32, v_col=32, blayout=row_major, slayout=row_major",
       "loc=left, dtype=f16, rows=32, cols=32, v_row=32, v_col=32, blayout=row_major, slayout=col_major",
       "TEXTRACT / TMOV: a Left dst needs SLayout::RowMajor 512-byte fractals"},
      // an f16 bias table with f32 results
      {"loc=bias, dtype=f32", "loc=bias, dtype=f16", "TMOV Mat -> Bias: the pairs are int32_t -> int32_t"},
      // the result tile in 512-byte fractals is no Acc tile
      {"loc=acc, dtype=f32, rows=32, cols=64, v_row=32, v_col=64, blayout=col_major, slayout=row_major, fractal=1024",
       "loc=acc, dtype=f32, rows=32, cols=64, v_row=32, v_col=64, blayout=col_major, slayout=row_major, fractal=512",
       "pto.tmatmul.bias: TMATMUL / TGEMV: the result must be an Acc tile, NZ with 16 x 16 fractals (TileAcc)"},
  };
  std::size_t checked = 0;
  for (const Case& c : cases) {
    std::string t = text;
    for (std::size_t at = t.find(c.from); at != std::string::npos; at = t.find(c.from, at + c.to.size())) t.replace(at, c.from.size(), c.to);
    BOOST_REQUIRE(t != text);
    const std::string e = parse_error(t);
    BOOST_TEST(e.find(c.expect) != std::string::npos, "expected '" << c.expect << "' in '" << e << "'");
    BOOST_TEST(e.find("t.pto:") == 0, e);
    ++checked;
  }
  BOOST_TEST(checked == cases.size());
  // A run-time rule: k = 40 reads a window past a's columns.
  const ir::Module m = ir::Module::parse(text, "mm.pto");
  std::vector<half> a(32 * 40), b(40 * 64);
  std::vector<float> bias(64), out(32 * 64);
  const std::string e = pto_test::error_text([&] {
    m.launch({.blocks = 1, .mode = Mode::Auto}, "matmul_bias",
             {ir::Arg::buffer(a), ir::Arg::buffer(b), ir::Arg::buffer(bias), ir::Arg::buffer(out), ir::Arg::integer(40)});
  });
  BOOST_TEST((e.find("mm.pto:28:7: error: TLOAD: operand src") != std::string::npos ||  // a's window, or b's if a's overrun
              e.find("mm.pto:29:7: error: TLOAD: operand src") != std::string::npos),  // lands in b's buffer
             e);
  BOOST_TEST(e.find("reads GM bytes") != std::string::npos, e);
}

BOOST_AUTO_TEST_CASE(a_layer_norm_against_a_double_reference) {
  const ir::Module m = ir::Module::load(kDir + "/layernorm.pto");
  auto x = pto_test::random_vector<float>(8 * 64, -2, 2, 70);
  auto g = pto_test::random_vector<float>(64, 0.5f, 1.5f, 71);
  auto b = pto_test::random_vector<float>(64, -1, 1, 72);
  std::vector<float> y(8 * 64, -9.0f);
  const LaunchReport r = m.launch({.blocks = 1, .mode = Mode::Auto}, "layernorm",
                                  {ir::Arg::buffer(x), ir::Arg::buffer(g),
                                   ir::Arg::buffer(b), ir::Arg::buffer(y), ir::Arg::real(1e-5)});
  BOOST_TEST(r.findings().empty());
  std::size_t compared = 0;
  for (int i = 0; i < 8; ++i) {
    double mean = 0, var = 0;
    for (int j = 0; j < 64; ++j) mean += x[std::size_t(i * 64 + j)] / 64.0;
    for (int j = 0; j < 64; ++j) var += (x[std::size_t(i * 64 + j)] - mean) * (x[std::size_t(i * 64 + j)] - mean) / 64.0;
    for (int j = 0; j < 64; ++j, ++compared) {
      const double ref = (x[std::size_t(i * 64 + j)] - mean) / std::sqrt(var + 1e-5) * g[std::size_t(j)] + b[std::size_t(j)];
      BOOST_TEST(std::abs(y[std::size_t(i * 64 + j)] - ref) <= 2e-5 * (1 + std::abs(ref)));  // f32 sums of 64 terms, rsqrt
    }
  }
  BOOST_TEST(compared == 8u * 64u);
}

// examples/pto/double_buffer.pto in manual mode: its flags order the pipes (no finding) and overlap the
// two tiles' work; without one of its waits the checker reports the race.
BOOST_AUTO_TEST_CASE(a_double_buffered_loop_with_flags_in_manual_mode) {
  const std::string text = pto_test::read_file(kEx + "/double_buffer.pto");
  const ir::Module m = ir::Module::parse(text, "db.pto");
  for (int n : {2, 8}) {
    auto x = pto_test::random_vector<float>(std::size_t(n) * 16 * 64, -4, 4, 80 + unsigned(n));
    std::vector<float> y(x.size(), -9.0f);
    const LaunchReport r = m.launch({.blocks = 1, .mode = Mode::Manual, .check = SyncCheck::Report}, "double_buffer",
                                    {ir::Arg::buffer(x), ir::Arg::buffer(y), ir::Arg::integer(n),
                                     ir::Arg::real(0.5), ir::Arg::real(-1.0)});
    BOOST_TEST(r.findings().empty());
    std::size_t compared = 0;
    for (std::size_t i = 0; i < x.size(); ++i, ++compared) BOOST_TEST(y[i] == x[i] * 0.5f + -1.0f);  // two f32 roundings, as the reference
    BOOST_TEST(compared == x.size());
    BOOST_TEST(r.overlap() > 1.15);  // a load overlaps the other tile's compute and store (deterministic: 1.20 at n = 2)
  }
  std::string broken = text;
  const std::string wait = "      pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>]\n";
  BOOST_REQUIRE(broken.find(wait) != std::string::npos);
  broken.erase(broken.find(wait), wait.size());
  const ir::Module mb = ir::Module::parse(broken, "db.pto");
  std::vector<float> x(2 * 16 * 64, 1.0f), y(x.size());
  const LaunchReport r = mb.launch({.blocks = 1, .mode = Mode::Manual, .check = SyncCheck::Report}, "double_buffer",
                                   {ir::Arg::buffer(x), ir::Arg::buffer(y), ir::Arg::integer(2), ir::Arg::real(0.5), ir::Arg::real(-1.0)});
  BOOST_TEST(!r.findings().empty());
}

// examples/pto/cluster_matmul.pto: a cube function and a vector function joined by PTOAS's frontend pipe
// ops run as clusters (one AIC, two AIVs per block): the cube's product reaches the AIVs through the GM
// slot ring, split by rows, and each AIV adds the bias to its half.
BOOST_AUTO_TEST_CASE(a_cube_and_vector_kernel_runs_on_clusters_through_a_pipe) {
  const std::string text = pto_test::read_file(kEx + "/cluster_matmul.pto");
  const ir::Module m = ir::Module::parse(text, "cm.pto");
  for (int blocks : {1, 3}) {
    auto a = pto_test::random_vector<float>(std::size_t(blocks) * 256, -1, 1, 90 + unsigned(blocks));
    auto b = pto_test::random_vector<float>(std::size_t(blocks) * 256, -1, 1, 91 + unsigned(blocks));
    std::vector<float> out(a.size(), -9.0f), ring(std::size_t(blocks) * 2048);
    const LaunchReport r = m.launch({.blocks = blocks, .mode = Mode::Auto, .check = SyncCheck::Report}, "cluster_matmul",
                                    {ir::Arg::buffer(a), ir::Arg::buffer(b), ir::Arg::buffer(out), ir::Arg::buffer(ring), ir::Arg::real(0.25)});
    BOOST_TEST(r.cores.size() == std::size_t(3 * blocks));  // AIC, AIV0, AIV1 per cluster
    BOOST_TEST(r.findings().empty());
    std::size_t compared = 0;
    for (int k = 0; k < blocks; ++k)
      for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j, ++compared) {
          double ref = 0.25, mag = 0.25;
          for (int p = 0; p < 16; ++p) {
            const double t = double(a[std::size_t(k * 256 + i * 16 + p)]) * b[std::size_t(k * 256 + p * 16 + j)];
            ref += t;
            mag += std::abs(t);
          }
          BOOST_TEST(std::abs(out[std::size_t(k * 256 + i * 16 + j)] - ref) <= 20 * std::ldexp(1.0, -24) * mag);
        }
    BOOST_TEST(compared == std::size_t(blocks) * 256);
  }
  // The pop's dynamic form: (%valid_row, %valid_col) for a tile type with v_row=?, v_col=? (same result).
  {
    std::string dyn = text;
    auto swap_all = [&](const std::string& from, const std::string& to) {
      for (std::size_t at = dyn.find(from); at != std::string::npos; at = dyn.find(from, at + to.size())) dyn.replace(at, from.size(), to);
    };
    swap_all("rows=8, cols=16, v_row=8, v_col=16", "rows=8, cols=16, v_row=?, v_col=?");
    swap_all("pto.tpop_from_aic {split = 1}", "pto.tpop_from_aic(%c8, %c16) {split = 1}");
    const ir::Module md = ir::Module::parse(dyn, "cm.pto");
    auto a = pto_test::random_vector<float>(256, -1, 1, 95);
    auto b = pto_test::random_vector<float>(256, -1, 1, 96);
    std::vector<float> out(256, -9.0f), out2(256, -9.0f), ring(2048);
    md.launch({.blocks = 1, .mode = Mode::Auto}, "cluster_matmul",
              {ir::Arg::buffer(a), ir::Arg::buffer(b), ir::Arg::buffer(out), ir::Arg::buffer(ring), ir::Arg::real(0.25)});
    m.launch({.blocks = 1, .mode = Mode::Auto}, "cluster_matmul",
             {ir::Arg::buffer(a), ir::Arg::buffer(b), ir::Arg::buffer(out2), ir::Arg::buffer(ring), ir::Arg::real(0.25)});
    BOOST_TEST(out == out2, boost::test_tools::per_element());
  }
  // Misuse: a pop before any pipe, and the cube's push on a core that initialised none.
  std::string no_init = text;
  const std::size_t at = no_init.find("    pto.aiv_initialize_pipe");
  no_init.erase(at, no_init.find("i32)\n", at) + 5 - at);
  const ir::Module bad = ir::Module::parse(no_init, "cm.pto");
  std::vector<float> a(256), b(256), out(256), ring(2048);
  const std::string e = pto_test::error_text([&] {
    bad.launch({.blocks = 1, .mode = Mode::Auto}, "cluster_matmul",
               {ir::Arg::buffer(a), ir::Arg::buffer(b), ir::Arg::buffer(out), ir::Arg::buffer(ring), ir::Arg::real(0.25)});
  });
  BOOST_TEST(e.find("pto.tpop_from_aic: no cube -> vector pipe on this core") != std::string::npos, e);
}

// test/ir/select.pto: TCMP + TSEL (an element-wise min), TCOLSUM, TANDS and TSHLS against references.
BOOST_AUTO_TEST_CASE(compare_select_column_sums_and_bitwise_scalars) {
  const ir::Module m = ir::Module::load(kDir + "/select.pto");
  auto x = pto_test::random_vector<float>(8 * 64, -3, 3, 100);
  auto y = pto_test::random_vector<float>(8 * 64, -3, 3, 101);
  std::vector<float> lo(8 * 64, -9.0f), sums(64, -9.0f);
  std::vector<std::int32_t> k(8 * 64), bits(8 * 64, -9);
  for (std::size_t i = 0; i < k.size(); ++i) k[i] = std::int32_t(i * 2654435761u);
  for (const Target target : {Target::A2A3, Target::A5}) {
    const LaunchReport r = m.launch({.blocks = 1, .target = target, .mode = Mode::Auto}, "select",
                                    {ir::Arg::buffer(x), ir::Arg::buffer(y), ir::Arg::buffer(lo), ir::Arg::buffer(sums),
                                     ir::Arg::buffer(k), ir::Arg::buffer(bits)});
    BOOST_TEST(r.findings().empty());
    std::size_t compared = 0;
    for (std::size_t i = 0; i < x.size(); ++i, ++compared) {
      BOOST_TEST(lo[i] == std::min(x[i], y[i]));
      BOOST_TEST(bits[i] == std::int32_t(std::uint32_t(k[i] & 0xff) << 2));
    }
    for (int j = 0; j < 64; ++j, ++compared) {
      double s = 0, mag = 0;
      for (int i = 0; i < 8; ++i) s += lo[std::size_t(i * 64 + j)], mag += std::abs(lo[std::size_t(i * 64 + j)]);
      BOOST_TEST(std::abs(sums[std::size_t(j)] - s) <= 8 * std::ldexp(1.0, -24) * mag);
    }
    BOOST_TEST(compared == 8u * 64u + 64u);
  }
}

// test/ir/compound.pto: TREM, TPRELU, TADDC, TPARTADD, TXOR, TROWARGMAX and TSORT32 + TMRGSORT against
// double / integer references on both targets.
BOOST_AUTO_TEST_CASE(compound_partial_arg_and_sort_instructions) {
  const ir::Module m = ir::Module::load(kDir + "/compound.pto");
  auto x = pto_test::random_vector<float>(8 * 64, -3, 3, 200);
  auto y = pto_test::random_vector<float>(8 * 64, 0.5f, 2, 201);
  auto s = pto_test::random_vector<float>(128, -1, 1, 202);
  std::vector<std::int32_t> k(8 * 64), mm(8 * 64);
  std::vector<std::uint32_t> ids(128);
  for (std::size_t i = 0; i < k.size(); ++i) k[i] = std::int32_t(i * 2654435761u), mm[i] = std::int32_t(i * 40503u + 17u);
  for (std::uint32_t i = 0; i < 128; ++i) ids[i] = i;
  std::vector<std::uint32_t> order(128);
  for (std::uint32_t i = 0; i < 128; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return s[a] > s[b]; });
  for (const Target target : {Target::A2A3, Target::A5}) {
    std::vector<float> rem(8 * 64), prelu(8 * 64), carry(8 * 64), part(8 * 64), sorted(256);
    std::vector<std::int32_t> xr(8 * 64), arg(8, -1);
    const LaunchReport r = m.launch({.blocks = 1, .target = target, .mode = Mode::Auto}, "compound",
                                    {ir::Arg::buffer(x), ir::Arg::buffer(y), ir::Arg::buffer(k), ir::Arg::buffer(mm), ir::Arg::buffer(s),
                                     ir::Arg::buffer(ids), ir::Arg::buffer(rem), ir::Arg::buffer(prelu), ir::Arg::buffer(carry),
                                     ir::Arg::buffer(part), ir::Arg::buffer(xr), ir::Arg::buffer(arg), ir::Arg::buffer(sorted)});
    BOOST_TEST(r.findings().empty());
    std::size_t compared = 0;
    for (std::size_t i = 0; i < x.size(); ++i, ++compared) {
      const double a = x[i], b = y[i];
      BOOST_TEST(std::abs(rem[i] - (a - std::floor(a / b) * b)) <= 4e-7 * 3);
      BOOST_TEST(std::abs(prelu[i] - (a > 0 ? a : a * b)) <= 4e-7 * 6);
      BOOST_TEST(std::abs(carry[i] - (2 * a + b)) <= 4e-7 * 8);
      const bool in = i / 64 < 4 && i % 64 < 32;
      BOOST_TEST(std::abs(part[i] - (in ? a + b : a)) <= 4e-7 * 5);
      BOOST_TEST(xr[i] == (k[i] ^ mm[i]));
    }
    for (int row = 0; row < 8; ++row, ++compared) {
      const auto first = x.begin() + row * 64;
      BOOST_TEST(arg[std::size_t(row)] == int(std::max_element(first, first + 64) - first));
    }
    for (std::size_t i = 0; i < 128; ++i, ++compared) {
      std::uint32_t bits;
      std::memcpy(&bits, &sorted[2 * i + 1], 4);
      BOOST_TEST(sorted[2 * i] == s[order[i]]);
      BOOST_TEST(bits == order[i]);
    }
    BOOST_TEST(compared == 512u + 8u + 128u);
  }
}

// MLIR's generic form of pto.t* instructions reads as the op's own form: the same kernel in both forms
// gives the same bytes and the same modeled cycles.
BOOST_AUTO_TEST_CASE(the_generic_form_runs_as_the_custom_form) {
  const std::string T = "!pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=64>";
  auto kernel = [&](bool generic) {
    const std::string body =
        generic ? "    %m = \"pto.tmuls\"(%t, %three) : (" + T + ", f32) -> " + T + "\n" +
                      "    \"pto.tadd\"(%m, %t, %s) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (" + T + ", " + T + ", " + T + ") -> ()\n" +
                      "    \"pto.texp\"(%s, %e) : (" + T + ", " + T + ") -> ()\n"
                : "    %m = pto.tmuls %t, %three : " + T + ", f32 -> " + T + "\n" + "    pto.tadd ins(%m, %t : " + T + ", " + T +
                      ") outs(%s : " + T + ")\n" + "    pto.texp ins(%s : " + T + ") outs(%e : " + T + ")\n";
    return "module {\n  func.func @k(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>) {\n"
           "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n"
           "    %c8 = arith.constant 8 : index\n    %c64 = arith.constant 64 : index\n"
           "    %three = arith.constant 3.0 : f32\n"
           "    %vx = pto.make_tensor_view %x, shape = [%c8, %c64], strides = [%c64, %c1] : !pto.tensor_view<8x64xf32>\n"
           "    %vy = pto.make_tensor_view %y, shape = [%c8, %c64], strides = [%c64, %c1] : !pto.tensor_view<8x64xf32>\n"
           "    %px = pto.partition_view %vx, offsets = [%c0, %c0], sizes = [%c8, %c64] : !pto.tensor_view<8x64xf32> -> !pto.partition_tensor_view<8x64xf32>\n"
           "    %py = pto.partition_view %vy, offsets = [%c0, %c0], sizes = [%c8, %c64] : !pto.tensor_view<8x64xf32> -> !pto.partition_tensor_view<8x64xf32>\n"
           "    %t = pto.alloc_tile : " + T + "\n    %s = pto.alloc_tile : " + T + "\n    %e = pto.alloc_tile : " + T + "\n"
           "    pto.tload ins(%px : !pto.partition_tensor_view<8x64xf32>) outs(%t : " + T + ")\n" + body +
           "    pto.tstore ins(%e : " + T + ") outs(%py : !pto.partition_tensor_view<8x64xf32>)\n"
           "    return\n  }\n}\n";
  };
  auto x = pto_test::random_vector<float>(8 * 64, -1, 1, 78);
  std::vector<float> custom(8 * 64), generic(8 * 64);
  const LaunchReport a = ir::Module::parse(kernel(false), "c.pto").launch({.blocks = 1, .mode = Mode::Auto}, "k", {ir::Arg::buffer(x), ir::Arg::buffer(custom)});
  const LaunchReport b = ir::Module::parse(kernel(true), "g.pto").launch({.blocks = 1, .mode = Mode::Auto}, "k", {ir::Arg::buffer(x), ir::Arg::buffer(generic)});
  BOOST_TEST(a.cycles == b.cycles);
  std::size_t compared = 0;
  for (std::size_t i = 0; i < x.size(); ++i, ++compared) {
    BOOST_TEST(generic[i] == custom[i]);
    BOOST_TEST(std::fabs(generic[i] - std::exp(4.0 * double(x[i]))) <= 2e-6 * std::exp(4.0 * double(x[i])));
  }
  BOOST_TEST(compared == 512u);
  const std::string bad = kernel(true);
  std::string e = parse_error(std::string(bad).replace(bad.find("(%s, %e)"), 8, "(%s)"));
  BOOST_TEST(e.find("(generic form): 1 operand(s) but 2 operand type(s)") != std::string::npos, e);
  e = parse_error(std::string(bad).replace(bad.find("\"pto.texp\""), 10, "\"arith.addf\""));
  BOOST_TEST(e.find("the generic form is read for pto.t* instructions") != std::string::npos, e);
}

// test/ir/data.pto: TTRANS, both TGATHER forms, TCONCAT, TRESHAPE, TCI, TTRI, TAXPY and TCVT with tmp against references
// on both targets; THISTOGRAM against counts and TRANDOM against its C++ twin on A5.
BOOST_AUTO_TEST_CASE(gather_layout_and_generator_instructions) {
  const ir::Module m = ir::Module::load(kDir + "/data.pto");
  auto x = pto_test::random_vector<float>(16 * 32, -2, 2, 300);
  auto y0 = pto_test::random_vector<float>(16 * 32, -2, 2, 301);
  std::vector<std::int32_t> idx(32);
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = std::int32_t((i * 97 + 13) % 512);
  for (const Target target : {Target::A2A3, Target::A5}) {
    std::vector<float> xt(512), g(32), gm(256), cat(1024), rs(512), tri(512), axpy(512);
    std::vector<std::int32_t> ci(32);
    std::vector<half> h16(512);
    const LaunchReport r = m.launch({.blocks = 1, .target = target, .mode = Mode::Auto}, "data",
                                    {ir::Arg::buffer(x), ir::Arg::buffer(y0), ir::Arg::buffer(idx), ir::Arg::buffer(xt), ir::Arg::buffer(g),
                                     ir::Arg::buffer(gm), ir::Arg::buffer(cat), ir::Arg::buffer(rs), ir::Arg::buffer(ci),
                                     ir::Arg::buffer(tri), ir::Arg::buffer(axpy), ir::Arg::buffer(h16)});
    BOOST_TEST(r.findings().empty());
    std::size_t compared = 0;
    for (std::size_t i = 0; i < 16; ++i)
      for (std::size_t j = 0; j < 32; ++j, ++compared) {
        const float v = x[i * 32 + j];
        BOOST_TEST(xt[j * 16 + i] == v);
        BOOST_TEST(cat[i * 64 + j] == v);
        BOOST_TEST(cat[i * 64 + 32 + j] == v);
        BOOST_TEST(rs[i * 32 + j] == v);
        BOOST_TEST(tri[i * 32 + j] == (j <= i + 2 ? 1.0f : 0.0f));
        BOOST_TEST(std::abs(axpy[i * 32 + j] - (2.5 * double(v) + double(y0[i * 32 + j]))) <= 4e-7 * 8);
        BOOST_TEST(std::abs(double(float(h16[i * 32 + j])) - double(v)) <= std::ldexp(std::abs(double(v)), -11));  // RINT to half
      }
    for (std::size_t j = 0; j < 32; ++j, ++compared) {
      BOOST_TEST(g[j] == x[std::size_t(idx[j])]);
      BOOST_TEST(ci[j] == std::int32_t(5 + j));
    }
    for (std::size_t k = 0; k < 256; ++k, ++compared) BOOST_TEST(gm[k] == x[2 * k]);
    BOOST_TEST(compared == 512u + 32u + 256u);
  }
  std::vector<std::uint16_t> h(8 * 32);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = std::uint16_t(i * 40503u);
  std::vector<std::uint8_t> hi(8, 0);
  std::vector<std::uint32_t> hist(8 * 256);
  std::vector<std::int32_t> rnd(4 * 64), rnd2(4 * 64);
  m.launch({.blocks = 1, .target = Target::A5, .mode = Mode::Auto}, "a5",
           {ir::Arg::buffer(h), ir::Arg::buffer(hi), ir::Arg::buffer(hist), ir::Arg::buffer(rnd)});
  launch({.blocks = 1, .target = Target::A5, .mode = Mode::Auto}, random_cpp, rnd2);
  std::size_t compared = 0;
  for (std::size_t row = 0; row < 8; ++row)
    for (std::uint32_t b = 0; b < 256; ++b, ++compared) {
      std::uint32_t n = 0;
      for (std::size_t j = 0; j < 32; ++j) n += (h[row * 32 + j] >> 8) <= b;
      BOOST_TEST(hist[row * 256 + b] == n);
    }
  BOOST_TEST(compared == 8u * 256u);
  BOOST_TEST(rnd == rnd2, boost::test_tools::per_element());
  const std::string e = pto_test::error_text([&] {
    m.launch({.blocks = 1, .target = Target::A2A3, .mode = Mode::Auto}, "a5",
             {ir::Arg::buffer(h), ir::Arg::buffer(hi), ir::Arg::buffer(hist), ir::Arg::buffer(rnd)});
  });
  BOOST_TEST(e.find("data.pto:") != std::string::npos, e);
  BOOST_TEST(e.find("THISTOGRAM exists on A5 only") != std::string::npos, e);
}

// test/ir/data.pto's @more: TSCATTER (index and mask forms), TGATHERB and TDEQUANT against references.
BOOST_AUTO_TEST_CASE(scatter_block_gather_and_dequant_instructions) {
  const ir::Module m = ir::Module::load(kDir + "/data.pto");
  auto x = pto_test::random_vector<float>(16 * 32, -2, 2, 310);
  auto sc = pto_test::random_vector<float>(16, 0.01f, 0.1f, 311);
  auto of = pto_test::random_vector<float>(16, -3, 3, 312);
  std::vector<std::int32_t> idx(32), off(8);
  std::vector<std::int8_t> q(16 * 32);
  for (std::size_t j = 0; j < 32; ++j) idx[j] = std::int32_t((j * 97 + 13) % 512);
  for (std::size_t b = 0; b < 8; ++b) off[b] = std::int32_t((b * 5) % 64 * 32);
  for (std::size_t i = 0; i < q.size(); ++i) q[i] = std::int8_t(int(i * 37 % 256) - 128);
  for (const Target target : {Target::A2A3, Target::A5}) {
    std::vector<float> sct(512, -1.0f), spread(512, -1.0f), blk(64), deq(512);
    const LaunchReport r = m.launch({.blocks = 1, .target = target, .mode = Mode::Auto}, "more",
                                    {ir::Arg::buffer(x), ir::Arg::buffer(idx), ir::Arg::buffer(off), ir::Arg::buffer(q), ir::Arg::buffer(sc),
                                     ir::Arg::buffer(of), ir::Arg::buffer(sct), ir::Arg::buffer(spread), ir::Arg::buffer(blk),
                                     ir::Arg::buffer(deq)});
    BOOST_TEST(r.findings().empty());
    std::vector<float> want(512, 0.0f);
    for (std::size_t j = 0; j < 32; ++j) want[std::size_t(idx[j])] = x[j];
    std::size_t compared = 0;
    for (std::size_t i = 0; i < 16; ++i)
      for (std::size_t j = 0; j < 32; ++j, ++compared) {
        const std::size_t k = i * 32 + j;
        BOOST_TEST(sct[k] == want[k]);
        BOOST_TEST(spread[k] == (j % 2 == 0 ? x[i * 32 + j / 2] : 0.0f));
        const double d = (double(q[k]) - double(of[i])) * double(sc[i]);
        BOOST_TEST(std::abs(deq[k] - d) <= 1e-6 * (1 + std::abs(d)));
      }
    for (std::size_t b = 0; b < 8; ++b)
      for (std::size_t e = 0; e < 8; ++e, ++compared) BOOST_TEST(blk[b * 8 + e] == x[std::size_t(off[b]) / 4 + e]);
    BOOST_TEST(compared == 512u + 64u);
  }
}

// A tile's bytes go back to auto mode after its last use: four 64 KiB tiles used one after another fit
// the 184 KiB UB (PTOAS's PlanMemory reuses them too); a treshape view keeps its source's bytes alive;
// tassign puts a tile at a fixed address.
BOOST_AUTO_TEST_CASE(dead_tiles_give_their_bytes_back_and_tassign_fixes_an_address) {
  const std::string T = "!pto.tile_buf<loc=vec, dtype=f32, rows=128, cols=128>", R = "!pto.tile_buf<loc=vec, dtype=f32, rows=256, cols=64>";
  const std::string V = "!pto.tensor_view<128x128xf32>";
  std::string text = "module {\n  func.func @k(%x: !pto.ptr<f32>, %o: !pto.ptr<f32>) {\n"
                     "    %c1 = arith.constant 1 : index\n    %c128 = arith.constant 128 : index\n"
                     "    %one = arith.constant 1.0 : f32\n    %a0 = arith.constant 65536 : i64\n";
  for (int k = 0; k < 4; ++k) {
    const std::string n = std::to_string(k);
    text += "    %off" + n + " = arith.constant " + std::to_string(k * 16384) + " : index\n";
    text += "    %po" + n + " = pto.addptr %o, %off" + n + " : !pto.ptr<f32> -> !pto.ptr<f32>\n";
  }
  text += "    %vx = pto.make_tensor_view %x, shape = [%c128, %c128], strides = [%c128, %c1] : " + V + "\n";
  for (int k = 0; k < 4; ++k) {
    const std::string n = std::to_string(k);
    text += "    %t" + n + " = pto.alloc_tile : " + T + "\n";
    text += "    pto.tload ins(%vx : " + V + ") outs(%t" + n + " : " + T + ")\n";
    text += "    pto.tadds ins(%t" + n + ", %one : " + T + ", f32) outs(%t" + n + " : " + T + ")\n";
    if (k == 3) {  // through a reshaped view of it: the view holds t3's bytes
      text += "    %r3 = pto.treshape %t3 : " + T + " -> " + R + "\n";
      text += "    %s3 = pto.treshape %r3 : " + R + " -> " + T + "\n";
      text += "    %u = pto.alloc_tile : " + T + "\n    %ua = pto.tassign %u, %a0 : " + T + " -> " + T + "\n";
      text += "    pto.tadds ins(%s3, %one : " + T + ", f32) outs(%ua : " + T + ")\n";
      text += "    %vo3 = pto.make_tensor_view %po3, shape = [%c128, %c128], strides = [%c128, %c1] : " + V + "\n";
      text += "    pto.tstore ins(%ua : " + T + ") outs(%vo3 : " + V + ")\n";
    } else {
      text += "    %vo" + n + " = pto.make_tensor_view %po" + n + ", shape = [%c128, %c128], strides = [%c128, %c1] : " + V + "\n";
      text += "    pto.tstore ins(%t" + n + " : " + T + ") outs(%vo" + n + " : " + V + ")\n";
    }
  }
  text += "    return\n  }\n}\n";
  auto x = pto_test::random_vector<float>(128 * 128, -1, 1, 500);
  std::vector<float> o(4 * 128 * 128, -9.0f);
  const LaunchReport r = ir::Module::parse(text, "reuse.pto").launch({.blocks = 1, .mode = Mode::Auto}, "k", {ir::Arg::buffer(x), ir::Arg::buffer(o)});
  BOOST_TEST(r.findings().empty());
  std::size_t compared = 0;
  for (std::size_t i = 0; i < o.size(); ++i, ++compared) BOOST_TEST(o[i] == (i < 3 * x.size() ? x[i % x.size()] + 1.0f : (x[i % x.size()] + 1.0f) + 1.0f));  // f32 adds
  BOOST_TEST(compared == 4u * 128u * 128u);
}

// A tile allocated in a loop body dies when the next iteration redefines it, as a C++ Tile at the end of
// its scope: the same addresses, so the same outputs and modeled cycles as the C++ twin; and an SSA-form
// op keeps its operand attributes (tcvt's rmode).
BOOST_AUTO_TEST_CASE(loop_body_tiles_and_ssa_attributes) {
  const std::string T = "!pto.tile_buf<loc=vec, dtype=f32, rows=64, cols=64>", V = "!pto.tensor_view<64x64xf32>";
  const std::string text = "module {\n  func.func @k(%x: !pto.ptr<f32>, %o: !pto.ptr<f32>) {\n"
                           "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n    %c4 = arith.constant 4 : index\n"
                           "    %c64 = arith.constant 64 : index\n    %c4096 = arith.constant 4096 : index\n    %one = arith.constant 1.0 : f32\n"
                           "    scf.for %i = %c0 to %c4 step %c1 {\n      %off = arith.muli %i, %c4096 : index\n"
                           "      %px = pto.addptr %x, %off : !pto.ptr<f32> -> !pto.ptr<f32>\n      %po = pto.addptr %o, %off : !pto.ptr<f32> -> !pto.ptr<f32>\n"
                           "      %vx = pto.make_tensor_view %px, shape = [%c64, %c64], strides = [%c64, %c1] : " + V + "\n"
                           "      %vo = pto.make_tensor_view %po, shape = [%c64, %c64], strides = [%c64, %c1] : " + V + "\n"
                           "      %t = pto.alloc_tile : " + T + "\n      pto.tload ins(%vx : " + V + ") outs(%t : " + T + ")\n"
                           "      pto.tadds ins(%t, %one : " + T + ", f32) outs(%t : " + T + ")\n"
                           "      pto.tstore ins(%t : " + T + ") outs(%vo : " + V + ")\n    }\n    return\n  }\n}\n";
  auto x = pto_test::random_vector<float>(4 * 4096, -1, 1, 600);
  std::vector<float> o(x.size()), o2(x.size());
  const LaunchReport r = ir::Module::parse(text, "loop.pto").launch({.blocks = 1, .mode = Mode::Auto}, "k", {ir::Arg::buffer(x), ir::Arg::buffer(o)});
  const LaunchReport r2 = launch({.blocks = 1, .mode = Mode::Auto}, loop_tile_cpp, x, o2);
  BOOST_TEST(r.cycles == r2.cycles);
  BOOST_TEST(o == o2, boost::test_tools::per_element());
  std::size_t compared = 0;
  for (std::size_t i = 0; i < x.size(); ++i, ++compared) BOOST_TEST(o[i] == x[i] + 1.0f);
  BOOST_TEST(compared == 4u * 4096u);

  const std::string F = "!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=64>", I = "!pto.tile_buf<loc=vec, dtype=i32, rows=1, cols=64>";
  const std::string cvt = "module {\n  func.func @c(%x: !pto.ptr<f32>, %o: !pto.ptr<i32>) {\n"
                          "    %c1 = arith.constant 1 : index\n    %c64 = arith.constant 64 : index\n"
                          "    %vx = pto.make_tensor_view %x, shape = [%c1, %c64], strides = [%c64, %c1] : !pto.tensor_view<1x64xf32>\n"
                          "    %vo = pto.make_tensor_view %o, shape = [%c1, %c64], strides = [%c64, %c1] : !pto.tensor_view<1x64xi32>\n"
                          "    %t = pto.alloc_tile : " + F + "\n    pto.tload ins(%vx : !pto.tensor_view<1x64xf32>) outs(%t : " + F + ")\n"
                          "    %r = pto.tcvt %t {rmode = #pto<round_mode FLOOR>} : " + F + " -> " + I + "\n"
                          "    pto.tstore ins(%r : " + I + ") outs(%vo : !pto.tensor_view<1x64xi32>)\n    return\n  }\n}\n";
  std::vector<float> xs(64);
  std::vector<std::int32_t> out(64);
  for (std::size_t i = 0; i < 64; ++i) xs[i] = float(int(i) - 32) + 0.5f;
  ir::Module::parse(cvt, "cvt.pto").launch({.blocks = 1, .mode = Mode::Auto}, "c", {ir::Arg::buffer(xs), ir::Arg::buffer(out)});
  for (std::size_t i = 0; i < 64; ++i, ++compared) BOOST_TEST(out[i] == std::int32_t(std::floor(xs[i])));
  BOOST_TEST(compared == 4u * 4096u + 64u);
}

// The new families' type rules are located errors when the file compiles.
BOOST_AUTO_TEST_CASE(new_family_rules_are_located_errors) {
  const std::string T = "!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=256>", I = "!pto.tile_buf<loc=vec, dtype=i32, rows=1, cols=256>";
  auto wrap = [&](const std::string& stmt) {
    return "module {\n  func.func @f(%n: i32) {\n    %a = pto.alloc_tile : " + T + "\n    %b = pto.alloc_tile : " + T +
           "\n    %c = pto.alloc_tile : " + T + "\n    %i = pto.alloc_tile : " + I + "\n" + stmt + "\n    return\n  }\n}\n";
  };
  struct Case {
    std::string stmt, expect;
  };
  const std::vector<Case> cases = {
      {"    pto.tmrgsort ins(%a, %b, %c {exhausted = true} : " + T + ", " + T + ", " + T + ") outs(%c : " + T + ")",
       "exhausted = true (stop when a list runs out, report the counts) is not supported by pto-run yet"},
      {"    pto.ttri ins(%n {upperOrLower = 2 : i32} : i32) outs(%i : " + I + ")", "TTRI: upperOrLower must be 0 (lower) or 1 (upper)"},
      {"    pto.trandom ins(%n, %n, %n, %n, %n, %n {rounds = 5 : i32} : i32, i32, i32, i32, i32, i32) outs(%i : " + I + ")",
       "TRANDOM: rounds must be 7 or 10"},
      {"    pto.tgather ins(%a, %n, %b : " + T + ", i32, " + T + ") outs(%c : " + T + ")", "TGATHER's compare form"},
      {"    pto.tsort32 ins(%a, %i : " + T + ", " + I + ") outs(%c : " + T + ")", "TSORT32: idx must be a uint32 tile"},
      {"    pto.taxpy ins(%i, %n : " + I + ", i32) outs(%i : " + I + ")", "TAXPY: dst must be half or float"},
      {"    %m = memref.alloc() : memref<70000x16xf32, #pto.address_space<vec>>", "memref: a tile's dimensions must be static, positive and at most 65535"},
  };
  std::size_t checked = 0;
  for (const Case& c : cases) {
    const std::string e = parse_error(wrap(c.stmt));
    BOOST_TEST(e.find("t.pto:7:") != std::string::npos, e);
    BOOST_TEST(e.find(c.expect) != std::string::npos, "expected '" << c.expect << "' in '" << e << "'");
    ++checked;
  }
  BOOST_TEST(checked == cases.size());
}

// An op whose first static integer is 1 (here tcmp's cmpMode ne) writes its outs tile: only the SSA form
// makes a fresh dst (a regression: the two were told apart by that integer).
BOOST_AUTO_TEST_CASE(an_ins_outs_op_writes_its_outs_tile_whatever_its_attributes) {
  const std::string T = "!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=64>";
  const std::string M = "!pto.tile_buf<loc=vec, dtype=ui8, rows=1, cols=32>";
  const std::string text = "module {\n  func.func @k(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>, %o: !pto.ptr<f32>) {\n"
                           "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n    %c64 = arith.constant 64 : index\n"
                           "    %one = arith.constant 1.0 : f32\n    %zero = arith.constant 0.0 : f32\n"
                           "    %vx = pto.make_tensor_view %x, shape = [%c1, %c64], strides = [%c64, %c1] : !pto.tensor_view<1x64xf32>\n"
                           "    %vy = pto.make_tensor_view %y, shape = [%c1, %c64], strides = [%c64, %c1] : !pto.tensor_view<1x64xf32>\n"
                           "    %vo = pto.make_tensor_view %o, shape = [%c1, %c64], strides = [%c64, %c1] : !pto.tensor_view<1x64xf32>\n"
                           "    %tx = pto.alloc_tile : " + T + "\n    %ty = pto.alloc_tile : " + T + "\n    %ta = pto.alloc_tile : " + T + "\n"
                           "    %tb = pto.alloc_tile : " + T + "\n    %tt = pto.alloc_tile : " + T + "\n    %to = pto.alloc_tile : " + T + "\n"
                           "    %m = pto.alloc_tile : " + M + "\n"
                           "    pto.tload ins(%vx : !pto.tensor_view<1x64xf32>) outs(%tx : " + T + ")\n"
                           "    pto.tload ins(%vy : !pto.tensor_view<1x64xf32>) outs(%ty : " + T + ")\n"
                           "    pto.texpands ins(%one : f32) outs(%ta : " + T + ")\n    pto.texpands ins(%zero : f32) outs(%tb : " + T + ")\n"
                           "    pto.tcmp ins(%tx, %ty {cmpMode = #pto<cmp ne>} : " + T + ", " + T + ") outs(%m : " + M + ")\n"
                           "    pto.tsel ins(%m, %ta, %tb, %tt : " + M + ", " + T + ", " + T + ", " + T + ") outs(%to : " + T + ")\n"
                           "    pto.tstore ins(%to : " + T + ") outs(%vo : !pto.tensor_view<1x64xf32>)\n"
                           "    return\n  }\n}\n";
  std::vector<float> x(64), y(64), o(64, -1.0f);
  for (std::size_t i = 0; i < 64; ++i) x[i] = float(i % 5), y[i] = float(i % 3);
  const LaunchReport r = ir::Module::parse(text, "ne.pto").launch({.blocks = 1, .mode = Mode::Auto}, "k",
                                                                   {ir::Arg::buffer(x), ir::Arg::buffer(y), ir::Arg::buffer(o)});
  BOOST_TEST(r.findings().empty());
  std::size_t compared = 0;
  for (std::size_t i = 0; i < 64; ++i, ++compared) BOOST_TEST(o[i] == (x[i] != y[i] ? 1.0f : 0.0f));
  BOOST_TEST(compared == 64u);
}

// PTOAS's bufferized form: GM memrefs as parameters (static shapes, row-major or strided<[?, 1]>),
// memref.alloc'd UB tiles of the leading dimensions' product rows, memref.dealloc.
BOOST_AUTO_TEST_CASE(memref_parameters_and_allocations) {
  const std::string G = "memref<2x8x16xf32, #pto.address_space<gm>>", S = "memref<16x16xf32, strided<[?, 1], offset: ?>, #pto.address_space<gm>>";
  const std::string U = "memref<2x8x16xf32, #pto.address_space<vec>>";
  const std::string text = "module {\n  func.func @k(%a: " + G + ", %b: " + S + ", %o: " + G + ") {\n"
                           "    %ta = memref.alloc() : " + U + "\n    %tb = memref.alloc() : " + U + "\n"
                           "    pto.tload ins(%a : " + G + ") outs(%ta : " + U + ")\n"
                           "    pto.tload ins(%b : " + S + ") outs(%tb : " + U + ")\n"
                           "    pto.tadd ins(%ta, %tb : " + U + ", " + U + ") outs(%ta : " + U + ")\n"
                           "    pto.tstore ins(%ta : " + U + ") outs(%o : " + G + ")\n"
                           "    memref.dealloc %tb : " + U + "\n    return\n  }\n}\n";
  const ir::Module m = ir::Module::parse(text, "memref.pto");
  BOOST_TEST(int(m.params("k")[1].kind) == int(ir::Param::Kind::Pointer));
  auto a = pto_test::random_vector<float>(256, -1, 1, 400);
  auto b = pto_test::random_vector<float>(256, -1, 1, 401);
  std::vector<float> o(256, -9.0f);
  const LaunchReport r = m.launch({.blocks = 1, .mode = Mode::Auto}, "k", {ir::Arg::buffer(a), ir::Arg::buffer(b), ir::Arg::buffer(o)});
  BOOST_TEST(r.findings().empty());
  std::size_t compared = 0;
  for (std::size_t i = 0; i < 256; ++i, ++compared) BOOST_TEST(o[i] == a[i] + b[i]);
  BOOST_TEST(compared == 256u);
  std::vector<float> small(100);
  std::string e = pto_test::error_text([&] {
    m.launch({.blocks = 1, .mode = Mode::Auto}, "k", {ir::Arg::buffer(small), ir::Arg::buffer(b), ir::Arg::buffer(o)});
  });
  BOOST_TEST(e.find("argument 0 (" + G + "): the buffer holds 100 elements; the view reaches element 255") != std::string::npos, e);
  e = parse_error("module {\n  func.func @f() {\n    %t = memref.alloc() : memref<16x16xf16, #pto.address_space<mat>>\n    return\n  }\n}\n");
  BOOST_TEST(e.find("t.pto:3:27: error: memref in mat: a cube memory's tile has a layout the memref does not say") != std::string::npos, e);
}

// scf.while with a labelled after-region: s = 0 + 1 + ... + (n - 1), leaving through a tile.
BOOST_AUTO_TEST_CASE(scf_while_carries_values_until_its_condition_fails) {
  const std::string text = R"(
module {
  func.func @w(%out: !pto.ptr<f32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %r:2 = scf.while (%i = %c0, %s = %c0)
        : (index, index) -> (index, index) {
      %lt = arith.cmpi slt, %i, %n : index
      scf.condition(%lt) %i, %s : index, index
    } do {
    ^bb0(%i2: index, %s2: index):
      %s3 = arith.addi %s2, %i2 : index
      %i3 = arith.addi %i2, %c1 : index
      scf.yield %i3, %s3 : index, index
    }
    %wide = arith.index_cast %r#1 : index to i32
    %f = arith.sitofp %wide : i32 to f32
    %v = pto.make_tensor_view %out, shape = [%c1, %c8], strides = [%c8, %c1] : !pto.tensor_view<1x8xf32>
    %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c1, %c8] : !pto.tensor_view<1x8xf32> -> !pto.partition_tensor_view<1x8xf32>
    %t = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=8>
    pto.texpands ins(%f : f32) outs(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=8>)
    pto.tstore ins(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=8>) outs(%p : !pto.partition_tensor_view<1x8xf32>)
    return
  }
})";
  const ir::Module m = ir::Module::parse(text, "w.pto");
  std::size_t compared = 0;
  for (int n : {0, 1, 7, 100}) {
    std::vector<float> out(8, -1.0f);
    m.launch({.blocks = 1, .mode = Mode::Auto}, "w", {ir::Arg::buffer(out), ir::Arg::integer(n)});
    for (float v : out) {
      BOOST_TEST(v == float(n * (n - 1) / 2));
      ++compared;
    }
  }
  BOOST_TEST(compared == 32u);
  // A block label whose arguments do not match what arrives.
  std::string bad = text;
  bad.replace(bad.find("^bb0(%i2: index, %s2: index)"), std::string("^bb0(%i2: index, %s2: index)").size(), "^bb0(%i2: index)");
  BOOST_TEST(parse_error(bad).find("t.pto:12:5: error: the region's block label has 1 argument(s); 2 arrive") != std::string::npos,
             parse_error(bad));
}

BOOST_AUTO_TEST_CASE(arith_wraps_to_its_type_and_scf_carries_values) {
  // A kernel with no pto op: counts with i8 arithmetic (wrapping), a select and nested ifs; the result
  // leaves through a tile (texpands) so it can be checked.
  const std::string text = R"(
module {
  func.func @k(%out: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %c8 = arith.constant 8 : index
    %start = arith.constant 120 : i8
    %three = arith.constant 3 : i8
    %zero = arith.constant 0 : i8
    %r = scf.for %i = %c0 to %c10 step %c1 iter_args(%a = %start) -> (i8) {
      %b = arith.addi %a, %three : i8
      scf.yield %b : i8
    }
    %neg = arith.cmpi slt, %r, %zero : i8
    %picked = arith.select %neg, %r, %start : i8
    %wide = arith.extsi %picked : i8 to i32
    %f = arith.sitofp %wide : i32 to f32
    %v = pto.make_tensor_view %out, shape = [%c1, %c8], strides = [%c8, %c1] : !pto.tensor_view<1x8xf32>
    %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c1, %c8] : !pto.tensor_view<1x8xf32> -> !pto.partition_tensor_view<1x8xf32>
    %t = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=8>
    pto.texpands ins(%f : f32) outs(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=8>)
    pto.tstore ins(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=8>) outs(%p : !pto.partition_tensor_view<1x8xf32>)
    return
  }
})";
  // The same loop on std::int8_t: 120 + 10 x 3 wraps past 127 to a negative value, which the select keeps.
  std::int8_t a = 120;
  for (int i = 0; i < 10; ++i) a = std::int8_t(std::uint8_t(a) + 3u);
  if (!(a < 0)) a = 120;
  std::vector<float> out(8, 0.0f);
  ir::Module::parse(text, "wrap.pto").launch({.blocks = 1, .mode = Mode::Auto}, "k", {ir::Arg::buffer(out)});
  for (float v : out) BOOST_TEST(v == float(a));
  BOOST_TEST(a == std::int8_t(-106));  // the wrap happened (else the test could not fail on it)
}

// The view a !pto.tile_buf gives its tiles is the one Tile<...>::view() gives the same C++ type.
template <class T>
void same_view(const std::string& type, int vr, int vc) {
  const auto toks = ir::detail::tokenize(type, "t.pto");
  BOOST_TEST_REQUIRE(toks.size() == 1u);
  const ir::detail::Type t = ir::detail::parse_type(toks[0], "t.pto");
  const TileView a = t.tile.view(vr, vc);
  T tile;
  const TileView b = tile.view();
  BOOST_TEST_CONTEXT(type) {
    BOOST_TEST((a.dtype == b.dtype && a.loc == b.loc && a.pad == b.pad));
    BOOST_TEST(a.rows == b.rows);
    BOOST_TEST(a.cols == b.cols);
    BOOST_TEST(a.valid_rows == b.valid_rows);
    BOOST_TEST(a.valid_cols == b.valid_cols);
    BOOST_TEST(a.row_stride == b.row_stride);
    BOOST_TEST(a.col_stride == b.col_stride);
    BOOST_TEST(a.row_major == b.row_major);
    BOOST_TEST(a.boxed == b.boxed);
    BOOST_TEST(a.inner_rows == b.inner_rows);
    BOOST_TEST(a.inner_cols == b.inner_cols);
    BOOST_TEST(a.inner_row_major == b.inner_row_major);
    BOOST_TEST(a.static_valid_rows == b.static_valid_rows);
    BOOST_TEST(a.static_valid_cols == b.static_valid_cols);
    BOOST_TEST(t.tile.bytes() == T::GetSizeInBytes());
  }
}

BOOST_AUTO_TEST_CASE(tile_buf_views_equal_the_cpp_tiles) {
  same_view<Tile<TileType::Vec, float, 16, 64>>("!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=16, v_col=64>", 16, 64);
  same_view<Tile<TileType::Vec, float, 16, 64, BLayout::RowMajor, -1, -1>>(
      "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=?, v_col=?, blayout=row_major, slayout=none_box, fractal=512, pad=0>", 16, 64);
  same_view<Tile<TileType::Vec, half, 16, 1, BLayout::ColMajor>>("!pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=1, blayout=col_major>", 16, 1);
  same_view<Tile<TileType::Mat, half, 32, 32, BLayout::ColMajor, 32, 32, SLayout::RowMajor, 512>>(
      "!pto.tile_buf<loc=mat, dtype=f16, rows=32, cols=32, v_row=32, v_col=32, blayout=col_major, slayout=row_major, fractal=512, pad=0>", 32, 32);
  same_view<Tile<TileType::Mat, half, 32, 32, BLayout::RowMajor, 32, 32, SLayout::ColMajor, 512>>(
      "!pto.tile_buf<slayout=col_major, loc=mat, dtype=f16, rows=32, cols=32, blayout=row_major>", 32, 32);
  same_view<Tile<TileType::Acc, float, 16, 32, BLayout::ColMajor, 16, 32, SLayout::RowMajor, 1024>>(
      "!pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=32, blayout=col_major, slayout=row_major, fractal=1024>", 16, 32);
  same_view<Tile<TileType::Vec, std::int8_t, 8, 64, BLayout::RowMajor, 8, 64, SLayout::NoneBox, 512, PadValue::Max>>(
      "!pto.tile_buf<loc=vec, dtype=i8, rows=8, cols=64, pad=2>", 8, 64);
  // PTOAS's compact form: location, ROWSxCOLSxDTYPE, then keys.
  same_view<Tile<TileType::Left, float, 32, 32, BLayout::RowMajor, 32, 32, SLayout::RowMajor, 512>>(
      "!pto.tile_buf<left, 32x32xf32, slayout=row_major>", 32, 32);
}

// TDIVS with the scalar first (`ins(%s, %t : f32, T)`) divides the scalar by each element.
BOOST_AUTO_TEST_CASE(tdivs_takes_its_scalar_first_or_second) {
  const std::string T = "!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=64>";
  auto kernel = [&](bool first) {
    return "module {\n  func.func @k(%x: !pto.ptr<f32>) {\n    %c0 = arith.constant 0 : index\n"
           "    %c1 = arith.constant 1 : index\n    %c64 = arith.constant 64 : index\n    %s = arith.constant 6.0 : f32\n"
           "    %v = pto.make_tensor_view %x, shape = [%c1, %c64], strides = [%c64, %c1] : !pto.tensor_view<1x64xf32>\n"
           "    %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c1, %c64] : !pto.tensor_view<1x64xf32> -> !pto.partition_tensor_view<1x64xf32>\n"
           "    %t = pto.alloc_tile : " + T + "\n    %d = pto.alloc_tile : " + T + "\n"
           "    pto.tload ins(%p : !pto.partition_tensor_view<1x64xf32>) outs(%t : " + T + ")\n" +
           (first ? "    pto.tdivs ins(%s, %t : f32, " + T + ") outs(%d : " + T + ")\n"
                  : "    pto.tdivs ins(%t, %s : " + T + ", f32) outs(%d : " + T + ")\n") +
           "    pto.tstore ins(%d : " + T + ") outs(%p : !pto.partition_tensor_view<1x64xf32>)\n    return\n  }\n}\n";
  };
  for (bool first : {false, true}) {
    auto x = pto_test::random_vector<float>(64, 0.5, 2, 91);
    const std::vector<float> in = x;
    ir::Module::parse(kernel(first), "tdivs.pto").launch({.blocks = 1, .mode = Mode::Auto}, "k", {ir::Arg::buffer(x)});
    std::size_t compared = 0;
    for (std::size_t i = 0; i < x.size(); ++i, ++compared) {
      const double ref = first ? 6.0 / double(in[i]) : double(in[i]) / 6.0;
      BOOST_TEST(std::fabs(x[i] - ref) <= 1e-6 * std::fabs(ref));
    }
    BOOST_TEST(compared == 64u);
  }
}

// The SSA form of the seed articles (`%d = pto.tmuls %a, %s : T, f32 -> T`): dst is a new tile.
BOOST_AUTO_TEST_CASE(the_ssa_form_makes_its_result_tile) {
  const std::string T = "!pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=64>";
  const std::string text = "module {\n  func.func @k(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>) {\n"
                           "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n"
                           "    %c8 = arith.constant 8 : index\n    %c64 = arith.constant 64 : index\n"
                           "    %three = arith.constant 3.0 : f32\n"
                           "    %vx = pto.make_tensor_view %x, shape = [%c8, %c64], strides = [%c64, %c1] : !pto.tensor_view<8x64xf32>\n"
                           "    %vy = pto.make_tensor_view %y, shape = [%c8, %c64], strides = [%c64, %c1] : !pto.tensor_view<8x64xf32>\n"
                           "    %px = pto.partition_view %vx, offsets = [%c0, %c0], sizes = [%c8, %c64] : !pto.tensor_view<8x64xf32> -> !pto.partition_tensor_view<8x64xf32>\n"
                           "    %py = pto.partition_view %vy, offsets = [%c0, %c0], sizes = [%c8, %c64] : !pto.tensor_view<8x64xf32> -> !pto.partition_tensor_view<8x64xf32>\n"
                           "    %t = pto.alloc_tile : " + T + "\n"
                           "    pto.tload ins(%px : !pto.partition_tensor_view<8x64xf32>) outs(%t : " + T + ")\n"
                           "    %m = pto.tmuls %t, %three : " + T + ", f32 -> " + T + "\n"
                           "    %s = pto.tadd %m, %t : " + T + ", " + T + " -> " + T + "\n"
                           "    %e = pto.texp %s : " + T + " -> " + T + "\n"
                           "    pto.tstore ins(%e : " + T + ") outs(%py : !pto.partition_tensor_view<8x64xf32>)\n"
                           "    return\n  }\n}\n";
  auto x = pto_test::random_vector<float>(8 * 64, -1, 1, 77);
  std::vector<float> y(8 * 64, 0.0f);
  const LaunchReport r = ir::Module::parse(text, "ssa.pto").launch({.blocks = 1, .mode = Mode::Auto}, "k", {ir::Arg::buffer(x), ir::Arg::buffer(y)});
  BOOST_TEST(r.findings().empty());
  std::size_t compared = 0;
  for (std::size_t i = 0; i < x.size(); ++i, ++compared) {
    const double ref = std::exp(4.0 * double(x[i]));
    BOOST_TEST(std::fabs(y[i] - ref) <= 2e-6 * ref);
  }
  BOOST_TEST(compared == 512u);
}

// Literal addresses (0 included) in manual mode, -inf written as MLIR prints it (bits), and integer
// rules: a host value must fit its parameter, division by zero is an error after the wrap.
BOOST_AUTO_TEST_CASE(literal_addresses_hex_floats_and_integer_rules) {
  const std::string T = "!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=8>";
  const std::string text = "module {\n  func.func @k(%out: !pto.ptr<f32>, %d: i8) {\n    %c0 = arith.constant 0 : index\n"
                           "    %c1 = arith.constant 1 : index\n    %c8 = arith.constant 8 : index\n"
                           "    %ninf = arith.constant 0xFF800000 : f32\n    %x = arith.constant 7 : i8\n"
                           "    %q = arith.remui %x, %d : i8\n"
                           "    %v = pto.make_tensor_view %out, shape = [%c1, %c8], strides = [%c8, %c1] : !pto.tensor_view<1x8xf32>\n"
                           "    %p = pto.partition_view %v, offsets = [0, 0], sizes = [1, 8] : !pto.tensor_view<1x8xf32> -> !pto.partition_tensor_view<1x8xf32>\n"
                           "    %t = pto.alloc_tile addr = 0 : " + T + "\n"
                           "    pto.texpands ins(%ninf : f32) outs(%t : " + T + ")\n"
                           "    pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]\n    pto.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]\n"
                           "    pto.tstore ins(%t : " + T + ") outs(%p : !pto.partition_tensor_view<1x8xf32>)\n    return\n  }\n}\n";
  const ir::Module m = ir::Module::parse(text, "lit.pto");
  std::vector<float> out(8, 0.0f);
  const LaunchReport r = m.launch({.blocks = 1, .mode = Mode::Manual}, "k", {ir::Arg::buffer(out), ir::Arg::integer(3)});
  BOOST_TEST(r.findings().empty(), r);
  for (float v : out) BOOST_TEST((std::isinf(v) && v < 0));
  std::string e = pto_test::error_text([&] { m.launch({.blocks = 1, .mode = Mode::Manual}, "k", {ir::Arg::buffer(out), ir::Arg::integer(256)}); });
  BOOST_TEST(e.find("argument 1 (i8): 256 does not fit i8") != std::string::npos, e);
  e = pto_test::error_text([&] { m.launch({.blocks = 1, .mode = Mode::Manual}, "k", {ir::Arg::buffer(out), ir::Arg::integer(0)}); });
  BOOST_TEST(e.find("lit.pto:8:10: error: arith.remui: division by zero") != std::string::npos, e);
  // A negative literal size, a return inside scf.if, an event id past 7.
  BOOST_TEST(parse_error(std::string(text).replace(text.find("sizes = [1, 8]"), 14, "sizes = [1, -8]")).find("must not be negative") !=
             std::string::npos);
  BOOST_TEST(parse_error("module {\n  func.func @f(%c: i1) {\n    scf.if %c {\n      return\n    }\n    return\n  }\n}\n")
                 .find("t.pto:4:7: error: return: a return belongs at the end of the function's body") != std::string::npos);
  BOOST_TEST(parse_error(std::string(text).replace(text.find("<EVENT_ID0>]\n    pto.wait"), 11, "<EVENT_ID12>")).find("EVENT_ID0 ... EVENT_ID7") !=
             std::string::npos);
}

// set_validshape narrows a dynamic valid shape for what follows: 2.0 lands in the top-left 4 x 32 only.
BOOST_AUTO_TEST_CASE(set_validshape_changes_the_valid_region_of_later_instructions) {
  const std::string T = "!pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=64, v_row=?, v_col=?>";
  const std::string text = "module {\n  func.func @k(%out: !pto.ptr<f32>) {\n    %c0 = arith.constant 0 : index\n"
                           "    %c1 = arith.constant 1 : index\n    %c4 = arith.constant 4 : index\n    %c8 = arith.constant 8 : index\n"
                           "    %c32 = arith.constant 32 : index\n    %c64 = arith.constant 64 : index\n"
                           "    %one = arith.constant 1.0 : f32\n    %two = arith.constant 2.0 : f32\n"
                           "    %v = pto.make_tensor_view %out, shape = [%c8, %c64], strides = [%c64, %c1] : !pto.tensor_view<8x64xf32>\n"
                           "    %p = pto.partition_view %v, offsets = [0, 0], sizes = [8, 64] : !pto.tensor_view<8x64xf32> -> !pto.partition_tensor_view<8x64xf32>\n"
                           "    %t = pto.alloc_tile valid_row = %c8 valid_col = %c64 : " + T + "\n"
                           "    pto.texpands ins(%one : f32) outs(%t : " + T + ")\n"
                           "    pto.set_validshape %t, %c4, %c32 : " + T + "\n"
                           "    pto.texpands ins(%two : f32) outs(%t : " + T + ")\n"
                           "    pto.set_validshape %t, %c8, %c64 : " + T + "\n"
                           "    pto.tstore ins(%t : " + T + ") outs(%p : !pto.partition_tensor_view<8x64xf32>)\n    return\n  }\n}\n";
  std::vector<float> out(8 * 64, 0.0f);
  const LaunchReport r = ir::Module::parse(text, "valid.pto").launch({.blocks = 1, .mode = Mode::Auto}, "k", {ir::Arg::buffer(out)});
  BOOST_TEST(r.findings().empty(), r);
  std::size_t compared = 0;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 64; ++j, ++compared) BOOST_TEST(out[std::size_t(i * 64 + j)] == (i < 4 && j < 32 ? 2.0f : 1.0f));
  BOOST_TEST(compared == 512u);
  const std::string e = pto_test::error_text([&] {
    ir::Module::parse(std::string(text).replace(text.find("%c4, %c32"), 9, "%c8, %c64, %c1"), "valid.pto");
  });
  BOOST_TEST(!e.empty());
}

BOOST_AUTO_TEST_CASE(errors_name_the_file_line_and_column) {
  struct Case {
    std::string text, expect;
  };
  const std::vector<Case> cases = {
      {"module {\n  func.func @f() {\n    %a = arith.addi %x, %x : index\n    return\n  }\n}\n",
       "t.pto:3:21: error: arith.addi: '%x' is used but not defined before this point"},
      {"module {\n  func.func @f() {\n    pto.tfoo\n    return\n  }\n}\n", "t.pto:3:5: error: 'pto.tfoo' is not an operation pto-run knows"},
      {"module {\n  func.func @f() {\n    %t = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=f32, rows=16>\n    return\n  }\n}\n",
       "t.pto:3:27: error: !pto.tile_buf: missing key 'cols'"},
      {"module {\n  func.func @f() {\n    %c = arith.constant 1 : index\n    %c = arith.constant 2 : index\n    return\n  }\n}\n",
       "t.pto:4:10: error: '%c' is defined twice"},
      {"module {\n  func.func @f() {\n    %t = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=8\n", "t.pto:3:40: error: unterminated '<'"},
      {"module {\n  func.func @f() {\n    return\n  }\n", "t.pto:1:8: error: region '{' is never closed"},
      {"module {\n  func.func @f(%a: i32) {\n    func.call @g(%a) : (i32) -> ()\n    return\n  }\n"
       "  func.func @g(%a: i32) {\n    func.call @f(%a) : (i32) -> ()\n    return\n  }\n}\n",
       "t.pto:7:5: error: func.call: recursion (@f -> @g -> @f) is not supported"},
      {"module {\n  func.func @f(%a: !pto.ptr<f32>) {\n    %t = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=8>\n"
       "    pto.tadd ins(%t, %a : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=8>, !pto.ptr<f32>) outs(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=8>)\n"
       "    return\n  }\n}\n",
       "t.pto:4:5: error: pto.tadd: operand src1 must be a !pto.tile_buf, not !pto.ptr<f32>"},
      // found by fuzz_ir: an arith op without its result threw std::out_of_range
      {"module {\n  func.func @f(%a: i64) {\n    arith.addi %a, %a : i64\n    return\n  }\n}\n",
       "t.pto:3:5: error: arith.addi: computes a value; name its result (%r = arith.addi ...)"},
      {"module {\n  func.func @f() {\n    %t = pto.alloc_tile : !pto.tile_buf<loc=mat, dtype=f32, rows=8, cols=8>\n"
       "    pto.texp ins(%t : !pto.tile_buf<loc=mat, dtype=f32, rows=8, cols=8>) outs(%t : !pto.tile_buf<loc=mat, dtype=f32, rows=8, cols=8>)\n"
       "    return\n  }\n}\n",
       "must be a Vec tile (loc=vec)"},
  };
  std::size_t checked = 0;
  for (const Case& c : cases) {
    const std::string e = parse_error(c.text);
    BOOST_TEST(e.find(c.expect) != std::string::npos, "expected '" << c.expect << "' in '" << e << "'");
    ++checked;
  }
  BOOST_TEST(checked == cases.size());
}

BOOST_AUTO_TEST_CASE(run_time_rules_are_located_errors_too) {
  const ir::Module m = ir::Module::load(kEx + "/vadd.pto");
  std::vector<float> a(16 * 64), b(16 * 64), c(16 * 64);
  std::vector<half> h(16 * 64);
  // Rows beyond the buffer: a window past its view is legal (as on the chips), the load past the
  // argument's bytes is not.
  std::string e = pto_test::error_text([&] {
    m.launch({.blocks = 2, .mode = Mode::Auto}, "vadd", {ir::Arg::buffer(a), ir::Arg::buffer(b), ir::Arg::buffer(c), ir::Arg::integer(16)});
  });
  // (line 19 loads a, line 20 b: where a's overrun lands in b's buffer, as the allocator may place them,
  // the first load past every buffer is b's)
  BOOST_TEST((e.find("vadd.pto:19:5: error: TLOAD: operand src") != std::string::npos ||
              e.find("vadd.pto:20:5: error: TLOAD: operand src") != std::string::npos), e);
  BOOST_TEST(e.find("reads GM bytes") != std::string::npos, e);
  // A buffer of the wrong element type, and a missing argument.
  e = pto_test::error_text([&] {
    m.launch({.blocks = 1, .mode = Mode::Auto}, "vadd", {ir::Arg::buffer(h), ir::Arg::buffer(b), ir::Arg::buffer(c), ir::Arg::integer(16)});
  });
  BOOST_TEST(e.find("argument 0 (!pto.ptr<f32>): the buffer holds half elements") != std::string::npos, e);
  e = pto_test::error_text([&] { m.launch({.blocks = 1}, "vadd", {ir::Arg::buffer(a)}); });
  BOOST_TEST(e.find("@vadd takes 4 arguments; 1 given") != std::string::npos, e);
  // Manual mode needs addresses.
  e = pto_test::error_text([&] {
    m.launch({.blocks = 1, .mode = Mode::Manual}, "vadd", {ir::Arg::buffer(a), ir::Arg::buffer(b), ir::Arg::buffer(c), ir::Arg::integer(16)});
  });
  BOOST_TEST(e.find("the tile has no address; give its alloc_tile `addr = ...`") != std::string::npos, e);
}

// Template parameters (a tiling search's knobs): ${NAME} replaced before parsing, a missing or malformed
// one a located error, and the instantiated kernel computing like one written with the value.
BOOST_AUTO_TEST_CASE(template_parameters_are_replaced_before_parsing) {
  const std::string tpl = "// ${ROWS} rows\nmodule {\n  %x = arith.constant ${ROWS} : index ${B}\n}\n";
  BOOST_TEST(ir::Module::instantiate(tpl, {{"ROWS", "64"}, {"B", "x_1"}}) ==
             "// 64 rows\nmodule {\n  %x = arith.constant 64 : index x_1\n}\n");
  auto error = [&](const std::string& text, std::map<std::string, std::string> v) {
    return pto_test::error_text([&] { ir::Module::instantiate(text, v, "t.pto"); });
  };
  BOOST_TEST(error(tpl, {{"ROWS", "64"}}).find("t.pto:3:39: error: ${B} has no value: give it values with pto-run --param B=") == 0u,
             error(tpl, {{"ROWS", "64"}}));
  BOOST_TEST(error("a ${} b", {}).find("t.pto:1:3: error: a template parameter is written ${NAME}") == 0u);
  BOOST_TEST(error("a ${ROWS b", {{"ROWS", "1"}}).find("t.pto:1:3: error: a template parameter is written ${NAME}") == 0u);
  BOOST_TEST(error("${A}", {{"A", "1; x"}}).find("template parameter 'A' = '1; x': a name is letters") != std::string::npos);
  BOOST_TEST(error("${A}", {{"A", ""}}).find("template parameter 'A' = ''") != std::string::npos);
  BOOST_TEST(error("${A}", {{"A", "1"}, {"9x", "1"}}).find("template parameter '9x'") != std::string::npos);
  // Without values, the parser names the parameter where it stands.
  BOOST_TEST(parse_error("module {\n  %x = arith.constant ${ROWS} : index\n}\n")
                 .find("t.pto:2:23: error: ${ROWS} is a template parameter: give it values with pto-run --param ROWS=") == 0u,
             parse_error("module {\n  %x = arith.constant ${ROWS} : index\n}\n"));
}

BOOST_AUTO_TEST_CASE(an_instantiated_kernel_computes_as_written_with_its_value) {
  const std::string path = kEx + "/axpy_tiling.pto";
  std::ifstream is(path);
  const std::string tpl((std::istreambuf_iterator<char>(is)), std::istreambuf_iterator<char>());
  const std::vector<float> x = pto_test::random_vector<float>(2 * 1024 * 64, -4, 4, 11);
  int compared = 0;
  for (const char* rows : {"16", "128"}) {
    const ir::Module m = ir::Module::parse(ir::Module::instantiate(tpl, {{"ROWS", rows}}, path), path);
    std::vector<float> y(x.size(), -1.0f);
    m.launch({.blocks = 2, .mode = Mode::Auto}, "axpy_tiling",
             {ir::Arg::buffer(const_cast<float*>(x.data()), x.size() * 4, DType::F32), ir::Arg::buffer(y.data(), y.size() * 4, DType::F32),
              ir::Arg::real(2.0), ir::Arg::real(1.0)});
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double ref = 2.0 * double(x[i]) + 1.0;  // two roundings: within 2 ulp of the exact value
      BOOST_TEST(std::fabs(double(y[i]) - ref) <= 2.0 * std::ldexp(std::fabs(ref), -23) + 1e-30, rows << " at " << i);
      ++compared;
    }
  }
  BOOST_TEST(compared == 2 * 2 * 1024 * 64);
}
