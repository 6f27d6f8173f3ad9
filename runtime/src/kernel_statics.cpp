#include "kernel_statics.hpp"

#include <cstring>

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

void save(std::vector<std::byte>& to) {
  const Region d = data(), b = bss();
  to.resize(d.size() + b.size());
  if (d.size()) std::memcpy(to.data(), d.lo, d.size());
  if (b.size()) std::memcpy(to.data() + d.size(), b.lo, b.size());
}
void load(const std::vector<std::byte>& from) {
  const Region d = data(), b = bss();
  if (d.size()) std::memcpy(d.lo, from.data(), d.size());
  if (b.size()) std::memcpy(b.lo, from.data() + d.size(), b.size());
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
