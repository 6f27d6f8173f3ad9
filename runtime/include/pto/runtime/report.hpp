// What a launch reports. Modeled figures (cycles on the emulated target) are deterministic; host
// wall-clock time is reported separately and never mixed in.
#pragma once
#include <array>
#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include <pto/isa/enums.hpp>
#include <pto/isa/pipes.hpp>
#include <pto/runtime/observer.hpp>
#include <pto/runtime/sync_check.hpp>

namespace pto {



struct FlagIdle {
  int src = 0, dst = 0, id = 0;  // the flag (src pipe, dst pipe, EVENT_ID)
  std::uint64_t cycles = 0;
};

// Idle cycles spent waiting for one other core (Stall::Cores): in all, and the longest single wait with
// the instruction of that core whose signal ended it ("AIV1's TPOP #812").
struct CoreIdle {
  int core = 0;                    // index in LaunchReport::cores
  std::uint64_t cycles = 0;
  std::uint64_t longest = 0, longest_seq = 0;
  const char* longest_name = nullptr;
};

struct PipeStats {
  std::uint64_t busy_cycles = 0;   // modeled cycles the pipe spent executing instructions
  std::uint64_t instructions = 0;  // instructions (sync included) the pipe retired
  std::uint64_t bytes = 0;         // bytes its transfers moved (the DMA pipes: MTE2, MTE3, MTE1, FIX)
  std::uint64_t gm_bytes = 0;      // ... of them read from or written to GM
  // Idle cycles by cause (index: Stall); busy_cycles + the idle cycles = the core's cycles.
  std::array<std::uint64_t, kNumStalls> idle{};
  std::vector<FlagIdle> flags;     // the Flag idle split by flag, largest first
  std::vector<CoreIdle> cores;     // the Cores idle split by the core that ended the waits, largest first
  std::uint64_t event_from = 0;    // the instruction whose event cost this pipe the longest single wait
  const char* event_from_name = nullptr;  // ... its name ("TLOAD"), when known
  std::uint64_t event_cycles = 0;  // ... and that wait's cycles
  std::uint64_t idle_cycles() const {
    std::uint64_t n = 0;
    for (std::uint64_t c : idle) n += c;
    return n;
  }
};

// One instruction as it ran in the model (LaunchConfig::timeline). Compact (about 64 bytes): its
// texts and the instructions it waited for live once in its CoreReport (name(), operands(), after()).
struct TimelineEntry {
  std::uint8_t pipe = 0;             // pipe_t value
  Stall stall = Stall::QueueEmpty;   // the main reason its pipe was idle just before it started
  std::uint64_t seq = 0;             // the core's issue number (1-based)
  std::uint64_t issue = 0;           // modeled cycle the scalar pipe issued it
  std::uint64_t start = 0, end = 0;  // modeled cycles
  std::uint64_t stall_cycles = 0;    // how long its pipe was idle just before it started
  std::uint32_t name_id = 0, operands_id = 0;      // into CoreReport::strings
  std::uint32_t intrinsics_id = ~0u;               // into CoreReport::strings; ~0u: not a vector instruction
  std::uint32_t after_begin = 0, after_count = 0;  // into CoreReport::edges
};

// A device code path wrote outside dst's valid region but inside the tile (the chip does the same): not
// an error, but bytes a kernel might rely on are changed. Identical messages are counted once.
struct DeviceWarning {
  std::uint64_t seq = 0;    // the first instruction (issue number) it was raised for
  std::uint64_t count = 0;  // instructions that raised this message
  std::string message;      // names the instruction, the shape and the bytes
};

struct CoreReport {
  int block = 0;                   // get_block_idx() (the cluster, in a cluster launch)
  int core = 0;                    // index in LaunchReport::cores
  CoreKind kind = CoreKind::Any;   // a cluster's AIC (Cube) or AIV (Vector); Any in other launches
  int subblock = 0;                // get_subblockid(): 0 / 1 on a cluster's AIV0 / AIV1
  std::string label() const;       // "core 3", "cluster 1 AIC", "cluster 1 AIV0"
  std::uint64_t cycles = 0;        // modeled makespan of this core (kernel start to last retirement)
  // The modeled cycle the chip would start this core's block: 0, or later when the launch has more blocks
  // than the chip has cores (CostTable::cube_cores / vector_cores) and it waited for a free one. Its
  // timeline and cycles count from there.
  std::uint64_t dispatched = 0;
  std::uint64_t instructions = 0;  // everything the scalar pipe issued
  std::array<PipeStats, kNumPipeIds> pipes{};
  std::vector<TimelineEntry> timeline;  // in retirement order; empty unless LaunchConfig::timeline
  std::vector<std::string> strings;     // the timeline's distinct texts
  std::vector<std::uint64_t> edges;     // the timeline's wait edges
  // The timeline's waits another core ended: the wait (seq here), and the core (index in
  // LaunchReport::cores) and instruction whose signal ended it (a cross-core flag's set, the last
  // arrival at SYNCALL). The Chrome trace and the SVG draw them as arrows between the cores.
  struct CrossEdge {
    std::uint64_t seq = 0;
    int from_core = 0;
    std::uint64_t from_seq = 0;
  };
  std::vector<CrossEdge> cross_edges;
  std::vector<SyncFinding> sync;        // the synchronisation checker's findings (LaunchConfig::check)
  std::uint64_t sync_suppressed = 0;    // findings beyond the first 64 of this core, counted only
  std::vector<DeviceWarning> warnings;  // device code paths' writes past the valid region (64 distinct at most)

