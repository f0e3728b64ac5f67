// Simulated time: integer picoseconds everywhere in the models, so that every gate is exact and
// runs are bit-for-bit repeatable. SystemC's time resolution is set to 1 ps to match.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace ascend::model {

using Tick = uint64_t;  // picoseconds
constexpr Tick kNever = std::numeric_limits<Tick>::max();

// The simulated time in ps. It moves only inside the Scheduler's SC_METHOD (the only process that
// waits on time) or across an sc_start. Kernel threads run in the delta cycles of an instant, when
// it equals SystemC's time; between two instants with a kernel thread to run, the Scheduler fires
// the model's events of the instants in between in one activation, moving this time ahead of
// SystemC's (models/scheduler.h). Reading it costs one load.
namespace detail {
extern Tick current_ps;
}
inline Tick now() {
  return detail::current_ps;
}
void refresh_now();  // re-reads SystemC's time: in Scheduler::fire and after sc_start returns

// Durations are computed in whole cycles of the AI Core clock (rounded up), then converted to
// picoseconds rounding up: c cycles last ceil(c * 1000 / clock_GHz) ps.
struct Clock {
  double ghz = 1.85;
  Tick cycles(uint64_t c) const {
    return static_cast<Tick>(std::ceil(static_cast<double>(c) * 1000.0 / ghz - 1e-9));
  }
};

// Occupancy of a resource of `gbps` GB/s (1 GB/s = 1 byte/ns) by `bytes`: ceil(bytes*1000/gbps) ps.
inline Tick transfer_ps(uint64_t bytes, double gbps) {
  return static_cast<Tick>(std::ceil(static_cast<double>(bytes) * 1000.0 / gbps - 1e-9));
}

inline Tick ns_to_ps(double ns) {
  return static_cast<Tick>(std::llround(ns * 1000.0));
}
inline double ps_to_ns(Tick t) {
  return static_cast<double>(t) / 1000.0;
}

}  // namespace ascend::model
