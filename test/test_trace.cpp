// The recorded timeline and the two writers (Chrome trace JSON, SVG).
#define BOOST_TEST_MODULE trace
#include <boost/test/unit_test.hpp>

#include <boost/json.hpp>
#include <boost/json/src.hpp>  // Boost.JSON header-only: this is its one translation unit
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <algorithm>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

using namespace pto;

namespace {
constexpr int R = 64, C = 64;
using TileF = Tile<TileType::Vec, float, R, C>;
using GmF = GlobalTensor<float, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>>;

// TLOAD -> flag -> TMOV -> flag -> TSTORE on every core.
void kernel(float* out, float* in) {
  TileF a, b;
  TASSIGN(a, 0);
  TASSIGN(b, 0x10000);
  GmF src(in + get_block_idx() * R * C), dst(out + get_block_idx() * R * C);
  TLOAD(a, src);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  TMOV(b, a);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  TSTORE(dst, b);
}

// Tiles stream through one buffer; after each store the kernel itself waits for it on the scalar pipe
// (set_flag(PIPE_MTE3, PIPE_S) / wait_flag(PIPE_MTE3, PIPE_S)) before it reloads the tile. Blocks 2
// and up stream one tile more, so a 4-core run has two classes of identical cores.
void scalar_wait_kernel(float* out, float* in, int base_tiles) {
  TileF a, b;
  TASSIGN(a, 0);
  TASSIGN(b, 0x10000);
  const int tiles = base_tiles + (get_block_idx() >= 2 ? 1 : 0);
  for (int t = 0; t < tiles; ++t) {  // three tiles of GM per core, reused
    GmF src(in + (get_block_idx() * 3 + t % 3) * R * C), dst(out + (get_block_idx() * 3 + t % 3) * R * C);
    TLOAD(a, src);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TMOV(b, a);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    TSTORE(dst, b);
    set_flag(PIPE_MTE3, PIPE_S, EVENT_ID2);
    wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID2);  // b is free (and a, read before b was written)
  }
  pipe_barrier(PIPE_ALL);
}
LaunchReport run_scalar_waits(int base_tiles = 2, int blocks = 4) {
  static std::vector<float> in(4 * 3 * R * C, 1.0f), out(4 * 3 * R * C);
  return launch({.blocks = blocks, .timeline = true}, scalar_wait_kernel, out.data(), in.data(), base_tiles);
}

std::string slurp(const std::string& path) {
  std::ifstream is(path);
  std::stringstream ss;
  ss << is.rdbuf();
  return ss.str();
}
std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
LaunchReport run(bool timeline) {
  static std::vector<float> in(2 * R * C, 1.0f), out(2 * R * C);
  return launch({.blocks = 2, .timeline = timeline}, kernel, out.data(), in.data());
}
}  // namespace

BOOST_AUTO_TEST_CASE(timeline_has_every_instruction_with_its_modeled_times) {
  LaunchReport rep = run(true);
  for (const CoreReport& c : rep.cores) {
    BOOST_TEST(c.timeline.size() == c.instructions);
    std::uint64_t busy[kNumPipeIds] = {};
    for (const TimelineEntry& e : c.timeline)
      if (e.pipe != PIPE_S) busy[e.pipe] += e.end - e.start;
    for (int p : {PIPE_MTE2, PIPE_V, PIPE_MTE3}) BOOST_TEST(busy[p] == c.pipes[p].busy_cycles);
    // The chain: TLOAD [0, 392), TMOV [392, 909), TSTORE [909, 1059); the waits point at the set_flags.
    auto find = [&](const std::string& name) {
      for (const TimelineEntry& e : c.timeline)
        if (c.name(e) == name) return e;
      BOOST_FAIL("no " + name);
      return TimelineEntry{};
    };
    BOOST_TEST(find("TLOAD").end == 392u);
    BOOST_TEST(find("TMOV").start == 392u);
    BOOST_TEST(find("TSTORE").start == 909u);
    BOOST_TEST(find("TSTORE").end == 1059u);
    const TimelineEntry w = find("wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0)");
    BOOST_TEST(c.after(w).size() == 1u);
    BOOST_TEST(c.after(w)[0] == find("set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0)").seq);
    BOOST_TEST(c.operands(find("TLOAD")).find("dst Tile<Vec,float,64,64> valid 64x64 @UB+0x0") != std::string::npos);
  }
  BOOST_TEST(run(false).cores[0].timeline.empty());
}

