#include "sync_checker.hpp"

#include "segment_map.hpp"

#include <algorithm>
#include <sstream>

#include "spans.hpp"

namespace pto {

const char* kind_name(SyncFinding::Kind k) {
  switch (k) {
    case SyncFinding::Kind::Race: return "race";
    case SyncFinding::Kind::WaitNeverSatisfied: return "wait never satisfied";
    case SyncFinding::Kind::CyclicWait: return "cyclic wait";
    case SyncFinding::Kind::LostSignal: return "lost signal";
    case SyncFinding::Kind::FlagLeftSet: return "flag left set";
    case SyncFinding::Kind::EventNotRecorded: return "event not recorded";
    case SyncFinding::Kind::UnwrittenRead: return "read of unwritten bytes";
  }
  return "?";
}

const char* hazard_name(SyncFinding::Hazard h) {
  switch (h) {
    case SyncFinding::Hazard::None: return "";
    case SyncFinding::Hazard::RAW: return "RAW";
    case SyncFinding::Hazard::WAR: return "WAR";
    case SyncFinding::Hazard::WAW: return "WAW";
  }
  return "?";
}

namespace detail {

namespace {
void join(VectorClock& into, const VectorClock& from) {
  for (std::size_t p = 0; p < into.size(); ++p) into[p] = std::max(into[p], from[p]);
}
std::string flag_text(const char* fn, int src, int dst, int id) {
  std::ostringstream os;
  os << fn << '(' << pipe_name(src) << ", " << pipe_name(dst) << ", EVENT_ID" << id << ')';
  return os.str();
}
}  // namespace

SyncChecker::SyncChecker(int block, const BufferSet& buffers,
                         std::function<std::string(const InstrRecord&)> describe,
                         std::function<std::string(const InstrRecord&)> operands, bool throw_first,
                         const GmAllocations* gm)
    : block_(block),
      buffers_(buffers),
      describe_(std::move(describe)),
      operands_(std::move(operands)),
      throw_first_(throw_first),
      gm_(gm),
      channels_(std::size_t(kNumPipeIds) * kNumPipeIds * kNumEventIds) {}

const VectorClock& SyncChecker::clock_of(std::uint64_t seq) const {
  if (seq <= dropped_) {
    const auto* kept = find_seq(kept_, seq);
    return kept ? kept->second : dropped_max_;
  }
  const std::size_t i = seq - dropped_ - 1;
  static const VectorClock none{};
  return i < clocks_.size() ? clocks_[i] : none;
}

void SyncChecker::remember(std::uint64_t seq, const VectorClock& vc) {
  if (seq <= dropped_) return;
  const std::size_t i = seq - dropped_ - 1;
  if (i >= clocks_.size()) clocks_.resize(i + 1);
  clocks_[i] = vc;
}

void SyncChecker::drop_before(std::uint64_t seq, const SeqTable<std::uint64_t>& pinned) {
  auto is_pinned = [&](std::uint64_t s) { return find_seq(pinned, s) != nullptr; };
  std::erase_if(kept_, [&](const auto& k) { return !is_pinned(k.first); });
  for (Channel& c : channels_)  // spans wholly before the dropped seqs can no longer cross a race
    std::erase_if(c.spans, [&](const auto& sp) { return sp.second < seq; });
  while (dropped_ + 1 < seq && !clocks_.empty()) {
    if (is_pinned(dropped_ + 1)) kept_.push_back({dropped_ + 1, clocks_.front()});
    join(dropped_max_, clocks_.front());
    clocks_.pop_front();
    ++dropped_;
  }
}

bool SyncChecker::add(SyncFinding f) {
  f.core = block_;
  if (throw_first_) throw SyncError(f.message, {f});
  if (findings_.size() >= kMaxFindings) {
    ++suppressed_;
    return false;
  }
  findings_.push_back(std::move(f));
  return true;
}

void SyncChecker::start(const InstrRecord& rec, std::uint64_t seq, const VectorClock& issue_vc, std::uint64_t token_from,
                        std::uint64_t now) {
  const int p = rec.pipe;
  VectorClock vc = vc_[std::size_t(p)];
  join(vc, issue_vc);
  for (int i = 0; i < rec.nwaits; ++i) join(vc, clock_of(rec.waits[i]));
  if (rec.kind == RecordKind::WaitFlag) join(vc, clock_of(token_from));
  commit(rec, seq, vc, now);
}

void SyncChecker::commit(const InstrRecord& rec, std::uint64_t seq, VectorClock vc, std::uint64_t now) {
  const int p = rec.pipe;
  ++vc[std::size_t(p)];
  vc_[std::size_t(p)] = vc;
  remember(seq, vc);
  if (rec.kind == RecordKind::CrossSet && cluster_) cluster_->set_started(member_, seq, vc);

  if (rec.kind == RecordKind::WaitFlag) {
    Channel& c = channel(rec.flag_src, rec.flag_dst, rec.flag_id);
    ++c.waits;
    c.last_wait_idx = vc[std::size_t(p)];
    c.last_wait_time = now;
    c.last_wait_seq = seq;
    if (!c.pending.empty()) {  // tokens are consumed in order: this wait took the oldest set's
      c.spans.emplace_back(c.pending.front(), seq);
      c.pending.pop_front();
    }
  } else if (rec.kind == RecordKind::SetFlag) {
    Channel& c = channel(rec.flag_src, rec.flag_dst, rec.flag_id);
    // The chip's flag is one bit (the CCE intrinsics' set_flag / wait_flag page: a set_flag only sets a
    // bit, and two set_flags of one id and pipe pair without a wait_flag between are not allowed): a set
    // that lands while the previous token is pending is lost. In this modeled run it is when no wait has
    // consumed that token yet; when one has, but nothing orders it before this set, only timing kept
    // them apart (pto-isa's own GEMM, flash attention and top-k reuse ids so): a note, not a finding.
    // Sets of one flag run on one pipe, in issue order: the front is this set's.
    const bool waited_in_program = c.waited_before.empty() || c.waited_before.front() != 0;
    if (!c.waited_before.empty()) c.waited_before.pop_front();
    if (c.sets > 0 && waited_in_program && c.waits >= c.sets && vc[std::size_t(rec.flag_dst)] < c.last_wait_idx) {
      if (c.timed++ == 0) c.timed_first = seq, c.timed_site = call_site(rec);
      c.timed_margin = std::min(c.timed_margin, now - std::min(now, c.last_wait_time));
    } else if (c.sets > 0 && (!waited_in_program || c.waits < c.sets)) {
      SyncFinding f;
      f.kind = SyncFinding::Kind::LostSignal;
      f.first = {c.last_set_seq, p, describe_(rec), ""};
      f.second = {seq, p, describe_(rec), ""};
      f.flag_src = rec.flag_src;
      f.flag_dst = rec.flag_dst;
      f.flag_id = rec.flag_id;
      std::ostringstream os;
      os << "lost signal on core " << block_ << ": " << describe_(rec) << " #" << seq << call_site(rec)
         << " may find the token of #" << c.last_set_seq << c.last_set_site << " still pending: ";
      if (!waited_in_program)
        os << "no wait_flag is issued between the two sets (the CCE intrinsics forbid that: the flag is one bit)";
      else
        os << "it was set at modeled cycle " << c.last_set_time << " and at cycle " << now
           << " no wait_flag had consumed it yet (the flag is one bit)";
      os << ", so one signal is lost and a later wait_flag takes the next set's, or waits forever. Wait for the flag "
            "between the two sets, or use another EVENT_ID";
      f.message = os.str();
      add(std::move(f));
    }
    ++c.sets;
    c.pending.push_back(seq);
    c.last_set_time = now;
    c.last_set_seq = seq;
    c.last_set_site = call_site(rec);
  }
  if (rec.kind != RecordKind::Compute) return;
  for_each_tile_span(rec, false, true, [&](ByteRange r) { access(rec, seq, vc, r.lo, r.hi, false, false); });
  for_each_tile_span(rec, true, true, [&](ByteRange r) { access(rec, seq, vc, r.lo, r.hi, true, false); });
  // GM bytes: the same happens-before between this core's pipes, and a log for the cross-core check.
  const char* name = rec.desc ? rec.desc->name : "instruction";
  // An atomic MSCATTER's read-modify-writes do not race with other cores' (the chips serialise them).
  const bool atomic = rec.desc && rec.desc->op == Op::MSCATTER && ((rec.variant >> kVariantAtomicShift) & 3) != 0;
  for (bool write : {false, true})
    for_each_gm_span(rec, write, [&](ByteRange r) {
      access(rec, seq, vc, r.lo, r.hi, write, true);
      if (!atomic) gm_log_.add(write, r.lo, r.hi, seq, name);
      if (cluster_ && !atomic) cluster_->access(member_, seq, name, p, vc, {mix_epoch_, vec_epoch_}, now, r.lo, r.hi, write);
    });
}

void SyncChecker::flag_issued(const InstrRecord& rec) {
  Channel& c = channel(rec.flag_src, rec.flag_dst, rec.flag_id);
  if (rec.kind == RecordKind::WaitFlag) {
    ++c.issued_waits;
  } else {
    c.waited_before.push_back(c.issued_waits >= c.issued_sets);
    ++c.issued_sets;
  }
}

void SyncChecker::scalar(const InstrRecord& rec, std::uint64_t seq, std::uint64_t token_from, std::uint64_t now) {
  VectorClock vc = vc_[PIPE_S];
  for (int i = 0; i < rec.nwaits; ++i) join(vc, clock_of(rec.waits[i]));
  if (rec.kind == RecordKind::BarrierAll || rec.kind == RecordKind::SyncAll)
    for (const VectorClock& other : vc_) join(vc, other);  // everything issued has ended
  if (rec.kind == RecordKind::SyncAll && syncall_meets(rec.variant)) gm_log_.next_epoch();  // the cores of its group met
  if (rec.kind == RecordKind::SyncAll && rec.variant == kSyncAllMix) ++mix_epoch_;
  if (rec.kind == RecordKind::SyncAll && syncall_meets(rec.variant) && rec.variant != kSyncAllCube) ++vec_epoch_;
  if (rec.kind == RecordKind::WaitFlag) join(vc, clock_of(token_from));
  commit(rec, seq, vc, now);
}

void SyncChecker::sweep_gm() {
  // Every instruction from now on, on any pipe, starts with at least its pipe's clock joined with the
  // scalar pipe's (its issue). An access that clock covers can never race again: forget it, and merge
  // the forgotten neighbours. A stream's old tiles go; the shadow stays the size of what is in flight.
  VectorClock floor[kNumPipeIds];
  for (int q = 0; q < kNumPipeIds; ++q) {
    floor[q] = vc_[std::size_t(q)];
    join(floor[q], vc_[PIPE_S]);
  }
  auto dead = [&](const Epoch& e) {
    if (e.idx == 0) return true;
    for (const VectorClock& f : floor)
      if (f[e.pipe] < e.idx) return false;
    return true;
  };
  bool prev_empty = false;
  for (auto it = gm_shadow_.begin(); it != gm_shadow_.end();) {
    Cell& c = it->second;
    bool empty = dead(c.write) && std::all_of(c.read.begin(), c.read.end(), dead);
    if (empty) c = Cell{};
    if (empty && (prev_empty || it == gm_shadow_.begin())) {
      it = gm_shadow_.erase(it);
    } else {
      ++it;
    }
    prev_empty = empty;
  }
  gm_sweep_at_ = std::max<std::size_t>(4096, 2 * gm_shadow_.size());
}

void SyncChecker::access(const InstrRecord& rec, std::uint64_t seq, const VectorClock& vc, std::uintptr_t lo,
                         std::uintptr_t hi, bool write, bool gm) {
  if (hi <= lo) return;
  auto& shadow_ = gm ? gm_shadow_ : this->shadow_;
  split_segment(shadow_, lo);
  split_segment(shadow_, hi);
  const auto p = std::uint8_t(rec.pipe);
  const Epoch me{vc[p], p, seq, rec.desc};
  for (auto it = shadow_.find(lo); it != shadow_.end() && it->first < hi; ++it) {
    Cell& c = it->second;
    const std::uintptr_t seg_hi = std::next(it) == shadow_.end() ? hi : std::min(hi, std::next(it)->first);
    auto unordered = [&](const Epoch& e) { return e.idx != 0 && e.pipe != p && vc[e.pipe] < e.idx; };
    if (unordered(c.write)) race(c.write, true, rec, seq, write, it->first, seg_hi, gm);
    if (write) {
      for (const Epoch& r : c.read)
        if (unordered(r)) race(r, false, rec, seq, true, it->first, seg_hi, gm);
      c.write = me;
      c.read = {};
    } else {
      c.read[p] = me;
    }
  }
  if (gm && gm_shadow_.size() > gm_sweep_at_) sweep_gm();
}

void SyncChecker::race(const Epoch& e, bool e_writes, const InstrRecord& rec, std::uint64_t seq, bool writes,
                       std::uintptr_t lo, std::uintptr_t hi, bool gm) {
  // In program order: the instruction issued first is the one a flag should be set after.
  const bool e_first = e.seq < seq;
  const bool first_writes = e_first ? e_writes : writes, second_writes = e_first ? writes : e_writes;
  const auto hazard = first_writes && second_writes ? SyncFinding::Hazard::WAW
                      : first_writes                ? SyncFinding::Hazard::RAW
                                                    : SyncFinding::Hazard::WAR;
  const std::array<std::uint64_t, 3> key{std::min(e.seq, seq), std::max(e.seq, seq), std::uint64_t(hazard)};
  if (reported_.count(key)) {  // the same pair over the next bytes: widen the finding
    for (auto it = findings_.rbegin(); it != findings_.rend(); ++it)
      if (it->first.seq == key[0] && it->second.seq == key[1] && it->hazard == hazard) {
        const std::uintptr_t base = it->memory == Memory::GM ? 0 : reinterpret_cast<std::uintptr_t>(buffers_.base_of(it->memory));
        if (it->hi == lo - base) it->hi = hi - base;
        break;
      }
    return;
  }
  reported_.insert(key);
  SyncFinding f;
  f.kind = SyncFinding::Kind::Race;
  f.hazard = hazard;
  const SyncFinding::Instr other{e.seq, e.pipe, e.desc ? e.desc->name : "instruction", ""};
  const SyncFinding::Instr mine{seq, rec.pipe, describe_(rec), operands_(rec)};
  f.first = e_first ? other : mine;
  f.second = e_first ? mine : other;
  const BufferSet::Place at = gm ? BufferSet::Place{Memory::GM, lo} : buffers_.locate(reinterpret_cast<const void*>(lo), hi - lo);
  f.memory = at.memory;
  f.lo = at.memory == Memory::None ? lo : at.offset;
  f.hi = f.lo + (hi - lo);
  f.flag_src = f.first.pipe;
  f.flag_dst = f.second.pipe;
  RaceText t{0, first_writes, second_writes, e_first ? f.second.name : f.first.name, e_first ? f.second.operands : f.first.operands};
  f.flag_id = free_id(f, {});
  f.message = race_message(f, t);
  if (add(std::move(f))) {
    t.finding = findings_.size() - 1;
    races_.push_back(std::move(t));
  }
}

int SyncChecker::free_id(const SyncFinding& f, const std::vector<std::array<std::uint64_t, 3>>& taken) const {
  // The suggested set_flag goes right after f.first and its wait_flag right before f.second, so the id
  // must have no token in flight anywhere in [first, second] in program order: no set..wait span of
  // that channel crosses the interval, no set is still pending before its end, and no other suggested
  // pair (`taken`: id, first, second) on the same channel overlaps it. Otherwise applying the fix
  // would lose a signal or pair the wait with another set's token.
  // An id the kernel never uses on that channel is best: reusing one whose tokens are all consumed
  // outside [first, second] is safe in program order, but the chip also needs that consuming wait_flag
  // to be ordered before the new set_flag, which only the fix itself may establish.
  const std::uint64_t a = f.first.seq, b = f.second.seq;
  auto taken_near = [&](int id, bool anywhere) {
    return std::any_of(taken.begin(), taken.end(), [&](const auto& t) { return int(t[0]) == id && (anywhere || (t[1] <= b && t[2] >= a)); });
  };
  for (int id = 0; id < kNumEventIds; ++id)
    if (channel(f.flag_src, f.flag_dst, id).sets == 0 && !taken_near(id, true)) return id;
  for (int id = 0; id < kNumEventIds; ++id) {
    const Channel& c = channel(f.flag_src, f.flag_dst, id);
    bool busy = std::any_of(c.spans.begin(), c.spans.end(), [&](const auto& sp) { return sp.first <= b && sp.second >= a; }) ||
                std::any_of(c.pending.begin(), c.pending.end(), [&](std::uint64_t set) { return set <= b; }) ||
                taken_near(id, false);
    if (!busy) return id;
  }
  return 0;  // all eight ids are busy there: the message says so
}

std::string SyncChecker::race_message(const SyncFinding& f, const RaceText& t) const {
  auto verb = [](bool w) { return w ? "writes" : "reads"; };
  std::ostringstream os;
  os << hazard_name(f.hazard) << " race on core " << block_ << ": " << f.first.name << " #" << f.first.seq << " on "
     << pipe_name(f.first.pipe) << ' ' << verb(t.first_writes) << ' '
     << (f.memory == Memory::None ? "tile storage" : memory_name(f.memory)) << " [0x" << std::hex << f.lo << ", 0x" << f.hi
     << std::dec << ')' << (f.memory == Memory::GM && gm_ ? gm_->where(f.lo, f.hi) : std::string()) << " and " << f.second.name << " #" << f.second.seq
     << " on " << pipe_name(f.second.pipe) << ' ' << verb(t.second_writes) << " it, with nothing ordering them";
  if (!t.operands.empty()) os << " (" << t.owner << ": " << t.operands << ')';
  os << "; fix: " << flag_text("set_flag", f.flag_src, f.flag_dst, f.flag_id) << " after " << f.first.name << " #"
     << f.first.seq << " and " << flag_text("wait_flag", f.flag_src, f.flag_dst, f.flag_id) << " before " << f.second.name
     << " #" << f.second.seq;
  return os.str();
}

void GmLog::add(bool write, std::uintptr_t lo, std::uintptr_t hi, std::uint64_t seq, const char* name) {
  auto& m = write ? epochs.back().writes : epochs.back().reads;
  // Merge with every interval it touches; the merged interval keeps the earliest instruction. The
  // common case, a stream's next tile right after the last, extends an interval in place.
  auto it = m.upper_bound(lo);
  if (it != m.begin() && std::prev(it)->second.hi >= lo) {
    auto prev = std::prev(it);
    prev->second.hi = std::max(prev->second.hi, hi);
    if (seq < prev->second.seq) prev->second.seq = seq, prev->second.name = name;
    while (it != m.end() && it->first <= prev->second.hi) {
      prev->second.hi = std::max(prev->second.hi, it->second.hi);
      if (it->second.seq < prev->second.seq) prev->second.seq = it->second.seq, prev->second.name = it->second.name;
      it = m.erase(it);
    }
    return;
  }
  Access a{hi, seq, name};
  while (it != m.end() && it->first <= hi) {
    if (it->second.seq < a.seq) a.seq = it->second.seq, a.name = it->second.name;
    a.hi = std::max(a.hi, it->second.hi);
    it = m.erase(it);
  }
  m.emplace_hint(it, lo, a);
}

void cross_core_races(const std::vector<GmLog>& logs, const GmAllocations& gm, std::vector<std::vector<SyncFinding>*> out,
                      bool throw_first, const CoreLayout& layout, int chip_cores) {
  // In a cluster launch, cores of one cluster and cores of different kinds order their GM through
  // cross-core flags (TPUSH / TPOP), which these epochs do not see: only same-kind cores of different
  // clusters, whose SYNCALLs of their kind (and Mix) count alike, are compared. Clusters that run on one
  // chip core in successive waves (blocks b and b + chip_cores) are ordered too.
  auto comparable = [&](int x, int y) {
    if (x == y) return false;
    if (!layout.clusters) return true;
    const int bx = layout.block(x), by = layout.block(y);
    const bool one_core = chip_cores > 0 && bx % chip_cores == by % chip_cores;
    return layout.kind(x) == layout.kind(y) && bx != by && !one_core;
  };
  struct Item {
    std::uintptr_t lo, hi;
    int core;
    bool write;
    const GmLog::Access* a;
  };
  if (logs.size() < 2) return;
  std::size_t epochs = 0;
  for (const GmLog& l : logs) epochs = std::max(epochs, l.epochs.size());
  std::set<std::array<int, 3>> reported;  // (first core, second core, hazard)
  std::vector<const Item*> active_w, active_r;  // intervals that may still overlap the next ones
  std::size_t total = 0;
  constexpr std::size_t kMax = 64;
  auto conflict = [&](const Item& x, const Item& y) {  // x.lo <= y.lo, overlapping, different cores
    const Item& a = x.core < y.core ? x : y;
    const Item& b = x.core < y.core ? y : x;
    const auto hazard = a.write && b.write ? SyncFinding::Hazard::WAW : SyncFinding::Hazard::RAW;
    if (!reported.insert({a.core, b.core, int(hazard)}).second || total >= kMax) return;
    ++total;
    const std::uintptr_t lo = std::max(x.lo, y.lo), hi = std::min(x.hi, y.hi);
    SyncFinding f;
    f.kind = SyncFinding::Kind::Race;
    f.hazard = hazard;
    f.core = b.core;
    f.first_core = a.core;
    f.first = {a.a->seq, 0, a.a->name, ""};
    f.second = {b.a->seq, 0, b.a->name, ""};
    f.memory = Memory::GM;
    f.lo = lo;
    f.hi = hi;
    std::ostringstream os;
    auto verb = [](bool w) { return w ? "writes" : "reads"; };
    os << "cross-core race: " << layout.label(a.core) << "'s " << a.a->name << " #" << a.a->seq << ' ' << verb(a.write) << " GM [0x"
       << std::hex << lo << ", 0x" << hi << std::dec << ')' << gm.where(lo, hi) << " and " << layout.label(b.core) << "'s "
       << b.a->name << " #" << b.a->seq << ' ' << verb(b.write) << (a.write && b.write ? " it too" : " it")
       << ", with no SYNCALL between them; the cores of one launch run in no defined order between SYNCALLs, so "
       << (a.write && b.write ? "which value lands" : "what the read sees")
       << " is undefined: give each core its own GM bytes, or put a SYNCALL between the two accesses";
    f.message = os.str();
    if (throw_first) throw SyncError(f.message, {f});
    out[std::size_t(b.core)]->push_back(std::move(f));
  };
  std::vector<Item> items;
  for (std::size_t e = 0; e < epochs; ++e) {  // accesses of different epochs are ordered by a SYNCALL
    items.clear();
    active_w.clear();
    active_r.clear();
    for (int c = 0; c < int(logs.size()); ++c) {
      if (e >= logs[std::size_t(c)].epochs.size()) continue;
      const GmLog::Epoch& log = logs[std::size_t(c)].epochs[e];
      for (bool w : {false, true})
        for (const auto& [lo, a] : w ? log.writes : log.reads) items.push_back({lo, a.hi, c, w, &a});
    }
    std::sort(items.begin(), items.end(), [](const Item& x, const Item& y) { return x.lo < y.lo || (x.lo == y.lo && x.core < y.core); });
    for (const Item& it : items) {
      auto expire = [&](std::vector<const Item*>& v) {
        std::erase_if(v, [&](const Item* x) { return x->hi <= it.lo; });
      };
      expire(active_w);
      expire(active_r);
      for (const Item* w : active_w)
        if (comparable(w->core, it.core)) conflict(*w, it);
      if (it.write)
        for (const Item* r : active_r)
          if (comparable(r->core, it.core)) conflict(*r, it);
      (it.write ? active_w : active_r).push_back(&it);
    }
  }
}

void SyncChecker::kernel_end(const std::vector<std::array<int, 4>>& pending) {
  // Every set and wait of the kernel is known now: choose each suggested id again (in program order of
  // the races, each avoiding the ones chosen before it), and say the final byte range.
  std::vector<std::array<std::uint64_t, 3>> taken;
  std::vector<std::size_t> order(races_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    const SyncFinding &fx = findings_[races_[x].finding], &fy = findings_[races_[y].finding];
    return std::pair(fx.first.seq, fx.second.seq) < std::pair(fy.first.seq, fy.second.seq);
  });
  for (std::size_t i : order) {
    SyncFinding& f = findings_[races_[i].finding];
    f.flag_id = free_id(f, taken);
    taken.push_back({std::uint64_t(f.flag_id), f.first.seq, f.second.seq});
    f.message = race_message(f, races_[i]);
  }
  for (int src = 0; src < kNumPipeIds; ++src)
    for (int dst = 0; dst < kNumPipeIds; ++dst)
      for (int id = 0; id < kNumEventIds; ++id) {
        const Channel& c = channel(src, dst, id);
        if (!c.timed) continue;
        std::ostringstream os;
        os << flag_text("set_flag", src, dst, id) << c.timed_site << " was set again " << c.timed
           << " time(s) while nothing but timing ordered the wait_flag that consumed the previous token before it "
              "(in this run the wait came first by at least "
           << c.timed_margin << " cycle(s)). The chip's flag is one bit: a slower wait would lose a signal. To make "
              "it safe, have the setting pipe wait for a flag from the waiting pipe before it sets again, or "
              "alternate EVENT_IDs (docs/sync-checker.md)";
        notes_.emplace_back(c.timed_first, os.str());
      }
  for (const auto& [src, dst, id, count] : pending) {
    SyncFinding f;
    f.kind = SyncFinding::Kind::FlagLeftSet;
    f.flag_src = src;
    f.flag_dst = dst;
    f.flag_id = id;
    const Channel& c = channel(src, dst, id);
    f.first = {c.last_set_seq, src, flag_text("set_flag", src, dst, id), ""};
    std::ostringstream os;
    os << "flag left set on core " << block_ << ": " << count << " token(s) of " << flag_text("set_flag", src, dst, id)
       << " (last set by #" << c.last_set_seq << c.last_set_site << ") were never waited for by the end of the kernel; add the matching "
       << flag_text("wait_flag", src, dst, id) << " or drop the set";
    f.message = os.str();
    add(std::move(f));
  }
}

void SyncChecker::event_not_recorded(const std::string& instruction, const std::string& event) {
  SyncFinding f;
  f.kind = SyncFinding::Kind::EventNotRecorded;
  f.second.name = instruction;
  f.message = "event not recorded on core " + std::to_string(block_) + ": " + instruction + " waits on an " + event +
              " that no instruction was assigned to yet, so it orders nothing; assign the producing instruction's "
              "result to it first";
  add(std::move(f));
}

}  // namespace detail
}  // namespace pto
