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
    half h;
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
    const half h = half(r.value);  // exact: the value came from a half
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
      half h;
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

// ---- the intrinsics' data, for both vector machines ------------------------------------------------
// vbitsort: `repeat` blocks (32 values of t at src + 32 r, 32 indices at idx + 32 r) into 32 records
// each at dst + 256 r. Everything is read before anything is written.
inline void bitsort(DType t, std::byte* dst, const std::byte* src, const std::byte* idx, unsigned repeat) {
  const std::size_t es = size_of(t), n = std::size_t(repeat) * 32;
  std::vector<std::byte> in(n * (es + 4));
  std::memcpy(in.data(), src, n * es);
  std::memcpy(in.data() + n * es, idx, n * 4);
  const auto* ix = reinterpret_cast<const std::uint32_t*>(in.data() + n * es);
  for (unsigned r = 0; r < repeat; ++r) sort_block(t, dst + std::size_t(r) * 256, in.data() + std::size_t(r) * 32 * es, ix + std::size_t(r) * 32, 32);
}

// vmrgsort4(dst, addr, count, config): config[7:0] repeats, [11:8] the lists enabled (a run from list 0:
// 0b1, 0b11, 0b111, 0b1111), [12] exhausted suspension; count holds each list's records in 16 bits.
struct Vms4 {
  unsigned repeat = 0;
  int lists = 0;  // 0: the mask enables no run of lists from list 0
  bool exhausted = false;
  std::uint32_t n[4] = {};
  std::uint64_t sum = 0;  // records per repeat
};
inline Vms4 vms4_args(std::uint64_t count, std::uint64_t config) {
  Vms4 a;
  a.repeat = unsigned(config & 0xff);
  const unsigned mask = unsigned(config >> 8) & 0xf;
  a.lists = mask == 0xf ? 4 : mask == 0x7 ? 3 : mask == 0x3 ? 2 : mask == 0x1 ? 1 : 0;
  a.exhausted = (config >> 12) & 1;
  for (int l = 0; l < a.lists; ++l) a.sum += a.n[l] = std::uint32_t((count >> (16 * l)) & 0xffff);
  return a;
}
// Per repeat, repeat r's lists (at addr[l] + r * sum records) merged into dst + r * sum records; the
// lists are read whole before dst is written. Returns VMS4_SR: the records taken from each list (of
// the last repeat).
inline std::uint64_t mrgsort4(DType t, std::byte* dst, const std::byte* const* addr, const Vms4& a) {
  std::uint64_t sr = 0;
  std::vector<std::byte> copy(a.sum * 8);
  for (unsigned r = 0; r < a.repeat; ++r) {
    List in[4];
    std::size_t at = 0;
    for (int l = 0; l < a.lists; ++l) {
      std::memcpy(copy.data() + at, addr[l] + std::size_t(r) * a.sum * 8, std::size_t(a.n[l]) * 8);
      in[l] = {copy.data() + at, a.n[l]};
      at += std::size_t(a.n[l]) * 8;
    }
    std::uint32_t taken[4] = {};
    merge(t, dst + std::size_t(r) * a.sum * 8, in, a.lists, a.exhausted, taken);
    sr = 0;
    for (int l = 0; l < a.lists; ++l) sr |= std::uint64_t(taken[l]) << (16 * l);
  }
  return sr;
}
// The repeats the cost model charges: per repeat when the four lists are one run of equal blocks (the
// single-list form pto-isa measured, 20 + 78 cycles a repeat), otherwise that rate per 128 records (an
// assumption: no other form was measured).
inline std::uint32_t vms4_priced_repeats(const Vms4& a, const std::byte* const* addr) {
  bool run = a.lists == 4;
  for (int l = 1; l < a.lists && run; ++l) run = a.n[l] == a.n[0] && addr[l] == addr[0] + std::size_t(l) * a.n[0] * 8;
  return run ? a.repeat : a.repeat * std::uint32_t((a.sum + 127) / 128);
}

}  // namespace pto::records
