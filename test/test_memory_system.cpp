// The memory system (CostTable::memory_system): GM transfers share HBM in time behind an L2. The
// sharing rule's two cases against durations computed here from the cost table, L2 hits of a reread
// panel against a stream, determinism across policies, host threads and kernel styles, and the exact
// old figures when HBM is plentiful and there is no L2.
#define BOOST_TEST_MODULE memory_system
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <span>
#include <cstdint>
#include <string>
#include <vector>

#include <pto/pto-inst.hpp>

#include "test_util.hpp"

using namespace pto;

namespace {

constexpr int R = 64, C = 128, E = R * C;  // one transfer: 64 x 128 floats = 32 KiB
using TileF = Tile<TileType::Vec, float, R, C>;
using GmF = GlobalTensor<float, Shape<1, 1, 1, R, C>, pto::Stride<1, 1, 1, C, 1>>;

// Four phases separated by SYNCALL; with `apart`, core p loads its slice only in phase p (the cores
// stream at disjoint times), else every core loads in phase 0 (together).
Kernel phased(__gm__ float* in, int apart) {
  const int me = int(get_block_idx());
  TileF t;
  TASSIGN(t, 0x0);
  GmF src(in + std::size_t(me) * E);
  for (int p = 0; p < 4; ++p) {
    if (apart ? p == me : p == 0) co_await TLOAD(t, src);
    co_await SYNCALL();
  }
}

// `reads` loads of one slice per core: `shared` = every core reads slice 0 (a panel all cores reread),
// else core c its own slices (a stream: nothing read twice). Double-buffered, stores the last tile.
Kernel reread(__gm__ float* in, __gm__ float* out, int reads, int shared) {
  const int me = int(get_block_idx());
  TileF t[2];
  TASSIGN(t[0], 0x0);
  TASSIGN(t[1], E * 4);
  RecordEvent loaded[2];
  for (int k = 0; k < reads; ++k) {
    GmF src(in + (shared ? 0 : std::size_t(me * reads + k) * E));
    loaded[k % 2] = co_await TLOAD(t[k % 2], src);
  }
  GmF dst(out + std::size_t(me) * E);
  co_await TSTORE(dst, t[(reads - 1) % 2], loaded[(reads - 1) % 2]);
}

void reread_plain(__gm__ float* in, __gm__ float* out, int reads, int shared) {
  const int me = int(get_block_idx());
  TileF t[2];
  TASSIGN(t[0], 0x0);
  TASSIGN(t[1], E * 4);
  RecordEvent loaded[2];
  for (int k = 0; k < reads; ++k) {
    GmF src(in + (shared ? 0 : std::size_t(me * reads + k) * E));
    loaded[k % 2] = TLOAD(t[k % 2], src);
  }
  GmF dst(out + std::size_t(me) * E);
  TSTORE(dst, t[(reads - 1) % 2], loaded[(reads - 1) % 2]);
}

// A2/A3 with the memory system on, HBM at `hbm_lines` times one core's GM -> UB line, L2 of `l2` bytes.
CostTable table(double hbm_lines, std::uint64_t l2) {
  CostTable t = default_cost_table(Target::A2A3);
  t.memory_system = true;
  t.hbm_gb_per_s = hbm_lines * t.transfer(Memory::GM, Memory::UB).bytes_per_cycle * t.clock_ghz;
  t.l2_bytes = l2;
  return t;
}

// The TLOADs of a core in its timeline: (start, end).
std::vector<std::pair<std::uint64_t, std::uint64_t>> loads(const CoreReport& c) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> v;
  for (const TimelineEntry& e : c.timeline)
    if (c.name(e) == "TLOAD") v.emplace_back(e.start, e.end);
  return v;
}

// GM on 512-byte boundaries: a slice starts on an L2 line, so neighbouring slices share none.
struct Aligned {
  std::size_t n;
  float* p;
  Aligned(std::size_t count, float v) : n(count), p(static_cast<float*>(std::aligned_alloc(512, count * 4))) {
    std::fill(p, p + n, v);
  }
  ~Aligned() { std::free(p); }
  Aligned(const Aligned&) = delete;
  Aligned& operator=(const Aligned&) = delete;
  std::span<float> span() { return {p, n}; }
};

}  // namespace

