#include "kernel_statics.hpp"

#include <cstddef>

// The linker defines __start_ / __stop_ for a section whose name is a C identifier, when referenced;
// weak, so a program without mixed kernels links (both null).
extern "C" {
extern char __start_pto_kdata[] __attribute__((weak));
extern char __stop_pto_kdata[] __attribute__((weak));
extern char __start_pto_kbss[] __attribute__((weak));
extern char __stop_pto_kbss[] __attribute__((weak));
}

namespace pto::detail {
namespace {
struct Region {
  char* lo;
  char* hi;
  std::size_t size() const { return lo && hi > lo ? std::size_t(hi - lo) : 0; }
};
Region data() { return {__start_pto_kdata, __stop_pto_kdata}; }
Region bss() { return {__start_pto_kbss, __stop_pto_kbss}; }

// Byte by byte and uninstrumented: under AddressSanitizer the sections also hold the redzones between
// globals, which a memcpy would be reported for reading (the regions are a few hundred bytes otherwise).
__attribute__((no_sanitize("address"))) void copy_bytes(void* to, const void* from, std::size_t n) {
  auto* d = static_cast<volatile unsigned char*>(to);
  const auto* s = static_cast<const volatile unsigned char*>(from);
  for (std::size_t i = 0; i < n; ++i) d[i] = s[i];
}
void save(std::vector<std::byte>& to) {
  const Region d = data(), b = bss();
  to.resize(d.size() + b.size());
  copy_bytes(to.data(), d.lo, d.size());
  copy_bytes(to.data() + d.size(), b.lo, b.size());
}
void load(const std::vector<std::byte>& from) {
  const Region d = data(), b = bss();
  copy_bytes(d.lo, from.data(), d.size());
  copy_bytes(b.lo, from.data() + d.size(), b.size());
}
}  // namespace

bool KernelStatics::present() { return data().size() + bss().size() > 0; }

KernelStatics::KernelStatics(int cores) {
  save(initial_);
  copies_.assign(std::size_t(cores), initial_);
}
KernelStatics::~KernelStatics() { load(initial_); }
void KernelStatics::enter(int core) { load(copies_[std::size_t(core)]); }
void KernelStatics::leave(int core) { save(copies_[std::size_t(core)]); }
std::size_t KernelStatics::bytes() const { return initial_.size(); }

}  // namespace pto::detail
