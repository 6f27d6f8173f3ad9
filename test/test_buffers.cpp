// Every buffer of a core, not only UB: TASSIGN bounds and alignment per buffer and target, separate
// bytes per buffer, data through L1 (TLOAD to and TSTORE from Mat tiles), the checker and the trace on
// L1 bytes, auto mode placing Mat tiles in L1, transfers priced by (source, destination) memory.
#define BOOST_TEST_MODULE buffers
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

using namespace pto;

namespace {
constexpr int R = 32, C = 64;
constexpr std::uint32_t kBytes = R * C * sizeof(float);  // 8 KiB
using MatF = Tile<TileType::Mat, float, R, C>;
using VecF = Tile<TileType::Vec, float, R, C>;
using AccF = Tile<TileType::Acc, float, 16, 16>;  // 1 KiB
using GmF = GlobalTensor<float, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>>;

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no pto::Error";
}
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::vector<float> iota_values(float from) {
  std::vector<float> v(std::size_t(R) * C);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = from + float(i);
  return v;
}
}  // namespace

BOOST_AUTO_TEST_CASE(tassign_checks_bounds_and_alignment_in_every_buffer) {
  // L1 is 512 KiB on both targets; L0C 128 KiB on A2A3 and 256 KiB on A5.
  const std::string past_l1 = error_of([] { MatF t; TASSIGN(t, 512 * 1024 - kBytes / 2); });
  BOOST_TEST(contains(past_l1, "TASSIGN: operand tile Tile<Mat,float,32,64>"), past_l1);
  BOOST_TEST(contains(past_l1, "exceed the 512 KiB L1 of A2A3"), past_l1);
  const std::string misaligned = error_of([] { MatF t; TASSIGN(t, 0x1010); });
  BOOST_TEST(contains(misaligned, "address 0x1010 is not 32-byte aligned"), misaligned);
  const std::string acc_misaligned = error_of([] { AccF t; TASSIGN(t, 48); });
  BOOST_TEST(contains(acc_misaligned, "TASSIGN: operand tile Tile<Acc,float,16,16>"), acc_misaligned);
  BOOST_TEST(contains(acc_misaligned, "address 0x30 is not 32-byte aligned"), acc_misaligned);
  {
    MatF m;
    AccF a;
    TASSIGN(m, 512 * 1024 - kBytes);  // the last bytes of L1
    TASSIGN(a, 128 * 1024 - 1024);    // the last KiB of the A2A3 L0C
  }
  const std::string past_l0c = error_of([] { AccF t; TASSIGN(t, 128 * 1024); });
  BOOST_TEST(contains(past_l0c, "exceed the 128 KiB L0C of A2A3"), past_l0c);
  launch({.target = Target::A5}, [] {
    AccF t;
    TASSIGN(t, 256 * 1024 - 1024);  // inside A5's 256 KiB L0C
  });
  const std::string past_a5 = error_of([] { launch({.target = Target::A5}, [] { AccF t; TASSIGN(t, 256 * 1024); }); });
  BOOST_TEST(contains(past_a5, "core 0: TASSIGN: operand tile Tile<Acc,float,16,16>"), past_a5);
  BOOST_TEST(contains(past_a5, "exceed the 256 KiB L0C of A5"), past_a5);
}

// A Vec tile and a Mat tile at the same offset are different bytes: each round trip returns its own data.
BOOST_AUTO_TEST_CASE(each_buffer_has_its_own_bytes) {
  std::vector<float> in_v = iota_values(0), in_m = iota_values(1e6f), out_v(in_v.size()), out_m(in_m.size());
  auto kernel = [](float* ov, float* om, float* iv, float* im) -> Kernel {
    VecF v;
    MatF m;
    TASSIGN(v, 0);
    TASSIGN(m, 0);
    GmF gv(iv), gm(im), gov(ov), gom(om);
    co_await TLOAD(v, gv);
    co_await TLOAD(m, gm);
    co_await set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    co_await wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    co_await TSTORE(gov, v);
    co_await TSTORE(gom, m);
  };
  const LaunchReport r = launch({.check = SyncCheck::Throw}, kernel, out_v, out_m, in_v, in_m);
  BOOST_TEST(out_v == in_v);
  BOOST_TEST(out_m == in_m);
  // Priced by path: GM -> UB (setup + bandwidth), GM -> L1 and L1 -> GM (the reference's flat lines).
  const CostTable& t = default_cost_table(Target::A2A3);
  auto line = [&](Memory s, Memory d) {
    const DmaCost& p = t.transfer(s, d);
    return std::uint64_t(std::ceil(p.setup_cycles + double(kBytes) / p.bytes_per_cycle));
  };
  const CoreReport& c = r.cores[0];
  BOOST_TEST(c.pipes[PIPE_MTE2].busy_cycles == line(Memory::GM, Memory::UB) + line(Memory::GM, Memory::L1));
  BOOST_TEST(c.pipes[PIPE_MTE3].busy_cycles == line(Memory::UB, Memory::GM) + line(Memory::L1, Memory::GM));
  BOOST_TEST(line(Memory::GM, Memory::L1) == 105u);  // 8192 B at 135 GiB/s and 1.85 GHz: 104.6 cycles
  BOOST_TEST(line(Memory::L1, Memory::GM) == 442u);  // ... at 32 GiB/s: 441.1 cycles
}

