// AscendQuant per tensor (Ascend C API: AscendQuant): dst (int8) = round(src x scale + offset),
// issued as the A2/A3 implementation issues it, chunk by chunk of the temporary buffer: a float
// source is cast to half first, then Muls by scale and Adds of offset in half (scale and offset
// rounded to half), then a Cast to int8 (round to nearest even, saturating). So the result carries
// half's rounding, as the hardware's does.
// The per-channel and per-group quantization forms are not modelled: calling one does not compile.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "sim/api/not_modelled.h"
#include "sim/api/stack_buffer.h"
#include "sim/api/vector.h"
#include "sim/api/vector_level0.h"

namespace AscendC {

namespace detail {
template <class T>
void ascend_quant(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src,
                  const LocalTensor<uint8_t>& tmp, float scale, float offset, uint32_t calCount) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "AscendQuant takes a half or float source on A2/A3");
  if (calCount > src.GetSize() || calCount > dst.GetSize())
    fault("AscendQuant: calCount " + std::to_string(calCount) +
          " exceeds the source or destination tensor");
  const uint32_t split = tmp.GetSize() / sizeof(half) / 32 * 32;
  if (split == 0)
    fault("AscendQuant: sharedTmpBuffer of " + std::to_string(tmp.GetSize()) +
          " B holds no 32 half values");
  const LocalTensor<half> work = tmp.template ReinterpretCast<half>();
  const half s = static_cast<half>(scale), o = static_cast<half>(offset);
  for (uint32_t off = 0; off < calCount; off += split) {
    const uint32_t n = std::min(split, calCount - off);
    if constexpr (std::is_same_v<T, float>) {
      Cast(work, src[off], RoundMode::CAST_NONE, n);
      PipeBarrier<PIPE_V>();
      Muls(work, work, s, n);
    } else {
      Muls(work, src[off], s, n);
    }
    PipeBarrier<PIPE_V>();
    Adds(work, work, o, n);
    PipeBarrier<PIPE_V>();
    Cast(dst[off], work, RoundMode::CAST_NONE, n);
    PipeBarrier<PIPE_V>();
  }
}
}  // namespace detail

template <class T, bool isReuseSource = false>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                 const uint32_t calCount) {
  detail::ascend_quant(dstTensor, srcTensor, sharedTmpBuffer, scale, offset, calCount);
}
template <class T, bool isReuseSource = false>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale,
                 const float offset) {
  detail::ascend_quant(dstTensor, srcTensor, sharedTmpBuffer, scale, offset, srcTensor.GetSize());
}
template <class T, bool isReuseSource = false>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const float scale, const float offset, const uint32_t calCount) {
  detail::ascend_quant(dstTensor, srcTensor, detail::stack_buffer<uint8_t>("AscendQuant"), scale,
                       offset, calCount);
}
template <class T, bool isReuseSource = false>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const float scale, const float offset) {
  detail::ascend_quant(dstTensor, srcTensor, detail::stack_buffer<uint8_t>("AscendQuant"), scale,
                       offset, srcTensor.GetSize());
}
// The per-channel forms (a scale tensor) are not modelled.
template <class T, bool isReuseSource = false, class A, class B, class... Rest>
void AscendQuant(const LocalTensor<int8_t>&, const LocalTensor<T>&, const A&, const LocalTensor<B>&,
                 const Rest&...) {
  static_assert(detail::kNotModelled<T, A, B, Rest...>,
                "ascend-sim: AscendC::AscendQuant per channel (a scale tensor) is not modelled "
                "yet (the per-tensor form, a float scale and offset, is)");
}

}  // namespace AscendC
