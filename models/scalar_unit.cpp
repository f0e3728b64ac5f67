#include "models/scalar_unit.h"

#include <algorithm>
#include <string>

#include "models/core.h"
#include "models/errors.h"
#include "models/host_ticks.h"

namespace ascend::model {

const char* wait_cause_name(WaitCause c) {
  switch (c) {
    case WaitCause::Start:
      return "start";
    case WaitCause::Cycles:
      return "cycles";
    case WaitCause::Sync:
      return "sync";
    case WaitCause::Flag:
      return "flag";
    case WaitCause::CrossFlag:
      return "cross_flag";
    case WaitCause::QueueFull:
      return "queue_full";
    case WaitCause::AutoSync:
      return "auto_sync";
    case WaitCause::Barrier:
      return "barrier";
    case WaitCause::SyncAll:
      return "sync_all";
    case WaitCause::Poll:
      return "poll";
    case WaitCause::Stall:
      return "stall";
  }
  return "?";
}

void ScalarUnit::advance(Tick dt) {
  if (dt == 0) return;
  Tick t = now();
  if (t != run_end_) {
    flush_run();
    run_start_ = t;
  }
  busy_ps_ += dt;
  core_.polls_.advance(dt);
  if (lazy_) {
    lag_ += static_cast<int64_t>(dt);
  } else {
    sleep_until(model::now() + dt, WaitCause::Cycles);
  }
  run_end_ = now();
}

void ScalarUnit::start() {
  lag_ = 0;
  run_start_ = run_end_ = model::now();
}

void ScalarUnit::sleep_until(Tick t, WaitCause why) {
  next_wait();
  post_resume(t);
  do wait_resume(why);
  while (model::now() < t);
}

void ScalarUnit::sync() {
  if (lag_ == 0) return;
  if (lag_ < 0)  // only a woken poll's first issue catches up, and it syncs nothing
    throw SimError(kExitInternal, "a scalar sync while the scalar is behind simulated time");
  core_.polls_.irregular();
  Tick t = now();
  lag_ = 0;
  sleep_until(t, WaitCause::Sync);
}

void ScalarUnit::post_resume(Tick t) {
  core_.sched_.post(t, EventClass::Resume, core_.uid_, &core_, Core::kResume, wait_token_);
}

void ScalarUnit::resume(uint32_t token) {
  if (token != wait_token_) return;
  resume_ev_.notify();  // runs once the instant's Resumes are fired
  // Its stack has gone cold while it slept: start loading the frames it returns through.
  for (int line = -16; line < 32; ++line) __builtin_prefetch(stack_hint_ + 64 * line);
}

void ScalarUnit::wait_resume(WaitCause why) {
  char here;
  stack_hint_ = &here;
  Core::running_ = nullptr;
  if (resumed_ticks_ != 0) core_.sched_.add_kernel_host_ticks(host_ticks() - resumed_ticks_);
  sc_core::wait(resume_ev_);
  resumed_ticks_ = host_ticks();
  Core::running_ = &core_;
  ++resumes_[static_cast<int>(why)];
  const Tick t = model::now() - launched_at_;
  for (size_t i = 0; i < kActivityWindowsPs.size(); ++i) {
    const Tick w = t / kActivityWindowsPs[i];
    if (w != last_window_[i]) {
      last_window_[i] = w;
      ++windows_[i];
    }
  }
}

// Wakes the thread only when what it waits for holds (a thread switch costs far more than the
// check), and not before the time its wait began.
void ScalarUnit::wake() {
  if (!waiting_ || woken_token_ == wait_token_) return;
  if (ready_ && !(*ready_)()) return;
  woken_token_ = wait_token_;
  post_resume(std::max(model::now(), wake_floor_));
}

void ScalarUnit::flush_run() {
  if (run_end_ > run_start_) core_.emit(Lane::SCALAR, "scalar", run_start_, run_end_);
  run_start_ = run_end_ = now();
}

// What a scalar waits for (a flag set, room in a queue, idle pipes, a released barrier) can only
// become true, never false again, until the scalar acts: so a wait whose condition already holds
// needs no sync, and one that does not ends at the scalar's time at the earliest.
void ScalarUnit::block_on(WaitCause why, const std::function<bool()>& ready, const WaitName& name,
                          std::function<std::string()> describe, Tick wake_at, bool by_pipes) {
  if (ready()) return;
  if (lag_ < 0) throw SimError(kExitInternal, "a scalar wait while the scalar is behind time");
  Tick t0 = now();
  lag_ = 0;  // from here the scalar waits in simulated time
  waiting_ = &name;
  by_pipes_ = by_pipes;
  describe_ = std::move(describe);
  waiting_since_ = t0;
  core_.set_level(busy_level(PipeId::S), 0, t0);
  next_wait();
  ready_ = &ready;
  wake_floor_ = t0;
  if (wake_at != kNever) post_resume(std::max(wake_at, t0));
  while (!ready() || model::now() < t0) {
    wait_resume(why);
    woken_token_ = ~0u;  // a later wake() may post again
  }
  next_wait();  // Resumes still pending for this wait are stale
  ready_ = nullptr;
  const Tick t = model::now();
  core_.set_level(busy_level(PipeId::S), 1, t);
  stall_ps_ += t - t0;
  // A wait that took no time leaves no trace and does not break the scalar's run: the lazy scalar
  // meets such waits (a queue full at its own time only until that time's pops) where the
  // step-by-step scalar meets none, and traces must not depend on it.
  if (t > t0) {
    flush_run();
    if (core_.observer_) core_.emit(Lane::FLOWCTRL, name.str(), t0, t);
    run_start_ = run_end_ = t;
  }
  waiting_ = nullptr;
  describe_ = nullptr;
}

void ScalarUnit::sleep_replayed(const WaitName& name, Tick since,
                                const std::function<bool()>& woken) {
  waiting_ = &name;
  by_pipes_ = false;
  waiting_since_ = since;
  ready_ = &woken;
  wake_floor_ = model::now();
  next_wait();
  lag_ = 0;
  while (!woken()) {
    wait_resume(WaitCause::Poll);
    woken_token_ = ~0u;
  }
  next_wait();
  ready_ = nullptr;
  waiting_ = nullptr;
}

}  // namespace ascend::model
