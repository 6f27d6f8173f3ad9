// The emulated A5 vector register machine (spec §3.8): 256-byte registers (RegTensor), per-lane
// predicates made by plt_* with post-update, loads in NORM / BRC / BLK / UNPK_B16 / DINTLV_B32
// distribution, predicated stores (NORM, INTLV_B32), and arithmetic in MODE_ZEROING (inactive lanes of
// the result are 0). Algorithms reach UB only through vlds / vsts.
//
// The unit counts the intrinsics an instruction issues (one vector-function loop) and hands the
// counts to the pipeline model; built with execute = false it only counts and checks.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <pto/isa/bfloat16.hpp>
#include <pto/isa/dtype.hpp>
#include <pto/isa/error.hpp>
#include <pto/isa/intrinsics.hpp>

#include "../common/convert.hpp"
#include "../common/device_common.hpp"
#include "../common/records.hpp"

namespace pto::a5 {

using device::Fn;

template <class T>
struct Reg {  // `Reg<T> r;` leaves the lanes unset (a load fills them); `Reg<T> r{};` zeroes them
  static constexpr unsigned kLanes = 256 / sizeof(T);
  std::array<T, kLanes> v;
};
struct Mask {  // a plt_* predicate: lanes [0, count) active
  unsigned count = 0;
};
struct Bytes {  // two registers as raw bytes (TCVT's lanes of any type; a predicate's bits)
  std::array<std::byte, 512> b;
};
// The bytes `elems` elements of t take (a packed 4-bit type: two per byte, rounded up).
inline std::size_t bytes_of(DType t, unsigned elems) { return is_packed4(t) ? (elems + 1) / 2 : std::size_t(elems) * size_of(t); }

class RegisterUnit {
public:
  RegisterUnit(std::byte* ub, std::size_t ub_bytes, const char* instruction, IntrinsicStream* trace, bool execute)
      : ub_(ub), ub_bytes_(ub_bytes), instruction_(instruction), trace_(trace), execute_(execute) {}
  ~RegisterUnit() = default;
  RegisterUnit(const RegisterUnit&) = delete;
  RegisterUnit& operator=(const RegisterUnit&) = delete;

  bool executes() const { return execute_; }

  // Appends the counted intrinsics to the stream, one entry per intrinsic (a loop's totals).
  void flush() {
    if (!trace_) return;
    for (int i = 0; i < kNumIntrinsics; ++i)
      if (counts_[std::size_t(i)]) trace_->add({.op = Intrinsic(i), .repeats = std::uint32_t(counts_[std::size_t(i)])});
    counts_.fill(0);
  }

  // plt_b{8,16,32}(n, POST_UPDATE): lanes [0, min(n, EPR)) active, n -= that.
  template <class T>
  Mask plt(std::uint32_t& n) {
    count(Intrinsic::plt);
    Mask m;
    m.count = std::min<std::uint32_t>(n, Reg<T>::kLanes);
    n -= m.count;
    return m;
  }

  // The predicate of a 64-bit chunk (32 elements as register pairs): lanes [0, min(n, 32)).
  Mask plt64(std::uint32_t& n) {
    count(Intrinsic::plt);
    Mask m;
    m.count = std::min<std::uint32_t>(n, 32);
    n -= m.count;
    return m;
  }

