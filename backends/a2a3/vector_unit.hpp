// The emulated A2/A3 vector unit (spec §3.1): a 128-bit lane mask in norm or counter mode and the
// intrinsics PTO's A2/A3 kernels issue, with their parameter lists, working on the core's UB bytes.
//
// Every intrinsic appends itself to an intrinsic stream (the pipeline model prices it) and, when
// executing, reads all inputs of a repeat before writing its outputs (in-place operands are legal).
// What the chip would do silently wrong is an error here: a repeat count or stride that does not fit
// its 8-bit field, or a lane outside UB. A unit built with execute = false only records and checks
// (the pipeline model runs the same algorithm that way to learn its stream).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <cstring>
#include <type_traits>
#include <vector>

#include <pto/isa/dtype.hpp>
#include <pto/isa/error.hpp>
#include <pto/isa/intrinsics.hpp>

#include "../common/convert.hpp"
#include "../common/device_common.hpp"
#include "../common/records.hpp"

namespace pto::a2a3 {

struct Strides {  // in 32-byte blocks of each operand's own element type
  unsigned dbs = 1, abs = 1, bbs = 1, drs = 8, ars = 8, brs = 8;
};

class VectorUnit {
public:
  VectorUnit(std::byte* ub, std::size_t ub_bytes, const char* instruction, IntrinsicStream* trace, bool execute)
      : ub_(ub), ub_bytes_(ub_bytes), instruction_(instruction), trace_(trace), execute_(execute) {}

  bool executes() const { return execute_; }
  const char* instruction() const { return instruction_; }

  // ---- mask state -------------------------------------------------------------------------------
  void set_mask_norm() { counter_ = false; }
  void set_mask_count() { counter_ = true; }
  void set_vector_mask(std::uint64_t hi, std::uint64_t lo) {
    mask_[1] = hi;
    mask_[0] = lo;
    cont_lanes_ = 0;
  }
  void set_full_mask() { set_vector_mask(~0ull, ~0ull); }  // SetFullVecMaskByDType
  // SetContMaskByDType / SetContinuousMask: the low n lanes (1 <= n <= 128; PTO never passes 128).
  void set_cont_mask(unsigned n) {
    if (n == 0 || n > 128) detail::fail(instruction_, ": SetContMaskByDType(", n, "): the lane count must be in [1, 128]");
    set_vector_mask(n > 64 ? (n == 128 ? ~0ull : (1ull << (n - 64)) - 1) : 0, n >= 64 ? ~0ull : (1ull << n) - 1);
    cont_lanes_ = n;
  }
  void set_vector_count(std::uint64_t n) { set_vector_mask(0, n); }  // SetVectorCount (counter mode)
  bool counter_mode() const { return counter_; }
  // pipe_barrier(PIPE_V) inside an instruction: ordering only, but it drains the pipe (a cost).
  void barrier() {
    if (trace_) trace_->barrier();
  }

  // ---- intrinsics ---------------------------------------------------------------------------------
  // Lane functions work in the compute type C<T>: float for half (one rounding to half when the
  // result is stored, as fp16 hardware rounds each operation), T otherwise.
  template <class T> using C = std::conditional_t<std::is_same_v<T, half>, float, T>;

  // v<op>(dst, a, b, repeat, dbs, abs, bbs, drs, ars, brs): dst = f(a, b) per active lane.
  template <class T, class F>
  void binary(Intrinsic id, T* dst, const T* a, const T* b, unsigned repeat, Strides s, F f) {
    lanes<T, T>(id, dst, a, b, repeat, s, [&](C<T>& d, C<T> x, C<T> y) { d = f(x, y); }, false);
  }
  // v<op>s(dst, a, scalar, repeat, dbs, abs, drs, ars)
  template <class T, class F>
  void scalar(Intrinsic id, T* dst, const T* a, T scalar, unsigned repeat, Strides s, F f) {
    const C<T> k = C<T>(scalar);
    lanes<T, T>(id, dst, a, static_cast<const T*>(nullptr), repeat, s, [&](C<T>& d, C<T> x, C<T>) { d = f(x, k); }, false);
  }
  // vexp and other unary ops: vexp(dst, src, repeat, dbs, sbs, drs, srs)
  template <class T, class F>
  void unary(Intrinsic id, T* dst, const T* src, unsigned repeat, Strides s, F f) {
    lanes<T, T>(id, dst, src, static_cast<const T*>(nullptr), repeat, s, [&](C<T>& d, C<T> x, C<T>) { d = f(x); }, false);
  }
  // vaxpy(dst, src, scalar, repeat, dbs, sbs, drs, srs): dst = scalar * src + dst. D = float and
  // S = half is the widening form: 64 lanes per repeat counted in dst, src repeat = 4 blocks of half.
  template <class D, class S, class F>
  void axpy(D* dst, const S* src, unsigned repeat, Strides s, F f) {
    lanes<D, S>(Intrinsic::vaxpy, dst, src, static_cast<const S*>(nullptr), repeat, s, [&](C<D>& d, C<S> x, C<S>) { d = f(d, x); }, true);
  }
  // vector_dup(dst, scalar, repeat, dbs, _, drs, _)
  template <class T>
  void vector_dup(T* dst, T value, unsigned repeat, Strides s) {
    const C<T> v = C<T>(value);
    lanes<T, T>(Intrinsic::vector_dup, dst, static_cast<const T*>(nullptr), static_cast<const T*>(nullptr), repeat, s,
                [&](C<T>& d, C<T>, C<T>) { d = v; }, false);
  }

