#include "api/hccl.h"

#include <string>

#include "api/runtime.h"

namespace AscendC {

// The die of rank `rank` of this core's communicator `ctx` (see detail::HcclWindows).
static uint32_t die_of(uint32_t rank, uint8_t ctx, const char* what) {
  const detail::HcclWindows& w = detail::hccl();
  const uint32_t tp = static_cast<uint32_t>(w.tp), me = static_cast<uint32_t>(detail::core().die());
  if (ctx != COMM_EP_IDX && (ctx != COMM_TP_IDX || tp == 1))
    detail::fault(std::string(what) + ": communication context " + std::to_string(ctx) +
                  (ctx == COMM_TP_IDX ? " (TP): this run has no TP group (tp = 1)"
                                      : " does not exist (0 EP, 1 TP)"));
  if (rank >= GetRankDim(ctx))
    detail::fault(std::string(what) + "(" + std::to_string(rank) + "): the " +
                  (ctx == COMM_EP_IDX ? "EP" : "TP") + " group has " +
                  std::to_string(GetRankDim(ctx)) + " ranks");
  return ctx == COMM_EP_IDX ? rank * tp + me % tp : me - me % tp + rank;
}

GM_ADDR GetWindAddrByRankId(uint32_t rank, uint8_t ctx) {
  const detail::HcclWindows& w = detail::hccl();
  const uint32_t die = die_of(rank, ctx, "GetWindAddrByRankId");
  return reinterpret_cast<GM_ADDR>(ctx == COMM_EP_IDX ? w.data[die] : w.tp_data[die]);
}
GM_ADDR GetWindStateAddrByRankId(uint32_t rank, uint8_t ctx) {
  const detail::HcclWindows& w = detail::hccl();
  const uint32_t die = die_of(rank, ctx, "GetWindStateAddrByRankId");
  return reinterpret_cast<GM_ADDR>(ctx == COMM_EP_IDX ? w.status[die] : w.tp_status[die]);
}
uint64_t GetWindSize() {
  return detail::hccl().data_bytes;
}
uint64_t GetWindStateSize() {
  return detail::hccl().status_bytes;
}
uint32_t GetRankId(uint8_t ctx) {
  const uint32_t tp = static_cast<uint32_t>(detail::hccl().tp);
  const uint32_t die = static_cast<uint32_t>(detail::core().die());
  return ctx == COMM_TP_IDX ? die % tp : die / tp;
}
uint32_t GetRankDim(uint8_t ctx) {
  const detail::HcclWindows& w = detail::hccl();
  const uint32_t tp = static_cast<uint32_t>(w.tp);
  return ctx == COMM_TP_IDX ? tp : static_cast<uint32_t>(w.data.size()) / tp;
}

}  // namespace AscendC
