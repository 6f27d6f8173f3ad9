// The synchronisation checker: a corpus of deliberately broken manual kernels, each caught with the
// right kind and instructions, and of correct kernels that produce no finding; the whole corpus gives
// identical findings under both scheduling policies.
#define BOOST_TEST_MODULE sync_check
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

#include "../examples/stream_axpy_kernel.hpp"
#include "kernels/seed_tcolexpandadd.hpp"

using namespace pto;
using K = SyncFinding::Kind;
using H = SyncFinding::Hazard;

namespace {
constexpr int R = 64, C = 64;
constexpr std::uint32_t kT = R * C * sizeof(float);  // one tile's bytes
using TileF = Tile<TileType::Vec, float, R, C>;
using GmF = GlobalTensor<float, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>>;

std::vector<float>& gm_in() {
  static std::vector<float> v(std::size_t(8) * R * C, 1.5f);
  return v;
}
std::vector<float>& gm_out() {
  static std::vector<float> v(std::size_t(32) * R * C);
  return v;
}

// What a run found: the findings, or the SyncError a deadlock threw.
struct Outcome {
  std::vector<SyncFinding> findings;
  std::vector<DeviceWarning> warnings;
  bool threw = false;
  std::string error;
};

Outcome run(const std::function<Kernel()>& body, Policy policy = Policy::Deterministic, int blocks = 1,
            Mode mode = Mode::Manual) {
  Outcome o;
  auto kernel = [&body]() -> Kernel { co_await body(); };
  try {
    LaunchReport rep = launch({.blocks = blocks, .mode = mode, .policy = policy, .host_threads = 2,
                               .check = SyncCheck::Report},
                              kernel);
    o.findings = rep.findings();
    o.warnings = rep.warnings();
  } catch (const SyncError& e) {
    o.threw = true;
    o.error = e.what();
    o.findings = e.findings();
  }
  return o;
}

bool has(const Outcome& o, K kind, H hazard = H::None, const std::string& first = "", const std::string& second = "") {
  for (const SyncFinding& f : o.findings)
    if (f.kind == kind && (hazard == H::None || f.hazard == hazard) && (first.empty() || f.first.name == first) &&
        (second.empty() || f.second.name == second))
      return true;
  return false;
}

std::string dump(const Outcome& o) {
  std::string s = o.error;
  for (const SyncFinding& f : o.findings) s += "\n  " + f.message;
  return s;
}

// Two tiles a (UB 0) and b (UB 16 KiB) and the GM tensors in and out: where most corpus kernels work.
struct Setting {
  TileF a, b;
  GmF in{gm_in().data()}, out{gm_out().data()};
  Setting() {
    TASSIGN(a, 0);
    TASSIGN(b, kT);
  }
};

// ---- the broken corpus ----------------------------------------------------------------------------

Kernel missing_mte2_to_v() {
  Setting k;
  auto &a = k.a, &b = k.b;
  auto &in = k.in, &out = k.out;
  co_await TLOAD(a, in);
  co_await TEXP(b, a);  // no MTE2 -> V flag
  co_await set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  co_await wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  co_await TSTORE(out, b);
}

Kernel missing_v_to_mte3() {
  Setting k;
  auto &a = k.a, &b = k.b;
  auto &in = k.in, &out = k.out;
  co_await TLOAD(a, in);
  co_await set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  co_await wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  co_await TEXP(b, a);
  co_await TSTORE(out, b);  // no V -> MTE3 flag
}

Kernel single_buffer_reloaded_before_store() {
  TileF a;
  TASSIGN(a, 0);
  for (int t = 0; t < 2; ++t) {
    GmF in(gm_in().data() + t * R * C), out(gm_out().data() + t * R * C);
    co_await TLOAD(a, in);  // tile 1's load does not wait for tile 0's store (no MTE3 -> MTE2 flag)
    co_await set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    co_await wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    co_await TEXP(a, a);
    co_await set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    co_await wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    co_await TSTORE(out, a);
    if (t == 0) {  // the vector pipe is ordered, the store is not
      co_await set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
      co_await wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
    }
  }
}

Kernel double_buffer_one_event_id() {
  TileF a[2], b[2];
  for (int k = 0; k < 2; ++k) {
    TASSIGN(a[k], k * kT);
    TASSIGN(b[k], (2 + k) * kT);
  }
  GmF in0(gm_in().data()), in1(gm_in().data() + R * C);
  co_await TLOAD(a[0], in0);
  co_await set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  co_await TLOAD(a[1], in1);
  co_await set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);  // the same id while the first may be pending
  co_await wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  co_await TEXP(b[0], a[0]);
  co_await wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  co_await TEXP(b[1], a[1]);
}

Kernel wrong_event_id_waited() {
  Setting k;
  auto &a = k.a, &b = k.b;
  auto& in = k.in;
  co_await TLOAD(a, in);
  co_await set_flag(PIPE_MTE2, PIPE_V, EVENT_ID1);
  co_await wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);  // nobody sets EVENT_ID0
  co_await TEXP(b, a);
}

Kernel barrier_on_the_wrong_pipe() {
  Setting k;
  auto &a = k.a, &b = k.b;
  auto &in = k.in, &out = k.out;
  co_await TLOAD(a, in);
  co_await set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  co_await wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  co_await TEXP(b, a);
  co_await pipe_barrier(PIPE_MTE3);  // orders MTE3 with itself only
  co_await TSTORE(out, b);
}

Kernel store_then_overwrite() {
  TileF b;
  TASSIGN(b, 0);
  GmF out(gm_out().data());
  co_await TEXPANDS(b, 1.0f);
  co_await set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  co_await wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  co_await TSTORE(out, b);
  co_await TEXPANDS(b, 2.0f);  // may overwrite b before the store has read it: no MTE3 -> V flag
}

Kernel wait_without_set() {
  Setting k;
  auto &a = k.a, &b = k.b;
  auto& in = k.in;
  co_await TLOAD(a, in);
  co_await wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);
  co_await TEXP(b, a);
}

Kernel cyclic_wait() {
  co_await wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);  // V waits for MTE2 ...
  co_await set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
  co_await wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);  // ... which waits for V
  co_await set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
}

Kernel lost_signal() {
  TileF a;
  TASSIGN(a, 0);
  GmF in(gm_in().data());
  co_await TLOAD(a, in);
  co_await set_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
  co_await set_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);  // set twice with no wait in between
  co_await wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
  co_await wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
  co_await TEXP(a, a);
}

Kernel flag_left_set() {
  TileF a;
  TASSIGN(a, 0);
  GmF in(gm_in().data());
  co_await TLOAD(a, in);
  co_await set_flag(PIPE_MTE2, PIPE_V, EVENT_ID4);  // nobody waits
  co_await pipe_barrier(PIPE_ALL);
}

Kernel event_waited_before_recorded() {
  Setting k;
  auto &a = k.a, &b = k.b;
  auto& in = k.in;
  Event<Op::TLOAD, Op::TEXP> loaded;  // never assigned
  co_await TLOAD(a, in);
  co_await TEXP(b, a, loaded);
}

// ---- the cube corpus: a K-split panel loop, GM -> L1 (MTE2) -> L0A / L0B (MTE1) -> L0C (M) -> GM (FIX) ----

