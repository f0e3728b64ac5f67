// One event-driven engine for everything that is not a kernel's scalar program (pipes, DMA
// completions, barriers) and for waking the scalar programs themselves. Models ask for an event at
// an absolute time; a single SC_METHOD fires them, so the SystemC kernel holds one pending timed
// notification for the whole run and nothing ticks idle cycles.
//
// The order of events at one picosecond is defined by the model, not by SystemC's internals:
//  1. Resume events (a kernel's scalar thread continues) fire first, and the threads they wake run
//     before anything else of that instant, in core order;
//  2. then every other event of the instant in (class, core, posting order): Push events (what a
//     scalar program hands to its core: an instruction entering a pipe queue, a SetFlag from S),
//     then Model events (pipe steps, DMA starts and completions).
// Threads woken during step 2 run after it, and what they post at the same instant is fired next.
// Because ties are broken by these keys, a scalar program that runs ahead of simulated time
// (Core's lazy scalar clock) produces exactly the same order as one that waits at every step.
//
// An activation that fires step 2 goes on to the later instants while no kernel thread has been
// woken and the next event is not a Resume: nothing but the models' events runs there, and they
// read the time from now(), so SystemC's clock need not stop at each of those instants (it is
// brought to the next Resume's time before any thread runs). A run of the pipes between two
// thread wake-ups costs one SystemC activation instead of one per instant.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <systemc>
#include <vector>

#include "models/errors.h"
#include "models/event_heap.h"
#include "models/time.h"

namespace ascend::model {

// Something an event is delivered to: `op` and `arg` are the target's own codes.
class EventTarget {
 public:
  virtual ~EventTarget() = default;
  virtual void on_event(uint32_t op, uint32_t arg) = 0;
  // False for an event that has become moot (a wake-up for a wait that is over): it is dropped
  // without firing, and simulated time never advances to it.
  virtual bool live(uint32_t /*op*/, uint32_t /*arg*/) const { return true; }
};

enum class EventClass : uint8_t { Resume = 0, Push = 1, Model = 2 };

class Scheduler : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Scheduler);
  explicit Scheduler(const sc_core::sc_module_name& name);
  ~Scheduler() override;

  // Delivers (op, arg) to `target` at absolute time t (t >= now), ordered at equal times by
  // (cls, uid, posting order). `uid` (< 2^20) is the core the event belongs to (kNoUid for none).
  void post(Tick t, EventClass cls, uint32_t uid, EventTarget* target, uint32_t op, uint32_t arg);
  // The order key an event of (cls, uid) posted at now would get, taken now: the event may be
  // posted later with it (post_reserved), or run in place when nothing would fire before it
  // (fires_next).
  uint64_t reserve(EventClass cls, uint32_t uid) { return order_of(cls, uid, seq_++); }
  void post_reserved(uint64_t order, EventTarget* target, uint32_t op, uint32_t arg);
  // Whether an event of key `order` at now would be the next to fire: nothing pending before it.
  // A pending Resume of now answers no (it is not looked past).
  bool fires_next(uint64_t order) {
    drop_moot();
    return heap_.empty() || heap_.top().t > now_ ||
           (heap_.top().t == now_ && heap_.top().order > order);
  }
  // A one-off callback (a Model event of no core); not for hot paths.
  void at(Tick t, std::function<void()> fn);
  static constexpr uint32_t kNoUid = (1u << 20) - 1;

  // The latest time an activation may run ahead to (sc_start's end): events after it wait for
  // the next sc_start.
  void set_horizon(Tick t) { horizon_ = t; }
  uint64_t fired() const { return fired_; }
  // The simulator's own profile, in host ticks (models/host_ticks.h): inside this method's
  // activations (the models' events), and inside the kernels' threads (ScalarUnit::wait_resume adds
  // each run of a thread, from its resumption to its next wait).
  uint64_t event_host_ticks() const { return event_ticks_; }
  uint64_t kernel_host_ticks() const { return kernel_ticks_; }
  void add_kernel_host_ticks(uint64_t t) { kernel_ticks_ += t; }
  // For a progress display on another thread: events fired and simulated time, as of the end of
  // the scheduler's last evaluation (published with relaxed atomics; reading them changes
  // nothing in the run).
  uint64_t published_events() const { return pub_events_.load(std::memory_order_relaxed); }
  Tick published_time() const { return pub_time_.load(std::memory_order_relaxed); }

  // Records an error raised inside a kernel (the first one of the run wins; the run then ends
  // with its status) and stops the simulation.
  void fault(const SimError& e);
  const SimError* first_fault() const { return fault_.get(); }

 private:
  using Item = PendingEvent;
  static constexpr int kSeqBits = 42;
  static constexpr int kClassShift = 62;
  static uint64_t order_of(EventClass cls, uint32_t uid, uint64_t seq) {
    return static_cast<uint64_t>(cls) << kClassShift | static_cast<uint64_t>(uid) << kSeqBits |
           (seq & ((uint64_t{1} << kSeqBits) - 1));
  }
  // Only a Resume can become moot: other events need not ask their target.
  static bool may_be_moot(const Item& i) {
    return i.order >> kClassShift == static_cast<uint64_t>(EventClass::Resume);
  }
  class Callbacks;
  void fire();
  void wake(Tick t);
  void drop_moot();  // pops moot events off the top of the heap

  EventHeap heap_;
  std::unique_ptr<Callbacks> callbacks_;
  sc_core::sc_event wake_;
  Tick armed_ = kNever;
  uint64_t seq_ = 0;
  uint64_t fired_ = 0;
  uint64_t event_ticks_ = 0, kernel_ticks_ = 0;
  bool firing_ = false;
  Tick now_ = 0;     // the time being fired
  Tick sc_now_ = 0;  // SystemC's time at the activation (now() may run ahead of it)
  Tick horizon_ = kNever;
  std::unique_ptr<SimError> fault_;
  std::atomic<uint64_t> pub_events_{0};
  std::atomic<Tick> pub_time_{0};
};

}  // namespace ascend::model
