// What orders a core's pipes and cores among themselves: the flags of SetFlag/WaitFlag (counted
// per HardEvent and id), the cross-core flags and SyncAll barriers of a die. The Core's side of
// them (its waits, sets and the barrier's arrival) is in core_sync.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "models/events.h"
#include "models/time.h"

namespace ascend::model {

class Core;

// The ids of CrossCoreSetFlag/WaitFlag: each a counter that holds up to kCrossFlagMax sets.
constexpr int kCrossFlags = 16;
constexpr int kCrossFlagMax = 15;

// How many SetFlags of each (HardEvent, id) have not been consumed by a WaitFlag yet. Ids are the
// user's 0..kUserEventIds-1 and the queues' kQueueEventBase.. (a few per TQue): a flat table.
class FlagCounts {
 public:
  int count(HardEvent e, uint32_t id) const {
    const std::vector<int>& v = by_event_[static_cast<int>(e)];
    uint32_t i = index(id);
    return i < v.size() ? v[i] : 0;
  }
  void add(HardEvent e, uint32_t id) {
    std::vector<int>& v = by_event_[static_cast<int>(e)];
    uint32_t i = index(id);
    if (i >= v.size()) v.resize(i + 1, 0);
    ++v[i];
  }
  void consume(HardEvent e, uint32_t id) { --by_event_[static_cast<int>(e)][index(id)]; }
  void clear() {
    for (std::vector<int>& v : by_event_) std::fill(v.begin(), v.end(), 0);
  }

 private:
  static uint32_t index(uint32_t id) {
    return id < kQueueEventBase ? id : kUserEventIds + (id - kQueueEventBase);
  }
  std::array<std::vector<int>, kHardEvents> by_event_;
};

// SyncAll: every core of the barrier's group on one die arrives, then all leave together,
// syncall_cycles after the last arrival.
class SyncAllBarrier {
 public:
  void reset(int expected) {
    expected_ = expected;
    arrived_ = 0;
  }
  void arrive(Core& core);
  int expected() const { return expected_; }
  int arrived() const { return arrived_; }

 private:
  int expected_ = 0;
  int arrived_ = 0;
  uint64_t generation_ = 0;
  Tick release_at_ = 0;
  std::vector<Core*> waiting_;
};

struct DieBarriers {
  SyncAllBarrier aiv, aic, mixed;
  // CrossCoreSetFlag mode 0 (every core of a kind): the sets of the round under way, per flag. The
  // group's flag rises on every core of the kind, once, when the last one has set it.
  std::array<int, kCrossFlags> group_sets_aiv{}, group_sets_aic{};
  void reset_groups() {
    group_sets_aiv.fill(0);
    group_sets_aic.fill(0);
  }
};

}  // namespace ascend::model
