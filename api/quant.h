// AscendQuant per tensor (Ascend C API: AscendQuant): dst (int8) = round(src x scale + offset),
// issued as the A2/A3 implementation issues it, chunk by chunk of the temporary buffer: a float
// source is cast to half first, then Muls by scale and Adds of offset in half (scale and offset
// rounded to half), then a Cast to int8 (round to nearest even, saturating). So the result carries
// half's rounding, as the hardware's does.
// AscendDequant (Ascend C API: AscendDequant) to float with float scales: src (int32, m rows of n,
// each row 32-B aligned) cast to float in the temporary buffer, then the first calCount elements
// of each row multiplied by deqScale's first calCount values (a scale vector: a level-0 Mul over
// the rows with the scale's repeat stride 0) or by one scale (Muls), written to dst's rows of n.
// Other dst or scale types (half, bfloat16_t, uint64_t scales) are not modelled.
// The per-channel and per-group quantization forms are not modelled: calling one does not compile.
// AscendAntiQuant (Ascend C API: AscendAntiQuant), int8 to half, src [K, N] (isTranspose false):
// dst[i][j] = scale[i / g][j] x (src[i][j] + offset[i / g][j]), g = K / the offset's rows, or a
// scalar scale and offset (per tensor). As the A2/A3 implementation does for a half output: a Cast
// of src to half, then an Add of each offset row and a Mul by each scale row over the K / g rows
// that share it (a repeat a row, the offset's repeat stride 0), each rounded to half. The offset's
// and scale's shapes come from AntiQuantShapeInfo or else the offset's ShapeInfo. The transposed
// form and bfloat16 outputs are not modelled (a compile error); it takes no temporary.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "api/data_format.h"
#include "api/not_modelled.h"
#include "api/stack_buffer.h"
#include "api/vector.h"
#include "api/vector_level0.h"

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

struct DequantParams {
  uint32_t m;
  uint32_t n;
  uint32_t calCount;
};
enum class DeQuantMode { DEQUANT_WITH_SINGLE_ROW, DEQUANT_WITH_MULTI_ROW };

namespace detail {
template <class dstT, class scaleT, DeQuantMode mode, class Scale>
void ascend_dequant(const LocalTensor<dstT>& dst, const LocalTensor<int32_t>& src,
                    const Scale& scale, const LocalTensor<uint8_t>& tmp, DequantParams p) {
  static_assert(std::is_same_v<dstT, float> && std::is_same_v<scaleT, float>,
                "ascend-sim: AscendDequant is modelled to float with float scales only");
  constexpr bool vector_scale = !std::is_same_v<Scale, float>;
  // One row of calCount, a whole number of blocks, that divides it: rows of calCount.
  if (mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW && p.m == 1 && p.calCount % 8 == 0 &&
      p.calCount != 0 && p.n % p.calCount == 0)
    p = DequantParams{p.n / p.calCount, p.calCount, p.calCount};
  if (p.m == 0 || p.n == 0 || p.calCount == 0) return;
  if (p.n % 8 != 0)
    fault("AscendDequant: rows of " + std::to_string(p.n) + " int32, not 32-B aligned");
  if (p.calCount > p.n)
    fault("AscendDequant: calCount " + std::to_string(p.calCount) + " exceeds the row of " +
          std::to_string(p.n));
  if (uint64_t{p.m} * p.n > src.GetSize() || uint64_t{p.m} * p.n > dst.GetSize())
    fault("AscendDequant: {m " + std::to_string(p.m) + ", n " + std::to_string(p.n) +
          "} exceeds the source or destination tensor");
  if constexpr (vector_scale) {
    if (p.calCount > scale.GetSize())
      fault("AscendDequant: calCount " + std::to_string(p.calCount) + " exceeds deqScale's " +
            std::to_string(scale.GetSize()) + " values");
  }
  const LocalTensor<float> work = tmp.template ReinterpretCast<float>();
  const uint32_t rows_per_chunk = std::min<uint32_t>(work.GetSize() / p.n, 255);
  if (rows_per_chunk == 0)
    fault("AscendDequant: sharedTmpBuffer of " + std::to_string(tmp.GetSize()) +
          " B is below one row of " + std::to_string(p.n * 4) + " B");
  const uint32_t row_blocks = p.n / 8;
  if (vector_scale && row_blocks > 255)
    fault("AscendDequant: rows of " + std::to_string(p.n * 4) + " B, beyond a repeat stride");
  for (uint32_t r0 = 0; r0 < p.m; r0 += rows_per_chunk) {
    const uint32_t rows = std::min(rows_per_chunk, p.m - r0);
    Cast(work, src[r0 * p.n], RoundMode::CAST_NONE, rows * p.n);
    PipeBarrier<PIPE_V>();
    if constexpr (vector_scale) {
      const BinaryRepeatParams rp(1, 1, 1, static_cast<uint8_t>(row_blocks),
                                  static_cast<uint8_t>(row_blocks), 0);
      for (uint32_t c = 0; c < p.calCount; c += 64)
        Mul(dst[r0 * p.n + c], work[c], scale[c], uint64_t{std::min(64u, p.calCount - c)},
            static_cast<uint8_t>(rows), rp);
    } else {
      const UnaryRepeatParams rp(1, 1, static_cast<uint8_t>(row_blocks),
                                 static_cast<uint8_t>(row_blocks));
      for (uint32_t c = 0; c < p.calCount; c += 64)
        Muls(dst[r0 * p.n + c], work[c], scale, uint64_t{std::min(64u, p.calCount - c)},
             static_cast<uint8_t>(rows), rp);
    }
    PipeBarrier<PIPE_V>();
  }
}
}  // namespace detail

