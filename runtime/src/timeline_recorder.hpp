// TimelineRecorder: a core's timeline (LaunchConfig::timeline), one compact TimelineEntry per retired
// instruction, with the texts it shows interned once per core.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include <pto/runtime/report.hpp>

#include "core.hpp"
#include "core_tool.hpp"
#include "key_cache.hpp"

namespace pto::detail {

class TimelineRecorder final : public CoreTool {
public:
  explicit TimelineRecorder(const Core& core) : core_(core) {}
  void on_retire(const InstrView& v) override;
  void contribute(CoreReport& r) override;

private:
  template <class T>
  void put(const T& v) {
    std::memcpy(key_ + key_len_, &v, sizeof v);
    key_len_ += sizeof v;
  }
  template <class Make>
  std::uint32_t intern(Make&& make);

  const Core& core_;
  std::vector<TimelineEntry> timeline_;
  std::vector<std::uint32_t> stream_strings_;  // the cost model's stream texts -> strings_
  std::vector<std::string> strings_;           // the timeline's texts, interned ...
  // ... by a binary key of what they show (looked up by string_view: no allocation per instruction)
  KeyCache<std::uint32_t, 16> interned_;  // a loop alternates a few buffers per instruction
  std::unordered_map<std::uint64_t, std::uint32_t> name_ids_;  // names by (instruction, kind, flag)
  char key_[640];  // the key being built
  std::size_t key_len_ = 0;
  std::vector<std::uint64_t> edges_;
  std::vector<CoreReport::CrossEdge> cross_;
};

}  // namespace pto::detail
