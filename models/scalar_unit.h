// A core's scalar unit: it runs the kernel program on the core's one SC_THREAD, keeps that
// program's clock, and blocks it while it waits.
//
// The clock. The program runs ahead of simulated time while what it does cannot be seen by
// anything else (the lazy scalar, sim.lazy_scalar = 1): scalar cycles, and UB accesses while none
// of the core's instructions is queued or in flight, only advance the scalar's own clock (now() is
// simulated time plus that lag). What it hands to the core (an instruction entering a pipe queue, a
// SetFlag from S) carries the scalar's time. Anything that observes shared or changing state (GM,
// flags, a full queue, barriers) first brings simulated time up to the scalar clock (sync()).
// Events are ordered by keys, never by when they were posted (models/scheduler.h), so the lazy and
// the step-by-step scalar give identical timing; tests/test_core_behaviour.cpp checks it.
//
// The waits. The thread waits on one thing only: a Resume event of the core carrying the token of
// the current wait (older Resumes are stale). block_on() waits until a condition holds; the core's
// events wake it (wake()) when what it waits for may have changed, and a wake posts a Resume only
// when the condition holds.
//
// Contract: advance(), sync(), block_on(), sleep_until(), sleep_replayed() are called from the
// core's kernel thread; wake(), wake_by_pipes(), resume() and add_replayed() from the core's
// events; post_resume() from either, from the host at a launch and from a SyncAll barrier
// released by another core. The unit reports its own work and waits to the core's observer
// through the core.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <systemc>

#include "models/instruction.h"
#include "models/time.h"

namespace ascend::model {

class Core;

// Why the kernel thread waits: each resumption of the thread is counted by the cause of its wait
// (a thread switch is the costliest thing the core does on the host).
enum class WaitCause : uint8_t {
  Start,      // for its launch
  Cycles,     // scalar cycles, waited out one by one (sim.lazy_scalar = 0)
  Sync,       // a sync to the scalar's time before it observes GM or another core
  Flag,       // WaitFlag<X_S>
  CrossFlag,  // CrossCoreWaitFlag, and the Matmul API's messages
  QueueFull,  // room in a pipe's issue queue
  AutoSync,   // the compiler's inserted sync before a UB access
  Barrier,    // PipeBarrier<PIPE_ALL>, SyncAll's and the kernel end's drain included
  SyncAll,    // the other cores' arrival at SyncAll
  Poll,       // a polling loop the core replayed while the thread slept
  Stall,      // a fault injected at run time: forever
};
constexpr int kWaitCauses = static_cast<int>(WaitCause::Stall) + 1;
const char* wait_cause_name(WaitCause c);

// The windows of simulated time, from the launch, in which the thread resumed, for windows of
// these lengths: as many synchronisations as a loosely-timed run with that quantum would need at
// least.
constexpr std::array<Tick, 4> kActivityWindowsPs{1'000'000, 2'000'000, 5'000'000, 10'000'000};

class ScalarUnit {
 public:
  // `issue_ps`: what issuing one instruction costs the scalar.
  ScalarUnit(Core& core, Tick issue_ps) : core_(core), issue_ps_(issue_ps) { launch(); }

  // 1: runs ahead of simulated time while unobserved; 0: waits out every cycle. Timing is
  // identical; 1 wakes the thread far less often.
  void set_lazy(bool on) { lazy_ = on; }
  bool lazy() const { return lazy_; }

  // ---- the clock ----
  // Simulated time plus how far the lazy scalar has run ahead.
  Tick now() const { return static_cast<Tick>(static_cast<int64_t>(model::now()) + lag_); }
  // How far the clock is ahead of simulated time. Negative only for the few scalar cycles after a
  // sleeping poll wakes (sleep_replayed), before its first issue catches up.
  int64_t lag() const { return lag_; }
  // The scalar is busy for dt: its own work, or issuing an instruction (issue()).
  void advance(Tick dt);
  void issue() { advance(issue_ps_); }
  // Brings simulated time up to the scalar clock.
  void sync();
  // A kernel is launched (its activity windows counted afresh), starts at simulated time, or
  // stops (its clock dropped): the clock is simulated time.
  void launch() {
    lag_ = 0;
    launched_at_ = model::now();
    last_window_.fill(kNever);
  }
  void start();
  void stop() { lag_ = 0; }

