// Kernel files that hold their own launcher call the kernel with the chip's chevrons:
// `kernel<<<blocks, l2ctrl, stream>>>(args...)`. pto_add_mix_kernel rewrites each such call (and nothing
// else) into `pto::chevron<&kernel>(blocks, l2ctrl, stream)(args...)`, which runs the kernel's cube and
// vector compilations as `blocks` clusters through pto::launch_mix. The launch's other settings come from
// pto::chevron_config() (set them before calling the file's launcher: target, model_only, timeline, ...);
// its report is pto::last_chevron_report(). l2ctrl and the stream are ignored.
#pragma once
#include <cstdint>
#include <utility>

#include <pto/runtime/launch.hpp>
#include <pto/runtime/mix_kernel.hpp>

namespace pto {

// The settings of the next chevron launches (blocks comes from the chevrons). One per process: set it
// before the launcher runs, not while another thread launches.
LaunchConfig& chevron_config();
// The report of the calling thread's last chevron launch.
const LaunchReport& last_chevron_report();

namespace detail {
void set_last_chevron_report(LaunchReport r);
}

template <auto F>
struct Chevron {
  std::int64_t blocks;
  template <class... Args>
  void operator()(Args&&... args) const {
    LaunchConfig cfg = chevron_config();
    cfg.blocks = int(blocks);
    detail::set_last_chevron_report(launch_mix(cfg, mix_entry<F>(), std::forward<Args>(args)...));
  }
};

template <auto F, class... Rest>
Chevron<F> chevron(std::int64_t blocks, Rest&&...) {
  return {blocks};
}

}  // namespace pto
