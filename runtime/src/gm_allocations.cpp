#include "gm_allocations.hpp"

#include <sstream>

#include <pto/isa/error.hpp>

namespace pto::detail {

const GmAllocation* GmAllocations::containing(std::uintptr_t p) const {
  const GmAllocation* best = nullptr;
  for (const GmAllocation& a : all_)
    if (a.lo <= p && p < a.hi && (!best || a.hi - a.lo < best->hi - best->lo)) best = &a;
  return best;
}

void GmAllocations::check(const InstrRecord& rec) const {
  for (int i = 0; i < rec.nops; ++i) {
    const Operand& o = rec.ops[i];
    if (o.kind != Operand::Kind::Gm) continue;
    const ByteRange fp = o.gm.footprint();
    const GmAllocation* a = containing(fp.lo);
    if (!a || fp.hi <= a->hi) continue;
    // Another allocation that starts there too (an argument passed twice, a sub-span) may hold it all.
    bool held = false;
    for (const GmAllocation& b : all_) held = held || (b.lo <= fp.lo && fp.hi <= b.hi);
    if (held) continue;
    const OperandDesc& od = rec.desc->operands[i];
    fail(rec.desc->name, ": operand ", od.name, ' ', o.gm, ' ', o.writes() ? "writes" : "reads", " GM bytes [",
         fp.lo - a->lo, ", ", fp.hi - a->lo, ") of launch argument ", a->arg, " (", a->count, " elements of ",
         a->elem_bytes, " bytes = ", a->hi - a->lo, " bytes): ", fp.hi - a->hi,
         " bytes past its end; the tensor's shape and strides must stay inside the buffer passed to pto::launch");
  }
}

std::string GmAllocations::where(std::uintptr_t lo, std::uintptr_t hi) const {
  const GmAllocation* a = containing(lo);
  if (!a) return {};
  std::ostringstream os;
  os << " (launch argument " << a->arg << ", bytes [0x" << std::hex << lo - a->lo << ", 0x" << hi - a->lo << std::dec
     << ") of its " << a->hi - a->lo << ')';
  return os.str();
}

}  // namespace pto::detail