  // ---- the waits ----
  // Blocks until ready() holds, re-checking at each wake(). The wait shows on the FLOWCTRL lane as
  // `name`; a deadlock report asks describe() what it waits for at the time of the report. A wait
  // whose end is known (`wake_at`) is woken then. `by_pipes`: what it waits for can change when
  // the core's pipes pop or complete an instruction (room in a queue, idle pipes, an inserted
  // sync); a wait for a flag or a barrier is woken by the set or the barrier alone.
  void block_on(WaitCause why, const std::function<bool()>& ready, const WaitName& name,
                std::function<std::string()> describe = nullptr, Tick wake_at = kNever,
                bool by_pipes = true);
  // Waits out simulated time up to t.
  void sleep_until(Tick t, WaitCause why);
  // The thread sleeps while the core replays a polling loop (models/poll_replay.h): a wait named
  // `name` since `since` until woken() holds, that neither shows on a lane nor counts as a stall
  // (the replay accounts its iterations itself).
  void sleep_replayed(const WaitName& name, Tick since, const std::function<bool()>& woken);
  // Sets the scalar clock to t, which may be behind simulated time: after sleep_replayed, the
  // start of the iteration whose read woke it.
  void set_now(Tick t) { lag_ = static_cast<int64_t>(t) - static_cast<int64_t>(model::now()); }
  // The replayed iterations' scalar work and stalls.
  void add_replayed(Tick busy, Tick stall) {
    busy_ps_ += busy;
    stall_ps_ += stall;
  }
  // Posts a Resume of the current wait, if what it waits for holds now.
  void wake();
  // A pipe popped or completed an instruction: wakes a wait that depends on the pipes.
  void wake_by_pipes() {
    if (waiting_ && by_pipes_) wake();
  }
  // A Resume of the current wait at t, whether or not it holds (a barrier's release).
  void post_resume(Tick t);
  // A Resume event fired: runs the thread if it is the current wait's.
  void resume(uint32_t token);
  bool live(uint32_t token) const { return token == wait_token_; }
  // The thread's one wait: until a Resume of the current wait fires. A new wait (next_wait()) makes
  // the Resumes posted for earlier ones stale.
  void wait_resume(WaitCause why);
  void next_wait() { ++wait_token_; }

  // ---- what it shows ----
  // Ends the current run of scalar work on the SCALAR lane (before a wait, at the kernel's end).
  void flush_run();
  const WaitName* waiting() const { return waiting_; }  // null while running
  std::string waiting_for() const { return describe_ ? describe_() : waiting_->str(); }
  Tick waiting_since() const { return waiting_since_; }
  Tick busy_ps() const { return busy_ps_; }    // its own work, issue costs included
  Tick stall_ps() const { return stall_ps_; }  // time blocked in waits
  // How often the thread resumed, by the cause of its wait.
  uint64_t resumes(WaitCause c) const { return resumes_[static_cast<int>(c)]; }
  // In how many windows of kActivityWindowsPs[i] it resumed (counted afresh at each launch).
  uint64_t active_windows(size_t i) const { return windows_[i]; }

 private:
  Core& core_;
  const Tick issue_ps_;
  bool lazy_ = true;
  int64_t lag_ = 0;
  uint32_t wait_token_ = 0;     // the current wait; Resumes of older waits are stale
  uint32_t woken_token_ = ~0u;  // the wait a wake() Resume was already posted for
  const std::function<bool()>* ready_ = nullptr;  // what the current wait waits for
  Tick wake_floor_ = 0;                           // and when it began
  const WaitName* waiting_ = nullptr;             // set while blocked
  bool by_pipes_ = false;                         // and whether the pipes can end the wait
  std::function<std::string()> describe_;
  Tick waiting_since_ = 0;
  Tick busy_ps_ = 0;
  Tick stall_ps_ = 0;
  Tick run_start_ = 0;  // the current contiguous run of scalar work (SCALAR lane)
  Tick run_end_ = 0;
  sc_core::sc_event resume_ev_;
  const char* stack_hint_ = nullptr;  // where the thread's stack was when it last waited
  uint64_t resumed_ticks_ = 0;        // host ticks when the thread last resumed (0: not yet)
  std::array<uint64_t, kWaitCauses> resumes_{};
  std::array<uint64_t, kActivityWindowsPs.size()> windows_{};
  Tick launched_at_ = 0;  // windows are counted from the launch: identical launches count alike
  std::array<Tick, kActivityWindowsPs.size()> last_window_;  // the window of the last resume
};

}  // namespace ascend::model
