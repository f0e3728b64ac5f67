// The Scheduler's pending events: a 4-ary min-heap on (time, order key). Four children per node
// halve the levels a pop walks down compared with a binary heap, and a node's children share a
// cache line or two; sifting moves a hole instead of swapping.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/time.h"

namespace ascend::model {

class EventTarget;

struct PendingEvent {
  Tick t;
  uint64_t order;  // class (2 bits) | uid (20 bits) | posting sequence (42 bits)
  EventTarget* target;
  uint32_t op, arg;
};

class EventHeap {
 public:
  bool empty() const { return v_.empty(); }
  size_t size() const { return v_.size(); }
  const PendingEvent& top() const { return v_.front(); }
  void push(const PendingEvent& e) {
    size_t i = v_.size();
    v_.push_back(e);
    while (i > 0) {
      size_t parent = (i - 1) / 4;
      if (!before(e, v_[parent])) break;
      v_[i] = v_[parent];
      i = parent;
    }
    v_[i] = e;
  }
  void pop() {
    PendingEvent last = v_.back();
    v_.pop_back();
    const size_t n = v_.size();
    if (n == 0) return;
    size_t i = 0;
    for (;;) {
      size_t first = 4 * i + 1;
      if (first >= n) break;
      size_t end = first + 4 < n ? first + 4 : n;
      size_t best = first;
      for (size_t c = first + 1; c < end; ++c)
        if (before(v_[c], v_[best])) best = c;
      if (!before(v_[best], last)) break;
      v_[i] = v_[best];
      i = best;
    }
    v_[i] = last;
  }

 private:
  static bool before(const PendingEvent& a, const PendingEvent& b) {
    return a.t != b.t ? a.t < b.t : a.order < b.order;
  }
  std::vector<PendingEvent> v_;
};

}  // namespace ascend::model
