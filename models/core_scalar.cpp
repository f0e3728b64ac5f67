// A core's scalar unit: its clock (the lazy scalar runs ahead of simulated time while unobserved),
// its waits (block_on: for a flag, room in a queue, idle pipes, an inserted sync) and its own
// work (scalar cycles, UB accesses, PipeBarrier<PIPE_ALL>).
#include <algorithm>
#include <string>

#include "models/core.h"
#include "models/errors.h"

namespace ascend::model {

void Core::scalar_advance(Tick dt) {
  if (dt == 0) return;
  Tick t = scalar_now();
  if (t != scalar_run_end_) {
    flush_scalar_run();
    scalar_run_start_ = t;
  }
  scalar_busy_ps_ += dt;
  polls_.advance(dt);
  if (lazy_) {
    lag_ += static_cast<int64_t>(dt);
  } else {
    sleep_until(now() + dt);
  }
  scalar_run_end_ = scalar_now();
}

void Core::sleep_until(Tick t) {
  ++wait_token_;
  post_resume(t);
  do wait_resume();
  while (now() < t);
}

void Core::scalar_sync() {
  if (lag_ == 0) return;
  if (lag_ < 0)  // only a woken poll's first issue catches up, and it syncs nothing
    throw SimError(kExitInternal, "a scalar sync while the scalar is behind simulated time");
  polls_.irregular();
  Tick t = scalar_now();
  lag_ = 0;
  sleep_until(t);
}

void Core::scalar_ub_work(uint64_t cycles, uint32_t lo, uint32_t hi, bool write) {
  scalar_work(cycles);
  if (!flights_.claimed(lo, hi, write)) return;
  polls_.irregular();
  PipeId writer = PipeId::S;
  if (auto_sync_ && flights_.unfinished_writer(lo, hi, &writer)) {
    // The compiler's inserted sync: wait until no unfinished instruction writes these bytes (a
    // read after the write, or a write after it that the landing would otherwise overwrite).
    block_on([&] { return !flights_.unfinished_writer(lo, hi, &writer); },
             WaitName{"auto-sync ", lane_name(lane_of(writer)), -1, "->S"});
    ++auto_syncs_;
    if (race_) race_->join_into_scalar(writer);
    return;
  }
  scalar_sync();
}

// Wakes the scalar only when what it waits for holds (a thread switch costs far more than the
// check), and not before the time its wait began.
void Core::wake_scalar() {
  if (!scalar_waiting_ || woken_token_ == wait_token_) return;
  if (waiting_ready_ && !(*waiting_ready_)()) return;
  woken_token_ = wait_token_;
  post_resume(std::max(now(), wake_floor_));
}

void Core::flush_scalar_run() {
  if (scalar_run_end_ > scalar_run_start_)
    emit(Lane::SCALAR, "scalar", scalar_run_start_, scalar_run_end_);
  scalar_run_start_ = scalar_run_end_ = scalar_now();
}

// What a scalar waits for (a flag set, room in a queue, idle pipes, a released barrier) can only
// become true, never false again, until the scalar acts: so a wait whose condition already holds
// needs no sync, and one that does not ends at the scalar's time at the earliest.
void Core::block_on(const std::function<bool()>& ready, const WaitName& name,
                    std::function<std::string()> describe, Tick wake_at, bool by_pipes) {
  if (ready()) return;
  if (lag_ < 0) throw SimError(kExitInternal, "a scalar wait while the scalar is behind time");
  Tick t0 = scalar_now();
  lag_ = 0;  // from here the scalar waits in simulated time
  scalar_waiting_ = &name;
  waiting_by_pipes_ = by_pipes;
  scalar_waiting_describe_ = std::move(describe);
  scalar_waiting_since_ = t0;
  set_level(busy_level(PipeId::S), 0, t0);
  ++wait_token_;
  waiting_ready_ = &ready;
  wake_floor_ = t0;
  if (wake_at != kNever) post_resume(std::max(wake_at, t0));
  while (!ready() || now() < t0) {
    wait_resume();
    woken_token_ = ~0u;  // a later wake_scalar() may post again
  }
  ++wait_token_;  // Resumes still pending for this wait are stale
  waiting_ready_ = nullptr;
  set_level(busy_level(PipeId::S), 1);
  scalar_stall_ps_ += now() - t0;
  // A wait that took no time leaves no trace and does not break the scalar's run: the lazy scalar
  // meets such waits (a queue full at its own time only until that time's pops) where the
  // step-by-step scalar meets none, and traces must not depend on it.
  if (now() > t0) {
    flush_scalar_run();
    if (observer_) emit(Lane::FLOWCTRL, name.str(), t0, now());
    scalar_run_start_ = scalar_run_end_ = now();
  }
  scalar_waiting_ = nullptr;
  scalar_waiting_describe_ = nullptr;
}

void Core::scalar_work(uint64_t cycles) {
  scalar_advance(timing_.clock.cycles(cycles));
}

void Core::scalar_access(const char* name, const Access& a) {
  if (!race_) return;
  race_->begin(PipeId::S, race_->scalar_clock(), name, scalar_now(), ++issued_);
  if (a.gm) {
    race_->gm(PipeId::S, a.lo, a.hi, a.write);
  } else {
    race_->ub(PipeId::S, a.lo, a.hi, a.write);
  }
}

void Core::pipe_barrier_all() {
  polls_.irregular();
  scalar_advance(issue_ps_);
  drain();
}

void Core::drain() {
  block_on([&] { return all_pipes_idle(); }, WaitName{"PipeBarrier<PIPE_ALL>"});
  if (race_) race_->join_all_into_scalar();
}

}  // namespace ascend::model
