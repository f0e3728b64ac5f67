// A core's pipes timed by max-plus recurrences over their state, in program order, instead of by
// events: when each instruction leaves its pipe's queue follows from when it was handed over and
// from what came before it.
//  - work:      max(handed, previous leave of its pipe, its engine free)
//  - WaitFlag:  max(handed, previous leave, the time of the SetFlag it consumes): the k-th wait
//               on (event, id) takes the k-th set, since every set of one event comes from one
//               pipe, in time order
//  - SetFlag, CrossCoreSetFlag, PipeBarrier: max(handed, previous leave, the completion of every
//               earlier work instruction of the pipe)
// The reference model (models/pipes.h) steps its queues by events; with sim.check_issue_timing=1
// each core checks every instruction that leaves a queue against these recurrences, given the
// same bookings of the shared resources (a DMA's engine hold and completion), and stops the run
// with an internal error at the first that differs. A mode that times pipes at issue computes
// the same numbers without the events.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <unordered_map>

#include "models/instruction.h"
#include "models/time.h"

namespace ascend::model {

class PipeTimeline {
 public:
  // When work handed at `at` may start on pipe p, its engine being free at `engine_free`.
  Tick work_start(PipeId p, Tick at, Tick engine_free) const {
    return std::max({at, left_[idx(p)], engine_free});
  }
  // When a SetFlag, CrossCoreSetFlag or PipeBarrier handed at `at` runs on pipe p.
  Tick after_all(PipeId p, Tick at) const { return std::max({at, left_[idx(p)], done_[idx(p)]}); }
  // When a WaitFlag handed at `at` on pipe p takes its set; kNever while that set has not run.
  Tick wait_pass(PipeId p, Tick at, HardEvent e, uint32_t id) const {
    auto it = sets_.find(key(e, id));
    if (it == sets_.end() || it->second.empty()) return kNever;
    return std::max({at, left_[idx(p)], it->second.front()});
  }

  // What happened: work started on pipe p completes at `done`; a flag was set at `t`; a WaitFlag
  // took the oldest set; an instruction left pipe p's queue at `t`.
  void work_started(PipeId p, Tick done) { done_[idx(p)] = std::max(done_[idx(p)], done); }
  void flag_set(HardEvent e, uint32_t id, Tick t) { sets_[key(e, id)].push_back(t); }
  void waited(HardEvent e, uint32_t id) { sets_[key(e, id)].pop_front(); }
  void left(PipeId p, Tick t) { left_[idx(p)] = t; }
  // A launch starts with no flag set (sets nobody waited for are dropped, as the core's are).
  void launch() { sets_.clear(); }
  // Instructions checked so far.
  uint64_t checked = 0;

 private:
  static size_t idx(PipeId p) { return static_cast<size_t>(p); }
  static uint64_t key(HardEvent e, uint32_t id) {
    return (uint64_t{static_cast<uint32_t>(e)} << 32) | id;
  }
  std::array<Tick, kPipes> left_{};
  std::array<Tick, kPipes> done_{};
  std::unordered_map<uint64_t, std::deque<Tick>> sets_;
};

}  // namespace ascend::model
