// The host side of the high-level APIs that the tiling examples of the vector family use: their
// temporary-size queries (Get*MaxMinTmpSize) and tiling functions. The sizes are what the kernel
// side (api) takes from the buffer: a chunk of the computation needs `min`, the whole input at
// once `max`. A bad argument ends the program with exit status 2 and a message naming the function.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "../graph/tensor.h"
#include "../graph/types.h"
#include "../kernel_tiling/reduce_pattern.h"  // ReducePattern
#include "pad_tiling_host.h"                  // optiling::detail::tiling_fail, AscendC::TensorShape

namespace AscendC {
namespace adv_tiling_detail {
inline void check_type_size(const char* fn, uint32_t typeSize, uint32_t a, uint32_t b) {
  if (typeSize != a && typeSize != b)
    optiling::detail::tiling_fail(std::string(fn) + ": typeSize " + std::to_string(typeSize) +
                                  ", should be " + std::to_string(a) + " or " + std::to_string(b));
}
inline uint32_t elements(const char* fn, const TensorShape& shape) {
  const int64_t n = shape.GetShapeSize();
  if (n <= 0 || n > UINT32_MAX)
    optiling::detail::tiling_fail(std::string(fn) + ": srcShape holds " + std::to_string(n) +
                                  " elements");
  return static_cast<uint32_t>(n);
}
constexpr uint32_t kRepeatBytes = 256;
}  // namespace adv_tiling_detail

// SwiGLU (Ascend C API: GetSwiGLUMaxMinTmpSize): fp16 is computed in fp32, three values an element
// (12 B, six times the element) at least one repeat's worth; fp32 needs no temporary.
inline void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                         uint32_t& extraBuffer) {
  adv_tiling_detail::check_type_size("GetSwiGLUTmpBufferFactorSize", typeSize, 2, 4);
  maxLiveNodeCount = typeSize == 4 ? 0 : 6;
  extraBuffer = 0;
}
inline void GetSwiGLUMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                   uint32_t& maxValue, uint32_t& minValue,
                                   const bool /*isReuseSource*/) {
  using namespace adv_tiling_detail;
  check_type_size("GetSwiGLUMaxMinTmpSize", typeSize, 2, 4);
  const uint32_t n = elements("GetSwiGLUMaxMinTmpSize", srcShape);
  uint32_t factor = 0, extra = 0;
  GetSwiGLUTmpBufferFactorSize(typeSize, factor, extra);
  minValue = factor * kRepeatBytes;
  maxValue = factor * std::max(n * typeSize, kRepeatBytes);
}

namespace adv_tiling_detail {
// The temporary that api/reduce_pattern.h folds in: for AR rows longer than one repeat, a
// repeat (256 B) a row; for RA, the largest power of two below the rows, each 32-B padded.
inline void reduce_minmax_tmp(const char* fn, const TensorShape& srcShape, ge::DataType dataType,
                              ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,
                              uint32_t& maxValue, uint32_t& minValue) {
  if (dataType != ge::DT_FLOAT && dataType != ge::DT_FLOAT16)
    optiling::detail::tiling_fail(std::string(fn) + ": dataType " + std::to_string(dataType) +
                                  ", should be DT_FLOAT or DT_FLOAT16 on A2/A3");
  if (srcShape.GetDimNum() != 2 || srcShape.GetDim(0) <= 0 || srcShape.GetDim(1) <= 0)
    optiling::detail::tiling_fail(std::string(fn) + ": srcShape should be a positive 2-D shape");
  (void)isSrcInnerPad;  // the kernel call decides (true on A2/A3); the sizes are the same
  if (pattern != ReducePattern::AR && pattern != ReducePattern::RA)
    optiling::detail::tiling_fail(std::string(fn) + ": the pattern should be AR or RA");
  maxValue = minValue = 0;
  if (isReuseSource) return;
  const uint32_t size = static_cast<uint32_t>(ge::GetSizeByDataType(dataType));
  const uint64_t rows = static_cast<uint64_t>(srcShape.GetDim(0));
  const uint64_t cols = static_cast<uint64_t>(srcShape.GetDim(1));
  uint64_t bytes = 0;
  if (pattern == ReducePattern::AR) {
    if (cols * size > kRepeatBytes) bytes = rows * kRepeatBytes;
  } else if (rows > 1) {
    uint64_t k = 1;
    while (k * 2 < rows) k *= 2;
    bytes = k * ((cols * size + 31) / 32 * 32);
  }
  if (bytes > UINT32_MAX) optiling::detail::tiling_fail(std::string(fn) + ": srcShape too large");
  maxValue = minValue = static_cast<uint32_t>(bytes);
}
}  // namespace adv_tiling_detail

