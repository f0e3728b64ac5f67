// SoftmaxFlashV2 (Ascend C API: SoftmaxFlashV2), FlashAttention-2's online softmax over the rows of
// [srcM, srcK] floats, with each row's statistics as a 32-B block of copies (SOFTMAX_NORMAL):
//   isUpdate false: max = rowmax(x); dst = exp(x - max); sum = rowsum(dst).
//   isUpdate true:  max = max(inMax, rowmax(x)); expMax = exp(inMax - max); dst = exp(x - max);
//                   sum = expMax x inSum + rowsum(dst).
// dst may be src, max inMax and sum inSum (the example updates them in place): the new max is built
// in the temporary and written out only once expMax has read inMax. Per pass of tiling.splitM rows
// (all rows when 0; fewer when the temporary holds fewer), the row reductions are SoftMax's
// (sim/api/softmax.h: the ReduceMax/ReduceSum AR sequence, Brcb into blocks) and the row-wise
// Sub reads each row's block with a stride of 0. The temporary takes, a row, a reduction block,
// a max block and, for rows longer than 256 B, the 256-B fold row (softmax_flash_row_bytes).
// half data with float statistics, the outReduceMax form, the NZ format and
// SOFTMAX_OUTPUT_WITHOUT_BRC are not modelled (a compile error).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "sim/api/softmax.h"
#include "sim/api/stack_buffer.h"

namespace AscendC {

enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };
struct SoftmaxConfig {
  bool isCheckTiling = true;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
  SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

namespace detail {
inline uint32_t softmax_flash_row_bytes(uint32_t k) {
  return 64 + (k * 4 > 256 ? 256 : 0);
}

template <bool isUpdate>
void softmax_flash_v2(const LocalTensor<float>& dst, const LocalTensor<float>& sum,
                      const LocalTensor<float>& max, const LocalTensor<float>& src,
                      const LocalTensor<float>& expMax, const LocalTensor<float>& inSum,
                      const LocalTensor<float>& inMax, const LocalTensor<uint8_t>& tmp,
                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& info) {
  const uint32_t m = info.srcM ? info.srcM : tiling.srcM, k = info.srcK ? info.srcK : tiling.srcK;
  if (m == 0 || k == 0) fault("SoftmaxFlashV2: an empty shape");
  if (info.oriSrcK != 0 && info.oriSrcK != k)
    fault("SoftmaxFlashV2: oriSrcK below srcK (padding columns) is not modelled");
  if (k % 8 != 0 || k / 8 > 255)
    fault("SoftmaxFlashV2: rows of " + std::to_string(k) +
          " floats, not 32-B aligned or beyond 2040");
  if (uint64_t{m} * k > src.GetSize() || uint64_t{m} * k > dst.GetSize())
    fault("SoftmaxFlashV2: [" + std::to_string(m) + ", " + std::to_string(k) +
          "] exceeds the source or the destination");
  const uint64_t blocks = uint64_t{m} * 8;
  if (blocks > max.GetSize() || blocks > sum.GetSize() ||
      (isUpdate &&
       (blocks > expMax.GetSize() || blocks > inMax.GetSize() || blocks > inSum.GetSize())))
    fault("SoftmaxFlashV2: the max, sum and expMax tensors need a 32-B block for each of the " +
          std::to_string(m) + " rows");
  const uint32_t row = softmax_flash_row_bytes(k);
  const uint32_t split = std::min<uint32_t>(
      {m, tiling.splitM ? tiling.splitM : m, static_cast<uint32_t>(tmp.GetSize() / row)});
  if (split == 0)
    fault("SoftmaxFlashV2: sharedTmpBuffer of " + std::to_string(tmp.GetSize()) +
          " B is below one row's " + std::to_string(row) + " B");
  const LocalTensor<float> red = tmp.template ReinterpretCast<float>();
  const LocalTensor<float> blk = red[split * 8];
  const LocalTensor<uint8_t> fold = tmp[split * 64];
  for (uint32_t r0 = 0; r0 < m; r0 += split) {
    const uint32_t n = std::min(split, m - r0), b0 = r0 * 8;
    const uint32_t shape[2] = {n, k};
    const LocalTensor<float> x = src[r0 * k], y = dst[r0 * k];
    reduce_pattern<float, Pattern::Reduce::AR, false, ReduceType::MAX>("SoftmaxFlashV2", red, x,
                                                                       fold, shape, true);
    PipeBarrier<PIPE_V>();
    if constexpr (isUpdate) {
      softmax_blocks(blk, red, n);
      PipeBarrier<PIPE_V>();
      Max(blk, blk, inMax[b0], n * 8);
      PipeBarrier<PIPE_V>();
      Sub(expMax[b0], inMax[b0], blk, n * 8);
      PipeBarrier<PIPE_V>();
      Exp(expMax[b0], expMax[b0], n * 8);
      Copy(max[b0], blk, n * 8);
    } else {
      softmax_blocks(max[b0], red, n);
    }
    PipeBarrier<PIPE_V>();
    softmax_rows_by_block<true>(y, x, max[b0], n, k);
    PipeBarrier<PIPE_V>();
    Exp(y, y, n * k);
    PipeBarrier<PIPE_V>();
    reduce_pattern<float, Pattern::Reduce::AR, false, ReduceType::SUM>("SoftmaxFlashV2", red, y,
                                                                       fold, shape, true);
    PipeBarrier<PIPE_V>();
    if constexpr (isUpdate) {
      softmax_blocks(blk, red, n);
      PipeBarrier<PIPE_V>();
      Mul(red, inSum[b0], expMax[b0], n * 8);
      PipeBarrier<PIPE_V>();
      Add(sum[b0], red, blk, n * 8);
    } else {
      softmax_blocks(sum[b0], red, n);
    }
    PipeBarrier<PIPE_V>();
  }
}

template <class T, bool isDataFormatNZ, const SoftmaxConfig& config>
constexpr void softmax_flash_v2_check() {
  static_assert(std::is_same_v<T, float>,
                "ascend-sim: SoftmaxFlashV2 is modelled for float data and statistics only");
  static_assert(!isDataFormatNZ, "ascend-sim: SoftmaxFlashV2 of the NZ format is not modelled");
  static_assert(config.mode == SoftmaxMode::SOFTMAX_NORMAL,
                "ascend-sim: SoftmaxFlashV2 with SOFTMAX_OUTPUT_WITHOUT_BRC is not modelled");
}
}  // namespace detail

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                    const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                    const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail::softmax_flash_v2_check<T, isDataFormatNZ, config>();
  detail::softmax_flash_v2<isUpdate>(dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                                     inExpSumTensor, inMaxTensor, sharedTmpBuffer, tiling,
                                     softmaxShapeInfo);
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                    const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                    const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  detail::softmax_flash_v2_check<T, isDataFormatNZ, config>();
  detail::softmax_flash_v2<isUpdate>(
      dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
      detail::stack_buffer<uint8_t>("SoftmaxFlashV2"), tiling, softmaxShapeInfo);
}

}  // namespace AscendC