  // vbrcb(dst, src, dbs, drs, repeat): for repeat r and i < 8, element src[r * 8 + i] fills the 32-byte
  // block at dst + (r * drs + i * dbs) * 32. Mask-independent (PTO calls it with a full mask).
  template <class U>  // uint16_t or uint32_t
  void vbrcb(U* dst, const U* src, unsigned dbs, unsigned drs, unsigned repeat) {
    field("vbrcb", "repeat", repeat);
    field("vbrcb", "block stride", dbs);
    if (repeat > 1) field("vbrcb", "repeat stride", drs);
    if (trace_) trace_->add({.op = Intrinsic::vbrcb, .repeats = repeat});
    if (repeat == 0) return;
    const auto d0 = reinterpret_cast<std::uintptr_t>(dst);
    const std::uintptr_t hi = d0 + (std::uintptr_t(repeat - 1) * drs + 7ull * dbs) * 32 + 32;
    in_ub("vbrcb", "writes", d0, hi);
    const auto s0 = reinterpret_cast<std::uintptr_t>(src);  // integer bounds: no out-of-range pointer is formed
    in_ub("vbrcb", "reads", s0, s0 + std::uintptr_t(repeat) * 8 * sizeof(U));
    if (!execute_) return;
    U values[8];
    constexpr unsigned per_block = 32 / sizeof(U);
    for (unsigned r = 0; r < repeat; ++r) {
      std::memcpy(values, src + r * 8, sizeof values);
      for (unsigned i = 0; i < 8; ++i) {
        U* block = reinterpret_cast<U*>(reinterpret_cast<std::byte*>(dst) + (std::size_t(r) * drs + std::size_t(i) * dbs) * 32);
        std::fill(block, block + per_block, values[i]);
      }
    }
  }

  // copy_ubuf_to_ubuf(dst, src, 0, nBurst, lenBurst, srcGap, dstGap): nBurst bursts of lenBurst
  // 32-byte blocks; after each burst skip srcGap / dstGap blocks.
  void copy_ubuf_to_ubuf(void* dst, const void* src, unsigned n_burst, unsigned len_burst, unsigned src_gap, unsigned dst_gap) {
    if (trace_) trace_->add({.op = Intrinsic::copy_ubuf_to_ubuf, .repeats = 1, .bytes = std::uint64_t(n_burst) * len_burst * 32});
    device::ub_copy({ub_, ub_bytes_, instruction_}, dst, src, n_burst, len_burst, src_gap, dst_gap, execute_);
  }

  // scatter_vnchwconv_b{8,16,32}(dstVA, srcVA, repeat, dstStride, srcStride[, dstHigh, srcHigh]): per
  // repeat r, the 16 source 32-byte blocks at src[j] + r * srcStride blocks, transposed into the 16
  // destination blocks at dst[k] + r * dstStride blocks. The VA registers hold UB byte addresses (0 is
  // UB's first byte: an unset address reads there). es = 4: dst block k element e = src block
  // (k & 1) * 8 + e element k >> 1 (16 x 8 words -> 8 rows of 16, two blocks a row); es = 2: dst block
  // k element e = src block e element k; es = 1: dst block k byte dh * 16 + e = src block e byte
  // sh * 16 + k (a 16 x 16 quarter of a 32 x 32 byte transpose, dh / sh choosing the halves).
  void scatter_vnchwconv(unsigned es, const std::uint64_t (&dst)[16], const std::uint64_t (&src)[16], unsigned repeat,
                         unsigned dst_stride, unsigned src_stride, bool dst_high = false, bool src_high = false) {
    field("scatter_vnchwconv", "repeat", repeat);
    for (unsigned v : {dst_stride, src_stride})
      if (v > 0xFFFF) detail::fail(instruction_, ": scatter_vnchwconv repeat stride ", v, " does not fit its 16-bit field");
    if (trace_) trace_->add({.op = Intrinsic::vnchwconv, .repeats = repeat});
    const auto base = reinterpret_cast<std::uintptr_t>(ub_);
    for (unsigned r = 0; r < repeat; ++r) {
      std::byte in[16][32];
      for (unsigned j = 0; j < 16; ++j) {
        const std::uintptr_t a = base + src[j] + std::uintptr_t(r) * src_stride * 32;
        in_ub("scatter_vnchwconv", "reads", a, a + 32);
        if (execute_) std::memcpy(in[j], reinterpret_cast<const void*>(a), 32);
      }
      for (unsigned k = 0; k < 16; ++k) {
        const std::uintptr_t a = base + dst[k] + std::uintptr_t(r) * dst_stride * 32;
        const std::uintptr_t lo = es == 1 && dst_high ? a + 16 : a;  // 8-bit: one half of the block
        in_ub("scatter_vnchwconv", "writes", lo, es == 1 ? lo + 16 : a + 32);
        if (!execute_) continue;
        auto* out = reinterpret_cast<std::byte*>(a);
        if (es == 4)
          for (unsigned e = 0; e < 8; ++e) std::memcpy(out + 4 * e, in[(k & 1) * 8 + e] + 4 * (k >> 1), 4);
        else if (es == 2)
          for (unsigned e = 0; e < 16; ++e) std::memcpy(out + 2 * e, in[e] + 2 * k, 2);
        else
          for (unsigned e = 0; e < 16; ++e) out[(dst_high ? 16 : 0) + e] = in[e][(src_high ? 16 : 0) + k];
      }
    }
  }

