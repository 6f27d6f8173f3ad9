// pto-run as a user runs it: .npy and .bin arguments, --out, --golden with its exit status, --check,
// --trace, and the errors (exit 2, the message on stderr).
#define BOOST_TEST_MODULE pto_run
#include <boost/test/unit_test.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <xtensor/xnpy.hpp>

#include "test_util.hpp"

namespace {

const std::string kTool = PTO_RUN_PATH, kDir = PTO_TEST_IR_DIR, kEx = PTO_EXAMPLES_PTO_DIR;

struct Result {
  int status = -1;
  std::string output;  // stdout and stderr
};
Result run(const std::string& args) {
  Result r;
  FILE* p = popen((kTool + " " + args + " 2>&1").c_str(), "r");
  BOOST_TEST_REQUIRE(p != nullptr);
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

void write_npy(const std::string& path, const std::vector<float>& v, std::vector<std::size_t> shape) {
  std::ofstream os(path, std::ios::binary);
  xt::detail::write_header(os, "<f4", false, shape);
  os.write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(float)));
}
std::vector<float> read_npy(const std::string& path) {
  std::ifstream is(path, std::ios::binary);
  auto f = xt::detail::load_npy_file(is);
  BOOST_TEST(f.m_typestring == "<f4");
  const float* p = reinterpret_cast<const float*>(f.ptr());
  return std::vector<float>(p, p + f.n_bytes() / sizeof(float));
}