BOOST_AUTO_TEST_CASE(chrome_trace_names_processes_threads_events_and_flows) {
  LaunchReport rep = run(true);
  const std::string path = "test_trace_out.json";
  write_chrome_trace(rep, path);
  const std::string j = slurp(path);
  BOOST_TEST(j.rfind("{\"displayTimeUnit\"", 0) == 0u);
  BOOST_TEST(count(j, "\"ph\":\"X\"") == rep.instructions());
  BOOST_TEST(count(j, "\"process_name\"") == 2u);
  BOOST_TEST(count(j, "\"name\":\"PIPE_MTE2\"") == 2u);
  // Two flag edges per core: each one a flow start and a flow finish.
  BOOST_TEST(count(j, "\"ph\":\"s\"") == 4u);
  BOOST_TEST(count(j, "\"ph\":\"f\"") == 4u);
  // 392 cycles at 1.85 GHz = 0.211892 us.
  BOOST_TEST(j.find("\"dur\":0.211892") != std::string::npos);
  BOOST_TEST(j.substr(j.size() - 4) == "\n]}\n");
  std::remove(path.c_str());
}

// The whole-run panel of an SVG (the detail panel, when there is one, follows it).
std::string overview(const std::string& svg) {
  const std::size_t at = svg.find("<g class=\"overview\">");
  return svg.substr(at, svg.find("</g>", at) - at);
}
// Every instruction of the drawn cores is in one box or tick of the whole-run panel: alone ("#seq
// name ...") or merged with sub-pixel neighbours ("N instructions, #a to #b ...").
std::size_t covered(const std::string& panel) {
  std::size_t n = 0;
  for (std::size_t at = panel.find("<title>"); at != std::string::npos; at = panel.find("<title>", at + 1)) {
    const std::string t = panel.substr(at + 7, 40);
    if (t[0] == '#') ++n;
    else if (std::isdigit(static_cast<unsigned char>(t[0]))) n += std::stoul(t);
  }
  return n;
}

BOOST_AUTO_TEST_CASE(svg_timeline_has_a_lane_per_pipe_and_a_box_per_instruction) {
  LaunchReport rep = run(true);
  const std::string path = "test_trace_out.svg";
  write_svg_timeline(rep, path);
  const std::string s = slurp(path);
  std::remove(path.c_str());
  BOOST_TEST(s.rfind("<svg", 0) == 0u);
  // The two cores run the same timeline: one row group, every instruction of it drawn once.
  BOOST_TEST(count(s, ">cores 0-1 (2 identical)</text>") == 1u);
  BOOST_TEST(covered(overview(s)) == rep.cores[0].instructions);
  BOOST_TEST(s.find("idle before: ") != std::string::npos);
  for (const char* lane : {">S</text>", ">MTE2</text>", ">V</text>", ">MTE3</text>"}) BOOST_TEST(count(s, lane) == 1u);
  BOOST_TEST(s.find(">TLOAD</text>") != std::string::npos);  // a name inside its box
  BOOST_TEST(s.find("</svg>") != std::string::npos);
}