constexpr int CM = 32, CK = 32, CN = 32, kPanels = 4;
using MatA = Tile<TileType::Mat, half, CM, CK, BLayout::ColMajor, CM, CK, SLayout::RowMajor, 512>;  // NZ
using MatB = Tile<TileType::Mat, half, CK, CN, BLayout::RowMajor, CK, CN, SLayout::ColMajor, 512>;  // ZN
using GmA = GlobalTensor<half, Shape<1, 1, 1, CM, CK>, pto::Stride<1, 1, 1, CK * kPanels, 1>>;
using GmB = GlobalTensor<half, Shape<1, 1, 1, CK, CN>, pto::Stride<1, 1, 1, 1, CK * kPanels>, Layout::DN>;
using GmC = GlobalTensor<float, Shape<1, 1, 1, CM, CN>, pto::Stride<1, 1, 1, CN, 1>>;

// What a cube kernel leaves out (each one a mistake seen in real kernels).
enum CubeFlaw : unsigned {
  kNoFlaw = 0,
  kNoMte1ToM = 1,     // the mad reads L0A / L0B before the extract wrote them
  kNoMToFix = 2,      // the store reads L0C before the mad wrote it
  kNoL1Release = 4,   // the next panel's load overwrites L1 the extract may still read
  kOneEventId = 8,    // two L1 buffers share an MTE2 -> MTE1 event id (pto-isa's gemm_performance does this)
};

// C (CM x CN) = sum over kPanels panels of A_p * B_p; L1 and L0 rotate over `n` buffers.
Kernel cube_panels(int n, unsigned flaw) {
  static std::vector<half> a(std::size_t(CM) * CK * kPanels, half(0.5f)), b(std::size_t(CN) * CK * kPanels, half(0.25f));
  static std::vector<float> c(std::size_t(CM) * CN * 4);
  MatA ma[2];
  MatB mb[2];
  TileLeft<half, CM, CK> la[2];
  TileRight<half, CK, CN> rb[2];
  TileAcc<float, CM, CN> acc;
  for (int k = 0; k < n; ++k) {
    TASSIGN(ma[k], k * 0x2000);
    TASSIGN(mb[k], 0x10000 + k * 0x2000);
    TASSIGN(la[k], k * 0x2000);
    TASSIGN(rb[k], k * 0x2000);
    co_await set_flag(PIPE_MTE1, PIPE_MTE2, k);
    co_await set_flag(PIPE_M, PIPE_MTE1, k);
  }
  TASSIGN(acc, 0);
  for (int t = 0; t < kPanels; ++t) {
    const int k = t % n, id = (flaw & kOneEventId) ? 0 : k;
    GmA ga(a.data() + t * CK);
    GmB gb(b.data() + t * CK);
    if (!(flaw & kNoL1Release)) co_await wait_flag(PIPE_MTE1, PIPE_MTE2, k);
    co_await TLOAD(ma[k], ga);
    co_await TLOAD(mb[k], gb);
    co_await set_flag(PIPE_MTE2, PIPE_MTE1, id);
    co_await wait_flag(PIPE_M, PIPE_MTE1, k);
    co_await wait_flag(PIPE_MTE2, PIPE_MTE1, id);
    co_await TEXTRACT(la[k], ma[k], 0, 0);
    co_await TEXTRACT(rb[k], mb[k], 0, 0);
    if (!(flaw & kNoL1Release)) co_await set_flag(PIPE_MTE1, PIPE_MTE2, k);
    if (!(flaw & kNoMte1ToM)) {
      co_await set_flag(PIPE_MTE1, PIPE_M, k);
      co_await wait_flag(PIPE_MTE1, PIPE_M, k);
    }
    if (t == 0) co_await TMATMUL(acc, la[k], rb[k]);
    else co_await TMATMUL_ACC(acc, la[k], rb[k]);
    co_await set_flag(PIPE_M, PIPE_MTE1, k);
  }
  if (!(flaw & kNoMToFix)) {
    co_await set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    co_await wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
  }
  GmC gc(c.data() + std::size_t(get_block_idx()) * CM * CN);  // each core its own output
  co_await TSTORE(gc, acc);
  for (int k = 0; k < n; ++k) {
    if (!(flaw & kNoL1Release)) co_await wait_flag(PIPE_MTE1, PIPE_MTE2, k);
    co_await wait_flag(PIPE_M, PIPE_MTE1, k);
  }
}

Kernel rowexpand_scratch_over_a_tile() {
  TileF d, s;
  Tile<TileType::Vec, float, R, 1, BLayout::ColMajor> e;
  Tile<TileType::Vec, float, 8, C> user;
  TASSIGN(d, 0);
  TASSIGN(s, kT);
  TASSIGN(e, 2 * kT);
  TASSIGN(user, 184 * 1024);  // inside the A2/A3 scratch
  co_await TROWEXPANDADD(d, s, e);
}

}  // namespace

BOOST_AUTO_TEST_CASE(missing_mte2_to_v_flag_is_a_raw_race) {
  const Outcome o = run(missing_mte2_to_v);
  BOOST_TEST_REQUIRE(o.findings.size() == 1u, dump(o));
  const SyncFinding& f = o.findings[0];
  BOOST_TEST((f.kind == K::Race && f.hazard == H::RAW));
  BOOST_TEST(f.first.name == "TLOAD");
  BOOST_TEST(f.first.pipe == PIPE_MTE2);
  BOOST_TEST(f.second.name == "TEXP");
  BOOST_TEST(f.second.pipe == PIPE_V);
  BOOST_TEST((f.lo == 0u && f.hi == kT && f.memory == Memory::UB));
  BOOST_TEST(f.message ==
             "RAW race on core 0: TLOAD #1 on PIPE_MTE2 writes UB [0x0, 0x4000) and TEXP #2 on PIPE_V reads it, with "
             "nothing ordering them (TEXP: dst Tile<Vec,float,64,64> valid 64x64 @UB+0x4000; src Tile<Vec,float,64,64> "
             "valid 64x64 @UB+0x0); fix: set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0) after TLOAD #1 and "
             "wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0) before TEXP #2");
}

BOOST_AUTO_TEST_CASE(missing_v_to_mte3_flag_is_a_raw_race) {
  const Outcome o = run(missing_v_to_mte3);
  BOOST_TEST_REQUIRE(o.findings.size() == 1u, dump(o));
  BOOST_TEST(has(o, K::Race, H::RAW, "TEXP", "TSTORE"));
  BOOST_TEST(o.findings[0].flag_src == PIPE_V);
  BOOST_TEST(o.findings[0].flag_dst == PIPE_MTE3);
}

BOOST_AUTO_TEST_CASE(reloading_a_single_buffer_before_its_store_is_a_war_race) {
  const Outcome o = run(single_buffer_reloaded_before_store);
  BOOST_TEST(has(o, K::Race, H::WAR, "TSTORE", "TLOAD"), dump(o));
  // The second tile's TEXP also overwrites what the first store still reads, and its V -> MTE3 set is not
  // ordered after the first store's wait: every finding starts at the unsynchronised store.
  BOOST_TEST(has(o, K::Race, H::WAR, "TSTORE", "TEXP"));
  // Its V -> MTE3 id is set again with only timing between MTE3's wait and the set: a note, not a finding.
  BOOST_TEST(!has(o, K::LostSignal));
  BOOST_TEST(o.findings.size() == 2u, dump(o));
  BOOST_TEST_REQUIRE(o.warnings.size() == 1u);
  BOOST_TEST(o.warnings[0].message.rfind("set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0) at test_sync_check.cpp:", 0) == 0u,
             o.warnings[0].message);
}

