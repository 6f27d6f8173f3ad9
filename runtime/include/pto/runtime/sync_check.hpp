// The synchronisation checker's findings (LaunchConfig::check). Races are decided by logical
// happens-before (vector clocks over the pipes, joined through set_flag -> wait_flag tokens, events,
// the scalar pipe's waits and pipe_barrier(PIPE_ALL)), never by the host's timing: the same kernel
// gets the same reports under every policy and on every run.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <pto/isa/buffers.hpp>
#include <pto/isa/error.hpp>

namespace pto {

enum class SyncCheck : std::uint8_t {
  Default,  // on, whatever the build: Report, plus one notice on stderr when a launch has findings;
            // PTO_SYNC_CHECK=0 / off, 1 / report (no notice) or throw overrides it
  Off,      // the explicit opt-out
  Report,   // collect the findings in CoreReport::sync (LaunchReport::findings(), the summary), no notice
  Throw     // throw pto::SyncError at the first finding
};

struct SyncFinding {
  enum class Kind : std::uint8_t {
    Race,                // two pipes (or two cores) touch the same bytes, one writes, nothing orders them
    WaitNeverSatisfied,  // a wait_flag that no set_flag issued before or after it can satisfy (deadlock)
    CyclicWait,          // pipes wait on each other's flags in a cycle (deadlock)
    LostSignal,          // a set_flag while its previous token may still be pending: the chip keeps one
    FlagLeftSet,         // a set_flag nobody waited for by the end of the kernel
    EventNotRecorded,    // an Event<Src, Dst> waited before any instruction was assigned to it
    UnwrittenRead        // an instruction reads on-chip bytes that no instruction issued before it wrote
  };
  enum class Hazard : std::uint8_t { None, RAW, WAR, WAW };
  // One instruction of a finding.
  struct Instr {
    std::uint64_t seq = 0;  // issue number on its core (1-based); 0 = none
    int pipe = 0;
    std::string name;      // "TLOAD", "set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0)", ...
    std::string operands;  // for the later instruction of a race (the earlier one is named by its bytes)
  };

  Kind kind = Kind::Race;
  int core = 0;
  Hazard hazard = Hazard::None;
  Instr first, second;  // Race: in program order; LostSignal: the two set_flags; waits: the stuck wait
  // Race, UnwrittenRead: where the bytes are, and [lo, hi): offsets inside that buffer of the core (UB, L1, L0C, ...),
  // host addresses for GM, and host addresses for Memory::None (a tile with storage of its own).
  Memory memory = Memory::UB;
  std::uint64_t lo = 0, hi = 0;
  int first_core = -1;  // a race between two cores: the core of `first` (`core` is the second's)
  int flag_src = -1, flag_dst = -1, flag_id = -1;  // the flag concerned (waits, LostSignal, FlagLeftSet)
  std::string message;  // what a person reads, with the fix when there is one
};

const char* kind_name(SyncFinding::Kind k);
const char* hazard_name(SyncFinding::Hazard h);

// Thrown by a launch with SyncCheck::Throw at the first finding, and by every deadlock (whose
// findings say which kind it is).
class SyncError : public Error {
public:
  SyncError(const std::string& what, std::vector<SyncFinding> findings) : Error(what), findings_(std::move(findings)) {}
  const std::vector<SyncFinding>& findings() const { return findings_; }

private:
  std::vector<SyncFinding> findings_;
};

}  // namespace pto
