#include "sim/api/hccl.h"

#include <string>

#include "sim/api/runtime.h"

namespace AscendC {

static const detail::HcclWindows& windows_of(uint32_t rank, const char* what) {
  const detail::HcclWindows& w = detail::hccl();
  if (rank >= w.data.size())
    detail::fault(std::string(what) + "(" + std::to_string(rank) + "): the EP group has " +
                  std::to_string(w.data.size()) + " ranks");
  return w;
}

GM_ADDR GetWindAddrByRankId(uint32_t rank) {
  return reinterpret_cast<GM_ADDR>(windows_of(rank, "GetWindAddrByRankId").data[rank]);
}
GM_ADDR GetWindStateAddrByRankId(uint32_t rank) {
  return reinterpret_cast<GM_ADDR>(windows_of(rank, "GetWindStateAddrByRankId").status[rank]);
}
uint64_t GetWindSize() {
  return detail::hccl().data_bytes;
}
uint64_t GetWindStateSize() {
  return detail::hccl().status_bytes;
}
uint32_t GetRankId() {
  return static_cast<uint32_t>(detail::core().die());
}
uint32_t GetRankDim() {
  return static_cast<uint32_t>(detail::hccl().data.size());
}

}  // namespace AscendC
