// The basic types of the Ascend C facade: GM addresses, pipes, buffer positions, hardware events.
#pragma once

#include <cstdint>

#include "models/events.h"

#define __aicore__
#define __gm__
using GM_ADDR = uint8_t*;  // a simulated GM address carried in a pointer; never dereferenced

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