BOOST_AUTO_TEST_CASE(double_buffering_with_one_event_id_loses_a_signal) {
  const Outcome o = run(double_buffer_one_event_id);
  BOOST_TEST_REQUIRE(o.findings.size() == 1u, dump(o));
  BOOST_TEST((o.findings[0].kind == K::LostSignal));
  BOOST_TEST(o.findings[0].first.seq == 2u);
  BOOST_TEST(o.findings[0].second.seq == 4u);
  BOOST_TEST(o.findings[0].flag_id == 0);
}

BOOST_AUTO_TEST_CASE(waiting_on_the_wrong_event_id_deadlocks_with_a_wait_never_satisfied) {
  const Outcome o = run(wrong_event_id_waited);
  BOOST_TEST(o.threw);
  BOOST_TEST_REQUIRE(o.findings.size() == 1u, dump(o));
  const SyncFinding& f = o.findings[0];
  BOOST_TEST((f.kind == K::WaitNeverSatisfied));
  BOOST_TEST(f.second.name == "wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0)");
  BOOST_TEST(f.second.pipe == PIPE_V);
  BOOST_TEST(o.error.find("core 0: deadlock on core 0: the scalar pipe waits at the end of the kernel") == 0u, o.error);
  BOOST_TEST(o.error.find("wait never satisfied: wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0) at test_sync_check.cpp:") !=
                 std::string::npos, o.error);
  BOOST_TEST(o.error.find("on PIPE_V can never be satisfied: no set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0) was issued before "
                          "it and none can be issued after it") != std::string::npos, o.error);
  BOOST_TEST(o.error.find("(last completed there: nothing yet)") != std::string::npos, o.error);
}

BOOST_AUTO_TEST_CASE(a_barrier_on_the_wrong_pipe_orders_nothing) {
  const Outcome o = run(barrier_on_the_wrong_pipe);
  BOOST_TEST_REQUIRE(o.findings.size() == 1u, dump(o));
  BOOST_TEST(has(o, K::Race, H::RAW, "TEXP", "TSTORE"));
}

BOOST_AUTO_TEST_CASE(a_store_racing_a_later_overwrite_is_a_war_race) {
  const Outcome o = run(store_then_overwrite);
  BOOST_TEST_REQUIRE(o.findings.size() == 1u, dump(o));
  BOOST_TEST(has(o, K::Race, H::WAR, "TSTORE", "TEXPANDS"));
  BOOST_TEST(o.findings[0].message.find("fix: set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0) after TSTORE #4 and "
                                        "wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0) before TEXPANDS #5") != std::string::npos,
             o.findings[0].message);
}

BOOST_AUTO_TEST_CASE(the_a2a3_row_expansion_scratch_over_a_user_tile_is_an_error) {
  BOOST_CHECK_EXCEPTION(run(rowexpand_scratch_over_a_tile), Error, [](const Error& e) {
    return std::string(e.what()).find("TROWEXPANDADD: the 3-argument form with a ColMajor expand operand uses UB "
                                      "[184 KiB, 192 KiB) as scratch on A2A3, but tile") != std::string::npos;
  });
}

BOOST_AUTO_TEST_CASE(a_wait_with_no_set_is_never_satisfied) {
  const Outcome o = run(wait_without_set);
  BOOST_TEST(o.threw);
  BOOST_TEST_REQUIRE(o.findings.size() == 1u, dump(o));
  BOOST_TEST((o.findings[0].kind == K::WaitNeverSatisfied));
  BOOST_TEST(o.findings[0].flag_id == 3);
}

BOOST_AUTO_TEST_CASE(pipes_waiting_on_each_other_are_a_cyclic_wait) {
  const Outcome o = run(cyclic_wait);
  BOOST_TEST(o.threw);
  BOOST_TEST_REQUIRE(!o.findings.empty(), dump(o));
  BOOST_TEST((o.findings[0].kind == K::CyclicWait), dump(o));
  BOOST_TEST(o.error.find(" - cyclic wait: PIPE_V waits for PIPE_MTE2 (wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0) at "
                          "test_sync_check.cpp:") != std::string::npos, o.error);
  BOOST_TEST(o.error.find("; PIPE_MTE2 waits for PIPE_V (wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1) at test_sync_check.cpp:") !=
                 std::string::npos, o.error);
}

BOOST_AUTO_TEST_CASE(a_flag_set_twice_without_a_wait_is_a_lost_signal) {
  const Outcome o = run(lost_signal);
  BOOST_TEST_REQUIRE(o.findings.size() == 1u, dump(o));
  BOOST_TEST((o.findings[0].kind == K::LostSignal));
  const std::string& m = o.findings[0].message;
  BOOST_TEST(m.rfind("lost signal on core 0: set_flag(PIPE_MTE2, PIPE_V, EVENT_ID2) #3 at test_sync_check.cpp:", 0) == 0u, m);
  BOOST_TEST(m.find("may find the token of #2 at test_sync_check.cpp:") != std::string::npos, m);
}

BOOST_AUTO_TEST_CASE(a_flag_nobody_waits_for_is_left_set) {
  const Outcome o = run(flag_left_set);
  BOOST_TEST_REQUIRE(o.findings.size() == 1u, dump(o));
  BOOST_TEST((o.findings[0].kind == K::FlagLeftSet));
  const std::string& m = o.findings[0].message;
  BOOST_TEST(m.rfind("flag left set on core 0: 1 token(s) of set_flag(PIPE_MTE2, PIPE_V, EVENT_ID4) (last set by #2 at "
                     "test_sync_check.cpp:", 0) == 0u, m);
  BOOST_TEST(m.find(") were never waited for by the end of the kernel; add the matching wait_flag(PIPE_MTE2, PIPE_V, "
                    "EVENT_ID4) or drop the set") != std::string::npos, m);
}

BOOST_AUTO_TEST_CASE(an_event_waited_before_it_was_recorded_is_reported) {
  const Outcome o = run(event_waited_before_recorded);
  BOOST_TEST(has(o, K::EventNotRecorded), dump(o));
  BOOST_TEST(has(o, K::Race, H::RAW, "TLOAD", "TEXP"));  // and so nothing orders the two
}

BOOST_AUTO_TEST_CASE(throw_mode_stops_at_the_first_finding) {
  auto kernel = []() -> Kernel { co_await missing_mte2_to_v(); };
  BOOST_CHECK_EXCEPTION(launch({.blocks = 2, .check = SyncCheck::Throw}, kernel), SyncError, [](const SyncError& e) {
    return std::string(e.what()).rfind("core 0: RAW race on core 0: TLOAD #1", 0) == 0 && e.findings().size() == 1u;
  });
}

