// The public observer API (issue 40): a user's pto::Observer sees every core's events - issue, start,
// retire, wait, release, end - in model order, with the modeled times the report shows; the same under
// both policies, on many cores at once (run under ThreadSanitizer too).
#define BOOST_TEST_MODULE observer
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <pto/pto-inst.hpp>

#include "element_ref.hpp"

using namespace pto;

namespace {
constexpr int R = 16, C = 64;
using TileF = Tile<TileType::Vec, float, R, C>;
using GmF = GlobalTensor<float, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>>;
using pto_test::error_of;

// out = in * 3 + 1, `tiles` tiles per core, ordered by flags: MTE2 -> V -> MTE3 -> (next load) MTE2.
void flagged(__gm__ float* out, __gm__ float* in, int tiles) {
  TileF a, b;
  TASSIGN(a, 0);
  TASSIGN(b, TileF::GetSizeInBytes());
  for (int i = 0; i < tiles; ++i) {
    const int t = get_block_idx() * tiles + i;
    if (i) wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    GmF src(in + t * R * C), dst(out + t * R * C);
    TLOAD(a, src);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TMULS(b, a, 3.0f);
    TADDS(b, b, 1.0f);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(dst, b);
    set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  }
  wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
}

// Every event, in the order one core saw them.
struct Seen {
  char what;  // i(ssue) s(tart) r(etire) w(ait) f (release) e(nd)
  std::uint64_t seq, a, b;  // times: issue/start/end, wait from/to, release time, end cycles
  std::string name;
  int pipe;
  bool operator==(const Seen&) const = default;
};

struct Recorder : Observer {
  std::vector<std::vector<Seen>> cores;
  int launches = 0, launch_ends = 0;
  std::uint64_t reported_cycles = 0;
  void on_launch(const LaunchView& l) override {
    ++launches;
    cores.assign(std::size_t(l.blocks), {});
  }
  void on_issue(const InstrView& v) override { add(v.core, {'i', v.seq, v.issue, 0, v.name, v.pipe}); }
  std::map<int, std::uint64_t> idle_split;  // core 0: per pipe, the idle its instructions' starts explain
  void on_start(const InstrView& v) override {
    add(v.core, {'s', v.seq, v.issue, v.start, v.name, v.pipe});
    if (v.core == 0 && v.idle)
      for (std::uint64_t c : v.idle->cycles) idle_split[v.pipe] += c;
    // Boost.Test's assertions are not thread-safe, and cores call at once: count, assert later.
    if (v.idle && v.idle->cycles[0] + v.idle->cycles[1] + v.idle->cycles[2] != v.stall_cycles) ++split_mismatches[std::size_t(v.core)];
  }
  std::vector<int> split_mismatches = std::vector<int>(64);
  void on_retire(const InstrView& v) override { add(v.core, {'r', v.seq, v.start, v.end, v.name, v.pipe}); }
  void on_wait(const WaitView& w) override { add(w.core, {'w', 0, w.from, w.to, stall_name(w.why.cause), PIPE_S}); }
  void on_release(const ReleaseView& r) override { add(r.core, {'f', r.seq, r.time, std::uint64_t(r.flag_id), "", r.flag_dst}); }
  void on_end(const CoreEndView& e) override { add(e.core, {'e', e.instructions, e.cycles, e.scalar_end, "", PIPE_S}); }
  void on_launch_end(const LaunchReport& r) override {
    ++launch_ends;
    reported_cycles = r.cycles;
  }
  void add(int core, Seen e) { cores.at(std::size_t(core)).push_back(std::move(e)); }
};

std::size_t count(const std::vector<Seen>& ev, char what, const std::string& name = "") {
  return std::size_t(std::count_if(ev.begin(), ev.end(), [&](const Seen& e) { return e.what == what && (name.empty() || e.name == name); }));
}

LaunchReport run(Recorder& rec, int blocks, int tiles, Policy policy, std::vector<float>* out_copy = nullptr) {
  std::vector<float> in(std::size_t(blocks * tiles * R * C)), out(in.size(), -1.0f);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = float(i % 97) - 40.0f;
  LaunchConfig cfg{.blocks = blocks, .policy = policy, .timeline = true};
  cfg.observers = {&rec};
  LaunchReport r = launch(cfg, flagged, out, in, tiles);
  for (std::size_t i = 0; i < in.size(); ++i) BOOST_REQUIRE_EQUAL(out[i], double(in[i]) * 3.0 + 1.0);
  if (out_copy) *out_copy = out;
  return r;
}
}  // namespace

