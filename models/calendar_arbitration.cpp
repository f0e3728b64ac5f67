#include "models/calendar_arbitration.h"

#include <algorithm>

namespace ascend::model {

Tick CalendarArbitration::grant(Tick ready, Tick occupancy) {
  const Tick t = now();
  retire(t);
  replay(t + 1);
  Tick start = ready;
  const size_t n = busy_.size();
  if (head_ == n || ready >= busy_[n - 1].end) {  // after every reservation: append
    if (occupancy > 0) insert(n, {ready, ready + occupancy});
  } else {
    // The first reservation that ends after `ready`; then the first gap from there that fits.
    size_t i = std::upper_bound(busy_.begin() + static_cast<std::ptrdiff_t>(head_), busy_.end(),
                                ready, [](Tick r, const Interval& iv) { return r < iv.end; }) -
               busy_.begin();
    start = std::max(ready, busy_[i].start < ready ? busy_[i].end : ready);
    if (busy_[i].start < ready) ++i;  // `ready` falls inside it: the gap after it is the first
    // A zero occupancy fits any gap but still queues behind a reservation it falls inside, as in a
    // FIFO; a positive one needs a gap at least that long.
    while (i < n &&
           (occupancy == 0 ? start >= busy_[i].start : busy_[i].start - start < occupancy)) {
      start = std::max(start, busy_[i].end);
      ++i;
    }
    if (occupancy > 0) insert(i, {start, start + occupancy});
  }
  pending_.push(Request{ready, occupancy, start, seq_++});
  return start;
}

void CalendarArbitration::insert(size_t at, Interval iv) {
  // Merge with the neighbours it touches, so that gaps are never empty.
  if (at > head_ && busy_[at - 1].end == iv.start) {
    busy_[at - 1].end = iv.end;
    if (at < busy_.size() && busy_[at].start == iv.end) {
      busy_[at - 1].end = busy_[at].end;
      busy_.erase(busy_.begin() + static_cast<std::ptrdiff_t>(at));
    }
    return;
  }
  if (at < busy_.size() && busy_[at].start == iv.end) {
    busy_[at].start = iv.start;
    return;
  }
  busy_.insert(busy_.begin() + static_cast<std::ptrdiff_t>(at), iv);
}

void CalendarArbitration::retire(Tick t) {
  while (head_ < busy_.size() && busy_[head_].end <= t) ++head_;
  if (head_ > 64 && head_ * 2 > busy_.size()) {
    busy_.erase(busy_.begin(), busy_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
}

void CalendarArbitration::replay(Tick t) const {
  while (!pending_.empty() && pending_.top().ready < t) {
    const Request& r = pending_.top();
    const Tick fifo = std::max(r.ready, fifo_free_);
    fifo_free_ = fifo + r.occupancy;
    if (fifo != r.start) {
      ++inversions_;
      const Tick moved = fifo > r.start ? fifo - r.start : r.start - fifo;
      inversion_ps_ += moved;
      inversion_max_ps_ = std::max(inversion_max_ps_, moved);
    }
    pending_.pop();
  }
}

CounterSet CalendarArbitration::counters() const {
  replay(now() + 1);  // the requests ready by now are final
  CounterSet s;
  s.add(kInversions, inversions_);
  s.add(kInversionPs, inversion_ps_);
  s.add(kInversionMaxPs, inversion_max_ps_);
  return s;
}

}  // namespace ascend::model
