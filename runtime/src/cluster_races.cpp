#include "cluster_races.hpp"

#include "segment_map.hpp"

#include <algorithm>
#include <iterator>
#include <sstream>
#include <tuple>

namespace pto::detail {

namespace {
void join(ClusterClock& into, const ClusterClock& c) {
  for (int m = 0; m < kClusterCores; ++m)
    for (std::size_t p = 0; p < into[std::size_t(m)].size(); ++p)
      into[std::size_t(m)][p] = std::max(into[std::size_t(m)][p], c[std::size_t(m)][p]);
}
}  // namespace

ClusterClock ClusterRaces::known(int m, std::uint32_t s_index) const {
  const auto& w = waits_[std::size_t(m)];
  auto it = std::upper_bound(w.begin(), w.end(), s_index, [](std::uint32_t s, const auto& e) { return s < e.first; });
  return it == w.begin() ? ClusterClock{} : std::prev(it)->second;  // each wait's clock holds the earlier ones'
}

void ClusterRaces::set_started(int m, std::uint64_t seq, const PipeClock& vc) {
  std::lock_guard lock(m_);
  ClusterClock c = known(m, vc[PIPE_S]);
  c[std::size_t(m)] = vc;
  sets_[{m, seq}] = c;
}

void ClusterRaces::wait_passed(int m, std::uint32_t s_index, std::span<const SignalOrigin> sources) {
  std::lock_guard lock(m_);
  auto& w = waits_[std::size_t(m)];
  ClusterClock c = w.empty() ? ClusterClock{} : w.back().second;
  for (const SignalOrigin& s : sources) {
    const int from = s.core - first_;
    if (from < 0 || from >= kClusterCores) continue;  // another cluster's (all-core flags): not ordered here
    const auto it = sets_.find({from, s.seq});
    if (it == sets_.end()) continue;
    join(c, it->second);  // kept: a cube's set reaches both AIVs' waits
  }
  w.emplace_back(s_index, c);
}

void ClusterRaces::access(int m, std::uint64_t seq, const char* name, int pipe, const PipeClock& vc, Epochs epoch,
                          std::uint64_t now, std::uintptr_t lo, std::uintptr_t hi, bool write) {
  if (hi <= lo) return;
  std::lock_guard lock(m_);
  const ClusterClock knows = known(m, vc[PIPE_S]);
  split_segment(shadow_, lo);
  split_segment(shadow_, hi);
  const Entry me{std::uint8_t(m), std::uint8_t(pipe), write, vc[std::size_t(pipe)], epoch, seq, now, name};
  for (auto it = shadow_.find(lo); it != shadow_.end() && it->first < hi; ++it) {
    const std::uintptr_t seg_hi = std::next(it) == shadow_.end() ? hi : std::min(hi, std::next(it)->first);
    Cell& cell = it->second;
    bool mine = false;
    for (Entry& e : cell) {
      if (e.member == m) {
        if (e.pipe == me.pipe && e.write == write) e = me, mine = true;
        continue;
      }
      const bool aivs = e.member != 0 && m != 0;  // two AIVs also meet at SYNCALL<AIVOnly>
      if (!(e.write || write) || (aivs ? e.epoch.vec != epoch.vec : e.epoch.mix != epoch.mix)) continue;  // reads only, or a barrier between
      if (knows[e.member][e.pipe] >= e.idx) continue;          // it ended before a set this core waited for
      // Told in modeled-time order (the host may run the later one first).
      const bool e_first = e.start < me.start || (e.start == me.start && e.member < me.member);
      const Entry& a = e_first ? e : me;
      const Entry& b = e_first ? me : e;
      if (!reported_.insert({a.member, a.seq, b.member, b.seq}).second) {
        for (SyncFinding& f : found_)  // the same pair over the next bytes: widen its finding
          if (f.first.seq == a.seq && f.second.seq == b.seq && f.first_core == first_ + a.member && f.core == first_ + b.member &&
              f.hi == it->first)
            f.hi = seg_hi;
        continue;
      }
      SyncFinding f = race(a, b, it->first, seg_hi);
      if (throw_first_) {
        f.message = message(f);
        throw SyncError(f.message, {f});
      }
      if (found_.size() >= 64) ++suppressed_;
      else found_.push_back(std::move(f));
    }
    if (!mine) cell.push_back(me);
  }
}

std::vector<SyncFinding> ClusterRaces::take() {
  std::lock_guard lock(m_);
  for (SyncFinding& f : found_) f.message = message(f);
  std::sort(found_.begin(), found_.end(), [](const SyncFinding& x, const SyncFinding& y) {
    return std::tie(x.core, x.second.seq, x.first_core, x.first.seq, x.lo) < std::tie(y.core, y.second.seq, y.first_core, y.first.seq, y.lo);
  });
  return std::move(found_);
}

SyncFinding ClusterRaces::race(const Entry& a, const Entry& b, std::uintptr_t lo, std::uintptr_t hi) const {
  SyncFinding f;
  f.kind = SyncFinding::Kind::Race;
  f.hazard = a.write && b.write ? SyncFinding::Hazard::WAW : a.write ? SyncFinding::Hazard::RAW : SyncFinding::Hazard::WAR;
  f.first_core = first_ + a.member;
  f.core = first_ + b.member;
  f.first = {a.seq, a.pipe, a.name, ""};
  f.second = {b.seq, b.pipe, b.name, ""};
  f.memory = Memory::GM;
  f.lo = lo;
  f.hi = hi;
  return f;
}

std::string ClusterRaces::message(const SyncFinding& f) const {
  const CoreLayout& layout = layout_;
  const GmAllocations* gm = gm_;
  auto verb = [](bool w) { return w ? "writes" : "reads"; };
  const bool first_writes = f.hazard != SyncFinding::Hazard::WAR, second_writes = f.hazard != SyncFinding::Hazard::RAW;
  std::ostringstream os;
  os << "cross-core race in cluster " << layout.block(f.core) << ": " << layout.label(f.first_core) << "'s " << f.first.name
     << " #" << f.first.seq << ' ' << verb(first_writes) << " GM [0x" << std::hex << f.lo << ", 0x" << f.hi << std::dec << ')'
     << (gm ? gm->where(std::uintptr_t(f.lo), std::uintptr_t(f.hi)) : std::string()) << " and " << layout.label(f.core) << "'s "
     << f.second.name << " #" << f.second.seq << ' ' << verb(second_writes) << (first_writes && second_writes ? " it too" : " it")
     << ", and no cross-core flag orders them: the first did not end before a set (TPUSH, TFREE, "
        "ffts_cross_core_sync, set_intra_block) whose wait (TPOP, TALLOC, a TPUSH on a full ring, wait_flag_dev, "
        "wait_intra_block) the second's core passed before issuing it. A slot read after its TFREE, or stored "
        "into before its TALLOC, is such a race: keep a slot's accesses between its TPOP and TFREE (TALLOC and "
        "TPUSH), or signal a flag after the first access and wait for it before the second";
  return os.str();
}

}  // namespace pto::detail
