// The host side of the high-level Transpose (Ascend C API: Transpose-Tiling):
// optiling::ConfusionTransposeTiling (the fields of kernel_tiling/confusion_transpose_tiling_data.h
// with set_/get_, GetDataSize, SaveToBuffer), GetTransposeMaxMinTmpSize and GetTransposeTilingInfo
// for the modelled TRANSPOSE_NZ2ND_0213 (type 1): a shape [B, N, S, H/N], no temporary.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "../graph/tensor.h"
#include "../kernel_tiling/confusion_transpose_tiling_data.h"
#include "pad_tiling_host.h"  // optiling::detail::tiling_fail, AscendC::TensorShape

namespace optiling {
class ConfusionTransposeTiling {
 public:
#define ASCEND_SIM_TILING_ACCESSORS(name) \
  void set_##name(uint32_t v) {           \
    data_.name = v;                       \
  }                                       \
  uint32_t get_##name() const {           \
    return data_.name;                    \
  }
  ASCEND_SIM_CONFUSION_TRANSPOSE_TILING_FIELDS(ASCEND_SIM_TILING_ACCESSORS)
#undef ASCEND_SIM_TILING_ACCESSORS
  size_t GetDataSize() const {
    return sizeof(data_);
  }
  void SaveToBuffer(void* buffer, size_t capacity) const {
    if (buffer == nullptr || capacity < sizeof(data_))
      detail::tiling_fail("ConfusionTransposeTiling::SaveToBuffer: a buffer of " +
                          std::to_string(capacity) + " B for " + std::to_string(sizeof(data_)) +
                          " B of tiling");
    std::memcpy(buffer, &data_, sizeof(data_));
  }
  const ::ConfusionTransposeTiling& data() const {
    return data_;
  }

 private:
  ::ConfusionTransposeTiling data_;
};
}  // namespace optiling

namespace AscendC {
namespace transpose_tiling_detail {
inline void check(const char* fn, const TensorShape& shape, uint32_t typeSize, uint32_t type) {
  if (typeSize != 2)
    optiling::detail::tiling_fail(std::string(fn) + ": typeSize " + std::to_string(typeSize) +
                                  ", only 2 is modelled");
  if (type != 1)
    optiling::detail::tiling_fail(std::string(fn) + ": transposeTypeIn " + std::to_string(type) +
                                  ", only 1 (TRANSPOSE_NZ2ND_0213) is modelled");
  if (shape.GetDimNum() != 4 || shape.GetShapeSize() <= 0)
    optiling::detail::tiling_fail(std::string(fn) + ": srcShape should be [B, N, S, H/N]");
}
}  // namespace transpose_tiling_detail

inline void GetTransposeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                      const uint32_t transposeTypeIn, uint32_t& maxValue,
                                      uint32_t& minValue) {
  transpose_tiling_detail::check("GetTransposeMaxMinTmpSize", srcShape, typeSize, transposeTypeIn);
  maxValue = minValue = 0;  // Copy instructions straight from source to destination
}
inline void GetTransposeTilingInfo(const TensorShape& srcShape, const uint32_t /*stackBufferSize*/,
                                   const uint32_t typeSize, const uint32_t transposeTypeIn,
                                   optiling::ConfusionTransposeTiling& tiling) {
  transpose_tiling_detail::check("GetTransposeTilingInfo", srcShape, typeSize, transposeTypeIn);
  tiling.set_param0(static_cast<uint32_t>(srcShape.GetDim(0)));
  tiling.set_param1(static_cast<uint32_t>(srcShape.GetDim(1)));
  tiling.set_param2(static_cast<uint32_t>(srcShape.GetDim(2)));
  tiling.set_param3(static_cast<uint32_t>(srcShape.GetDim(3)));
  tiling.set_param4(static_cast<uint32_t>(srcShape.GetDim(3) / 16));
}
inline void GetTransposeTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                   const uint32_t typeSize, const uint32_t transposeTypeIn,
                                   ::ConfusionTransposeTiling& tiling) {
  optiling::ConfusionTransposeTiling t;
  GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, t);
  t.SaveToBuffer(&tiling, sizeof(tiling));
}

}  // namespace AscendC
