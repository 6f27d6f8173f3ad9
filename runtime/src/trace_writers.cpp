// The Chrome trace and SVG writers. Both stream through one buffered writer with std::to_chars
// (a million-instruction timeline is written in well under a second); texts are escaped once per
// distinct string, not once per instruction.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
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

void write_chrome_trace(const LaunchReport& r, const std::string& path) {
  Writer os(r, path, "write_chrome_trace");
  const double ps_per_cycle = 1000.0 / r.clock_ghz;
  auto ps = [&](std::uint64_t cycles) { return std::llround(double(cycles) * ps_per_cycle); };
  constexpr std::size_t kRecord = 512;  // fixed text and numbers of any one record
  os.room(kRecord) << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  std::string_view sep;
  std::uint64_t flow = 0;
  for (const CoreReport& c : r.cores) {
    os.room(kRecord) << sep << R"({"ph":"M","name":"process_name","pid":)" << c.block << R"(,"args":{"name":"core )" << c.block << "\"}}";
    sep = ",\n";
    for (int p : kLaneOrder)
      os.room(kRecord) << sep << R"({"ph":"M","name":"thread_name","pid":)" << c.block << R"(,"tid":)" << p << R"(,"args":{"name":")"
         << pipe_name(p) << "\"}}";
    const std::vector<std::string> text = escaped(c.strings, json_escape);
    std::vector<const TimelineEntry*> by_seq;
    for (const TimelineEntry& e : c.timeline) {
      if (e.seq >= by_seq.size()) by_seq.resize(e.seq + 1, nullptr);
      by_seq[e.seq] = &e;
    }
    for (const TimelineEntry& e : c.timeline) {
      static const std::string none;
      const std::string& intrinsics = e.intrinsics_id == ~0u ? none : text[e.intrinsics_id];
      os.room(kRecord + text[e.name_id].size() + text[e.operands_id].size() + intrinsics.size());
      os << sep << R"({"ph":"X","name":")" << text[e.name_id] << R"(","pid":)" << c.block << R"(,"tid":)" << int(e.pipe)
         << R"(,"ts":)";
      os.micros(ps(e.start)) << R"(,"dur":)";
      os.micros(ps(e.end) - ps(e.start))
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
        os.room(kRecord) << sep << R"({"ph":"s","name":"dep","cat":"dep","id":)" << flow << R"(,"pid":)" << c.block << R"(,"tid":)"
           << int(src.pipe) << R"(,"ts":)";
        os.micros(ps(src.end) - 1) << R"(,"args":{"seq":)" << src.seq << "}}";
        os << sep << R"({"ph":"f","bp":"e","name":"dep","cat":"dep","id":)" << flow << R"(,"pid":)" << c.block
           << R"(,"tid":)" << int(e.pipe) << R"(,"ts":)";
        os.micros(e.pipe == PIPE_S ? std::max(ps(e.start), ps(e.end) - 1) : ps(e.start)) << R"(,"args":{"seq":)" << e.seq << "}}";
      }
    }
  }
  os.room(kRecord) << "\n]}\n";
  os.close();
}

