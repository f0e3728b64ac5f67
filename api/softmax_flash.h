// SoftmaxFlashV2 (Ascend C API: SoftmaxFlashV2), FlashAttention-2's online softmax over the rows of
// [srcM, srcK] floats, with each row's statistics as a 32-B block of copies (SOFTMAX_NORMAL):
//   isUpdate false: max = rowmax(x); dst = exp(x - max); sum = rowsum(dst).
//   isUpdate true:  max = max(inMax, rowmax(x)); expMax = exp(inMax - max); dst = exp(x - max);
//                   sum = expMax x inSum + rowsum(dst).
// dst may be src, max inMax and sum inSum (the example updates them in place): the new max is built
// in the temporary and written out only once expMax has read inMax. Per pass of tiling.splitM rows
// (all rows when 0; fewer when the temporary holds fewer), the row reductions are SoftMax's
// (api/softmax.h: the ReduceMax/ReduceSum AR sequence, Brcb into blocks) and the row-wise
// Sub reads each row's block with a stride of 0. The temporary takes, a row, a reduction block,
// a max block and, for rows longer than 256 B, the 256-B fold row (softmax_flash_row_bytes).
// half data with float statistics, the outReduceMax form, the NZ format and
// SOFTMAX_OUTPUT_WITHOUT_BRC are not modelled (a compile error).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "api/softmax.h"
#include "api/stack_buffer.h"

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

struct SoftMaxParams {
  uint32_t srcM{0};
  uint32_t srcK{0};
  uint32_t oriSrcM{0};
  uint32_t oriSrcK{0};
  uint32_t loopCnt{1};
  uint32_t splitMeanCnt{8};
  float alpha{0.9375f};
};

