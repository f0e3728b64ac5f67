// Simulator extensions, not Ascend C: what a kernel of this simulator may use beyond the real API.
#pragma once

#include <cstdint>

#include "models/time.h"

namespace AscendC {
// Ascend C's system counter (PIPE_S) at the calling core's scalar time: core.system_counter_MHz
// cycles per microsecond (50 on A2/A3), so (after - before) / 50 is microseconds there.
int64_t GetSystemCycle();

// The simulated time in ps as the calling core's scalar unit sees it (its program order), for
// calibration kernels that time one instruction and for phase stamps.
uint64_t SimNowPs();

// When the bytes of this core's last started MTE3 transfer landed at their target (ps): a remote
// write lands one path latency before its acknowledgement completes it. For calibration kernels
// that time the one-way latency; valid once that transfer has completed (a WaitFlag on it).
uint64_t SimLastWriteLandedPs();

// A fault injected at run time (fault.flip_rank): true on the cores of that rank, whose 0/1
// window flip (kernels/common/device.h FlipWinState) then takes the wrong half.
bool SimWindowFlipFault();

// The core clock's cycles in `ps` (rounded down): turns a time parameter into a SimStall.
uint64_t SimCyclesIn(uint64_t ps);

// The scalar unit is busy for `cycles` core cycles and issues nothing: stands for work the model
// does not run (an attention layer's compute, a delayed rank), in the kernel's own program order.
void SimStall(uint64_t cycles);

namespace detail {
void* poll_core();  // the calling core (for poll_abandon, which may run while a thread unwinds)
void poll_iteration_begin();
bool poll_iteration_end(bool done);
uint64_t poll_sleep();
void poll_abandon(void* core) noexcept;
}  // namespace detail

// A polling loop: calls `poll` (one iteration, as the kernel would write it in a `for (;;)`)
// until it returns true, and returns the time spent in the iterations that returned false. An
// iteration must do the same each time what it reads is the same, and nothing but read, compute
// and decide (its writes come after the loop). While two iterations in a row issue the same
// instructions and read the same GM words, the kernel's thread may sleep and the core replay the
// next iterations itself with their exact timing, until a read finds the words changed: that
// iteration's DataCopy has started already when `poll` is called again, and the one it issues
// first is taken as it (sim.sleeping_polls; models/poll_replay.h says which loops qualify).
template <class Poll>
uint64_t SimPollUntil(Poll&& poll) {
  struct Abandon {  // an exception (a kernel fault, a kill) leaves the loop mid-iteration
    void* core = detail::poll_core();
    bool armed = true;
    ~Abandon() {
      if (armed) detail::poll_abandon(core);
    }
  } abandon;
  uint64_t failed = 0;
  for (;;) {
    const uint64_t start = SimNowPs();
    detail::poll_iteration_begin();
    const bool done = poll();
    const bool sleep = detail::poll_iteration_end(done);
    if (done) break;
    failed += SimNowPs() - start;
    if (sleep) failed += detail::poll_sleep();
  }
  abandon.armed = false;
  return failed;
}

// Marks what a kernel moves or computes as payload (hidden states, scales). In a timing-only run
// (sim.payload = 0) payload instructions keep their exact timing but skip their effect, so a large
// run needs no memory for it; ids, counts, triples and flags still move. `prefix_bytes`: the
// leading bytes of every DMA block are payload; without it the whole instruction is.
class PayloadScope {
 public:
  PayloadScope();
  explicit PayloadScope(uint32_t prefix_bytes);
  ~PayloadScope();
  PayloadScope(const PayloadScope&) = delete;
  PayloadScope& operator=(const PayloadScope&) = delete;

 private:
  // The core's API state, kept: the destructor may run while a killed kernel thread unwinds,
  // when no core is running.
  void* state_;
  uint32_t saved_;
};

}  // namespace AscendC
