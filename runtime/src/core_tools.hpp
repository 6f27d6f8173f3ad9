// The built-in observers of a launch's core, and the report they make together:
//  - StatsTool: busy and idle cycles per pipe by cause (stall attribution), bytes moved, warnings;
//  - CheckTool: the synchronisation checker and the reads of unwritten bytes (LaunchConfig::check);
//  - TimelineRecorder (timeline_recorder.hpp): LaunchConfig::timeline.
// The core knows none of them: it calls them through CoreTool, like any observer.
#pragma once
#include <array>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <pto/runtime/report.hpp>
#include <pto/runtime/sync_check.hpp>

#include "core.hpp"
#include "core_tool.hpp"
#include "sync_checker.hpp"
#include "unwritten_reads.hpp"

namespace pto::detail {

class StatsTool final : public CoreTool {
public:
  explicit StatsTool(int block) : block_(block) {}
  void on_issue(const InstrView&) override { ++pipes_[PIPE_S].instructions; }
  void on_start(const InstrView& v) override;
  void on_retire(const InstrView& v) override;
  void on_wait(const WaitView& w) override { note_idle(pipes_[PIPE_S], w.to - w.from, w.why); }
  void on_end(const CoreEndView& e) override { end_ = e; }
  void warning(std::uint64_t seq, const std::string& message) override { add_warning(warnings_, seq, message); }
  void contribute(CoreReport& r) override;

  // Distinct messages, the first 64; a repeat counts.
  static void add_warning(std::vector<DeviceWarning>& into, std::uint64_t seq, const std::string& message);

private:
  static void note_idle(PipeStats& st, std::uint64_t cycles, const IdleCause& why);

  int block_;
  std::array<PipeStats, kNumPipeIds> pipes_{};
  std::array<std::uint64_t, kNumPipeIds> free_at_{};  // each pipe's last end
  CoreEndView end_;
  std::vector<DeviceWarning> warnings_;
};

class CheckTool final : public CoreTool {
public:
  CheckTool(const Core& core, SyncCheck check, const GmAllocations* gm);
  void on_issue(const InstrView& v) override;
  void on_start(const InstrView& v) override;
  void on_retire(const InstrView& v) override;
  void on_end(const CoreEndView&) override { checker_.kernel_end(core_.pending_tokens()); }
  void placed(const std::byte* p, std::size_t n) override { unwritten_.placed(p, n); }
  void host_access(const std::byte* p, std::size_t n) override { unwritten_.host_access(p, n); }
  void event_not_recorded(const InstrRecord& rec, const char* event) override {
    checker_.event_not_recorded(describe(rec), event);
  }
  void contribute(CoreReport& r) override;
  GmLog take_gm_log() { return checker_.take_gm_log(); }

private:
  const Core& core_;
  SyncChecker checker_;
  UnwrittenReads unwritten_;
  bool auto_mode_;
  // The scalar pipe's clock stamped on each queued instruction at its issue, per pipe, until it starts
  // (pipes start in issue order).
  std::array<Fifo<VectorClock>, kNumPipeIds> issue_vc_;
};

// One launch core's tools, attached to it at construction.
class CoreTools {
public:
  CoreTools(Core& core, SyncCheck check, bool timeline);
  ~CoreTools();
  CoreReport report();  // after Core::finish; moves the timeline out: call once
  GmLog take_gm_log() { return check_ ? check_->take_gm_log() : GmLog{}; }

private:
  std::vector<std::unique_ptr<CoreTool>> tools_;
  CheckTool* check_ = nullptr;
};

}  // namespace pto::detail
