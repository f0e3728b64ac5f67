// The host side of SoftMax (Ascend C API: SoftMax-Tiling): optiling::SoftMaxTiling (the fields
// of kernel_tiling/softmax_tiling_data.h with set_/get_, GetDataSize, SaveToBuffer), the
// temporary sizes and SoftMaxTilingFunc, for api/softmax.h's passes: a pass takes splitM rows
// (a multiple of 8 but for a last short one) and needs, per row, a 32-B block for the row's
// reduction and, for rows longer than 256 B, a 256-B row to fold the row's repeats into.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "../graph/tensor.h"
#include "../kernel_tiling/softmax_tiling_data.h"
#include "pad_tiling_host.h"  // optiling::detail::tiling_fail, AscendC::TensorShape

namespace optiling {
class SoftMaxTiling {
 public:
#define ASCEND_SIM_TILING_ACCESSORS(name) \
  void set_##name(uint32_t v) {           \
    data_.name = v;                       \
  }                                       \
  uint32_t get_##name() const {           \
    return data_.name;                    \
  }
  ASCEND_SIM_SOFTMAX_TILING_FIELDS(ASCEND_SIM_TILING_ACCESSORS)
#undef ASCEND_SIM_TILING_ACCESSORS
  size_t GetDataSize() const {
    return sizeof(data_);
  }
  void SaveToBuffer(void* buffer, size_t capacity) const {
    if (buffer == nullptr || capacity < sizeof(data_))
      detail::tiling_fail("SoftMaxTiling::SaveToBuffer: a buffer of " + std::to_string(capacity) +
                          " B for " + std::to_string(sizeof(data_)) + " B of tiling");
    std::memcpy(buffer, &data_, sizeof(data_));
  }
  const ::SoftMaxTiling& data() const {
    return data_;
  }

 private:
  ::SoftMaxTiling data_;
};
using LogSoftMaxTiling = SoftMaxTiling;
}  // namespace optiling

namespace AscendC {
namespace softmax_tiling_detail {
// The bytes a row takes in the temporary (see above).
inline uint32_t row_bytes(uint32_t k, uint32_t typeSize) {
  return 32 + (k * typeSize > 256 ? 256 : 0);
}
inline void check(const char* fn, const TensorShape& shape, uint32_t typeSize) {
  if (typeSize != 2 && typeSize != 4)
    optiling::detail::tiling_fail(std::string(fn) + ": dataTypeSize " + std::to_string(typeSize) +
                                  ", should be 2 or 4");
  if (shape.GetDimNum() < 1 || shape.GetShapeSize() <= 0)
    optiling::detail::tiling_fail(std::string(fn) + ": srcShape should be a positive shape");
}
// [M, K] of a shape: K its last dimension, M the product of the others.
inline void split(const TensorShape& shape, uint32_t& m, uint32_t& k) {
  k = static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 1));
  m = static_cast<uint32_t>(shape.GetShapeSize() / k);
}
}  // namespace softmax_tiling_detail

inline uint32_t GetSoftMaxMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                     const bool /*isReuseSource*/) {
  using namespace softmax_tiling_detail;
  check("GetSoftMaxMinTmpSize", srcShape, dataTypeSize);
  uint32_t m = 0, k = 0;
  split(srcShape, m, k);
  return std::min(m, 8u) * row_bytes(k, dataTypeSize);
}
inline uint32_t GetSoftMaxMaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                     const bool /*isReuseSource*/) {
  using namespace softmax_tiling_detail;
  check("GetSoftMaxMaxTmpSize", srcShape, dataTypeSize);
  uint32_t m = 0, k = 0;
  split(srcShape, m, k);
  return (m + 7) / 8 * 8 * row_bytes(k, dataTypeSize);
}

inline void SoftMaxTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize,
                              optiling::SoftMaxTiling& softmaxTiling) {
  using namespace softmax_tiling_detail;
  check("SoftMaxTilingFunc", srcShape, dataTypeSize);
  uint32_t m = 0, k = 0;
  split(srcShape, m, k);
  const uint32_t per_block = 32 / dataTypeSize;
  const uint32_t fit = localWorkSpaceSize / row_bytes(k, dataTypeSize);
  const uint32_t split_m = std::min(m, fit >= 8 ? fit / 8 * 8 : fit);
  if (split_m == 0)
    optiling::detail::tiling_fail("SoftMaxTilingFunc: localWorkSpaceSize " +
                                  std::to_string(localWorkSpaceSize) + " B holds no row of " +
                                  std::to_string(row_bytes(k, dataTypeSize)) + " B");
  softmaxTiling.set_srcM(m);
  softmaxTiling.set_srcK(k);
  softmaxTiling.set_srcSize(m * k);
  softmaxTiling.set_outMaxM(m);
  softmaxTiling.set_outMaxK(per_block);
  softmaxTiling.set_outMaxSize(m * per_block);
  softmaxTiling.set_splitM(split_m);
  softmaxTiling.set_splitK(k);
  softmaxTiling.set_splitSize(split_m * k);
  softmaxTiling.set_reduceM(split_m);
  softmaxTiling.set_reduceK(per_block);
  softmaxTiling.set_reduceSize(split_m * per_block);
  softmaxTiling.set_rangeM(m / split_m);
  softmaxTiling.set_tailM(m % split_m);
  softmaxTiling.set_tailSplitSize(m % split_m * k);
  softmaxTiling.set_tailReduceSize(m % split_m * per_block);
}
inline void SoftMaxTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, ::SoftMaxTiling& softmaxTiling) {
  optiling::SoftMaxTiling t;
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
  t.SaveToBuffer(&softmaxTiling, sizeof(softmaxTiling));
}

