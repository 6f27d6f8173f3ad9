#include "gm_allocations.hpp"

#include <sstream>

#include <pto/isa/error.hpp>

namespace pto::detail {

namespace {
// "launch argument 1 (4096 bytes at 0x5633...)", "a pto::KernelGm (4096 bytes at 0x...)".
void name_buffer(std::ostream& os, const GmAllocation& a) {
  if (a.arg >= 0) os << "launch argument " << a.arg;
  else os << "a pto::KernelGm of the kernel";
  os << " (" << a.count << " elements of " << a.elem_bytes << " bytes = " << a.hi - a.lo << " bytes at 0x" << std::hex
     << a.lo << std::dec << ')';
}
// How far the byte `p` lies from allocation `a` (0 inside).
std::uintptr_t distance(std::uintptr_t p, const GmAllocation& a) {
  return p < a.lo ? a.lo - p : p >= a.hi ? p - a.hi : 0;
}
}  // namespace

const GmAllocation* GmAllocations::containing(std::uintptr_t p) const {
  const GmAllocation* best = nullptr;
  for (const GmAllocation& a : all_)
    if (a.lo <= p && p < a.hi && (!best || a.hi - a.lo < best->hi - best->lo)) best = &a;
  return best;
}

bool GmAllocations::holds(std::uintptr_t lo, std::uintptr_t hi) const {
  for (const GmAllocation& a : all_)
    if (a.lo <= lo && hi <= a.hi) return true;
  return false;
}

void GmAllocations::check(const InstrRecord& rec, bool all_sized, std::span<const GmAllocation> owned) const {
  for (int i = 0; i < rec.nops; ++i) {
    const Operand& o = rec.ops[i];
    if (o.kind != Operand::Kind::Gm) continue;
    const ByteRange fp = o.gm.footprint();
    if (fp.lo == fp.hi) continue;  // touches nothing
    if (fp.hi < fp.lo) outside_all(rec, i, fp.lo, fp.hi, owned);  // wrapped past the address space
    if (holds(fp.lo, fp.hi)) continue;
    bool own = false;
    for (const GmAllocation& b : owned) own = own || (b.lo <= fp.lo && fp.hi <= b.hi);
    if (own) continue;
    const GmAllocation* a = containing(fp.lo);
    if (!a) {
      if (all_sized) outside_all(rec, i, fp.lo, fp.hi, owned);
      continue;  // a raw pointer's memory, whose size nothing says
    }
    const OperandDesc& od = rec.desc->operands[i];
    fail(rec.desc->name, ": operand ", od.name, ' ', o.gm, ' ', o.writes() ? "writes" : "reads", " GM bytes [",
         fp.lo - a->lo, ", ", fp.hi - a->lo, ") of launch argument ", a->arg, " (", a->count, " elements of ",
         a->elem_bytes, " bytes = ", a->hi - a->lo, " bytes): ", fp.hi - a->hi,
         " bytes past its end; the tensor's shape and strides must stay inside the buffer passed to pto::launch");
  }
}

void GmAllocations::outside_all(const InstrRecord& rec, int op, std::uintptr_t lo, std::uintptr_t hi,
                                std::span<const GmAllocation> owned) const {
  const Operand& o = rec.ops[op];
  std::ostringstream os;
  os << rec.desc->name << ": operand " << rec.desc->operands[op].name << ' ' << o.gm << ' '
     << (o.writes() ? "writes" : "reads") << " GM bytes [0x" << std::hex << lo << ", 0x" << hi << std::dec << ')';
  if (hi < lo) {
    os << ": the footprint wraps past the end of the address space";
  } else {
    os << " (" << hi - lo << " bytes), which lie in no GM buffer of the launch";
    const GmAllocation* near = nullptr;
    for (const GmAllocation& a : all_)
      if (!near || distance(lo, a) < distance(lo, *near)) near = &a;
    for (const GmAllocation& a : owned)
      if (!near || distance(lo, a) < distance(lo, *near)) near = &a;
    if (near) {
      os << ": they start ";
      if (lo == near->lo) os << "at ";
      else if (lo < near->lo) os << near->lo - lo << " bytes before ";
      else if (lo >= near->hi) os << lo - near->hi << " bytes past the end of ";
      else os << lo - near->lo << " bytes into ";
      name_buffer(os, *near);
      if (near->hi == near->lo) os << ", which is empty";
    }
  }
  os << "; every GM byte an instruction touches must lie inside one buffer passed to pto::launch (or a pto::KernelGm "
        "the kernel owns). The launch's buffers: ";
  for (std::size_t k = 0; k < all_.size(); ++k) {
    if (k) os << ", ";
    name_buffer(os, all_[k]);
  }
  for (const GmAllocation& a : owned) name_buffer(os << ", ", a);
  fail(os.str());
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
