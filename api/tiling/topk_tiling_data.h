// TopK's kernel-side tiling struct (TopkTiling, Ascend C API: TopK-Tiling), its fields (type and
// name, in Ascend C's order) written once as an X-macro that the host's optiling::TopkTiling
// (tiling/topk_tiling_host.h) expands too. api/topk.h reads tmpLocalSize, allDataSize,
// innerDataSize and sortRepeat; the others stay 0 (Ascend C's own implementation's parameters).
#pragma once

#include <cstdint>

#define ASCEND_SIM_TOPK_TILING_FIELDS(X) \
  X(int32_t, tmpLocalSize)               \
  X(int32_t, allDataSize)                \
  X(int32_t, innerDataSize)              \
  X(uint32_t, sortRepeat)                \
  X(int32_t, mrgSortRepeat)              \
  X(int32_t, kAlignFourBytes)            \
  X(int32_t, kAlignTwoBytes)             \
  X(int32_t, maskOffset)                 \
  X(int32_t, maskVreducev2FourBytes)     \
  X(int32_t, maskVreducev2TwoBytes)      \
  X(int32_t, mrgSortSrc1offset)          \
  X(int32_t, mrgSortSrc2offset)          \
  X(int32_t, mrgSortSrc3offset)          \
  X(int32_t, mrgSortTwoQueueSrc1Offset)  \
  X(int32_t, mrgFourQueueTailPara1)      \
  X(int32_t, mrgFourQueueTailPara2)      \
  X(int32_t, srcIndexOffset)             \
  X(uint32_t, copyUbToUbBlockCount)      \
  X(int32_t, topkMrgSrc1MaskSizeOffset)  \
  X(int32_t, topkNSmallSrcIndexOffset)   \
  X(uint32_t, vreduceValMask0)           \
  X(uint32_t, vreduceValMask1)           \
  X(uint32_t, vreduceIdxMask0)           \
  X(uint32_t, vreduceIdxMask1)           \
  X(uint16_t, vreducehalfValMask0)       \
  X(uint16_t, vreducehalfValMask1)       \
  X(uint16_t, vreducehalfValMask2)       \
  X(uint16_t, vreducehalfValMask3)       \
  X(uint16_t, vreducehalfValMask4)       \
  X(uint16_t, vreducehalfValMask5)       \
  X(uint16_t, vreducehalfValMask6)       \
  X(uint16_t, vreducehalfValMask7)

#define ASCEND_SIM_TILING_TYPED_FIELD(type, name) type name = 0;
struct TopkTiling {
  ASCEND_SIM_TOPK_TILING_FIELDS(ASCEND_SIM_TILING_TYPED_FIELD)
};
#undef ASCEND_SIM_TILING_TYPED_FIELD

namespace AscendC::tiling {
using ::TopkTiling;
}  // namespace AscendC::tiling

namespace AscendC {
// TopK's modes: NORMAL sorts rows of up to 4096; NSMALL rows of 32 (not modelled).
enum class TopKMode { TOPK_NORMAL, TOPK_NSMALL };
}  // namespace AscendC
