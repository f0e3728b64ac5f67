// SoftMax over the rows of [srcM, srcK] (Ascend C API: SoftMax) and AdjustSoftMaxRes.
//
// SoftMax: dst = exp(src - max) / sum per row, with each row's max and sum written to maxTensor
// and sumTensor as a 32-B block of copies a row, as Ascend C lays them out. Per pass of
// tiling.splitM rows (SoftMaxTilingFunc), the vector instructions are: the rows' maxima (the
// ReduceMax AR sequence of api/reduce_pattern.h: a WholeReduceMax repeat a row, after folding
// rows longer than 256 B), Brcb of them into maxTensor's blocks, a Sub of each row's block
// (source block stride 0, a repeat a row), Exp, the sums likewise (an Add fold, then
// WholeReduceSum), Brcb, and a Div by each row's block. float only; rows of srcK elements with
// oriSrcK = srcK (no padding columns to leave out).
// SoftmaxGrad: dst = (grad - sum(grad x src)) x src per row; SoftmaxGradFront: dst = the row
// sums as a 32-B block of copies a row. Per pass: Mul into the temporary, the row sums (Add fold,
// WholeReduceSum), Brcb, then a Sub of each row's block and a Mul by src (dst may be src).
// LogSoftMax: SoftMax's passes, then Ln and a Muls by 1/ln(10) over dst (Ascend C's LogSoftMax is
// log10 of the softmax). Its tiling (LogSoftMaxTiling, SoftMaxTiling's fields) may be left empty,
// as Ascend C derives the passes from the temporary's size: then splitM is what sharedTmpBuffer
// holds. AdjustSoftMaxRes: the rows whose max has the bits `from` are set to `to` (the scalar unit
// reads each max, a Duplicate rewrites the row); returns whether any was.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "api/reduce.h"
#include "api/reduce_pattern.h"
#include "api/stack_buffer.h"
#include "api/sync.h"
#include "api/tpipe.h"
#include "api/vector.h"
#include "api/vector_level0.h"
#if __has_include("kernel_tiling/softmax_tiling_data.h")
#include "kernel_tiling/softmax_tiling_data.h"  // the SDK's include root (a kernel, the package)
#else
#include "api/tiling/softmax_tiling_data.h"  // the source tree's (the tests)
#endif