struct Files {
  std::string a = pto_test::temp_path("a.npy"), b = pto_test::temp_path("b.npy"), ref = pto_test::temp_path("ref.npy"),
              c = pto_test::temp_path("c.npy"), raw = pto_test::temp_path("b.bin"), trace = pto_test::temp_path("run.json"),
              trunc = pto_test::temp_path("trunc.npy");
  std::vector<float> va, vb, sum;
  Files() {
    va = pto_test::random_vector<float>(32 * 64, -3, 3, 5);
    vb = pto_test::random_vector<float>(32 * 64, -3, 3, 6);
    for (std::size_t i = 0; i < va.size(); ++i) sum.push_back(float(double(va[i]) + double(vb[i])));
    write_npy(a, va, {32, 64});
    write_npy(b, vb, {32, 64});
    write_npy(ref, sum, {32, 64});
    std::ofstream(raw, std::ios::binary).write(reinterpret_cast<const char*>(vb.data()), std::streamsize(vb.size() * 4));
    std::ofstream t(trunc, std::ios::binary);  // a header for 32 x 64 floats, then half of them
    xt::detail::write_header(t, "<f4", false, std::vector<std::size_t>{32, 64});
    t.write(reinterpret_cast<const char*>(va.data()), std::streamsize(va.size() * 2));
  }
  ~Files() {
    for (const auto& p : {a, b, ref, c, raw, trace, trunc}) std::filesystem::remove(p);
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(a_run_writes_its_output_and_passes_its_golden) {
  Files f;
  const std::string vadd = kEx + "/vadd.pto";
  Result r = run(vadd + " --blocks 2 --arg " + f.a + " --arg " + f.raw + ":f32:32x64 --arg f32:32x64 --arg 32 --out 2=" + f.c +
                 " --golden 2=" + f.ref + " --trace " + f.trace);
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(r.output.find("golden 2 (" + f.ref + "): 2048 elements, 0 mismatch(es)") != std::string::npos, r.output);
  BOOST_TEST(r.output.find("launch: 2 core(s), target A2A3, auto mode") != std::string::npos, r.output);
  BOOST_TEST(read_npy(f.c) == f.sum, boost::test_tools::per_element());
  BOOST_TEST(std::filesystem::file_size(f.trace) > 100u);
}

// numpy has no bfloat16: a bf16 parameter takes a uint16 .npy of the bits.
BOOST_AUTO_TEST_CASE(a_bf16_parameter_takes_the_bits_as_uint16) {
  const std::string x = pto_test::temp_path("x16.npy"), y = pto_test::temp_path("y.npy"), ref = pto_test::temp_path("y_ref.npy");
  std::vector<std::uint16_t> bits(8 * 64);
  std::vector<float> twice(8 * 64);
  for (std::size_t i = 0; i < bits.size(); ++i) {
    const float v = float(int(i % 97) - 48) / 8.0f;  // exact in bfloat16
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    bits[i] = std::uint16_t(u >> 16);
    twice[i] = 2 * v;
  }
  {
    std::ofstream os(x, std::ios::binary);
    xt::detail::write_header(os, "<u2", false, std::vector<std::size_t>{8, 64});
    os.write(reinterpret_cast<const char*>(bits.data()), std::streamsize(bits.size() * 2));
  }
  write_npy(ref, twice, {8, 64});
  const Result r = run(kDir + "/bf16_scale.pto --arg " + x + " --arg f32:8x64 --out 1=" + y + " --golden 1=" + ref + " --atol 0 --rtol 0");
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(read_npy(y) == twice, boost::test_tools::per_element());
  for (const auto& p : {x, y, ref}) std::filesystem::remove(p);
}

BOOST_AUTO_TEST_CASE(a_golden_mismatch_exits_1_and_counts_the_bad_elements) {
  Files f;
  std::vector<float> wrong = f.sum;
  for (std::size_t i : {3u, 700u, 2047u}) wrong[i] += 0.5f;
  write_npy(f.ref, wrong, {32, 64});
  const Result r = run(kEx + "/vadd.pto --blocks 2 --arg " + f.a + " --arg " + f.b + " --arg f32:32x64 --arg 32 --golden 2=" + f.ref);
  BOOST_TEST(r.status == 1, r.output);
  BOOST_TEST(r.output.find("3 mismatch(es)") != std::string::npos, r.output);
  BOOST_TEST(r.output.find("first at element 3") != std::string::npos, r.output);
}

BOOST_AUTO_TEST_CASE(errors_exit_2_with_a_message) {
  Files f;
  const std::string vadd = kEx + "/vadd.pto";
  struct Case {
    std::string args, expect;
  };
  const std::vector<Case> cases = {
      {vadd + " --arg " + f.a, "@vadd takes 4 argument(s) (!pto.ptr<f32>, !pto.ptr<f32>, !pto.ptr<f32>, index); 1 --arg given"},
      {vadd + " --arg " + f.a + " --arg " + f.b + " --arg i32:32x64 --arg 32", "holds int32 elements; the parameter !pto.ptr<f32> takes float"},
      {vadd + " --arg " + f.a + " --arg " + f.b + " --arg f32:32x64 --arg x", "--arg x: the parameter index takes a number"},
      {vadd + " --arg " + f.a + " --arg " + f.raw + ":f32:16x64 --arg f32:32x64 --arg 32", "holds 8192 bytes; 16x64 f32 elements are 4096"},
      {vadd + " --arg " + f.a + " --arg " + f.b + " --arg f32:32x64 --arg 32 --out 3=x.npy", "--out 3=x.npy: argument 3 is not a GM buffer"},
      {vadd + " --blocks 3 --arg " + f.a + " --arg " + f.b + " --arg f32:32x64 --arg 48",
       "vadd.pto:19:5: error: TLOAD: operand src GlobalTensor<float,ND> shape(1,1,1,16,64) stride(1,1,1,64,1) reads GM bytes"},
      {kDir + "/missing.pto", "cannot open the file"},
      {vadd + " --target a9", "--target a9: a2a3 or a5"},
      {vadd + " --arg " + f.a + " --arg f32:1048576x1048576x1048576 --arg f32:32x64 --arg 32", "an array shape of more than 2^36 elements"},
      {vadd + " --arg " + f.trunc + " --arg " + f.b + " --arg f32:32x64 --arg 32", ": the file ends before its header's 8192 bytes of data"},
  };
  for (const Case& c : cases) {
    const Result r = run(c.args);
    BOOST_TEST(r.status == 2, c.args << ": " << r.output);
    BOOST_TEST(r.output.find(c.expect) != std::string::npos, c.args << ": " << r.output);
  }
}

BOOST_AUTO_TEST_CASE(check_verifies_without_running) {
  const Result ok = run(kDir + "/accum.pto --check --entry accum");
  BOOST_TEST(ok.status == 0, ok.output);
  BOOST_TEST(ok.output.find("ok (2 function(s); entry @accum takes 5 argument(s))") != std::string::npos, ok.output);
  const Result all = run(kDir + "/accum.pto --check");
  BOOST_TEST(all.status == 0, all.output);
  BOOST_TEST(all.output.find("ok (2 function(s): @halve @accum)") != std::string::npos, all.output);
  const std::string bad = pto_test::temp_path("bad.pto");
  std::ofstream(bad) << "module {\n  func.func @f() {\n    %x = arith.addi %y, %y : index\n    return\n  }\n}\n";
  const Result r = run(bad + " --check");
  std::filesystem::remove(bad);
  BOOST_TEST(r.status == 2);
  BOOST_TEST(r.output.find(bad + ":3:21: error: arith.addi: '%y' is used but not defined") != std::string::npos, r.output);
}

// Every file of examples/pto verifies, and the cluster example runs from the command line on 2 clusters
// and passes a golden computed here in double precision.
BOOST_AUTO_TEST_CASE(the_examples_verify_and_the_cluster_example_runs) {
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(kEx)) {
    if (e.path().extension() != ".pto") continue;
    std::ifstream is(e.path());
    const std::string text((std::istreambuf_iterator<char>(is)), std::istreambuf_iterator<char>());
    const bool tpl = text.find("${ROWS}") != std::string::npos;  // axpy_tiling.pto: a template
    const Result r = run(e.path().string() + " --check" + (tpl ? " --param ROWS=64" : ""));
    BOOST_TEST(r.status == 0, e.path() << ": " << r.output);
    ++files;
  }
  BOOST_TEST(files >= 5u);
  const std::string a = pto_test::temp_path("cm_a.npy"), b = pto_test::temp_path("cm_b.npy"), ref = pto_test::temp_path("cm_ref.npy");
  std::vector<float> va(32 * 16), vb(32 * 16), vr(32 * 16);
  for (std::size_t i = 0; i < va.size(); ++i) va[i] = float(int(i % 13) - 6) / 8.0f, vb[i] = float(int(i % 7) - 3) / 4.0f;
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        double s = 1.0;  // the bias argument
        for (int p = 0; p < 16; ++p) s += double(va[std::size_t(k * 256 + i * 16 + p)]) * vb[std::size_t(k * 256 + p * 16 + j)];
        vr[std::size_t(k * 256 + i * 16 + j)] = float(s);  // exact: small dyadic products
      }
  write_npy(a, va, {32, 16});
  write_npy(b, vb, {32, 16});
  write_npy(ref, vr, {32, 16});
  const Result r = run(kEx + "/cluster_matmul.pto --blocks 2 --arg " + a + " --arg " + b + " --arg f32:32x16 --arg f32:2x8192 --arg 1.0 --golden 2=" +
                       ref + " --atol 0 --rtol 0");
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(r.output.find("launch: 6 core(s)") != std::string::npos, r.output);
  BOOST_TEST(r.output.find("512 elements, 0 mismatch(es)") != std::string::npos, r.output);
  for (const auto& p : {a, b, ref}) std::filesystem::remove(p);
}

