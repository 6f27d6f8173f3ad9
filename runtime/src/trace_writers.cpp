#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include <pto/isa/error.hpp>
#include <pto/runtime/trace.hpp>

namespace pto {

namespace {

std::ofstream open_for_writing(const LaunchReport& r, const std::string& path, const char* what) {
  bool any = false;
  for (const auto& c : r.cores) any = any || !c.timeline.empty();
  if (!any)
    detail::fail(what, ": the report has no timeline; launch with LaunchConfig::timeline = true");
  std::ofstream os(path);
  if (!os) detail::fail(what, ": cannot open '", path, "' for writing");
  return os;
}

void finish(std::ofstream& os, const std::string& path, const char* what) {
  os.flush();
  if (!os) detail::fail(what, ": writing '", path, "' failed");
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out;
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '<') out += "&lt;";
    else if (ch == '>') out += "&gt;";
    else if (ch == '&') out += "&amp;";
    else out += ch;
  }
  return out;
}

constexpr int kLaneOrder[] = {PIPE_S, PIPE_MTE2, PIPE_V, PIPE_MTE3, PIPE_MTE1, PIPE_M, PIPE_FIX};

}  // namespace

void write_chrome_trace(const LaunchReport& r, const std::string& path) {
  const char* what = "write_chrome_trace";
  std::ofstream os = open_for_writing(r, path, what);
  const double us_per_cycle = 1.0 / (r.clock_ghz * 1000.0);
  os.precision(6);
  os << std::fixed << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  const char* sep = "";
  std::uint64_t flow = 0;
  for (const CoreReport& c : r.cores) {
    os << sep << R"({"ph":"M","name":"process_name","pid":)" << c.block << R"(,"args":{"name":"core )" << c.block << "\"}}";
    sep = ",\n";
    for (int p : kLaneOrder)
      os << sep << R"({"ph":"M","name":"thread_name","pid":)" << c.block << R"(,"tid":)" << p << R"(,"args":{"name":")"
         << pipe_name(p) << "\"}}";
    std::map<std::uint64_t, const TimelineEntry*> by_seq;
    for (const TimelineEntry& e : c.timeline) by_seq[e.seq] = &e;
    for (const TimelineEntry& e : c.timeline) {
      os << sep << R"({"ph":"X","name":")" << json_escape(e.name) << R"(","pid":)" << c.block << R"(,"tid":)" << e.pipe
         << R"(,"ts":)" << double(e.start) * us_per_cycle << R"(,"dur":)" << double(e.end - e.start) * us_per_cycle
         << R"(,"args":{"seq":)" << e.seq << R"(,"start_cycle":)" << e.start << R"(,"end_cycle":)" << e.end
         << R"(,"operands":")" << json_escape(e.operands) << R"(","idle_before":)" << e.stall_cycles
         << R"(,"idle_cause":")" << stall_name(e.stall) << "\"}}";
      for (std::uint64_t from : e.after) {  // an arrow from the producer's end to this start
        auto it = by_seq.find(from);
        if (it == by_seq.end()) continue;
        const TimelineEntry& src = *it->second;
        ++flow;
        os << sep << R"({"ph":"s","name":"dep","cat":"dep","id":)" << flow << R"(,"pid":)" << c.block << R"(,"tid":)"
           << src.pipe << R"(,"ts":)" << double(src.end) * us_per_cycle - 1e-6 << "}";
        os << sep << R"({"ph":"f","bp":"e","name":"dep","cat":"dep","id":)" << flow << R"(,"pid":)" << c.block
           << R"(,"tid":)" << e.pipe << R"(,"ts":)" << double(e.start) * us_per_cycle << "}";
      }
    }
  }
  os << "\n]}\n";
  finish(os, path, what);
}

void write_svg_timeline(const LaunchReport& r, const std::string& path) {
  const char* what = "write_svg_timeline";
  std::ofstream os = open_for_writing(r, path, what);
  constexpr int kLeft = 120, kWidth = 1200, kLane = 22, kGap = 14;
  const double scale = r.cycles ? double(kWidth) / double(r.cycles) : 1.0;
  // Lanes: the pipes each core used.
  std::vector<std::pair<const CoreReport*, int>> lanes;
  for (const CoreReport& c : r.cores)
    for (int p : kLaneOrder)
      if (std::any_of(c.timeline.begin(), c.timeline.end(), [p](const TimelineEntry& e) { return e.pipe == p; }))
        lanes.emplace_back(&c, p);
  const int height = int(lanes.size()) * kLane + int(r.cores.size()) * kGap + 60;
  os << R"(<svg xmlns="http://www.w3.org/2000/svg" width=")" << kLeft + kWidth + 20 << R"(" height=")" << height
     << R"(" font-family="monospace" font-size="11">)" << '\n';
  os << R"(<text x="4" y="16">modeled cycles on )" << name_of(r.target) << ": " << r.cycles << " cycles, overlap "
     << r.overlap() << "x</text>\n";
  const char* colour[kNumPipeIds] = {"#999999", "#4e79a7", "#b07aa1", "#59a14f", "#e15759", "#edc948", "", "#76b7b2"};
  int y = 30;
  const CoreReport* current = nullptr;
  for (auto [core, pipe] : lanes) {
    if (core != current) {
      y += kGap;
      current = core;
    }
    os << R"(<text x="4" y=")" << y + 15 << R"(">core )" << core->block << ' ' << (pipe_name(pipe) + 5) << "</text>\n";
    os << R"(<rect x=")" << kLeft << R"(" y=")" << y << R"(" width=")" << kWidth << R"(" height=")" << kLane - 2
       << R"(" fill="#f4f4f4"/>)" << '\n';
    for (const TimelineEntry& e : core->timeline) {
      if (e.pipe != pipe) continue;
      const double x = kLeft + double(e.start) * scale;
      const double w = std::max(1.0, double(e.end - e.start) * scale);
      os << R"(<rect x=")" << x << R"(" y=")" << y << R"(" width=")" << w << R"(" height=")" << kLane - 2
         << R"(" fill=")" << colour[pipe] << R"(" stroke="#ffffff" stroke-width="0.5"><title>#)" << e.seq << ' '
         << xml_escape(e.name) << " [" << e.start << ", " << e.end << ") " << xml_escape(e.operands)
         << "</title></rect>\n";
      if (w > 40)
        os << R"(<text x=")" << x + 2 << R"(" y=")" << y + 14 << R"(" fill="#ffffff">)" << xml_escape(e.name.substr(0, size_t(w / 7)))
           << "</text>\n";
    }
    y += kLane;
  }
  os << R"(<text x=")" << kLeft << R"(" y=")" << y + 20 << R"(">0</text><text x=")" << kLeft + kWidth - 60 << R"(" y=")"
     << y + 20 << R"(">)" << r.cycles << " cyc</text>\n</svg>\n";
  finish(os, path, what);
}

}  // namespace pto