  // "TLOAD", "wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0)", ...
  const std::string& name(const TimelineEntry& e) const { return strings[e.name_id]; }
  // The operands, for a reader of the trace ("dst Tile<Vec,float,64,64> valid 64x64 @UB+0x0; src ...").
  const std::string& operands(const TimelineEntry& e) const { return strings[e.operands_id]; }
  // A vector instruction's intrinsic stream, as the target's algorithm issued it for these operands
  // (pto::describe: "vadd norm 64 repeats, strides blk 1 1 0 rep 8 8 0"); "" for other instructions.
  const std::string& intrinsics(const TimelineEntry& e) const {
    static const std::string none;
    return e.intrinsics_id == ~0u ? none : strings[e.intrinsics_id];
  }
  // Instructions whose end it waited for (its events, the set_flag of its token).
  std::span<const std::uint64_t> after(const TimelineEntry& e) const { return {edges.data() + e.after_begin, e.after_count}; }

  // The same instructions with every cross-pipe overlap removed: the sum of all pipes' busy cycles.
  std::uint64_t serialised_cycles() const;
  // Sum of busy time over all pipes / makespan: 1.0 is fully serial, 2.0 means two pipes always busy.
  double overlap() const { return cycles ? double(serialised_cycles()) / double(cycles) : 0.0; }
  // The chain that sets the makespan (needs the timeline): from the last instruction to end back to
  // the first, each step the predecessor whose end is exactly this one's start - an event or flag it
  // waited for, else the instruction before it on its pipe. The chain stops where the scalar pipe's
  // issue bound the start. Sequence numbers, first instruction first.
  std::vector<std::uint64_t> critical_path() const;
};

struct LaunchReport {
  Target target = Target::A2A3;
  Mode mode = Mode::Manual;
  Policy policy = Policy::Deterministic;
  double clock_ghz = 1.0;
  std::vector<CoreReport> cores;
  std::uint64_t cycles = 0;  // modeled makespan of the launch (the latest core's dispatched + cycles)
  int chip_cores = 0;        // the cores the blocks ran on (cube or vector cores; 0: no limit)
  int waves = 1;             // blocks run one after another on the busiest core
  double host_seconds = 0;   // host wall-clock of the whole launch
  bool timeline = false;     // the launch recorded a timeline (LaunchConfig::timeline)
  double hbm_gb_per_s = 0;   // the cost table's HBM figure (the summary warns past it)
  // The memory system (CostTable::memory_system): GM bytes the launch's transfers read and wrote, the
  // read bytes L2 served, the bytes that went to HBM, and the transfers that shared HBM with others.
  struct Memory {
    bool on = false;
    std::uint64_t read_bytes = 0, written_bytes = 0, l2_hit_bytes = 0, hbm_bytes = 0;
    std::uint64_t transfers = 0, shared_transfers = 0;
    double l2_hit_rate() const { return read_bytes ? double(l2_hit_bytes) / double(read_bytes) : 0.0; }
  } memory;

  double microseconds() const { return double(cycles) / (clock_ghz * 1000.0); }
  // Of the slowest core (the one that sets the launch's makespan).
  std::uint64_t serialised_cycles() const;
  double overlap() const;  // of the slowest core: its serialised cycles over its own cycles
  std::uint64_t instructions() const;
  std::vector<SyncFinding> findings() const;  // every core's, in core order
  std::vector<DeviceWarning> warnings() const;  // every core's, in core order
  std::string summary() const;  // the text a person reads
};

std::ostream& operator<<(std::ostream&, const LaunchReport&);

// "0-15", "0-9998 step 2", "1, 4, 6-9": ascending block indexes as runs of one step (six runs, then
// "..."), as the summary and the SVG timeline label groups of cores.
std::string block_ranges(const std::vector<int>& blocks);
// A group of r.cores (ascending indexes) by name: "core 3", "cores 0-7"; in a cluster launch "cluster 1
// AIC", "AIC of clusters 0-3", "AIVs of clusters 0-3 (8 cores)".
std::string cores_label(const LaunchReport& r, const std::vector<std::size_t>& cores);

}  // namespace pto