namespace detail {
// The floats SoftmaxFlashV3's temporary takes for n rows of k: x in float, the 64 partial sums,
// 12 vectors of a block a row, the row values (padded to 16) and the fold rows.
inline uint32_t softmax_flash_v3_floats(uint32_t n, uint32_t k) {
  return n * (k + 64 + 12 * 8 + 64) + 2 * ((n + 15) / 16 * 16);
}

template <bool isUpdate>
void softmax_flash_v3(const LocalTensor<half>& dst, const LocalTensor<float>& meanOut,
                      const LocalTensor<float>& sumOut, const LocalTensor<float>& maxOut,
                      const LocalTensor<half>& src, const LocalTensor<half>& expMax,
                      const LocalTensor<float>& inMean, const LocalTensor<float>& inSum,
                      const LocalTensor<float>& inMax, const LocalTensor<uint8_t>& tmp,
                      const SoftMaxTiling& tiling, const SoftMaxParams& p) {
  const uint32_t m = p.srcM ? p.srcM : tiling.srcM, k = p.srcK ? p.srcK : tiling.srcK;
  if (m == 0 || k == 0) fault("SoftmaxFlashV3: an empty shape");
  if ((p.oriSrcK != 0 && p.oriSrcK != k) || (p.oriSrcM != 0 && p.oriSrcM != m))
    fault("SoftmaxFlashV3: the original shape differs from [srcM, srcK] (not supported)");
  if (p.splitMeanCnt != 8)
    fault("SoftmaxFlashV3: splitMeanCnt " + std::to_string(p.splitMeanCnt) + ", only 8");
  if (k % 512 != 0 || k / 8 > 255 * 8)
    fault("SoftmaxFlashV3: srcK " + std::to_string(k) + " is not a multiple of 512 up to 16320");
  if (isUpdate && p.loopCnt == 0) fault("SoftmaxFlashV3: loopCnt 0 with isUpdate");
  if (p.alpha >= 1.0f) fault("SoftmaxFlashV3: alpha should be below 1");
  if (uint64_t{m} * k > src.GetSize() || uint64_t{m} * k > dst.GetSize())
    fault("SoftmaxFlashV3: [" + std::to_string(m) + ", " + std::to_string(k) +
          "] exceeds the source or the destination");
  const uint64_t blocks = uint64_t{m} * 8;
  if (blocks > meanOut.GetSize() || blocks > sumOut.GetSize() || blocks > maxOut.GetSize() ||
      (isUpdate && (blocks > inMean.GetSize() || blocks > inSum.GetSize() ||
                    blocks > inMax.GetSize() || uint64_t{m} * 16 > expMax.GetSize())))
    fault("SoftmaxFlashV3: the statistics tensors need a 32-B block for each of the " +
          std::to_string(m) + " rows");
  uint32_t split = std::min(m, tiling.splitM ? tiling.splitM : m);
  while (split > 0 && uint64_t{softmax_flash_v3_floats(split, k)} * 4 > tmp.GetSize()) --split;
  if (split == 0)
    fault("SoftmaxFlashV3: sharedTmpBuffer of " + std::to_string(tmp.GetSize()) +
          " B is below one row's " + std::to_string(softmax_flash_v3_floats(1, k) * 4) + " B");
  const float s = p.alpha / (1.0f - p.alpha), backK = 8.0f / static_cast<float>(k);
  const LocalTensor<float> f = tmp.template ReinterpretCast<float>();
  const uint32_t pad = (split + 15) / 16 * 16;
  const LocalTensor<float> xf = f, part = f[split * k];
  const uint32_t b = split * (k + 64);
  auto blk = [&](uint32_t i) { return f[b + i * split * 8]; };  // 12 block vectors
  const LocalTensor<float> loc = blk(0), gb = blk(1), d = blk(2), mb = blk(3), mean = blk(4),
                           curr = blk(5), prev = blk(6), mx = blk(7), ef = blk(8), sb = blk(9),
                           t = blk(10), u = blk(11);
  const LocalTensor<float> vals = f[b + 12 * split * 8];
  const LocalTensor<half> hvals = f[b + 12 * split * 8 + pad].template ReinterpretCast<half>();
  const LocalTensor<float> dblk = f[b + 12 * split * 8 + 2 * pad];  // the fold rows, reused
  const LocalTensor<uint8_t> fold = tmp[(b + 12 * split * 8 + 2 * pad) * 4];
  const BinaryRepeatParams byBlock(1, 1, 0, 8, 8, 0);
  for (uint32_t r0 = 0; r0 < m; r0 += split) {
    const uint32_t n = std::min(split, m - r0), b0 = r0 * 8;
    const uint32_t shape[2] = {n, k};
    Cast(xf, src[r0 * k], RoundMode::CAST_NONE, n * k);
    PipeBarrier<PIPE_V>();
    for (uint32_t r = 0; r < n; ++r) BlockReduceSum(part[r * 64], xf[r * k], 8, 64, 1, 1, 8);
    PipeBarrier<PIPE_V>();
    for (uint32_t r = 0; r < n; ++r)
      for (uint32_t c = 512; c < k; c += 64) {
        Add(part[r * 64], part[r * 64], xf[r * k + c], 64);
        PipeBarrier<PIPE_V>();
      }
    BlockReduceSum(loc, part, static_cast<int32_t>(n), 64, 1, 1, 8);
    PipeBarrier<PIPE_V>();
    Muls(loc, loc, backK, n * 8);  // L, the local means
    PipeBarrier<PIPE_V>();
    WholeReduceSum(vals, loc, 8, static_cast<int32_t>(n), 1, 1, 1);
    PipeBarrier<PIPE_V>();
    Muls(vals, vals, 0.125f, n);  // G, the row means
    PipeBarrier<PIPE_V>();
    softmax_blocks(gb, vals, n);
    PipeBarrier<PIPE_V>();
    Sub(d, gb, loc, n * 8);
    PipeBarrier<PIPE_V>();
    Muls(d, d, s, n * 8);
    PipeBarrier<PIPE_V>();
    softmax_blocks(dblk, d, n * 8);  // a block for each chunk's shift
    PipeBarrier<PIPE_V>();
    for (uint32_t r = 0; r < n; ++r)
      for (uint32_t j = 0; j < 8; ++j) {
        const uint32_t at = r * k + j * (k / 8);
        for (uint32_t c0 = 0; c0 < k / 8; c0 += 255 * 64)
          Sub(xf[at + c0], xf[at + c0], dblk[(r * 8 + j) * 8], 64,
              static_cast<uint8_t>(std::min(255u, (k / 8 - c0) / 64)), byBlock);
      }
    PipeBarrier<PIPE_V>();
    reduce_pattern<float, Pattern::Reduce::AR, false, ReduceType::MAX>("SoftmaxFlashV3", vals, xf,
                                                                       fold, shape, true);
    PipeBarrier<PIPE_V>();
    softmax_blocks(mb, vals, n);  // rowmax(x')
    PipeBarrier<PIPE_V>();
    if constexpr (isUpdate) {
      const float cnt = static_cast<float>(p.loopCnt);
      Muls(t, inMean[b0], cnt - 1.0f, n * 8);
      PipeBarrier<PIPE_V>();
      Add(t, t, gb, n * 8);
      PipeBarrier<PIPE_V>();
      Muls(mean, t, 1.0f / cnt, n * 8);
      PipeBarrier<PIPE_V>();
      Sub(curr, gb, mean, n * 8);
      Sub(prev, inMean[b0], mean, n * 8);
      PipeBarrier<PIPE_V>();
      Muls(curr, curr, s, n * 8);
      Muls(prev, prev, s, n * 8);
      PipeBarrier<PIPE_V>();
      Add(t, mb, curr, n * 8);
      Add(u, inMax[b0], prev, n * 8);
      PipeBarrier<PIPE_V>();
      Max(mx, t, u, n * 8);
      PipeBarrier<PIPE_V>();
      Sub(ef, inMax[b0], mx, n * 8);
      Sub(mb, mx, curr, n * 8);  // the max x' is shifted by
      PipeBarrier<PIPE_V>();
      Add(ef, ef, prev, n * 8);
      PipeBarrier<PIPE_V>();
      Exp(ef, ef, n * 8);
      PipeBarrier<PIPE_V>();
    } else {
      Copy(mean, gb, n * 8);
      Copy(mx, mb, n * 8);
    }
    softmax_rows_by_block<true>(xf, xf, mb, n, k);
    PipeBarrier<PIPE_V>();
    Exp(xf, xf, n * k);
    PipeBarrier<PIPE_V>();
    reduce_pattern<float, Pattern::Reduce::AR, false, ReduceType::SUM>("SoftmaxFlashV3", vals, xf,
                                                                       fold, shape, true);
    PipeBarrier<PIPE_V>();
    softmax_blocks(sb, vals, n);
    PipeBarrier<PIPE_V>();
    Cast(dst[r0 * k], xf, RoundMode::CAST_RINT, n * k);
    if constexpr (isUpdate) {
      Mul(t, ef, inSum[b0], n * 8);
      WholeReduceMax(vals, ef, 8, static_cast<int32_t>(n), 1, 1, 1, ReduceOrder::ORDER_ONLY_VALUE);
      PipeBarrier<PIPE_V>();
      Add(sb, sb, t, n * 8);
      Cast(hvals, vals, RoundMode::CAST_RINT, n);
      PipeBarrier<PIPE_V>();
      softmax_blocks(expMax[r0 * 16], hvals, n);
    }
    PipeBarrier<PIPE_V>();
    Copy(meanOut[b0], mean, n * 8);
    Copy(maxOut[b0], mx, n * 8);
    Copy(sumOut[b0], sb, n * 8);
    PipeBarrier<PIPE_V>();
  }
}
}  // namespace detail

template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false,
          bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                    const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                    const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                    const LocalTensor<U>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxParams& params) {
  static_assert(std::is_same_v<T, half> && std::is_same_v<U, float>,
                "ascend-sim: SoftmaxFlashV3 takes half data and float statistics");
  static_assert(!isDataFormatNZ, "ascend-sim: SoftmaxFlashV3 of the NZ format is not modelled");
  detail::softmax_flash_v3<isUpdate>(dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor,
                                     expMaxTensor, inMeanTensor, inExpSumTensor, inMaxTensor,
                                     sharedTmpBuffer, tiling, params);
}
template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false,
          bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                    const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                    const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                    const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& tiling,
                    const SoftMaxParams& params) {
  SoftmaxFlashV3<T, U, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inMeanTensor,
      inExpSumTensor, inMaxTensor, detail::stack_buffer<uint8_t>("SoftmaxFlashV3"), tiling, params);
}

}  // namespace AscendC