  // vbitsort(dst, src, idx, repeat): per repeat r, the 32 values of T at src + 32 r with the 32 indices
  // at idx + 32 r, sorted into 32 records at dst + 32 r records (records.hpp). Mask-independent.
  template <class T>  // float or half
  void vbitsort(T* dst, const T* src, const std::uint32_t* idx, unsigned repeat) {
    field("vbitsort", "repeat", repeat);
    if (trace_) trace_->add({.op = Intrinsic::vbitsort, .repeats = repeat});
    if (repeat == 0) return;
    const auto s0 = reinterpret_cast<std::uintptr_t>(src), i0 = reinterpret_cast<std::uintptr_t>(idx),
               d0 = reinterpret_cast<std::uintptr_t>(dst);
    in_ub("vbitsort", "reads", s0, s0 + std::uintptr_t(repeat) * 32 * sizeof(T));
    in_ub("vbitsort", "reads", i0, i0 + std::uintptr_t(repeat) * 32 * 4);
    in_ub("vbitsort", "writes", d0, d0 + std::uintptr_t(repeat) * 32 * 8);
    if (execute_)
      records::bitsort(dtype_v<T>, reinterpret_cast<std::byte*>(dst), reinterpret_cast<const std::byte*>(src),
                       reinterpret_cast<const std::byte*>(idx), repeat);
  }
  // vgather(dst, offsets, base, 8, 1) in counter mode: lane k of the N counted is the U at base +
  // offsets[k] bytes (U: uint16_t or uint32_t). Priced as 32-bit lanes (64 per repeat: the offsets'
  // width). The offsets are read whole first (the 32-bit form gathers in place over them).
  template <class U>
  void vgather(U* dst, const std::uint32_t* offsets, const std::byte* base) {
    if (!counter_) detail::fail(instruction_, ": vgather is modelled in counter mode only (PTO issues it so)");
    const std::uint64_t n = mask_[0];
    if (trace_)
      trace_->add({.op = Intrinsic::vgather, .count_mode = true, .lanes = std::uint16_t(n % 64), .repeats = std::uint32_t((n + 63) / 64)});
    if (n == 0) return;
    const auto o0 = reinterpret_cast<std::uintptr_t>(offsets), d0 = reinterpret_cast<std::uintptr_t>(dst);
    in_ub("vgather", "reads", o0, o0 + n * 4);
    in_ub("vgather", "writes", d0, d0 + n * sizeof(U));
    if (!execute_) return;
    std::vector<std::uint32_t> off(n);
    std::memcpy(off.data(), offsets, n * 4);
    for (std::uint64_t k = 0; k < n; ++k) {
      const auto a = reinterpret_cast<std::uintptr_t>(base) + off[k];
      in_ub("vgather", "reads", a, a + sizeof(U));
      std::memcpy(reinterpret_cast<std::byte*>(dst) + k * sizeof(U), reinterpret_cast<const void*>(a), sizeof(U));
    }
  }
  // vmrgsort4(dst, addr, count, config) (records::vms4_args); VMS4_SR (get_vms4_sr) receives the
  // records taken from each list.
  template <class T>
  void vmrgsort4(T* dst, const T* const* addr, std::uint64_t count, std::uint64_t config) {
    const records::Vms4 a = records::vms4_args(count, config);
    if (a.lists == 0) detail::fail(instruction_, ": vmrgsort4's list mask enables no run of lists from list 0");
    const std::byte* at[4] = {};
    for (int l = 0; l < a.lists; ++l) {
      at[l] = reinterpret_cast<const std::byte*>(addr[l]);
      const auto lo = reinterpret_cast<std::uintptr_t>(at[l]);
      in_ub("vmrgsort4", "reads", lo, lo + (std::uintptr_t(a.repeat ? a.repeat - 1 : 0) * a.sum + a.n[l]) * 8);
    }
    if (trace_) trace_->add({.op = Intrinsic::vmrgsort4, .repeats = records::vms4_priced_repeats(a, at)});
    const auto d0 = reinterpret_cast<std::uintptr_t>(dst);
    in_ub("vmrgsort4", "writes", d0, d0 + std::uintptr_t(a.repeat) * a.sum * 8);
    if (execute_) vms4_sr_ = records::mrgsort4(dtype_v<T>, reinterpret_cast<std::byte*>(dst), at, a);
  }
  std::uint64_t get_vms4_sr() const { return vms4_sr_; }

