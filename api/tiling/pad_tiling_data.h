// Pad and UnPad's kernel-side tiling structs (PadTiling, UnPadTiling).
//
// Each field list is written once, as an X-macro: the kernel struct here and the host's
// optiling::PadTiling / optiling::UnPadTiling (tiling/pad_tiling_host.h) are both expanded from
// it, so the bytes SaveToBuffer writes are the struct a kernel copies from its tiling buffer.
// Every field is a uint32_t, in Ascend C's order.
#pragma once

#include <cstdint>

// Pad: the shape ([srcHeight, srcWidth], srcOriWidth of them valid), the 32-B aligned case's
// repeat split, and the unaligned case's temporary-buffer split.
#define ASCEND_SIM_PAD_TILING_FIELDS(X) \
  X(srcHeight)                          \
  X(srcWidth)                           \
  X(srcOriWidth)                        \
  X(widthWithoutLastBlock)              \
  X(blocksPerRow)                       \
  X(heightTiling)                       \
  X(heightFractal)                      \
  X(heightFractalTail)                  \
  X(mainLoopOffset)                     \
  X(tailBlockOffset)                    \
  X(tmpBuffer1BlockNum)                 \
  X(tmpBuffer1RowNum)                   \
  X(tmpBuffer2Offset)                   \
  X(widthTiling)                        \
  X(widthFractal)                       \
  X(widthFractalTail)                   \
  X(widthFractalTailAlingned)           \
  X(brcbTiling)                         \
  X(brcbFractal)                        \
  X(brcbFractalTail)                    \
  X(maxRepeatTimes)                     \
  X(brcbTilingRepeatTimes)              \
  X(brcbTilingRepeatTimesTail)          \
  X(brcbFractalTailRepeatTimes)         \
  X(brcbFractalTailRepeatTimesTail)     \
  X(reserved)

// UnPad: the shape and the temporary-buffer split (the latter unused on A2/A3).
#define ASCEND_SIM_UNPAD_TILING_FIELDS(X) \
  X(srcHeight)                            \
  X(srcWidth)                             \
  X(tmpBuffer1BlockNum)                   \
  X(tmpBuffer1RowNum)                     \
  X(tmpBuffer2Offset)                     \
  X(widthTiling)                          \
  X(widthFractal)                         \
  X(widthFractalTail)

#define ASCEND_SIM_TILING_STRUCT_FIELD(name) uint32_t name = 0;

struct PadTiling {
  ASCEND_SIM_PAD_TILING_FIELDS(ASCEND_SIM_TILING_STRUCT_FIELD)
};
struct UnPadTiling {
  ASCEND_SIM_UNPAD_TILING_FIELDS(ASCEND_SIM_TILING_STRUCT_FIELD)
};

#undef ASCEND_SIM_TILING_STRUCT_FIELD

// Ascend C also names them AscendC::tiling::PadTiling and AscendC::tiling::UnPadTiling.
namespace AscendC::tiling {
using ::PadTiling;
using ::UnPadTiling;
}  // namespace AscendC::tiling