BOOST_AUTO_TEST_CASE(checking_off_reports_nothing) {
  auto kernel = []() -> Kernel { co_await missing_mte2_to_v(); };
  BOOST_TEST(launch({.blocks = 1, .check = SyncCheck::Off}, kernel).findings().empty());
}

// ---- the correct corpus ---------------------------------------------------------------------------

namespace {
Kernel flags_copy() {
  Setting k;
  auto &a = k.a, &b = k.b;
  auto &in = k.in, &out = k.out;
  co_await TLOAD(a, in);
  co_await set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  co_await wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  co_await TMOV(b, a);
  co_await set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  co_await wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  co_await TSTORE(out, b);
}

Kernel record_events_chain() {
  Setting k;
  auto &a = k.a, &b = k.b;
  auto &in = k.in, &out = k.out;
  RecordEvent l = co_await TLOAD(a, in);
  RecordEvent m = co_await TEXP(b, a, l);
  co_await TSTORE(out, b, m);
}

Kernel typed_events_and_tsync() {
  Setting k;
  auto &a = k.a, &b = k.b;
  auto &in = k.in, &out = k.out;
  Event<Op::TLOAD, Op::TEXP> loaded = co_await TLOAD(a, in);
  Event<Op::TEXP, Op::TSTORE_VEC> done = co_await TEXP(b, a, loaded);
  TSYNC(done);
  co_await TSTORE(out, b);
}

// Buffers rotate over `n` sets; each set has its own event ids for every direction.
Kernel n_buffered(int n, int tiles) {
  TileF a[3], b[3];
  for (int k = 0; k < n; ++k) {
    TASSIGN(a[k], k * kT);
    TASSIGN(b[k], (3 + k) * kT);
    co_await set_flag(PIPE_V, PIPE_MTE2, k);
    co_await set_flag(PIPE_MTE3, PIPE_V, k);
  }
  for (int t = 0; t < tiles; ++t) {
    const int k = t % n;
    // Each core stores its own tiles: cores of one launch are not ordered, so shared output is a race.
    GmF in(gm_in().data() + t * R * C), out(gm_out().data() + (get_block_idx() * tiles + t) * R * C);
    co_await wait_flag(PIPE_V, PIPE_MTE2, k);
    co_await TLOAD(a[k], in);
    co_await set_flag(PIPE_MTE2, PIPE_V, k);
    co_await wait_flag(PIPE_MTE2, PIPE_V, k);
    co_await wait_flag(PIPE_MTE3, PIPE_V, k);
    co_await TEXP(b[k], a[k]);
    co_await set_flag(PIPE_V, PIPE_MTE2, k);
    co_await set_flag(PIPE_V, PIPE_MTE3, k);
    co_await wait_flag(PIPE_V, PIPE_MTE3, k);
    co_await TSTORE(out, b[k]);
    co_await set_flag(PIPE_MTE3, PIPE_V, k);
  }
  for (int k = 0; k < n; ++k) {
    co_await wait_flag(PIPE_V, PIPE_MTE2, k);
    co_await wait_flag(PIPE_MTE3, PIPE_V, k);
  }
}

Kernel barrier_phases() {
  TileF a;
  TASSIGN(a, 0);
  GmF in(gm_in().data()), out(gm_out().data());
  co_await TLOAD(a, in);
  co_await pipe_barrier(PIPE_ALL);
  co_await TEXP(a, a);
  co_await pipe_barrier(PIPE_ALL);
  co_await TSTORE(out, a);
  co_await pipe_barrier(PIPE_ALL);
  co_await TEXPANDS(a, 0.0f);  // after the barrier: the store has read a
}

Kernel scalar_pipe_waits() {
  TileF a;
  TASSIGN(a, 0);
  GmF out(gm_out().data());
  for (int t = 0; t < 3; ++t) {
    co_await TEXPANDS(a, float(t));
    co_await set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    co_await wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    co_await TSTORE(out, a);
    co_await set_flag(PIPE_MTE3, PIPE_S, EVENT_ID0);  // the kernel itself waits for the store ...
    co_await wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID0);  // ... so the next fill is issued after it
  }
}

Kernel auto_mode_stream() {
  TileF a, b;
  TASSIGN(a, 0);
  TASSIGN(b, kT);
  for (int t = 0; t < 3; ++t) {
    GmF in(gm_in().data() + t * R * C), out(gm_out().data() + t * R * C);
    co_await TLOAD(a, in);
    co_await TEXP(b, a);
    co_await TSTORE(out, b);
  }
}

Kernel seed_article() {
  static std::vector<float> out(64 * 64), src0(64 * 64, 1.0f), src1(64, 2.0f);
  runCOLEXPANDADD<float, 64, 64, 1, 64>(out.data(), src0.data(), src1.data());
  co_return;
}

Kernel stream_axpy_kernel(int buffers) {
  static std::vector<float> x(std::size_t(4) * 6 * R * C, 1.0f), out(x.size()), bias(C, 0.5f);
  co_await stream_axpy::kernel(out.data(), x.data(), bias.data(), 0.5f, 6, buffers);
}

struct Named {
  const char* name;
  std::function<Kernel()> body;
  int blocks = 1;
  Mode mode = Mode::Manual;
};

std::vector<Named> correct_corpus() {
  return {
      {"flags copy", flags_copy},
      {"record-event chain", record_events_chain},
      {"typed events and TSYNC", typed_events_and_tsync},
      {"single-buffered", [] { return n_buffered(1, 4); }},
      {"double-buffered", [] { return n_buffered(2, 6); }},
      {"triple-buffered", [] { return n_buffered(3, 7); }},
      {"barrier phases", barrier_phases},
      {"scalar-pipe waits", scalar_pipe_waits},
      {"auto mode", auto_mode_stream, 1, Mode::Auto},
      {"seed article TCOLEXPANDADD", seed_article},
      {"stream_axpy single", [] { return stream_axpy_kernel(1); }},
      {"stream_axpy double, 4 cores", [] { return stream_axpy_kernel(2); }, 4},
      {"double-buffered, 3 cores with per-core UB", [] { return n_buffered(2, 5); }, 3},
      {"cube single-buffered", [] { return cube_panels(1, kNoFlaw); }},
      {"cube double-buffered, 2 cores", [] { return cube_panels(2, kNoFlaw); }, 2},
  };
}
}  // namespace

BOOST_AUTO_TEST_CASE(a_cube_kernel_missing_its_mte1_to_m_flag_races_on_l0a_and_l0b) {
  const Outcome o = run([] { return cube_panels(2, kNoMte1ToM); });
  // M runs ahead of MTE1 in the model: a write is checked against the last read of its bytes on M.
  BOOST_TEST(has(o, K::Race, H::RAW, "TEXTRACT", "TMATMUL_ACC"), dump(o));
  bool l0a = false, l0b = false;
  for (const SyncFinding& f : o.findings) {
    if (f.kind != K::Race) {  // M's releases of L0 are not ordered after MTE1's waits either
      BOOST_TEST((f.kind == K::LostSignal && f.flag_src == PIPE_M && f.flag_dst == PIPE_MTE1), f.message);
      continue;
    }
    l0a |= f.memory == Memory::L0A;
    l0b |= f.memory == Memory::L0B;
    BOOST_TEST((f.flag_src == PIPE_MTE1 && f.flag_dst == PIPE_M), f.message);
  }
  BOOST_TEST((l0a && l0b));
}

