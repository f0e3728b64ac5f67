// The host side of Pad and UnPad: their tiling functions and temporary sizes.
//
// optiling::PadTiling and optiling::UnPadTiling hold the fields of the kernel structs
// (kernel_tiling/pad_tiling_data.h, expanded from the same field lists), with set_NAME/get_NAME,
// GetDataSize() and SaveToBuffer(). The tiling functions fill them as Ascend C's do for the A2/A3
// family: Pad's 32-B aligned case (one Duplicate per 255 rows) and the unaligned case's buffer
// split; UnPad needs no temporary buffer there (GetUnPadMaxMinTmpSize gives 0).
// A bad argument (a shape that is not 2-D, a type size other than 2 or 4, a buffer too small for
// SaveToBuffer) ends the program with exit status 2 and a message naming the function.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../graph/tensor.h"  // relative: the source tree and the package alike
#include "../kernel_tiling/pad_tiling_data.h"
#include "platform/platform_ascendc.h"

namespace AscendC {
using TensorShape = ge::Shape;
}

namespace optiling {
namespace detail {
[[noreturn]] inline void tiling_fail(const std::string& what) {
  std::fprintf(stderr, "ascend-sim: bad input: %s\n", what.c_str());
  std::fflush(stdout);
  std::exit(2);
}
}  // namespace detail

#define ASCEND_SIM_TILING_ACCESSORS(name) \
  void set_##name(uint32_t v) {           \
    data_.name = v;                       \
  }                                       \
  uint32_t get_##name() const {           \
    return data_.name;                    \
  }

#define ASCEND_SIM_TILING_CLASS(Class)                                                             \
  class Class {                                                                                    \
   public:                                                                                         \
    size_t GetDataSize() const { return sizeof(data_); }                                           \
    /* Writes the struct's bytes (GetDataSize()) to `buffer` of `capacity` bytes. */               \
    void SaveToBuffer(void* buffer, size_t capacity) const {                                       \
      if (buffer == nullptr || capacity < sizeof(data_))                                           \
        detail::tiling_fail(std::string(#Class "::SaveToBuffer: ") +                               \
                            (buffer ? "a buffer of " + std::to_string(capacity) + " B" : "null") + \
                            " for " + std::to_string(sizeof(data_)) + " B of tiling");             \
      std::memcpy(buffer, &data_, sizeof(data_));                                                  \
    }                                                                                              \
    const ::Class& data() const { return data_; }

ASCEND_SIM_TILING_CLASS(PadTiling)
ASCEND_SIM_PAD_TILING_FIELDS(ASCEND_SIM_TILING_ACCESSORS)

private:
::PadTiling data_;
};

ASCEND_SIM_TILING_CLASS(UnPadTiling)
ASCEND_SIM_UNPAD_TILING_FIELDS(ASCEND_SIM_TILING_ACCESSORS)

private:
::UnPadTiling data_;
}
;

#undef ASCEND_SIM_TILING_CLASS
#undef ASCEND_SIM_TILING_ACCESSORS
}  // namespace optiling

namespace AscendC {
namespace pad_tiling_detail {
constexpr uint32_t kBlockBytes = 32;
constexpr uint32_t kMaxRepeat = 255;
constexpr uint32_t kAddrList = 16;  // the TransDataTo5HD address list of the unaligned case
constexpr uint32_t kTmpBuffers = 2;

inline void check(const char* fn, const TensorShape& shape, uint32_t typeSize,
                  const char* what = "srcShape") {
  if (typeSize != 2 && typeSize != 4)
    optiling::detail::tiling_fail(std::string(fn) + ": typeSize " + std::to_string(typeSize) +
                                  ", should be 2 or 4");
  if (shape.GetDimNum() != 2)
    optiling::detail::tiling_fail(std::string(fn) + ": " + what + " has " +
                                  std::to_string(shape.GetDimNum()) + " dimensions, should be 2");
  if (shape.GetDim(0) <= 0 || shape.GetDim(1) <= 0 || shape.GetDim(0) > UINT32_MAX ||
      shape.GetDim(1) > UINT32_MAX)
    optiling::detail::tiling_fail(
        std::string(fn) + ": " + what + " [" + std::to_string(shape.GetDim(0)) + ", " +
        std::to_string(shape.GetDim(1)) + "] is not a positive 2-D shape");
}
// The unaligned case's temporary need: two buffers of 16 rows of 32 B per 16 elements.
inline uint32_t tmp_bytes(uint64_t elements, uint32_t typeSize) {
  uint64_t rows = (elements + kAddrList - 1) / kAddrList * kAddrList;
  return static_cast<uint32_t>(rows * (kBlockBytes / typeSize) * kTmpBuffers * typeSize);
}
}  // namespace pad_tiling_detail

inline void GetPadMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                uint32_t& maxValue, uint32_t& minValue) {
  pad_tiling_detail::check("GetPadMaxMinTmpSize", srcShape, typeSize);
  maxValue = pad_tiling_detail::tmp_bytes(
      static_cast<uint64_t>(srcShape.GetDim(0)) * static_cast<uint64_t>(srcShape.GetDim(1)),
      typeSize);
  minValue = pad_tiling_detail::tmp_bytes(1, typeSize);
}