  // vlds NORM: lanes = base[off, off + EPR) (the whole register is read, whatever the predicate).
  // Lanes past the end of UB read as 0 (a tile in UB's last bytes; those lanes are never stored).
  template <class T>
  Reg<T> vlds(const T* base, std::size_t off) {
    count(Intrinsic::vlds);
    in_ub("vlds", "reads", base + off, base + off + 1);
    Reg<T> r;
    if (!execute_) return Reg<T>{};  // recording: nothing is read
    if (execute_) {
      const auto from = reinterpret_cast<const std::byte*>(base + off);
      const std::size_t n = std::size_t(ub_ + ub_bytes_ - from);
      if (n >= 256) {
        std::memcpy(r.v.data(), from, 256);  // a constant size: vector moves, not a string copy
      } else {
        std::memcpy(r.v.data(), from, n);
        std::memset(reinterpret_cast<std::byte*>(r.v.data()) + n, 0, 256 - n);
      }
    }
    return r;
  }
  // vlds BRC_B*: every lane = base[off].
  template <class T>
  Reg<T> vlds_brc(const T* base, std::size_t off) {
    count(Intrinsic::vlds);
    in_ub("vlds BRC", "reads", base + off, base + off + 1);
    Reg<T> r;
    if (!execute_) return Reg<T>{};  // recording: nothing is read
    if (execute_) r.v.fill(base[off]);
    return r;
  }
  // vlds BLK: the 32-byte block at base + off replicated into all 8 blocks.
  template <class T>
  Reg<T> vlds_blk(const T* base, std::size_t off) {
    count(Intrinsic::vlds);
    constexpr unsigned be = 32 / sizeof(T);
    in_ub("vlds BLK", "reads", base + off, base + off + be);
    Reg<T> r;
    if (!execute_) return Reg<T>{};  // recording: nothing is read
    if (execute_)
      for (unsigned k = 0; k < Reg<T>::kLanes; ++k) r.v[k] = base[off + k % be];
    return r;
  }
  // vlds UNPK_B16 then vcvt PART_EVEN: 64 consecutive halves widened exactly into f32 lanes.
  Reg<float> vlds_unpk_cvt(const half* base, std::size_t off) {
    count(Intrinsic::vlds);
    count(Intrinsic::vcvt);
    in_ub("vlds UNPK_B16", "reads", base + off, base + off + 64);
    Reg<float> r;
    if (!execute_) return Reg<float>{};  // recording: nothing is read
    if (execute_)
      for (unsigned k = 0; k < 64; ++k) r.v[k] = float(base[off + k]);
    return r;
  }
  // vlds DINTLV_B32 of 64-bit elements: 32 elements as a low-word and a high-word register.
  template <class T>  // int64_t / uint64_t
  void vlds_dintlv(const T* base, std::size_t off, Reg<std::uint32_t>& lo, Reg<std::uint32_t>& hi) {
    count(Intrinsic::vlds, 2);
    in_ub("vlds DINTLV_B32", "reads", base + off, base + off + 1);  // as NORM: lanes past UB read 0
    if (!execute_) return;
    const auto* p = reinterpret_cast<const std::byte*>(base + off);
    const auto n = unsigned(std::min<std::size_t>(32, std::size_t(ub_ + ub_bytes_ - p) / 8));
    std::uint64_t x[32];
    std::memcpy(x, p, n * 8);
    std::fill(x + n, x + 32, 0);
    for (unsigned k = 0; k < 32; ++k) {
      lo.v[k] = std::uint32_t(x[k]);
      hi.v[k] = std::uint32_t(x[k] >> 32);
    }
  }

  // vsts NORM under a predicate: only active lanes are written.
  template <class T>
  void vsts(const Reg<T>& r, T* base, std::size_t off, const Mask& m) {
    count(Intrinsic::vsts);
    if (m.count == 0) return;
    in_ub("vsts", "writes", base + off, base + off + m.count);
    if (execute_) std::memcpy(base + off, r.v.data(), m.count * sizeof(T));
  }
  // vsts INTLV_B32: the low and high words back into 32 64-bit elements, active lanes only.
  template <class T>
  void vsts_intlv(const Reg<std::uint32_t>& lo, const Reg<std::uint32_t>& hi, T* base, std::size_t off, const Mask& m) {
    count(Intrinsic::vsts, 2);
    if (m.count == 0) return;
    in_ub("vsts INTLV_B32", "writes", base + off, base + off + m.count);
    if (!execute_) return;
    std::uint64_t x[32];
    for (unsigned k = 0; k < 32; ++k) x[k] = (std::uint64_t(hi.v[k]) << 32) | lo.v[k];
    std::memcpy(base + off, x, m.count * 8);
  }

