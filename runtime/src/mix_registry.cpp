// The entry points of mixed kernels, by compilation (pto/runtime/mix_kernel.hpp). Filled during static
// initialisation, read by launches: a mutex keeps both safe whatever the order.
#include <pto/runtime/mix_kernel.hpp>

#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace pto::detail {
namespace {
struct Registry {
  std::mutex m;
  std::map<std::string, std::pair<AnyFn, AnyFn>> entries;  // key -> (cube, vec)
};
Registry& registry() {
  static Registry r;  // constructed on first use: registrars run during other objects' static init
  return r;
}
}  // namespace

void register_mix_entry(const char* key, bool cube, AnyFn fn) {
  Registry& r = registry();
  std::lock_guard lock(r.m);
  auto& e = r.entries[key];
  (cube ? e.first : e.second) = fn;
}

AnyFn find_mix_entry(const char* key, bool cube) {
  Registry& r = registry();
  std::lock_guard lock(r.m);
  auto it = r.entries.find(key);
  if (it == r.entries.end()) return nullptr;
  return cube ? it->second.first : it->second.second;
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