  // The scalar unit's side of a kernel: a V->S flag (the vector pipe's writes become visible), scalar
  // work, an S->V flag. Priced as one round trip (the flags overlap the vector pipe's drain).
  void scalar_round_trip() {
    if (trace_) trace_->add({.op = Intrinsic::sync_roundtrip});
  }
  // A scalar read of one UB element (between the flags of a round trip).
  template <class T>
  T scalar_read(const T* p) const {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    in_ub("the scalar unit", "reads", a, a + sizeof(T));
    T v{};
    if (execute_) std::memcpy(&v, p, sizeof(T));
    return v;
  }
  // The scalar unit's element loop (integer TDIVS): rows x cols elements read from src and written to
  // dst one at a time (in place is fine), row strides in elements.
  template <class T, class F>
  void scalar_loop(T* dst, const T* src, int rows, int cols, int dst_stride, int src_stride, F f) {
    if (rows <= 0 || cols <= 0) return;
    if (trace_) trace_->add({.op = Intrinsic::scalar_elem, .repeats = std::uint32_t(std::uint64_t(rows) * std::uint64_t(cols))});
    const auto d0 = reinterpret_cast<std::uintptr_t>(dst), s0 = reinterpret_cast<std::uintptr_t>(src);
    in_ub("the scalar unit", "reads", s0, s0 + (std::size_t(rows - 1) * src_stride + cols) * sizeof(T));
    in_ub("the scalar unit", "writes", d0, d0 + (std::size_t(rows - 1) * dst_stride + cols) * sizeof(T));
    if (!execute_) return;
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) dst[std::size_t(i) * dst_stride + j] = f(src[std::size_t(i) * src_stride + j]);
  }

  // The scalar unit folding n UB elements into one (the integer row reductions' last block): reads
  // src[0, n), writes *dst; f(acc, x) in T, starting from src[0].
  template <class T, class F>
  void scalar_fold(T* dst, const T* src, unsigned n, F f) {
    if (trace_) trace_->add({.op = Intrinsic::scalar_elem, .repeats = n});
    const auto s0 = reinterpret_cast<std::uintptr_t>(src), d0 = reinterpret_cast<std::uintptr_t>(dst);
    in_ub("the scalar unit", "reads", s0, s0 + n * sizeof(T));
    in_ub("the scalar unit", "writes", d0, d0 + sizeof(T));
    if (!execute_ || n == 0) return;
    T acc = src[0];
    for (unsigned i = 1; i < n; ++i) acc = f(acc, src[i]);
    *dst = acc;
  }

  // vconv_s322f32 / vconv_s162f16 (integer to float, round to nearest even) and vconv_f322s32z /
  // vconv_f162s16z (float to integer toward zero, saturating, NaN to 0): (dst, src, repeat, dbs, sbs,
  // drs, srs) with the source strides in Strides::abs / ars.
  template <class D, class S>
  void vconv(D* dst, const S* src, unsigned repeat, Strides s) {
    static_assert(sizeof(D) == sizeof(S), "vconv: the A2/A3 conversions used here keep the lane width");
    lanes<D, S>(Intrinsic::vconv, dst, src, static_cast<const S*>(nullptr), repeat, s,
                [](C<D>& d, C<S> x, C<S>) { d = convert<D>(x); }, false);
  }

  // TCVT's vconv_<src>2<dst><mode> and vconv_deq (dst, src, repeat, dbs, sbs, drs, srs; source strides
  // in Strides::abs / ars): 256 / the wider element's bytes lanes per repeat (128 when a side is
  // int4b); each active lane converted from its exact value, rounded by `m` and saturated by `sat` (the
  // intrinsic's suffix and CTRL bit 59) by the CPU reference's element rule (backends/common/convert.hpp).
  // A source that overlaps dst is read from a copy taken before the call (the chip reads ahead).
  void vconv(DType dd, void* dst, DType sd, const void* src, unsigned repeat, Strides s, RoundMode m, SaturationMode sat) {
    const bool packed = is_packed4(dd) || is_packed4(sd);
    const unsigned epr = packed ? 128 : unsigned(256 / std::max(size_of(dd), size_of(sd)));
    const char* name = "vconv";
    const RepeatShape sh = shape_of(name, epr, repeat);
    auto per_block = [](DType t) { return is_packed4(t) ? 64u : unsigned(32 / size_of(t)); };
    const unsigned bd = per_block(dd), bs = per_block(sd);
    if (sh.reps > 1)
      for (unsigned v : {s.drs, s.ars}) field(name, "repeat stride", v);
    if (sh.top > std::min(bd, bs))
      for (unsigned v : {s.dbs, s.abs}) field(name, "block stride", v);
    if (trace_)
      trace_->add({.op = Intrinsic::vconv, .lanes = std::uint16_t(sh.top % epr), .repeats = sh.reps,
                   .strides = {std::uint16_t(s.dbs), std::uint16_t(s.abs), 0, std::uint16_t(s.drs), std::uint16_t(s.ars), 0}});
    if (sh.reps == 0 || sh.top == 0) return;
    // The 32-byte block lane (r, k) of an operand lies in (per_block: its elements, nibbles for int4b).
    auto block = [](std::uintptr_t base, unsigned r, unsigned k, unsigned rs, unsigned bstride, unsigned be) {
      return base + (std::uintptr_t(r) * rs + std::uintptr_t(k / be) * bstride) * 32;
    };
    auto end_of = [&](std::uintptr_t base, unsigned rs, unsigned bstride, unsigned be, DType t) {
      const unsigned k = sh.top - 1;
      const std::size_t in_block = is_packed4(t) ? (k % be) / 2 + 1 : (k % be + 1) * size_of(t);
      return block(base, sh.reps - 1, k, rs, bstride, be) + in_block;
    };
    const auto d0 = reinterpret_cast<std::uintptr_t>(dst), s0 = reinterpret_cast<std::uintptr_t>(src);
    const std::uintptr_t d_hi = end_of(d0, s.drs, s.dbs, bd, dd), s_hi = end_of(s0, s.ars, s.abs, bs, sd);
    in_ub(name, "writes", d0, d_hi);
    in_ub(name, "reads", s0, s_hi);
    if (!execute_) return;
    thread_local std::vector<std::byte> keep;
    std::uintptr_t from = s0;
    if (s0 < d_hi && d0 < s_hi) {
      keep.assign(reinterpret_cast<const std::byte*>(s0), reinterpret_cast<const std::byte*>(s_hi));
      from = reinterpret_cast<std::uintptr_t>(keep.data());
    }
    auto run = [&](auto zero) {
      for (unsigned r = 0; r < sh.reps; ++r)
        for (unsigned k = 0; k < sh.top; ++k)
          if (sh.active[k])
            pto::convert::element<decltype(zero)>(sd, reinterpret_cast<const std::byte*>(block(from, r, k, s.ars, s.abs, bs)), int(k % bs), dd,
                                                  reinterpret_cast<std::byte*>(block(d0, r, k, s.drs, s.dbs, bd)), int(k % bd), m, sat);
    };
    if (size_of(dd) == 8 || size_of(sd) == 8) run((long double)0);  // 64-bit values need long double
    else run(0.0);
  }

