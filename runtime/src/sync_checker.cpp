#include "sync_checker.hpp"

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

std::string call_site(const InstrRecord& rec) {
  if (rec.where.line() == 0) return {};
  std::string file = rec.where.file_name();
  if (auto slash = file.find_last_of('/'); slash != std::string::npos) file.erase(0, slash + 1);
  return " at " + file + ':' + std::to_string(rec.where.line());
}

SyncChecker::SyncChecker(int block, const std::byte* ub, std::size_t ub_bytes,
                         std::function<std::string(const InstrRecord&)> describe,
                         std::function<std::string(const InstrRecord&)> operands, bool throw_first)
    : block_(block),
      ub_(ub),
      ub_bytes_(ub_bytes),
      describe_(std::move(describe)),
      operands_(std::move(operands)),
      throw_first_(throw_first),
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
  while (dropped_ + 1 < seq && !clocks_.empty()) {
    if (is_pinned(dropped_ + 1)) kept_.push_back({dropped_ + 1, clocks_.front()});
    join(dropped_max_, clocks_.front());
    clocks_.pop_front();
    ++dropped_;
  }
}

void SyncChecker::add(SyncFinding f) {
  f.core = block_;
  if (throw_first_) throw SyncError(f.message, {f});
  if (findings_.size() >= kMaxFindings) {
    ++suppressed_;
    return;
  }
  findings_.push_back(std::move(f));
}

void SyncChecker::start(const InstrRecord& rec, std::uint64_t seq, const VectorClock& issue_vc, std::uint64_t token_from) {
  const int p = rec.pipe;
  VectorClock vc = vc_[std::size_t(p)];
  join(vc, issue_vc);
  for (int i = 0; i < rec.nwaits; ++i) join(vc, clock_of(rec.waits[i]));
  if (rec.kind == RecordKind::WaitFlag) join(vc, clock_of(token_from));
  commit(rec, seq, vc);
}

void SyncChecker::commit(const InstrRecord& rec, std::uint64_t seq, VectorClock vc) {
  const int p = rec.pipe;
  ++vc[std::size_t(p)];
  vc_[std::size_t(p)] = vc;
  remember(seq, vc);

  if (rec.kind == RecordKind::WaitFlag) {
    Channel& c = channel(rec.flag_src, rec.flag_dst, rec.flag_id);
    ++c.waits;
    c.last_wait_idx = vc[std::size_t(p)];
  } else if (rec.kind == RecordKind::SetFlag) {
    Channel& c = channel(rec.flag_src, rec.flag_dst, rec.flag_id);
    // The previous token must have been consumed by a wait that happens before this set: the chip
    // keeps one token per flag, so otherwise this set may land on a pending one and be lost.
    if (c.sets > 0 && (c.waits < c.sets || vc[std::size_t(rec.flag_dst)] < c.last_wait_idx)) {
      SyncFinding f;
      f.kind = SyncFinding::Kind::LostSignal;
      f.first = {c.last_set_seq, p, describe_(rec), ""};
      f.second = {seq, p, describe_(rec), ""};
      f.flag_src = rec.flag_src;
      f.flag_dst = rec.flag_dst;
      f.flag_id = rec.flag_id;
      std::ostringstream os;
      os << "lost signal on core " << block_ << ": " << describe_(rec) << " #" << seq << call_site(rec)
         << " may find the token of #" << c.last_set_seq << c.last_set_site << " still pending (" << (c.waits < c.sets ? "no wait_flag has consumed it yet" : "the wait_flag "
         "that consumed it is not ordered before this set") << "); the chip keeps one token per flag, so one signal "
         "would be lost. Wait for the flag between the two sets, or use another EVENT_ID";
      f.message = os.str();
      add(std::move(f));
    }
    ++c.sets;
    c.last_set_seq = seq;
    c.last_set_site = call_site(rec);
  }
  if (rec.kind != RecordKind::Compute) return;
  for_each_tile_span(rec, false, true, [&](ByteRange r) { access(rec, seq, vc, r.lo, r.hi, false); });
  for_each_tile_span(rec, true, true, [&](ByteRange r) { access(rec, seq, vc, r.lo, r.hi, true); });
}

