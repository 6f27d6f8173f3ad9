// A mixed kernel's own writable data (its globals and statics) once per emulated core, as on the chip,
// where each core has its own. pto_add_mix_kernel moves that data into the sections pto_kdata and
// pto_kbss (cmake/pto_mix_rename.cmake); the program has one copy of them, so a launch whose program has
// any runs its cores on one host thread and swaps each core's copy in while it runs (the scheduler
// calls enter / leave around every stretch a core runs). pto-isa's flash attention keeps its L0
// ping-pong index in a function-local static: shared, two cores flipping it broke each other's buffers.
#pragma once
#include <cstddef>
#include <vector>

namespace pto::detail {

class KernelStatics {
public:
  // Whether the program holds mixed kernels with writable data of their own.
  static bool present();
  // Every core's copy starts as the data is now (the program's initial values: a launch restores them).
  explicit KernelStatics(int cores);
  ~KernelStatics();  // puts the initial values back
  KernelStatics(const KernelStatics&) = delete;
  KernelStatics& operator=(const KernelStatics&) = delete;
  void enter(int core);  // the core's copy becomes the program's data
  void leave(int core);  // and is saved back
  std::size_t bytes() const;  // per core

private:
  std::vector<std::byte> initial_;
  std::vector<std::vector<std::byte>> copies_;
};

}  // namespace pto::detail
