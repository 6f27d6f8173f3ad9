// TPRINT: the text pto-isa's NPU code prints (a2a3 TPrint.hpp), to the launch's stream, for tiles
// (valid-region separators), ND / DN / NZ GlobalTensors and every PrintFormat; the values are those the
// kernel's earlier instructions left (TPRINT's pipe_barrier(PIPE_ALL) orders it after them, without
// flags, and the checker finds nothing); the header names the core; model-only runs print no values;
// a GlobalTensor past its allocation is an error.
#define BOOST_TEST_MODULE print
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

#include "element_ref.hpp"

using namespace pto;
using pto_test::contains;
using pto_test::error_of;

BOOST_AUTO_TEST_CASE(a_tile_after_the_instructions_that_wrote_it) {
  std::ostringstream os;
  std::vector<float> in = {1.5f, -2.25f, 3.0f, 4.125f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f};
  const auto rep = launch({.target = Target::A2A3, .check = SyncCheck::Report, .print = &os}, [](const float* p) {
    GlobalTensor<float, Shape<1, 1, 1, 2, 8>, pto::Stride<1, 1, 1, 8, 1>> g(const_cast<float*>(p));
    Tile<TileType::Vec, float, 2, 8> t;
    Tile<TileType::Vec, float, 2, 8, BLayout::RowMajor, 1, 3> part;
    TASSIGN(t, 0);
    TASSIGN(part, 0);
    TLOAD(t, g);
    TPRINT(part);  // no flag: TPRINT's barrier waits for the TLOAD
  }, in);
  BOOST_TEST(rep.findings().empty());
  const std::string want =
      "=== [TPRINT Tile] core 0, after instruction #2: Data Type: float32, Layout: ND, TileType: Vec ===\n"
      "  Shape: [2, 8], Valid Shape: [1, 3]\n"
      "  1.5000  -2.2500   3.0000|   4.1250   5.0000   6.0000   7.0000   8.0000\n"
      "-------- -------- --------| -------- -------- -------- -------- --------\n"
      "  9.0000  10.0000  11.0000|  12.0000  13.0000  14.0000  15.0000  16.0000\n";
  BOOST_TEST(os.str() == want);
}

// An NZ tile prints its logical matrix (element (r, c) at (c / C0) * Rows * C0 + r * C0 + c % C0 of its
// storage, C0 = 8 for 32-bit elements), named Nz as the NPUs name it.
BOOST_AUTO_TEST_CASE(an_nz_tile_prints_its_logical_matrix) {
  std::ostringstream os;
  launch({.print = &os}, [] {
    Tile<TileType::Vec, std::int32_t, 1, 64> raw;
    Tile<TileType::Vec, std::int32_t, 4, 16, BLayout::ColMajor, -1, -1, SLayout::RowMajor, 512> nz(3, 12);
    TASSIGN(raw, 0), TASSIGN(nz, 0);
    TCI<decltype(raw), std::int32_t, 0>(raw, 0);  // storage element k holds k
    TPRINT(nz);
  });
  std::string want = "Data Type: int32, Layout: Nz, TileType: Vec ===\n  Shape: [4, 16], Valid Shape: [3, 12]\n";
  char buf[16];
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 16; ++c) {
      std::snprintf(buf, sizeof buf, "%8d", (c / 8) * 32 + r * 8 + c % 8);
      if (c) want += ' ';  // appends, not `const char* + std::string&&` (g++ 12 -O3 -Wrestrict false positive)
      want += buf;
      if (c == 11) want += '|';
    }
    want += '\n';
    if (r == 2)
      for (int c = 0; c < 16; ++c) {
        if (c) want += ' ';
        want += "--------";
        want += c == 11 ? "|" : c == 15 ? "\n" : "";
      }
  }
  BOOST_TEST(contains(os.str(), want.c_str()), os.str());
}

