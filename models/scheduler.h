// One event-driven engine for everything that is not a kernel's scalar program: pipes, DMA
// completions, barriers. Models ask for a callback at an absolute time; a single SC_METHOD fires
// them in (time, request order), so ordering at equal times is deterministic and nothing ticks
// idle cycles.
#pragma once

#include <functional>
#include <memory>
#include <systemc>
#include <vector>

#include "models/errors.h"
#include "models/time.h"

namespace ascend::model {

class Scheduler : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Scheduler);
  explicit Scheduler(const sc_core::sc_module_name& name);

  // Runs fn at absolute time t (t >= now). Callbacks at the current time run in this same
  // evaluation if the scheduler is firing, else in the next delta cycle.
  void at(Tick t, std::function<void()> fn);
  uint64_t fired() const { return fired_; }

  // Records an error raised inside a kernel (the first one of the run wins; the run then ends
  // with its status) and stops the simulation.
  void fault(const SimError& e);
  const SimError* first_fault() const { return fault_.get(); }

 private:
  struct Item {
    Tick t;
    uint64_t seq;
    std::function<void()> fn;
  };
  static bool later(const Item& a, const Item& b) { return a.t != b.t ? a.t > b.t : a.seq > b.seq; }
  void fire();
  void arm();

  std::vector<Item> heap_;
  sc_core::sc_event wake_;
  Tick armed_ = kNever;
  uint64_t seq_ = 0;
  uint64_t fired_ = 0;
  bool firing_ = false;
  std::unique_ptr<SimError> fault_;
};

}  // namespace ascend::model
