#include "describe.hpp"

#include <sstream>

namespace pto::detail {

std::string describe(const InstrRecord& rec) {
  std::ostringstream os;
  switch (rec.kind) {
    case RecordKind::SetFlag:
    case RecordKind::WaitFlag:
      os << (rec.kind == RecordKind::SetFlag ? "set_flag(" : "wait_flag(") << pipe_name(rec.flag_src) << ", "
         << pipe_name(rec.flag_dst) << ", EVENT_ID" << rec.flag_id << ')';
      break;
    case RecordKind::BarrierAll: os << "pipe_barrier(PIPE_ALL)"; break;
    case RecordKind::SyncAll: {
      static const char* const forms[] = {"SYNCALL", "SYNCALL<AICOnly>", "SYNCALL<Mix>", "SYNCALL<AICOnly>", "SYNCALL<AIVOnly>"};
      os << forms[rec.variant < 5 ? rec.variant : 0];
      break;
    }
    case RecordKind::CrossSet:
      if (rec.desc->op != Op::FFTS_SYNC && rec.desc->op != Op::SET_INTRA_BLOCK) os << rec.desc->name << ": ";
      if (rec.flag_src == kCrossIntra) os << "set_intra_block(" << pipe_name(rec.pipe) << ", " << rec.flag_id << ")";
      else os << "ffts_cross_core_sync(" << pipe_name(rec.pipe) << ", mode " << int(rec.flag_src) << ", flag " << rec.flag_id << ")";
      break;
    case RecordKind::CrossWait:
      if (rec.desc->op != Op::WAIT_FLAG_DEV && rec.desc->op != Op::WAIT_INTRA_BLOCK) os << rec.desc->name << ": ";
      os << (rec.variant & kCrossWaitIntra ? "wait_intra_block(" : "wait_flag_dev(") << rec.flag_id;
      if (rec.variant & kCrossWaitPair) os << " and " << rec.flag_id + 16;
      os << ")";
      break;
    case RecordKind::Nop: os << (rec.desc ? rec.desc->name : "wait"); break;
    case RecordKind::Compute: os << rec.desc->name; break;
  }
  return os.str();
}

std::string operands_text(const InstrRecord& rec, const BufferSet& buffers) {
  std::ostringstream ops;
  for (int i = 0; i < rec.nops; ++i) {
    const Operand& o = rec.ops[i];
    if (i) ops << "; ";
    ops << (rec.desc ? rec.desc->operands[i].name : "op") << ' ';
    if (o.kind == Operand::Kind::Tile) {
      const BufferSet::Place at = buffers.locate(o.tile.base);
      if (at.memory == Memory::None) ops << o.tile << " @own storage";  // not in a buffer of this core
      else ops << o.tile << " @" << memory_name(at.memory) << "+0x" << std::hex << at.offset << std::dec;
    } else if (o.kind == Operand::Kind::Gm) {
      ops << o.gm;
    }
  }
  return ops.str();
}

std::string call_site(const InstrRecord& rec) {
  if (rec.where.line() == 0) return {};
  std::string file = rec.where.file_name();
  if (auto slash = file.find_last_of('/'); slash != std::string::npos) file.erase(0, slash + 1);
  return " at " + file + ':' + std::to_string(rec.where.line());
}

const char* record_name(const InstrRecord& rec) {
  switch (rec.kind) {
    case RecordKind::SetFlag: return "set_flag";
    case RecordKind::WaitFlag: return "wait_flag";
    case RecordKind::BarrierAll: return "pipe_barrier";
    case RecordKind::SyncAll: return "SYNCALL";
    case RecordKind::Nop: return rec.desc ? rec.desc->name : "wait";
    case RecordKind::CrossSet:
    case RecordKind::CrossWait:
    case RecordKind::Compute: return rec.desc->name;
  }
  return "";
}

}  // namespace pto::detail
