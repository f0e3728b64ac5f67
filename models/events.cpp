#include "models/events.h"

namespace ascend::model {

namespace {
struct EventInfo {
  PipeId src, dst;
  const char* name;
};
constexpr EventInfo kEvents[kHardEvents] = {
    {PipeId::MTE2, PipeId::V, "MTE2_V"},
    {PipeId::V, PipeId::MTE2, "V_MTE2"},
    {PipeId::V, PipeId::MTE3, "V_MTE3"},
    {PipeId::MTE3, PipeId::V, "MTE3_V"},
    {PipeId::MTE2, PipeId::MTE3, "MTE2_MTE3"},
    {PipeId::MTE3, PipeId::MTE2, "MTE3_MTE2"},
    {PipeId::S, PipeId::V, "S_V"},
    {PipeId::V, PipeId::S, "V_S"},
    {PipeId::S, PipeId::MTE2, "S_MTE2"},
    {PipeId::MTE2, PipeId::S, "MTE2_S"},
    {PipeId::S, PipeId::MTE3, "S_MTE3"},
    {PipeId::MTE3, PipeId::S, "MTE3_S"},
    {PipeId::MTE2, PipeId::MTE1, "MTE2_MTE1"},
    {PipeId::MTE1, PipeId::MTE2, "MTE1_MTE2"},
    {PipeId::MTE1, PipeId::M, "MTE1_M"},
    {PipeId::M, PipeId::MTE1, "M_MTE1"},
    {PipeId::MTE2, PipeId::M, "MTE2_M"},
    {PipeId::M, PipeId::MTE2, "M_MTE2"},
    {PipeId::M, PipeId::FIX, "M_FIX"},
    {PipeId::FIX, PipeId::M, "FIX_M"},
    {PipeId::FIX, PipeId::MTE2, "FIX_MTE2"},
    {PipeId::MTE2, PipeId::FIX, "MTE2_FIX"},
    {PipeId::FIX, PipeId::MTE1, "FIX_MTE1"},
    {PipeId::MTE1, PipeId::FIX, "MTE1_FIX"},
    {PipeId::S, PipeId::MTE1, "S_MTE1"},
    {PipeId::MTE1, PipeId::S, "MTE1_S"},
    {PipeId::S, PipeId::M, "S_M"},
    {PipeId::M, PipeId::S, "M_S"},
    {PipeId::S, PipeId::FIX, "S_FIX"},
    {PipeId::FIX, PipeId::S, "FIX_S"},
    {PipeId::FIX, PipeId::MTE3, "FIX_MTE3"},
    {PipeId::MTE3, PipeId::FIX, "MTE3_FIX"},
};
}  // namespace

const char* lane_name(Lane l) {
  static const char* kNames[kLanes] = {"SCALAR", "VECTOR", "MTE2", "MTE3",
                                       "MTE1",   "CUBE",   "FIXP", "FLOWCTRL"};
  return kNames[static_cast<int>(l)];
}
PipeId event_src(HardEvent e) {
  return kEvents[static_cast<int>(e)].src;
}
PipeId event_dst(HardEvent e) {
  return kEvents[static_cast<int>(e)].dst;
}
const char* event_name(HardEvent e) {
  return kEvents[static_cast<int>(e)].name;
}

}  // namespace ascend::model
