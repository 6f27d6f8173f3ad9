// Which core of a launch is which: a plain launch's cores are blocks 0..N-1 of kind Any; a cluster
// launch (pto::launch_mix) has three cores per block, in order the cube core (AIC) and the two vector
// cores (AIV0, AIV1), so core 3b + k is block b's AIC (k = 0) or AIV(k - 1).
#pragma once
#include <string>

#include <pto/isa/enums.hpp>

namespace pto::detail {

struct CoreLayout {
  int blocks = 1;         // blocks (clusters) of the launch: get_block_num()
  bool clusters = false;  // three cores per block

  int cores() const { return clusters ? 3 * blocks : blocks; }
  int block(int core) const { return clusters ? core / 3 : core; }
  CoreKind kind(int core) const { return !clusters ? CoreKind::Any : core % 3 == 0 ? CoreKind::Cube : CoreKind::Vector; }
  int subblock(int core) const { return clusters && core % 3 ? core % 3 - 1 : 0; }  // get_subblockid()
  int aic(int block) const { return 3 * block; }                                     // precondition: clusters
  int aiv(int block, int sub) const { return 3 * block + 1 + sub; }                  // precondition: clusters
  // "core 5", "cluster 1 AIC", "cluster 1 AIV0"
  std::string label(int core) const {
    if (!clusters) return "core " + std::to_string(core);
    const int k = core % 3;
    return "cluster " + std::to_string(core / 3) + (k == 0 ? " AIC" : k == 1 ? " AIV0" : " AIV1");
  }
};

// Who ended a wait: the core whose signal it was (index in the launch), its instruction there and that
// instruction's name ("TPOP", "SYNCALL"); core -1: none.
struct SignalOrigin {
  int core = -1;
  std::uint64_t seq = 0;
  const char* name = nullptr;
};

}  // namespace pto::detail
