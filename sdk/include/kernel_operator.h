// What an Ascend C kernel file includes. Under ascend-sim it is the simulator's facade: every
// AscendC:: call is issued by the calling core's scalar unit into the pipe that executes it and
// timed there (api/kernel_operator.h).
#pragma once

#include "api/kernel_operator.h"

// The device compiler's branch hints and scalar min/max builtins, which kernels call unqualified.
// Plain overloads, not templates, so that a kernel's `using namespace std` still resolves its
// same-typed calls here without ambiguity.
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#define ASCEND_SIM_SCALAR_MIN_MAX(T) \
  constexpr T min(T a, T b) {        \
    return b < a ? b : a;            \
  }                                  \
  constexpr T max(T a, T b) {        \
    return a < b ? b : a;            \
  }
ASCEND_SIM_SCALAR_MIN_MAX(int32_t)
ASCEND_SIM_SCALAR_MIN_MAX(uint32_t)
ASCEND_SIM_SCALAR_MIN_MAX(int64_t)
ASCEND_SIM_SCALAR_MIN_MAX(uint64_t)
ASCEND_SIM_SCALAR_MIN_MAX(float)
#undef ASCEND_SIM_SCALAR_MIN_MAX
