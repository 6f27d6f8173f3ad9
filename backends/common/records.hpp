// The 8-byte value-index records of TSORT32 and TMRGSORT and the two intrinsics that make them: one
// definition the CPU kernels (backends/cpu/sort.hpp) and the device paths (vbitsort, vmrgsort4 on the
// A2/A3 vector unit and the A5 register machine) share, so they agree record for record.
//
// A float record is [value f32, index u32], a half record [value f16, 0x0000, index u32] (pto-isa
// docs/isa/TSORT32.md, TMRGSORT.md). Order: larger value first, NaN after every number; equal values keep
// the smaller index first (vbitsort) or the earlier list, then the earlier record (vmrgsort4, a stable
// merge). docs/sort-gather.md says which of these rules the chips document and which are our choice.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include <pto/isa/dtype.hpp>

namespace pto::records {

struct Record {
  float value;  // exact for half
  std::uint32_t index;
  std::uint32_t list;  // vmrgsort4: the list it came from (ties: the earlier list first)
};

// a before b: larger value first, NaN last, then the earlier list.
inline bool before(const Record& a, const Record& b) {
  const bool an = std::isnan(a.value), bn = std::isnan(b.value);
  if (an != bn) return bn;
  if (!an && a.value != b.value) return a.value > b.value;
  return a.list < b.list;
}

// Record k of the records starting at p.
inline Record load(DType t, const std::byte* p, std::size_t k) {
  Record r{0.0f, 0, 0};
  const std::byte* q = p + 8 * k;
  if (t == DType::F32) {
    std::memcpy(&r.value, q, 4);
  } else {
    _Float16 h;
    std::memcpy(&h, q, 2);
    r.value = float(h);
  }
  std::memcpy(&r.index, q + 4, 4);
  return r;
}
inline void store(DType t, std::byte* p, std::size_t k, const Record& r) {
  std::byte* q = p + 8 * k;
  if (t == DType::F32) {
    std::memcpy(q, &r.value, 4);
  } else {
    const _Float16 h = _Float16(r.value);  // exact: the value came from a half
    const std::uint16_t zero = 0;
    std::memcpy(q, &h, 2);
    std::memcpy(q + 2, &zero, 2);
  }
  std::memcpy(q + 4, &r.index, 4);
}

// One vbitsort repeat: n (at most 32) values of type t at src with their indices, sorted into n records
// at dst. Everything is read before anything is written (dst may overlap src).
inline void sort_block(DType t, std::byte* dst, const std::byte* src, const std::uint32_t* idx, unsigned n) {
  Record block[32];
  for (unsigned k = 0; k < n; ++k) {
    float v;
    if (t == DType::F32) {
      std::memcpy(&v, src + std::size_t(k) * 4, 4);
    } else {
      _Float16 h;
      std::memcpy(&h, src + std::size_t(k) * 2, 2);
      v = float(h);
    }
    std::uint32_t i;
    std::memcpy(&i, idx + k, 4);
    block[k] = {v, i, 0};
  }
  std::stable_sort(block, block + n, [](const Record& a, const Record& c) {
    if (before(a, c)) return true;
    if (before(c, a)) return false;
    return a.index < c.index;  // equal values: the smaller index first
  });
  for (unsigned k = 0; k < n; ++k) store(t, dst, k, block[k]);
}

// One vmrgsort4 repeat: up to four sorted lists (records at lists[l], counts[l] of them) merged
// descending into dst. Exhausted mode stops after the record that empties a list. `taken` receives the
// records taken from each list (the chip's VMS4_SR). Returns the records written. The lists are read
// whole before dst is written (dst may overlap them: the single-list form merges in place).
struct List {
  const std::byte* at;
  std::uint32_t count;
};
inline std::size_t merge(DType t, std::byte* dst, const List* lists, int nlists, bool exhausted, std::uint32_t* taken) {
  std::vector<Record> out;
  std::uint32_t at[4] = {0, 0, 0, 0};
  for (;;) {
    int best = -1;
    Record br{};
    for (int l = 0; l < nlists; ++l) {
      if (at[l] >= lists[l].count) continue;
      Record r = load(t, lists[l].at, at[l]);
      r.list = std::uint32_t(l);
      if (best < 0 || before(r, br)) best = l, br = r;
    }
    if (best < 0) break;
    out.push_back(br);
    if (++at[best] == lists[best].count && exhausted) break;
  }
  for (int l = 0; l < nlists && taken; ++l) taken[l] = at[l];
  for (std::size_t k = 0; k < out.size(); ++k) store(t, dst, k, out[k]);
  return out.size();
}

}  // namespace pto::records