BOOST_AUTO_TEST_CASE(one_core_sees_every_instruction_with_the_reports_times) {
  Recorder rec;
  const int tiles = 5;
  const LaunchReport r = run(rec, 1, tiles, Policy::Deterministic);
  BOOST_TEST(rec.launches == 1);
  BOOST_TEST(rec.launch_ends == 1);
  BOOST_TEST(rec.reported_cycles == r.cycles);
  const std::vector<Seen>& ev = rec.cores[0];
  const CoreReport& c = r.cores[0];
  // Counts: what the kernel issued, by name (tiles x (TLOAD, TMULS, TADDS, TSTORE, 3 set_flag, 3
  // wait_flag) less the first iteration's wait, plus the final wait).
  BOOST_TEST(count(ev, 'i') == c.instructions);
  BOOST_TEST(c.instructions == std::uint64_t(tiles * 10));
  BOOST_TEST(count(ev, 'i', "TLOAD") == std::size_t(tiles));
  BOOST_TEST(count(ev, 'i', "TMULS") == std::size_t(tiles));
  BOOST_TEST(count(ev, 'i', "set_flag") == std::size_t(3 * tiles));
  BOOST_TEST(count(ev, 'i', "wait_flag") == std::size_t(3 * tiles));
  BOOST_TEST(count(ev, 's') == c.instructions);
  BOOST_TEST(count(ev, 'r') == c.instructions);
  BOOST_TEST(count(ev, 'f') == std::size_t(3 * tiles));  // every set_flag's token arrives
  BOOST_TEST(count(ev, 'e') == 1u);
  BOOST_TEST(rec.split_mismatches[0] == 0);
  BOOST_TEST(ev.back().what == 'e');
  BOOST_TEST(ev.back().seq == c.instructions);
  BOOST_TEST(ev.back().a == c.cycles);

  // Order: issues in program order (seq 1, 2, ...); per instruction issue < start <= retire events.
  std::uint64_t next = 1;
  std::map<std::uint64_t, std::size_t> issued_at, started_at;
  for (std::size_t k = 0; k < ev.size(); ++k) {
    const Seen& e = ev[k];
    if (e.what == 'i') {
      BOOST_TEST(e.seq == next);
      ++next;
      issued_at[e.seq] = k;
    } else if (e.what == 's') {
      BOOST_TEST(issued_at.count(e.seq) == 1u);
      started_at[e.seq] = k;
    } else if (e.what == 'r') {
      BOOST_TEST(started_at.count(e.seq) == 1u);
    }
  }
  // Each pipe retires in issue order.
  std::map<int, std::uint64_t> last_on_pipe;
  for (const Seen& e : ev)
    if (e.what == 'r') {
      BOOST_TEST(e.seq > last_on_pipe[e.pipe]);
      last_on_pipe[e.pipe] = e.seq;
    }

  // Modeled times: each retire's (start, end) is the timeline's, and the dataflow holds - TMULS starts
  // no earlier than its tile's TLOAD ended, TSTORE no earlier than the TADDS before it.
  std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> times;
  for (const Seen& e : ev)
    if (e.what == 'r') times[e.seq] = {e.a, e.b};
  BOOST_TEST(c.timeline.size() == times.size());
  for (const TimelineEntry& t : c.timeline) {
    BOOST_TEST(times[t.seq].first == t.start);
    BOOST_TEST(times[t.seq].second == t.end);
  }
  std::uint64_t load_end = 0, adds_end = 0, checked = 0;
  for (const Seen& e : ev) {
    if (e.what != 'r') continue;
    if (e.name == "TLOAD") load_end = e.b;
    if (e.name == "TMULS") {
      BOOST_TEST(e.a >= load_end);
      ++checked;
    }
    if (e.name == "TADDS") adds_end = e.b;
    if (e.name == "TSTORE") {
      BOOST_TEST(e.a >= adds_end);
      ++checked;
    }
  }
  BOOST_TEST(checked == std::uint64_t(2 * tiles));
  // The scalar pipe's waits add up to its idle cycles in the report (before its drain at the end).
  std::uint64_t waited = 0;
  for (const Seen& e : ev)
    if (e.what == 'w') waited += e.b - e.a;
  const PipeStats& s = c.pipes[PIPE_S];
  BOOST_TEST(waited == s.idle_cycles() - s.idle[std::size_t(Stall::Drain)]);
  // Each queued pipe's idle in the report is what its instructions' starts explain plus the time after
  // its last instruction.
  std::map<int, std::uint64_t> last_end;
  for (const Seen& e : ev)
    if (e.what == 'r') last_end[e.pipe] = e.b;
  int pipes_checked = 0;
  for (const auto& [pipe, end] : last_end) {
    if (pipe == PIPE_S) continue;
    BOOST_TEST(c.pipes[std::size_t(pipe)].idle_cycles() == rec.idle_split[pipe] + (c.cycles - end), pipe_name(pipe));
    ++pipes_checked;
  }
  BOOST_TEST(pipes_checked == 3);  // MTE2, V, MTE3
}