  // Element-wise ops, MODE_ZEROING: f over active lanes, 0 elsewhere. f works in the compute type
  // (float for half and bf16, rounded once into the register lane).
  template <class T> using C = std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>, float, T>;
  template <class T, class F>
  Reg<T> binary(Intrinsic id, const Reg<T>& a, const Reg<T>& b, const Mask& m, F f) {
    count(id);
    Reg<T> d{};  // zeroed: the inactive lanes (plt masks are a prefix of the lanes)
    if (execute_)
      for (unsigned k = 0; k < m.count; ++k) d.v[k] = T(f(C<T>(a.v[k]), C<T>(b.v[k])));
    return d;
  }
  template <class T, class F>
  Reg<T> unary(Intrinsic id, const Reg<T>& a, const Mask& m, F f) {
    // Fit (ref §2.6): TEXP f16 takes 3.76 cycles per 128-lane loop, f32 1.97 per 64 lanes: a 16-bit
    // vexp issues as two f32 halves.
    count(id, id == Intrinsic::vexp && sizeof(T) == 2 ? 2 : 1);
    Reg<T> d{};
    if (execute_)
      for (unsigned k = 0; k < m.count; ++k) d.v[k] = T(f(C<T>(a.v[k])));
    return d;
  }
  // vcadd / vcmax / vcmin, MODE_ZEROING: the active lanes reduced into lane 0 (lanes::reduce_tree),
  // the others 0. `issues`: intrinsics counted (8-bit max/min issue two vcvt, two reductions, a vmax
  // and a vcvt on the 16-bit halves; the value is the same).
  template <lanes::BinOp O, class T>
  Reg<T> reduce(Intrinsic id, const Reg<T>& a, const Mask& m) {
    count(id);
    Reg<T> d{};
    if (execute_ && m.count) {
      Reg<T> x = a;
      d.v[0] = lanes::reduce_tree<O, T>(x.v.data(), int(m.count));
    }
    return d;
  }
  // vaxpy(acc, x, scalar, mask): acc = f(acc, x) on active lanes, others unchanged.
  template <class T, class F>
  void axpy(Reg<T>& acc, const Reg<T>& x, const Mask& m, F f) {
    count(Intrinsic::vaxpy);
    if (execute_)
      for (unsigned k = 0; k < m.count; ++k) acc.v[k] = T(f(C<T>(acc.v[k]), C<T>(x.v[k])));
  }
  // vaddc + vaddcs (vsubc + vsubcs): 64-bit add / subtract on register pairs, exact two's complement.
  void add64(Reg<std::uint32_t>& lo, Reg<std::uint32_t>& hi, const Reg<std::uint32_t>& blo, const Reg<std::uint32_t>& bhi,
             const Mask& m, bool subtract) {
    count(subtract ? Intrinsic::vsubc : Intrinsic::vaddc, 2);
    if (!execute_) return;
    for (unsigned k = 0; k < 32; ++k) {
      if (k >= m.count) {
        lo.v[k] = hi.v[k] = 0;
        continue;
      }
      const std::uint64_t a = (std::uint64_t(hi.v[k]) << 32) | lo.v[k], b = (std::uint64_t(bhi.v[k]) << 32) | blo.v[k];
      const std::uint64_t r = subtract ? a - b : a + b;
      lo.v[k] = std::uint32_t(r);
      hi.v[k] = std::uint32_t(r >> 32);
    }
  }
  // 64-bit op on register pairs (spec §3.8.4), exact two's complement; inactive lanes 0. Add / Sub:
  // vaddc + vaddcs / vsubc + vsubcs; Mul: vmull (32x32->64 on the low words) + two cross terms; Max /
  // Min: compare the high words (signed for int64), the low words unsigned, select both halves.
  template <class T, Fn F>  // T: int64_t / uint64_t
  void op64(Reg<std::uint32_t>& lo, Reg<std::uint32_t>& hi, const Reg<std::uint32_t>& blo, const Reg<std::uint32_t>& bhi,
            const Mask& m) {
    if constexpr (F == Fn::Add) count(Intrinsic::vaddc, 2);
    else if constexpr (F == Fn::Sub) count(Intrinsic::vsubc, 2);
    else if constexpr (F == Fn::Mul) count(Intrinsic::vmull, 3);
    else {
      count(Intrinsic::vcmp, 3);
      count(Intrinsic::vsel, 2);
    }
    if (!execute_) return;
    for (unsigned k = 0; k < m.count; ++k) {
      const T a = T((std::uint64_t(hi.v[k]) << 32) | lo.v[k]), b = T((std::uint64_t(bhi.v[k]) << 32) | blo.v[k]);
      const auto r = std::uint64_t(lanes::apply<F, T>(a, b));
      lo.v[k] = std::uint32_t(r);
      hi.v[k] = std::uint32_t(r >> 32);
    }
    for (unsigned k = m.count; k < 32; ++k) lo.v[k] = hi.v[k] = 0;  // MODE_ZEROING
  }
  // vbr: a scalar splat into every lane; 64-bit scalars splat their low and high words (two vbr).
  template <class T>
  Reg<T> vbr(T value) {
    count(Intrinsic::vbr);
    Reg<T> r;
    r.v.fill(value);
    return r;
  }
  void vbr64(std::uint64_t value, Reg<std::uint32_t>& lo, Reg<std::uint32_t>& hi) {
    lo = vbr(std::uint32_t(value));
    hi = vbr(std::uint32_t(value >> 32));
  }
  // ---- TCVT: registers as bytes -------------------------------------------------------------------
  // `elems` elements of type t at p (a packed 4-bit type: nibbles, p at an even element), up to two
  // registers' worth; `loads` vlds counted (a de-interleaving load of 512 bytes is one).
  Bytes vlds_elems(const std::byte* p, DType t, unsigned elems, unsigned loads = 1) {
    count(Intrinsic::vlds, loads);
    in_ub("vlds", "reads", p, p + 1);
    Bytes r{};
    if (execute_ && elems) {
      const std::size_t n = std::min(bytes_of(t, elems), std::size_t(ub_ + ub_bytes_ - p));
      std::memcpy(r.b.data(), p, n);
    }
    return r;
  }
  // vcvt of `elems` lanes: each converted from its exact value, rounded by m and saturated by sat as
  // the CPU reference converts (backends/common/convert.hpp); `issues` vcvt counted (a pair that
  // converts in two parts issues two).
  Bytes vcvt(const Bytes& x, DType sd, DType dd, unsigned elems, RoundMode m, SaturationMode sat, unsigned issues = 1) {
    count(Intrinsic::vcvt, issues);
    Bytes r{};
    if (!execute_) return r;
    auto run = [&](auto zero) {
      for (unsigned k = 0; k < elems; ++k) pto::convert::element<decltype(zero)>(sd, x.b.data(), int(k), dd, r.b.data(), int(k), m, sat);
    };
    if (size_of(sd) == 8 || size_of(dd) == 8) run((long double)0);
    else run(0.0);
    return r;
  }
  // Predicated stores of `elems` elements of type t at p (`stores` vsts counted); a packed 4-bit type's
  // odd last element writes only its nibble.
  void vsts_elems(const Bytes& r, std::byte* p, DType t, unsigned elems, unsigned stores = 1) {
    count(Intrinsic::vsts, stores);
    if (elems == 0) return;
    const std::size_t n = bytes_of(t, elems);
    in_ub("vsts", "writes", p, p + n);
    if (!execute_) return;
    if (is_packed4(t) && elems % 2) {
      std::memcpy(p, r.b.data(), n - 1);
      p[n - 1] = std::byte((unsigned(p[n - 1]) & 0xF0u) | (unsigned(r.b[n - 1]) & 0x0Fu));
    } else {
      std::memcpy(p, r.b.data(), n);
    }
  }

