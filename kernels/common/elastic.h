// Fault injection and elastic scale-down ([V3-API]), shared by the MC2 kernels. Dead ranks
// run nothing. With scale-down the host gives the survivors elasticInfo, int32
// [isScaledDown, W, S, E, Table1 (W0), Table2 (W0)], Table1[rank] = the rank in the new EP group
// or -1, Table2[new rank] = the rank; the kernel works in the new rank space and turns every
// destination into a rank with Table2 before any window address is looked up.
#pragma once

#include <cstdint>
#include <vector>

#include "api/kernel_operator.h"

namespace ascend::common {

// The host's view of a run with dead ranks.
struct Elastic {
  int world0 = 0;           // W0: the ranks (dies) of the communication domain
  std::vector<int> dead;    // the dead ranks, ascending
  bool scale_down = false;  // elasticInfo is given to the survivors
  std::vector<int32_t> table1, table2;
  int world = 0, shared_ranks = 0, experts = 0;  // W, S and E after the scale-down
  int shared_ranks0 = 0, experts0 = 0;           // and before it

  bool any_dead() const { return !dead.empty(); }
  bool is_dead(int rank) const;
  // The die of rank `r` of the EP group the kernels run in (the new one after a scale-down).
  int physical(int r) const { return scale_down ? table2[static_cast<size_t>(r)] : r; }
  std::vector<int32_t> info() const;  // the elasticInfo tensor (4 + 2 W0), Table2 padded with -1
  std::string dead_list() const;      // "5, 17"
};

// The device's view: elasticInfo read into UB once; the scalar looks the tables up there.
class ElasticTable {
 public:
  // `info` nullptr: no scale-down (ranks are dies). `ub` holds at least 4 + 2 W0 int32.
  void Init(GM_ADDR info, int world0, const AscendC::LocalTensor<int32_t>& ub) {
    using namespace AscendC;
    if (info == nullptr) return;
    ub_ = ub;
    GlobalTensor<int32_t> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(info), 4ull + 2 * world0);
    DataCopyPad(ub_, gm,
                DataCopyExtParams{1, static_cast<uint32_t>(4 * (4 + 2 * world0)), 0, 0, 0});
    SetFlag<HardEvent::MTE2_S>(0);
    WaitFlag<HardEvent::MTE2_S>(0);
    world0_ = world0;
    scaled_ = ub_.GetValue(0) != 0;
  }
  bool ScaledDown() const { return scaled_; }
  int World() const { return ub_.GetValue(1); }
  int SharedRanks() const { return ub_.GetValue(2); }
  int Experts() const { return ub_.GetValue(3); }
  // Table1: this die's rank in the new group (the die itself without a scale-down).
  int NewRank(uint32_t die) const {
    return scaled_ ? ub_.GetValue(4 + die) : static_cast<int>(die);
  }
  // Table2: the die of a rank of the new group.
  uint32_t Die(int rank) const {
    return scaled_ ? static_cast<uint32_t>(ub_.GetValue(static_cast<uint32_t>(4 + world0_ + rank)))
                   : static_cast<uint32_t>(rank);
  }

 private:
  AscendC::LocalTensor<int32_t> ub_;
  int world0_ = 0;
  bool scaled_ = false;
};

}  // namespace ascend::common
