// An arbitration that does not depend on the order in which requests are booked: the resource
// keeps its reservations after the current simulated time as a calendar, and a request takes the
// first gap at or after its ready time that holds its whole occupancy.
//
// When requests are booked in the order of their ready times (as the reference model books them:
// each at its own start), every gap lies before the latest ready time, so each request starts at
// max(ready, end of the last reservation): exactly FifoArbitration. A request booked late in
// host order (a core that ran ahead of another, as in a loosely-timed run) instead takes a free
// slot before reservations that are ready later, where a FIFO in booking order would queue it
// behind them. Either way the resource serves one transfer at a time and is never idle while a
// booked request is ready (work-conserving).
//
// How far its grants stray from the time-ordered ideal is measured, not assumed: once no request
// can be ready before a reservation any more (its ready time has passed), the requests are
// replayed in (ready, booking) order through a FIFO, and every grant that differs from that
// replay is a booking inversion, counted with its distance in time.
//
// Contract: every request is ready at or after the current simulated time (now()) when it is
// booked; reservations that end before it are dropped.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "models/bandwidth_server.h"
#include "models/counters.h"
#include "models/time.h"

namespace ascend::model {

class CalendarArbitration final : public ArbitrationPolicy {
 public:
  Tick grant(Tick ready, Tick occupancy) override;
  CounterSet counters() const override;

  // Replays every request booked so far (the end of a run: nothing is booked after it).
  void settle() const { replay(kNever); }
  uint64_t inversions() const {
    settle();
    return inversions_;
  }
  Tick inversion_ps() const {
    settle();
    return inversion_ps_;
  }
  Tick inversion_max_ps() const {
    settle();
    return inversion_max_ps_;
  }
  // Reservations held now (merged where they touch), for tests of the calendar's upkeep.
  size_t reservations() const { return busy_.size() - head_; }

  static constexpr CounterSpec kInversions{
      "booking_inversions", "transfers",
      "requests granted another start than a FIFO in order of ready time would have given them "
      "(a request booked after others that were ready later)"};
  static constexpr CounterSpec kInversionPs{
      "inversion_ps", "ps", "the sum over those requests of how far their start moved"};
  static constexpr CounterSpec kInversionMaxPs{
      "inversion_max_ps", "ps", "the farthest any one of those requests' start moved"};

 private:
  struct Interval {
    Tick start, end;
  };
  struct Request {
    Tick ready, occupancy, start;
    uint64_t seq;
    // The heap's order: a FIFO's, by ready time, then by booking.
    bool operator>(const Request& o) const {
      return ready != o.ready ? ready > o.ready : seq > o.seq;
    }
  };
  // Drops reservations that end by `t`: no request ready at or after `t` can use them.
  void retire(Tick t);
  void insert(size_t at, Interval iv);
  // Replays, in (ready, seq) order, the requests ready before `t` (final: any later request is
  // ready at or after it), counting the inversions among them.
  void replay(Tick t) const;

  std::vector<Interval> busy_;  // from head_: disjoint, by start; none touches the next
  size_t head_ = 0;
  uint64_t seq_ = 0;
  // The counterfactual FIFO (mutable: settling it is an observation, not a booking).
  mutable std::priority_queue<Request, std::vector<Request>, std::greater<Request>> pending_;
  mutable Tick fifo_free_ = 0;
  mutable uint64_t inversions_ = 0;
  mutable Tick inversion_ps_ = 0;
  mutable Tick inversion_max_ps_ = 0;
};

}  // namespace ascend::model