// HBM = 2 lines: one core alone gets its full line; four at once get a quarter of HBM each (half a line).
BOOST_AUTO_TEST_CASE(four_cores_apart_get_the_full_line_four_together_a_quarter_of_hbm) {
  const CostTable t = table(2.0, 0);
  const DmaCost& line = t.transfer(Memory::GM, Memory::UB);
  const double bytes = double(E) * 4;
  const double alone = std::ceil(line.setup_cycles + bytes / line.bytes_per_cycle - 1e-9);
  const double hbm = t.hbm_gb_per_s / t.clock_ghz;  // bytes per cycle
  const double quarter = alone + std::ceil(bytes / (hbm / 4) - bytes / line.bytes_per_cycle - 1e-9);
  BOOST_TEST(quarter > alone + 100);  // the case is not vacuous
  std::vector<float> in(4 * E, 1.0f);
  int compared = 0;
  for (int apart : {1, 0}) {
    const LaunchReport r = launch({.blocks = 4, .timeline = true, .costs = &t}, phased, in, apart);
    BOOST_TEST(r.memory.on);
    BOOST_TEST(r.memory.read_bytes == 4u * E * 4u);
    BOOST_TEST(r.memory.hbm_bytes == 4u * E * 4u);  // no L2: every byte from HBM
    BOOST_TEST(r.memory.shared_transfers == (apart ? 0u : 4u));
    for (const CoreReport& c : r.cores) {
      const auto l = loads(c);
      BOOST_TEST_REQUIRE(l.size() == 1u);
      BOOST_TEST(double(l[0].second - l[0].first) == (apart ? alone : quarter), "apart " << apart << " " << c.label());
      ++compared;
    }
  }
  BOOST_TEST(compared == 8);
}

// Transfers that overlap only in part: the later one sees the earlier in flight (k = 2) and slows down;
// the earlier one is not re-priced.
BOOST_AUTO_TEST_CASE(a_transfer_is_priced_at_its_start_from_those_in_flight) {
  const CostTable t = table(1.0, 0);  // HBM = one line: two at once get half a line each
  const DmaCost& line = t.transfer(Memory::GM, Memory::UB);
  const double bytes = double(E) * 4;
  const double alone = std::ceil(line.setup_cycles + bytes / line.bytes_per_cycle - 1e-9);
  const double half = alone + std::ceil(bytes / (line.bytes_per_cycle / 2) - bytes / line.bytes_per_cycle - 1e-9);
  std::vector<float> in(8 * E, 1.0f), out(2 * E, 0.0f);
  // Core 0 streams 4 slices back to back; core 1 the same: every transfer of both starts with the other's in flight.
  const LaunchReport r = launch({.blocks = 2, .timeline = true, .costs = &t}, reread, in, out, 4, 0);
  for (const CoreReport& c : r.cores) {
    const auto l = loads(c);
    BOOST_TEST_REQUIRE(l.size() == 4u);
    for (const auto& [s, e] : l) BOOST_TEST(double(e - s) == half, c.label());
  }
  // One core alone: the full line every time.
  const LaunchReport one = launch({.blocks = 1, .timeline = true, .costs = &t}, reread, in, out, 4, 0);
  for (const auto& [s, e] : loads(one.cores[0])) BOOST_TEST(double(e - s) == alone);
  BOOST_TEST(one.memory.shared_transfers == 0u);
}

// A panel every core rereads hits L2 after its first read; a stream never does; an L2 smaller than the
// reread data holds none of it by the time it comes round again (LRU).
BOOST_AUTO_TEST_CASE(a_reread_panel_hits_l2_and_a_stream_misses) {
  const int cores = 4, reads = 4;
  Aligned in_buf(std::size_t(cores * reads) * E, 2.0f), out_buf(std::size_t(cores) * E, 0.0f);
  const std::span<float> in = in_buf.span(), out = out_buf.span();
  const std::uint64_t slice = E * 4, total = std::uint64_t(cores) * reads * slice;
  const CostTable big = table(2.0, std::uint64_t(8) << 20);
  const LaunchReport panel = launch({.blocks = cores, .costs = &big}, reread, in, out, reads, 1);
  BOOST_TEST(panel.memory.read_bytes == total);
  BOOST_TEST(panel.memory.l2_hit_bytes == total - slice);  // the first read of the panel misses, nothing else
  BOOST_TEST(panel.memory.written_bytes == std::uint64_t(cores) * slice);
  BOOST_TEST(panel.memory.hbm_bytes == slice + std::uint64_t(cores) * slice);  // the miss and the stores
  BOOST_TEST(panel.memory.l2_hit_rate() == double(total - slice) / double(total));
  const LaunchReport stream = launch({.blocks = cores, .costs = &big}, reread, in, out, reads, 0);
  BOOST_TEST(stream.memory.l2_hit_bytes == 0u);
  BOOST_TEST(stream.memory.hbm_bytes == total + std::uint64_t(cores) * slice);
  BOOST_TEST(stream.cycles > panel.cycles);  // HBM shared by every read of the stream
  BOOST_TEST(out[0] == 2.0f);
  // One core rereading its panel: with L2 larger than it, every read after the first hits; with L2 of
  // half of it, LRU has evicted each line before the next read comes round to it.
  const LaunchReport fits = launch({.blocks = 1, .costs = &big}, reread, in, out, reads, 1);
  BOOST_TEST(fits.memory.l2_hit_bytes == (reads - 1) * slice);
  const CostTable tiny = table(2.0, slice / 2);
  const LaunchReport thrash = launch({.blocks = 1, .costs = &tiny}, reread, in, out, reads, 1);
  BOOST_TEST(thrash.memory.l2_hit_bytes == 0u);
  const std::string s = panel.summary();
  BOOST_TEST(s.find("memory: L2 served 93.8% of 524288 B read") != std::string::npos, s);
}