inline void GetReduceMaxMaxMinTmpSize(const TensorShape& srcShape, const ge::DataType dataType,
                                      ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
  adv_tiling_detail::reduce_minmax_tmp("GetReduceMaxMaxMinTmpSize", srcShape, dataType, pattern,
                                       isSrcInnerPad, isReuseSource, maxValue, minValue);
}
inline void GetReduceMinMaxMinTmpSize(const TensorShape& srcShape, const ge::DataType dataType,
                                      ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
  adv_tiling_detail::reduce_minmax_tmp("GetReduceMinMaxMinTmpSize", srcShape, dataType, pattern,
                                       isSrcInnerPad, isReuseSource, maxValue, minValue);
}

// Select with a byte mask (Ascend C API: GetSelectMaxMinTmpSize): api/select.h's chunks of
// 128 elements, each 2 B of half mask and a bit; the whole source at once for max.
inline void GetSelectMaxMinTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,
                                   const uint32_t srcTypeSize, const TensorShape& maskShape,
                                   const uint32_t maskTypeSize, const bool /*isReuseMask*/,
                                   uint32_t& maxValue, uint32_t& minValue) {
  using namespace adv_tiling_detail;
  check_type_size("GetSelectMaxMinTmpSize", srcTypeSize, 2, 4);
  if (maskTypeSize != 1 && maskTypeSize != 2 && maskTypeSize != 4)
    optiling::detail::tiling_fail("GetSelectMaxMinTmpSize: maskTypeSize " +
                                  std::to_string(maskTypeSize) + ", should be 1, 2 or 4");
  // One of the sources is the scalar (a shape of one element); the other is the tensor.
  const TensorShape& src =
      src0Shape.GetShapeSize() >= src1Shape.GetShapeSize() ? src0Shape : src1Shape;
  const uint64_t n = elements("GetSelectMaxMinTmpSize", src);
  (void)maskShape;
  auto bucket_bytes = [](uint64_t bucket) { return (bucket / 8 + 31) / 32 * 32 + bucket * 2; };
  minValue = static_cast<uint32_t>(bucket_bytes(128));
  maxValue = static_cast<uint32_t>(bucket_bytes((n + 127) / 128 * 128));
}

// AscendQuant (Ascend C API: GetAscendQuantMaxMinTmpSize): api/quant.h computes in half, a
// 2-B value an element, at least two repeats' worth; the source must fill whole 32-B blocks.
inline void GetAscendQuantTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  maxLiveNodeCount = 2;
  extraBuf = 0;
}
inline void GetAscendQuantMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                        uint32_t& maxValue, uint32_t& minValue) {
  using namespace adv_tiling_detail;
  check_type_size("GetAscendQuantMaxMinTmpSize", typeSize, 2, 4);
  const uint32_t n = elements("GetAscendQuantMaxMinTmpSize", srcShape);
  if (uint64_t{n} * typeSize % 32 != 0)
    optiling::detail::tiling_fail("GetAscendQuantMaxMinTmpSize: " + std::to_string(n) +
                                  " elements do not fill whole 32-B blocks");
  minValue = 2 * kRepeatBytes;
  maxValue = std::max(n * 2, 2 * kRepeatBytes + 0u);
  maxValue = (maxValue + 31) / 32 * 32;
}

