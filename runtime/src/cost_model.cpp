#include "cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include <pto/isa/error.hpp>
#include <pto/isa/prefetch.hpp>

#include "registry.hpp"

namespace pto {
namespace detail {
namespace {
using I = Intrinsic;
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kClock = 1.85;  // GHz, both profiles (the reference has no A5 clock; assumed equal)
constexpr double per_cycle(double gib_per_s, double clock_ghz = kClock) { return gib_per_s * kGiB / (clock_ghz * 1e9); }

// Sources: docs/pipeline-model.md "Cost tables" (cost-model-reference.md §2.1-2.2 unless marked assumed).
CostTable make_a2a3() {
  CostTable t;
  t.name = "A2A3";
  t.clock_ghz = kClock;
  using M = Memory;
  // GM -> UB per DMA call (one per (d0, d1, d2) of the GM tensor: the NPU's TLoad loop) 264 cycles, then
  // 128 B/cycle: solved from pto-isa's hardware TLOAD c01 (one call of 64 KiB: 776) and c02 (8 calls of
  // 8 KiB: 2624); c03-c06 and c09 then come within 0.3% (docs/pipeline-model.md "Cost tables").
  t.transfer(M::GM, M::UB) = {264.0, 128.0};
  t.transfer(M::UB, M::GM) = {0.0, per_cycle(188.46)};  // flat table (the Hill fit's 28 GiB/s is implausible)
  // copy_ubuf_to_ubuf: 5 cycles a call, 32 B/cycle in whole 32-byte blocks: hardware TMOV 64x128 f32 (one
  // call of 32 KiB: 1029) and 15x23 of a 16x24 tile (15 calls of 3 blocks: 120), both exact.
  t.transfer(M::UB, M::UB) = {5.0, 32.0};
  // The cube's paths: the reference's flat table (no setup term; not checked against hardware yet).
  t.transfer(M::GM, M::L1) = {0.0, per_cycle(135.0)};
  t.transfer(M::L1, M::GM) = {0.0, per_cycle(32.0)};
  t.transfer(M::L0C, M::GM) = {0.0, per_cycle(70.0)};
  t.transfer(M::L0C, M::L1) = {0.0, per_cycle(128.0)};
  t.transfer(M::L1, M::L0A) = {0.0, per_cycle(441.0)};
  t.transfer(M::L1, M::L0B) = {0.0, per_cycle(220.5)};
  for (M m : {M::BT, M::FB}) t.transfer(M::L1, m) = {0.0, per_cycle(32.0)};
  // No shared-GM cap: pto-isa's gemm_performance measurements (24 cores of an A3) sustain 3.3 to 3.6 TB/s
  // of GM -> L1 loads (panels the cores share, served from L2), more than the HBM's 1.6 TB/s this table
  // assumed before; each core's DMA line is the limit there. A cap needs an L2 model (docs/cube.md).
  t.gm_aggregate_bytes_per_cycle = 0;
  // The mad: 6 cycles to start, one 16 x 32-byte x 16 block a cycle (two for float): pto-isa's cube cost
  // formula, which gives its four TMATMUL hardware cases exactly (54, 7, 262, 902 cycles).
  t.mad_setup_cycles = 6;
  t.mad_cycles_per_block = {1, 1, 2};
  t.scalar_issue_cycles = 1;
  t.machine = VectorMachine::Repeat;
  auto set = [&](std::initializer_list<I> ops, IntrinsicCost c) {
    for (I op : ops) t[op] = c;
  };
  set({I::vadd, I::vsub, I::vmax, I::vmin, I::vaddc, I::vsubc}, {10, 2, 14});
  set({I::vmul, I::vmull}, {10, 2, 15});
  set({I::vdiv}, {11, 4, 19});
  set({I::vexp, I::vexpdif}, {13, 2, 18});
  set({I::vmaxs}, {10, 1, 13});
  set({I::vadds}, {13, 1, 12});  // tail 12 (the reference table says 18): hardware TADDS f32 32x64 = 57, ref §4
  set({I::vmuls}, {11, 1, 15});
  set({I::vmins}, {14, 1, 16});
  set({I::vlrelu}, {11, 1, 15});
  // Assumed (no reference figure): the fused multiply-adds as vmul, vsubrelu as vsub, A5's vprelu / vmod /
  // vtrc (unused by A2/A3 streams) as vlrelu / vdiv / vconv.
  set({I::vmadd, I::vmaddrelu, I::vmla}, {10, 2, 15});
  set({I::vsubrelu}, {10, 2, 14});
  set({I::vprelu}, {11, 1, 15});
  set({I::vmod}, {11, 4, 19});
  set({I::vtrc}, {14, 2, 11});
  set({I::vector_dup}, {11, 1, 13});
  set({I::vbrcb}, {0, 0, 18});
  set({I::vconv, I::vcvt}, {14, 2, 11});  // tail 11 (the reference table says 18): hardware TCVT f32 <-> f16 4x64 = 33
  set({I::vabs}, {2, 1, 2});  // head + tail 4 (the table says 13 + 16): hardware TABS f32 64x64 = 68, f16 16x256 = 36
  set({I::vrelu}, {10, 1, 13});
  set({I::vnot, I::vand, I::vor}, {8, 2, 12});
  set({I::vxor}, {8, 2, 12});  // unused: A2/A3 TXOR is vor, vand, vnot, vand
  // Sorting and gathering (pto-isa's cost-model sources: vmrgsort4 measured on 910B3 as 20 + 78 per
  // repeat for the single-list form; vgather 24 per call, TGATHER f32 measuring 46.6 cycles a row with
  // its vmuls and barrier; vreducev2 the reference table's 14 + 14 per repeat + 20). vbitsort has no
  // measurement: 90 per 32-element block is fitted to the one end-to-end figure pto-isa publishes, its
  // topk kernel's README (100 float rows of 1024 per core in 324 us: about 5.6k cycles a row, 94% of it
  // vector), given our costs of the row's other instructions (docs/sort-gather.md).
  set({I::vmrgsort4}, {6, 78, 14});
  set({I::vbitsort}, {6, 90, 14});
  set({I::vgather}, {24, 2, 0});
  set({I::vgatherb}, {24, 2, 0});  // assumed: as vgather (no figure)
  set({I::vintlv, I::vdintlv, I::chistv2}, {6, 2, 0});  // unused: A5's (de)interleaves and byte histogram
  set({I::vreducev2}, {14, 14, 20});
  // Layout: scatter_vnchwconv at pto-isa's cost-model default (6 + 2 per repeat; no measurement of its
  // own), vcopy as vector_dup (assumed).
  set({I::vnchwconv}, {6, 2, 0});
  set({I::vcopy}, {11, 1, 13});
  set({I::vsqz}, {10, 2, 14});  // unused: A5's squeeze
  set({I::vci}, {10, 2, 14});   // unused: A5's index generator
  set({I::vsqrt}, {14, 2, 25});
  set({I::vrsqrt}, {10, 1, 14});
  set({I::vln}, {13, 2, 20});
  set({I::vsel}, {13, 2, 14});
  // In-register reductions: vcadd, vcgadd, vcgmax from the reference's table; vcmax / vcmin assumed as
  // vcadd (its default 6 + 2 per repeat is uncalibrated; hardware TROWMAX f32 64x64 = 480 cycles is
  // TROWSUM's 492 within 3%), vcgmin as vcgmax.
  set({I::vcadd, I::vcmax, I::vcmin}, {14, 7, 32});
  set({I::vcgadd}, {14, 1, 24});
  set({I::vcgmax, I::vcgmin}, {14, 1, 17});
  set({I::vaxpy, I::vcmp, I::vshl, I::vshr}, {6, 2, 0});  // the reference's uncalibrated default
  set({I::vlds, I::vsts}, {0, 1, 0});          // A5 intrinsics; unused by A2/A3 streams
  set({I::copy_ubuf_to_ubuf}, {0, 0, 0});      // bytes / transfer(UB, UB)
  set({I::sync_roundtrip}, {0, 13, 0});        // assumed: fitted to TROWEXPAND 64x64 = 933 cycles
  set({I::scalar_elem}, {0, 4, 0});            // assumed: load, divide, store on the scalar unit
  set({I::plt, I::vbr, I::vloop}, {0, 0, 0});  // A5 intrinsics; unused by A2/A3 streams
  t.count_mode_cycles = 16;
  return t;
}

CostTable make_a5() {
  CostTable t;
  t.name = "A5";
  t.clock_ghz = kClock;
  // Assumed: the reference has no A5 transfer model; twice the A2/A3 bandwidths, the same setup. A5's
  // MX scale buffers are fed from L1 like BT and FB. L1 -> GM is not a path on A5 (TSTORE takes no Mat).
  const CostTable a2a3 = make_a2a3();
  for (int s = 0; s < kNumMemories; ++s)
    for (int d = 0; d < kNumMemories; ++d) {
      const DmaCost& c = a2a3.transfers[std::size_t(s)][std::size_t(d)];
      t.transfers[std::size_t(s)][std::size_t(d)] = {c.setup_cycles, 2 * c.bytes_per_cycle};
    }
  t.transfer(Memory::L1, Memory::GM) = {};
  t.transfer(Memory::L0C, Memory::UB) = t.transfer(Memory::L0C, Memory::L1);  // assumed: A5's Acc -> Vec as Acc -> Mat
  // pto-isa's A5 MX GEMMs (kernels/manual/a5/matmul_mx*_performance) split the output over 32 cores, "a
  // 4 x 8 manner ... load balancing across all cores": A5 has at least 32 AI cores (1 AIC + 2 AIV each).
  t.cube_cores = 32;
  t.vector_cores = 64;
  for (Memory m : {Memory::L0A_SCALE, Memory::L0B_SCALE}) t.transfer(Memory::L1, m) = t.transfer(Memory::L1, Memory::BT);
  t.gm_aggregate_bytes_per_cycle = 0;
  // Assumed: A5's mad at A2A3's rates (pto-isa has no A5 cube figure).
  t.mad_setup_cycles = a2a3.mad_setup_cycles;
  t.mad_cycles_per_block = a2a3.mad_cycles_per_block;
  t.scalar_issue_cycles = 1;
  t.machine = VectorMachine::Register;
  auto set = [&](std::initializer_list<I> ops, IntrinsicCost c) {
    for (I op : ops) t[op] = c;
  };
  // {latency, cycles per issue}. Latencies: VfSim isa.csv where listed, else its fallback table. Cycles
  // per issue: the reference's A5 profiling fits where one exists (ref §2.6: TADD/TSUB 1.247 per 1-D
  // loop, TMUL 1.194, TEXP f32 1.967, TDIVS 1.908), else VfSim's figure.
  set({I::vadd, I::vsub, I::vmax, I::vmin, I::vaddc, I::vsubc}, {7, 1.25, 0});
  set({I::vmul, I::vmull}, {8, 1.19, 0});
  set({I::vaxpy}, {8, 2, 0});
  set({I::vadds, I::vmaxs, I::vmins}, {7, 1.25, 0});
  set({I::vmuls}, {8, 1.19, 0});
  set({I::vlrelu}, {8, 1.19, 0});  // assumed: as vmuls (no A5 fit)
  set({I::vmadd, I::vmaddrelu, I::vmla, I::vprelu}, {8, 1.19, 0});  // assumed: as vmul (no A5 fit)
  set({I::vsubrelu}, {7, 1.25, 0});                                 // assumed: as vsub
  set({I::vmod}, {17, 1.91, 0});                                    // assumed: as vdiv
  set({I::vtrc}, {10, 2, 0});                                       // assumed: as vcvt
  set({I::vexp, I::vexpdif}, {16, 1.97, 0});
  set({I::vdiv}, {17, 1.91, 0});
  // Assumed (no A5 fit): vabs, vrelu, vnot as vadd; vln as vexp. vsqrt: ref's TSQRT fit (1x64 65 cycles,
  // 1x1280 103: 2.0 per loop, the latency of vexp).
  set({I::vabs, I::vrelu, I::vnot, I::vand, I::vor, I::vxor, I::vshl, I::vshr}, {7, 1.25, 0});
  set({I::vsqrt}, {16, 2.0, 0});
  // Assumed (no A5 figure): vmrgsort4 and vbitsort at A2A3's rates per repeat, vgather2 as a load,
  // vsqz as vadd; vreducev2 is A2A3's.
  set({I::vmrgsort4}, {20, 78, 0});
  set({I::vbitsort}, {20, 90, 0});
  set({I::vgather}, {9, 2, 0});
  set({I::vgatherb}, {9, 2, 0});  // assumed: as vgather2 (no figure)
  set({I::vintlv, I::vdintlv}, {7, 1.25, 0});  // assumed: as vadd (no figure)
  set({I::chistv2}, {9, 2, 0});  // assumed: a load's latency, two issues per 256-byte count (no figure)
  set({I::vsqz}, {7, 1.25, 0});
  set({I::vreducev2}, {14, 14, 0});
  set({I::vci}, {7, 1.25, 0});  // assumed: as vadd (no A5 figure)
  set({I::vscatter}, {9, 1, 0});  // assumed: as a store (no A5 figure; unused: vnchwconv and vcopy are A2A3's)
  set({I::vnchwconv, I::vcopy}, {9, 1, 0});
  set({I::vln}, {16, 1.97, 0});
  set({I::vrsqrt}, {16, 2.0, 0});  // unused: A5 TRSQRT is vsqrt + vdiv
  set({I::vlds, I::vsts}, {9, 1, 0});
  set({I::vector_dup, I::vbrcb, I::copy_ubuf_to_ubuf}, {4, 1, 0});
  set({I::vsel}, {6, 2, 0});
  set({I::vconv, I::vcvt, I::vcmp}, {10, 2, 0});
  // Reductions: VfSim's VCADD (latency 22, one per cycle); the max / min and group forms assumed alike.
  set({I::vcadd, I::vcmax, I::vcmin, I::vcgadd, I::vcgmax, I::vcgmin}, {22, 1, 0});
  set({I::sync_roundtrip}, {0, 13, 0});
  set({I::scalar_elem}, {0, 4, 0});
  // Assumed: predicate generation (plt) and the scalar splat (vbr) overlap with the vector pipeline.
  set({I::plt, I::vbr}, {0, 0, 0});
  // The outer (row) loop of a 2-D vector function: ref §2.6's TADD 2-D fit, (1.875 inner + 2.876) rows
  // + 44.3, is 4.75 cycles per 64-column f32 row where a 1-D loop takes 1.25: 3.5 per row.
  set({I::vloop}, {0, 3.5, 0});
  // Startup + drain + the vlds -> op -> vsts latencies = the fits' constants (TADD 55.1, TMUL 56.3,
  // TEXP 62.7, TDIVS 64.5): 18 + 12 + 9 + 9 + the op's latency; VfSim's startup is 23.
  t.vf_startup = 18;
  t.vf_drain = 12;
  t.load_ports = 2;
  t.store_ports = 1;
  return t;
}

std::uint64_t valid_bytes(const TileView& t) {
  const std::uint64_t n = std::uint64_t(t.valid_rows) * std::uint64_t(t.valid_cols);
  return t.nibbles() ? (n + 1) / 2 : n * t.elem_bytes();  // 4-bit cube tiles: two a byte
}

// Modeled cycles as an integer. A what-if table can price an instruction past anything the model can
// order (and past what converts to an integer at all): that is an error, not a wrapped clock.
std::uint64_t whole_cycles(double c, const char* instruction) {
  if (!(c < double(kModelTimeLimit)))  // also NaN; never negative: the launch checks the table's terms
    fail("pipeline model: ", instruction, " costs ", c, " cycles, past the model's limit of 2^62 (a what-if cost "
         "table with enormous costs?)");
  return std::uint64_t(c);
}
}  // namespace
}  // namespace detail

std::string describe(const IntrinsicStream& s, VectorMachine machine) {
  // A stream, not `"literal" + std::to_string(...)`: g++ 12 at -O3 warns (-Wrestrict, a false positive)
  // on those temporaries, and a consumer's Release build must be warning-clean.
  std::ostringstream out;
  bool first = true;
  for (const IntrinsicCall& c : s.calls()) {
    if (!first) out << (c.barrier_before ? "; | " : "; ");
    first = false;
    if (c.calls > 1 && machine == VectorMachine::Repeat) out << c.calls << " x ";
    out << intrinsic_name(c.op);
    if (machine == VectorMachine::Register) {
      out << " x" << std::uint64_t(c.repeats) * c.calls;
      continue;
    }
    if (c.op == Intrinsic::copy_ubuf_to_ubuf) {
      out << ' ' << c.bytes << " B";
      continue;
    }
    if (c.op == Intrinsic::sync_roundtrip || c.op == Intrinsic::scalar_elem) {
      if (c.repeats > 1) out << " x" << c.repeats;
      continue;
    }
    out << (c.count_mode ? " count " : " norm ") << c.repeats << (c.repeats == 1 ? " repeat" : " repeats");
    if (c.lanes) out << ", last " << c.lanes << " lanes";
    if (c.strides != std::array<std::uint16_t, 6>{}) {
      const auto& t = c.strides;
      out << ", strides blk " << t[0] << ' ' << t[1] << ' ' << t[2] << " rep " << t[3] << ' ' << t[4] << ' ' << t[5];
    }
  }
  return out.str();
}

const CostTable& default_cost_table(Target t) {
  static const CostTable a2a3 = detail::make_a2a3(), a5 = detail::make_a5();
  return t == Target::A5 ? a5 : a2a3;
}

namespace detail {

CostModel::CostModel(const CostTable& table, int cores, Target target, bool chip_errors)
    : table_(table), target_(target), chip_errors_(chip_errors) {
  // The memory system shares GM in time (memory_system.hpp) instead of this static share.
  gm_share_ = table.gm_aggregate_bytes_per_cycle > 0 && !table.memory_system
                  ? table.gm_aggregate_bytes_per_cycle / std::max(1, cores)
                  : 0;
}

std::uint64_t CostModel::dma_cycles(const DmaCost& path, std::uint64_t bytes, bool gm, const char* instruction,
                                    std::uint64_t calls) const {
  if (bytes == 0) return 0;
  moved_bytes_ += bytes;
  if (gm) moved_gm_bytes_ += bytes;
  double bw = path.bytes_per_cycle;
  if (gm && gm_share_ > 0) bw = std::min(bw, gm_share_);
  if (gm) gm_line_rate_ = bw;
  return whole_cycles(std::ceil(double(calls) * path.setup_cycles + double(bytes) / bw), instruction);
}

std::uint64_t CostModel::stream_cycles(const IntrinsicStream& s, const char* instruction) const {
  const auto& calls = s.calls();
  if (calls.empty()) return 0;
  const CostTable& t = table_;
  if (t.machine == VectorMachine::Register) {
    // One vector-function loop: it runs at the pace of its busiest resource (load ports, store port,
    // the ALU); the last iteration's load -> op -> store latency and the region's startup and drain
    // are added.
    std::uint64_t loads = 0, stores = 0, alu_latency = 0;
    double alu = 0;
    for (const IntrinsicCall& c : calls) {
      const std::uint64_t n = std::uint64_t(c.repeats) * c.calls;
      if (c.op == I::vlds) loads += n;
      else if (c.op == I::vsts) stores += n;
      else {
        alu += double(n) * t[c.op].per_repeat;
        alu_latency = std::max<std::uint64_t>(alu_latency, t[c.op].head);
      }
    }
    const double load_c = double((loads + t.load_ports - 1) / t.load_ports) * t[I::vlds].per_repeat;
    const double store_c = double((stores + t.store_ports - 1) / t.store_ports) * t[I::vsts].per_repeat;
    const std::uint64_t latency = (loads ? t[I::vlds].head : 0) + alu_latency + (stores ? t[I::vsts].head : 0);
    return t.vf_startup + whole_cycles(std::ceil(std::max({load_c, store_c, alu}) - 1e-9), instruction) + latency + t.vf_drain;
  }
  // Repeat machine: a run of intrinsics pays the first one's head; a barrier (or the instruction's
  // end) drains the pipe and pays the last one's tail.
  // Summed in double and rounded once (a what-if table may give fractional cycles per repeat).
  double cyc = 0;
  bool count_mode = false;
  const IntrinsicCall* prev = nullptr;
  for (const IntrinsicCall& c : calls) {
    const IntrinsicCost& k = t[c.op];
    if (!prev || c.barrier_before) cyc += double((prev ? t[prev->op].tail : 0) + k.head);
    cyc += k.per_repeat * double(c.repeats) * double(c.calls);
    if (c.op == I::copy_ubuf_to_ubuf)
      cyc += double(dma_cycles(t.transfer(Memory::UB, Memory::UB), (c.bytes + 31) / 32 * 32, false, instruction)) * double(c.calls);
    count_mode |= c.count_mode;
    prev = &c;
  }
  return whole_cycles(std::round(cyc), instruction) + t[prev->op].tail + (count_mode ? t.count_mode_cycles : 0);
}

std::uint32_t CostModel::text_of(const IntrinsicStream& s) {
  std::string t = describe(s, table_.machine);
  if (auto it = text_ids_.find(t); it != text_ids_.end()) return it->second;
  const auto id = std::uint32_t(texts_.size());
  texts_.push_back(t);
  text_ids_.emplace(std::move(t), id);
  return id;
}

std::uint64_t CostModel::cycles(const InstrRecord& rec, std::uint32_t* text) {
  if (text) *text = kNoText;
  moved_bytes_ = moved_gm_bytes_ = 0;
  if (rec.kind != RecordKind::Compute) return 0;
  switch (rec.desc->cost) {
    case CostClass::None: return 0;
    case CostClass::Transfer:
    case CostClass::GmIndexed:
    case CostClass::Prefetch:
    case CostClass::PadZeros: return transfer_cycles(rec);
    case CostClass::Cube: return mad_cycles(rec);
    case CostClass::Stream: {
      VectorKey key{};  // zero-initialised: no padding, so the bytes are the key
      // The algorithm may reject a scalar (A2A3 TSUBS): with the device path computing, every value is
      // checked; a CPU-reference run plans a rejected form anyway, so the scalar is not part of its key
      // (a loop filling with a new value each time would otherwise record a stream per value).
      key.scalar = chip_errors_ ? rec.scalar.bits : 0;
      key.op = std::int32_t(rec.desc->op);
      key.variant = rec.variant;
      key.nops = rec.nops;
      for (int i = 0; i < rec.nops; ++i) {
        const TileView& t = rec.ops[i].tile;  // every operand of a vector instruction is a tile
        key.ops[i] = {t.base, {int(t.dtype), t.rows, t.cols, t.valid_rows, t.valid_cols, t.row_stride, t.col_stride,
                               int(t.row_major) | int(t.static_valid_rows) << 1 | int(t.static_valid_cols) << 2}};
      }
      const std::string_view bytes(reinterpret_cast<const char*>(&key), sizeof key);
      Memo* m = memo_.find(bytes);
      if (!m || (text && m->text == kNoText)) {
        // The target's device algorithm issues the stream itself (a recording, non-executing run, which
        // also raises what the chip would get silently wrong); the planner derives it for forms no
        // device algorithm covers. The same pricing whether the CPU reference or the device path runs;
        // a form the chip rejects is an error only when the device path computes it.
        if (!backend::record_stream(make_context(rec, target_, ub_, ub_bytes_), stream_, chip_errors_))
          fail("pipeline model: no intrinsic stream for ", rec.desc->name, " on ", name_of(target_));
        const Memo fresh{stream_cycles(stream_, rec.desc->name), text ? text_of(stream_) : kNoText};
        if (text) *text = fresh.text;
        memo_.insert(bytes, fresh);  // not kept past 4096 forms: recomputed when seen again
        return fresh.cycles;
      }
      if (text) *text = m->text;
      return m->cycles;
    }
  }
  fail("pipeline model: no cost class for ", rec.desc->name);
}

// MGATHER / MSCATTER, by the walk each chip's code makes (a2a3 / a5 MGather.hpp, MScatter.hpp; every
// index counted as in the table: the model does not read the indices):
//  - A2A3, on the scalar unit with 7 pipe round trips around it: Row, one DMA call per row (the path's
//    setup plus the row's bytes) and a loop step (an NZ table: one call per row and s0, moving whole
//    logical rows; GatherOOB::Zero first zeroes the tile element by element); Elem, per element a loop
//    step and a scalar GM access (two for an atomic add: read, then write).
//  - A5, one SIMT launch (the path's setup once): Row, the rows' bytes in coalesced bursts; Elem, one
//    sector per element.
std::uint64_t CostModel::gm_indexed_cycles(const InstrRecord& rec) const {
  const bool gather = rec.desc->op == Op::MGATHER;
  const TileView& t = rec.ops[gather ? 0 : 1].tile;
  const DmaCost& path = gather ? table_.transfer(Memory::GM, Memory::UB) : table_.transfer(Memory::UB, Memory::GM);
  const std::uint64_t rows = std::uint64_t(t.valid_rows), n = rows * std::uint64_t(t.valid_cols);
  const bool elem = rec.variant & kVariantElem;
  const bool atomic = ((rec.variant >> kVariantAtomicShift) & 3) != 0;
  if (target_ == Target::A5)
    return dma_cycles(path, elem ? n * table_.simt_sector_bytes : n * t.elem_bytes(), true, rec.desc->name);
  const double step = table_[Intrinsic::scalar_elem].per_repeat, sync = 7 * table_[Intrinsic::sync_roundtrip].per_repeat;
  const GmView& g = rec.ops[gather ? 1 : 0].gm;
  if (g.layout == Layout::NZ && !elem) {  // per row one DMA call per s0 (s1 fractal rows of C0); Zero: a scalar zeroing loop first
    const std::uint64_t r = std::uint64_t(rec.ops[2].tile.valid_cols), calls = r * std::uint64_t(g.shape[0]);
    const bool zero = gather && ((rec.variant >> kVariantOobShift) & 3) == int(GatherOOB::Zero);
    const double zeroing = zero ? double(std::uint64_t(t.rows) * std::uint64_t(t.cols)) * step : 0.0;
    return whole_cycles(std::ceil(sync + zeroing + double(r) * step), rec.desc->name) +
           dma_cycles(path, r * std::uint64_t(g.tile_cols()) * t.elem_bytes(), true, rec.desc->name, calls);
  }
  if (elem)
    return whole_cycles(std::ceil(sync + double(n) * (step + double(table_.scalar_gm_cycles) * (atomic ? 2 : 1))), rec.desc->name);
  return whole_cycles(std::ceil(sync + double(rows) * step), rec.desc->name) +
         dma_cycles(path, n * t.elem_bytes(), true, rec.desc->name, rows);
}

// The mad over the views mad_shape left: c is m x n, a m x k.
std::uint64_t CostModel::mad_cycles(const InstrRecord& rec) const {
  const TileView& c = rec.ops[0].tile;
  const TileView& a = rec.ops[1].tile;
  // The 4-bit MX inputs go at the 8-bit rate per element: pto-isa's A5 MX GEMM figures give about the same
  // throughput (mxfp8 6144^3 in 0.602 ms at 91.6% cube, 770 TFLOP/s; mxfp4 2048 x 8192 x 8192 in 0.349 ms at
  // 90.7%, 787 TFLOP/s).
  const std::size_t eb = a.elem_bytes();
  const double per_block = table_.mad_cycles_per_block[eb == 1 ? 0 : eb == 2 ? 1 : 2];
  auto up = [](std::uint64_t v, std::uint64_t d) { return (v + d - 1) / d; };
  const std::uint64_t blocks = up(std::uint64_t(c.valid_rows), 16) * up(std::uint64_t(a.valid_cols) * eb, 32) *
                               up(std::uint64_t(c.valid_cols), 16);
  return whole_cycles(std::ceil(table_.mad_setup_cycles + double(blocks) * per_block), rec.desc->name);
}

std::uint64_t CostModel::transfer_cycles(const InstrRecord& rec) const {
  if (rec.desc->cost == CostClass::PadZeros)  // MTE2 writing zero lines into L1: the GM -> L1 rate, no GM setup
    return dma_cycles(table_.transfer(Memory::GM, Memory::L1), rec.scalar.bits, false, rec.desc->name, 1);
  // dst is operand 0, src operand 1; the bytes are the valid bytes of the tile side (a load's dst, a
  // store's src; a move between buffers: its dst).
  auto memory = [](const Operand& o) { return o.kind == Operand::Kind::Gm ? Memory::GM : memory_of(o.tile.loc); };
  const Memory dst = memory(rec.ops[0]), src = memory(rec.ops[1]);
  const TileView& tile = rec.ops[0].kind == Operand::Kind::Tile ? rec.ops[0].tile : rec.ops[1].tile;
  const DmaCost& path = table_.transfer(src, dst);
  if (!(path.bytes_per_cycle > 0))
    fail("pipeline model: ", rec.desc->name, " moves ", memory_name(src), " -> ", memory_name(dst), ", a path cost table '",
         table_.name, "' does not have (its bytes_per_cycle is 0)");
  // The DMA calls: the NPU's TLOAD / TSTORE issue one per (d0, d1, d2) of an ND / DN tensor (its d3 x d4
  // are one call's bursts) and one per d0 of an NZ one, so each of those pays the path's setup.
  if (rec.desc->cost == CostClass::GmIndexed) return gm_indexed_cycles(rec);
  if (rec.desc->cost == CostClass::Prefetch) {  // its own walk: every call moves a chunk of the tensor
    const PrefetchWalk w = prefetch_walk(rec.ops[1].gm, rec.ops[0].tile, target_);
    return dma_cycles(path, std::uint64_t(w.bytes()), true, rec.desc->name, std::uint64_t(std::max<std::int64_t>(1, w.calls())));
  }
  std::uint64_t calls = 1;
  for (const Operand* o : {&rec.ops[0], &rec.ops[1]})
    if (o->kind == Operand::Kind::Gm)  // NZ: one call per s0, its s1 column blocks the bursts; a convolution output: one fixpipe call
      calls = GmView::is_conv_output(o->gm.layout)
                  ? 1
                  : std::uint64_t(std::max<std::int64_t>(1, o->gm.layout == Layout::NZ ? o->gm.shape[0] : o->gm.shape[0] * o->gm.shape[1] * o->gm.shape[2]));
  // The fixpipe's lines out of L0C are pto-isa's figures counted at 2 bytes per element whatever the
  // dtype (its cost model's convention, which its table's figures go with): L0C -> GM about 20 elements
  // a cycle.
  const std::uint64_t bytes = src == Memory::L0C
                                  ? std::uint64_t(tile.valid_rows) * std::uint64_t(tile.valid_cols) * 2
                                  : valid_bytes(tile);
  return dma_cycles(path, bytes, src == Memory::GM || dst == Memory::GM, rec.desc->name, calls);
}

}  // namespace detail
}  // namespace pto
