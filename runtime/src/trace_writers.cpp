// The Chrome trace and SVG writers. Both stream through one buffered writer with std::to_chars
// (a million-instruction timeline is written in well under a second); texts are escaped once per
// distinct string, not once per instruction.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <unordered_map>
#include <array>
#include <string_view>
#include <type_traits>
#include <cstdio>
#include <string>
#include <vector>

#include <pto/isa/error.hpp>
#include <pto/runtime/trace.hpp>

namespace pto {

namespace {

// Appends without bounds checks between room() calls: each record first asks for room for itself.
class Writer {
public:
  Writer(const LaunchReport& r, const std::string& path, const char* what) : buf_(kChunk), path_(path), what_(what) {
    bool any = false;
    for (const auto& c : r.cores) any = any || !c.timeline.empty();
    if (!any && r.timeline)
      detail::fail(what, ": the launch recorded a timeline, but no core issued an instruction: there is nothing to draw");
    if (!any) detail::fail(what, ": the report has no timeline; launch with LaunchConfig::timeline = true");
    f_ = std::fopen(path.c_str(), "wb");
    if (!f_) detail::fail(what, ": cannot open '", path, "' for writing");
    p_ = buf_.data();
  }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  ~Writer() {
    if (f_) std::fclose(f_);
  }
  // Makes room for `n` more bytes (fixed text and numbers of one record plus its strings' lengths).
  Writer& room(std::size_t n) {
    if (std::size_t(buf_.data() + buf_.size() - p_) < n) {
      flush();
      if (buf_.size() < n) {
        buf_.resize(n);
        p_ = buf_.data();
      }
    }
    return *this;
  }
  Writer& operator<<(std::string_view s) {
    if (s.empty()) return *this;  // an empty view may carry a null pointer: memcpy must not see it
    std::memcpy(p_, s.data(), s.size());
    p_ += s.size();
    return *this;
  }
  Writer& operator<<(char c) {
    *p_++ = c;
    return *this;
  }
  template <class Int>
    requires std::is_integral_v<Int>
  Writer& operator<<(Int v) {
    p_ = std::to_chars(p_, p_ + 24, v).ptr;
    return *this;
  }
  Writer& fixed(double v, int digits) {  // fixed-point, `digits` decimals (small values only)
    p_ = std::to_chars(p_, p_ + 48, v, std::chars_format::fixed, digits).ptr;
    return *this;
  }
  // Microseconds with 6 decimals from a picosecond count, in integer arithmetic (no float formatting).
  Writer& micros(std::int64_t ps) {
    if (ps < 0) {
      *p_++ = '-';
      ps = -ps;
    }
    *this << ps / 1000000 << '.';
    char tmp[8];
    std::to_chars(tmp, tmp + 7, 1000000 + std::uint32_t(ps % 1000000));  // the leading 1 keeps the zeros
    std::memcpy(p_, tmp + 1, 6);
    p_ += 6;
    return *this;
  }
  void close() {
    flush();
    const bool bad = std::ferror(f_) != 0;
    const bool closed = std::fclose(f_) == 0;
    f_ = nullptr;
    if (bad || !closed) detail::fail(what_, ": writing '", path_, "' failed");
  }

private:
  static constexpr std::size_t kChunk = 1 << 20;
  void flush() {
    const std::size_t n = std::size_t(p_ - buf_.data());
    if (n && std::fwrite(buf_.data(), 1, n, f_) != n) detail::fail(what_, ": writing '", path_, "' failed");
    p_ = buf_.data();
  }
  std::FILE* f_ = nullptr;
  std::vector<char> buf_;
  char* p_ = nullptr;
  std::string path_;
  const char* what_;
};

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
    else if (static_cast<unsigned char>(ch) < 0x20) out += ' ';  // not allowed in XML 1.0 text
    else out += ch;
  }
  return out;
}

template <class F>
std::vector<std::string> escaped(const std::vector<std::string>& texts, F escape) {
  std::vector<std::string> out;
  out.reserve(texts.size());
  for (const std::string& t : texts) out.push_back(escape(t));
  return out;
}

constexpr int kLaneOrder[] = {PIPE_S, PIPE_MTE2, PIPE_V, PIPE_MTE3, PIPE_MTE1, PIPE_M, PIPE_FIX};

}  // namespace

// A core's timeline entries by seq (null where none retired).
static std::vector<const TimelineEntry*> entries_by_seq(const CoreReport& c) {
  std::vector<const TimelineEntry*> by_seq;
  for (const TimelineEntry& e : c.timeline) {
    if (e.seq >= by_seq.size()) by_seq.resize(e.seq + 1, nullptr);
    by_seq[e.seq] = &e;
  }
  return by_seq;
}

