// PTO IR speed (issue: "parsing and verifying is not the bottleneck; an IR kernel runs within 1.5x of the
// same kernel written in C++"). Prints, in one run:
//  1. parse + verify (pto::ir::Module::parse) of a generated 10,000-line file: median seconds of 5 runs
//     and lines per second (goal: under 0.2 s);
//  2. one kernel written as a .pto file and in C++ (a loop of TLOAD, TMULS, TADD, TSTORE over 16 x 64
//     f32 tiles on 1 core, auto mode), functional and model-only: the median host seconds of 5 runs of
//     each and the ratio IR / C++ (goal: at most 1.5), with both runs' modeled cycles (equal).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <pto/ir/module.hpp>
#include <pto/pto-inst.hpp>

using namespace pto;

namespace {

double seconds(auto&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

const char* kTile =
    "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>";

// A file of `lines` lines: one function whose body repeats a 9-line step (views, a load, two vector ops,
// a store, index arithmetic), each with its own SSA names, as generated code is.
std::string big_file(int lines) {
  std::string s = "module {\n  func.func @big(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>) {\n";
  s += "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n    %c16 = arith.constant 16 : index\n";
  s += "    %c64 = arith.constant 64 : index\n    %s = arith.constant 2.0 : f32\n";
  s += "    %vx = pto.make_tensor_view %x, shape = [%c16, %c64], strides = [%c64, %c1] : !pto.tensor_view<16x64xf32>\n";
  s += "    %vy = pto.make_tensor_view %y, shape = [%c16, %c64], strides = [%c64, %c1] : !pto.tensor_view<16x64xf32>\n";
  const std::string T = kTile, P = "!pto.partition_tensor_view<16x64xf32>";
  int n = 10;
  for (int i = 0; n + 9 <= lines - 3; ++i, n += 9) {
    const std::string k = std::to_string(i);
    s += "    %o" + k + " = arith.muli %c0, %c16 : index\n";
    s += "    %p" + k + " = pto.partition_view %vx, offsets = [%o" + k + ", %c0], sizes = [%c16, %c64] : !pto.tensor_view<16x64xf32> -> " + P + "\n";
    s += "    %q" + k + " = pto.partition_view %vy, offsets = [%o" + k + ", %c0], sizes = [%c16, %c64] : !pto.tensor_view<16x64xf32> -> " + P + "\n";
    s += "    %a" + k + " = pto.alloc_tile : " + T + "\n";
    s += "    %b" + k + " = pto.alloc_tile : " + T + "\n";
    s += "    pto.tload ins(%p" + k + " : " + P + ") outs(%a" + k + " : " + T + ")\n";
    s += "    pto.tmuls ins(%a" + k + ", %s : " + T + ", f32) outs(%b" + k + " : " + T + ")\n";
    s += "    pto.tadd ins(%a" + k + ", %b" + k + " : " + T + ", " + T + ") outs(%b" + k + " : " + T + ")\n";
    s += "    pto.tstore ins(%b" + k + " : " + T + ") outs(%q" + k + " : " + P + ")\n";
  }
  s += "    return\n  }\n}\n";
  return s;
}

// The kernel both ways: y[i] = x[i] * s + x[i] over n 16 x 64 tiles.
std::string loop_file() {
  const std::string T = kTile, P = "!pto.partition_tensor_view<16x64xf32>";
  return "module {\n  func.func @axpx(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>, %n: index, %s: f32) {\n"
         "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n    %c16 = arith.constant 16 : index\n"
         "    %c64 = arith.constant 64 : index\n    %rows = arith.muli %n, %c16 : index\n"
         "    %vx = pto.make_tensor_view %x, shape = [%rows, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x64xf32>\n"
         "    %vy = pto.make_tensor_view %y, shape = [%rows, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x64xf32>\n"
         "    %a = pto.alloc_tile : " + T + "\n    %b = pto.alloc_tile : " + T + "\n"
         "    scf.for %i = %c0 to %n step %c1 {\n"
         "      %o = arith.muli %i, %c16 : index\n"
         "      %p = pto.partition_view %vx, offsets = [%o, %c0], sizes = [%c16, %c64] : !pto.tensor_view<?x64xf32> -> " + P + "\n"
         "      %q = pto.partition_view %vy, offsets = [%o, %c0], sizes = [%c16, %c64] : !pto.tensor_view<?x64xf32> -> " + P + "\n"
         "      pto.tload ins(%p : " + P + ") outs(%a : " + T + ")\n"
         "      pto.tmuls ins(%a, %s : " + T + ", f32) outs(%b : " + T + ")\n"
         "      pto.tadd ins(%a, %b : " + T + ", " + T + ") outs(%b : " + T + ")\n"
         "      pto.tstore ins(%b : " + T + ") outs(%q : " + P + ")\n"
         "    }\n    return\n  }\n}\n";
}
using T16 = Tile<TileType::Vec, float, 16, 64>;
using G16 = GlobalTensor<float, Shape<1, 1, 1, 16, 64>, pto::Stride<1, 1, 1, 64, 1>>;
void axpx_cpp(__gm__ float* x, __gm__ float* y, int n, float s) {
  T16 a, b;
  for (int i = 0; i < n; ++i) {
    G16 gx(x + std::size_t(i) * 16 * 64), gy(y + std::size_t(i) * 16 * 64);
    TLOAD(a, gx);
    TMULS(b, a, s);
    TADD(b, a, b);
    TSTORE(gy, b);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int lines = argc > 1 ? std::atoi(argv[1]) : 10000;
  const int n = argc > 2 ? std::atoi(argv[2]) : 4096;
  const int runs = 5;

  const std::string text = big_file(lines);
  const int got_lines = int(std::count(text.begin(), text.end(), '\n'));
  std::vector<double> parse;
  for (int r = 0; r < runs; ++r) parse.push_back(seconds([&] { (void)ir::Module::parse(text, "big.pto"); }));
  std::printf("parse + verify: %d lines (%zu bytes): median %.4f s of %d (%.0f lines/s; goal < 0.2 s)\n", got_lines, text.size(),
              median(parse), runs, got_lines / median(parse));

  const ir::Module m = ir::Module::parse(loop_file(), "axpx.pto");
  std::vector<float> x(std::size_t(n) * 16 * 64, 1.5f), y(x.size()), y2(x.size());
  for (const bool model_only : {false, true}) {
    std::vector<double> t_ir, t_cpp;
    std::uint64_t c_ir = 0, c_cpp = 0;
    for (int r = 0; r < runs; ++r) {
      LaunchConfig cfg{.blocks = 1, .mode = Mode::Auto};
      cfg.model_only = model_only;
      t_ir.push_back(seconds([&] {
        c_ir = m.launch(cfg, "axpx", {ir::Arg::buffer(x), ir::Arg::buffer(y), ir::Arg::integer(n), ir::Arg::real(0.5)}).cycles;
      }));
      t_cpp.push_back(seconds([&] { c_cpp = launch(cfg, axpx_cpp, x, y2, n, 0.5f).cycles; }));
    }
    std::printf("%-11s %d tiles x 4 instructions: IR %.4f s, C++ %.4f s (medians of %d): IR / C++ = %.2f (goal <= 1.5); "
                "modeled cycles %llu and %llu%s\n",
                model_only ? "model-only:" : "functional:", n, median(t_ir), median(t_cpp), runs, median(t_ir) / median(t_cpp),
                static_cast<unsigned long long>(c_ir), static_cast<unsigned long long>(c_cpp), c_ir == c_cpp ? " (equal)" : " (DIFFER)");
    if (!model_only && y != y2) std::printf("  results DIFFER between the two front doors\n");
  }
  return 0;
}
