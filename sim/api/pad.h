// Pad, UnPad and InitGlobalMemory: the high-level APIs, issued as the vector and MTE3 instructions
// Ascend C's A2/A3 implementation issues, through the facade's primitives (so the existing cost
// model times them).
//
// Pad(dst, src, PadParams, PadTiling): src holds srcHeight rows of srcWidth elements (a 32-B
// multiple), of which the first srcOriWidth are valid; dst gets the same rows with the last
// rightPad elements of every row's last 32-B block set to padValue. One vector copy of the whole
// tensor, then one masked Duplicate per 255 rows (one repeat a row). Rows whose width is not a
// 32-B multiple (Ascend C's Brcb/TransDataTo5HD path), and leftPad, are not modelled: a kernel
// fault says so.
//
// UnPad(dst, src, UnPadParams, UnPadTiling): keeps the first srcWidth - rightPad elements of
// every row, packed one after the other into dst. One GatherMask (counter mode, a repeat a row).
//
// InitGlobalMemory(gm, size, value): Duplicate of value into the UB that the TPipe has not
// allocated (at most 255 repeats of 256 B), then DataCopyPad of it over the size elements, after
// a V -> MTE3 flag; nothing on an AIC. The UB it takes stays usable by the kernel afterwards, as
// Ascend C's stack buffer does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "sim/api/data_copy.h"
#include "sim/api/gather.h"
#include "sim/api/stack_buffer.h"
#include "sim/api/sync.h"
#include "sim/api/tpipe.h"
#include "sim/api/vector.h"
#if __has_include("kernel_tiling/pad_tiling_data.h")
#include "kernel_tiling/pad_tiling_data.h"  // the SDK's include root (a kernel, the package)
#else
#include "sdk/include/kernel_tiling/pad_tiling_data.h"  // the source tree's (the simulator's tests)
#endif

namespace AscendC {

struct PadParams {
  PadParams() = default;
  PadParams(uint16_t leftPadIn, uint16_t rightPadIn, int32_t padValueIn)
      : leftPad(leftPadIn), rightPad(rightPadIn), padValue(padValueIn) {}
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
  int32_t padValue = 0;
};

struct UnPadParams {
  UnPadParams() = default;
  UnPadParams(uint16_t leftPadIn, uint16_t rightPadIn) : leftPad(leftPadIn), rightPad(rightPadIn) {}
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
};

namespace detail {
template <class T>
void pad_impl(const LocalTensor<T>& dst, const LocalTensor<T>& src, const PadParams& p,
              const PadTiling& t) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Pad: 16- or 32-bit elements");
  constexpr uint32_t per_block = 32 / sizeof(T);
  const uint32_t height = t.srcHeight, width = t.srcWidth, ori = t.srcOriWidth;
  if (height == 0 || width == 0)
    fault("Pad: an empty PadTiling (srcHeight " + std::to_string(height) + ", srcWidth " +
          std::to_string(width) + "; fill it with PadTilingFunc)");
  if (width * sizeof(T) % 32 != 0)
    fault("Pad: rows of " + std::to_string(width * sizeof(T)) +
          " B, not a 32-B multiple: Ascend C's unaligned path (Brcb, TransDataTo5HD) is not "
          "modelled");
  if (p.leftPad != 0)
    fault("Pad: leftPad " + std::to_string(p.leftPad) + " is not supported (only rightPad)");
  if (ori > width || width - ori > per_block || p.rightPad > width - ori)
    fault("Pad: rightPad " + std::to_string(p.rightPad) + " with srcOriWidth " +
          std::to_string(ori) + " of srcWidth " + std::to_string(width) +
          ": the padding must lie in each row's last 32-B block, after the valid elements");
  if (t.blocksPerRow > 255)
    fault("Pad: " + std::to_string(t.blocksPerRow) +
          " blocks a row, beyond a repeat stride of 255");
  Copy(dst, src, height * width);  // Ascend C's DataCopy inside UB: a vector copy
  PipeBarrier<PIPE_V>();
  if (p.rightPad == 0) return;
  const uint64_t mask[2] = {((uint64_t{1} << p.rightPad) - 1) << (per_block - (width - ori)), 0};
  const T value = cast_to<T>(static_cast<double>(p.padValue), RoundMode::CAST_RINT);
  for (uint32_t i = 0; i < t.heightFractal; ++i)
    Duplicate<T, true>(dst[i * t.mainLoopOffset + t.widthWithoutLastBlock], value, mask,
                       static_cast<uint8_t>(t.heightTiling), 1,
                       static_cast<uint8_t>(t.blocksPerRow));
  if (t.heightFractalTail)
    Duplicate<T, true>(dst[t.tailBlockOffset], value, mask,
                       static_cast<uint8_t>(t.heightFractalTail), 1,
                       static_cast<uint8_t>(t.blocksPerRow));
}

template <class T>
void unpad_impl(const LocalTensor<T>& dst, const LocalTensor<T>& src, const UnPadParams& p,
                const UnPadTiling& t) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "UnPad: 16- or 32-bit elements");
  const uint32_t height = t.srcHeight, width = t.srcWidth;
  if (height == 0 || width == 0)
    fault("UnPad: an empty UnPadTiling (srcHeight " + std::to_string(height) + ", srcWidth " +
          std::to_string(width) + "; fill it with UnPadTilingFunc)");
  if (width * sizeof(T) % 32 != 0)
    fault("UnPad: rows of " + std::to_string(width * sizeof(T)) + " B, not a 32-B multiple");
  if (p.leftPad != 0)
    fault("UnPad: leftPad " + std::to_string(p.leftPad) + " is not supported (only rightPad)");
  if (p.rightPad >= width)
    fault("UnPad: rightPad " + std::to_string(p.rightPad) + " removes every element of rows of " +
          std::to_string(width));
  if (height > UINT16_MAX || width * sizeof(T) / 32 > UINT16_MAX)
    fault("UnPad: " + std::to_string(height) + " rows of " + std::to_string(width) +
          " elements are beyond one GatherMask");
  GatherMaskParams gp;
  gp.src0BlockStride = 1;
  gp.repeatTimes = static_cast<uint16_t>(height);
  gp.src0RepeatStride = static_cast<uint16_t>(width * sizeof(T) / 32);
  gp.src1RepeatStride = 0;
  uint64_t kept = 0;
  GatherMask(dst, src, static_cast<uint8_t>(7), true, width - p.rightPad, gp, kept);
}

}  // namespace detail

