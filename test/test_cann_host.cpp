// What a PTO kernel file's own host code and helpers call, as CANN spells it, so pto-isa's kernels and
// drivers build unmodified: the ACL runtime (acl/acl.h: memory, copies, streams), runtime/rt.h's FFTS
// address, PTO_PREFETCH, TSYNC_CVID (the AIC tells its AIVs its communication slot), get_sys_cnt, and
// TASSIGN of an address taken from another tile's data().
#define BOOST_TEST_MODULE cann_host
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include <acl/acl.h>
#include <pto/npu/a2a3/custom/TSyncCVID.hpp>
#include <pto/npu/kernels/Pto_prefetch.hpp>
#include <pto/pto-inst.hpp>
#include <runtime/rt.h>

#include "test_util.hpp"

using namespace pto;

namespace {
using pto_test::error_text;
}  // namespace

BOOST_AUTO_TEST_CASE(acl_memory_copies_and_streams) {
  BOOST_TEST(aclInit(nullptr) == ACL_SUCCESS);
  BOOST_TEST(aclrtSetDevice(0) == ACL_SUCCESS);
  aclrtStream stream = nullptr;
  BOOST_TEST(aclrtCreateStream(&stream) == ACL_SUCCESS);
  BOOST_TEST(stream != nullptr);
  void *host = nullptr, *dev = nullptr;
  BOOST_TEST(aclrtMallocHost(&host, 1000) == ACL_SUCCESS);
  BOOST_TEST(aclrtMalloc(&dev, 1000, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  BOOST_TEST(reinterpret_cast<std::uintptr_t>(dev) % 64 == 0u);
  auto* h = static_cast<std::uint8_t*>(host);
  for (int i = 0; i < 1000; ++i) h[i] = std::uint8_t(i * 7);
  BOOST_TEST(aclrtMemcpy(dev, 1000, host, 1000, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  BOOST_TEST(aclrtMemset(host, 1000, 0, 1000) == ACL_SUCCESS);
  BOOST_TEST(aclrtMemcpy(host, 1000, dev, 1000, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
  int same = 0;
  for (int i = 0; i < 1000; ++i) same += h[i] == std::uint8_t(i * 7);
  BOOST_TEST(same == 1000);
  // Errors are codes, with the reason kept, as CANN reports them.
  BOOST_TEST(aclrtMemcpy(host, 10, dev, 1000, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_INVALID_PARAM);
  BOOST_TEST(std::string(aclGetRecentErrMsg()) == "aclrtMemcpy: count is larger than destMax");
  void* none = &same;
  BOOST_TEST(aclrtMalloc(&none, 0, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_ERROR_INVALID_PARAM);
  BOOST_TEST(none == nullptr);
  BOOST_TEST(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  BOOST_TEST(aclrtFree(dev) == ACL_SUCCESS);
  BOOST_TEST(aclrtFreeHost(host) == ACL_SUCCESS);
  BOOST_TEST(aclrtDestroyStream(stream) == ACL_SUCCESS);
  std::uint64_t ffts = 0;
  std::uint32_t len = 0;
  BOOST_TEST(rtGetC2cCtrlAddr(&ffts, &len) == RT_ERROR_NONE);
  BOOST_TEST((ffts != 0u && len > 0u));
  BOOST_TEST(aclFinalize() == ACL_SUCCESS);
}

BOOST_AUTO_TEST_CASE(a_prefetch_changes_nothing_but_checks_its_pointer) {
  std::vector<half> t(64);
  PTO_PREFETCH(t.data(), t.size() * sizeof(half), nullptr);
  PTO_PREFETCH<false, 4>(t.data(), t.size() * sizeof(half), nullptr);
  BOOST_TEST(error_text([] { PTO_PREFETCH(nullptr, 64, nullptr); }) ==
             "PTO_PREFETCH: operand tensor is a null GM pointer with 64 bytes to prefetch");
}

// TSYNC_CVID: each cluster's AIC writes its slot (its block index here) into its record and signals
// flag 12; the AIVs wait and read it. Every core returns the same slot; an AIV cannot read the record
// before the AIC wrote it (modeled: its wait ends at the AIC's set).
void cvid_kernel(__gm__ std::uint8_t* comm, __gm__ int* out) {
  const int core = int(get_block_idx()) * 3 + (get_subblockdim() == 2 ? 1 + int(get_subblockid()) : 0);
  out[core] = TSYNC_CVID(int(get_block_idx()), comm);
}

BOOST_AUTO_TEST_CASE(tsync_cvid_hands_the_aic_slot_to_its_aivs) {
  for (int threads : {1, 3}) {
    const int blocks = 4;
    std::vector<std::uint8_t> comm(std::size_t(blocks) * kCvCommSlotBytes, 0xFF);
    std::vector<int> out(std::size_t(3 * blocks), -1);
    launch_mix({.blocks = blocks, .host_threads = threads}, cvid_kernel, cvid_kernel, comm, out);
    for (int c = 0; c < 3 * blocks; ++c) BOOST_TEST(out[std::size_t(c)] == c / 3);
  }
  BOOST_TEST(_getFFTSMsg(CV_CORE_SYNC, CV_COMM_CTRL) == (1 | 2 << 4 | 12 << 8));
  BOOST_TEST(error_text([] {
               launch_mix({.blocks = 1}, [] { TSYNC_CVID(0, nullptr); }, [] {});
             }).find("TSYNC_CVID: operand cv_comm_buf is a null GM pointer") != std::string::npos);
}

// get_sys_cnt: the scalar pipe's modeled clock in the chip's 50 MHz ticks (1.85 GHz: 37 cycles a tick).
void timed(__gm__ std::uint64_t* t, __gm__ float* g) {
  using T = Tile<TileType::Vec, float, 64, 64>;
  using G = GlobalTensor<float, Shape<1, 1, 1, 64, 64>, pto::Stride<1, 1, 1, 64, 1>>;
  T a;
  TASSIGN(a, 0);
  G src(g);
  t[0] = get_sys_cnt();
  for (int i = 0; i < 8; ++i) TLOAD(a, src);
  pipe_barrier(PIPE_ALL);
  t[1] = get_sys_cnt();
}

BOOST_AUTO_TEST_CASE(get_sys_cnt_counts_modeled_time_in_50_mhz_ticks) {
  std::vector<std::uint64_t> t(2);
  std::vector<float> g(64 * 64, 1.0f);
  const LaunchReport r = launch({.blocks = 1, .timeline = true}, timed, t, g);
  BOOST_TEST(t[0] == 0u);
  const CoreReport& c = r.cores[0];
  std::uint64_t last_load = 0, barrier = 0;
  for (const TimelineEntry& e : c.timeline) {
    if (c.name(e) == "TLOAD") last_load = std::max(last_load, e.end);
    if (c.name(e).rfind("pipe_barrier", 0) == 0) barrier = e.end;
  }
  BOOST_TEST(last_load > 370u);  // 8 x 16 KiB: tens of ticks
  BOOST_TEST(barrier >= last_load);
  BOOST_TEST(t[1] == barrier / 37);  // read as the barrier ended
}

// A sub-view cut from another tile's data(), as the chip's kernels do: TASSIGN(view, (uint64_t)t.data() + bytes).
void subview(__gm__ float* out) {
  using Whole = Tile<TileType::Vec, float, 16, 64>;
  using Part = Tile<TileType::Vec, float, 16, 32>;
  using G = GlobalTensor<float, Shape<1, 1, 1, 16, 32>, pto::Stride<1, 1, 1, 32, 1>>;
  Whole w;
  Part p;
  TASSIGN(w, 0x2000);
  TASSIGN(p, reinterpret_cast<std::uint64_t>(w.data()) + 16 * 32 * sizeof(float));
  BOOST_TEST(reinterpret_cast<std::byte*>(p.data()) - reinterpret_cast<std::byte*>(w.data()) == 16 * 32 * 4);
  TEXPANDS(p, 5.0f);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  G g(out);
  TSTORE(g, p);
}

BOOST_AUTO_TEST_CASE(tassign_takes_an_address_from_another_tiles_data) {
  std::vector<float> out(16 * 32, 0.0f);
  launch({.blocks = 1}, subview, out);
  int fives = 0;
  for (float v : out) fives += v == 5.0f;
  BOOST_TEST(fives == 16 * 32);
}

// The L0C unit flag (pto-isa's UF_ENABLE): TMATMUL<AccPhase::Final> then TSTORE<STPhase::Final> with no
// M <-> FIX flags, twice into one Acc tile. The store waits for its mad and the second mad for the first
// store: the products are right, the checker finds nothing, and the timeline shows the order.
void unit_flag_kernel(__gm__ float* a, __gm__ float* b, __gm__ float* c) {
  constexpr int M = 16, K = 16, N = 16;
  Tile<TileType::Mat, float, M, K, BLayout::ColMajor, M, K, SLayout::RowMajor, 512> ma;
  Tile<TileType::Mat, float, K, N, BLayout::RowMajor, K, N, SLayout::ColMajor, 512> mb;
  TileLeft<float, M, K> l;
  TileRight<float, K, N> r;
  TileAcc<float, M, N> acc;
  TASSIGN(ma, 0x0);
  TASSIGN(mb, 0x4000);
  TASSIGN(l, 0x0);
  TASSIGN(r, 0x0);
  TASSIGN(acc, 0x0);
  GlobalTensor<float, Shape<1, 1, 1, M, K>, pto::Stride<1, 1, 1, K, 1>> ga(a);
  TLOAD(ma, ga);
  for (int i = 0; i < 2; ++i) {
    GlobalTensor<float, Shape<1, 1, 1, K, N>, pto::Stride<1, 1, 1, 1, K>, Layout::DN> gb(b + i * K * N);
    if (i) wait_flag(PIPE_M, PIPE_MTE2, EVENT_ID0);  // r is free again before B_1 comes
    TLOAD(mb, gb);
    set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    TMOV(l, ma);
    TMOV(r, mb);
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    TMATMUL<AccPhase::Final>(acc, l, r);
    if (!i) set_flag(PIPE_M, PIPE_MTE2, EVENT_ID0);
    GlobalTensor<float, Shape<1, 1, 1, M, N>, pto::Stride<1, 1, 1, N, 1>> gc(c + i * M * N);
    TSTORE<STPhase::Final>(gc, acc);
  }
}

BOOST_AUTO_TEST_CASE(the_unit_flag_orders_the_cube_and_the_fixpipe) {
  constexpr int M = 16, K = 16, N = 16;
  std::vector<float> a(M * K), b(2 * K * N), c(2 * M * N, 0.0f);
  for (int i = 0; i < M * K; ++i) a[std::size_t(i)] = float(i % 7) - 3.0f;
  for (int i = 0; i < 2 * K * N; ++i) b[std::size_t(i)] = float(i % 5) - 2.0f;
  const LaunchReport r = launch({.blocks = 1, .timeline = true, .check = SyncCheck::Report}, unit_flag_kernel, a, b, c);
  BOOST_TEST(r.findings().empty());
  int compared = 0;
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j, ++compared) {
        double ref = 0;
        for (int k = 0; k < K; ++k) ref += double(a[std::size_t(i * K + k)]) * double(b[std::size_t(p * K * N + j * K + k)]);
        BOOST_TEST(c[std::size_t(p * M * N + i * N + j)] == ref);
      }
  BOOST_TEST(compared == 2 * M * N);
  const CoreReport& core = r.cores[0];
  std::vector<const TimelineEntry*> mads, stores;
  for (const TimelineEntry& e : core.timeline) {
    if (core.name(e) == "TMATMUL") mads.push_back(&e);
    if (core.name(e) == "TSTORE") stores.push_back(&e);
  }
  BOOST_TEST_REQUIRE((mads.size() == 2u && stores.size() == 2u));
  BOOST_TEST(stores[0]->start >= mads[0]->end);  // FIX waits for the mad's unit flag ...
  BOOST_TEST(mads[1]->start >= stores[0]->end);  // ... and the next mad for the fixpipe's read
  BOOST_TEST(stores[1]->start >= mads[1]->end);
}

// A driver's launches take their settings from the environment; a bad value is an error naming it (read
// once, when the chevron settings are first asked for: a failed read is tried again).
BOOST_AUTO_TEST_CASE(a_bad_pto_host_threads_is_an_error) {
  ::setenv("PTO_HOST_THREADS", "two", 1);
  BOOST_TEST(error_text([] { chevron_config(); }) ==
             "PTO_HOST_THREADS='two': use a number of host threads, 0 (all) to 4096");
  ::setenv("PTO_HOST_THREADS", "3", 1);
  BOOST_TEST(chevron_config().host_threads == 3);
  ::unsetenv("PTO_HOST_THREADS");
}
