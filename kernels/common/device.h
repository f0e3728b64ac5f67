// Device-side pieces more than one kernel uses, written against the Ascend C facade: the 0/1
// window flip and the simulator's phase stamps.
#pragma once

#include <cstdint>

#include "api/kernel_operator.h"
#include "kernels/common/split.h"

namespace ascend::common {

// The 0/1 flip of an MC2 kernel: each core keeps a state word (512 B apart from its neighbours')
// at `word_base` of its own status window. A call uses the half the word names and stores the
// other for the next call; without `flip` every call uses half 0 (and the word still alternates).
// Under fault.flip_rank the rank's cores take the other half than the word names.
inline int FlipWinState(uint64_t word_base, bool flip = true) {
  using namespace AscendC;
  GlobalTensor<int32_t> state;
  state.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(GetWindStateAddrByRankId(GetRankId()) +
                                                          word_base + GetBlockIdx() * 512ull),
                        8);
  int data_state = flip ? state.GetValue(0) : 0;
  state.SetValue(0, data_state ? 0 : 1);
  return SimWindowFlipFault() ? 1 - data_state : data_state;
}

// Named phase boundaries for the statistics: `per_core` timestamps per core in a host array
// (nullptr: not recorded). Reads the clock only, so it adds no synchronization.
class PhaseStamps {
 public:
  PhaseStamps() = default;
  PhaseStamps(uint64_t* rank_ps, int per_core)
      : ps_(rank_ps ? rank_ps + AscendC::GetBlockIdx() * per_core : nullptr) {}
  void Stamp(int i) const {
    if (ps_) ps_[i] = AscendC::SimNowPs();
  }

 private:
  uint64_t* ps_ = nullptr;
};

// A what-if stall of the scalar unit, given in simulated ps (kernel knobs are in us).
inline void StallPs(uint64_t ps) {
  if (ps) AscendC::SimStall(AscendC::SimCyclesIn(ps));
}

}  // namespace ascend::common