// What the picture shows without a trace viewer: a legend, a time axis in microseconds and cycles,
// folded identical cores, the scalar pipe's waits, arrows from each source's end to the release.
BOOST_AUTO_TEST_CASE(svg_timeline_has_a_legend_an_axis_folded_cores_the_s_pipe_and_arrows) {
  LaunchReport rep = run_scalar_waits();
  const std::string path = "test_trace_waits.svg";
  write_svg_timeline(rep, path);
  const std::string s = slurp(path);
  boost::property_tree::ptree doc;
  BOOST_CHECK_NO_THROW(boost::property_tree::read_xml(path, doc));  // well-formed XML
  std::remove(path.c_str());
  BOOST_TEST(doc.count("svg") == 1u);
  const std::size_t legend = s.find("<g id=\"legend\">");
  BOOST_TEST_REQUIRE(legend != std::string::npos);
  const std::string legend_text = s.substr(legend, s.find("</g>", legend) - legend);
  for (const char* item : {">TLOAD 392 cycles</text>", ">TMOV 517 cycles</text>", ">wait_flag</text>", ">set_flag (tick)</text>", ">pipe_barrier</text>"})
    BOOST_TEST(legend_text.find(item) != std::string::npos, item);
  // Ticks labelled in microseconds and in cycles (1.85 GHz: 0.5 us = 925 cycles).
  BOOST_TEST(s.find(">0.5 us</text>") != std::string::npos);
  BOOST_TEST(s.find(">925 cycles</text>") != std::string::npos);
  // Cores 0-1 stream two tiles, cores 2-3 three: two row groups, each with an S lane.
  BOOST_TEST(count(s, ">cores 0-1 (2 identical)</text>") == 1u);
  BOOST_TEST(count(s, ">cores 2-3 (2 identical)</text>") == 1u);
  BOOST_TEST(count(s, ">S</text>") == 2u);
  BOOST_TEST(covered(overview(s)) == rep.cores[0].instructions + rep.cores[2].instructions);
  // The scalar pipe's waits are boxes on the S lane, named where they fit.
  BOOST_TEST(count(s, ">wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID2)</text>") == 5u);
  // An arrow per flag edge of the drawn cores, none pointing back in time: the head of an arrow into a
  // scalar-pipe wait is the wait's end, where the set_flag released it.
  std::size_t edges = 0;
  for (const CoreReport* c : {&rep.cores[0], &rep.cores[2]})
    for (const TimelineEntry& e : c->timeline) edges += c->after(e).size();
  std::size_t arrows = 0, backwards = 0;
  for (std::size_t at = s.find("<path d=\"M", s.find("</defs>")); at != std::string::npos; at = s.find("<path d=\"M", at + 1)) {
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    BOOST_TEST_REQUIRE(std::sscanf(s.c_str() + at, "<path d=\"M%lf,%lfL%lf,%lf", &x1, &y1, &x2, &y2) == 4);
    ++arrows;
    backwards += x2 < x1;
  }
  BOOST_TEST(arrows == edges);
  BOOST_TEST(backwards == 0u);
  BOOST_TEST(s.find("all 15 flag, event and cross-core waits drawn") != std::string::npos);
  BOOST_TEST(edges == 15u);
}

