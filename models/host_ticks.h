// Host time for the simulator's own profile (where its wall time goes), never for simulated time:
// the CPU's time-stamp counter on x86-64 (a few ns to read, so it can bracket every scheduler
// activation and every kernel-thread run), else the steady clock. Ticks become seconds by the
// ratio of the two clocks over the run (HostTicksToSeconds).
#pragma once

#include <chrono>
#include <cstdint>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace ascend::model {

inline uint64_t host_ticks() {
#if defined(__x86_64__)
  return __rdtsc();
#else
  return static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

// Converts host ticks to seconds by the rate measured since construction.
class HostTicksToSeconds {
 public:
  HostTicksToSeconds() : ticks0_(host_ticks()), clock0_(std::chrono::steady_clock::now()) {}
  double seconds(uint64_t ticks) const {
    const uint64_t dt = host_ticks() - ticks0_;
    const double ds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - clock0_).count();
    return dt == 0 ? 0.0 : static_cast<double>(ticks) * ds / static_cast<double>(dt);
  }

 private:
  uint64_t ticks0_;
  std::chrono::steady_clock::time_point clock0_;
};

}  // namespace ascend::model
