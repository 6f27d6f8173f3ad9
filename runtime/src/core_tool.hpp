// CoreTool: a built-in observer of one core (the checker, the timeline recorder, stall attribution,
// warnings). It sees the public events (observer.hpp) like any observer, and besides them what only
// the runtime knows: where auto mode placed a tile, a kernel touching a tile through its data(), a
// WaitEvents on an event never recorded; and it adds what it found to the core's report.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include <pto/runtime/observer.hpp>
#include <pto/runtime/record.hpp>

namespace pto {
struct CoreReport;
}

namespace pto::detail {

class CoreTool : public Observer {
public:
  virtual void placed(const std::byte*, std::size_t) {}       // an auto-mode placement: its bytes start unwritten
  virtual void host_access(const std::byte*, std::size_t) {}  // Tile::data() reached these bytes
  virtual void event_not_recorded(const InstrRecord&, const char* /*event*/) {}
  virtual void warning(std::uint64_t /*seq*/, const std::string& /*message*/) {}  // a device path's writes past dst's valid region
  virtual void contribute(CoreReport&) {}  // after on_end: what it adds to the report
};

}  // namespace pto::detail