template <class dstT, class scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   DequantParams params) {
  detail::ascend_dequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, sharedTmpBuffer,
                                             params);
}
template <class dstT, class scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, DequantParams params) {
  detail::ascend_dequant<dstT, scaleT, mode>(
      dstTensor, srcTensor, deqScale, detail::stack_buffer<uint8_t>("AscendDequant"), params);
}
template <class dstT, class scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const scaleT deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   DequantParams params) {
  detail::ascend_dequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, sharedTmpBuffer,
                                             params);
}
template <class dstT, class scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const scaleT deqScale, DequantParams params) {
  detail::ascend_dequant<dstT, scaleT, mode>(
      dstTensor, srcTensor, deqScale, detail::stack_buffer<uint8_t>("AscendDequant"), params);
}

struct AntiQuantShapeInfo {
  uint32_t offsetHeight{0};
  uint32_t offsetWidth{0};
  uint32_t scaleHeight{0};
  uint32_t scaleWidth{0};
};

namespace detail {
template <class In, class Out, bool isTranspose>
void anti_quant_check() {
  static_assert(std::is_same_v<In, int8_t> && std::is_same_v<Out, half>,
                "ascend-sim: AscendAntiQuant is modelled for int8_t to half only");
  static_assert(!isTranspose, "ascend-sim: AscendAntiQuant with isTranspose is not modelled");
}
// dst (rows of n) = dst op each row-group's vector of vec (rows of n), g rows to a vector row.
template <bool isAdd>
void anti_quant_rows(const LocalTensor<half>& dst, const LocalTensor<half>& vec, uint32_t k,
                     uint32_t n, uint32_t g) {
  const uint8_t rep = static_cast<uint8_t>(n / 16);
  const BinaryRepeatParams p(1, 1, 1, rep, rep, 0);
  for (uint32_t v = 0; v < k / g; ++v)
    for (uint32_t r0 = 0; r0 < g; r0 += 255) {
      const uint8_t rows = static_cast<uint8_t>(std::min(255u, g - r0));
      const uint32_t row = v * g + r0;
      for (uint32_t c = 0; c < n; c += 128) {
        const uint64_t mask = std::min(128u, n - c);
        if constexpr (isAdd)
          Add(dst[row * n + c], dst[row * n + c], vec[v * n + c], mask, rows, p);
        else
          Mul(dst[row * n + c], dst[row * n + c], vec[v * n + c], mask, rows, p);
      }
    }
}
inline void anti_quant_shape(const char* what, uint32_t h, uint32_t w, uint32_t k, uint32_t n) {
  if (w != n || h == 0 || k % h != 0)
    fault("AscendAntiQuant: " + std::string(what) + " of [" + std::to_string(h) + ", " +
          std::to_string(w) + "] for a source of [" + std::to_string(k) + ", " + std::to_string(n) +
          "]: it should be [K / groupSize, N] (set it with SetShapeInfo)");
}
inline void anti_quant_cast(const LocalTensor<half>& dst, const LocalTensor<int8_t>& src,
                            uint32_t count) {
  if (count > src.GetSize() || count > dst.GetSize())
    fault("AscendAntiQuant: " + std::to_string(count) +
          " elements exceed the source or the destination");
  Cast(dst, src, RoundMode::CAST_NONE, count);
  PipeBarrier<PIPE_V>();
}
}  // namespace detail

