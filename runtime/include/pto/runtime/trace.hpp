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

// SVG, readable in any browser without a trace viewer (docs/timeline.md): a legend (a colour per
// instruction name), a time axis in microseconds and cycles, identical cores folded into one row group
// ("cores 0-15 (16 identical)"), a lane per pipe with the scalar pipe's waits, issue cycles and drain
// first, instruction names inside the boxes that fit them, flag and event arrows (at most 200 a panel),
// and a detail panel that zooms into the start of a run too dense to label. Sub-pixel boxes merge, so
// the file is bounded by the picture's pixels, not the timeline's length; the picture says what it
// merged, capped and folded. Throws like write_chrome_trace.
void write_svg_timeline(const LaunchReport& report, const std::string& path);

}  // namespace pto
