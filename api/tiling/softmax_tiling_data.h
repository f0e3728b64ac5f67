// SoftMax's kernel-side tiling struct (SoftMaxTiling, Ascend C API: SoftMax-Tiling), its fields
// written once as an X-macro that the host's optiling::SoftMaxTiling (tiling/softmax_tiling_host.h)
// expands too, so SaveToBuffer writes this struct's bytes. Every field is a uint32_t, in Ascend
// C's order: the source [srcM, srcK], the max/sum outputs [outMaxM, outMaxK] (a 32-B block a
// row), the rows one pass takes (splitM) and its reduction, and the passes (rangeM) and tail.
#pragma once

#include <cstdint>

#define ASCEND_SIM_SOFTMAX_TILING_FIELDS(X) \
  X(srcM)                                   \
  X(srcK)                                   \
  X(srcSize)                                \
  X(outMaxM)                                \
  X(outMaxK)                                \
  X(outMaxSize)                             \
  X(splitM)                                 \
  X(splitK)                                 \
  X(splitSize)                              \
  X(reduceM)                                \
  X(reduceK)                                \
  X(reduceSize)                             \
  X(rangeM)                                 \
  X(tailM)                                  \
  X(tailSplitSize)                          \
  X(tailReduceSize)

#define ASCEND_SIM_TILING_STRUCT_FIELD(name) uint32_t name = 0;
struct SoftMaxTiling {
  ASCEND_SIM_SOFTMAX_TILING_FIELDS(ASCEND_SIM_TILING_STRUCT_FIELD)
};
#undef ASCEND_SIM_TILING_STRUCT_FIELD

// LogSoftMax's tiling has SoftMax's fields.
using LogSoftMaxTiling = SoftMaxTiling;

namespace AscendC::tiling {
using ::LogSoftMaxTiling;
using ::SoftMaxTiling;
}  // namespace AscendC::tiling
