// Timelines a person can look at, from a report recorded with LaunchConfig::timeline = true.
#pragma once
#include <string>

#include <pto/runtime/report.hpp>

namespace pto {

// Chrome trace JSON (opens in Perfetto / chrome://tracing): one process per core, one thread per pipe,
// timestamps in microseconds of modeled time, the instruction's operands in args, and a flow arrow for
// every event and flag edge: from the end of the instruction waited for to the point the waiter was
// released (a queued instruction's start, a scalar-pipe wait's end), each flow event carrying its
// instruction's seq in args. Throws pto::Error when the report has no timeline or the file cannot be
// written.
void write_chrome_trace(const LaunchReport& report, const std::string& path);

// SVG: one lane per pipe of each core, a box per instruction, readable in any browser.
void write_svg_timeline(const LaunchReport& report, const std::string& path);

}  // namespace pto