// LogSoftMax (Ascend C API: LogSoftMax-Tiling) takes SoftMax's passes and temporary.
inline uint32_t GetLogSoftMaxMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
  return GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline uint32_t GetLogSoftMaxMaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
  return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource);
}
template <class Tiling>
void LogSoftMaxTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                          const uint32_t localWorkSpaceSize, Tiling& softmaxTiling) {
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}

// SoftmaxGrad (Ascend C API: SoftmaxGrad-Tiling): a row takes its products (K floats), a sum
// block, the reduction's value and, for rows longer than 256 B, the fold row.
namespace softmax_tiling_detail {
inline uint32_t grad_row_bytes(uint32_t k) {
  return k * 4 + 64 + (k * 4 > 256 ? 256 : 0);
}
}  // namespace softmax_tiling_detail
inline uint32_t GetSoftMaxGradMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                         const bool /*isFront*/, const bool /*isReuseSource*/) {
  using namespace softmax_tiling_detail;
  check("GetSoftMaxGradMinTmpSize", srcShape, typeSize);
  uint32_t m = 0, k = 0;
  split(srcShape, m, k);
  return std::min(m, 8u) * grad_row_bytes(k);
}
inline uint32_t GetSoftMaxGradMaxTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                         const bool /*isFront*/, const bool /*isReuseSource*/) {
  using namespace softmax_tiling_detail;
  check("GetSoftMaxGradMaxTmpSize", srcShape, typeSize);
  uint32_t m = 0, k = 0;
  split(srcShape, m, k);
  return (m + 7) / 8 * 8 * grad_row_bytes(k);
}
inline void SoftMaxGradTilingFunc(const TensorShape& srcShape, const uint32_t typeSize,
                                  const uint32_t localWorkSpaceSize,
                                  optiling::SoftMaxTiling& softmaxGradTiling,
                                  const bool /*isFront*/ = false) {
  using namespace softmax_tiling_detail;
  check("SoftMaxGradTilingFunc", srcShape, typeSize);
  uint32_t m = 0, k = 0;
  split(srcShape, m, k);
  // The pass of SoftMaxTilingFunc, for a temporary of grad_row_bytes a row.
  const uint32_t fit = localWorkSpaceSize / grad_row_bytes(k);
  SoftMaxTilingFunc(srcShape, typeSize, std::max(fit, 1u) * row_bytes(k, typeSize),
                    softmaxGradTiling);
  if (fit == 0)
    optiling::detail::tiling_fail("SoftMaxGradTilingFunc: localWorkSpaceSize " +
                                  std::to_string(localWorkSpaceSize) + " B holds no row of " +
                                  std::to_string(grad_row_bytes(k)) + " B");
}
inline void SoftMaxGradTilingFunc(const TensorShape& srcShape, const uint32_t typeSize,
                                  const uint32_t localWorkSpaceSize,
                                  ::SoftMaxTiling& softmaxGradTiling, const bool isFront = false) {
  optiling::SoftMaxTiling t;
  SoftMaxGradTilingFunc(srcShape, typeSize, localWorkSpaceSize, t, isFront);
  t.SaveToBuffer(&softmaxGradTiling, sizeof(softmaxGradTiling));
}

