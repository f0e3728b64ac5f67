// Broadcast of a 1-D or 2-D tensor along one axis (Ascend C API: Broadcast<T, dim, axis>):
// dstShape[axis] copies of srcShape, whose axis-th dimension is 1. The vector instructions:
//   dim 1 ([1] -> [n]): the value read by the scalar unit, then Duplicate.
//   axis 0 ([1, L] -> [R, L]): Copy with a source repeat stride of 0, a repeat a row, per 256 B
//     of the row.
//   axis 1 ([R, 1] -> [R, L]): Brcb of the R values into a 32-B block each (the temporary
//     buffer), then one Copy per 32-B column block of dst, eight rows a repeat (a destination
//     block stride of one row).
// Rows of dst must be 32-B aligned; the shapes that are not are not modelled (a kernel fault).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "api/reduce.h"
#include "api/stack_buffer.h"
#include "api/sync.h"
#include "api/tpipe.h"
#include "api/vector.h"
#include "api/vector_level0.h"

namespace AscendC {

namespace detail {
template <class T, int32_t dim, int32_t axis>
void broadcast_impl(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[],
                    const uint32_t srcShape[], const LocalTensor<uint8_t>& tmpBytes) {
  static_assert(dim == 1 || dim == 2, "Broadcast: dim 1 or 2 on A2/A3");
  static_assert(axis == 0 || axis == 1, "Broadcast: axis 0 or 1");
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Broadcast: 16- or 32-bit elements");
  constexpr uint32_t per_block = 32 / sizeof(T), per_repeat = 256 / sizeof(T);
  if constexpr (dim == 1) {
    if (srcShape[0] != 1)
      fault("Broadcast: a 1-D source of " + std::to_string(srcShape[0]) + " elements, should be 1");
    const uint32_t n = dstShape[0];
    if (n > dst.GetSize()) fault("Broadcast: dstShape [" + std::to_string(n) + "] exceeds dst");
    const TEventID vs = GetTPipePtr()->FetchEventID(HardEvent::V_S);
    SetFlag<HardEvent::V_S>(vs);
    WaitFlag<HardEvent::V_S>(vs);
    const T v = src.GetValue(0);
    const TEventID sv = GetTPipePtr()->FetchEventID(HardEvent::S_V);
    SetFlag<HardEvent::S_V>(sv);
    WaitFlag<HardEvent::S_V>(sv);
    Duplicate(dst, v, n);
  } else {
    const uint32_t rows = dstShape[0], cols = dstShape[1];
    if (srcShape[axis] != 1 || srcShape[1 - axis] != dstShape[1 - axis])
      fault("Broadcast: srcShape [" + std::to_string(srcShape[0]) + ", " +
            std::to_string(srcShape[1]) + "] does not broadcast along axis " +
            std::to_string(axis) + " to [" + std::to_string(rows) + ", " + std::to_string(cols) +
            "]");
    if (cols % per_block != 0)
      fault("Broadcast: dst rows of " + std::to_string(cols * sizeof(T)) +
            " B, not 32-B aligned (not modelled)");
    if (uint64_t{rows} * cols > dst.GetSize())
      fault("Broadcast: dstShape [" + std::to_string(rows) + ", " + std::to_string(cols) +
            "] exceeds dst");
    const uint32_t row_blocks = cols / per_block;
    if constexpr (axis == 0) {
      if (row_blocks > UINT16_MAX) fault("Broadcast: rows beyond a repeat stride");
      const CopyRepeatParams rp(1, 1, static_cast<uint16_t>(row_blocks), 0);
      for (uint32_t r0 = 0; r0 < rows; r0 += 255)
        for (uint32_t c = 0; c < cols; c += per_repeat)
          Copy(dst[r0 * cols + c], src[c], uint64_t{std::min(per_repeat, cols - c)},
               static_cast<uint8_t>(std::min(255u, rows - r0)), rp);
    } else {
      const uint32_t groups = (rows + 7) / 8;  // Brcb takes 8 values a repeat
      const LocalTensor<T> blocks = tmpBytes.template ReinterpretCast<T>();
      if (uint64_t{groups} * 8 * per_block > blocks.GetSize())
        fault("Broadcast: sharedTmpBuffer of " + std::to_string(tmpBytes.GetSize()) +
              " B is below the " + std::to_string(uint64_t{groups} * 256) + " B of " +
              std::to_string(rows) + " broadcast blocks");
      if (row_blocks > UINT16_MAX / 8) fault("Broadcast: rows beyond a block stride");
      for (uint32_t g0 = 0; g0 < groups; g0 += 255)
        Brcb(blocks[g0 * 8 * per_block], src[g0 * 8],
             static_cast<uint8_t>(std::min(255u, groups - g0)), BrcbRepeatParams{1, 8});
      PipeBarrier<PIPE_V>();
      // Repeat g: rows 8g .. 8g + 7 of one column block, a destination block a row.
      const CopyRepeatParams rp(static_cast<uint16_t>(row_blocks), 1,
                                static_cast<uint16_t>(8 * row_blocks), 8);
      const uint32_t full = rows / 8, tail = rows % 8;
      for (uint32_t c = 0; c < row_blocks; ++c) {
        for (uint32_t g0 = 0; g0 < full; g0 += 255)
          Copy(dst[g0 * 8 * cols + c * per_block], blocks[g0 * 8 * per_block], uint64_t{per_repeat},
               static_cast<uint8_t>(std::min(255u, full - g0)), rp);
        if (tail)
          Copy(dst[full * 8 * cols + c * per_block], blocks[full * 8 * per_block],
               uint64_t{tail * per_block}, 1, rp);
      }
    }
  }
}
}  // namespace detail

template <class T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim],
               const LocalTensor<uint8_t>& sharedTmpBuffer) {
  detail::broadcast_impl<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, sharedTmpBuffer);
}
template <class T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim]) {
  detail::broadcast_impl<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape,
                                       detail::stack_buffer<uint8_t>("Broadcast"));
}

// BroadCast: the name the library's Broadcast calls, which kernels call too.
template <class T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim],
               const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, sharedTmpBuffer);
}
template <class T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim]) {
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape);
}

}  // namespace AscendC
