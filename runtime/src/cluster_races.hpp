// ClusterRaces: the synchronisation checker across the three cores of one cluster (AIC, AIV0, AIV1),
// which order their GM - TPUSH / TPOP slot rings, a workspace one writes and another reads - with
// cross-core flags, not with SYNCALL.
//
// Happens-before, as vector clocks over the cluster's pipes: each core's SyncChecker gives an
// instruction a clock over its own pipes; a cross-core set carries its clock (and what its core knew of
// the others, from its earlier waits) to the wait that takes its signal; every instruction issued after
// that wait knows it. A GM access of one core and an access of another to the same bytes, one of them a
// write, are a race unless the earlier one ended before a set that the later one's core waited for (or
// a SYNCALL<Mix> lies between them). A kernel that reads a TPOP'ed slot after its TFREE, or a producer
// that stores into a slot before its TALLOC, is such a race.
//
// The cores of a cluster may run on different host threads: every call locks. A race between two
// accesses is found whichever the host runs first (the second checks against the first) and is told in
// modeled-time order, earlier access first; the findings go to the later access's core once the launch
// has run (take()), sorted, so the report does not depend on the host's order.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <pto/isa/pipes.hpp>
#include <pto/runtime/sync_check.hpp>

#include "core_layout.hpp"
#include "gm_allocations.hpp"

namespace pto::detail {

inline constexpr int kClusterCores = 3;  // AIC, AIV0, AIV1
using PipeClock = std::array<std::uint32_t, kNumPipeIds>;
using ClusterClock = std::array<PipeClock, kClusterCores>;  // per member: its pipes' instructions known ended

class ClusterRaces {
public:
  // `first_core`: the launch index of the cluster's AIC (its AIVs follow); `gm` names GM bytes.
  // `throw_first`: SyncCheck::Throw (the first race found throws a SyncError).
  ClusterRaces(const CoreLayout& layout, int first_core, const GmAllocations* gm, bool throw_first)
      : layout_(layout), first_(first_core), gm_(gm), throw_first_(throw_first) {}

  // Member `m` (0: AIC, 1, 2: AIV0, AIV1) starts a cross-core set, instruction `seq` with clock `vc`.
  void set_started(int m, std::uint64_t seq, const PipeClock& vc);
  // Its scalar pipe passed a cross-core wait, its `s_index`-th scalar instruction, which took the signals
  // of `sources` (launch core, seq).
  void wait_passed(int m, std::uint32_t s_index, std::span<const SignalOrigin> sources);
  // Its GM access [lo, hi) by instruction `seq` (named `name`) on pipe `pipe`, the `idx`-th there, with
  // clock `vc`, starting at modeled cycle `now` (the cluster's cores share a clock), after `epochs`
  // barriers - the SYNCALL<Mix>es (they order all three cores) and the SYNCALLs an AIV meets (AIVOnly and
  // Mix: they order the two AIVs): checked against the other members' accesses.
  struct Epochs {
    std::uint32_t mix = 0, vec = 0;
  };
  void access(int m, std::uint64_t seq, const char* name, int pipe, const PipeClock& vc, Epochs epochs, std::uint64_t now,
              std::uintptr_t lo, std::uintptr_t hi, bool write);
  // After the launch: the races found, each for the core of its later access, sorted (core, seqs); and
  // how many more there were than the 64 kept.
  std::vector<SyncFinding> take();
  std::uint64_t suppressed() const { return suppressed_; }
  int first_core() const { return first_; }

private:
  struct Entry {
    std::uint8_t member = 0, pipe = 0;
    bool write = false;
    std::uint32_t idx = 0;
    Epochs epoch;
    std::uint64_t seq = 0, start = 0;
    const char* name = "";
  };
  using Cell = std::vector<Entry>;  // per (member, pipe, read / write): the latest access
  ClusterClock known(int m, std::uint32_t s_index) const;  // what member m knew after its s_index-th scalar
  SyncFinding race(const Entry& a, const Entry& b, std::uintptr_t lo, std::uintptr_t hi) const;  // a before b
  std::string message(const SyncFinding& f) const;

  const CoreLayout layout_;
  const int first_;
  const GmAllocations* gm_;
  std::mutex m_;
  std::map<std::pair<int, std::uint64_t>, ClusterClock> sets_;  // (member, seq) -> the set's clock
  std::array<std::vector<std::pair<std::uint32_t, ClusterClock>>, kClusterCores> waits_;  // by s_index
  std::map<std::uintptr_t, Cell> shadow_;  // segment [key, next key)
  std::set<std::array<std::uint64_t, 4>> reported_;  // (member, seq, member, seq), earlier first
  std::vector<SyncFinding> found_;
  std::uint64_t suppressed_ = 0;
  const bool throw_first_;
};

}  // namespace pto::detail
