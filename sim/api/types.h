// The basic types of the Ascend C facade: GM addresses, pipes, buffer positions, hardware events.
#pragma once

#include <cstdint>

#include "models/events.h"

#define __aicore__
#define __gm__
#define __global__
using GM_ADDR = uint8_t*;  // a simulated GM address carried in a pointer; never dereferenced

namespace AscendC::detail {
[[noreturn]] void assert_failed(const char* expr, const char* file, int line);
}
// Ascend C's kernel-side assertion: a failed one is a kernel fault (exit status 5) naming the
// expression and where it is.
#ifndef ASSERT
#define ASSERT(expr) \
  ((expr) ? static_cast<void>(0) : ::AscendC::detail::assert_failed(#expr, __FILE__, __LINE__))
#endif

namespace AscendC {

using HardEvent = ascend::model::HardEvent;
using TEventID = int8_t;
enum pipe_t { PIPE_S, PIPE_V, PIPE_MTE2, PIPE_MTE3, PIPE_ALL };
enum class TPosition { GM, VECIN, VECOUT, VECCALC };
using QuePosition = TPosition;

template <class T>
class LocalTensor;
template <class T>
class GlobalTensor;

}  // namespace AscendC