// SoftmaxFlashV2 (Ascend C API: SoftmaxFlashV2-Tiling), float: a row takes a reduction block, a
// max block and, for rows longer than 256 B, the fold row (api/softmax_flash.h).
namespace softmax_tiling_detail {
inline uint32_t flash_row_bytes(uint32_t k) {
  return 64 + (k * 4 > 256 ? 256 : 0);
}
inline void flash_check(const char* fn, const TensorShape& shape, uint32_t size1, uint32_t size2) {
  check(fn, shape, size1);
  if (size1 != 4 || size2 != 4)
    optiling::detail::tiling_fail(std::string(fn) +
                                  ": only float data and statistics (4 and 4) are modelled");
}
}  // namespace softmax_tiling_detail
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const TensorShape& srcShape,
                                            const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool /*isUpdate*/,
                                            const bool /*isBasicBlock*/ = false,
                                            const bool /*isFlashOutputBrc*/ = false) {
  using namespace softmax_tiling_detail;
  flash_check("GetSoftMaxFlashV2MinTmpSize", srcShape, dataTypeSize1, dataTypeSize2);
  uint32_t m = 0, k = 0;
  split(srcShape, m, k);
  return std::min(m, 8u) * flash_row_bytes(k);
}
inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const TensorShape& srcShape,
                                            const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool /*isUpdate*/,
                                            const bool /*isBasicBlock*/ = false,
                                            const bool /*isFlashOutputBrc*/ = false) {
  using namespace softmax_tiling_detail;
  flash_check("GetSoftMaxFlashV2MaxTmpSize", srcShape, dataTypeSize1, dataTypeSize2);
  uint32_t m = 0, k = 0;
  split(srcShape, m, k);
  return (m + 7) / 8 * 8 * flash_row_bytes(k);
}
// SoftMaxTilingFunc's passes for a temporary of flash_row_bytes a row.
template <class Tiling>
void SoftMaxFlashV2TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                              const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                              Tiling& softmaxFlashTiling, const bool /*isUpdate*/,
                              const bool /*isBasicBlock*/ = false,
                              const bool /*isFlashOutputBrc*/ = false) {
  using namespace softmax_tiling_detail;
  flash_check("SoftMaxFlashV2TilingFunc", srcShape, dataTypeSize1, dataTypeSize2);
  uint32_t m = 0, k = 0;
  split(srcShape, m, k);
  const uint32_t fit = localWorkSpaceSize / flash_row_bytes(k);
  if (fit == 0)
    optiling::detail::tiling_fail("SoftMaxFlashV2TilingFunc: localWorkSpaceSize " +
                                  std::to_string(localWorkSpaceSize) + " B holds no row of " +
                                  std::to_string(flash_row_bytes(k)) + " B");
  SoftMaxTilingFunc(srcShape, dataTypeSize1, fit * row_bytes(k, dataTypeSize1), softmaxFlashTiling);
}

// SoftmaxFlashV3 (Ascend C API: SoftmaxFlashV3-Tiling), half data and float statistics: a row
// takes its float copy, 64 partial sums, 12 blocks, its values and the fold row
// (api/softmax_flash.h's softmax_flash_v3_floats); the minimum is a row, the maximum all.
namespace softmax_tiling_detail {
inline uint32_t flash_v3_bytes(uint32_t n, uint32_t k) {
  return (n * (k + 64 + 12 * 8 + 64) + 2 * ((n + 15) / 16 * 16)) * 4;
}
inline void flash_v3_check(const char* fn, const TensorShape& shape, uint32_t size1, uint32_t size2,
                           uint32_t& m, uint32_t& k) {
  check(fn, shape, size1);
  if (size1 != 2 || size2 != 4)
    optiling::detail::tiling_fail(std::string(fn) +
                                  ": half data and float statistics (2 and 4) only");
  split(shape, m, k);
  if (k % 512 != 0)
    optiling::detail::tiling_fail(std::string(fn) + ": the last axis " + std::to_string(k) +
                                  " is not a multiple of 512");
}
}  // namespace softmax_tiling_detail
inline void GetSoftMaxFlashV3MaxMinTmpSize(const TensorShape& srcShape,
                                           const uint32_t dataTypeSize1,
                                           const uint32_t dataTypeSize2, uint32_t& maxValue,
                                           uint32_t& minValue, const bool /*isUpdate*/,
                                           const bool /*isBasicBlock*/ = false) {
  using namespace softmax_tiling_detail;
  uint32_t m = 0, k = 0;
  flash_v3_check("GetSoftMaxFlashV3MaxMinTmpSize", srcShape, dataTypeSize1, dataTypeSize2, m, k);
  minValue = flash_v3_bytes(1, k);
  maxValue = flash_v3_bytes(m, k);
}
template <class Tiling>
void SoftMaxFlashV3TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                              const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                              Tiling& softmaxFlashV3Tiling, const bool /*isUpdate*/,
                              const bool /*isBasicBlock*/ = false) {
  using namespace softmax_tiling_detail;
  uint32_t m = 0, k = 0;
  flash_v3_check("SoftMaxFlashV3TilingFunc", srcShape, dataTypeSize1, dataTypeSize2, m, k);
  uint32_t fit = std::min(m, localWorkSpaceSize / flash_v3_bytes(1, k));
  while (fit > 0 && flash_v3_bytes(fit, k) > localWorkSpaceSize) --fit;
  if (fit == 0)
    optiling::detail::tiling_fail("SoftMaxFlashV3TilingFunc: localWorkSpaceSize " +
                                  std::to_string(localWorkSpaceSize) + " B holds no row of " +
                                  std::to_string(flash_v3_bytes(1, k)) + " B");
  SoftMaxTilingFunc(srcShape, 4, fit * row_bytes(k, 4), softmaxFlashV3Tiling);
}

}  // namespace AscendC
