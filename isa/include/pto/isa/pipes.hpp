// Pipes and event ids exactly as PTO spells them (global names, like the CANN compiler builtins).
// Values follow the CPU stub of pto-isa (spec §1.7).
#pragma once
#include <cstdint>

enum pipe_t : int {
  PIPE_S = 0, PIPE_V = 1, PIPE_MTE1 = 2, PIPE_MTE2 = 3, PIPE_MTE3 = 4, PIPE_M = 5, PIPE_ALL = 6, PIPE_FIX = 7
};

enum event_t : int {
  EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7, EVENT_ID_MAX
};

namespace pto {
inline constexpr int kNumPipeIds = 8;  // pipe_t values 0..7 (PIPE_ALL is not a real pipe)
inline constexpr int kNumEventIds = EVENT_ID_MAX;

constexpr const char* pipe_name(int p) {
  constexpr const char* names[] = {"PIPE_S",   "PIPE_V", "PIPE_MTE1", "PIPE_MTE2",
                                   "PIPE_MTE3", "PIPE_M", "PIPE_ALL",  "PIPE_FIX"};
  return (p >= 0 && p < kNumPipeIds) ? names[p] : "PIPE_<invalid>";
}
constexpr bool is_real_pipe(int p) { return p >= 0 && p < kNumPipeIds && p != PIPE_ALL; }
}  // namespace pto