namespace {
// "  rank  candidate  cycles ..." rows of a search's ranking: candidate -> modeled cycles.
std::map<std::string, unsigned long long> ranking_cycles(const std::string& out) {
  std::map<std::string, unsigned long long> m;
  std::istringstream is(out);
  for (std::string line; std::getline(is, line);) {
    std::istringstream ls(line);
    int rank = 0;
    std::string name;
    unsigned long long cycles = 0;
    if (ls >> rank >> name >> cycles) m[name] = cycles;
  }
  return m;
}
unsigned long long modeled_cycles(const std::string& out) {
  const auto at = out.find("modeled: ");
  return at == std::string::npos ? 0 : std::stoull(out.substr(at + 9));
}
}  // namespace

// --param with several values: every combination model only, ranked; each candidate's cycles are those
// of the same file run alone with that value, and one that does not fit is listed with its error.
BOOST_AUTO_TEST_CASE(a_param_grid_is_a_tiling_search) {
  const std::string axpy = kEx + "/axpy_tiling.pto", args = " --blocks 2 --arg f32:2048x64 --arg f32:2048x64 --arg 2.0 --arg 1.0";
  const Result r = run(axpy + " --param ROWS=16,1024,64,256" + args);
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(r.output.find("4 candidates, model only on 2 core(s)") != std::string::npos, r.output);
  BOOST_TEST(r.output.find("1 candidate(s) did not run:\n    ROWS=1024: core 0: " + axpy + ":26:7: error: TLOAD") != std::string::npos, r.output);
  BOOST_TEST(r.output.find("is larger than all of it") != std::string::npos, r.output);
  const auto ranked = ranking_cycles(r.output);
  BOOST_TEST_REQUIRE(ranked.size() == 3u, r.output);
  unsigned long long previous = 0;
  for (const char* rows : {"256", "64", "16"}) {  // fewer, bigger tiles first
    const Result one = run(axpy + " --model-only --param ROWS=" + rows + args);
    BOOST_TEST(one.status == 0, one.output);
    BOOST_TEST(ranked.at(std::string("ROWS=") + rows) == modeled_cycles(one.output), rows << ": " << one.output);
    BOOST_TEST(ranked.at(std::string("ROWS=") + rows) > previous);
    previous = ranked.at(std::string("ROWS=") + rows);
  }
  BOOST_TEST(r.output.find("rank  candidate") < r.output.find("ROWS=256"));
  BOOST_TEST(r.output.find("ROWS=256") < r.output.find("ROWS=64 "));
}