// Boxes narrower than a pixel merge with their sub-pixel neighbours into one "N instructions" box, so a
// million-instruction lane stays a few thousand elements and the file stays readable.
void write_svg_timeline(const LaunchReport& r, const std::string& path) {
  Writer os(r, path, "write_svg_timeline");
  constexpr int kLeft = 120, kWidth = 1200, kLane = 22, kGap = 14;
  const double scale = r.cycles ? double(kWidth) / double(r.cycles) : 1.0;
  // Lanes: the pipes each core used.
  std::vector<std::pair<const CoreReport*, int>> lanes;
  for (const CoreReport& c : r.cores)
    for (int p : kLaneOrder)
      if (std::any_of(c.timeline.begin(), c.timeline.end(), [p](const TimelineEntry& e) { return e.pipe == p; }))
        lanes.emplace_back(&c, p);
  const int height = int(lanes.size()) * kLane + int(r.cores.size()) * kGap + 60;
  constexpr std::size_t kRecord = 512;
  os.room(kRecord) << R"(<svg xmlns="http://www.w3.org/2000/svg" width=")" << kLeft + kWidth + 20 << R"(" height=")" << height
     << R"(" font-family="monospace" font-size="11">)" << '\n';
  os << R"(<text x="4" y="16">modeled cycles on )" << name_of(r.target) << ": " << r.cycles << " cycles, overlap ";
  os.fixed(r.overlap(), 2) << "x</text>\n";
  const char* colour[kNumPipeIds] = {"#999999", "#4e79a7", "#b07aa1", "#59a14f", "#e15759", "#edc948", "", "#76b7b2"};
  int y = 30;
  const CoreReport* current = nullptr;
  std::vector<std::string> text;
  for (auto [core, pipe] : lanes) {
    if (core != current) {
      y += kGap;
      current = core;
      text = escaped(core->strings, xml_escape);
    }
    os.room(kRecord) << R"(<text x="4" y=")" << y + 15 << R"(">core )" << core->block << ' ' << (pipe_name(pipe) + 5) << "</text>\n";
    os << R"(<rect x=")" << kLeft << R"(" y=")" << y << R"(" width=")" << kWidth << R"(" height=")" << kLane - 2
       << R"(" fill="#f4f4f4"/>)" << '\n';
    auto box = [&](const TimelineEntry& first, const TimelineEntry& last, std::size_t count) {
      const double x = kLeft + double(first.start) * scale;
      const double w = std::max(1.0, double(last.end - first.start) * scale);
      static const std::string none;
      const std::string& intrinsics = first.intrinsics_id == ~0u ? none : text[first.intrinsics_id];
      os.room(kRecord + 2 * (text[first.name_id].size() + text[first.operands_id].size() + intrinsics.size())) << R"(<rect x=")";
      os.fixed(x, 2) << R"(" y=")" << y << R"(" width=")";
      os.fixed(w, 2) << R"(" height=")" << kLane - 2 << R"(" fill=")" << colour[pipe]
                     << R"(" stroke="#ffffff" stroke-width="0.5"><title>)";
      if (count == 1)
        os << '#' << first.seq << ' ' << text[first.name_id] << " [" << first.start << ", " << first.end << ") "
           << text[first.operands_id] << "; idle before: " << first.stall_cycles << " cycles (" << stall_name(first.stall)
           << ')' << (intrinsics.empty() ? "" : "; intrinsics: ") << intrinsics;
      else
        os << count << " instructions, #" << first.seq << " to #" << last.seq << " [" << first.start << ", " << last.end
           << ')';
      os << "</title></rect>\n";
      if (count == 1 && w > 40)
        os << R"(<text x=")" << int(x) + 2 << R"(" y=")" << y + 14 << R"(" fill="#ffffff">)"
           << std::string_view(text[first.name_id]).substr(0, std::size_t(w / 7)) << "</text>\n";
    };
    const TimelineEntry* first = nullptr;
    const TimelineEntry* last = nullptr;
    std::size_t count = 0;
    for (const TimelineEntry& e : core->timeline) {
      if (e.pipe != pipe) continue;
      // Merge while both the run and the next box are under a pixel wide and they touch within a pixel.
      if (first && double(e.start - std::min(e.start, last->end)) * scale < 1.0 &&
          double(last->end - first->start) * scale < 1.0 && double(e.end - e.start) * scale < 1.0) {
        last = &e;
        ++count;
        continue;
      }
      if (first) box(*first, *last, count);
      first = last = &e;
      count = 1;
    }
    if (first) box(*first, *last, count);
    y += kLane;
  }
  os.room(kRecord) << R"(<text x=")" << kLeft << R"(" y=")" << y + 20 << R"(">0</text><text x=")" << kLeft + kWidth - 60 << R"(" y=")"
     << y + 20 << R"(">)" << r.cycles << " cyc</text>\n</svg>\n";
  os.close();
}

}  // namespace pto