void write_chrome_trace(const LaunchReport& r, const std::string& path) {
  Writer os(r, path, "write_chrome_trace");
  const double ps_per_cycle = 1000.0 / r.clock_ghz;
  auto ps = [&](std::uint64_t cycles) { return std::llround(double(cycles) * ps_per_cycle); };
  constexpr std::size_t kRecord = 512;  // fixed text and numbers of any one record
  os.room(kRecord) << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  std::string_view sep;
  std::uint64_t flow = 0;
  // Cross-core arrows need the other cores' entries by seq too.
  std::vector<std::vector<const TimelineEntry*>> by_seq_of(r.cores.size());
  for (const CoreReport& c : r.cores)
    if (!c.cross_edges.empty()) {
      for (std::size_t k = 0; k < r.cores.size(); ++k) by_seq_of[k] = entries_by_seq(r.cores[k]);
      break;
    }
  for (const CoreReport& c : r.cores) {
    // On one launch-wide clock: a block of a later wave starts when the chip dispatched it.
    auto at = [&](std::uint64_t cycles) { return ps(c.dispatched + cycles); };
    os.room(kRecord) << sep << R"({"ph":"M","name":"process_name","pid":)" << c.core << R"(,"args":{"name":")" << c.label() << "\"}}";
    sep = ",\n";
    for (int p : kLaneOrder)
      os.room(kRecord) << sep << R"({"ph":"M","name":"thread_name","pid":)" << c.core << R"(,"tid":)" << p << R"(,"args":{"name":")"
         << pipe_name(p) << "\"}}";
    const std::vector<std::string> text = escaped(c.strings, json_escape);
    const std::vector<const TimelineEntry*> by_seq = entries_by_seq(c);
    for (const TimelineEntry& e : c.timeline) {
      static const std::string none;
      const std::string& intrinsics = e.intrinsics_id == ~0u ? none : text[e.intrinsics_id];
      os.room(kRecord + text[e.name_id].size() + text[e.operands_id].size() + intrinsics.size());
      os << sep << R"({"ph":"X","name":")" << text[e.name_id] << R"(","pid":)" << c.core << R"(,"tid":)" << int(e.pipe)
         << R"(,"ts":)";
      os.micros(at(e.start)) << R"(,"dur":)";
      os.micros(at(e.end) - at(e.start))
          << R"(,"args":{"seq":)" << e.seq << R"(,"start_cycle":)" << e.start << R"(,"end_cycle":)" << e.end;
      if (!text[e.operands_id].empty()) os << R"(,"operands":")" << text[e.operands_id] << '"';
      if (!intrinsics.empty()) os << R"(,"intrinsics":")" << intrinsics << '"';
      if (e.stall_cycles) os << R"(,"idle_before":)" << e.stall_cycles << R"(,"idle_cause":")" << stall_name(e.stall) << '"';
      os << "}}";
      // An arrow from the end of what it waited for to the point it was released: a queued instruction
      // at its start, a scalar-pipe wait (wait_flag(X, PIPE_S), TSYNC) at its end - it starts when the
      // scalar pipe reaches it, possibly before its source has ended. Both ends sit 1 ps inside their
      // slices (the tail before the source's end, a scalar wait's head before its end, never before its
      // start), so a viewer binds them to those slices and not to a neighbour that touches them.
      for (std::uint64_t from : c.after(e)) {
        if (from >= by_seq.size() || !by_seq[from]) continue;
        const TimelineEntry& src = *by_seq[from];
        ++flow;
        os.room(kRecord) << sep << R"({"ph":"s","name":"dep","cat":"dep","id":)" << flow << R"(,"pid":)" << c.core << R"(,"tid":)"
           << int(src.pipe) << R"(,"ts":)";
        os.micros(at(src.end) - 1) << R"(,"args":{"seq":)" << src.seq << "}}";
        os << sep << R"({"ph":"f","bp":"e","name":"dep","cat":"dep","id":)" << flow << R"(,"pid":)" << c.core
           << R"(,"tid":)" << int(e.pipe) << R"(,"ts":)";
        os.micros(e.pipe == PIPE_S ? std::max(at(e.start), at(e.end) - 1) : at(e.start)) << R"(,"args":{"seq":)" << e.seq << "}}";
      }
    }
    // Another core's signal -> the wait it ended (TPUSH -> TPOP, the last arrival -> SYNCALL), from the
    // end of the set (its signal leaves then) to the end of the wait, both 1 ps inside their slices.
    for (const CoreReport::CrossEdge& x : c.cross_edges) {
      const std::size_t from = std::size_t(x.from_core);
      if (from >= r.cores.size() || x.seq >= by_seq.size() || !by_seq[x.seq] || x.from_seq >= by_seq_of[from].size() ||
          !by_seq_of[from][x.from_seq])
        continue;
      const TimelineEntry& src = *by_seq_of[from][x.from_seq];
      const TimelineEntry& dst = *by_seq[x.seq];
      const CoreReport& sc = r.cores[from];
      ++flow;
      os.room(kRecord) << sep << R"({"ph":"s","name":"signal","cat":"cross-core","id":)" << flow << R"(,"pid":)" << sc.core
                       << R"(,"tid":)" << int(src.pipe) << R"(,"ts":)";
      os.micros(std::max(ps(sc.dispatched + src.start), ps(sc.dispatched + src.end) - 1)) << R"(,"args":{"seq":)" << src.seq << "}}";
      os << sep << R"({"ph":"f","bp":"e","name":"signal","cat":"cross-core","id":)" << flow << R"(,"pid":)" << c.core
         << R"(,"tid":)" << int(dst.pipe) << R"(,"ts":)";
      os.micros(std::max(at(dst.start), at(dst.end) - 1)) << R"(,"args":{"seq":)" << dst.seq << "}}";
    }
  }
  os.room(kRecord) << "\n]}\n";
  os.close();
}

// ---- the SVG timeline ---------------------------------------------------------------------------

