// SyncChecker: logical happens-before over one core's pipes (vector clocks), a shadow of the on-chip
// bytes (last writer and last reader per pipe, per byte range), flag-channel bookkeeping for lost
// signals and flags left set. The core calls it in model order (deterministic under every policy):
//   issue (scalar pipe)  -> scalar_vc() is stamped on the instruction;
//   start of a queued instruction -> start(): its clock = its pipe's clock joined with the issue
//     stamp, the events it waits for and (wait_flag) the set_flag whose token it consumed; then its
//     tile accesses are checked against the shadow;
//   an instruction the scalar pipe runs itself (set_flag / wait_flag / barriers on PIPE_S) -> scalar();
//   a pipe's instruction retiring in the model -> retired() (auto mode joins those clocks at issue);
//   the kernel's end -> kernel_end(): flags left set, channels never waited, suggested ids chosen.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <pto/runtime/record.hpp>
#include <pto/runtime/sync_check.hpp>

#include "buffer_set.hpp"
#include "cluster_races.hpp"
#include "core_layout.hpp"
#include "describe.hpp"
#include "fifo.hpp"
#include "gm_allocations.hpp"
#include "seq_table.hpp"

namespace pto::detail {

using VectorClock = std::array<std::uint32_t, kNumPipeIds>;  // per pipe: instructions known to have ended


// The GM bytes one core read and wrote over a launch, as merged intervals, each with the first
// instruction that touched it, per epoch (the SYNCALLs the core had passed): what the cross-core check
// compares.
struct GmLog {
  struct Access {
    std::uintptr_t hi = 0;
    std::uint64_t seq = 0;
    const char* name = "";
  };
  struct Epoch {
    std::map<std::uintptr_t, Access> reads, writes;  // lo -> [lo, hi)
  };
  std::vector<Epoch> epochs = std::vector<Epoch>(1);
  void add(bool write, std::uintptr_t lo, std::uintptr_t hi, std::uint64_t seq, const char* name);  // to the last epoch
  void next_epoch() { epochs.emplace_back(); }  // a SYNCALL of every core
};

// Cores of one launch are ordered with each other only by SYNCALL: every core's accesses before its
// k-th SYNCALL happen before every core's accesses after it. So GM bytes one core writes and another
// reads or writes in the same epoch (between the same two SYNCALLs) are a race. Appends one finding
// per pair of cores (and hazard) to the later core's report; with `throw_first`, throws at the first.
// `layout` names the cores (a cluster launch compares only same-kind cores of different clusters, and
// not clusters that ran one after the other on one of the chip's `chip_cores` AI cores: 0, no limit).
void cross_core_races(const std::vector<GmLog>& logs, const GmAllocations& gm, std::vector<std::vector<SyncFinding>*> out,
                      bool throw_first, const CoreLayout& layout, int chip_cores = 0);

class SyncChecker {
public:
  // `describe` names an instruction record for messages; `buffers` are the core's (messages give
  // offsets inside them); `gm` names GM bytes inside the launch's sized arguments.
  SyncChecker(int block, const BufferSet& buffers, std::function<std::string(const InstrRecord&)> describe,
              std::function<std::string(const InstrRecord&)> operands, bool throw_first, const GmAllocations* gm);

  // A cluster launch: this core is member `member` (0 AIC, 1 AIV0, 2 AIV1) of `cluster`, whose cores
  // order their GM by cross-core flags (cluster_races.hpp).
  void attach_cluster(ClusterRaces* cluster, int member) {
    cluster_ = cluster;
    member_ = member;
  }
  // A cross-core flag wait just passed (after scalar()): it took the signals of `sources`.
  void cross_wait_passed(std::span<const SignalOrigin> sources) {
    if (cluster_) cluster_->wait_passed(member_, vc_[PIPE_S][PIPE_S], sources);
  }

  const VectorClock& scalar_vc() const { return vc_[PIPE_S]; }
  // Auto mode: the runtime orders every conflicting pair, either by a dependency on an instruction still
  // queued or because the earlier one had retired in the model before the later was issued. The clock an
  // instruction is issued with therefore includes every pipe's latest retired instruction (the model's
  // retirement order is the same under every policy, so the verdict is too).
  void retired(int pipe, std::uint64_t seq) { retired_vc_[std::size_t(pipe)] = clock_of(seq); }
  VectorClock auto_issue_vc() const {
    VectorClock vc = vc_[PIPE_S];
    for (const VectorClock& r : retired_vc_)
      for (std::size_t p = 0; p < vc.size(); ++p) vc[p] = std::max(vc[p], r[p]);
    return vc;
  }
  // A queued instruction starts (model order). `issue_vc`: scalar_vc() when it was issued;
  // `token_from`: for a wait_flag, the set_flag whose token it consumed.
  // `now`: its modeled start cycle (lost signals are judged by the modeled order of sets and waits).
  void start(const InstrRecord& rec, std::uint64_t seq, const VectorClock& issue_vc, std::uint64_t token_from,
             std::uint64_t now);
  // A set_flag or wait_flag is issued (program order; before its start or scalar()).
  void flag_issued(const InstrRecord& rec);
  // Scalar-pipe records: waits on events / a token, pipe_barrier(PIPE_ALL) (everything issued has ended).
  void scalar(const InstrRecord& rec, std::uint64_t seq, std::uint64_t token_from, std::uint64_t now);
  // The end of the kernel: tokens still pending per channel (src, dst, id) -> count.
  void kernel_end(const std::vector<std::array<int, 4>>& pending);
  void event_not_recorded(const std::string& instruction, const std::string& event);
  void report(SyncFinding f) { add(std::move(f)); }  // a finding of another check (UnwrittenReads)
  // End times before `seq` were compacted away: their clocks may go too, except those of `pinned`
  // (ascending seqs queued instructions still wait on; the second members are not read).
  void drop_before(std::uint64_t seq, const SeqTable<std::uint64_t>& pinned);