BOOST_AUTO_TEST_CASE(a_cube_kernel_missing_its_m_to_fix_flag_races_on_l0c) {
  const Outcome o = run([] { return cube_panels(1, kNoMToFix); });
  BOOST_TEST_REQUIRE(o.findings.size() == 1u, dump(o));
  const SyncFinding& f = o.findings[0];
  BOOST_TEST((f.kind == K::Race && f.hazard == H::RAW && f.memory == Memory::L0C));
  BOOST_TEST(f.first.name.rfind("TMATMUL", 0) == 0u, f.first.name);  // one of the four unordered mads
  BOOST_TEST(f.second.name == "TSTORE");
  BOOST_TEST((f.flag_src == PIPE_M && f.flag_dst == PIPE_FIX));
}

BOOST_AUTO_TEST_CASE(a_cube_kernel_reloading_l1_before_the_extract_read_it_is_a_war_race) {
  const Outcome o = run([] { return cube_panels(1, kNoL1Release); });
  BOOST_TEST(has(o, K::Race, H::WAR, "TEXTRACT", "TLOAD"), dump(o));
  for (const SyncFinding& f : o.findings)
    if (f.kind == K::Race) BOOST_TEST((f.memory == Memory::L1), f.message);
}

// pto-isa's gemm_performance pattern: the wait_flag that takes one panel's token is issued before the next
// panel's set, and runs before it in the model, but only timing orders the two. The chip's flag is one bit,
// so this is legal only while the timing holds: a warning with the margin, no finding (docs/sync-checker.md).
BOOST_AUTO_TEST_CASE(two_l1_buffers_on_one_event_id_are_ordered_by_timing_alone) {
  const Outcome o = run([] { return cube_panels(2, kOneEventId); });
  BOOST_TEST(o.findings.empty(), dump(o));
  BOOST_TEST_REQUIRE(o.warnings.size() == 1u);
  const std::string& m = o.warnings[0].message;
  BOOST_TEST(m.rfind("set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0) at test_sync_check.cpp:", 0) == 0u, m);
  BOOST_TEST(m.find(" time(s) while nothing but timing ordered the wait_flag that consumed the previous token before it "
                    "(in this run the wait came first by at least ") != std::string::npos, m);
}

// A wait_flag issued between two sets that runs after the second in the model (its pipe is busy with
// earlier work): the second set finds the token pending, a real loss on the chip.
Kernel set_overtakes_a_late_wait() {
  TileF a[2], busy;
  TASSIGN(a[0], 0);
  TASSIGN(a[1], kT);
  TASSIGN(busy, 2 * kT);
  GmF in0(gm_in().data()), in1(gm_in().data() + R * C);
  co_await TEXPANDS(busy, 0.0f);
  co_await TLOAD(a[0], in0);
  co_await set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  for (int k = 0; k < 8; ++k) co_await TEXP(busy, busy);  // V busy for longer than the second load
  co_await wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  co_await TEXP(a[0], a[0]);
  co_await TLOAD(a[1], in1);
  co_await set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  co_await wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  co_await TEXP(a[1], a[1]);
}

BOOST_AUTO_TEST_CASE(a_set_that_overtakes_the_wait_between_is_a_lost_signal_with_its_cycles) {
  const Outcome o = run(set_overtakes_a_late_wait);
  BOOST_TEST_REQUIRE(o.findings.size() == 1u, dump(o));
  BOOST_TEST((o.findings[0].kind == K::LostSignal));
  const std::string& m = o.findings[0].message;
  BOOST_TEST(m.find(": it was set at modeled cycle ") != std::string::npos, m);
  BOOST_TEST(m.find(" no wait_flag had consumed it yet (the flag is one bit)") != std::string::npos, m);
}

BOOST_AUTO_TEST_CASE(correct_kernels_produce_no_finding) {
  for (const Named& k : correct_corpus())
    for (Policy p : {Policy::Deterministic, Policy::Concurrent}) {
      const Outcome o = run(k.body, p, k.blocks, k.mode);
      BOOST_TEST((!o.threw && o.findings.empty()), k.name << ": " << dump(o));
    }
}