namespace AscendC {

struct SoftMaxShapeInfo {
  uint32_t srcM = 0;
  uint32_t srcK = 0;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
};

namespace detail {
// Each row's value of red[0, n) into a 32-B block of out: Brcb for whole groups of 8 rows, the
// scalar unit and Duplicate for the rest.
template <class T>
void softmax_blocks(const LocalTensor<T>& out, const LocalTensor<T>& red, uint32_t n) {
  constexpr uint32_t per_block = 32 / sizeof(T);
  const uint32_t groups = n / 8;
  for (uint32_t g0 = 0; g0 < groups; g0 += 255)
    Brcb(out[g0 * 8 * per_block], red[g0 * 8], static_cast<uint8_t>(std::min(255u, groups - g0)),
         BrcbRepeatParams{1, 8});
  if (n % 8 == 0) return;
  const TEventID vs = GetTPipePtr()->FetchEventID(HardEvent::V_S);
  SetFlag<HardEvent::V_S>(vs);
  WaitFlag<HardEvent::V_S>(vs);
  T v[8];
  for (uint32_t r = groups * 8; r < n; ++r) v[r % 8] = red.GetValue(r);
  const TEventID sv = GetTPipePtr()->FetchEventID(HardEvent::S_V);
  SetFlag<HardEvent::S_V>(sv);
  WaitFlag<HardEvent::S_V>(sv);
  for (uint32_t r = groups * 8; r < n; ++r) Duplicate(out[r * per_block], v[r % 8], per_block);
}
// dst = op(src, each row's block of blk), rows of k, a repeat a row, per 64 columns.
template <bool isSub>
void softmax_rows_by_block(const LocalTensor<float>& dst, const LocalTensor<float>& src,
                           const LocalTensor<float>& blk, uint32_t n, uint32_t k) {
  // Rows wider than a repeat stride reaches (255 blocks) go one instruction a row.
  const bool wide = k / 8 > 255;
  const uint8_t rep = wide ? 0 : static_cast<uint8_t>(k / 8);
  const uint32_t group = wide ? 1 : 255;
  const BinaryRepeatParams p(1, 1, 0, rep, rep, 1);
  for (uint32_t r0 = 0; r0 < n; r0 += group) {
    const uint8_t rows = static_cast<uint8_t>(std::min(group, n - r0));
    for (uint32_t c = 0; c < k; c += 64) {
      const uint64_t mask = std::min(64u, k - c);
      if constexpr (isSub)
        Sub(dst[r0 * k + c], src[r0 * k + c], blk[r0 * 8], mask, rows, p);
      else
        Div(dst[r0 * k + c], src[r0 * k + c], blk[r0 * 8], mask, rows, p);
    }
  }
}

template <class T>
void softmax_impl(const LocalTensor<T>& dst, const LocalTensor<T>& sum, const LocalTensor<T>& max,
                  const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
                  const SoftMaxTiling& tiling, const SoftMaxShapeInfo& info) {
  static_assert(std::is_same_v<T, float>, "ascend-sim: SoftMax is modelled for float only");
  const uint32_t m = info.srcM ? info.srcM : tiling.srcM, k = info.srcK ? info.srcK : tiling.srcK;
  if (m == 0 || k == 0)
    fault("SoftMax: an empty shape (fill SoftMaxTiling with SoftMaxTilingFunc)");
  if (info.oriSrcK != 0 && info.oriSrcK != k)
    fault("SoftMax: oriSrcK " + std::to_string(info.oriSrcK) + " below srcK " + std::to_string(k) +
          " (padding columns) is not modelled");
  if (k % 8 != 0 || k / 8 > 255)
    fault("SoftMax: rows of " + std::to_string(k) + " floats, not 32-B aligned or beyond 8160");
  if (uint64_t{m} * k > src.GetSize() || uint64_t{m} * k > dst.GetSize())
    fault("SoftMax: [" + std::to_string(m) + ", " + std::to_string(k) +
          "] exceeds the source or destination");
  if (uint64_t{m} * 8 > max.GetSize() || uint64_t{m} * 8 > sum.GetSize())
    fault("SoftMax: maxTensor and sumTensor need a 32-B block for each of the " +
          std::to_string(m) + " rows");
  const uint32_t row_bytes = 32 + (k * 4 > 256 ? 256 : 0);
  const uint32_t split = std::min(m, tiling.splitM ? tiling.splitM : m);
  if (uint64_t{split} * row_bytes > tmp.GetSize())
    fault("SoftMax: sharedTmpBuffer of " + std::to_string(tmp.GetSize()) + " B is below the " +
          std::to_string(uint64_t{split} * row_bytes) + " B of " + std::to_string(split) +
          " rows a pass");
  const LocalTensor<float> red = tmp.template ReinterpretCast<float>();
  const LocalTensor<uint8_t> fold = tmp[split * 32];
  for (uint32_t r0 = 0; r0 < m; r0 += split) {
    const uint32_t n = std::min(split, m - r0);
    const uint32_t shape[2] = {n, k};
    const LocalTensor<float> x = src[r0 * k], y = dst[r0 * k];
    reduce_pattern<float, Pattern::Reduce::AR, false, ReduceType::MAX>("SoftMax", red, x, fold,
                                                                       shape, true);
    PipeBarrier<PIPE_V>();
    softmax_blocks(max[r0 * 8], red, n);
    PipeBarrier<PIPE_V>();
    softmax_rows_by_block<true>(y, x, max[r0 * 8], n, k);
    PipeBarrier<PIPE_V>();
    Exp(y, y, n * k);
    PipeBarrier<PIPE_V>();
    reduce_pattern<float, Pattern::Reduce::AR, false, ReduceType::SUM>("SoftMax", red, y, fold,
                                                                       shape, true);
    PipeBarrier<PIPE_V>();
    softmax_blocks(sum[r0 * 8], red, n);
    PipeBarrier<PIPE_V>();
    softmax_rows_by_block<false>(y, y, sum[r0 * 8], n, k);
    PipeBarrier<PIPE_V>();
  }
}
}  // namespace detail

template <class T, bool isReuseSource = false, bool isBasicBlock = false>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
             const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail::softmax_impl(dstTensor, sumTensor, maxTensor, srcTensor, sharedTmpBuffer, tiling,
                       softmaxShapeInfo);
}
template <class T, bool isReuseSource = false, bool isBasicBlock = false>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
             const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail::softmax_impl(dstTensor, sumTensor, maxTensor, srcTensor,
                       detail::stack_buffer<uint8_t>("SoftMax"), tiling, softmaxShapeInfo);
}

