#include "unwritten_reads.hpp"

#include <iterator>
#include <sstream>

#include "spans.hpp"

namespace pto::detail {

void ByteSpans::add(std::uintptr_t lo, std::uintptr_t hi) {
  if (hi <= lo) return;
  auto it = spans_.upper_bound(lo);
  if (it != spans_.begin() && std::prev(it)->second >= lo) --it;  // the span before reaches lo: merge it
  while (it != spans_.end() && it->first <= hi) {
    lo = std::min(lo, it->first);
    hi = std::max(hi, it->second);
    it = spans_.erase(it);
  }
  spans_.emplace(lo, hi);
}

void ByteSpans::remove(std::uintptr_t lo, std::uintptr_t hi) {
  if (hi <= lo) return;
  auto it = spans_.upper_bound(lo);
  if (it != spans_.begin() && std::prev(it)->second > lo) --it;
  while (it != spans_.end() && it->first < hi) {
    const std::uintptr_t a = it->first, b = it->second;
    it = spans_.erase(it);
    if (a < lo) spans_.emplace(a, lo);
    if (b > hi) it = spans_.emplace(hi, b).first;
  }
}

namespace {
// The spans the check follows: each valid line (as the race check), except for boxed (NZ / ZN) and
// 4-bit tiles, whose lines are not byte runs: their bounding bytes (a window read of a tile written whole
// stays inside what was written).
template <class F>
void spans(const Operand& o, bool write, F&& f) {
  if (o.tile.boxed || o.tile.nibbles()) {
    if (const ByteRange r = o.footprint(write); !r.empty()) f(r);
  } else {
    for_each_operand_span(o, write, true, f);
  }
}

// Vector units and DMAs read whole 32-byte blocks, and instructions read a block's bytes past the
// valid ones (A2A3's TCONCAT, a TLOAD's unaligned rows): only a whole block nothing wrote is a read of
// unwritten data. The buffers are 64-byte aligned, so host addresses align as buffer offsets do.
constexpr std::uintptr_t kBlock = 32;
ByteSpans::Gap whole_blocks(const ByteSpans& written, std::uintptr_t lo, std::uintptr_t hi) {
  ByteSpans::Gap g;
  written.for_each_gap(lo, hi, [&](std::uintptr_t a, std::uintptr_t b) {
    a = (a + kBlock - 1) / kBlock * kBlock;
    b = b / kBlock * kBlock;
    if (b <= a) return;
    if (g.bytes == 0) g.lo = a;
    g.hi = b;
    g.bytes += b - a;
  });
  return g;
}
}  // namespace

void UnwrittenReads::issued(const InstrRecord& rec, std::uint64_t seq) {
  for (int i = 0; i < rec.nops; ++i)
    if (rec.ops[i].kind == Operand::Kind::Tile && rec.ops[i].reads()) check_read(rec, seq, i);
  for (int i = 0; i < rec.nops; ++i)
    if (rec.ops[i].kind == Operand::Kind::Tile && rec.ops[i].writes())
      spans(rec.ops[i], true, [&](ByteRange r) { written_.add(r.lo, r.hi); });
}

void UnwrittenReads::check_read(const InstrRecord& rec, std::uint64_t seq, int op) {
  const Operand& o = rec.ops[op];
  ByteSpans::Gap gap;
  spans(o, false, [&](ByteRange r) {
    if (buffers_.locate(reinterpret_cast<const void*>(r.lo), r.hi - r.lo).memory == Memory::None) return;  // own storage
    const ByteSpans::Gap g = whole_blocks(written_, r.lo, r.hi);
    if (g.bytes == 0) return;
    if (gap.bytes == 0) gap.lo = g.lo;
    gap.hi = g.hi;
    gap.bytes += g.bytes;
    written_.add(r.lo, r.hi);  // reported once
  });
  if (gap.bytes == 0) return;
  const BufferSet::Place at = buffers_.locate(reinterpret_cast<const void*>(gap.lo));
  SyncFinding f;
  f.kind = SyncFinding::Kind::UnwrittenRead;
  f.core = block_;
  f.first = {seq, rec.pipe, describe_(rec), ""};
  f.memory = at.memory;
  f.lo = at.offset;
  f.hi = at.offset + (gap.hi - gap.lo);
  const char* operand = rec.desc && rec.desc->operands[op].name ? rec.desc->operands[op].name : "operand";
  std::ostringstream os;
  os << "read of unwritten bytes on core " << block_ << ": " << f.first.name << " #" << seq << " reads " << gap.bytes
     << " byte(s) of its " << operand << " (" << o.tile << ") in " << memory_name(at.memory) << " [" << f.lo << ", "
     << f.hi << ") that no instruction issued before it wrote. The chip's buffers hold what the previous kernel "
     << "left, not zeros: load, fill (TEXPANDS) or compute the tile first (TMATMUL before TMATMUL_ACC); "
     << "PTO_FILL=nan starts the buffers as NaN to show the effect on the results";
  f.message = os.str();
  report_(std::move(f));
}

void UnwrittenReads::host_access(const std::byte* p, std::size_t n) {
  if (p == last_host_ && n == last_host_bytes_) return;
  last_host_ = p;
  last_host_bytes_ = n;
  const auto lo = reinterpret_cast<std::uintptr_t>(p);
  written_.add(lo, lo + n);
}

void UnwrittenReads::placed(const std::byte* p, std::size_t n) {
  const auto lo = reinterpret_cast<std::uintptr_t>(p);
  written_.remove(lo, lo + n);
  last_host_ = nullptr;
}

}  // namespace pto::detail
