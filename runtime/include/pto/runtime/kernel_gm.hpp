// pto::KernelGm<T>: a GM buffer a kernel allocates for itself. No chip has one (a device kernel gets all
// its GM from its launch), but host-side kernels sometimes want a scratch tensor. When every GM argument
// of a launch is sized, each GM byte an instruction touches must lie in one of them or in a KernelGm the
// kernel owns; a plain std::vector behind a GlobalTensor is an error there. The buffer's destructor waits
// for the instructions still using its bytes (on the scalar pipe) before the memory goes away.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include <pto/runtime/core_api.hpp>

namespace pto {

template <class T>
class KernelGm {
public:
  explicit KernelGm(std::size_t count, const T& value = T())
      : data_(count, value), owner_(detail::kernel_gm_acquire(data_.data(), count, sizeof(T))) {}
  KernelGm(const KernelGm&) = delete;
  KernelGm& operator=(const KernelGm&) = delete;
  ~KernelGm() { detail::kernel_gm_release(data_.data(), owner_); }

  T* data() { return data_.data(); }
  const T* data() const { return data_.data(); }
  std::size_t size() const { return data_.size(); }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size(); }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }

private:
  std::vector<T> data_;
  std::uint64_t owner_;
};

}  // namespace pto
