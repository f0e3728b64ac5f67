// A core's pipes timed by max-plus recurrences over their state, in program order, instead of by
// events: when each instruction leaves its pipe's queue follows from when it was handed over and
// from what came before it.
//  - work:      max(handed, previous leave of its pipe, its engine free)
//  - WaitFlag:  max(handed, previous leave, the time of the SetFlag it consumes): the k-th wait
//               on (event, id) takes the k-th set, since every set of one event comes from one
//               pipe, in time order
//  - SetFlag, CrossCoreSetFlag, PipeBarrier: max(handed, previous leave, the completion of every
//               earlier work instruction of the pipe)
// and the scalar's waits, from its clock c:
//  - a full queue: the n-th instruction of a pipe is handed over at max(c, the leave of its
//    (n - depth)-th), since an entry leaves the queue when its instruction starts
//  - WaitFlag<X_S>: max(c, the set it takes), as a pipe's WaitFlag
//  - PipeBarrier<PIPE_ALL> (and SyncAll's, before the barrier): max(c, every instruction's leave
//    and every completion)
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
#include <vector>

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

  // ---- the scalar's waits ----
  void set_queue_depth(size_t depth) {
    for (auto& r : leaves_) r.assign(depth, 0);
  }
  // When the scalar, at `clock`, may hand pipe p its next instruction.
  Tick room_at(PipeId p, Tick clock) const {
    const uint64_t n = handed_[idx(p)], depth = leaves_[idx(p)].size();
    return n < depth ? clock : std::max(clock, leaves_[idx(p)][(n - depth) % depth]);
  }
  void handed(PipeId p) { ++handed_[idx(p)]; }
  // When the scalar, at `clock`, takes a set of (e, id) (WaitFlag<X_S>); kNever if none yet.
  Tick scalar_wait(Tick clock, HardEvent e, uint32_t id) const {
    auto it = sets_.find(key(e, id));
    if (it == sets_.end() || it->second.empty()) return kNever;
    return std::max(clock, it->second.front());
  }
  // When every instruction handed so far has left its queue and completed.
  Tick all_done(Tick clock) const {
    Tick t = clock;
    for (size_t p = 0; p < kPipes; ++p) t = std::max({t, left_[p], done_[p]});
    return t;
  }

  // What happened: work started on pipe p completes at `done`; a flag was set at `t`; a WaitFlag
  // took the oldest set; an instruction left pipe p's queue at `t`.
  void work_started(PipeId p, Tick done) { done_[idx(p)] = std::max(done_[idx(p)], done); }
  void flag_set(HardEvent e, uint32_t id, Tick t) { sets_[key(e, id)].push_back(t); }
  void waited(HardEvent e, uint32_t id) { sets_[key(e, id)].pop_front(); }
  void left(PipeId p, Tick t) {
    std::vector<Tick>& ring = leaves_[idx(p)];
    if (!ring.empty()) ring[left_count_[idx(p)] % ring.size()] = t;
    ++left_count_[idx(p)];
    left_[idx(p)] = t;
  }
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
  // Per pipe: instructions handed over and left, and the leave times of the last `depth`.
  std::array<uint64_t, kPipes> handed_{}, left_count_{};
  std::array<std::vector<Tick>, kPipes> leaves_;
};

}  // namespace ascend::model
