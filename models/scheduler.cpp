#include "models/scheduler.h"

#include <algorithm>

#include "models/host_ticks.h"

namespace ascend::model {

Tick detail::current_ps = 0;

void refresh_now() {
  detail::current_ps = sc_core::sc_time_stamp().value();
}

// One-off callbacks, kept in slots that are reused once fired.
class Scheduler::Callbacks : public EventTarget {
 public:
  uint32_t add(std::function<void()> fn) {
    if (free_.empty()) {
      fns_.push_back(std::move(fn));
      return static_cast<uint32_t>(fns_.size() - 1);
    }
    uint32_t slot = free_.back();
    free_.pop_back();
    fns_[slot] = std::move(fn);
    return slot;
  }
  void on_event(uint32_t slot, uint32_t) override {
    std::function<void()> fn = std::move(fns_[slot]);
    fns_[slot] = nullptr;
    free_.push_back(slot);
    fn();
  }

 private:
  std::vector<std::function<void()>> fns_;
  std::vector<uint32_t> free_;
};

Scheduler::Scheduler(const sc_core::sc_module_name& name)
    : sc_core::sc_module(name), callbacks_(std::make_unique<Callbacks>()) {
  SC_METHOD(fire);
  sensitive << wake_;
  dont_initialize();
}

Scheduler::~Scheduler() = default;

void Scheduler::post(Tick t, EventClass cls, uint32_t uid, EventTarget* target, uint32_t op,
                     uint32_t arg) {
  Tick n = now();
  if (t < n) t = n;
  heap_.push(Item{t, order_of(cls, uid, seq_++), target, op, arg});
  if (!firing_ && t < armed_) wake(t);
}

void Scheduler::post_reserved(uint64_t order, EventTarget* target, uint32_t op, uint32_t arg) {
  Tick t = now();
  heap_.push(Item{t, order, target, op, arg});
  if (!firing_ && t < armed_) wake(t);
}

void Scheduler::at(Tick t, std::function<void()> fn) {
  post(t, EventClass::Model, kNoUid, callbacks_.get(), callbacks_->add(std::move(fn)), 0);
}

void Scheduler::fault(const SimError& e) {
  if (fault_) return;  // the first fault is the cause; later ones follow from the stop
  fault_ = std::make_unique<SimError>(e);
  sc_core::sc_stop();
}

void Scheduler::wake(Tick t) {
  armed_ = t;
  wake_.notify(sc_core::sc_time::from_value(t - sc_core::sc_time_stamp().value()));
}

void Scheduler::drop_moot() {
  while (!heap_.empty() && may_be_moot(heap_.top()) &&
         !heap_.top().target->live(heap_.top().op, heap_.top().arg))
    heap_.pop();
}

// One activation handles one instant's Resumes (step 1), or the rest of an instant (step 2) and
// then every later instant up to the next Resume: no kernel thread runs between them, and models
// read the time from now(), so SystemC's clock need not visit those instants. It is brought to
// the next Resume's time (or the horizon) before any kernel thread runs again.
void Scheduler::fire() {
  const uint64_t entered = host_ticks();
  firing_ = true;
  armed_ = kNever;
  refresh_now();
  sc_now_ = now();
  Tick n = sc_now_;
  now_ = n;
  auto is_resume = [](const Item& i) {
    return i.order >> kClassShift == static_cast<uint64_t>(EventClass::Resume);
  };
  auto pop_and_fire = [&] {
    Item item = heap_.top();
    heap_.pop();
    // The next event's target is likely cold (thousands of cores take turns): start loading it
    // while this one fires.
    if (!heap_.empty()) {
      const char* next = reinterpret_cast<const char*>(heap_.top().target);
      for (int line = 0; line < 24; ++line) __builtin_prefetch(next + 64 * line);
    }
    ++fired_;
    item.target->on_event(item.op, item.arg);
  };
  drop_moot();
  if (!heap_.empty() && heap_.top().t <= n && is_resume(heap_.top())) {
    // Step 1 of an instant: wake the threads due now; they run when this method returns, and
    // the instant's other events fire in the next delta cycle.
    do {
      pop_and_fire();
      drop_moot();
    } while (!heap_.empty() && heap_.top().t <= n && is_resume(heap_.top()));
  } else {
    bool woke = false;  // a thread was woken: it runs at this instant, so time stays here
    for (;;) {
      drop_moot();
      if (heap_.empty() || fault_) break;
      const Item& top = heap_.top();
      if (top.t > n) {
        if (woke || is_resume(top) || top.t > horizon_) break;
        n = top.t;  // run ahead: only this method runs until the next Resume
        detail::current_ps = n;
        now_ = n;
      }
      woke = woke || is_resume(top);
      pop_and_fire();
    }
  }
  firing_ = false;
  drop_moot();
  if (!heap_.empty()) {
    wake(heap_.top().t);
  } else if (n > sc_now_) {
    wake(n);  // nothing left: bring SystemC's clock to where the model is
  }
  pub_events_.store(fired_, std::memory_order_relaxed);
  pub_time_.store(n, std::memory_order_relaxed);
  event_ticks_ += host_ticks() - entered;
}

}  // namespace ascend::model
