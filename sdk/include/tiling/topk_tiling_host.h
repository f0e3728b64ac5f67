// The host side of TopK (Ascend C API: TopK-Tiling): optiling::TopkTiling (the fields of
// kernel_tiling/topk_tiling_data.h with set_/get_, GetDataSize, SaveToBuffer), GetTopKMaxMinTmpSize
// and TopKTilingFunc for api/topk.h: a row of inner elements takes 32 B an element of
// temporary (scores, indices, proposals, the sort's scratch, the extracted values and indices).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "../kernel_tiling/topk_tiling_data.h"
#include "pad_tiling_host.h"  // optiling::detail::tiling_fail
#include "platform/platform_ascendc.h"

namespace optiling {
class TopkTiling {
 public:
#define ASCEND_SIM_TILING_ACCESSORS(type, name) \
  void set_##name(type v) {                     \
    data_.name = v;                             \
  }                                             \
  type get_##name() const {                     \
    return data_.name;                          \
  }
  ASCEND_SIM_TOPK_TILING_FIELDS(ASCEND_SIM_TILING_ACCESSORS)
#undef ASCEND_SIM_TILING_ACCESSORS
  size_t GetDataSize() const {
    return sizeof(data_);
  }
  void SaveToBuffer(void* buffer, size_t capacity) const {
    if (buffer == nullptr || capacity < sizeof(data_))
      detail::tiling_fail("TopkTiling::SaveToBuffer: a buffer of " + std::to_string(capacity) +
                          " B for " + std::to_string(sizeof(data_)) + " B of tiling");
    std::memcpy(buffer, &data_, sizeof(data_));
  }
  const ::TopkTiling& data() const {
    return data_;
  }

 private:
  ::TopkTiling data_;
};
}  // namespace optiling

namespace AscendC {
namespace topk_tiling_detail {
inline void check(const char* fn, int32_t inner, int32_t outter, uint32_t typeSize, TopKMode mode) {
  if (typeSize != 4)
    optiling::detail::tiling_fail(std::string(fn) + ": dataTypeSize " + std::to_string(typeSize) +
                                  ", only 4 (float) is modelled");
  if (mode != TopKMode::TOPK_NORMAL)
    optiling::detail::tiling_fail(std::string(fn) + ": only TopKMode::TOPK_NORMAL is modelled");
  if (inner <= 0 || inner % 32 != 0 || inner > 4096 || outter <= 0)
    optiling::detail::tiling_fail(std::string(fn) + ": inner " + std::to_string(inner) +
                                  " (a multiple of 32 up to 4096) and outter " +
                                  std::to_string(outter) + " (positive)");
}
}  // namespace topk_tiling_detail

inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& /*ascendcPlatform*/,
                                 const int32_t inner, const int32_t outter,
                                 const bool /*isReuseSource*/, const bool /*isInitIndex*/,
                                 enum TopKMode mode, const bool /*isLargest*/,
                                 const uint32_t dataTypeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
  topk_tiling_detail::check("GetTopKMaxMinTmpSize", inner, outter, dataTypeSize, mode);
  minValue = maxValue = static_cast<uint32_t>(inner) * 32;
  return true;
}
inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& /*ascendcPlatform*/,
                           const int32_t inner, const int32_t outter, const int32_t k,
                           const uint32_t dataTypeSize, const bool /*isInitIndex*/,
                           enum TopKMode mode, const bool /*isLargest*/,
                           optiling::TopkTiling& topKTiling) {
  topk_tiling_detail::check("TopKTilingFunc", inner, outter, dataTypeSize, mode);
  if (k <= 0 || k > inner)
    optiling::detail::tiling_fail("TopKTilingFunc: k " + std::to_string(k) + " outside [1, " +
                                  std::to_string(inner) + "]");
  topKTiling.set_tmpLocalSize(inner * 32);
  topKTiling.set_allDataSize(inner * outter);
  topKTiling.set_innerDataSize(inner);
  topKTiling.set_sortRepeat(static_cast<uint32_t>(inner / 32));
  topKTiling.set_kAlignFourBytes((k + 7) / 8 * 8);
  topKTiling.set_kAlignTwoBytes((k + 15) / 16 * 16);
  return true;
}
inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                           const int32_t inner, const int32_t outter, const int32_t k,
                           const uint32_t dataTypeSize, const bool isInitIndex, enum TopKMode mode,
                           const bool isLargest, ::TopkTiling& topKTiling) {
  optiling::TopkTiling t;
  const bool ok = TopKTilingFunc(ascendcPlatform, inner, outter, k, dataTypeSize, isInitIndex, mode,
                                 isLargest, t);
  t.SaveToBuffer(&topKTiling, sizeof(topKTiling));
  return ok;
}

}  // namespace AscendC
