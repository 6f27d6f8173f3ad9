// The watchdog of a launch: kernels that never end must not hang the process.
//  - Caps (checked by Core::issue): a core may issue at most `max_instructions` instructions and its
//    scalar pipe may reach at most `max_cycles` modeled cycles; past either, that core fails with an
//    error naming the cap. A kernel looping forever over instructions ends there.
//  - Host progress: every issue beats the core's slot (two relaxed stores). A thread wakes each second;
//    when no core has issued anything for `seconds`, the kernels are stuck in host code (an endless loop
//    between instructions, a wait on something a stuck core would do) and nothing can unwind them: the
//    watchdog prints each core's last issued instruction and state to stderr and ends the process
//    with exit status 124 (timeout(1)'s).
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <pto/runtime/record.hpp>

namespace pto::detail {

struct WatchdogLimits {
  std::uint64_t max_instructions = 0;  // per core; 0: no cap
  std::uint64_t max_cycles = 0;        // scalar pipe's modeled cycle; 0: no cap
  std::uint64_t seconds = 0;           // host time without any issue; 0: no host watchdog
};

// LaunchConfig's -1 fields from the environment (PTO_MAX_INSTRUCTIONS, PTO_MAX_CYCLES,
// PTO_WATCHDOG_SECONDS) or the defaults; 0 turns a limit off.
WatchdogLimits resolve_watchdog(std::int64_t max_instructions, std::int64_t max_cycles, std::int64_t seconds);

// What a core last did, for the host watchdog's message (written by the core's thread, read by the watchdog).
struct CoreBeat {
  enum State : std::uint8_t { NotStarted, Running, Waiting, Ended };  // Waiting: for other cores
  std::atomic<std::uint64_t> seq{0};
  std::atomic<const InstrDesc*> desc{nullptr};
  std::atomic<std::uint8_t> state{NotStarted};
  void beat(std::uint64_t s, const InstrDesc* d) {
    seq.store(s, std::memory_order_relaxed);
    desc.store(d, std::memory_order_relaxed);
  }
};

class HostWatchdog {
public:
  HostWatchdog(int blocks, std::uint64_t seconds);  // seconds 0: no thread, beats still recorded
  ~HostWatchdog();  // stops the thread
  HostWatchdog(const HostWatchdog&) = delete;
  HostWatchdog& operator=(const HostWatchdog&) = delete;
  CoreBeat& core(int block) { return beats_[std::size_t(block)]; }

private:
  void watch();
  std::string stuck_message() const;
  int blocks_;
  std::uint64_t seconds_;
  std::unique_ptr<CoreBeat[]> beats_;
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace pto::detail