namespace {

constexpr double kCharWidth = 6.6;  // monospace at 11 px: 0.6 em a character (DejaVu Sans Mono: 0.602)
constexpr int kLeft = 64, kWidth = 1200, kRight = 84, kTotalWidth = kLeft + kWidth + kRight;
constexpr int kLane = 22, kStrip = 5;     // a lane's height (2 of it the gap); its top strip (ticks, issue marks)
constexpr std::size_t kMaxArrows = 200;   // arrows a panel draws at most
constexpr std::size_t kMaxGroups = 16;    // groups of identical cores drawn at most
constexpr double kMergePx = 2.0;          // sub-pixel boxes (and ticks) merge into runs up to this wide
constexpr std::size_t kDenseLane = 40;    // more boxes than this on a lane: names cannot fit, add a detail panel
constexpr std::size_t kDetailBoxes = 12;  // the detail panel's window: this many boxes of the densest lane
constexpr const char* kFlagArrow = "#1a1a1a";
constexpr const char* kEventArrow = "#7b3294";
constexpr const char* kCrossArrow = "#e15759";
constexpr const char* kIssueFill = "#8f8f8f";
constexpr const char* kDrainFill = "#dcdcdc";
constexpr const char* kOtherFill = "#bab0ac";

std::size_t chars(std::string_view s) {  // UTF-8 characters (a label's arrow is 3 bytes, one glyph)
  return std::size_t(std::count_if(s.begin(), s.end(), [](char ch) { return (static_cast<unsigned char>(ch) & 0xC0) != 0x80; }));
}
double text_width(std::string_view s) { return double(chars(s)) * kCharWidth; }

// The first n - 1 characters and an ellipsis (n characters in all).
std::string truncated(const std::string& s, std::size_t n) {
  std::size_t at = 0, kept = 0;
  while (at < s.size() && kept + 1 < n) {
    ++at;
    while (at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80) ++at;
    ++kept;
  }
  return s.substr(0, at) + "…";
}

std::string_view kind_of(std::string_view name) { return name.substr(0, name.find('(')); }

// "wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID2)" -> "wait MTE3→S #2", "set_flag(...)" likewise,
// "pipe_barrier(PIPE_ALL)" -> "barrier ALL"; any other name is its own short label.
std::string short_label(std::string_view name) {
  if (name.starts_with("pipe_barrier(PIPE_") && name.ends_with(")")) return "barrier " + std::string(name.substr(18, name.size() - 19));
  const bool set = name.starts_with("set_flag("), wait = name.starts_with("wait_flag(");
  if (!set && !wait) return std::string(name);
  static constexpr std::string_view kPrefix[] = {"PIPE_", "PIPE_", "EVENT_ID"};
  std::string_view field[3];
  std::size_t at = 0;
  for (int i = 0; i < 3; ++i) {
    const std::size_t p = name.find(kPrefix[i], at);
    if (p == std::string_view::npos) return std::string(name);
    at = p + kPrefix[i].size();
    const std::size_t end = std::min(name.find_first_of(",)", at), name.size());
    field[i] = name.substr(at, end - at);
    at = end;
  }
  return std::string(set ? "set " : "wait ") + std::string(field[0]) + "→" + std::string(field[1]) + " #" + std::string(field[2]);
}

bool dark(const char* fill) {  // white text reads on it
  const unsigned long v = std::strtoul(fill + 1, nullptr, 16);
  return 0.299 * double(v >> 16) + 0.587 * double((v >> 8) & 0xff) + 0.114 * double(v & 0xff) < 150.0;
}

// One colour per instruction name, the same in every picture (a reader learns that TLOAD is blue): fixed
// ones for the instructions most kernels have, else a hue from the name's FNV-1a hash (s 55%, l 50%).
const char* colour_of(const std::string& name) {
  static const std::pair<const char*, const char*> fixed[] = {
      {"TLOAD", "#4e79a7"},    {"TSTORE", "#59a14f"},  {"TMATMUL", "#e15759"},  {"TMATMUL_ACC", "#ff9da7"},
      {"TEXTRACT", "#76b7b2"}, {"TMOV", "#edc948"},    {"TADD", "#b07aa1"},     {"TMUL", "#9c755f"},
      {"TEXP", "#8cd17d"},     {"TEXPANDS", "#499894"}, {"TROWMAX", "#86bcb6"}, {"TROWSUM", "#f1ce63"},
      {"TCOLEXPANDADD", "#a0cbe8"}, {"TAXPY", "#d4a6c8"}, {"TCVT", "#fabfd2"},  {"TSORT32", "#79706e"},
      {"TMRGSORT", "#d7b5a6"}, {"TGATHER", "#b6992d"}, {"TADDS", "#e1add3"},    {"TMULS", "#c6a7ff"}};
  for (const auto& [n, c] : fixed)
    if (name == n) return c;
  static const std::array<std::string, 360> hues = [] {
    std::array<std::string, 360> h;
    for (int deg = 0; deg < 360; ++deg) {  // HSL -> RGB at s = 0.55, l = 0.5
      const double c = 0.55, x = c * (1 - std::fabs(std::fmod(deg / 60.0, 2.0) - 1)), m = 0.5 - c / 2;
      double r = 0, g = 0, b = 0;
      const int sextant = deg / 60;
      if (sextant == 0) r = c, g = x;
      else if (sextant == 1) r = x, g = c;
      else if (sextant == 2) g = c, b = x;
      else if (sextant == 3) g = x, b = c;
      else if (sextant == 4) r = x, b = c;
      else r = c, b = x;
      char buf[8];
      std::snprintf(buf, sizeof buf, "#%02x%02x%02x", int(std::lround((r + m) * 255)), int(std::lround((g + m) * 255)),
                    int(std::lround((b + m) * 255)));
      h[std::size_t(deg)] = buf;
    }
    return h;
  }();
  std::uint32_t f = 2166136261u;
  for (char ch : name) f = (f ^ std::uint8_t(ch)) * 16777619u;
  return hues[f % 360].c_str();
}

// An instruction name's colour and figures over the cores drawn (each group counted once per core).
struct Kind {
  std::string name;
  std::uint64_t cycles = 0, count = 0, min = ~0ull, max = 0;
  bool sync = false;  // set_flag / wait_flag / pipe_barrier: fixed colours, listed last
  const char* fill = kOtherFill;
};

// A core's timeline indexed for folding and drawing: its entries per pipe (a pipe runs in order, so
// they are sorted by start and by end) and a hash of its names, starts and ends per pipe.
struct Indexed {
  const CoreReport* core = nullptr;
  std::array<std::vector<std::uint32_t>, kNumPipeIds> on_pipe;
  std::uint64_t hash = 0;
};

Indexed index_core(const CoreReport& c) {
  Indexed x;
  x.core = &c;
  std::vector<std::uint64_t> text_hash(c.strings.size());
  for (std::size_t i = 0; i < c.strings.size(); ++i) text_hash[i] = std::hash<std::string>{}(c.strings[i]);
  std::array<std::uint64_t, kNumPipeIds> h{};
  for (std::uint32_t i = 0; i < c.timeline.size(); ++i) {
    const TimelineEntry& e = c.timeline[i];
    x.on_pipe[e.pipe].push_back(i);
    for (std::uint64_t v : {e.start, e.end, text_hash[e.name_id]}) h[e.pipe] = (h[e.pipe] ^ v) * 0x100000001b3ull;
  }
  x.hash = c.cycles;
  for (std::uint64_t hp : h) x.hash = (x.hash ^ hp) * 0x9e3779b97f4a7c15ull;
  return x;
}

// The same timeline: the same names, starts and ends, in order, on every pipe.
bool same_timeline(const Indexed& a, const Indexed& b) {
  if (a.hash != b.hash || a.core->cycles != b.core->cycles) return false;
  for (int p = 0; p < kNumPipeIds; ++p) {
    if (a.on_pipe[p].size() != b.on_pipe[p].size()) return false;
    for (std::size_t i = 0; i < a.on_pipe[p].size(); ++i) {
      const TimelineEntry& x = a.core->timeline[a.on_pipe[p][i]];
      const TimelineEntry& y = b.core->timeline[b.on_pipe[p][i]];
      if (x.start != y.start || x.end != y.end || a.core->name(x) != b.core->name(y)) return false;
    }
  }
  return true;
}

struct Group {
  Indexed rep;  // the group's first core, drawn for all of them
  std::vector<int> blocks;
  std::vector<int> lanes;             // S, then the pipes it used
  std::vector<std::uint32_t> kind;    // its strings' kinds
  std::vector<std::uint32_t> by_seq;  // seq -> timeline index
};

struct Arrow {
  std::uint64_t tail = 0, head = 0;  // cycles: the source's end, the waiter's release
  int from_lane = 0, to_lane = 0;
  bool flag = false;
  int from_group = -1;  // a cross-core signal: the group drawing its source (-1: this group)
};

struct Panel {
  std::uint64_t t0 = 0, t1 = 1;
  double scale = 1.0;  // pixels per cycle
  bool overview = true;
  std::size_t arrows_in_window = 0;
  bool arrows_drawn = true;
  std::vector<std::vector<Arrow>> arrows;  // per group: those drawn
  double x(std::uint64_t t) const { return kLeft + double(std::clamp(t, t0, t1) - t0) * scale; }
};

}  // namespace