  // vcadd / vcmax / vcmin (dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride; vcmax/vcmin
  // ONLY_VALUE): each repeat's active lanes reduced to one element (lanes::reduce_tree), written at
  // dst + r * dstRepStride elements. `group`: vcgadd / vcgmax / vcgmin, one result per 32-byte block,
  // the repeat's 8 written contiguously at dst + r * dstRepStride blocks. Strides are 16-bit fields.
  template <lanes::BinOp O, class T>
  void reduce(Intrinsic id, T* dst, const T* src, unsigned repeat, unsigned drs, unsigned sbs, unsigned srs, bool group = false) {
    constexpr unsigned epr = 256 / sizeof(T), be = 32 / sizeof(T);
    const char* name = intrinsic_name(id);
    const RepeatShape sh = shape_of(name, epr, repeat);
    for (unsigned v : {drs, sbs, srs})
      if (v > 65535) detail::fail(instruction_, ": ", name, " stride ", v, " does not fit its 16-bit field (at most 65535)");
    if (trace_)
      trace_->add({.op = id, .count_mode = counter_, .lanes = std::uint16_t((counter_ ? sh.last : sh.top) % epr),
                   .repeats = sh.reps, .strides = {0, std::uint16_t(sbs), 0, std::uint16_t(drs), std::uint16_t(srs), 0}});
    if (sh.reps == 0 || sh.top == 0) return;
    auto lane = [&](unsigned r, unsigned k) {
      return reinterpret_cast<std::uintptr_t>(src) + (std::uintptr_t(r) * srs + std::uintptr_t(k / be) * sbs) * 32 + (k % be) * sizeof(T);
    };
    const unsigned top_last = counter_ ? sh.last : sh.top;
    std::uintptr_t s_hi = lane(sh.reps - 1, top_last - 1) + sizeof(T);
    if (counter_ && sh.reps > 1) s_hi = std::max(s_hi, lane(sh.reps - 2, epr - 1) + sizeof(T));
    in_ub(name, "reads", reinterpret_cast<std::uintptr_t>(src), s_hi);
    const auto d0 = reinterpret_cast<std::uintptr_t>(dst);
    const std::uintptr_t d_hi = group ? d0 + (std::uintptr_t(sh.reps - 1) * drs) * 32 + 8 * sizeof(T)
                                      : d0 + (std::uintptr_t(sh.reps - 1) * drs + 1) * sizeof(T);
    in_ub(name, "writes", d0, d_hi);
    if (!execute_) return;
    T x[epr], out[8];
    for (unsigned r = 0; r < sh.reps; ++r) {
      const unsigned n = (counter_ && r + 1 == sh.reps) ? sh.last : epr;
      unsigned got = 0, outs = 0;
      for (unsigned blk = 0; blk * be < n; ++blk) {
        for (unsigned k = blk * be; k < std::min(n, (blk + 1) * be); ++k)
          if (sh.active[k]) std::memcpy(&x[got++], reinterpret_cast<const void*>(lane(r, k)), sizeof(T));
        if (group && got) out[outs++] = lanes::reduce_tree<O, T>(x, int(got)), got = 0;
      }
      if (group) std::memcpy(reinterpret_cast<std::byte*>(dst) + std::size_t(r) * drs * 32, out, outs * sizeof(T));
      else if (got) dst[std::size_t(r) * drs] = lanes::reduce_tree<O, T>(x, int(got));
    }
  }