template <class T, bool isReuseSource = false, bool isDataFormatNZ = false>
void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sum, const LocalTensor<T>& max,
                const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                const LogSoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(std::is_same_v<T, float>, "ascend-sim: LogSoftMax is modelled for float only");
  static_assert(!isDataFormatNZ, "ascend-sim: LogSoftMax of the NZ format is not modelled");
  SoftMaxTiling t = tiling;
  const uint32_t m = softmaxShapeInfo.srcM ? softmaxShapeInfo.srcM : t.srcM;
  const uint32_t k = softmaxShapeInfo.srcK ? softmaxShapeInfo.srcK : t.srcK;
  if (t.splitM == 0) {
    const uint32_t fit =
        static_cast<uint32_t>(sharedTmpBuffer.GetSize()) / (32 + (uint64_t{k} * 4 > 256 ? 256 : 0));
    t.splitM = std::max(1u, std::min(m, fit >= 8 ? fit / 8 * 8 : fit));
  }
  detail::softmax_impl(dst, sum, max, src, sharedTmpBuffer, t, softmaxShapeInfo);
  Ln(dst, dst, m * k);
  PipeBarrier<PIPE_V>();
  Muls(dst, dst, 0.43429448190325176f, m * k);  // 1 / ln(10)
  PipeBarrier<PIPE_V>();
}

namespace detail {
// The temporary a SoftmaxGrad pass takes a row: the products, a sum block, the reduction's value
// and, for rows longer than 256 B, the fold row.
inline uint32_t softmax_grad_row_bytes(uint32_t k) {
  return k * 4 + 64 + (k * 4 > 256 ? 256 : 0);
}
template <class T>
void softmax_grad_impl(const LocalTensor<T>& dst, const LocalTensor<T>& grad,
                       const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
                       const SoftMaxTiling& tiling, bool isFront, const SoftMaxShapeInfo& info) {
  static_assert(std::is_same_v<T, float>, "ascend-sim: SoftmaxGrad is modelled for float only");
  const char* name = isFront ? "SoftmaxGradFront" : "SoftmaxGrad";
  const uint32_t m = info.srcM ? info.srcM : tiling.srcM, k = info.srcK ? info.srcK : tiling.srcK;
  if (m == 0 || k == 0) fault(std::string(name) + ": an empty shape");
  if (info.oriSrcK != 0 && info.oriSrcK != k)
    fault(std::string(name) + ": oriSrcK below srcK (padding columns) is not modelled");
  if (k % 8 != 0 || k / 8 > 255)
    fault(std::string(name) + ": rows of " + std::to_string(k) +
          " floats, not 32-B aligned or beyond 8160");
  if (uint64_t{m} * k > src.GetSize() || uint64_t{m} * k > grad.GetSize() ||
      uint64_t{m} * (isFront ? 8 : k) > dst.GetSize())
    fault(std::string(name) + ": [" + std::to_string(m) + ", " + std::to_string(k) +
          "] exceeds a source or the destination");
  const uint32_t row = softmax_grad_row_bytes(k);
  const uint32_t split = std::min<uint32_t>(
      {m, tiling.splitM ? tiling.splitM : m, static_cast<uint32_t>(tmp.GetSize() / row)});
  if (split == 0)
    fault(std::string(name) + ": sharedTmpBuffer of " + std::to_string(tmp.GetSize()) +
          " B is below one row's " + std::to_string(row) + " B");
  const LocalTensor<float> prod = tmp.template ReinterpretCast<float>();
  const LocalTensor<float> blk = prod[split * k];
  const LocalTensor<float> red = prod[split * k + split * 8];
  const LocalTensor<uint8_t> fold = tmp[(split * k + split * 16) * 4];
  for (uint32_t r0 = 0; r0 < m; r0 += split) {
    const uint32_t n = std::min(split, m - r0);
    const uint32_t shape[2] = {n, k};
    Mul(prod, grad[r0 * k], src[r0 * k], n * k);
    PipeBarrier<PIPE_V>();
    reduce_pattern<float, Pattern::Reduce::AR, false, ReduceType::SUM>(name, red, prod, fold, shape,
                                                                       true);
    PipeBarrier<PIPE_V>();
    if (isFront) {
      softmax_blocks(dst[r0 * 8], red, n);
      continue;
    }
    softmax_blocks(blk, red, n);
    PipeBarrier<PIPE_V>();
    softmax_rows_by_block<true>(prod, grad[r0 * k], blk, n, k);
    PipeBarrier<PIPE_V>();
    Mul(dst[r0 * k], prod, src[r0 * k], n * k);
    PipeBarrier<PIPE_V>();
  }
}
}  // namespace detail

