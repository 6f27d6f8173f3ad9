// Shape, Stride and GlobalTensor: a GM pointer with a 5-D shape and stride in elements (spec §1.4).
#pragma once
#include <array>
#include <cstdint>
#include <type_traits>

#include <pto/isa/dtype.hpp>
#include <pto/isa/enums.hpp>
#include <pto/isa/error.hpp>
#include <pto/isa/views.hpp>

namespace pto {

namespace detail {
// Five static-or-dynamic (-1) extents; the dynamic ones are filled at run time (Shape and Stride share this).
template <class Tag, int... N>
struct Dims5 {
  static_assert(sizeof...(N) == 5, "Shape/Stride take exactly five template values (DIM_0..DIM_4)");
  static constexpr std::array<int, 5> kStatic{N...};
  static constexpr int kDynamicCount = ((N == -1 ? 1 : 0) + ...);

  std::array<std::int64_t, 5> value{};

  // No arguments: dynamic dims are 1.
  constexpr Dims5() {
    for (int k = 0; k < 5; ++k) value[k] = kStatic[k] == -1 ? 1 : kStatic[k];
  }
  // Either all five values (static ones ignored) or exactly one value per dynamic dim, left to right.
  template <class... V>
    requires(sizeof...(V) > 0 && (std::is_integral_v<V> && ...))
  constexpr Dims5(V... v) : Dims5() {
    static_assert(sizeof...(V) == 5 || sizeof...(V) == kDynamicCount,
                  "Shape/Stride: pass all five values, or exactly one value per dynamic (-1) dimension");
    const std::int64_t in[] = {std::int64_t(v)...};
    if constexpr (sizeof...(V) == 5) {
      for (int k = 0; k < 5; ++k)
        if (kStatic[k] == -1) value[k] = in[k];
    } else {
      int j = 0;
      for (int k = 0; k < 5; ++k)
        if (kStatic[k] == -1) value[k] = in[j++];
    }
  }
  constexpr std::int64_t operator[](int k) const { return value[k]; }
};
struct ShapeTag {};
struct StrideTag {};
}  // namespace detail

template <int N0 = -1, int N1 = -1, int N2 = -1, int N3 = -1, int N4 = -1>
struct Shape : detail::Dims5<detail::ShapeTag, N0, N1, N2, N3, N4> {
  using detail::Dims5<detail::ShapeTag, N0, N1, N2, N3, N4>::Dims5;
};
template <int S0 = -1, int S1 = -1, int S2 = -1, int S3 = -1, int S4 = -1>
struct Stride : detail::Dims5<detail::StrideTag, S0, S1, S2, S3, S4> {
  using detail::Dims5<detail::StrideTag, S0, S1, S2, S3, S4>::Dims5;
};
// pto::Shape(1, 1, 1, rows, cols) / pto::Stride(...): five run-time values, every dimension dynamic.
template <class... V>
  requires(sizeof...(V) == 5 && (std::is_integral_v<V> && ...))
Shape(V...) -> Shape<>;
template <class... V>
  requires(sizeof...(V) == 5 && (std::is_integral_v<V> && ...))
Stride(V...) -> Stride<>;

namespace detail {
// Installed by the runtime (isa/ only calls it): a GlobalTensor goes away. If its bytes belong to
// the kernel itself (outside every sized launch argument) and an instruction still in flight uses
// them, the kernel waits for it here, before the memory behind the tensor can die with the frame.
inline void (*gm_released)(const GmView&) = nullptr;
}  // namespace detail

template <class Elem, class Shape_, class Stride_, Layout L = Layout::ND>
struct GlobalTensor {
  static_assert(ElementType<Elem>, "GlobalTensor: Elem must be a PTO element type");
  using DType = Elem;
  using ShapeType = Shape_;
  using StrideType = Stride_;
  static constexpr Layout layout = L;

  constexpr GlobalTensor() = default;
  constexpr explicit GlobalTensor(DType* ptr, Shape_ shape = Shape_(), Stride_ stride = Stride_())
      : ptr_(ptr), shape_(shape), stride_(stride) {}
  constexpr GlobalTensor(const GlobalTensor&) = default;
  constexpr GlobalTensor& operator=(const GlobalTensor&) = default;
  constexpr ~GlobalTensor() {
    if (!std::is_constant_evaluated() && ptr_ && detail::gm_released) detail::gm_released(view());
  }

