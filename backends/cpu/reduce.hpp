// Reductions: TROWSUM, TROWMAX, TROWMIN (dst[i][0] = reduce over src row i) and TCOLSUM, TCOLMAX,
// TCOLMIN (dst[0][j] = reduce over src column j), over src's valid region.
//
// Order: max, min and integer sums (wrapping) give one value whatever the order. Float sums do not,
// so they follow the target's algorithm step for step, rounding to T after every add as the lanes do
// (include/pto/npu/*/TRowSum.hpp, TRowReduce.hpp, TColSum.hpp, TColReduceOps.hpp):
//  - TROWSUM, A2/A3: 256-byte chunks of a row are added pairwise into tmp, folded as a tree, then one
//    vcadd; A5: per chunk a vcadd, accumulated chunk after chunk. vcadd itself is lanes::reduce_tree.
//  - TCOLSUM, A2/A3: row after row, or (isBinary) a pairwise tree over rows; A5: row 0, then pairs of
//    rows, or (isBinary) A5's own tree, which folds an odd row into a different partial sum.
// The device paths compute the same values lane for lane.
#pragma once
#include <algorithm>
#include <type_traits>
#include <vector>

#include <pto/backends/kernel_abi.hpp>
#include "elementwise.hpp"

namespace pto::cpu::reduce {

using lanes::combine;
using lanes::reduce_tree;

template <BinOp O, class T>
inline constexpr bool kOrderFree = (O != BinOp::Add && O != BinOp::Mul) || std::is_integral_v<T>;

// d[l] = a[l] O b[l] for l < n (d may be a or b).
template <BinOp O, class T>
void lanewise(T* d, const T* a, const T* b, int n) {
  for (int l = 0; l < n; ++l) d[l] = combine<O, T>(a[l], b[l]);
}

// An order-free reduction of n >= 1 values: 64 lane accumulators (the loop vectorises), then a tree.
template <BinOp O, class T>
T any_order(const T* x, int n) {
  if constexpr (kWidened<T>) {  // max / min of 16-bit floats: exact in float, converted eight at a time
    float f[kChunk];
    float acc = 0;
    for (int j0 = 0; j0 < n; j0 += kChunk) {
      const int m = std::min(kChunk, n - j0);
      to_float(x + j0, f, m);
      const float part = any_order<O, float>(f, m);
      acc = j0 == 0 ? part : apply<O>(acc, part);
    }
    return T(acc);  // one of the inputs: exact
  }
  constexpr int kLanes = 64;
  T acc[kLanes];
  const int m = std::min(n, kLanes);
  std::copy(x, x + m, acc);
  for (int j0 = kLanes; j0 < n; j0 += kLanes) lanewise<O, T>(acc, acc, x + j0, std::min(kLanes, n - j0));
  return reduce_tree<O, T>(acc, m);
}

// A2/A3 float TROWSUM (TRowReduceInstr): E-lane repeats summed pairwise into tmp, the rest folded in.
template <class T>
T a2a3_row_sum(const T* x, int n, std::vector<T>& tmp) {
  constexpr int E = int(256 / sizeof(T));
  constexpr BinOp A = BinOp::Add;
  T buf[E];
  if (n <= E) {
    std::copy(x, x + n, buf);
    return reduce_tree<A, T>(buf, n);
  }
  const int k = n / E, rem = n % E;
  if (n < 2 * E) {  // the first repeat copied to tmp, the tail added under a mask
    std::copy(x, x + E, buf);
    lanewise<A, T>(buf, buf, x + E, rem);
    return reduce_tree<A, T>(buf, E);
  }
  tmp.resize(std::size_t(k / 2) * E);
  T* t = tmp.data();
  for (int i = 0; i < k / 2; ++i) lanewise<A, T>(t + i * E, x + 2 * i * E, x + (2 * i + 1) * E, E);
  if (k % 2) lanewise<A, T>(t, t, x + (k - 1) * E, E);
  if (rem) lanewise<A, T>(t, t, x + k * E, rem);
  for (int cur = k / 2; cur > 1;) {
    for (int i = 0; i < cur / 2; ++i) lanewise<A, T>(t + i * E, t + 2 * i * E, t + (2 * i + 1) * E, E);
    const bool odd = cur % 2;
    cur /= 2;
    if (odd) lanewise<A, T>(t + (cur - 1) * E, t + (cur - 1) * E, t + 2 * cur * E, E);
  }
  std::copy(t, t + E, buf);
  return reduce_tree<A, T>(buf, E);
}

// A5 float TROWSUM: per 256-byte chunk a vcadd, added to the running sum.
template <class T>
T a5_row_sum(const T* x, int n) {
  constexpr int E = int(256 / sizeof(T));
  T buf[E];
  T acc = T(0);
  for (int j0 = 0; j0 < n; j0 += E) {
    const int m = std::min(E, n - j0);
    std::copy(x + j0, x + j0 + m, buf);
    acc = combine<BinOp::Add, T>(acc, reduce_tree<BinOp::Add, T>(buf, m));
  }
  return acc;
}

// A2/A3 float TROWPROD (TRowProd.hpp): one 32-byte block of lanes, set to 1, multiplied by each next
// block of the row (lane l takes elements l, l + B, ...; a tail block only its first lanes), then the
// scalar unit multiplies the B lanes left to right (16-bit floats in float, rounded once).
template <class T>
T a2a3_row_prod(const T* x, int n) {
  constexpr int B = int(32 / sizeof(T));
  T lane[B];
  std::fill(lane, lane + B, T(1));
  for (int j = 0; j < n; ++j) lane[j % B] = combine<BinOp::Mul, T>(lane[j % B], x[j]);
  if constexpr (kWidened<T>) {
    float acc = float(lane[0]);
    for (int l = 1; l < B; ++l) acc *= float(lane[l]);
    return T(acc);
  } else {
    T acc = lane[0];
    for (int l = 1; l < B; ++l) acc = combine<BinOp::Mul, T>(acc, lane[l]);
    return acc;
  }
}
// A5 float TROWPROD: a 256-byte register of ones multiplied by each chunk of the row (merging: a tail
// chunk's inactive lanes keep theirs), then halving: lane m times lane m + E/2, ... down to lane 0.
template <class T>
T a5_row_prod(const T* x, int n) {
  constexpr int E = int(256 / sizeof(T));
  T v[E];
  std::fill(v, v + E, T(1));
  for (int j = 0; j < n; ++j) v[j % E] = combine<BinOp::Mul, T>(v[j % E], x[j]);
  for (int h = E / 2; h >= 1; h /= 2)
    for (int m = 0; m < h; ++m) v[m] = combine<BinOp::Mul, T>(v[m], v[m + h]);
  return v[0];
}

template <BinOp O>
void row_reduce(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const TileView& s = ctx.ops[1].tile;
  visit_dtype(s.dtype, [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> out(std::size_t(s.valid_rows)), tmp;  // every row read before dst is written
    for (int i = 0; i < s.valid_rows; ++i) {
      const T* x = s.ptr<T>(i, 0);
      if constexpr (kOrderFree<O, T>) out[std::size_t(i)] = any_order<O, T>(x, s.valid_cols);
      else if (O == BinOp::Mul) out[std::size_t(i)] = ctx.target == Target::A5 ? a5_row_prod<T>(x, s.valid_cols) : a2a3_row_prod<T>(x, s.valid_cols);
      else if (ctx.target == Target::A5) out[std::size_t(i)] = a5_row_sum<T>(x, s.valid_cols);
      else out[std::size_t(i)] = a2a3_row_sum<T>(x, s.valid_cols, tmp);
    }
    for (int i = 0; i < s.valid_rows; ++i) *d.ptr<T>(i, 0) = out[std::size_t(i)];
  });
}

// Rows of a tile as pointers, for the column trees.
template <class T>
const T* row_of(const TileView& t, int i) { return t.ptr<T>(i, 0); }

// A2/A3 isBinary TCOLSUM (BinarySum): tmp[i] = r[2i] + r[2i+1], an odd last row into tmp[0], then
// halving in place, an odd partial sum into tmp[0].
template <class T>
void a2a3_col_tree(const TileView& s, T* acc, int C) {
  constexpr BinOp A = BinOp::Add;
  const int R = s.valid_rows;
  std::vector<T> tmp(std::size_t(R / 2) * C);
  auto t = [&](int i) { return tmp.data() + std::size_t(i) * C; };
  for (int i = 0; i < R / 2; ++i) lanewise<A, T>(t(i), row_of<T>(s, 2 * i), row_of<T>(s, 2 * i + 1), C);
  if (R % 2) lanewise<A, T>(t(0), t(0), row_of<T>(s, R - 1), C);
  for (int cnt = R / 2; cnt > 1; cnt /= 2) {
    for (int i = 0; i < cnt / 2; ++i) lanewise<A, T>(t(i), t(2 * i), t(2 * i + 1), C);
    if (cnt % 2) lanewise<A, T>(t(0), t(0), t(cnt - 1), C);
  }
  std::copy(t(0), t(0) + C, acc);
}

// A5 isBinary TCOLSUM (TColSum_Binary): pairs of rows into tmp, an odd last row into the last pair,
// then halving, an odd partial sum into the last new one.
template <class T>
void a5_col_tree(const TileView& s, T* acc, int C) {
  constexpr BinOp A = BinOp::Add;
  const int R = s.valid_rows;
  int n = R / 2;
  std::vector<T> tmp(std::size_t(std::max(n, 1)) * C), last(std::size_t(C), T(0));  // `last`: the register
  auto t = [&](int i) { return tmp.data() + std::size_t(i) * C; };
  for (int j = 0; j < n; ++j) {
    lanewise<A, T>(last.data(), row_of<T>(s, 2 * j), row_of<T>(s, 2 * j + 1), C);
    std::copy(last.begin(), last.end(), t(j));
  }
  if (R % 2) {
    lanewise<A, T>(last.data(), row_of<T>(s, R - 1), last.data(), C);
    std::copy(last.begin(), last.end(), t(n > 0 ? n - 1 : 0));
  }
  for (int level = n > 1 ? std::bit_width(unsigned(n)) - 1 : 0; level > 0; --level) {
    const bool odd = n % 2;
    n /= 2;
    for (int j = 0; j < n; ++j) {
      lanewise<A, T>(last.data(), t(2 * j), t(2 * j + 1), C);
      std::copy(last.begin(), last.end(), t(j));
    }
    if (odd) {
      lanewise<A, T>(last.data(), t(2 * n), last.data(), C);
      std::copy(last.begin(), last.end(), t(n - 1));
    }
  }
  std::copy(last.begin(), last.end(), acc);
}

template <BinOp O>
void col_reduce(ExecContext& ctx) {
  const TileView& d = ctx.ops[0].tile;
  const TileView& s = ctx.ops[1].tile;
  const bool binary = ctx.variant & kVariantBinary;
  visit_dtype(s.dtype, [&](auto zero) {
    using T = decltype(zero);
    const int R = s.valid_rows, C = s.valid_cols;
    std::vector<T> acc(row_of<T>(s, 0), row_of<T>(s, 0) + C);
    std::vector<T> pair(static_cast<std::size_t>(C));
    if (kOrderFree<O, T> || (ctx.target == Target::A2A3 && !binary)) {  // row after row
      for (int i = 1; i < R; ++i) lanewise<O, T>(acc.data(), acc.data(), row_of<T>(s, i), C);
    } else if (ctx.target == Target::A2A3) {
      if (R > 1) a2a3_col_tree<T>(s, acc.data(), C);
    } else if (binary) {
      a5_col_tree<T>(s, acc.data(), C);
    } else {  // A5: row 0, then the sum of each next pair of rows, then an odd last row
      int i = 1;
      for (; i + 1 < R; i += 2) {
        lanewise<O, T>(pair.data(), row_of<T>(s, i), row_of<T>(s, i + 1), C);
        lanewise<O, T>(acc.data(), acc.data(), pair.data(), C);
      }
      if (i < R) lanewise<O, T>(acc.data(), acc.data(), row_of<T>(s, i), C);
    }
    std::copy(acc.begin(), acc.end(), d.ptr<T>(0, 0));
  });
}

template <BinOp O> inline constexpr BackendKernel kRowReduce{nullptr, row_reduce<O>};
template <BinOp O> inline constexpr BackendKernel kColReduce{nullptr, col_reduce<O>};

}  // namespace pto::cpu::reduce