  // ---- TSEL / TSELS --------------------------------------------------------------------------------
  // plds: `bytes` mask bytes at p into a predicate (bit k of the bytes selects lane k); counted as a
  // load. pintlv / punpack (splitting it between two 32-bit chunks) are predicate moves, not priced.
  Bytes plds(const std::byte* p, unsigned bytes) {
    count(Intrinsic::vlds);
    in_ub("plds", "reads", p, p + 1);
    Bytes r{};
    if (execute_) std::memcpy(r.b.data(), p, std::min(std::size_t(bytes), std::size_t(ub_ + ub_bytes_ - p)));
    return r;
  }
  // vsel: lane k = a (predicate bit `first + k` set) or b, over a register of T.
  template <class T>
  Reg<T> vsel(const Reg<T>& a, const Reg<T>& b, const Bytes& pred, unsigned first) {
    count(Intrinsic::vsel);
    Reg<T> d;
    if (!execute_) return Reg<T>{};
    for (unsigned k = 0; k < Reg<T>::kLanes; ++k) {
      const unsigned bit = first + k;
      d.v[k] = (unsigned(pred.b[bit / 8]) >> (bit % 8)) & 1u ? a.v[k] : b.v[k];
    }
    return d;
  }

  // vgather2(base, index, preg): lane k < m.count of the result is base[index[k]] (element indices);
  // the lanes are the index register's (64 for 32-bit indices, 128 for 16-bit), held in the low lanes
  // of a T register (the PK stores write them packed).
  template <class T, class I>
  Reg<T> vgather2(const T* base, const Reg<I>& idx, const Mask& m) {
    count(Intrinsic::vgather);
    Reg<T> r{};
    if (!execute_) return r;
    for (unsigned k = 0; k < m.count; ++k) {
      const T* p = base + std::size_t(idx.v[k]);
      in_ub("vgather2", "reads", p, p + 1);
      std::memcpy(&r.v[k], p, sizeof(T));
    }
    return r;
  }
  // vci(start, INC_ORDER): lane k = start + k, in I's arithmetic.
  template <class I>
  Reg<I> vci(I start) {
    count(Intrinsic::vci);
    Reg<I> r{};
    if (execute_)
      for (unsigned k = 0; k < Reg<I>::kLanes; ++k) r.v[k] = I(start + k);
    return r;
  }
  // v<op>s(dst, src, scalar, preg) on index lanes, MODE_ZEROING: f(lane, k) in I's arithmetic.
  template <class I, class F>
  Reg<I> scalar_op(Intrinsic id, const Reg<I>& a, I k, const Mask& m, F f) {
    count(id);
    Reg<I> d{};
    if (execute_)
      for (unsigned j = 0; j < m.count; ++j) d.v[j] = I(f(a.v[j], k));
    return d;
  }
  // vscatter(src, base, index, preg): base[index[k]] = lane k of src for k < m.count (element indices;
  // 8-bit data in 16-bit index lanes writes a byte a lane).
  template <class T, class I>
  void vscatter(const Reg<T>& r, T* base, const Reg<I>& idx, const Mask& m) {
    count(Intrinsic::vscatter);
    if (!execute_) return;
    for (unsigned k = 0; k < m.count; ++k) {
      T* p = base + std::size_t(idx.v[k]);
      in_ub("vscatter", "writes", p, p + 1);
      std::memcpy(p, &r.v[k], sizeof(T));
    }
  }
  // vsqz(src, preg, MODE_STORED) then vstur (unaligned store, post update): the lanes `keep` selects
  // among the first m.count, packed, stored at `at`, which moves past them. Counted as vsqz + vsts.
  template <class T, class Keep>
  void vsqz_vstur(const Reg<T>& r, const Mask& m, Keep keep, T*& at) {
    count(Intrinsic::vsqz);
    count(Intrinsic::vsts);
    unsigned n = 0;
    for (unsigned k = 0; k < m.count; ++k) n += keep(k) ? 1u : 0u;
    if (n == 0) return;
    in_ub("vstur", "writes", at, at + n);
    if (execute_)
      for (unsigned k = 0, o = 0; k < m.count; ++k)
        if (keep(k)) std::memcpy(at + o++, &r.v[k], sizeof(T));
    at += n;
  }

