// The cost tables of the pipeline model: one per target profile, plain data a user can read, copy
// and change for a what-if run (LaunchConfig::costs). Every default figure and where it comes from is
// listed in docs/pipeline-model.md ("Cost tables").
//
// A vector instruction's cycles follow from the intrinsic stream its target's algorithm issues for
// the operands' shapes and dtype (pto/isa/intrinsics.hpp): the device code path's algorithm records it
// (a run that computes nothing); a planner derives it for the few forms no device algorithm covers.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <pto/isa/buffers.hpp>
#include <pto/isa/enums.hpp>
#include <pto/isa/intrinsics.hpp>

namespace pto {

// A2/A3 (repeat machine): cycles = head (when the pipe starts a run of intrinsics) + per_repeat x repeats
// + tail (when a barrier or the end of the instruction drains the pipe).
// A5 (register machine): head = result latency, per_repeat = cycles between issues (inverse throughput,
// fractional where a profiling fit says so), tail unused.
struct IntrinsicCost {
  std::uint32_t head = 0;
  double per_repeat = 0;
  std::uint32_t tail = 0;
};

// A transfer of B bytes costs setup_cycles + B / bytes_per_cycle (a fixed-plus-bandwidth line is the
// reference's saturating "Hill" fit rewritten: B / (peak * B / (K + B)) = K / peak + B / peak).
// bytes_per_cycle 0: the target has no such path (an instruction moving bytes along it is an error).
struct DmaCost {
  double setup_cycles = 0;
  double bytes_per_cycle = 0;
};

struct CostTable {
  const char* name = "";
  double clock_ghz = 1.85;
  // The chip's cores: a launch's blocks beyond them wait for a free one (waves). 910B2 has 24 AI cores,
  // each 1 cube core (AIC) + 2 vector cores (AIV): pto-isa's flash attention README rates the chip at
  // 24 x 1.8 GHz x 8192 flop / cycle. A5's count is not published: assumed the same. 0: no limit.
  int cube_cores = 24;
  int vector_cores = 48;
  // Transfers by (source, destination) memory: GM and the core's buffers (pto/isa/buffers.hpp). The
  // DMA instructions (TLOAD, TSTORE, and the cube's moves) are priced by the path their operands name;
  // a vector copy inside UB (copy_ubuf_to_ubuf) by UB -> UB.
  std::array<std::array<DmaCost, kNumMemories>, kNumMemories> transfers{};
  DmaCost& transfer(Memory src, Memory dst) { return transfers[std::size_t(src)][std::size_t(dst)]; }
  const DmaCost& transfer(Memory src, Memory dst) const { return transfers[std::size_t(src)][std::size_t(dst)]; }
  // Aggregate GM bandwidth all cores of a launch share; 0 = unlimited. A launch of N cores gives each
  // core's transfers at most gm_aggregate_bytes_per_cycle / N (exact when every core streams at once,
  // the SPMD case; pessimistic for cores that move data at different times).
  double gm_aggregate_bytes_per_cycle = 0;
  // The chip's HBM bandwidth in GB/s (10^9 bytes). Assumed, see docs/pipeline-model.md. With the memory
  // system off the report only warns when a launch's cores together move GM faster than this.
  double hbm_gb_per_s = 1600;
  // The memory system (docs/pipeline-model.md, "The memory system"): every GM transfer goes through an
  // L2 of l2_bytes in l2_line_bytes lines (LRU, write-allocate); the bytes it misses (and every byte
  // written) share hbm_gb_per_s in time with the other cores' transfers in flight when it starts:
  // min(its line, HBM / k). Off: each core has its own DMA line to GM (and gm_aggregate_bytes_per_cycle's
  // static share, if set). l2_bytes 0: no L2. A launch whose cores cannot ask HBM for more than it
  // gives (cores x (fastest GM read line + every GM write line) <= HBM) skips it: the figures are the same.
  bool memory_system = true;
  std::uint64_t l2_bytes = std::uint64_t(192) << 20;
  std::uint32_t l2_line_bytes = 512;
  std::uint32_t scalar_issue_cycles = 1;  // paid by PIPE_S for every instruction it issues
  // One scalar load or store of GM (A2A3's MGATHER / MSCATTER element walk). Assumed: no published figure.
  std::uint32_t scalar_gm_cycles = 32;
  // A5's SIMT lanes reading or writing GM one element each: every element moves a sector of this many
  // bytes (row-mode lanes coalesce into bursts and move only the row's bytes). Assumed.
  std::uint32_t simt_sector_bytes = 32;
  VectorMachine machine = VectorMachine::Repeat;
  std::array<IntrinsicCost, kNumIntrinsics> intrinsic{};
  std::uint32_t count_mode_cycles = 0;  // Repeat: once per instruction that switches to counter mode
  std::uint32_t vf_startup = 0, vf_drain = 0;  // Register: per vector-function region (one instruction)
  std::uint32_t load_ports = 1, store_ports = 1;
  // SYNCALL: cycles from the last core's arrival (its pipes drained) to every core's release. Default 2:
  // pto-isa's reference cost model prices the two intrinsics of the hardware barrier, ffts_cross_core_sync
  // and wait_flag_dev, at 1 cycle each; the chip's real FFTS round trip is not published (assumed).
  std::uint32_t syncall_cycles = 2;
  // Cross-core flags (ffts_cross_core_sync / set_intra_block, queued on the pipe they name; wait_flag_dev
  // / wait_intra_block on the scalar pipe). pto-isa's reference cost model prices each intrinsic at 1
  // cycle: the scalar pipe's issue cycle, which every instruction pays. Beyond it, the set's time on its
  // pipe and its delivery to the other core are not published (assumed 0; set them in a what-if table).
  std::uint32_t cross_set_cycles = 0;
  std::uint32_t cross_delivery_cycles = 0;
  // The cube's mad (TMATMUL, TGEMV and their forms): mad_setup_cycles + ceil(m / 16) * ceil(k * sizeof(input)
  // / 32) * ceil(n / 16) * mad_cycles_per_block[i], one block being a 16 x 32-byte x 16 step; i = 0, 1, 2 for
  // 1-, 2- and 4-byte inputs (float runs at half rate).
  double mad_setup_cycles = 0;
  std::array<double, 3> mad_cycles_per_block{};

  const IntrinsicCost& operator[](Intrinsic i) const { return intrinsic[std::size_t(i)]; }
  IntrinsicCost& operator[](Intrinsic i) { return intrinsic[std::size_t(i)]; }
};

// The built-in table of a target profile.
const CostTable& default_cost_table(Target target);

// A stream as text, one call after another ("vadd norm 64 repeats, strides blk 1 1 0 rep 8 8 1; | vexp
// ..."; "|" marks a pipe_barrier(PIPE_V) inside the instruction). A2/A3 calls show mask mode, repeats,
// the last repeat's active lanes when partial and the block / repeat strides; A5 streams show how often
// each intrinsic issued over the vector-function loop.
std::string describe(const IntrinsicStream& s, VectorMachine machine);

}  // namespace pto
