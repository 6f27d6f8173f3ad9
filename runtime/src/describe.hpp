// The text a person reads for an instruction record: "TADD", "wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0)",
// and its operands with where they sit in the core's buffers.
#pragma once
#include <string>

#include <pto/runtime/record.hpp>

#include "buffer_set.hpp"

namespace pto::detail {

std::string describe(const InstrRecord& rec);
// "dst Tile<Vec,float,64,64> valid 64x64 @UB+0x0; src0 ..."
std::string operands_text(const InstrRecord& rec, const BufferSet& buffers);
// " at file.cpp:42" for a record that knows its call site (the sync operations), else "".
std::string call_site(const InstrRecord& rec);
// The name an observer sees: the descriptor's, or the sync operation's ("set_flag", "SYNCALL").
const char* record_name(const InstrRecord& rec);

}  // namespace pto::detail