  // set_cmpmask(src): the 128-bit CMPMASK register loaded from UB (TSEL puts the mask tensor's UB
  // address there, TSELS the scalar).
  void set_cmpmask(const void* src) {
    const auto a = reinterpret_cast<std::uintptr_t>(src);
    in_ub("set_cmpmask", "reads", a, a + 16);
    if (execute_) std::memcpy(cmpmask_, src, 16);
  }
  // vsel(dst, src0, src1, repeat, ..., mode) in counter mode over the counted elements, contiguous
  // operands. Mode 2 (tensor-tensor): bit k of the mask tensor at the UB address in CMPMASK picks src0
  // (1) or src1 (0); mode 1 (tensor-scalar): the bits are read from `src1`, and 0 picks CMPMASK's low
  // sizeof(T) bytes. Bits are least significant first in each byte.
  template <class T>
  void vsel(T* dst, const T* src0, const void* src1, int mode) {
    constexpr unsigned epr = 256 / sizeof(T);
    if (!counter_) detail::fail(instruction_, ": vsel is modelled in counter mode only (the mode PTO's TSEL and TSELS use)");
    const std::uint64_t n = mask_[0];
    if (trace_)
      trace_->add({.op = Intrinsic::vsel, .count_mode = true, .lanes = std::uint16_t(n % epr), .repeats = std::uint32_t((n + epr - 1) / epr),
                   .strides = {1, 1, 1, 8, 8, 8}});
    if (n == 0) return;
    const auto d0 = reinterpret_cast<std::uintptr_t>(dst), a0 = reinterpret_cast<std::uintptr_t>(src0);
    std::uint32_t mask_at = 0;
    std::memcpy(&mask_at, cmpmask_, 4);
    const auto m0 = mode == 2 ? reinterpret_cast<std::uintptr_t>(ub_) + mask_at : reinterpret_cast<std::uintptr_t>(src1);
    in_ub("vsel", "writes", d0, d0 + n * sizeof(T));
    in_ub("vsel", "reads", a0, a0 + n * sizeof(T));
    if (execute_ || mode == 1) in_ub("vsel", "reads the mask at", m0, m0 + (n + 7) / 8);
    if (mode == 2) in_ub("vsel", "reads", reinterpret_cast<std::uintptr_t>(src1), reinterpret_cast<std::uintptr_t>(src1) + n * sizeof(T));
    if (!execute_) return;
    const auto* bits = reinterpret_cast<const std::uint8_t*>(m0);
    const T* b = static_cast<const T*>(src1);
    T scalar;
    std::memcpy(&scalar, cmpmask_, sizeof(T));
    std::vector<T> out(n);
    for (std::uint64_t k = 0; k < n; ++k) out[k] = (bits[k / 8] >> (k % 8)) & 1u ? src0[k] : mode == 2 ? b[k] : scalar;
    std::memcpy(dst, out.data(), n * sizeof(T));
  }
  // The scalar unit's store of one element (TSELS puts its scalar into tmp for set_cmpmask).
  template <class T>
  void scalar_write(T* p, T v) {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    in_ub("the scalar unit", "writes", a, a + sizeof(T));
    if (execute_) std::memcpy(p, &v, sizeof(T));
  }
  std::byte* ub_base() const { return ub_; }

  // An 8-bit intrinsic field: a value beyond 255 would be truncated by the chip.
  void field(const char* intrinsic, const char* what, std::uint64_t v) const {
    if (v > 255)
      detail::fail(instruction_, ": ", intrinsic, " ", what, " ", v, " does not fit its 8-bit field (at most 255); the chip "
                   "would silently use ", v % 256, " and compute on the wrong bytes");
  }

private:
  // The repeats an intrinsic runs and the lanes active in them: counter mode takes the repeat count
  // from the element count (the last repeat partial), norm mode from `repeat` under the mask.
  struct RepeatShape {
    unsigned reps = 0, last = 0, top = 0;  // repeats; active lanes of the last one (counter); highest active lane + 1
    bool all_active = false;
    bool active[128];
  };
  RepeatShape shape_of(const char* name, unsigned epr, unsigned repeat) const {
    RepeatShape sh;
    if (counter_) {
      const std::uint64_t n = mask_[0];
      sh.reps = unsigned((n + epr - 1) / epr);
      sh.last = unsigned(n - std::uint64_t(sh.reps ? sh.reps - 1 : 0) * epr);
    } else {
      field(name, "repeat", repeat);
      sh.reps = repeat;
      sh.last = epr;
    }
    // 32-bit lanes use only MASK[0]: a mask with lanes beyond 64 (TBinSInstr's tail pass with more
    // than 64 columns, spec §6 item 8) silently drops those columns on the chip.
    if (!counter_ && epr <= 64 && cont_lanes_ > 64)
      detail::fail(instruction_, ": ", name, " runs with a mask of more than 64 lanes for a 32-bit type; the chip reads only "
                   "the low mask word and would silently skip lanes 64 and up");
    // Active lanes of a full repeat (norm: the mask; 32-bit types use only its low word).
    sh.all_active = counter_ || (mask_[0] == ~0ull && (epr <= 64 || mask_[1] == ~0ull));
    if (sh.all_active) {
      std::fill(sh.active, sh.active + epr, true);
      sh.top = epr;
    } else {
      for (unsigned k = 0; k < epr; ++k) {
        sh.active[k] = k < 64 ? (mask_[0] >> k) & 1 : (epr > 64 && ((mask_[1] >> (k - 64)) & 1));
        if (sh.active[k]) sh.top = k + 1;
      }
    }
    return sh;
  }