template <class T>
void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
         const LocalTensor<uint8_t>& /*sharedTmpBuffer: the aligned case needs none*/,
         PadTiling& tiling) {
  detail::pad_impl(dstTensor, srcTensor, padParams, tiling);
}
template <class T>
void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
         PadTiling& tiling) {
  detail::pad_impl(dstTensor, srcTensor, padParams, tiling);
}
template <class T>
void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           UnPadParams& unPadParams, LocalTensor<uint8_t>& /*sharedTmpBuffer: unused on A2/A3*/,
           UnPadTiling& tiling) {
  detail::unpad_impl(dstTensor, srcTensor, unPadParams, tiling);
}
template <class T>
void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           UnPadParams& unPadParams, UnPadTiling& tiling) {
  detail::unpad_impl(dstTensor, srcTensor, unPadParams, tiling);
}

template <class T>
void InitGlobalMemory(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value = T{}) {
  if (detail::core().core_kind() == ascend::model::CoreKind::Aic) return;
  if (size == 0) return;
  if (size > gmWorkspaceAddr.GetSize())
    detail::fault("InitGlobalMemory of " + std::to_string(size) +
                  " elements on a GlobalTensor of " + std::to_string(gmWorkspaceAddr.GetSize()));
  LocalTensor<T> buf = detail::stack_buffer<T>("InitGlobalMemory");
  constexpr uint32_t max_elems = 255 * 256 / sizeof(T);
  const uint32_t pop =
      std::min<uint32_t>(buf.GetSize() / (32 / sizeof(T)) * (32 / sizeof(T)), max_elems);
  const uint64_t rounds = size / pop, tail = size % pop;
  Duplicate(buf, value, pop);
  const TEventID id = GetTPipePtr()->FetchEventID(HardEvent::V_MTE3);
  SetFlag<HardEvent::V_MTE3>(id);
  WaitFlag<HardEvent::V_MTE3>(id);
  DataCopyExtParams cp;
  cp.blockLen = static_cast<uint32_t>(pop * sizeof(T));
  for (uint64_t r = 0; r < rounds; ++r) DataCopyPad(gmWorkspaceAddr[r * pop], buf, cp);
  if (tail) {
    cp.blockLen = static_cast<uint32_t>(tail * sizeof(T));
    DataCopyPad(gmWorkspaceAddr[rounds * pop], buf, cp);
  }
  PipeBarrier<PIPE_MTE3>();
}

// Fill is InitGlobalMemory's newer name: `size` elements of the GlobalTensor set to `value` by
// the same Duplicate and UB-to-GM copies (Ascend C API: Fill); InitOutput its older, deprecated
// one.
template <class T>
void Fill(GlobalTensor<T>& dstGlobal, const uint64_t size, const T value) {
  InitGlobalMemory(dstGlobal, size, value);
}
template <class T>
void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value) {
  InitGlobalMemory(gmWorkspaceAddr, size, value);
}

}  // namespace AscendC
