// Simulator extensions, not Ascend C: what a kernel of this simulator may use beyond the real API.
#pragma once

#include <cstdint>

#include "models/time.h"

namespace AscendC {

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
  uint32_t saved_;
};

}  // namespace AscendC