BOOST_AUTO_TEST_CASE(the_corpus_gives_identical_findings_under_both_policies) {
  const std::vector<std::function<Kernel()>> broken = {
      missing_mte2_to_v, missing_v_to_mte3, single_buffer_reloaded_before_store, double_buffer_one_event_id,
      wrong_event_id_waited, barrier_on_the_wrong_pipe, store_then_overwrite, wait_without_set, cyclic_wait,
      lost_signal, flag_left_set, event_waited_before_recorded,
      [] { return cube_panels(2, kNoMte1ToM); }, [] { return cube_panels(1, kNoMToFix); },
      [] { return cube_panels(1, kNoL1Release); }, set_overtakes_a_late_wait};
  for (std::size_t i = 0; i < broken.size(); ++i) {
    for (int blocks : {1, 3}) {
      const Outcome d = run(broken[i], Policy::Deterministic, blocks), c = run(broken[i], Policy::Concurrent, blocks);
      BOOST_TEST(d.threw == c.threw, "kernel " << i);
      BOOST_TEST(d.error == c.error, "kernel " << i);
      BOOST_TEST_REQUIRE(d.findings.size() == c.findings.size(), "kernel " << i);
      BOOST_TEST(!d.findings.empty(), "kernel " << i);
      for (std::size_t k = 0; k < d.findings.size(); ++k) {
        BOOST_TEST(d.findings[k].message == c.findings[k].message, "kernel " << i);
        BOOST_TEST(d.findings[k].core == c.findings[k].core);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(the_default_follows_the_environment) {
  auto kernel = []() -> Kernel { co_await missing_mte2_to_v(); };
  const char* saved = std::getenv("PTO_SYNC_CHECK");
  const std::string keep = saved ? saved : "";
  setenv("PTO_SYNC_CHECK", "1", 1);
  BOOST_TEST(launch({.blocks = 1}, kernel).findings().size() == 1u);
  setenv("PTO_SYNC_CHECK", "off", 1);
  BOOST_TEST(launch({.blocks = 1}, kernel).findings().empty());
  setenv("PTO_SYNC_CHECK", "throw", 1);
  BOOST_CHECK_THROW(launch({.blocks = 1}, kernel), SyncError);
  setenv("PTO_SYNC_CHECK", "yes please", 1);
  BOOST_CHECK_EXCEPTION(launch({.blocks = 1}, kernel), Error, [](const Error& e) {
    return std::string(e.what()) == "PTO_SYNC_CHECK='yes please': use 0 / off, 1 / report, or throw (any case)";
  });
  if (saved) setenv("PTO_SYNC_CHECK", keep.c_str(), 1);
  else unsetenv("PTO_SYNC_CHECK");
}

BOOST_AUTO_TEST_CASE(the_summary_prints_the_findings) {
  auto kernel = []() -> Kernel { co_await flag_left_set(); };
  const LaunchReport rep = launch({.blocks = 1, .check = SyncCheck::Report}, kernel);
  // The findings lead: right after the launch line, before the modeled figures.
  BOOST_TEST(rep.summary().find("deterministic policy\n  SYNC CHECKER: 1 finding(s); results may differ from the chip's\n"
                                "    flag left set on core 0: 1 token(s)") != std::string::npos,
             rep.summary());
}

BOOST_AUTO_TEST_CASE(the_a2a3_block_tails_of_tcolexpand_are_in_its_footprint) {
  // dst row 0 is 5 floats (20 bytes); the A2/A3 device path writes its whole 32-byte block. An
  // unsynchronised load into a tile over the same row races with all 32 bytes.
  auto kernel = []() -> Kernel {
    Tile<TileType::Vec, float, 4, 64, BLayout::RowMajor, -1, -1> d(4, 5), src(1, 5);
    Tile<TileType::Vec, float, 1, 8> t;
    TASSIGN(d, 0);
    TASSIGN(src, 0x4000);
    TASSIGN(t, 0);
    GmF in(gm_in().data());
    GlobalTensor<float, Shape<1, 1, 1, 1, 8>, pto::Stride<1, 1, 1, 8, 1>> g(gm_in().data());
    (void)in;
    co_await TCOLEXPAND(d, src);
    co_await TLOAD(t, g);
  };
  for (bool cpu : {false, true}) {
    const LaunchReport rep = launch({.blocks = 1, .check = SyncCheck::Report, .cpu_reference = cpu}, kernel);
    const auto f = rep.findings();
    BOOST_TEST_REQUIRE(f.size() == 1u);
    BOOST_TEST((f[0].kind == K::Race && f[0].hazard == H::WAW));
    BOOST_TEST(f[0].lo == 0u);
    BOOST_TEST(f[0].hi == (cpu ? 20u : 32u));  // the CPU reference writes only the valid bytes
  }
}

// V writes `a`, `n` instructions pass, then a store that waits only on the first load reads `a`: a
// race however old the write (`every`: each of the n instructions waits on that load too).
Outcome store_after_an_old_unordered_write(int n, bool every) {
  return run([n, every]() -> Kernel {
    TileF a, b;
    Tile<TileType::Vec, float, 1, 8> f;
    TASSIGN(a, 0);
    TASSIGN(b, kT);
    TASSIGN(f, 2 * kT);
    GmF in(gm_in().data()), out(gm_out().data());
    const RecordEvent loaded = co_await TLOAD(b, in);
    co_await TEXPANDS(a, 2.0f);  // nothing orders the store below after it
    for (int i = 0; i < n; ++i) {
      if (every) co_await TEXPANDS(f, float(i), loaded);
      else co_await TEXPANDS(f, float(i));
    }
    co_await TSTORE(out, a, loaded);
  });
}

// A wait on an event thousands of instructions old orders exactly what that event ordered: the model
// may forget old end times early, but the checker keeps the old instruction's own clock.
BOOST_AUTO_TEST_CASE(a_wait_on_an_event_thousands_of_instructions_old_orders_only_what_it_ordered) {
  const Outcome o = store_after_an_old_unordered_write(5000, false);
  BOOST_TEST(has(o, K::Race, H::RAW, "TEXPANDS", "TSTORE"), dump(o));
}

// The checker drops old clocks every 2^20 instructions; an event every queued instruction still waits on
// keeps its own clock then (joined with every dropped clock, it would order the store after the
// TEXPANDS that wrote `a`, and hide the race).
BOOST_AUTO_TEST_CASE(an_event_waited_on_across_a_clock_drop_orders_only_what_it_ordered) {
  const Outcome o = store_after_an_old_unordered_write((1 << 20) + 5000, true);
  BOOST_TEST(has(o, K::Race, H::RAW, "TEXPANDS", "TSTORE"), dump(o));
}

// ---- GM hazards -----------------------------------------------------------------------------------

namespace {
// Stores a tile to `buf` and loads it back; `flag` orders the load after the store.
void store_then_reload(__gm__ float* buf, bool flag) {
  TileF a, b;
  TASSIGN(a, 0);
  TASSIGN(b, kT);
  GmF g(buf);
  TEXPANDS(a, 7.0f);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(g, a);
  if (flag) {
    set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  }
  TLOAD(b, g);
}
}  // namespace

BOOST_AUTO_TEST_CASE(a_reload_of_stored_gm_without_a_flag_is_a_raw_race) {
  std::vector<float> buf(R * C, 0.0f);
  const LaunchReport bad = launch({.blocks = 1, .check = SyncCheck::Report}, store_then_reload, buf, false);
  const std::vector<SyncFinding> fs = bad.findings();
  BOOST_TEST_REQUIRE(fs.size() == 1u);
  const SyncFinding& f = fs[0];
  BOOST_TEST((f.kind == K::Race && f.hazard == H::RAW && f.memory == Memory::GM));
  BOOST_TEST(f.first.name == "TSTORE");
  BOOST_TEST(f.second.name == "TLOAD");
  BOOST_TEST(f.message.find("on PIPE_MTE3 writes GM [0x") != std::string::npos, f.message);
  BOOST_TEST(f.message.find("(launch argument 0, bytes [0x0, 0x4000) of its 16384) and TLOAD") != std::string::npos, f.message);
  BOOST_TEST(f.message.find("fix: set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0) after TSTORE") != std::string::npos, f.message);
  BOOST_TEST(launch({.blocks = 1, .check = SyncCheck::Report}, store_then_reload, buf, true).findings().empty());
}

BOOST_AUTO_TEST_CASE(two_cores_writing_the_same_gm_bytes_race) {
  std::vector<float> buf(2 * R * C, 0.0f);
  // Core 1 stores over the second half of core 0's tile: 8 KiB in common.
  auto overlapping = [](__gm__ float* b) -> Kernel {
    TileF a;
    TASSIGN(a, 0);
    GmF g(b + get_block_idx() * R * C / 2);
    co_await TEXPANDS(a, float(get_block_idx()));
    co_await set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    co_await wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    co_await TSTORE(g, a);
  };
  for (Policy p : {Policy::Deterministic, Policy::Concurrent}) {
    const LaunchReport rep = launch({.blocks = 2, .policy = p, .host_threads = 2, .check = SyncCheck::Report}, overlapping, buf);
    const std::vector<SyncFinding> fs = rep.findings();
    BOOST_TEST_REQUIRE(fs.size() == 1u);
    const SyncFinding& f = fs[0];
    BOOST_TEST((f.kind == K::Race && f.hazard == H::WAW && f.memory == Memory::GM && f.first_core == 0 && f.core == 1));
    BOOST_TEST(f.message ==
                   "cross-core race: core 0's TSTORE #4 writes GM [0x" + [&] {
                     std::ostringstream os;
                     os << std::hex << reinterpret_cast<std::uintptr_t>(buf.data() + R * C / 2) << ", 0x"
                        << reinterpret_cast<std::uintptr_t>(buf.data() + R * C);
                     return os.str();
                   }() + ") (launch argument 0, bytes [0x2000, 0x4000) of its 32768) and core 1's TSTORE #4 writes it "
                         "too, with no SYNCALL between them; the cores of one launch run in no defined order between "
                         "SYNCALLs, so which value lands is undefined: give each core its own GM bytes, or put a SYNCALL "
                         "between the two accesses",
               f.message);
  }
}

BOOST_AUTO_TEST_CASE(cores_writing_interleaved_columns_or_reading_shared_input_do_not_race) {
  // A 64x128 row-major matrix: core k stores columns [64k, 64k + 64) of every row (exact spans, not
  // bounding boxes), and both read the same input.
  std::vector<float> in(R * C, 1.0f), out(R * 2 * C, 0.0f);
  using Half = GlobalTensor<float, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, 2 * C, 1>>;
  auto columns = [](__gm__ float* o, __gm__ float* i) -> Kernel {
    TileF a;
    TASSIGN(a, 0);
    GmF src(i);
    Half dst(o + get_block_idx() * C);
    RecordEvent l = co_await TLOAD(a, src);
    co_await TSTORE(dst, a, l);
  };
  const LaunchReport rep = launch({.blocks = 2, .check = SyncCheck::Report}, columns, out, in);
  BOOST_TEST(rep.findings().empty(), rep.summary());
  BOOST_TEST(out == std::vector<float>(R * 2 * C, 1.0f));
}

BOOST_AUTO_TEST_CASE(one_core_reading_what_another_writes_races) {
  std::vector<float> buf(R * C, 0.0f);
  auto kernel = [](__gm__ float* b) -> Kernel {
    TileF a;
    TASSIGN(a, 0);
    GmF g(b);
    if (get_block_idx() == 0) {
      co_await TEXPANDS(a, 1.0f);
      co_await set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      co_await wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      co_await TSTORE(g, a);
    } else {
      co_await TLOAD(a, g);
    }
  };
  const LaunchReport rep = launch({.blocks = 2, .check = SyncCheck::Report}, kernel, buf);
  BOOST_TEST_REQUIRE(rep.findings().size() == 1u);
  BOOST_TEST((rep.findings()[0].hazard == H::RAW && rep.findings()[0].first_core == 0));
  BOOST_TEST(rep.findings()[0].message.find("and core 1's TLOAD #1 reads it, with no SYNCALL between them; ") != std::string::npos, rep.findings()[0].message);
}

// ---- the fixes it suggests are right --------------------------------------------------------------

namespace {
// A kernel as data: every step issues exactly one record, so a finding's instruction #n is step n - 1
// and each suggested fix can be applied mechanically.
struct Step {
  enum Kind { Load, LoadOut, Store, Exp, Fill, Set, Wait } kind;
  int a = 0, b = 0, id = 0;  // Load/LoadOut/Store: tile a, GM tile b; Exp: dst a, src b; Fill: a; Set/Wait: pipes a -> b
};
using Program = std::vector<Step>;

Kernel interpret(Program p) {
  TileF t[6];
  for (int k = 0; k < 6; ++k) TASSIGN(t[k], k * kT);
  for (const Step& s : p) {
    GmF in(gm_in().data() + s.b * R * C), out(gm_out().data() + s.b * R * C);
    switch (s.kind) {
      case Step::Load: co_await TLOAD(t[s.a], in); break;
      case Step::LoadOut: co_await TLOAD(t[s.a], out); break;
      case Step::Store: co_await TSTORE(out, t[s.a]); break;
      case Step::Exp: co_await TEXP(t[s.a], t[s.b]); break;
      case Step::Fill: co_await TEXPANDS(t[s.a], 1.0f); break;
      case Step::Set: co_await set_flag(s.a, s.b, s.id); break;
      case Step::Wait: co_await wait_flag(s.a, s.b, s.id); break;
    }
  }
}

// Every race's fix, as the message says it: set_flag right after the first, wait_flag right before the second.
Program apply_fixes(const Program& p, const std::vector<SyncFinding>& findings) {
  std::vector<Program> after(p.size()), before(p.size());
  for (const SyncFinding& f : findings) {
    BOOST_TEST_REQUIRE((f.kind == K::Race), f.message);
    after[f.first.seq - 1].push_back({Step::Set, f.flag_src, f.flag_dst, f.flag_id});
    before[f.second.seq - 1].push_back({Step::Wait, f.flag_src, f.flag_dst, f.flag_id});
  }
  Program q;
  for (std::size_t i = 0; i < p.size(); ++i) {
    q.insert(q.end(), before[i].begin(), before[i].end());
    q.push_back(p[i]);
    q.insert(q.end(), after[i].begin(), after[i].end());
  }
  return q;
}

std::vector<std::pair<const char*, Program>> racy_programs() {
  using S = Step;
  const S set_v3{S::Set, PIPE_V, PIPE_MTE3, 0}, wait_v3{S::Wait, PIPE_V, PIPE_MTE3, 0};
  return {
      {"missing MTE2 -> V", {{S::Load, 0, 0}, {S::Exp, 1, 0}, set_v3, wait_v3, {S::Store, 1, 0}}},
      // The second buffer waits on the first buffer's id: EVENT_ID0 is in flight over its load.
      {"second buffer on the first's id",
       {{S::Load, 0, 0}, {S::Set, PIPE_MTE2, PIPE_V, 0}, {S::Load, 1, 1}, {S::Wait, PIPE_MTE2, PIPE_V, 0},
        {S::Exp, 2, 0}, {S::Exp, 3, 1}, set_v3, wait_v3, {S::Store, 2, 0}, {S::Store, 3, 1}}},
      {"no flags at all, two tiles through one buffer",
       {{S::Load, 0, 0}, {S::Exp, 1, 0}, {S::Store, 1, 0}, {S::Load, 0, 1}, {S::Exp, 1, 0}, {S::Store, 1, 1}}},
      {"double-buffered, no flags",
       {{S::Load, 0, 0}, {S::Load, 1, 1}, {S::Exp, 2, 0}, {S::Exp, 3, 1}, {S::Store, 2, 0}, {S::Store, 3, 1},
        {S::Load, 0, 2}, {S::Exp, 2, 0}, {S::Store, 2, 2}}},
      {"ids 0-6 busy around the race",
       {{S::Load, 0, 0}, {S::Set, PIPE_MTE2, PIPE_V, 0}, {S::Set, PIPE_MTE2, PIPE_V, 1}, {S::Set, PIPE_MTE2, PIPE_V, 2},
        {S::Set, PIPE_MTE2, PIPE_V, 3}, {S::Set, PIPE_MTE2, PIPE_V, 4}, {S::Set, PIPE_MTE2, PIPE_V, 5},
        {S::Set, PIPE_MTE2, PIPE_V, 6}, {S::Load, 1, 1}, {S::Wait, PIPE_MTE2, PIPE_V, 0}, {S::Wait, PIPE_MTE2, PIPE_V, 1},
        {S::Wait, PIPE_MTE2, PIPE_V, 2}, {S::Wait, PIPE_MTE2, PIPE_V, 3}, {S::Wait, PIPE_MTE2, PIPE_V, 4},
        {S::Wait, PIPE_MTE2, PIPE_V, 5}, {S::Wait, PIPE_MTE2, PIPE_V, 6}, {S::Exp, 2, 1}}},
      {"store overwritten by the next fill", {{S::Fill, 0}, set_v3, wait_v3, {S::Store, 0, 0}, {S::Fill, 0}}},
      {"GM stored then reloaded", {{S::Fill, 0}, set_v3, wait_v3, {S::Store, 0, 4}, {S::LoadOut, 1, 4},
                                   {S::Set, PIPE_MTE2, PIPE_V, 1}, {S::Wait, PIPE_MTE2, PIPE_V, 1}, {S::Exp, 2, 1}}},
  };
}
}  // namespace

// Each round applies every suggested fix literally and runs again. A fix never introduces a finding of
// its own (a lost signal, a flag left set: only races remain), and the races left after a round are
// ones the fixed race hid (the shadow keeps the latest read per pipe: a load that overwrites a tile
// read by TEXP #2 is reported against TEXP #5 if that read ran ahead of it; ordering #5 uncovers #2).
BOOST_AUTO_TEST_CASE(applying_every_suggested_fix_leaves_no_finding) {
  for (const auto& [name, program] : racy_programs())
    for (Policy p : {Policy::Deterministic, Policy::Concurrent}) {
      Program now = program;
      Outcome o = run([&] { return interpret(now); }, p);
      BOOST_TEST_REQUIRE(!o.findings.empty(), name);
      int rounds = 0;
      for (; !o.findings.empty() && rounds < 3; ++rounds) {
        for (const SyncFinding& f : o.findings) BOOST_TEST_REQUIRE((f.kind == K::Race), name << " round " << rounds << ": " << f.message);
        now = apply_fixes(now, o.findings);
        o = run([&] { return interpret(now); }, p);
      }
      BOOST_TEST((!o.threw && o.findings.empty()), name << " after " << rounds << " rounds:\n" << dump(o));
      if (std::string(name) == "second buffer on the first's id" || std::string(name) == "missing MTE2 -> V")
        BOOST_TEST(rounds == 1, name);  // nothing hidden: one round
    }
}

// ---- auto mode: the runtime orders, so nothing races, under every policy ----------------------------

namespace {
// Tiles auto mode places itself (never TASSIGNed), reused across tiles: WAR and WAW everywhere. The
// chain on c fills the V queue, so the scalar pipe stalls while the earlier TEXP and TSTORE retire: the
// next tile's TLOAD and TEXP then conflict with instructions no longer queued.
Kernel auto_placed_reuse() {
  TileF a, b, c;
  co_await TEXPANDS(c, 0.0f);
  for (int t = 0; t < 4; ++t) {
    GmF in(gm_in().data() + t * R * C), out(gm_out().data() + t * R * C);
    co_await TLOAD(a, in);
    co_await TEXP(b, a);
    co_await TSTORE(out, b);
    for (int k = 0; k < 40; ++k) co_await TADDS(c, c, 1.0f);
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(auto_mode_reports_no_race_and_every_verdict_is_the_same_under_both_policies) {
  std::vector<std::pair<std::string, std::function<Kernel()>>> all = {
      {"missing MTE2->V", missing_mte2_to_v}, {"missing V->MTE3", missing_v_to_mte3},
      {"single buffer reloaded", single_buffer_reloaded_before_store}, {"one id, two buffers", double_buffer_one_event_id},
      {"wrong id", wrong_event_id_waited}, {"barrier on the wrong pipe", barrier_on_the_wrong_pipe},
      {"store then overwrite", store_then_overwrite}, {"wait without set", wait_without_set}, {"cyclic wait", cyclic_wait},
      {"lost signal", lost_signal}, {"flag left set", flag_left_set}, {"event not recorded", event_waited_before_recorded}};
  for (const Named& k : correct_corpus()) all.emplace_back(k.name, k.body);
  for (const auto& [name, program] : racy_programs()) all.emplace_back(name, [p = program] { return interpret(p); });
  std::size_t runs = 0;
  for (Mode mode : {Mode::Manual, Mode::Auto})
    for (const auto& [name, body] : all) {
      const Outcome d = run(body, Policy::Deterministic, 1, mode), c = run(body, Policy::Concurrent, 1, mode);
      runs += 2;
      BOOST_TEST(d.error == c.error, name);
      BOOST_TEST_REQUIRE(d.findings.size() == c.findings.size(), name << (mode == Mode::Auto ? " (auto)" : "") << dump(d) << dump(c));
      for (std::size_t i = 0; i < d.findings.size(); ++i) BOOST_TEST(d.findings[i].message == c.findings[i].message, name);
      if (mode == Mode::Auto)
        for (const SyncFinding& f : d.findings) BOOST_TEST((f.kind != K::Race), name << " (auto): " << f.message);
    }
  for (Policy p : {Policy::Deterministic, Policy::Concurrent}) {
    const Outcome o = run(auto_placed_reuse, p, 1, Mode::Auto);
    BOOST_TEST((!o.threw && o.findings.empty()), dump(o));
    runs += 1;
  }
  BOOST_TEST_MESSAGE(runs << " runs");
}

BOOST_AUTO_TEST_CASE(a_gm_race_on_bytes_stored_thousands_of_instructions_earlier_is_still_found) {
  // 3000 tiles streamed to distinct GM (the GM shadow is swept of accesses nothing can race with any
  // more), then the first tile's output is reloaded with nothing ordering it after its store.
  constexpr int n = 3000;
  std::vector<float> in(8 * n, 1.0f), out(8 * n, 0.0f);
  using Row = Tile<TileType::Vec, float, 1, 8>;
  using GmRow = GlobalTensor<float, Shape<1, 1, 1, 1, 8>, pto::Stride<1, 1, 1, 8, 1>>;
  auto kernel = [](__gm__ float* o, __gm__ float* i, bool reload) -> Kernel {
    Row a, b;
    TASSIGN(a, 0);
    TASSIGN(b, 64);
    for (int t = 0; t < n; ++t) {
      GmRow src(i + 8 * t), dst(o + 8 * t);
      RecordEvent l = co_await TLOAD(a, src);
      RecordEvent e = co_await TADDS(b, a, 1.0f, l);
      RecordEvent s = co_await TSTORE(dst, b, e);
      co_await TSYNC(s);  // the scalar pipe waits for the store: the next tile's writes come after it
    }
    if (reload) {
      GmRow first(o);
      co_await TLOAD(a, first);  // after the scalar wait above: ordered after every store
    }
  };
  BOOST_TEST(launch({.blocks = 1, .check = SyncCheck::Report}, kernel, out, in, true).findings().empty());
  auto racy = [](__gm__ float* o, __gm__ float* i) -> Kernel {
    Row a, b;
    TASSIGN(a, 0);
    TASSIGN(b, 64);
    {
      GmRow dst(o);
      co_await TEXPANDS(b, 2.0f);
      co_await set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      co_await wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      co_await TSTORE(dst, b);  // never ordered before the reload below
    }
    for (int t = 1; t < n; ++t) {
      GmRow src(i + 8 * t);
      RecordEvent l = co_await TLOAD(a, src);
      co_await TSYNC(l);
    }
    GmRow first(o);
    co_await TLOAD(a, first);
  };
  const std::vector<SyncFinding> fs = launch({.blocks = 1, .check = SyncCheck::Report}, racy, out, in).findings();
  BOOST_TEST_REQUIRE(fs.size() == 1u);
  BOOST_TEST((fs[0].hazard == H::RAW && fs[0].memory == Memory::GM && fs[0].first.name == "TSTORE" && fs[0].second.name == "TLOAD"));
}
