#include "watchdog.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include <pto/isa/error.hpp>

#include "env.hpp"

namespace pto::detail {

namespace {
// Defaults: far beyond any real kernel, reached by a runaway one in minutes of host time. 10^9
// instructions take 3-4 minutes at the model's 5-9 M/s; 2 * 10^11 cycles are 108 s of chip time at
// 1.85 GHz (the public GEMM's largest size runs 3.2 ms); two minutes without one issue on any core.
constexpr std::uint64_t kDefaultInstructions = 1'000'000'000;
constexpr std::uint64_t kDefaultCycles = 200'000'000'000;
constexpr std::uint64_t kDefaultSeconds = 120;

std::uint64_t resolve(std::int64_t field, const char* field_name, const char* env, std::uint64_t fallback) {
  if (field >= 0) return std::uint64_t(field);
  if (field != -1) fail("pto::launch: ", field_name, " = ", field, "; use -1 (the default), 0 (off) or a limit");
  return env_count(env, fallback);
}
}  // namespace

WatchdogLimits resolve_watchdog(std::int64_t max_instructions, std::int64_t max_cycles, std::int64_t seconds) {
  return {resolve(max_instructions, "max_instructions", "PTO_MAX_INSTRUCTIONS", kDefaultInstructions),
          resolve(max_cycles, "max_cycles", "PTO_MAX_CYCLES", kDefaultCycles),
          resolve(seconds, "watchdog_seconds", "PTO_WATCHDOG_SECONDS", kDefaultSeconds)};
}

HostWatchdog::HostWatchdog(int blocks, std::uint64_t seconds)
    : blocks_(blocks), seconds_(seconds), beats_(new CoreBeat[std::size_t(blocks)]) {
  if (seconds_) thread_ = std::thread([this] { watch(); });
}

HostWatchdog::~HostWatchdog() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(m_);
    done_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void HostWatchdog::watch() {
  std::uint64_t last_sum = ~std::uint64_t(0);
  auto last_change = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(m_);
  while (!cv_.wait_for(lock, std::chrono::seconds(1), [&] { return done_; })) {
    std::uint64_t sum = 0;
    for (int b = 0; b < blocks_; ++b) sum += beats_[std::size_t(b)].seq.load(std::memory_order_relaxed) + beats_[std::size_t(b)].state;
    const auto now = std::chrono::steady_clock::now();
    if (sum != last_sum) {
      last_sum = sum;
      last_change = now;
    } else if (now - last_change >= std::chrono::seconds(seconds_)) {
      const std::string m = stuck_message();
      std::fputs(m.c_str(), stderr);
      std::fflush(stderr);
      std::_Exit(124);  // nothing can unwind a kernel stuck in host code
    }
  }
}

std::string HostWatchdog::stuck_message() const {
  std::ostringstream os;
  os << "pto::launch: watchdog: no core issued an instruction for " << seconds_
     << " s (LaunchConfig::watchdog_seconds, PTO_WATCHDOG_SECONDS; 0 turns it off). A kernel loops or waits in host "
        "code between instructions, where nothing can stop it: ending the process (exit status 124). The cores:\n";
  int shown = 0;
  for (int b = 0; b < blocks_; ++b) {
    const CoreBeat& c = beats_[std::size_t(b)];
    const std::uint8_t st = c.state.load(std::memory_order_relaxed);
    if (st == CoreBeat::NotStarted || st == CoreBeat::Ended) continue;
    if (++shown > 32) {
      os << "  ...\n";
      break;
    }
    const std::uint64_t seq = c.seq.load(std::memory_order_relaxed);
    const InstrDesc* d = c.desc.load(std::memory_order_relaxed);
    os << "  core " << b << ": " << (st == CoreBeat::Waiting ? "waits for other cores (a SYNCALL or a cross-core flag)" : "runs its kernel")
       << "; last issued: ";
    if (seq) os << (d ? d->name : "instruction") << " #" << seq << '\n';
    else os << "nothing yet\n";
  }
  int ended = 0, waiting = 0;
  for (int b = 0; b < blocks_; ++b) {
    const std::uint8_t st = beats_[std::size_t(b)].state.load(std::memory_order_relaxed);
    ended += st == CoreBeat::Ended;
    waiting += st == CoreBeat::NotStarted;
  }
  os << "  (" << ended << " core(s) ended, " << waiting << " not started)\n";
  return os.str();
}

}  // namespace pto::detail