namespace {
// TLOAD into L1, TSTORE out of it; `synced`: with the MTE2 -> MTE3 flag the chip needs.
std::vector<SyncFinding> l1_round_trip(bool synced, Policy policy, std::vector<float>& out) {
  static std::vector<float> in = iota_values(3);
  auto kernel = [synced](float* o, float* i) -> Kernel {
    MatF m;
    TASSIGN(m, 0x2000);
    GmF gi(i), go(o);
    co_await TLOAD(m, gi);
    if (synced) {
      co_await set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID1);
      co_await wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID1);
    }
    co_await TSTORE(go, m);
  };
  return launch({.policy = policy, .host_threads = 2, .check = SyncCheck::Report}, kernel, out, in).findings();
}
}  // namespace

BOOST_AUTO_TEST_CASE(the_checker_tracks_l1_bytes) {
  for (Policy policy : {Policy::Deterministic, Policy::Concurrent}) {
    std::vector<float> out(std::size_t(R) * C);
    const std::vector<SyncFinding> race = l1_round_trip(false, policy, out);
    BOOST_TEST_REQUIRE(race.size() == 1u);
    const SyncFinding& f = race[0];
    BOOST_TEST((f.kind == SyncFinding::Kind::Race && f.hazard == SyncFinding::Hazard::RAW));
    BOOST_TEST((f.memory == Memory::L1 && f.lo == 0x2000u && f.hi == 0x2000u + kBytes));
    BOOST_TEST(contains(f.message, "TLOAD #1 on PIPE_MTE2 writes L1 [0x2000, 0x4000) and TSTORE #2 on PIPE_MTE3 reads it"),
               f.message);
    BOOST_TEST(contains(f.message, "src Tile<Mat,float,32,64> valid 32x64 @L1+0x2000"), f.message);
    BOOST_TEST(contains(f.message, "fix: set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0) after TLOAD #1"), f.message);
    BOOST_TEST(l1_round_trip(true, policy, out).empty());
    BOOST_TEST(out == iota_values(3));
  }
}

BOOST_AUTO_TEST_CASE(auto_mode_places_mat_tiles_in_l1) {
  std::vector<float> in = iota_values(-7), out(in.size());
  auto kernel = [](float* o, float* i) -> Kernel {
    MatF a, b;  // never TASSIGNed: auto mode places both in L1, apart
    GmF gi(i), go(o);
    co_await TLOAD(a, gi);
    co_await TLOAD(b, gi);
    co_await TSTORE(go, b);
  };
  const LaunchReport r = launch({.mode = Mode::Auto, .timeline = true, .check = SyncCheck::Throw}, kernel, out, in);
  BOOST_TEST(out == in);
  const CoreReport& c = r.cores[0];
  std::vector<std::string> loads;
  for (const TimelineEntry& e : c.timeline)
    if (c.name(e) == "TLOAD") loads.push_back(c.operands(e));
  BOOST_TEST_REQUIRE(loads.size() == 2u);
  BOOST_TEST(contains(loads[0], "@L1+0x0"), loads[0]);
  BOOST_TEST(contains(loads[1], "@L1+0x2000"), loads[1]);
}

BOOST_AUTO_TEST_CASE(tstore_from_l1_is_an_a2a3_form) {
  std::vector<float> out(std::size_t(R) * C);
  const std::string e = error_of([&] {
    launch({.target = Target::A5}, [](float* o) -> Kernel {
      MatF m;
      TASSIGN(m, 0);
      GmF go(o);
      co_await TSTORE(go, m);
    }, out);
  });
  BOOST_TEST(contains(e, "TSTORE: operand src Tile<Mat,float,32,64> valid 32x64: a Mat (L1) source is an A2A3 form"), e);
}

BOOST_AUTO_TEST_CASE(a_what_if_table_keeps_every_path_of_its_target) {
  CostTable t = default_cost_table(Target::A2A3);
  t.name = "no L1";
  t.transfer(Memory::GM, Memory::L1) = {};
  const std::string e = error_of([&] { launch({.costs = &t}, [] {}); });
  BOOST_TEST(contains(e, "cost table 'no L1': clock, bandwidths and port counts must be positive"), e);
  // A what-if may add a path the target lacks (priced if an instruction ever moves bytes along it).
  CostTable more = default_cost_table(Target::A2A3);
  more.transfer(Memory::UB, Memory::L1) = {10, 64};
  launch({.costs = &more}, [] {});
}
