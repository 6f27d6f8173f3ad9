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
#include <pto/runtime/report.hpp>
#include <pto/runtime/trace.hpp>

#include <atomic>
#include <cstdlib>
#include <iostream>

namespace pto {
// A kernel file's own host code (its driver, its launcher) runs unmodified, so what the user wants to
// see of its launches comes from the environment: PTO_REPORT=1 prints each chevron launch's report to
// stderr; PTO_HOST_THREADS=n runs them on n host threads; PTO_TRACE=<base> records the timeline and writes <base>-<n>.json and .svg for launch n (if it
// issued anything: a warm-up kernel does not).
namespace {
const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}
thread_local LaunchReport last_report;
std::atomic<int> launches{0};
}  // namespace

LaunchConfig& chevron_config() {
  static LaunchConfig cfg = [] {
    LaunchConfig c;
    c.timeline = env("PTO_TRACE") != nullptr;
    if (const char* t = env("PTO_HOST_THREADS")) {
      char* end = nullptr;
      const long n = std::strtol(t, &end, 10);
      if (*end || n < 0 || n > 4096) detail::fail("PTO_HOST_THREADS='", t, "': use a number of host threads, 0 (all) to 4096");
      c.host_threads = int(n);
    }
    return c;
  }();
  return cfg;
}
const LaunchReport& last_chevron_report() { return last_report; }
void detail::set_last_chevron_report(LaunchReport r) {
  last_report = std::move(r);
  const int n = launches++;
  if (env("PTO_REPORT")) std::cerr << "pto chevron launch " << n << ":\n" << last_report;
  if (const char* base = env("PTO_TRACE"); base && last_report.timeline && last_report.instructions() > 0) {
    const std::string stem = std::string(base) + "-" + std::to_string(n);
    write_chrome_trace(last_report, stem + ".json");
    write_svg_timeline(last_report, stem + ".svg");
    if (env("PTO_REPORT")) std::cerr << "  wrote " << stem << ".json and .svg\n";
  }
}
}  // namespace pto
