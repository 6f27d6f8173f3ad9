#include "timeline_recorder.hpp"

#include "cost_model.hpp"
#include "describe.hpp"
#include "registry.hpp"

namespace pto::detail {

// The texts repeat (a kernel issues the same few instruction forms over and over): format each once,
// keyed by the fields the text shows.
template <class Make>
std::uint32_t TimelineRecorder::intern(Make&& make) {
  const std::string_view key(key_, key_len_);
  if (const std::uint32_t* id = interned_.find(key)) return *id;
  const auto id = std::uint32_t(strings_.size());
  strings_.push_back(make());
  interned_.insert(key, id);
  return id;
}

void TimelineRecorder::on_retire(const InstrView& v) {
  const InstrRecord& rec = *v.record;
  TimelineEntry e;
  e.pipe = std::uint8_t(rec.pipe);
  if (v.stream != CostModel::kNoText) {
    if (stream_strings_.size() <= v.stream) stream_strings_.resize(v.stream + 1, CostModel::kNoText);
    if (stream_strings_[v.stream] == CostModel::kNoText) {
      stream_strings_[v.stream] = std::uint32_t(strings_.size());
      strings_.push_back(core_.cost().stream_text(v.stream));
    }
    e.intrinsics_id = stream_strings_[v.stream];
  }
  e.seq = v.seq;
  e.issue = v.issue;
  e.start = v.start;
  e.end = v.end;
  e.stall = v.stall;
  e.stall_cycles = v.stall_cycles;
  const std::uint64_t name_key = (std::uint64_t(rec.desc ? desc_index(rec.desc->op) + 1 : 0) << 32) |
                                 (std::uint64_t(rec.kind) << 24) | (std::uint64_t(rec.flag_src) << 16) |
                                 (std::uint64_t(rec.flag_dst) << 8) | std::uint64_t(rec.flag_id) |
                                 (rec.kind == RecordKind::SyncAll ? std::uint64_t(rec.variant) << 56 : 0);
  auto [it, fresh] = name_ids_.try_emplace(name_key, std::uint32_t(strings_.size()));
  if (fresh) strings_.push_back(describe(rec));
  e.name_id = it->second;
  // At most 8 + kMaxOperands x (1 + 5 x 16 + 2) bytes: within key_.
  static_assert(sizeof(void*) + kMaxOperands * (1 + 10 * sizeof(std::int64_t) + 2 * sizeof(int)) <= sizeof key_);
  key_len_ = 0;
  put(rec.desc);
  for (int i = 0; i < rec.nops; ++i) {
    const Operand& o = rec.ops[i];
    put(o.kind);
    if (o.kind == Operand::Kind::Tile) {
      const TileView& t = o.tile;
      for (int x : {int(t.loc), int(t.dtype), t.rows, t.cols, t.valid_rows, t.valid_cols, int(t.row_major)}) put(x);
      put(t.offset);
      put(core_.in_buffer(t));
    } else if (o.kind == Operand::Kind::Gm) {
      put(o.gm.dtype);
      put(o.gm.layout);
      for (int k = 0; k < 5; ++k) {
        put(o.gm.shape[k]);
        put(o.gm.stride[k]);
      }
    }
  }
  e.operands_id = intern([&] { return operands_text(rec, core_.buffers()); });
  e.after_begin = std::uint32_t(edges_.size());
  edges_.insert(edges_.end(), rec.waits, rec.waits + rec.nwaits);
  if (v.token_from) edges_.push_back(v.token_from);
  e.after_count = std::uint32_t(edges_.size() - e.after_begin);
  if (v.from_core >= 0) cross_.push_back({v.seq, v.from_core, v.from_seq});
  timeline_.push_back(e);
}

void TimelineRecorder::contribute(CoreReport& r) {
  r.timeline = std::move(timeline_);
  r.strings = std::move(strings_);
  stream_strings_.clear();
  r.edges = std::move(edges_);
  r.cross_edges = std::move(cross_);
}

}  // namespace pto::detail
