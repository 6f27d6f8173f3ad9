// pto-isa's include path for TSYNC_CVID: one implementation for both targets (pto/runtime/tsync_cvid.hpp).
#pragma once
#include <pto/runtime/tsync_cvid.hpp>