BOOST_AUTO_TEST_CASE(one_value_per_param_is_an_ordinary_run) {
  const std::string x = pto_test::temp_path("tx.npy"), y = pto_test::temp_path("ty.npy");
  const std::vector<float> vx = pto_test::random_vector<float>(2048 * 64, -4, 4, 13);
  write_npy(x, vx, {2048, 64});
  const Result r = run(kEx + "/axpy_tiling.pto --blocks 2 --param ROWS=32 --arg " + x + " --arg f32:2048x64 --arg 0.5 --arg -3 --out 1=" + y);
  BOOST_TEST(r.status == 0, r.output);
  const std::vector<float> vy = read_npy(y);
  BOOST_TEST_REQUIRE(vy.size() == vx.size());
  std::size_t compared = 0;
  for (std::size_t i = 0; i < vx.size(); ++i, ++compared) BOOST_TEST(vy[i] == float(0.5 * double(vx[i]) - 3.0), i);  // exact: x / 2 - 3 in [-5, -1]
  BOOST_TEST(compared == 2048u * 64u);
  for (const auto& p : {x, y}) std::filesystem::remove(p);
}

BOOST_AUTO_TEST_CASE(param_errors_exit_2_with_a_message) {
  const std::string axpy = kEx + "/axpy_tiling.pto", args = " --arg f32:1024x64 --arg f32:1024x64 --arg 2.0 --arg 1.0";
  struct Case {
    std::string args, expect;
  };
  const std::vector<Case> cases = {
      {axpy + args, axpy + ":14:28: error: ${ROWS} is a template parameter: give it values with pto-run --param ROWS="},
      {axpy + " --param ROWS=64 --param COLS=1,2" + args, "--param COLS: neither " + axpy + " nor an --arg uses ${COLS}"},
      {axpy + " --param ROWS=64 --param ROWS=32" + args, "--param ROWS is given twice"},
      {axpy + " --param ROWS=64,,32" + args, "--param ROWS=64,,32: an empty value"},
      {axpy + " --param ROWS=64," + args, "--param ROWS=64,: an empty value"},
      {axpy + " --param ROWS" + args, "--param ROWS: expected NAME=V1,V2,..."},
      {axpy + " --param 'ROWS=6;4'" + args, "template parameter 'ROWS' = '6;4'"},
      {axpy + " --param ROWS=16,32 --out 1=y.npy" + args, "--param with several values runs a tiling search, model only"},
  };
  for (const Case& c : cases) {
    const Result r = run(c.args);
    BOOST_TEST(r.status == 2, c.args << ": " << r.output);
    BOOST_TEST(r.output.find(c.expect) != std::string::npos, c.args << ": " << r.output);
  }
}
