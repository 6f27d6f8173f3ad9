// build/examples/flash_attention [--clusters N] [--s1 N] [--model-only] [--trace]
// Flash attention on N clusters of one cube and two vector cores (fa_kernel.cpp), checked against a
// double-precision softmax(Q K^T / sqrt(D)) V, then the launch's report. Exit status 1 when an element
// is off by more than 2e-3 (P passes to the cube as half, as on the chip).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <random>
#include <vector>

#include <pto/pto-inst.hpp>

#include "fa_kernel.hpp"

int main(int argc, char** argv) {
  int clusters = 2, s1 = 512;
  bool model_only = false, trace = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--clusters") && i + 1 < argc) clusters = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--s1") && i + 1 < argc) s1 = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--model-only")) model_only = true;
    else if (!std::strcmp(argv[i], "--trace")) trace = true;
    else {
      std::fprintf(stderr, "usage: %s [--clusters N] [--s1 N (a multiple of %d)] [--model-only] [--trace]\n", argv[0], fa::kTile);
      return 2;
    }
  }
  if (clusters < 1 || s1 < fa::kTile || s1 % fa::kTile) {
    std::fprintf(stderr, "flash_attention: --clusters must be >= 1 and --s1 a positive multiple of %d\n", fa::kTile);
    return 2;
  }
  const int s0 = clusters * fa::kRows, d = fa::kHead;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<pto::half> q(std::size_t(s0) * d), k(std::size_t(s1) * d), v(std::size_t(s1) * d);
  for (auto* t : {&q, &k, &v})
    for (auto& x : *t) x = pto::half(u(rng));
  std::vector<float> o(std::size_t(s0) * d, 0.0f), qk_ring(std::size_t(clusters) * 2 * fa::kRows * fa::kTile),
      pv_ring(std::size_t(clusters) * 2 * fa::kRows * d);
  std::vector<pto::half> p_ring(std::size_t(clusters) * 2 * fa::kRows * fa::kTile);
  const fa::Args args{q.data(), k.data(), v.data(), o.data(), qk_ring.data(), p_ring.data(), pv_ring.data(), s1};

  pto::LaunchConfig cfg;
  cfg.model_only = model_only;
  cfg.timeline = trace;
  const pto::LaunchReport r = run_flash_attention(args, clusters, cfg);

  std::size_t bad = 0, compared = 0;
  double worst = 0;
  if (!model_only) {
    const double scale = 1.0 / std::sqrt(double(d));
    std::vector<double> srow(std::size_t(s1), 0.0);
    for (int i = 0; i < s0; ++i) {
      double mx = -1e300;
      for (int j = 0; j < s1; ++j) {
        double dot = 0;
        for (int c = 0; c < d; ++c) dot += double(q[std::size_t(i) * d + c]) * double(k[std::size_t(j) * d + c]);
        srow[std::size_t(j)] = dot * scale;
        mx = std::max(mx, srow[std::size_t(j)]);
      }
      double sum = 0;
      for (double& x : srow) sum += (x = std::exp(x - mx));
      for (int c = 0; c < d; ++c) {
        double ref = 0;
        for (int j = 0; j < s1; ++j) ref += srow[std::size_t(j)] * double(v[std::size_t(j) * d + c]);
        ref /= sum;
        const double err = std::fabs(double(o[std::size_t(i) * d + c]) - ref);
        worst = std::max(worst, err);
        bad += err > 2e-3;
        ++compared;
      }
    }
  }
  std::cout << "flash attention: " << clusters << " clusters, S0 " << s0 << ", S1 " << s1 << ", D " << d;
  if (!model_only) std::cout << "; " << compared << " outputs against double precision, " << bad << " off by more than 2e-3 (largest error " << worst << ")";
  std::cout << "\n" << r;
  if (trace) {
    pto::write_chrome_trace(r, "flash_attention.json");
    pto::write_svg_timeline(r, "flash_attention.svg");
    std::cout << "wrote flash_attention.json and flash_attention.svg\n";
  }
  return bad ? 1 : 0;
}
