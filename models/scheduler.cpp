#include "models/scheduler.h"

#include <algorithm>

namespace ascend::model {

Tick now() {
  return sc_core::sc_time_stamp().value();
}

Scheduler::Scheduler(const sc_core::sc_module_name& name) : sc_core::sc_module(name) {
  SC_METHOD(fire);
  sensitive << wake_;
  dont_initialize();
}

void Scheduler::at(Tick t, std::function<void()> fn) {
  Tick n = now();
  if (t < n) t = n;
  heap_.push_back(Item{t, seq_++, std::move(fn)});
  std::push_heap(heap_.begin(), heap_.end(), later);
  if (!firing_ && t < armed_) arm();
}

void Scheduler::fault(const SimError& e) {
  if (fault_) return;  // the first fault is the cause; later ones follow from the stop
  fault_ = std::make_unique<SimError>(e);
  sc_core::sc_stop();
}

void Scheduler::arm() {
  armed_ = heap_.front().t;
  wake_.notify(sc_core::sc_time::from_value(armed_ - now()));
}

void Scheduler::fire() {
  firing_ = true;
  armed_ = kNever;
  Tick n = now();
  while (!heap_.empty() && heap_.front().t <= n) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    Item item = std::move(heap_.back());
    heap_.pop_back();
    ++fired_;
    item.fn();
  }
  firing_ = false;
  if (!heap_.empty()) arm();
}

}  // namespace ascend::model