inline void PadTilingFunc(const TensorShape srcShape, const TensorShape oriSrcShape,
                          const uint32_t stackBufferSize, const uint32_t typeSize,
                          optiling::PadTiling& tiling) {
  using namespace pad_tiling_detail;
  check("PadTilingFunc", srcShape, typeSize);
  check("PadTilingFunc", oriSrcShape, typeSize, "oriSrcShape");
  if (oriSrcShape.GetShapeSize() > srcShape.GetShapeSize())
    optiling::detail::tiling_fail("PadTilingFunc: oriSrcShape holds more elements than srcShape");
  const uint32_t height = static_cast<uint32_t>(srcShape.GetDim(0));
  const uint32_t width = static_cast<uint32_t>(srcShape.GetDim(1));
  const uint32_t perBlock = kBlockBytes / typeSize;
  if (width < perBlock)
    optiling::detail::tiling_fail("PadTilingFunc: srcShape's width " + std::to_string(width) +
                                  " is less than one 32-B block");
  tiling.set_srcHeight(height);
  tiling.set_srcWidth(width);
  tiling.set_srcOriWidth(static_cast<uint32_t>(oriSrcShape.GetDim(1)));
  // 32-B aligned rows: the last block of every row is padded by one masked Duplicate of up to
  // 255 repeats (one row each).
  tiling.set_widthWithoutLastBlock(width - perBlock);
  tiling.set_blocksPerRow(width * typeSize / kBlockBytes);
  tiling.set_heightTiling(kMaxRepeat);
  tiling.set_heightFractal(height / kMaxRepeat);
  tiling.set_heightFractalTail(height % kMaxRepeat);
  tiling.set_mainLoopOffset(kMaxRepeat * width);
  tiling.set_tailBlockOffset(height / kMaxRepeat * kMaxRepeat * width + width - perBlock);
  if (stackBufferSize == 0) return;
  // Unaligned rows: the temporary buffer in two halves of whole 16 x 32-B blocks.
  const uint32_t baseElems = kAddrList * kBlockBytes / typeSize;
  const uint32_t blocks = stackBufferSize / typeSize / baseElems / 2;
  const uint32_t widthTiling = kAddrList * blocks;
  tiling.set_tmpBuffer1BlockNum(blocks);
  tiling.set_tmpBuffer1RowNum(kAddrList * blocks);
  tiling.set_tmpBuffer2Offset(blocks * baseElems);
  tiling.set_widthTiling(widthTiling);
  tiling.set_widthFractal(widthTiling ? width / widthTiling : 0);
  const uint32_t tail = widthTiling ? width % widthTiling : 0;
  tiling.set_widthFractalTail(tail);
  tiling.set_widthFractalTailAlingned(tail == 0 ? 0 : (tail + perBlock - 1) / perBlock * perBlock);
  const uint32_t all = height * width;
  tiling.set_brcbTiling(widthTiling);
  tiling.set_brcbFractal(widthTiling ? all / widthTiling : 0);
  tiling.set_brcbFractalTail(widthTiling ? all % widthTiling : 0);
  const uint32_t maxRepeat = 254;  // 255 repeats of 8 elements would end off a 32-B boundary
  tiling.set_maxRepeatTimes(maxRepeat);
  tiling.set_brcbTilingRepeatTimes(widthTiling / 8 / maxRepeat);
  tiling.set_brcbTilingRepeatTimesTail(widthTiling / 8 % maxRepeat);
  tiling.set_brcbFractalTailRepeatTimes(tiling.get_brcbFractalTail() / 8 / maxRepeat);
  tiling.set_brcbFractalTailRepeatTimesTail(tiling.get_brcbFractalTail() / 8 % maxRepeat);
}

inline void PadTilingFunc(const TensorShape srcShape, const TensorShape oriSrcShape,
                          const uint32_t stackBufferSize, const uint32_t typeSize,
                          ::PadTiling& tiling) {
  optiling::PadTiling t;
  PadTilingFunc(srcShape, oriSrcShape, stackBufferSize, typeSize, t);
  t.SaveToBuffer(&tiling, sizeof(tiling));
}

// A2/A3 remove the padding with one GatherMask and need no temporary buffer.
inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& /*ascendcPlatform*/,
                                  const TensorShape& srcShape, const uint32_t typeSize,
                                  uint32_t& maxValue, uint32_t& minValue) {
  pad_tiling_detail::check("GetUnPadMaxMinTmpSize", srcShape, typeSize);
  maxValue = 0;
  minValue = 0;
}

inline void UnPadTilingFunc(const TensorShape srcShape, const uint32_t stackBufferSize,
                            const uint32_t typeSize, optiling::UnPadTiling& tiling) {
  using namespace pad_tiling_detail;
  check("UnPadTilingFunc", srcShape, typeSize);
  const uint32_t width = static_cast<uint32_t>(srcShape.GetDim(1));
  tiling.set_srcHeight(static_cast<uint32_t>(srcShape.GetDim(0)));
  tiling.set_srcWidth(width);
  if (stackBufferSize == 0) return;
  const uint32_t baseElems = kAddrList * kBlockBytes / typeSize;
  const uint32_t blocks = stackBufferSize / typeSize / baseElems / 2;
  const uint32_t widthTiling = kAddrList * blocks;
  tiling.set_tmpBuffer1BlockNum(blocks);
  tiling.set_tmpBuffer1RowNum(kAddrList * blocks);
  tiling.set_tmpBuffer2Offset(blocks * baseElems);
  tiling.set_widthTiling(widthTiling);
  uint32_t fractal = widthTiling ? width / widthTiling : 0,
           tail = widthTiling ? width % widthTiling : 0;
  if (tail != 0)
    ++fractal;
  else
    tail = widthTiling;
  tiling.set_widthFractal(fractal);
  tiling.set_widthFractalTail(tail);
}

inline void UnPadTilingFunc(const TensorShape srcShape, const uint32_t stackBufferSize,
                            const uint32_t typeSize, ::UnPadTiling& tiling) {
  optiling::UnPadTiling t;
  UnPadTilingFunc(srcShape, stackBufferSize, typeSize, t);
  t.SaveToBuffer(&tiling, sizeof(tiling));
}

}  // namespace AscendC