// AscendAntiQuant (Ascend C API: GetAscendAntiQuantMaxMinTmpSize): api/quant.h models int8
// to half, computed in dst itself, so it takes no temporary; other types are not modelled.
inline void GetAscendAntiQuantMaxMinTmpSize(const TensorShape& srcShape,
                                            const TensorShape& /*scaleShape*/, bool /*isTranspose*/,
                                            ge::DataType inputDataType, ge::DataType outputDataType,
                                            uint32_t& maxValue, uint32_t& minValue) {
  (void)adv_tiling_detail::elements("GetAscendAntiQuantMaxMinTmpSize", srcShape);
  if (inputDataType != ge::DT_INT8 || outputDataType != ge::DT_FLOAT16)
    optiling::detail::tiling_fail("GetAscendAntiQuantMaxMinTmpSize: only int8 to half is modelled");
  maxValue = minValue = 0;
}
inline uint32_t GetAscendAntiQuantMaxTmpSize(const TensorShape& srcShape,
                                             const TensorShape& scaleShape, bool isTranspose,
                                             ge::DataType inputDataType,
                                             ge::DataType outputDataType) {
  uint32_t maxValue = 0, minValue = 0;
  GetAscendAntiQuantMaxMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType,
                                  maxValue, minValue);
  return maxValue;
}
inline uint32_t GetAscendAntiQuantMinTmpSize(const TensorShape& srcShape,
                                             const TensorShape& scaleShape, bool isTranspose,
                                             ge::DataType inputDataType,
                                             ge::DataType outputDataType) {
  uint32_t maxValue = 0, minValue = 0;
  GetAscendAntiQuantMaxMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType,
                                  maxValue, minValue);
  return minValue;
}

// AscendDequant (Ascend C API: GetAscendDequantMaxMinTmpSize): api/quant.h casts rows of the
// int32 source [m, n] to float in the buffer: one row at least, all m for max.
inline void GetAscendDequantMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                          uint32_t& maxValue, uint32_t& minValue) {
  using namespace adv_tiling_detail;
  check_type_size("GetAscendDequantMaxMinTmpSize", typeSize, 4, 4);
  const uint32_t n = elements("GetAscendDequantMaxMinTmpSize", srcShape);
  const uint32_t row = static_cast<uint32_t>(srcShape.GetDim(srcShape.GetDimNum() - 1));
  minValue = row * 4;
  maxValue = n * 4;
}

// DropOut (Ascend C API: GetDropOutMaxMinTmpSize): srcShape {firstAxis, srcLastAxis,
// maskLastAxis}; a byte mask takes Select's chunks (above), a bit mask none, but the minimum stays
// one chunk so that a buffer of it can be allocated.
inline void GetDropOutMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                    const bool /*isReuseSource*/, uint32_t& maxValue,
                                    uint32_t& minValue) {
  using namespace adv_tiling_detail;
  check_type_size("GetDropOutMaxMinTmpSize", typeSize, 2, 4);
  if (srcShape.GetDimNum() != 3 || srcShape.GetDim(0) <= 0 || srcShape.GetDim(1) <= 0 ||
      srcShape.GetDim(2) <= 0)
    optiling::detail::tiling_fail(
        "GetDropOutMaxMinTmpSize: srcShape should be {firstAxis, srcLastAxis, maskLastAxis}");
  const uint64_t n = static_cast<uint64_t>(srcShape.GetDim(0)) * srcShape.GetDim(1);
  auto bucket_bytes = [](uint64_t bucket) { return (bucket / 8 + 31) / 32 * 32 + bucket * 2; };
  minValue = static_cast<uint32_t>(bucket_bytes(128));
  maxValue = static_cast<uint32_t>(bucket_bytes((n + 127) / 128 * 128));
}

// Sort (Ascend C API: GetSortMaxMinTmpSize): the full sort of api/sort.h writes its
// proposals (8 B an element: the score and the uint32 index) through a temporary of their size.
enum class SortType { RADIX_SORT, MERGE_SORT };
struct SortConfig {
  SortType type = SortType::RADIX_SORT;
  bool isDescend = false;
};
inline void GetSortMaxMinTmpSize(const TensorShape& srcShape, ge::DataType valueType,
                                 ge::DataType indexType, bool /*isReuseSource*/,
                                 const SortConfig& /*config*/, uint32_t& maxValue,
                                 uint32_t& minValue) {
  using namespace adv_tiling_detail;
  if (valueType != ge::DT_FLOAT && valueType != ge::DT_FLOAT16)
    optiling::detail::tiling_fail(
        "GetSortMaxMinTmpSize: valueType should be DT_FLOAT or "
        "DT_FLOAT16 on A2/A3");
  if (indexType != ge::DT_UINT32)
    optiling::detail::tiling_fail("GetSortMaxMinTmpSize: indexType should be DT_UINT32");
  const uint32_t n = elements("GetSortMaxMinTmpSize", srcShape);
  minValue = maxValue = (n + 31) / 32 * 32 * 8;
}

}  // namespace AscendC
