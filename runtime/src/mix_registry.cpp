// The entry points of mixed kernels, by compilation (pto/runtime/mix_kernel.hpp). Filled during static
// initialisation, read by launches: a mutex keeps both safe whatever the order.
#include <pto/runtime/mix_kernel.hpp>

#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace pto::detail {
namespace {
struct Entry {
  AnyFn cube = nullptr, vec = nullptr;
  bool twice = false;  // a side registered two different functions: two targets built one kernel
};
struct Registry {
  std::mutex m;
  std::map<std::string, Entry> entries;
};
Registry& registry() {
  static Registry r;  // constructed on first use: registrars run during other objects' static init
  return r;
}
}  // namespace

void register_mix_entry(const char* key, bool cube, AnyFn fn) {
  Registry& r = registry();
  std::lock_guard lock(r.m);
  Entry& e = r.entries[key];
  AnyFn& side = cube ? e.cube : e.vec;
  if (side && side != fn) e.twice = true;  // static initialisation cannot throw: find_mix_entry reports it
  side = fn;
}

AnyFn find_mix_entry(const char* key, bool cube) {
  Registry& r = registry();
  std::lock_guard lock(r.m);
  auto it = r.entries.find(key);
  if (it == r.entries.end()) return nullptr;
  if (it->second.twice)
    fail("pto::mix_entry: the kernel entry ", key, " was built by pto_add_mix_kernel more than once (two targets "
         "with the same source linked into one program): each side would have two definitions; link one");
  return cube ? it->second.cube : it->second.vec;
}
}  // namespace pto::detail

// Chevron launches (pto/runtime/chevron.hpp).
#include <pto/runtime/chevron.hpp>

namespace pto {
LaunchConfig& chevron_config() {
  static LaunchConfig cfg;
  return cfg;
}
namespace {
thread_local LaunchReport last_report;
}
const LaunchReport& last_chevron_report() { return last_report; }
void detail::set_last_chevron_report(LaunchReport r) { last_report = std::move(r); }
}  // namespace pto