  DType* data() const { return ptr_; }
  constexpr std::int64_t GetShape(int dim) const { return shape_[dim]; }
  constexpr std::int64_t GetStride(int dim) const { return stride_[dim]; }
  constexpr std::int64_t GetShape(GlobalTensorDim d) const { return shape_[int(d)]; }
  constexpr std::int64_t GetStride(GlobalTensorDim d) const { return stride_[int(d)]; }
  template <int D> static constexpr int GetShape() {
    static_assert(Shape_::kStatic[D] != -1, "GlobalTensor::GetShape<dim>: that dimension is dynamic");
    return Shape_::kStatic[D];
  }
  template <int D> static constexpr int GetStride() {
    static_assert(Stride_::kStatic[D] != -1, "GlobalTensor::GetStride<dim>: that dimension is dynamic");
    return Stride_::kStatic[D];
  }
  template <int D> void SetShape(std::int64_t v) {
    static_assert(Shape_::kStatic[D] == -1, "GlobalTensor::SetShape<dim>: that dimension is static");
    shape_.value[D] = v;
  }
  template <int D> void SetStride(std::int64_t v) {
    static_assert(Stride_::kStatic[D] == -1, "GlobalTensor::SetStride<dim>: that dimension is static");
    stride_.value[D] = v;
  }
  void SetAddr(DType* p) { ptr_ = p; }

  // Scalar access to one element, as pto-isa's CPU simulator offers kernels (GetElement / SetElement):
  // by element offset from data(), or by 5-D index through the strides. It happens when the kernel's
  // code reaches it, ordered by nothing but program order (on the chip a scalar GM access needs its own
  // synchronisation with the MTE pipes). An offset outside the tensor's extent is a pto::Error.
  DType GetElement(std::int64_t offset) const { return *element(offset, "GetElement"); }
  void SetElement(std::int64_t offset, const DType& v) { *element(offset, "SetElement") = v; }
  DType GetElement(std::int64_t i0, std::int64_t i1, std::int64_t i2, std::int64_t i3, std::int64_t i4) const {
    return *element(index(i0, i1, i2, i3, i4, "GetElement"), "GetElement");
  }
  void SetElement(std::int64_t i0, std::int64_t i1, std::int64_t i2, std::int64_t i3, std::int64_t i4, const DType& v) {
    *element(index(i0, i1, i2, i3, i4, "SetElement"), "SetElement") = v;
  }

  GmView view() const {
    GmView g;
    g.base = reinterpret_cast<std::byte*>(ptr_);
    g.dtype = dtype_v<DType>;
    g.layout = L;
    for (int k = 0; k < 5; ++k) {
      g.shape[k] = shape_[k];
      g.stride[k] = stride_[k];
    }
    return g;
  }
  // Element offset the tile coordinate (r, c) maps to (what TLOAD/TSTORE use).
  std::int64_t offset_of(std::int64_t r, std::int64_t c) const { return view().map(r, c); }

private:
  std::int64_t index(std::int64_t i0, std::int64_t i1, std::int64_t i2, std::int64_t i3, std::int64_t i4, const char* what) const {
    const std::int64_t i[5] = {i0, i1, i2, i3, i4};
    std::int64_t off = 0;
    for (int k = 0; k < 5; ++k) {
      if (i[k] < 0 || i[k] >= shape_[k])
        detail::fail("GlobalTensor::", what, ": index ", i[k], " of dimension ", k, " is outside its shape ", shape_[k], " (", view(), ")");
      off += i[k] * stride_[k];
    }
    return off;
  }
  DType* element(std::int64_t offset, const char* what) const {
    std::int64_t extent = 1;  // one past the largest offset the tensor's elements take
    for (int k = 0; k < 5; ++k) extent += (shape_[k] - 1) * stride_[k];
    if (ptr_ == nullptr) detail::fail("GlobalTensor::", what, ": the tensor points to nullptr");
    if (offset < 0 || offset >= extent)
      detail::fail("GlobalTensor::", what, ": element offset ", offset, " is outside the tensor's extent [0, ", extent, ") (", view(), ")");
    return ptr_ + offset;
  }