  std::vector<SyncFinding> take() { return std::move(findings_); }
  // Flags reused with only timing between a wait and the next set (no finding: the modeled run lost
  // nothing), one note per flag for the report's warnings: (first such set, text). After kernel_end.
  std::vector<std::pair<std::uint64_t, std::string>> take_notes() { return std::move(notes_); }
  GmLog take_gm_log() { return std::move(gm_log_); }
  std::uint64_t suppressed() const { return suppressed_; }

private:
  struct Epoch {
    std::uint32_t idx = 0;  // 0: nobody
    std::uint8_t pipe = 0;
    std::uint64_t seq = 0;
    const InstrDesc* desc = nullptr;
  };
  struct Cell {
    Epoch write;
    std::array<Epoch, kNumPipeIds> read{};
  };
  struct Channel {
    std::uint32_t sets = 0, waits = 0;
    std::uint64_t last_set_seq = 0;
    std::string last_set_site;
    std::uint32_t last_wait_idx = 0;  // index on the destination pipe of the latest wait
    Fifo<std::uint64_t> pending;  // seqs of sets whose token no wait has consumed yet
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;  // (set seq, consuming wait seq)
    std::uint64_t last_set_time = 0, last_wait_time = 0, last_wait_seq = 0;  // modeled cycles
    std::uint32_t issued_sets = 0, issued_waits = 0;  // program order
    Fifo<std::uint8_t> waited_before;  // per issued, not yet started set: every earlier set's wait was issued first
    std::uint64_t timed = 0, timed_margin = ~std::uint64_t(0), timed_first = 0;  // sets kept apart by timing alone
    std::string timed_site;
  };
  // What a race's message needs besides its finding (rebuilt at the kernel's end).
  struct RaceText {
    std::size_t finding = 0;  // index into findings_
    bool first_writes = false, second_writes = false;
    std::string owner, operands;  // the instruction whose operands are shown, and them
  };

  // The instruction's clock is `vc` (what it waited for) plus itself: record it, then its flag
  // bookkeeping and its tile accesses.
  void commit(const InstrRecord& rec, std::uint64_t seq, VectorClock vc, std::uint64_t now);
  const VectorClock& clock_of(std::uint64_t seq) const;
  void remember(std::uint64_t seq, const VectorClock& vc);
  void access(const InstrRecord& rec, std::uint64_t seq, const VectorClock& vc, std::uintptr_t lo, std::uintptr_t hi,
              bool write, bool gm);
  void sweep_gm();
  void race(const Epoch& earlier, bool earlier_writes, const InstrRecord& rec, std::uint64_t seq, bool writes,
            std::uintptr_t lo, std::uintptr_t hi, bool gm);
  bool add(SyncFinding f);  // false: beyond kMaxFindings, counted only
  int free_id(const SyncFinding& f, const std::vector<std::array<std::uint64_t, 3>>& taken) const;
  std::string race_message(const SyncFinding& f, const RaceText& t) const;
  Channel& channel(int src, int dst, int id) { return channels_[std::size_t((src * kNumPipeIds + dst) * kNumEventIds + id)]; }
  const Channel& channel(int src, int dst, int id) const { return channels_[std::size_t((src * kNumPipeIds + dst) * kNumEventIds + id)]; }

  int block_;
  const BufferSet& buffers_;
  std::function<std::string(const InstrRecord&)> describe_, operands_;
  bool throw_first_;
  const GmAllocations* gm_;
  GmLog gm_log_;
  std::array<VectorClock, kNumPipeIds> vc_{};
  std::array<VectorClock, kNumPipeIds> retired_vc_{};  // auto mode: each pipe's latest retired instruction  // each pipe's clock after its latest started instruction
  std::deque<VectorClock> clocks_;             // by seq - dropped_ - 1
  std::uint64_t dropped_ = 0;
  VectorClock dropped_max_{};                   // bounds the clocks of dropped seqs
  SeqTable<VectorClock> kept_;  // ... except these, pinned when dropped (by seq)
  std::map<std::uintptr_t, Cell> shadow_;       // segment [key, next key) -> who touched it last
  std::map<std::uintptr_t, Cell> gm_shadow_;    // the same for GM bytes (swept: sweep_gm)
  std::size_t gm_sweep_at_ = 4096;
  std::vector<Channel> channels_;
  std::vector<std::pair<std::uint64_t, std::string>> notes_;
  std::set<std::array<std::uint64_t, 3>> reported_;  // (first seq, second seq, kind) already reported
  std::vector<SyncFinding> findings_;
  std::vector<RaceText> races_;
  std::uint64_t suppressed_ = 0;
  ClusterRaces* cluster_ = nullptr;
  int member_ = 0;
  std::uint32_t mix_epoch_ = 0;  // SYNCALL<Mix>es passed: they order the cluster's cores
  std::uint32_t vec_epoch_ = 0;  // SYNCALLs an AIV meets (AIVOnly and Mix): they order the two AIVs
  static constexpr std::size_t kMaxFindings = 64;
};

}  // namespace pto::detail