// A picture to read without a trace viewer: a legend (a colour per instruction name), a time axis in
// microseconds and cycles, identical cores folded into one row group, a lane per pipe with the scalar
// pipe first (its waits, its issue cycles, the end-of-kernel drain), boxes labelled where the name fits,
// flag and event arrows, and a detail panel that zooms into the start of a run too dense to label.
// Boxes narrower than a pixel merge with their sub-pixel neighbours into one "N instructions" box, so a
// million-instruction lane stays a few thousand elements; the picture says what it merged, capped and
// folded.
void write_svg_timeline(const LaunchReport& r, const std::string& path) {
  Writer os(r, path, "write_svg_timeline");
  constexpr std::size_t kRecord = 1024;
  const double cycles_per_us = r.clock_ghz * 1000.0;

  // ---- plan: groups of identical cores, kinds and colours, panels, arrows, the layout.
  std::vector<Group> groups;
  std::size_t cores_not_drawn = 0;
  {
    std::unordered_map<std::uint64_t, std::vector<std::size_t>> by_hash;
    for (const CoreReport& c : r.cores) {
      Indexed x = index_core(c);
      auto& candidates = by_hash[x.hash];
      const auto it = std::find_if(candidates.begin(), candidates.end(), [&](std::size_t g) { return same_timeline(groups[g].rep, x); });
      if (it != candidates.end()) {
        groups[*it].blocks.push_back(c.core);
        continue;
      }
      candidates.push_back(groups.size());
      groups.emplace_back();
      groups.back().rep = std::move(x);
      groups.back().blocks.push_back(c.core);
    }
    for (Group& g : groups) std::sort(g.blocks.begin(), g.blocks.end());
    std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.blocks.front() < b.blocks.front(); });
    for (std::size_t g = kMaxGroups; g < groups.size(); ++g) cores_not_drawn += groups[g].blocks.size();
  }
  const std::size_t groups_total = groups.size();
  if (groups.size() > kMaxGroups) groups.resize(kMaxGroups);

  std::vector<Kind> kinds;
  {
    std::unordered_map<std::string, std::uint32_t> kind_index;
    for (Group& g : groups) {
      const CoreReport& c = *g.rep.core;
      g.kind.assign(c.strings.size(), ~0u);
      for (const TimelineEntry& e : c.timeline) {
        if (g.kind[e.name_id] == ~0u) {
          const std::string k(kind_of(c.name(e)));
          const auto [it, fresh] = kind_index.emplace(k, std::uint32_t(kinds.size()));
          if (fresh) {
            kinds.emplace_back();
            kinds.back().name = k;
            kinds.back().sync = k == "set_flag" || k == "wait_flag" || k == "pipe_barrier";
          }
          g.kind[e.name_id] = it->second;
        }
        Kind& k = kinds[g.kind[e.name_id]];
        const std::uint64_t d = e.end - e.start;
        k.cycles += d * g.blocks.size();
        k.count += g.blocks.size();
        k.min = std::min(k.min, d);
        k.max = std::max(k.max, d);
      }
      for (int p : kLaneOrder)
        if (p == PIPE_S || !g.rep.on_pipe[p].empty()) g.lanes.push_back(p);
      for (std::uint32_t i = 0; i < c.timeline.size(); ++i) {
        if (c.timeline[i].seq >= g.by_seq.size()) g.by_seq.resize(c.timeline[i].seq + 1, ~0u);
        g.by_seq[c.timeline[i].seq] = i;
      }
    }
    // The legend lists the instructions that take the most cycles first; flags and barriers last.
    std::vector<std::uint32_t> order(kinds.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      if (kinds[a].sync != kinds[b].sync) return !kinds[a].sync;
      return kinds[a].cycles > kinds[b].cycles;
    });
    std::vector<Kind> sorted;
    std::vector<std::uint32_t> where(kinds.size());
    for (std::uint32_t k : order) {
      Kind& kind = kinds[k];
      if (kind.name == "set_flag") kind.fill = "#2b2b2b";
      else if (kind.name == "wait_flag") kind.fill = "#f28e2b";
      else if (kind.name == "pipe_barrier") kind.fill = "#d37295";
      else kind.fill = colour_of(kind.name);
      where[k] = std::uint32_t(sorted.size());
      sorted.push_back(std::move(kind));
    }
    for (Group& g : groups)
      for (std::uint32_t& k : g.kind)
        if (k != ~0u) k = where[k];
    kinds = std::move(sorted);
  }

  // Panels: the whole run and, when its densest lane is too dense to label, the start of the run.
  std::vector<Panel> panels(1);
  panels[0].t1 = std::max<std::uint64_t>(r.cycles, 1);
  {
    std::size_t densest = 0;
    const Group* dg = nullptr;
    int dp = 0;
    for (const Group& g : groups)
      for (int p : g.lanes) {
        std::size_t n = 0;
        for (std::uint32_t i : g.rep.on_pipe[p]) n += g.rep.core->timeline[i].end > g.rep.core->timeline[i].start;
        if (n > densest) densest = n, dg = &g, dp = p;
      }
    if (densest > kDenseLane) {
      std::size_t n = 0;
      std::uint64_t t = 0;
      for (std::uint32_t i : dg->rep.on_pipe[dp]) {
        const TimelineEntry& e = dg->rep.core->timeline[i];
        if (e.end > e.start && ++n == kDetailBoxes) {
          t = e.end;
          break;
        }
      }
      t += std::max<std::uint64_t>(1, t / 50);
      if (t < panels[0].t1 / 2) {
        panels.emplace_back();
        panels.back().t1 = t;
        panels.back().overview = false;
      }
    }
  }
  bool any_flag = false, any_event = false, any_cross = false;
  // A cross-core arrow joins two drawn cores: the group whose representative each core is.
  std::vector<int> group_of_rep(r.cores.size(), -1);
  for (std::size_t gi = 0; gi < groups.size(); ++gi) group_of_rep[std::size_t(groups[gi].rep.core->core)] = int(gi);
  for (Panel& pn : panels) {
    pn.scale = double(kWidth) / double(pn.t1 - pn.t0);
    pn.arrows.resize(groups.size());
    std::vector<std::pair<std::size_t, Arrow>> drawn;  // (group, arrow), the earliest heads
    const bool only_count = pn.overview && panels.size() > 1;
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
      const Group& g = groups[gi];
      const CoreReport& c = *g.rep.core;
      auto lane = [&](int pipe) { return int(std::find(g.lanes.begin(), g.lanes.end(), pipe) - g.lanes.begin()); };
      for (const TimelineEntry& e : c.timeline)
        for (std::uint64_t from : c.after(e)) {
          if (from >= g.by_seq.size() || g.by_seq[from] == ~0u) continue;
          const TimelineEntry& src = c.timeline[g.by_seq[from]];
          // From the end of what it waited for to where it was released: a scalar-pipe wait at its end.
          const Arrow a{src.end, e.pipe == PIPE_S ? e.end : e.start, lane(src.pipe), lane(e.pipe), c.name(e).starts_with("wait_flag")};
          if (a.tail < pn.t0 || a.head > pn.t1) continue;
          (a.flag ? any_flag : any_event) = true;
          ++pn.arrows_in_window;
          if (only_count && drawn.size() > kMaxArrows) continue;  // more than the cap: the overview draws none
          drawn.emplace_back(gi, a);
          if (drawn.size() >= 8 * kMaxArrows) {  // keep the earliest kMaxArrows
            std::stable_sort(drawn.begin(), drawn.end(), [](const auto& x, const auto& y) { return x.second.head < y.second.head; });
            drawn.resize(kMaxArrows);
          }
        }
      // Signals from other drawn cores (TPUSH -> TPOP, the last arrival -> SYNCALL): set's end -> wait's end.
      for (const CoreReport::CrossEdge& x : c.cross_edges) {
        const int gj = std::size_t(x.from_core) < group_of_rep.size() ? group_of_rep[std::size_t(x.from_core)] : -1;
        if (gj < 0 || x.seq >= g.by_seq.size() || g.by_seq[x.seq] == ~0u) continue;
        const Group& sg = groups[std::size_t(gj)];
        if (x.from_seq >= sg.by_seq.size() || sg.by_seq[x.from_seq] == ~0u) continue;
        const TimelineEntry& src = sg.rep.core->timeline[sg.by_seq[x.from_seq]];
        const TimelineEntry& dst = c.timeline[g.by_seq[x.seq]];
        const int from_lane = int(std::find(sg.lanes.begin(), sg.lanes.end(), int(src.pipe)) - sg.lanes.begin());
        const Arrow a{src.end, dst.end, from_lane, lane(dst.pipe), false, gj};
        if (a.tail < pn.t0 || a.head > pn.t1) continue;
        any_cross = true;
        ++pn.arrows_in_window;
        if (only_count && drawn.size() > kMaxArrows) continue;
        drawn.emplace_back(gi, a);
      }
    }
    // Too many for the whole run: the detail panel draws those of its window; else the earliest ones.
    pn.arrows_drawn = pn.arrows_in_window <= kMaxArrows || !only_count;
    if (!pn.arrows_drawn) continue;
    std::stable_sort(drawn.begin(), drawn.end(), [](const auto& x, const auto& y) { return x.second.head < y.second.head; });
    if (drawn.size() > kMaxArrows) drawn.resize(kMaxArrows);
    for (const auto& [gi, a] : drawn) pn.arrows[gi].push_back(a);
  }

  // Legend items: a swatch and a text, laid out in rows.
  enum Shape { kBox, kTickShape, kIssue, kFlag, kEvent, kCross };
  struct Item {
    std::string text;
    const char* fill;
    Shape shape;
  };
  std::vector<Item> items;
  for (const Kind& k : kinds) {
    std::string t = k.name;
    if (k.max > 0 && !k.sync)
      t += (k.min == k.max ? " " : " ~") + std::to_string((k.cycles + k.count / 2) / k.count) + " cycles";
    if (k.sync && k.max == 0) t += " (tick)";
    items.push_back({xml_escape(t), k.fill, k.sync && k.max == 0 ? kTickShape : kBox});
  }
  items.push_back({"scalar pipe issuing", kIssueFill, kIssue});
  if (std::any_of(groups.begin(), groups.end(), [](const Group& g) { return g.rep.core->pipes[PIPE_S].idle[std::size_t(Stall::Drain)] > 0; }))
    items.push_back({"end-of-kernel drain", kDrainFill, kBox});
  if (any_flag) items.push_back({"flag: set_flag end → wait released", kFlagArrow, kFlag});
  if (any_event) items.push_back({"event: end → waiter released", kEventArrow, kEvent});
  if (any_cross) items.push_back({"cross-core signal: set → wait ended", kCrossArrow, kCross});
  const std::string legend_head = "colour per instruction name:";
  const int legend_x0 = 8 + int(text_width(legend_head));
  std::vector<std::pair<int, int>> item_at;  // (x, row)
  {
    int x = legend_x0, row = 0;
    for (const Item& it : items) {
      const int w = 22 + int(text_width(it.text)) + 14;
      if (x + w > kTotalWidth && x > legend_x0) x = legend_x0, ++row;
      item_at.emplace_back(x, row);
      x += w;
    }
  }
  const int legend_rows = item_at.back().second + 1;

  constexpr int kTitle = 24, kLegendRow = 17, kPanelTitle = 22, kAxis = 30, kGroupHead = 17, kGroupGap = 10, kNote = 15;
  auto group_height = [](const Group& g) { return kGroupHead + int(g.lanes.size()) * kLane + kGroupGap; };
  int groups_height = 0;
  for (const Group& g : groups) groups_height += group_height(g);
  std::vector<std::string> notes;
  notes.push_back(std::string("Colours: one per instruction name, the same in every picture") +
                  ". Zero-cycle instructions (flags, barriers) are ticks in a lane's top strip. S: the scalar pipe; its strip marks "
                  "the cycles it issued in, its boxes are its waits (wait_flag(X, PIPE_S), barriers, TSYNC).");
  const std::size_t cores_drawn = r.cores.size() - cores_not_drawn;
  notes.push_back((r.cores.size() == 1 ? std::string("One core.")
                   : groups_total == r.cores.size()
                       ? "No two cores have the same timeline (names, starts and ends on every pipe): a row group per core."
                       : "Cores with the same timeline (names, starts and ends on every pipe) are drawn once: " + std::to_string(groups.size()) +
                             (groups.size() == 1 ? " row group" : " row groups") + " for " + std::to_string(cores_drawn) + " cores.") +
                  (cores_not_drawn ? " " + std::to_string(groups_total - groups.size()) + " more groups (" + std::to_string(cores_not_drawn) +
                                         " cores) are not drawn (at most " + std::to_string(kMaxGroups) + ")."
                                   : std::string()) +
                  " The right column: each pipe's busy share of its core's cycles (S: issuing).");
  for (const Panel& pn : panels) {
    const std::string where = pn.overview ? "whole run" : "detail";
    if (pn.arrows_in_window == 0) notes.push_back("Arrows (" + where + "): none (no flag, event or cross-core waits).");
    else if (!pn.arrows_drawn)
      notes.push_back("Arrows (" + where + "): " + std::to_string(pn.arrows_in_window) + " flag, event and cross-core waits, more than " +
                      std::to_string(kMaxArrows) + ": not drawn at this scale; the detail panel draws those in its window.");
    else if (pn.arrows_in_window > kMaxArrows)
      notes.push_back("Arrows (" + where + "): the first " + std::to_string(kMaxArrows) + " of " + std::to_string(pn.arrows_in_window) +
                      " (by release time) drawn.");
    else notes.push_back("Arrows (" + where + "): all " + std::to_string(pn.arrows_in_window) + " flag, event and cross-core waits drawn.");
  }
  notes.push_back("");  // the boxes line, written once they are counted
  // Notes wrap at spaces to the picture's width (10 px text: 6 px a character); the boxes line is known
  // only after drawing, so it is kept short enough for two lines.
  constexpr std::size_t kNoteChars = (kTotalWidth - 8) / 6;
  auto wrap = [&](const std::string& n) {
    std::vector<std::string> lines;
    for (std::size_t at = 0;;) {
      const std::string indent = lines.empty() ? "" : "  ";
      const std::size_t room = kNoteChars - indent.size();
      if (n.size() - at <= room) {
        lines.push_back(indent + n.substr(at));
        return lines;
      }
      std::size_t cut = n.rfind(' ', at + room);
      if (cut == std::string::npos || cut <= at) cut = at + room;
      lines.push_back(indent + n.substr(at, cut - at));
      at = cut + (n[cut] == ' ');
    }
  };
  std::size_t note_lines = 2;  // the boxes line
  for (std::size_t i = 0; i + 1 < notes.size(); ++i) note_lines += wrap(notes[i]).size();
  const int height = kTitle + legend_rows * kLegendRow + 8 + int(panels.size()) * (kPanelTitle + kAxis) +
                     int(panels.size()) * groups_height + int(note_lines) * kNote + 12;

  // ---- draw.
  os.room(kRecord) << R"(<svg xmlns="http://www.w3.org/2000/svg" width=")" << kTotalWidth << R"(" height=")" << height
                   << R"(" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="11">)" << '\n' << "<defs>";
  for (const auto& [id, fill] : {std::pair{"af", kFlagArrow}, std::pair{"ae", kEventArrow}, std::pair{"ax", kCrossArrow}})
    os << R"(<marker id=")" << id << R"(" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" markerHeight="7" )"
       << R"(markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0L8,4L0,8z" fill=")" << fill << R"("/></marker>)";
  os << "</defs>\n<style>rect { shape-rendering: crispEdges } .s { stroke: #ffffff; stroke-width: 0.6 }</style>\n" << R"(<rect width="100%" height="100%" fill="#ffffff"/>)" << '\n';
  os << R"(<text x="4" y="16" font-size="12" font-weight="bold">PTO timeline: )" << name_of(r.target) << ", " << r.cores.size()
     << (r.cores.size() == 1 ? " core, " : " cores, ") << r.cycles << " cycles = ";
  os.fixed(r.microseconds(), 3) << " us at ";
  os.fixed(r.clock_ghz, 2) << " GHz, overlap ";
  os.fixed(r.overlap(), 2) << "x, " << r.instructions() << " instructions</text>\n";

  // The legend.
  int y = kTitle;
  os.room(kRecord) << R"(<g id="legend"><text x="4" y=")" << y + 11 << R"(">)" << legend_head << "</text>\n";
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    const int x = item_at[i].first, ly = y + item_at[i].second * kLegendRow;
    os.room(kRecord + it.text.size());
    switch (it.shape) {
      case kBox: os << R"(<rect x=")" << x << R"(" y=")" << ly + 2 << R"(" width="16" height="10" fill=")" << it.fill << R"("/>)"; break;
      case kTickShape: os << R"(<rect x=")" << x + 7 << R"(" y=")" << ly + 1 << R"(" width="2" height="12" fill=")" << it.fill << R"("/>)"; break;
      case kIssue: os << R"(<rect x=")" << x << R"(" y=")" << ly + 2 << R"(" width="16" height="4" fill=")" << it.fill << R"("/>)"; break;
      case kFlag:
      case kEvent:
      case kCross:
        os << R"(<line x1=")" << x << R"(" y1=")" << ly + 7 << R"(" x2=")" << x + 17 << R"(" y2=")" << ly + 7 << R"(" stroke=")" << it.fill
           << R"(" stroke-width="1.2" marker-end="url(#)" << (it.shape == kFlag ? "af" : it.shape == kEvent ? "ae" : "ax") << ")\"/>";
        break;
    }
    os << R"(<text x=")" << x + 20 << R"(" y=")" << ly + 11 << R"(">)" << it.text << "</text>\n";
  }
  os << "</g>\n";
  y += legend_rows * kLegendRow + 8;

  std::size_t boxes = 0, ticks = 0;
  std::vector<std::vector<std::string>> texts;  // each group's strings, escaped
  for (const Group& g : groups) texts.push_back(escaped(g.rep.core->strings, xml_escape));
  for (const Panel& pn : panels) {
    // The panel's title and time axis: ticks at round microseconds, labelled in microseconds and cycles.
    os.room(kRecord) << R"(<g class=")" << (pn.overview ? "overview" : "detail") << R"("><text x="4" y=")" << y + 15
                     << R"(" font-weight="bold">)" << (pn.overview ? "Whole run" : "Detail: the start of the run") << R"(</text><text x=")"
                     << kLeft + 170 << R"(" y=")" << y + 15 << R"(" fill="#444">cycles )" << pn.t0 << " to " << pn.t1 << ", 1 px = ";
    os.fixed(1.0 / pn.scale, 1 / pn.scale < 10 ? 2 : 1) << " cycles";
    if (!pn.overview) os << "; names in the boxes that fit them, every wait's arrow";
    else if (panels.size() > 1) os << "; the bar under the axis marks the detail panel's window";
    os << "</text>\n";
    y += kPanelTitle;
    const int axis_y = y;
    const int body_top = y + kAxis;
    const double span_us = double(pn.t1 - pn.t0) / cycles_per_us;
    const double raw = span_us / 8.0, mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = mag * (raw <= mag ? 1.0 : raw <= 2 * mag ? 2.0 : raw <= 5 * mag ? 5.0 : 10.0);
    const int decimals = std::clamp(int(-std::floor(std::log10(step) + 1e-9)), 0, 9);
    std::vector<double> grid;  // the ticks' x, drawn again across each lane
    for (long k = long(std::ceil(double(pn.t0) / cycles_per_us / step - 1e-9));; ++k) {
      const double us = double(k) * step, cyc = us * cycles_per_us;
      if (cyc > double(pn.t1) + 1e-6) break;
      const double x = kLeft + (cyc - double(pn.t0)) * pn.scale;
      grid.push_back(x);
      os.room(kRecord) << R"(<line x1=")";
      os.fixed(x, 1) << R"(" y1=")" << axis_y + 27 << R"(" x2=")";
      os.fixed(x, 1) << R"(" y2=")" << body_top - 1 << R"(" stroke="#888888" stroke-width="0.7"/><text x=")";
      os.fixed(x, 1) << R"(" y=")" << axis_y + 11 << R"(" text-anchor="middle">)";
      os.fixed(us, decimals) << R"( us</text><text x=")";
      os.fixed(x, 1) << R"(" y=")" << axis_y + 23 << R"(" text-anchor="middle" font-size="10" fill="#555">)" << std::llround(cyc)
                     << " cycles</text>\n";
    }
    if (pn.overview && panels.size() > 1) {
      os.room(kRecord) << R"(<rect x=")" << kLeft << R"(" y=")" << body_top - 6 << R"(" width=")";
      os.fixed(std::max(2.0, pn.x(panels[1].t1) - kLeft), 1) << R"(" height="4" fill="#4e79a7"><title>the detail panel's window</title></rect>)" << '\n';
    }
    y = body_top;

    std::vector<int> group_top(groups.size(), 0);  // where each group's lanes begin (cross-core arrows)
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
      const Group& g = groups[gi];
      const CoreReport& c = *g.rep.core;
      const std::vector<std::string>& text = texts[gi];
      // The group's heading: which cores, their figures.
      const std::vector<std::size_t> members(g.blocks.begin(), g.blocks.end());
      const bool clusters = c.kind != CoreKind::Any;
      const std::string label = cores_label(r, members) + (g.blocks.size() < 2 ? std::string()
                                                           : clusters ? std::string(", identical")
                                                                      : " (" + std::to_string(g.blocks.size()) + " identical)");
      os.room(kRecord) << R"(<text x="4" y=")" << y + 12 << R"(" font-weight="bold">)" << label << R"(</text><text x=")"
                       << 4 + int(text_width(label)) + 12 << R"(" y=")" << y + 12 << R"(" fill="#444">)" << c.cycles << " cycles = ";
      os.fixed(double(c.cycles) / cycles_per_us, 3) << " us, overlap ";
      os.fixed(c.overlap(), 2) << "x, " << c.instructions << " instructions" << (g.blocks.size() > 1 ? " each" : "") << "</text>\n";
      if (pn.overview)
        os << R"(<text x=")" << kLeft + kWidth + 8 << R"(" y=")" << y + 12 << R"(" font-size="10" fill="#555">busy</text>)" << '\n';
      y += kGroupHead;
      const int lanes_top = y;
      for (int pipe : g.lanes) {
        const int box_y = y + kStrip, box_h = kLane - 2 - kStrip;
        os.room(kRecord) << R"(<text x="4" y=")" << y + 15 << R"(">)" << (pipe_name(pipe) + 5) << R"(</text><rect x=")" << kLeft
                         << R"(" y=")" << y << R"(" width=")" << kWidth << R"(" height=")" << kLane - 2 << R"(" fill="#f3f3f3"/>)" << '\n';
        for (double x : grid) {
          os.room(kRecord) << R"(<line x1=")";
          os.fixed(x, 1) << R"(" y1=")" << y << R"(" x2=")";
          os.fixed(x, 1) << R"(" y2=")" << y + kLane - 2 << R"(" stroke="#d4d4d4" stroke-width="0.7"/>)" << '\n';
        }
        if (pn.overview && c.cycles) {
          os << R"(<text x=")" << kLeft + kWidth + 8 << R"(" y=")" << y + 15 << R"(">)";
          os.fixed(100.0 * double(c.pipes[pipe].busy_cycles) / double(c.cycles), 1) << "%</text>\n";
        }
        if (pipe == PIPE_S) {
          // The end-of-kernel drain, then the cycles the scalar pipe issued in (pixel columns).
          const std::uint64_t drain = c.pipes[PIPE_S].idle[std::size_t(Stall::Drain)];
          if (drain && c.cycles - drain < pn.t1) {
            const double x = pn.x(c.cycles - drain), w = std::max(1.0, pn.x(c.cycles) - x);
            os.room(kRecord) << R"(<rect x=")";
            os.fixed(x, 2) << R"(" y=")" << box_y << R"(" width=")";
            os.fixed(w, 2) << R"(" height=")" << box_h << R"(" fill=")" << kDrainFill << R"("><title>drain: the kernel ended at cycle )"
                           << c.cycles - drain << "; the scalar pipe waited " << drain << " cycles for the pipes to finish</title></rect>\n";
            if (w >= text_width("drain") + 4)
              os << R"(<text x=")" << int(x) + 2 << R"(" y=")" << box_y + 11 << R"(" fill="#444">drain</text>)" << '\n';
          }
          const std::uint64_t issue_cost = std::max<std::uint64_t>(1, c.instructions ? c.pipes[PIPE_S].busy_cycles / c.instructions : 1);
          std::vector<bool> issued(kWidth + 1, false);
          for (const TimelineEntry& e : c.timeline) {
            if (e.issue + issue_cost <= pn.t0 || e.issue >= pn.t1) continue;
            const int a = int(pn.x(e.issue) - kLeft), b = std::max(a + 1, int(std::ceil(pn.x(e.issue + issue_cost) - kLeft)));
            for (int i = std::max(a, 0); i < std::min(b, kWidth); ++i) issued[std::size_t(i)] = true;
          }
          for (int i = 0; i < kWidth;) {
            if (!issued[std::size_t(i)]) {
              ++i;
              continue;
            }
            int j = i;
            while (j < kWidth && issued[std::size_t(j)]) ++j;
            os.room(kRecord) << R"(<rect x=")" << kLeft + i << R"(" y=")" << y << R"(" width=")" << j - i << R"(" height=")" << kStrip - 1
                             << R"(" fill=")" << kIssueFill << R"("/>)" << '\n';
            i = j;
          }
        }
        // Boxes: instructions that took cycles on this pipe, merged while narrower than a pixel.
        // A merged box is as opaque as its instructions keep the pipe busy over its span.
        auto box = [&](const TimelineEntry& first, const TimelineEntry& last, const TimelineEntry& longest, std::size_t count,
                       std::uint64_t busy) {
          const double x = pn.x(first.start), w = std::max(1.0, pn.x(last.end) - x);
          const Kind& kind = kinds[g.kind[longest.name_id]];
          const double span = double(std::min(last.end, pn.t1) - std::max(first.start, pn.t0));
          static const std::string none;
          const std::string& intrinsics = first.intrinsics_id == ~0u ? none : text[first.intrinsics_id];
          os.room(kRecord + 2 * (text[first.name_id].size() + text[first.operands_id].size() + intrinsics.size())) << R"(<rect x=")";
          os.fixed(x, 2) << R"(" y=")" << box_y << R"(" width=")";
          os.fixed(w, 2) << R"(" height=")" << box_h << R"(" fill=")" << kind.fill;
          if (count == 1 && w >= 3) os << R"(" class="s)";  // a white edge between boxes that touch
          if (count > 1 && span > 0 && double(busy) < span) {
            os << R"(" fill-opacity=")";
            os.fixed(std::max(0.15, double(busy) / span), 2);
          }
          os << R"("><title>)";
          if (count == 1)
            os << '#' << first.seq << ' ' << text[first.name_id] << " [" << first.start << ", " << first.end << ") "
               << text[first.operands_id] << "; idle before: " << first.stall_cycles << " cycles (" << stall_name(first.stall) << ')'
               << (intrinsics.empty() ? "" : "; intrinsics: ") << intrinsics;
          else
            os << count << " instructions, #" << first.seq << " to #" << last.seq << " [" << first.start << ", " << last.end << "), busy "
               << busy << " cycles";
          os << "</title></rect>\n";
          ++boxes;
          if (count != 1) return;
          const std::string& name = text[first.name_id];
          std::string label;
          if (w >= text_width(name) + 6) label = name;
          else if (const std::string s = xml_escape(short_label(c.name(first))); w >= text_width(s) + 6) label = s;
          else if (const std::string k = xml_escape(std::string(kind_of(c.name(first)))); w >= text_width(k) + 6) label = k;
          else if (const std::size_t n = std::size_t((w - 6) / kCharWidth); n >= 4) label = xml_escape(truncated(short_label(c.name(first)), n));
          if (!label.empty())
            os << R"(<text x=")" << int(x) + 2 << R"(" y=")" << box_y + 11 << R"(" fill=")" << (dark(kind.fill) ? "#ffffff" : "#000000")
               << R"(">)" << label << "</text>\n";
        };
        const TimelineEntry *first = nullptr, *last = nullptr, *longest = nullptr;
        std::size_t count = 0;
        std::uint64_t busy = 0;
        for (std::uint32_t i : g.rep.on_pipe[pipe]) {
          const TimelineEntry& e = c.timeline[i];
          if (e.start >= pn.t1) break;
          if (e.end == e.start || e.end <= pn.t0) continue;
          const std::uint64_t cycles = std::min(e.end, pn.t1) - std::max(e.start, pn.t0);
          // Merge a box under a pixel wide into a run under kMergePx wide that it touches within a pixel.
          if (first && pn.x(e.start) - pn.x(last->end) < 1.0 && pn.x(last->end) - pn.x(first->start) < kMergePx &&
              pn.x(e.end) - pn.x(e.start) < 1.0) {
            last = &e;
            if (e.end - e.start > longest->end - longest->start) longest = &e;
            ++count;
            busy += cycles;
            continue;
          }
          if (first) box(*first, *last, *longest, count, busy);
          first = last = longest = &e;
          count = 1;
          busy = cycles;
        }
        if (first) box(*first, *last, *longest, count, busy);
        // Ticks: zero-cycle instructions in the top strip, those within kMergePx of the first merged.
        auto tick = [&](const TimelineEntry& f, const TimelineEntry& l, std::size_t n) {
          os.room(kRecord + 2 * text[f.name_id].size()) << R"(<rect x=")";
          os.fixed(pn.x(f.start) - 0.75, 2) << R"(" y=")" << y << R"(" width="1.5" height=")" << kStrip + 3 << R"(" fill=")"
                                            << kinds[g.kind[f.name_id]].fill << R"("><title>)";
          if (n == 1)
            os << '#' << f.seq << ' ' << text[f.name_id] << " at cycle " << f.start << "; idle before: " << f.stall_cycles << " cycles ("
               << stall_name(f.stall) << ')';
          else
            os << n << " instructions, #" << f.seq << " to #" << l.seq << " [" << f.start << ", " << l.end << ')';
          os << "</title></rect>\n";
          ++ticks;
        };
        first = last = nullptr;
        count = 0;
        for (std::uint32_t i : g.rep.on_pipe[pipe]) {
          const TimelineEntry& e = c.timeline[i];
          if (e.start > pn.t1) break;
          if (e.end != e.start || e.start < pn.t0) continue;
          if (first && pn.x(e.start) - pn.x(first->start) < kMergePx) {
            last = &e;
            ++count;
            continue;
          }
          if (first) tick(*first, *last, count);
          first = last = &e;
          count = 1;
        }
        if (first) tick(*first, *last, count);
        y += kLane;
      }
      // Arrows: from the end of what was waited for to where the waiter was released, lane centre to
      // lane centre (an arc above the lane when both are on one).
      group_top[gi] = lanes_top;
      for (const Arrow& a : pn.arrows[gi]) {
        if (a.from_group >= 0) continue;  // drawn once every group has its place
        const double x1 = pn.x(a.tail), x2 = pn.x(a.head);
        const int y1 = lanes_top + a.from_lane * kLane + kLane / 2, y2 = lanes_top + a.to_lane * kLane + kLane / 2;
        os.room(kRecord) << R"(<path d="M)";
        os.fixed(x1, 1) << ',' << y1;
        if (y1 == y2) {
          os << 'Q';
          os.fixed((x1 + x2) / 2, 1) << ',' << y1 - 14 << ' ';
        } else {
          os << 'L';
        }
        os.fixed(x2, 1) << ',' << y2 << R"(" fill="none" stroke=")" << (a.flag ? kFlagArrow : kEventArrow)
                        << R"(" stroke-width="1" stroke-opacity="0.8" marker-end="url(#)" << (a.flag ? "af" : "ae") << ")\"/>\n";
      }
      y += kGroupGap;
    }
    // Cross-core arrows: from the set's lane in its core's group to the wait's lane in this one.
    for (std::size_t gi = 0; gi < groups.size(); ++gi)
      for (const Arrow& a : pn.arrows[gi]) {
        if (a.from_group < 0) continue;
        const int y1 = group_top[std::size_t(a.from_group)] + a.from_lane * kLane + kLane / 2;
        const int y2 = group_top[gi] + a.to_lane * kLane + kLane / 2;
        os.room(kRecord) << R"(<path d="M)";
        os.fixed(pn.x(a.tail), 1) << ',' << y1 << 'L';
        os.fixed(pn.x(a.head), 1) << ',' << y2 << R"(" fill="none" stroke=")" << kCrossArrow
                                  << R"x(" stroke-width="1" stroke-opacity="0.8" marker-end="url(#ax)"/>)x" << '\n';
      }
    os.room(kRecord) << "</g>\n";
  }

  // Notes: what the picture merged, folded and capped.
  notes.back() = "Boxes narrower than a pixel merge with their neighbours into runs up to 2 px wide (the colour of the longest, as opaque as they keep the pipe busy): " +
                 std::to_string(boxes) + " boxes and " + std::to_string(ticks) + " ticks drawn for " +
                 std::to_string(r.instructions()) + " instructions. Hover a box for its operands, idle time and intrinsics.";
  y += 4;
  for (const std::string& n : notes)
    for (const std::string& line : wrap(n)) {
      os.room(kRecord + 6 * line.size()) << R"(<text x="4" y=")" << y + 11 << R"(" font-size="10" fill="#333" xml:space="preserve">)"
                                         << xml_escape(line) << "</text>\n";
      y += kNote;
    }
  os.room(kRecord) << "</svg>\n";
  os.close();
}

}  // namespace pto