void SyncChecker::scalar(const InstrRecord& rec, std::uint64_t seq, std::uint64_t token_from) {
  VectorClock vc = vc_[PIPE_S];
  for (int i = 0; i < rec.nwaits; ++i) join(vc, clock_of(rec.waits[i]));
  if (rec.kind == RecordKind::BarrierAll)
    for (const VectorClock& other : vc_) join(vc, other);  // everything issued has ended
  if (rec.kind == RecordKind::WaitFlag) join(vc, clock_of(token_from));
  commit(rec, seq, vc);
}

void SyncChecker::split(std::uintptr_t at) {
  auto it = shadow_.upper_bound(at);
  if (it == shadow_.begin()) {
    shadow_.emplace(at, Cell{});
    return;
  }
  auto prev = std::prev(it);
  if (prev->first != at) shadow_.emplace_hint(it, at, prev->second);
}

void SyncChecker::access(const InstrRecord& rec, std::uint64_t seq, const VectorClock& vc, std::uintptr_t lo,
                         std::uintptr_t hi, bool write) {
  if (hi <= lo) return;
  split(lo);
  split(hi);
  const auto p = std::uint8_t(rec.pipe);
  const Epoch me{vc[p], p, seq, rec.desc};
  for (auto it = shadow_.find(lo); it != shadow_.end() && it->first < hi; ++it) {
    Cell& c = it->second;
    const std::uintptr_t seg_hi = std::next(it) == shadow_.end() ? hi : std::min(hi, std::next(it)->first);
    auto unordered = [&](const Epoch& e) { return e.idx != 0 && e.pipe != p && vc[e.pipe] < e.idx; };
    if (unordered(c.write)) race(c.write, true, rec, seq, write, it->first, seg_hi);
    if (write) {
      for (const Epoch& r : c.read)
        if (unordered(r)) race(r, false, rec, seq, true, it->first, seg_hi);
      c.write = me;
      c.read = {};
    } else {
      c.read[p] = me;
    }
  }
}

void SyncChecker::race(const Epoch& e, bool e_writes, const InstrRecord& rec, std::uint64_t seq, bool writes,
                       std::uintptr_t lo, std::uintptr_t hi) {
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
        const bool in_ub = it->in_ub;
        const std::uintptr_t base = in_ub ? reinterpret_cast<std::uintptr_t>(ub_) : 0;
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
  const auto ub = reinterpret_cast<std::uintptr_t>(ub_);
  f.in_ub = lo >= ub && hi <= ub + ub_bytes_;
  f.lo = f.in_ub ? lo - ub : lo;
  f.hi = f.in_ub ? hi - ub : hi;
  // A free event id for the suggested pair: one with no token in flight on that channel.
  int id = 0;
  for (; id < kNumEventIds; ++id) {
    const Channel& c = channel(f.first.pipe, f.second.pipe, id);
    if (c.sets == c.waits) break;
  }
  if (id == kNumEventIds) id = 0;
  f.flag_src = f.first.pipe;
  f.flag_dst = f.second.pipe;
  f.flag_id = id;
  auto verb = [](bool w) { return w ? "writes" : "reads"; };
  std::ostringstream os;
  os << hazard_name(hazard) << " race on core " << block_ << ": " << f.first.name << " #" << f.first.seq << " on "
     << pipe_name(f.first.pipe) << ' ' << verb(first_writes) << ' ' << (f.in_ub ? "UB [0x" : "tile storage [0x") << std::hex
     << f.lo << ", 0x" << f.hi << std::dec << ") and " << f.second.name << " #" << f.second.seq << " on "
     << pipe_name(f.second.pipe) << ' ' << verb(second_writes) << " it, with nothing ordering them";
  const std::string& ops = e_first ? f.second.operands : f.first.operands;
  if (!ops.empty()) os << " (" << (e_first ? f.second.name : f.first.name) << ": " << ops << ')';
  os << "; fix: " << flag_text("set_flag", f.first.pipe, f.second.pipe, id) << " after " << f.first.name << " #"
     << f.first.seq << " and " << flag_text("wait_flag", f.first.pipe, f.second.pipe, id) << " before " << f.second.name
     << " #" << f.second.seq;
  f.message = os.str();
  add(std::move(f));
}

void SyncChecker::kernel_end(const std::vector<std::array<int, 4>>& pending) {
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