template <class T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                 const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                 const SoftMaxTiling& tiling, bool isFront = false,
                 const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "ascend-sim: SoftmaxGrad of the NZ format is not modelled");
  detail::softmax_grad_impl(dstTensor, gradTensor, srcTensor, sharedTmpBuffer, tiling, isFront,
                            softmaxShapeInfo);
}
template <class T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                 const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, bool isFront = false,
                 const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "ascend-sim: SoftmaxGrad of the NZ format is not modelled");
  detail::softmax_grad_impl(dstTensor, gradTensor, srcTensor,
                            detail::stack_buffer<uint8_t>("SoftmaxGrad"), tiling, isFront,
                            softmaxShapeInfo);
}
template <class T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                      const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "ascend-sim: SoftmaxGradFront of the NZ format is not modelled");
  detail::softmax_grad_impl(dstTensor, gradTensor, srcTensor, sharedTmpBuffer, tiling, true,
                            softmaxShapeInfo);
}
template <class T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                      const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "ascend-sim: SoftmaxGradFront of the NZ format is not modelled");
  detail::softmax_grad_impl(dstTensor, gradTensor, srcTensor,
                            detail::stack_buffer<uint8_t>("SoftmaxGradFront"), tiling, true,
                            softmaxShapeInfo);
}

template <class T1, class T2, bool isDataFormatNZ = false>
bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor,
                      const uint32_t from, const T1 to, const SoftMaxShapeInfo& softmaxShapeInfo) {
  static_assert(std::is_same_v<T2, float>, "ascend-sim: AdjustSoftMaxRes reads a float max");
  static_assert(!isDataFormatNZ, "ascend-sim: AdjustSoftMaxRes of the NZ format is not modelled");
  const uint32_t m = softmaxShapeInfo.srcM, k = softmaxShapeInfo.srcK;
  if (uint64_t{m} * k > softMaxRes.GetSize() || uint64_t{m} * 8 > maxTensor.GetSize())
    detail::fault("AdjustSoftMaxRes: [" + std::to_string(m) + ", " + std::to_string(k) +
                  "] exceeds softMaxRes or maxTensor");
  const TEventID vs = GetTPipePtr()->FetchEventID(HardEvent::V_S);
  SetFlag<HardEvent::V_S>(vs);
  WaitFlag<HardEvent::V_S>(vs);
  bool any = false;
  for (uint32_t r = 0; r < m; ++r) {
    const float v = maxTensor.GetValue(r * 8);
    uint32_t bits = 0;
    std::memcpy(&bits, &v, 4);
    if (bits != from) continue;
    if (!any) {
      const TEventID sv = GetTPipePtr()->FetchEventID(HardEvent::S_V);
      SetFlag<HardEvent::S_V>(sv);
      WaitFlag<HardEvent::S_V>(sv);
    }
    any = true;
    Duplicate(softMaxRes[r * k], to, k);
  }
  return any;
}

}  // namespace AscendC