  // ---- outside the vector function: sorting and UB copies (records.hpp) ----------------------------
  // vbitsort(dst, src, idx, repeat): 32 values with their indices into 32 records per repeat.
  template <class T>  // float or half
  void vbitsort(T* dst, const T* src, const std::uint32_t* idx, unsigned repeat) {
    if (repeat > 255)
      detail::fail(instruction_, ": vbitsort repeat ", repeat, " does not fit its 8-bit field (at most 255)");
    count(Intrinsic::vbitsort, repeat);
    if (repeat == 0) return;
    in_ub("vbitsort", "reads", src, src + std::size_t(repeat) * 32);
    in_ub("vbitsort", "reads", idx, idx + std::size_t(repeat) * 32);
    in_ub("vbitsort", "writes", dst, dst + std::size_t(repeat) * 32 * (8 / sizeof(T)));
    if (execute_)
      records::bitsort(dtype_v<T>, reinterpret_cast<std::byte*>(dst), reinterpret_cast<const std::byte*>(src),
                       reinterpret_cast<const std::byte*>(idx), repeat);
  }
  // vmrgsort4(dst, addr, count, config) (records::vms4_args); VMS4_SR (get_vms4_sr) receives the
  // records taken from each list.
  template <class T>
  void vmrgsort4(T* dst, const T* const* addr, std::uint64_t cnt, std::uint64_t config) {
    const records::Vms4 a = records::vms4_args(cnt, config);
    if (a.lists == 0) detail::fail(instruction_, ": vmrgsort4's list mask enables no run of lists from list 0");
    const std::byte* at[4] = {};
    for (int l = 0; l < a.lists; ++l) {
      at[l] = reinterpret_cast<const std::byte*>(addr[l]);
      in_ub("vmrgsort4", "reads", at[l], at[l] + (std::size_t(a.repeat ? a.repeat - 1 : 0) * a.sum + a.n[l]) * 8);
    }
    count(Intrinsic::vmrgsort4, records::vms4_priced_repeats(a, at));
    auto* d = reinterpret_cast<std::byte*>(dst);
    in_ub("vmrgsort4", "writes", d, d + std::size_t(a.repeat) * a.sum * 8);
    if (execute_) vms4_sr_ = records::mrgsort4(dtype_v<T>, d, at, a);
  }
  std::uint64_t get_vms4_sr() const { return vms4_sr_; }
  // copy_ubuf_to_ubuf(dst, src, 0, nBurst, lenBurst, srcGap, dstGap): nBurst bursts of lenBurst 32-byte
  // blocks, skipping srcGap / dstGap blocks after each.
  void copy_ubuf_to_ubuf(void* dst, const void* src, unsigned n_burst, unsigned len_burst, unsigned src_gap, unsigned dst_gap) {
    count(Intrinsic::copy_ubuf_to_ubuf);
    device::ub_copy({ub_, ub_bytes_, instruction_}, dst, src, n_burst, len_burst, src_gap, dst_gap, execute_);
  }
  // A V -> S flag, the scalar unit's work, an S -> V flag (one round trip).
  void scalar_round_trip() { count(Intrinsic::sync_roundtrip); }

  void vbr() { count(Intrinsic::vbr); }  // a scalar splat (its value travels in the lane function)
  void vloop() { count(Intrinsic::vloop); }
  // An intrinsic whose effect a neighbouring lane function already carries (a conversion a reduction
  // needs on the chip but not on exact values): counted only.
  void also(Intrinsic i, std::uint64_t n = 1) { count(i, n); }  // one iteration of a 2-D vector function's outer loop

private:
  void count(Intrinsic i, std::uint64_t n = 1) { counts_[std::size_t(i)] += n; }
  template <class T>
  void in_ub(const char* intrinsic, const char* verb, const T* lo, const T* hi) const {
    device::UbWindow{ub_, ub_bytes_, instruction_}.check(intrinsic, verb, reinterpret_cast<std::uintptr_t>(lo),
                                                         reinterpret_cast<std::uintptr_t>(hi));
  }

  std::byte* ub_;
  std::size_t ub_bytes_;
  const char* instruction_;
  IntrinsicStream* trace_;
  bool execute_;
  std::array<std::uint64_t, kNumIntrinsics> counts_{};
  std::uint64_t vms4_sr_ = 0;  // VMS4_SR (vmrgsort4)
};

}  // namespace pto::a5