// A long run: the whole-run panel merges sub-pixel boxes and draws no arrows (it says so), a detail
// panel zooms into the start with its arrows and names, and the file stays small.
BOOST_AUTO_TEST_CASE(svg_timeline_of_a_long_run_merges_caps_and_adds_a_detail_panel) {
  LaunchReport rep = run_scalar_waits(3000, 1);
  const std::string path = "test_trace_long.svg";
  write_svg_timeline(rep, path);
  const std::string s = slurp(path);
  const auto bytes = std::filesystem::file_size(path);
  boost::property_tree::ptree doc;
  BOOST_CHECK_NO_THROW(boost::property_tree::read_xml(path, doc));
  std::remove(path.c_str());
  BOOST_TEST(rep.instructions() == 3000u * 9u + 1u);
  BOOST_TEST(covered(overview(s)) == rep.instructions());
  // Bounded by pixels, not instructions: a lane holds at most a few boxes per 2 px.
  BOOST_TEST(bytes < 700'000u, bytes << " bytes for " << rep.instructions() << " instructions");
  BOOST_TEST(count(s, "<rect") < 5000u);
  BOOST_TEST(s.find("9000 flag, event and cross-core waits, more than 200: not drawn at this scale") != std::string::npos);  // 3 a tile
  BOOST_TEST(s.find(" instructions, #") != std::string::npos);  // merged boxes
  const std::size_t detail = s.find("<g class=\"detail\">");
  BOOST_TEST_REQUIRE(detail != std::string::npos);
  const std::string d = s.substr(detail);
  BOOST_TEST(d.find(">TMOV</text>") != std::string::npos);  // a box wide enough for its name
  BOOST_TEST(count(d, "<path d=\"M") > 0u);
  BOOST_TEST(count(d, "<path d=\"M") <= 200u);
  BOOST_TEST(count(overview(s), "<path d=\"M") == 0u);  // the whole-run panel draws none
}

BOOST_AUTO_TEST_CASE(writer_errors) {
  BOOST_CHECK_EXCEPTION(write_chrome_trace(run(false), "x.json"), Error, [](const Error& e) {
    return std::string(e.what()) == "write_chrome_trace: the report has no timeline; launch with LaunchConfig::timeline = true";
  });
  BOOST_CHECK_EXCEPTION(write_svg_timeline(run(true), "/nonexistent-dir/t.svg"), Error, [](const Error& e) {
    return std::string(e.what()) == "write_svg_timeline: cannot open '/nonexistent-dir/t.svg' for writing";
  });
}

BOOST_AUTO_TEST_CASE(critical_path_follows_the_flags_through_the_pipes) {
  LaunchReport rep = run(true);
  const CoreReport& c = rep.cores[0];
  std::vector<std::string> names;
  for (std::uint64_t seq : c.critical_path())
    for (const TimelineEntry& e : c.timeline)
      if (e.seq == seq) names.push_back(c.name(e));
  const std::vector<std::string> want = {"TLOAD",
                                         "set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0)",
                                         "wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0)",
                                         "TMOV",
                                         "set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1)",
                                         "wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1)",
                                         "TSTORE"};
  BOOST_TEST(names == want, boost::test_tools::per_element());
  BOOST_TEST(rep.summary().find("critical path (core 0, 7 instructions): TLOAD -> set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0) -> "
                                "wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0) -> TMOV -> ") != std::string::npos,
             rep.summary());
  BOOST_TEST(run(false).cores[0].critical_path().empty());
}

BOOST_AUTO_TEST_CASE(chrome_trace_parses_as_json_with_tracks_events_and_matching_flows) {
  LaunchReport rep = run(true);
  const std::string path = "test_trace_json.json";
  write_chrome_trace(rep, path);
  const boost::json::value doc = boost::json::parse(slurp(path));
  std::remove(path.c_str());
  const boost::json::array& events = doc.at("traceEvents").as_array();
  std::size_t complete = 0, processes = 0;
  std::vector<std::string> threads;
  std::map<std::int64_t, int> flows;  // id -> +1 start, +2 finish
  for (const boost::json::value& v : events) {
    const boost::json::object& e = v.as_object();
    const std::string ph(e.at("ph").as_string());
    if (ph == "M" && e.at("name").as_string() == "process_name") ++processes;
    if (ph == "M" && e.at("name").as_string() == "thread_name" && e.at("pid").as_int64() == 1)
      threads.emplace_back(e.at("args").at("name").as_string());
    if (ph == "X") {
      ++complete;
      const boost::json::object& args = e.at("args").as_object();
      const double ts = e.at("ts").to_number<double>(), dur = e.at("dur").to_number<double>();
      // Microseconds: the cycles at 1.85 GHz.
      BOOST_TEST(ts == double(args.at("start_cycle").as_int64()) / 1850.0, boost::test_tools::tolerance(1e-5));
      BOOST_TEST(dur >= 0.0);
      // Operands for instructions that have them, the idle time before it and its cause when non-zero.
      BOOST_TEST(args.contains("operands") == (e.at("name").as_string() == "TLOAD" || e.at("name").as_string() == "TMOV" ||
                                              e.at("name").as_string() == "TSTORE"));
      BOOST_TEST(args.contains("idle_cause") == args.contains("idle_before"));
      // A vector instruction carries the intrinsics its algorithm issued (TMOV: copy_ubuf_to_ubuf).
      BOOST_TEST(args.contains("intrinsics") == (e.at("name").as_string() == "TMOV"));
      if (e.at("name").as_string() == "TMOV") BOOST_TEST(args.at("intrinsics").as_string().starts_with("copy_ubuf_to_ubuf"));
    }
    if (ph == "s") flows[e.at("id").as_int64()] += 1;
    if (ph == "f") flows[e.at("id").as_int64()] += 2;
  }
  BOOST_TEST(complete == rep.instructions());
  BOOST_TEST(processes == 2u);
  BOOST_TEST(threads.size() == 7u);  // one track per pipe
  BOOST_TEST((std::find(threads.begin(), threads.end(), "PIPE_MTE2") != threads.end()));
  BOOST_TEST(flows.size() == 4u);  // two flag edges per core
  for (const auto& [id, kinds] : flows) BOOST_TEST(kinds == 3);  // each flow has its start and its finish
}

// Every flow arrow goes from the end of what was waited for to the point the waiter was released: a
// queued instruction's start, a scalar-pipe wait's end (it starts when the scalar pipe reaches it, often
// before its set_flag has run). Both ends sit at most 1 ps inside their slices (a viewer binds them there).
BOOST_AUTO_TEST_CASE(chrome_trace_flows_run_from_the_source_end_to_the_release) {
  LaunchReport rep = run_scalar_waits();
  const std::string path = "test_trace_flows.json";
  write_chrome_trace(rep, path);
  const boost::json::value doc = boost::json::parse(slurp(path));
  std::remove(path.c_str());
  struct Slice {
    std::int64_t tid = 0;
    double ts = 0, end = 0;
    std::string name;
  };
  struct End {
    std::int64_t pid = 0, tid = 0, seq = -1;
    double ts = 0;
  };
  std::map<std::pair<std::int64_t, std::int64_t>, Slice> slices;  // (pid, seq) -> its slice
  std::map<std::int64_t, End> tails, heads;                       // flow id -> its start, its finish
  for (const boost::json::value& v : doc.at("traceEvents").as_array()) {
    const boost::json::object& e = v.as_object();
    const std::string ph(e.at("ph").as_string());
    if (ph == "X") {
      const double ts = e.at("ts").to_number<double>();
      slices[{e.at("pid").as_int64(), e.at("args").at("seq").as_int64()}] =
          Slice{e.at("tid").as_int64(), ts, ts + e.at("dur").to_number<double>(), std::string(e.at("name").as_string())};
    }
    if (ph == "s" || ph == "f") {
      End end{e.at("pid").as_int64(), e.at("tid").as_int64(), -1, e.at("ts").to_number<double>()};
      if (const auto* args = e.if_contains("args")) end.seq = args->at("seq").as_int64();
      (ph == "s" ? tails : heads)[e.at("id").as_int64()] = end;
    }
  }
  std::size_t edges = 0, scalar_waits = 0, backwards = 0;
  for (const CoreReport& c : rep.cores)
    for (const TimelineEntry& e : c.timeline) {
      edges += c.after(e).size();
      if (e.pipe == PIPE_S && c.name(e).starts_with("wait_flag(PIPE_MTE3, PIPE_S")) ++scalar_waits;
    }
  BOOST_TEST(scalar_waits == 10u);  // 2 + 2 + 3 + 3 tiles
  BOOST_TEST(tails.size() == edges);
  BOOST_TEST(heads.size() == edges);
  for (const auto& [id, tail] : tails) {
    BOOST_TEST_REQUIRE(heads.count(id) == 1u);
    if (heads.at(id).ts < tail.ts) ++backwards;
  }
  BOOST_TEST(backwards == 0u);  // arrows that land before their source has ended
  constexpr double kPs = 1.5e-6;  // 1 ps inside a slice, plus the 6 printed decimals' rounding
  for (const auto& [id, tail] : tails) {
    BOOST_TEST_CONTEXT("flow " << id) {
      const End& head = heads.at(id);
      BOOST_TEST(head.pid == tail.pid);
      // The tail is the end of the source instruction, on its track.
      BOOST_TEST_REQUIRE(slices.count({tail.pid, tail.seq}) == 1u);
      const Slice& src = slices.at({tail.pid, tail.seq});
      BOOST_TEST(tail.tid == src.tid);
      BOOST_TEST(std::abs(tail.ts - src.end) <= kPs);
      // The head is where the waiter was released, on its track.
      BOOST_TEST_REQUIRE(slices.count({head.pid, head.seq}) == 1u);
      const Slice& dst = slices.at({head.pid, head.seq});
      BOOST_TEST(head.tid == dst.tid);
      const double release = head.tid == PIPE_S ? dst.end : dst.ts;
      BOOST_TEST(std::abs(head.ts - release) <= kPs, dst.name << " released at " << release << ", arrow at " << head.ts);
      BOOST_TEST(head.ts >= dst.ts);
      BOOST_TEST(head.ts <= dst.end);
    }
  }
}