  // Lane k of repeat r of an operand with element size sz: base + (r*rs + (k/BE)*bs)*32 + (k%BE)*sz.
  // D: dst element type; S: source element type (the widening vaxpy reads half sources under float
  // lanes: 64 lanes per repeat, 16 source elements per block).
  template <class D, class S, class F>
  void lanes(Intrinsic id, D* dst, const S* a, const S* b, unsigned repeat, Strides s, F f, bool reads_dst) {
    constexpr unsigned epr = 256 / sizeof(D), be_d = 32 / sizeof(D), be_s = 32 / sizeof(S);
    const char* name = intrinsic_name(id);
    const RepeatShape sh = shape_of(name, epr, repeat);
    const unsigned reps = sh.reps, last = sh.last, top = sh.top;
    const bool all_active = sh.all_active;
    const bool* active = sh.active;
    // Strides are 8-bit fields too; they matter only when a second block or repeat uses them.
    if (reps > 1)
      for (unsigned v : {s.drs, a ? s.ars : 0u, b ? s.brs : 0u}) field(name, "repeat stride", v);
    if ((counter_ ? (reps > 1 ? epr : last) : top) > be_d)
      for (unsigned v : {s.dbs, a ? s.abs : 0u, b ? s.bbs : 0u}) field(name, "block stride", v);
    const unsigned lanes_last = counter_ ? last : top;
    if (trace_)
      trace_->add({.op = id, .count_mode = counter_, .lanes = std::uint16_t(lanes_last % epr), .repeats = reps,
                   .strides = {std::uint16_t(s.dbs), std::uint16_t(a ? s.abs : 0), std::uint16_t(b ? s.bbs : 0),
                               std::uint16_t(s.drs), std::uint16_t(a ? s.ars : 0), std::uint16_t(b ? s.brs : 0)}});  // 0: no such operand
    if (reps == 0 || top == 0) return;
    // The bytes each operand spans (lanes are monotone in r and k for non-negative strides).
    auto span = [&](std::uintptr_t base, unsigned bs, unsigned rs, unsigned be, std::size_t sz) {
      auto end = [&](unsigned r, unsigned k) { return base + (std::uintptr_t(r) * rs + std::uintptr_t(k / be) * bs) * 32 + (k % be + 1) * sz; };
      std::uintptr_t hi = end(reps - 1, (counter_ ? last : top) - 1);
      if (counter_ && reps > 1) hi = std::max(hi, end(reps - 2, epr - 1));
      return hi;
    };
    const auto d0 = reinterpret_cast<std::uintptr_t>(dst);
    in_ub(name, "writes", d0, span(d0, s.dbs, s.drs, be_d, sizeof(D)));
    if (a) in_ub(name, "reads", reinterpret_cast<std::uintptr_t>(a), span(reinterpret_cast<std::uintptr_t>(a), s.abs, s.ars, be_s, sizeof(S)));
    if (b) in_ub(name, "reads", reinterpret_cast<std::uintptr_t>(b), span(reinterpret_cast<std::uintptr_t>(b), s.bbs, s.brs, be_s, sizeof(S)));
    if (!execute_) return;
    // A source that overlaps dst with a different layout (dst over the block operand of a row
    // expansion, say) would see an earlier repeat's results in a later repeat if repeats ran strictly
    // one after another; the reference kernels rely on the chip reading ahead, so such a source is read
    // from a copy taken before the call, as the CPU reference reads it.
    const std::uintptr_t d_hi = span(d0, s.dbs, s.drs, be_d, sizeof(D));
    auto detach = [&](const S*& src, unsigned bs, unsigned rs, std::vector<std::byte>& keep) {
      if (!src) return;
      const auto lo = reinterpret_cast<std::uintptr_t>(src), hi = span(lo, bs, rs, be_s, sizeof(S));
      const bool same = lo == d0 && sizeof(D) == sizeof(S) && bs == s.dbs && rs == s.drs;
      if (same || hi <= d0 || d_hi <= lo) return;
      keep.assign(reinterpret_cast<const std::byte*>(lo), reinterpret_cast<const std::byte*>(hi));
      src = reinterpret_cast<const S*>(keep.data());
    };
    thread_local std::vector<std::byte> keep_a, keep_b;
    detach(a, s.abs, s.ars, keep_a);
    detach(b, s.bbs, s.brs, keep_b);
    D out[epr];
    S xa[epr], xb[epr];
    C<D> co[epr];
    C<S> ca[epr], cb[epr];
    bool full[8];  // every lane of this destination block active (under the mask)
    if (all_active) {  // every computed lane (k < n) is gathered
      std::fill(std::begin(full), std::end(full), true);
    } else {
      std::fill(std::begin(xa), std::end(xa), S{});  // lanes never gathered still compute on defined values
      std::fill(std::begin(xb), std::end(xb), S{});
      std::fill(std::begin(out), std::end(out), D{});
      for (unsigned blk = 0; blk < 8; ++blk) {
        full[blk] = true;
        for (unsigned k = blk * be_d; k < (blk + 1) * be_d; ++k) full[blk] = full[blk] && active[k];
      }
    }
    auto at = [](const void* base, unsigned r, unsigned k, unsigned rs, unsigned bs, unsigned be, std::size_t sz) {
      return static_cast<const std::byte*>(base) + (std::size_t(r) * rs + std::size_t(k / be) * bs) * 32 + (k % be) * sz;
    };
    for (unsigned r = 0; r < reps; ++r) {
      const unsigned n = (counter_ && r + 1 == reps) ? last : epr;
      // Gather every input of the repeat first: in-place operands read the old values. Whole active
      // blocks move 32 bytes at a time (one block of dst is one block of each same-width source).
      for (unsigned blk = 0; blk * be_d < n; ++blk) {
        const unsigned k0 = blk * be_d;
        if (full[blk] && k0 + be_d <= n) {  // a dst block's lanes are contiguous in each source too
          if (a) std::memcpy(&xa[k0], at(a, r, k0, s.ars, s.abs, be_s, sizeof(S)), be_d * sizeof(S));
          if (b) std::memcpy(&xb[k0], at(b, r, k0, s.brs, s.bbs, be_s, sizeof(S)), be_d * sizeof(S));
          if (reads_dst) std::memcpy(&out[k0], at(dst, r, k0, s.drs, s.dbs, be_d, sizeof(D)), 32);
          continue;
        }
        for (unsigned k = k0; k < std::min(n, k0 + be_d); ++k) {
          if (!active[k]) continue;
          if (a) std::memcpy(&xa[k], at(a, r, k, s.ars, s.abs, be_s, sizeof(S)), sizeof(S));
          if (b) std::memcpy(&xb[k], at(b, r, k, s.brs, s.bbs, be_s, sizeof(S)), sizeof(S));
          if (reads_dst) std::memcpy(&out[k], at(dst, r, k, s.drs, s.dbs, be_d, sizeof(D)), sizeof(D));
        }
      }
      if (a) widen(xa, ca, n);
      if (b) widen(xb, cb, n);
      if (reads_dst) widen(out, co, n);
      // Every lane computes (inactive ones on stale inputs) so the loop vectorises; only active
      // lanes are stored. An absent operand reads zeros.
      static constexpr C<S> kZero[epr] = {};
      const C<S>* pa = a ? ca : kZero;
      const C<S>* pb = b ? cb : kZero;
      for (unsigned k = 0; k < n; ++k) f(co[k], pa[k], pb[k]);
      narrow(co, out, n);
      for (unsigned blk = 0; blk * be_d < n; ++blk) {
        const unsigned k0 = blk * be_d;
        if (full[blk] && k0 + be_d <= n) {
          std::memcpy(const_cast<std::byte*>(at(dst, r, k0, s.drs, s.dbs, be_d, sizeof(D))), &out[k0], 32);
          continue;
        }
        for (unsigned k = k0; k < std::min(n, k0 + be_d); ++k)
          if (active[k]) std::memcpy(const_cast<std::byte*>(at(dst, r, k, s.drs, s.dbs, be_d, sizeof(D))), &out[k], sizeof(D));
      }
    }
  }
  template <class D, class X>
  static C<D> convert(X x) {
    if constexpr (std::is_integral_v<D> && !std::is_integral_v<X>) {
      if (x != x) return 0;  // NaN
      const double t = std::trunc(double(x));
      if (t <= double(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
      if (t >= double(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
      return D(t);
    } else {
      return C<D>(x);
    }
  }
  // Lanes to the compute type and back: half through F16C eight lanes at a time.
  template <class T>
  static void widen(const T* in, C<T>* out, unsigned n) {
    if constexpr (std::is_same_v<T, half>) lanes::to_float(in, out, int(n));
    else std::copy(in, in + n, out);
  }
  template <class T>
  static void narrow(const C<T>* in, T* out, unsigned n) {
    if constexpr (std::is_same_v<T, half>) lanes::from_float(in, out, int(n));
    else std::copy(in, in + n, out);
  }

  void in_ub(const char* intrinsic, const char* verb, std::uintptr_t lo, std::uintptr_t hi) const {
    device::UbWindow{ub_, ub_bytes_, instruction_}.check(intrinsic, verb, lo, hi);
  }

  std::byte* ub_;
  std::size_t ub_bytes_;
  const char* instruction_;
  IntrinsicStream* trace_;
  bool execute_;
  bool counter_ = false;
  std::uint64_t mask_[2] = {~0ull, ~0ull};
  unsigned cont_lanes_ = 0;  // lanes the last SetContMaskByDType asked for (0: another mask)
  std::byte cmpmask_[16] = {};  // CMPMASK (set_cmpmask)
  std::uint64_t vms4_sr_ = 0;   // VMS4_SR (vmrgsort4)
};

}  // namespace pto::a2a3
