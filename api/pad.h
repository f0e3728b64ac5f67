// Pad, UnPad and InitGlobalMemory: the high-level APIs, issued as the vector and MTE3 instructions
// Ascend C's A2/A3 implementation issues, through the facade's primitives (so the existing cost
// model times them).
//
// Pad(dst, src, PadParams, PadTiling): src holds srcHeight rows of srcWidth elements (a 32-B
// multiple), of which the first srcOriWidth are valid; dst gets the same rows with the last
// rightPad elements of every row's last 32-B block set to padValue. One vector copy of the whole
// tensor, then one masked Duplicate per 255 rows (one repeat a row); leftPad is not supported
// there (a kernel fault).
// Rows whose width is not a 32-B multiple are packed one after the other in src; dst gets rows of
// the width rounded up to 32 B, leftPad values, the row, rightPad values (leftPad + width +
// rightPad within the rounded width; columns past them are left unspecified, as in Ascend C).
// Ascend C rearranges the rows with Brcb and TransDataTo5HD; here the vector unit's Gather moves
// them: per pass of as many rows as sharedTmpBuffer holds byte offsets for (4 B an output element),
// the offsets are built by CreateVecIndex, Adds/Maxs/Mins/Muls and an Adds a row, one Gather places
// the rows, and masked Duplicates (a repeat a row) write the pad values.
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

#include "api/data_copy.h"
#include "api/gather.h"
#include "api/sort.h"  // CreateVecIndex
#include "api/stack_buffer.h"
#include "api/sync.h"
#include "api/tpipe.h"
#include "api/vector.h"
#if __has_include("kernel_tiling/pad_tiling_data.h")
#include "kernel_tiling/pad_tiling_data.h"  // the SDK's include root (a kernel, the package)
#else
#include "api/tiling/pad_tiling_data.h"  // the source tree's (the simulator's tests)
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
// The pad columns of `rows` rows of wout elements at dst: a masked Duplicate a 256-B column
// chunk holding any, a repeat a row. Columns in [0, left) and [from, to) are pad.
template <class T>
void pad_columns(const LocalTensor<T>& dst, T value, uint32_t rows, uint32_t wout, uint32_t left,
                 uint32_t from, uint32_t to) {
  constexpr uint32_t per_repeat = 256 / sizeof(T);
  const uint32_t row_blocks = wout * sizeof(T) / 32;
  if (row_blocks > 255)
    fault("Pad: rows of " + std::to_string(row_blocks) + " blocks, beyond a repeat stride of 255");
  for (uint32_t c0 = 0; c0 < wout; c0 += per_repeat) {
    uint64_t mask[2] = {0, 0};
    for (uint32_t c = c0; c < std::min(wout, c0 + per_repeat); ++c)
      if (c < left || (c >= from && c < to)) mask[(c - c0) / 64] |= uint64_t{1} << ((c - c0) % 64);
    if (mask[0] == 0 && mask[1] == 0) continue;
    for (uint32_t r0 = 0; r0 < rows; r0 += 255)
      Duplicate<T, true>(dst[r0 * wout + c0], value, mask,
                         static_cast<uint8_t>(std::min(255u, rows - r0)), 1,
                         static_cast<uint8_t>(row_blocks));
  }
}

// Rows of width not a 32-B multiple (see above).
template <class T>
void pad_unaligned(const LocalTensor<T>& dst, const LocalTensor<T>& src, const PadParams& p,
                   const PadTiling& t, const LocalTensor<uint8_t>& tmp) {
  constexpr uint32_t per_block = 32 / sizeof(T);
  const uint32_t height = t.srcHeight, width = t.srcWidth;
  const uint32_t wout = (width + per_block - 1) / per_block * per_block;
  if (uint32_t{p.leftPad} + width + p.rightPad > wout)
    fault("Pad: leftPad " + std::to_string(p.leftPad) + " + width " + std::to_string(width) +
          " + rightPad " + std::to_string(p.rightPad) + " exceeds the 32-B aligned width " +
          std::to_string(wout));
  if (uint64_t{height} * width > src.GetSize() || uint64_t{height} * wout > dst.GetSize())
    fault("Pad: " + std::to_string(height) + " rows of " + std::to_string(width) +
          " elements exceed the source or the destination");
  const uint32_t split =
      std::min<uint32_t>(height, static_cast<uint32_t>(tmp.GetSize() / 4 / wout));
  if (split == 0)
    fault("Pad: sharedTmpBuffer of " + std::to_string(tmp.GetSize()) + " B holds no row's " +
          std::to_string(wout * 4) + " B of offsets");
  const LocalTensor<int32_t> off = tmp.template ReinterpretCast<int32_t>();
  CreateVecIndex(off, -static_cast<int32_t>(p.leftPad), wout);
  PipeBarrier<PIPE_V>();
  Maxs(off, off, int32_t{0}, wout);  // pad columns read any element: Duplicate overwrites them
  PipeBarrier<PIPE_V>();
  Mins(off, off, static_cast<int32_t>(width - 1), wout);
  PipeBarrier<PIPE_V>();
  Muls(off, off, static_cast<int32_t>(sizeof(T)), wout);
  PipeBarrier<PIPE_V>();
  for (uint32_t r = 1; r < split; ++r)
    Adds(off[r * wout], off, static_cast<int32_t>(r * width * sizeof(T)), wout);
  PipeBarrier<PIPE_V>();
  const LocalTensor<uint32_t> uoff = tmp.template ReinterpretCast<uint32_t>();
  const T value = cast_to<T>(static_cast<double>(p.padValue), RoundMode::CAST_RINT);
  for (uint32_t r0 = 0; r0 < height; r0 += split) {
    const uint32_t n = std::min(split, height - r0);
    Gather(dst[r0 * wout], src, uoff, static_cast<uint32_t>(r0 * width * sizeof(T)), n * wout);
    PipeBarrier<PIPE_V>();
    pad_columns(dst[r0 * wout], value, n, wout, p.leftPad, p.leftPad + width,
                p.leftPad + width + p.rightPad);
    PipeBarrier<PIPE_V>();
  }
}

template <class T>
void pad_impl(const LocalTensor<T>& dst, const LocalTensor<T>& src, const PadParams& p,
              const PadTiling& t, const LocalTensor<uint8_t>& tmp) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Pad: 16- or 32-bit elements");
  constexpr uint32_t per_block = 32 / sizeof(T);
  const uint32_t height = t.srcHeight, width = t.srcWidth, ori = t.srcOriWidth;
  if (height == 0 || width == 0)
    fault("Pad: an empty PadTiling (srcHeight " + std::to_string(height) + ", srcWidth " +
          std::to_string(width) + "; fill it with PadTilingFunc)");
  if (width * sizeof(T) % 32 != 0) return pad_unaligned(dst, src, p, t, tmp);
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
         const LocalTensor<uint8_t>& sharedTmpBuffer, PadTiling& tiling) {
  detail::pad_impl(dstTensor, srcTensor, padParams, tiling, sharedTmpBuffer);
}
template <class T>
void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
         PadTiling& tiling) {
  // Only the unaligned case uses the temporary; the aligned one never takes the stack buffer.
  if (tiling.srcWidth * sizeof(T) % 32 != 0)
    detail::pad_impl(dstTensor, srcTensor, padParams, tiling, detail::stack_buffer<uint8_t>("Pad"));
  else
    detail::pad_impl(dstTensor, srcTensor, padParams, tiling, LocalTensor<uint8_t>{});
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