BOOST_AUTO_TEST_CASE(formats_and_integer_types) {
  std::ostringstream os;
  launch({.print = &os}, [] {
    Tile<TileType::Vec, std::int32_t, 1, 8> i;
    Tile<TileType::Vec, std::uint8_t, 1, 32> u;
    Tile<TileType::Vec, half, 1, 16> h;
    TASSIGN(i, 0), TASSIGN(u, 64), TASSIGN(h, 128);
    TEXPANDS(i, -42);
    TEXPANDS(u, std::uint8_t(200));
    TEXPANDS(h, half(0.5f));
    TPRINT<PrintFormat::Width10_Precision6>(i);
    TPRINT(u);
    TPRINT<PrintFormat::Width8_Precision2>(h);
  });
  const std::string s = os.str();
  BOOST_TEST(contains(s, "Data Type: int32, Layout: ND, TileType: Vec ===\n  Shape: [1, 8], Valid Shape: [1, 8]\n       -42        -42"), s);
  BOOST_TEST(contains(s, "Data Type: uint8"), s);
  BOOST_TEST(contains(s, "\n     200      200"), s);
  BOOST_TEST((contains(s, "Data Type: float16") && contains(s, "\n    0.50     0.50")), s);
}

BOOST_AUTO_TEST_CASE(global_tensors_nd_dn_nz_and_the_core) {
  std::ostringstream os;
  std::vector<std::int16_t> g(2 * 4 * 16);
  for (std::size_t k = 0; k < g.size(); ++k) g[k] = std::int16_t(k);
  launch({.blocks = 2, .print = &os}, [](const std::int16_t* p) {
    auto* q = const_cast<std::int16_t*>(p);
    if (get_block_idx() == 1) {
      GlobalTensor<std::int16_t, Shape<1, 1, 2, 2, 3>, pto::Stride<1, 1, 64, 16, 1>> nd(q);
      TPRINT(nd);
      // NZ: 2 column blocks of 16 x 16 rows... here 1 x 2 blocks of 2 rows x 2 (a small logical 2 x 4)
      GlobalTensor<std::int16_t, Shape<1, 2, 1, 2, 2>, pto::Stride<1, 4, 8, 2, 1>, Layout::NZ> nz(q);
      TPRINT(nz);
    }
  }, g);
  const std::string s = os.str();
  BOOST_TEST(contains(s, "=== [TPRINT GlobalTensor] core 1, after instruction #1: Data Type: int16, Layout: ND ===\n"
                         "  Shape: [1, 1, 2, 2, 3]\n  Batch [0, 0, 0]:\n       0        1        2\n      16       17       18\n"
                         "  Batch [0, 0, 1]:\n      64       65       66\n      80       81       82\n"), s);
  // NZ logical (r, c): block row r / 2, block column c / 2, inside (r % 2, c % 2): offset c/2*4 + r%2*2 + c%2.
  BOOST_TEST(contains(s, "Layout: NZ ===\n  Logical Shape: [2, 4]\n       0        1        4        5\n       2        3        6        7\n"), s);
  BOOST_TEST(!contains(s, "core 0"), s);
}

BOOST_AUTO_TEST_CASE(model_only_and_errors) {
  std::ostringstream os;
  launch({.model_only = true, .print = &os}, [] {
    Tile<TileType::Vec, float, 1, 8> t;
    TASSIGN(t, 0);
    TPRINT(t);
  });
  BOOST_TEST(contains(os.str(), "(model-only run: no values)"), os.str());
  std::vector<float> small(8);
  const std::string e = error_of([&] {
    launch({.print = &os}, [](float* p) {
      GlobalTensor<float, Shape<1, 1, 1, 4, 8>, pto::Stride<1, 1, 1, 8, 1>> g(p);  // 32 floats, 8 allocated
      TPRINT(g);
    }, small);
  });
  BOOST_TEST(contains(e, "TPRINT"), e);
  const std::string e2 = error_of([&] {
    launch({.print = &os}, [] {
      Tile<TileType::Vec, float, 1, 8> t;  // never TASSIGNed
      TPRINT(t);
    });
  });
  BOOST_TEST((contains(e2, "TPRINT: operand src") && contains(e2, "the tile has no address yet")), e2);
}