BOOST_AUTO_TEST_CASE(both_policies_deliver_the_same_events) {
  Recorder det, con;
  const LaunchReport a = run(det, 2, 4, Policy::Deterministic);
  const LaunchReport b = run(con, 2, 4, Policy::Concurrent);
  BOOST_TEST(a.cycles == b.cycles);
  BOOST_REQUIRE(det.cores.size() == 2u);
  BOOST_REQUIRE(con.cores.size() == 2u);
  for (int k = 0; k < 2; ++k) {
    BOOST_TEST(det.cores[std::size_t(k)].size() > 100u);
    BOOST_TEST((det.cores[std::size_t(k)] == con.cores[std::size_t(k)]));
  }
}

BOOST_AUTO_TEST_CASE(many_cores_at_once_each_see_their_own_events) {
  // 8 cores on 4 host threads: calls for different cores come concurrently (TSan watches this case).
  for (Policy policy : {Policy::Deterministic, Policy::Concurrent}) {
    Recorder rec;
    std::vector<float> in(std::size_t(8 * 3 * R * C)), out(in.size());
    LaunchConfig cfg{.blocks = 8, .policy = policy, .host_threads = 4};
    cfg.observers = {&rec};
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = float(i % 13);
    const LaunchReport r = launch(cfg, flagged, out, in, 3);
    for (int b = 0; b < 8; ++b) {
      const std::vector<Seen>& ev = rec.cores[std::size_t(b)];
      BOOST_TEST(count(ev, 'i') == r.cores[std::size_t(b)].instructions);
      BOOST_TEST(count(ev, 'r') == r.cores[std::size_t(b)].instructions);
      BOOST_TEST(ev.back().what == 'e');
      BOOST_TEST(ev.back().a == r.cores[std::size_t(b)].cycles);
      BOOST_TEST(rec.split_mismatches[std::size_t(b)] == 0);
    }
  }
}

BOOST_AUTO_TEST_CASE(an_observer_sees_events_with_checker_and_timeline_off) {
  Recorder rec;
  std::vector<float> in(std::size_t(2 * R * C), 1.0f), out(in.size());
  LaunchConfig cfg{.check = SyncCheck::Off};
  cfg.observers = {&rec, &rec};  // twice: called twice, in order
  const LaunchReport r = launch(cfg, flagged, out, in, 2);
  const std::vector<Seen>& ev = rec.cores[0];
  BOOST_TEST(count(ev, 'i') == 2 * r.cores[0].instructions);
  BOOST_TEST(rec.launches == 2);
  // The first observer's call, then the second's, for each event: pairs of equal events.
  BOOST_REQUIRE(ev.size() % 2 == 0u);
  std::size_t pairs = 0;
  for (std::size_t k = 0; k < ev.size(); k += 2) pairs += ev[k] == ev[k + 1];
  BOOST_TEST(pairs == ev.size() / 2);
}

BOOST_AUTO_TEST_CASE(errors_a_null_observer_and_one_that_throws) {
  std::vector<float> in(std::size_t(R * C), 1.0f), out(in.size());
  LaunchConfig cfg;
  cfg.observers = {nullptr};
  BOOST_TEST(error_of([&] { launch(cfg, flagged, out, in, 1); }).find("pto::launch: observers[0] is null") !=
             std::string::npos);
  struct Throws : Observer {
    void on_retire(const InstrView& v) override {
      if (std::string(v.name) == "TADDS") throw Error("my observer rejects TADDS");
    }
  } throws;
  cfg.observers = {&throws};
  const std::string e = error_of([&] { launch(cfg, flagged, out, in, 1); });
  BOOST_TEST(e.find("core 0: my observer rejects TADDS") != std::string::npos, e);
}
