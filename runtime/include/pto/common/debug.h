// <pto/common/debug.h>: the debugging aids kernels written for pto-isa include. On the host:
//  - DEBUG_CHECK(cond, msg) is always checked and PTO_ASSERT(cond, msg) under _DEBUG (as on the NPU);
//    a failure is a pto::Error naming the message, the condition and the source line (the chip prints
//    and traps).
//  - printRawGT, printRawTile, printTile, printRawMemory print what the bytes hold when they are called.
//    Instructions still in flight on other pipes have not written theirs yet: print after a
//    pipe_barrier(PIPE_ALL), or use TPRINT, which is ordered like any instruction.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <limits>
#include <string>
#include <type_traits>

#include <pto/isa/error.hpp>
#include <pto/pto-inst.hpp>

#define DEBUG_CHECK(condition, message)                                                                           \
  do {                                                                                                            \
    if (!(condition))                                                                                             \
      ::pto::detail::fail("PTO_ASSERT: ", (message), " (condition `", #condition, "` is false at ", __FILE__, ':', \
                          __LINE__, ')');                                                                         \
  } while (0)

#ifdef _DEBUG
#define PTO_ASSERT(condition, message) DEBUG_CHECK(condition, message)
#else
#define PTO_ASSERT(condition, message) ((void)0)
#endif

namespace pto::detail {
// One value as the helpers print it: integers as they are, floats fixed with two decimals.
template <class T>
void debug_value(std::ostream& os, T v, int width) {
  if constexpr (std::is_integral_v<T>) {
    os << std::setw(width) << +v << ' ';
  } else {
    const double d = double(v);
    os << std::setw(width) << std::fixed << std::setprecision(2) << (std::fabs(d) < 1e-20 ? 0.0 : d) << ' ';
  }
}
template <class Get>
void debug_grid(std::ostream& os, int rows, int cols, int width, int max_r, int max_c, Get get) {
  for (int r = 0; r < rows && r < max_r; ++r) {
    for (int c = 0; c < cols && c < max_c; ++c) debug_value(os, get(r, c), width);
    os << (max_c < cols ? " ...\n" : "\n");
  }
  if (max_r < rows) os << "...\n";
}
}  // namespace pto::detail

// The first two dimensions' slices of a GlobalTensor, rows x cols of each (d0, d1, d2) slice.
template <typename GT>
void printRawGT(GT& tensor, const std::string name = "", int elementWidth = 5,
                int maxR = std::numeric_limits<int>::max(), int maxC = std::numeric_limits<int>::max()) {
  using pto::GlobalTensorDim;
  const int n0 = tensor.GetShape(GlobalTensorDim::DIM_0), n1 = tensor.GetShape(GlobalTensorDim::DIM_1),
            n2 = tensor.GetShape(GlobalTensorDim::DIM_2), rows = tensor.GetShape(GlobalTensorDim::DIM_3),
            cols = tensor.GetShape(GlobalTensorDim::DIM_4);
  const long s0 = tensor.GetStride(GlobalTensorDim::DIM_0), s1 = tensor.GetStride(GlobalTensorDim::DIM_1),
             s2 = tensor.GetStride(GlobalTensorDim::DIM_2), s3 = tensor.GetStride(GlobalTensorDim::DIM_3),
             s4 = tensor.GetStride(GlobalTensorDim::DIM_4);
  std::cout << name << ": " << n0 << " x " << n1 << " x " << n2 << " x " << rows << " x " << cols << '\n';
  for (int i = 0; i < n0; ++i)
    for (int j = 0; j < n1; ++j)
      for (int k = 0; k < n2; ++k) {
        std::cout << "    " << i << ", " << j << ", " << k << ", r, c:\n";
        const auto* base = tensor.data() + i * s0 + j * s1 + k * s2;
        pto::detail::debug_grid(std::cout, rows, cols, elementWidth, maxR, maxC,
                                [&](int r, int c) { return base[r * s3 + c * s4]; });
      }
}

// A tile's valid region through its layout (GetElement); printRawTile reads row-major storage as such.
template <typename TL>
void printTile(TL& tile, const std::string name = "", int elementWidth = 5, int maxR = std::numeric_limits<int>::max(),
               int maxC = std::numeric_limits<int>::max()) {
  std::cout << name << ": " << tile.GetValidRow() << " x " << tile.GetValidCol() << " (Full: " << TL::Rows << " x "
            << TL::Cols << ") (RxC)\n";
  pto::detail::debug_grid(std::cout, tile.GetValidRow(), tile.GetValidCol(), elementWidth, maxR, maxC,
                          [&](int r, int c) { return tile.GetElement(r, c); });
}
template <typename TL>
void printRawTile(TL& tile, const std::string name = "", int elementWidth = 5,
                  int maxR = std::numeric_limits<int>::max(), int maxC = std::numeric_limits<int>::max()) {
  std::cout << name << ": " << tile.GetValidRow() << " x " << tile.GetValidCol() << " (Full: " << TL::Rows << " x "
            << TL::Cols << ") (RxC)\n";
  pto::detail::debug_grid(std::cout, tile.GetValidRow(), tile.GetValidCol(), elementWidth, maxR, maxC,
                          [&](int r, int c) { return tile.data()[r * TL::Cols + c]; });
}

template <typename T>
void printRawMemory(T* buf, std::size_t sz, const std::string name = "", int elementWidth = 10, int elementsPerRow = 8) {
  std::cout << name << ": " << static_cast<const void*>(buf) << '\n';
  for (std::size_t i = 0; i < sz; ++i) {
    if (i % std::size_t(elementsPerRow) == 0) std::cout << '\n' << std::setw(6) << std::hex << i << ": " << std::dec;
    pto::detail::debug_value(std::cout, buf[i], elementWidth);
  }
  std::cout << '\n';
}
