// Pipes of a core and the hardware events (flags) that order them, as in Ascend C. An AIV uses
// S, V, MTE2 and MTE3; an AIC uses S, MTE2, MTE1, M (the cube) and FIX.
#pragma once

#include <cstdint>

namespace ascend::model {

enum class PipeId : uint8_t { S, V, MTE2, MTE3, MTE1, M, FIX };
constexpr int kPipes = 7;

// Trace lanes: the pipes plus FLOWCTRL (scalar-side waits: SyncAll, PIPE_ALL, WaitFlag on S,
// a full issue queue). Names follow the vendor simulator's trace.
enum class Lane : uint8_t { SCALAR, VECTOR, MTE2, MTE3, MTE1, CUBE, FIXP, FLOWCTRL };
constexpr int kLanes = 8;
const char* lane_name(Lane l);
inline Lane lane_of(PipeId p) {
  return static_cast<Lane>(p);
}

// HardEvent SRC_DST: SetFlag runs on SRC, WaitFlag blocks DST.
enum class HardEvent : uint8_t {
  MTE2_V,
  V_MTE2,
  V_MTE3,
  MTE3_V,
  MTE2_MTE3,
  MTE3_MTE2,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  // The cube core's.
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_M,
  M_MTE2,
  M_FIX,
  FIX_M,
  FIX_MTE2,
  MTE2_FIX,
  FIX_MTE1,
  MTE1_FIX,
  S_MTE1,
  MTE1_S,
  S_M,
  M_S,
  S_FIX,
  FIX_S,
  FIX_MTE3,
  MTE3_FIX,
};
constexpr int kHardEvents = 32;
PipeId event_src(HardEvent e);
PipeId event_dst(HardEvent e);
const char* event_name(HardEvent e);

// User event ids are 0..7 (eight per HardEvent on A2/A3). Queues use ids from kQueueEventBase so
// that they never collide with the kernel's own.
constexpr int kUserEventIds = 8;
constexpr uint32_t kQueueEventBase = 1024;

}  // namespace ascend::model