template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& offset,
                     const LocalTensor<OutputDataType>& scale,
                     const LocalTensor<uint8_t>& /*sharedTmpBuffer: a half output takes none*/,
                     const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}) {
  detail::anti_quant_check<InputDataType, OutputDataType, isTranspose>();
  const ShapeInfo os = offset.GetShapeInfo(), ss = scale.GetShapeInfo();
  auto dims = [](const ShapeInfo& si, uint32_t& h, uint32_t& w) {
    if (si.shapeDim == 2) h = si.shape[0], w = si.shape[1];
  };
  uint32_t oh = shapeInfo.offsetHeight, ow = shapeInfo.offsetWidth;
  uint32_t sh = shapeInfo.scaleHeight, sw = shapeInfo.scaleWidth;
  if (oh == 0 || ow == 0) dims(os, oh, ow);
  if (sh == 0 || sw == 0) dims(ss, sh, sw);
  if (sh == 0 || sw == 0) sh = oh, sw = ow;  // the scale shares the offset's shape
  if (k == 0 || ow == 0)
    detail::fault("AscendAntiQuant: no [K, N] source for k " + std::to_string(k) +
                  " and the offset's shape (AntiQuantShapeInfo or SetShapeInfo)");
  const uint32_t n = ow, count = k * n;
  detail::anti_quant_shape("an offset", oh, ow, k, n);
  detail::anti_quant_shape("a scale", sh, sw, k, n);
  if (sh != oh) detail::fault("AscendAntiQuant: the offset and the scale differ in rows");
  if (n % 16 != 0 || n / 16 > 255)
    detail::fault("AscendAntiQuant: rows of " + std::to_string(n) +
                  " halves, not 32-B aligned or beyond 4080");
  if (uint64_t{oh} * n > offset.GetSize() || uint64_t{sh} * n > scale.GetSize())
    detail::fault("AscendAntiQuant: the offset or the scale is smaller than its shape");
  detail::anti_quant_cast(dst, src, count);
  detail::anti_quant_rows<true>(dst, offset, k, n, k / oh);
  PipeBarrier<PIPE_V>();
  detail::anti_quant_rows<false>(dst, scale, k, n, k / sh);
  PipeBarrier<PIPE_V>();
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& offset,
                     const LocalTensor<OutputDataType>& scale, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}) {
  AscendAntiQuant<InputDataType, OutputDataType, isTranspose>(dst, src, offset, scale,
                                                              LocalTensor<uint8_t>{}, k, shapeInfo);
}
// Per tensor: a Cast, an Adds of offset and a Muls by scale over src's elements.
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const OutputDataType offset, const OutputDataType scale,
                     const LocalTensor<uint8_t>& /*sharedTmpBuffer: a half output takes none*/,
                     const uint32_t k, const AntiQuantShapeInfo& /*shapeInfo*/ = {}) {
  detail::anti_quant_check<InputDataType, OutputDataType, isTranspose>();
  if (k == 0 || src.GetSize() % k != 0)
    detail::fault("AscendAntiQuant: k " + std::to_string(k) + " does not divide the source's " +
                  std::to_string(src.GetSize()) + " elements");
  const uint32_t count = src.GetSize();
  detail::anti_quant_cast(dst, src, count);
  Adds(dst, dst, offset, count);
  PipeBarrier<PIPE_V>();
  Muls(dst, dst, scale, count);
  PipeBarrier<PIPE_V>();
}

}  // namespace AscendC