// The figures do not depend on the policy, the host threads or the kernel's style.
BOOST_AUTO_TEST_CASE(figures_are_the_same_for_every_policy_host_threads_and_kernel_style) {
  const CostTable t = table(3.0, std::uint64_t(1) << 20);
  const int cores = 8, reads = 6;
  std::vector<float> in(std::size_t(cores * reads) * E, 1.0f), out(std::size_t(cores) * E, 0.0f);
  std::vector<std::uint64_t> first;
  int runs = 0;
  for (bool plain : {false, true})
    for (Policy p : {Policy::Deterministic, Policy::Concurrent})
      for (int threads : {1, 2, 3})
        for (int shared : {0, 1}) {
          const LaunchConfig cfg{.blocks = cores, .policy = p, .host_threads = threads, .costs = &t};
          const LaunchReport r = plain ? launch(cfg, reread_plain, in, out, reads, shared) : launch(cfg, reread, in, out, reads, shared);
          std::vector<std::uint64_t> figures{r.cycles, r.memory.l2_hit_bytes, r.memory.shared_transfers};
          for (const CoreReport& c : r.cores) figures.push_back(c.cycles);
          if (runs < 2) first.insert(first.end(), figures.begin(), figures.end());
          else BOOST_TEST(std::vector<std::uint64_t>(first.begin() + std::ptrdiff_t(shared * figures.size()),
                                                     first.begin() + std::ptrdiff_t((shared + 1) * figures.size())) == figures,
                          boost::test_tools::per_element());
          ++runs;
        }
  BOOST_TEST(runs == 24);
}

// Where HBM is never the limit and there is no L2, the memory system changes no figure: neither when the
// launch runs it (its cores could ask for more than HBM gives, but this kernel never does) nor when the
// launch skips it (they never could).
BOOST_AUTO_TEST_CASE(hbm_that_never_binds_keeps_every_figure) {
  const int cores = 6, reads = 5;
  CostTable off = default_cost_table(Target::A2A3), near = off, plenty = off;
  off.memory_system = false;
  double read = 0, write = 0;
  for (int m = 1; m < kNumMemories; ++m) {
    read = std::max(read, off.transfer(Memory::GM, Memory(m)).bytes_per_cycle);
    write += off.transfer(Memory(m), Memory::GM).bytes_per_cycle;
  }
  // 90% of what 6 cores could ask for at once: the memory system runs; this kernel has at most 12
  // transfers in flight, so each gets HBM / 12 = 0.45 x (read + write) lines, more than its own line.
  near.hbm_gb_per_s = 0.9 * cores * (read + write) * off.clock_ghz;
  near.l2_bytes = 0;
  plenty.hbm_gb_per_s = 1.01 * cores * (read + write) * off.clock_ghz;
  std::vector<float> in(std::size_t(cores * reads) * E, 1.0f), out(std::size_t(cores) * E, 0.0f);
  const LaunchReport a = launch({.blocks = cores, .timeline = true, .costs = &off}, reread, in, out, reads, 0);
  const LaunchReport b = launch({.blocks = cores, .timeline = true, .costs = &near}, reread, in, out, reads, 0);
  const LaunchReport c = launch({.blocks = cores, .timeline = true, .costs = &plenty}, reread, in, out, reads, 0);
  BOOST_TEST(!a.memory.on);
  BOOST_TEST(b.memory.on);
  BOOST_TEST(!c.memory.on);  // skipped: 6 cores can never exceed it
  BOOST_TEST(b.memory.shared_transfers == 0u);
  BOOST_TEST(a.cycles == b.cycles);
  BOOST_TEST(a.cycles == c.cycles);
  for (int k = 0; k < cores; ++k) {
    BOOST_TEST(loads(a.cores[std::size_t(k)]) == loads(b.cores[std::size_t(k)]));
    BOOST_TEST(loads(a.cores[std::size_t(k)]) == loads(c.cores[std::size_t(k)]));
  }
}

BOOST_AUTO_TEST_CASE(a_memory_system_without_hbm_is_an_error) {
  CostTable t = table(1.0, 0);
  t.hbm_gb_per_s = 0;
  std::vector<float> in(E, 1.0f), out(E, 0.0f);
  const std::string e = pto_test::error_text([&] { launch({.blocks = 1, .costs = &t}, reread, in, out, 1, 0); });
  BOOST_TEST(e.find("the memory system needs hbm_gb_per_s > 0 (found 0)") != std::string::npos, e);
}