  DType* ptr_ = nullptr;
  Shape_ shape_{};
  Stride_ stride_{};
};

template <class T> struct is_global_tensor : std::false_type {};
template <class E, class S, class St, Layout L> struct is_global_tensor<GlobalTensor<E, S, St, L>> : std::true_type {};
template <class T> concept GlobalLike = is_global_tensor<std::remove_cvref_t<T>>::value;

// 2-D helpers (spec §1.4). NZ: (1, cols / C0, rows / 16, 16, C0) with C0 = 32 bytes' elements, the
// fractal rows contiguous, column block after column block (pto-isa's pto_tile.hpp gives the same).
namespace detail {
template <class T> inline constexpr int kC0 = kBlockElems<T>;  // 64 for the 4-bit types
}
// The MX scale layouts: A's scales are rows (M) x cols (kMX), B's rows (kMX) x cols (N), in pairs of K
// groups (dim 4 is 2); A ZZ and B NN put 16 rows (columns) of pairs in one 32-byte fractal.
namespace detail {
template <int rows, int cols, Layout L> struct Mx2D;
template <int rows, int cols> struct Mx2D<rows, cols, Layout::MX_A_ZZ> {
  using shape = Shape<1, rows / 16, cols / 2, 16, 2>;
  using stride = Stride<rows * cols, cols * 16, 32, 2, 1>;
};
template <int rows, int cols> struct Mx2D<rows, cols, Layout::MX_A_ND> {
  using shape = Shape<1, 1, rows, cols / 2, 2>;
  using stride = Stride<rows * cols, rows * cols, cols, 2, 1>;
};
template <int rows, int cols> struct Mx2D<rows, cols, Layout::MX_A_DN> {
  using shape = Shape<1, 1, cols / 2, rows, 2>;
  using stride = Stride<rows * cols, rows * cols, rows * 2, 2, 1>;
};
template <int rows, int cols> struct Mx2D<rows, cols, Layout::MX_B_NN> {
  using shape = Shape<1, cols / 16, rows / 2, 16, 2>;
  using stride = Stride<rows * cols, rows * 16, 32, 2, 1>;
};
template <int rows, int cols> struct Mx2D<rows, cols, Layout::MX_B_ND> {
  using shape = Shape<1, 1, rows / 2, cols, 2>;
  using stride = Stride<rows * cols, rows * cols, cols * 2, 2, 1>;
};
template <int rows, int cols> struct Mx2D<rows, cols, Layout::MX_B_DN> {
  using shape = Shape<1, 1, cols, rows / 2, 2>;
  using stride = Stride<rows * cols, rows * cols, rows, 2, 1>;
};
template <class T, int rows, int cols, Layout L> struct Plain2D {
  using shape = std::conditional_t<L == Layout::NZ, Shape<1, cols / kC0<T>, rows / 16, 16, kC0<T>>, Shape<1, 1, 1, rows, cols>>;
  using stride = std::conditional_t<
      L == Layout::NZ, Stride<rows * cols, rows * kC0<T>, 16 * kC0<T>, kC0<T>, 1>,
      std::conditional_t<L == Layout::DN, Stride<rows * cols, rows * cols, rows * cols, 1, rows>,
                         Stride<rows * cols, rows * cols, rows * cols, cols, 1>>>;
};
template <class T, int rows, int cols, Layout L>
using Shape2D = std::conditional_t<L == Layout::ND || L == Layout::DN || L == Layout::NZ, Plain2D<T, rows, cols, L>, Mx2D<rows, cols, L>>;
}  // namespace detail
template <class T, int rows, int cols, Layout L = Layout::ND>
using TileShape2D = typename detail::Shape2D<T, rows, cols, L>::shape;
template <class T, int rows, int cols, Layout L = Layout::ND>
using BaseShape2D = typename detail::Shape2D<T, rows, cols, L>::stride;

}  // namespace pto
