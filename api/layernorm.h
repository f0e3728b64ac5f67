// LayerNorm, LayerNormGrad and LayerNormGradBeta over [B, S, H] (Ascend C API: LayerNorm,
// LayerNormGrad, LayerNormGradBeta), float, rows of H 32-B aligned, the whole tensor in one pass
// (the shape is the tiling's: bLength, sLength, hLength). Each is the vector instructions of its
// formula, with each row's statistics reduced by the ReduceSum AR sequence (WholeReduceSum a row,
// after an Add fold for rows longer than 256 B) and broadcast back by Brcb into a 32-B block a
// row (a source block stride of 0 in the row operations); gamma and beta apply to every row with a
// source repeat stride of 0:
//   LayerNorm: mean = sum(x) / H; xm = x - mean; var = sum(xm^2) / H; rstd = 1 / sqrt(var + eps);
//              y = gamma x (xm x rstd) + beta.
//   LayerNormGrad: pdXl = dy x gamma; pdVar = -0.5 sum(pdXl x xm) rstd^3; pdMean = -sum(pdXl x
//              rstd) + pdVar / H x sum(-2 xm); pdX = pdMean / H + pdVar x 2 / H x xm + pdXl x
//              rstd; resForGamma = xm x rstd.
//   LayerNormGradBeta: pdGamma = sum over the rows of dy x resForGamma, pdBeta of dy (the
//              ReduceSum RA sequence: a fold onto a power of two of rows, then halving Adds).
//   DeepNorm:  LayerNorm of alpha x src + gx.
//   RmsNorm:   rstd = 1 / sqrt(sum(x^2) / H + eps); y = x x rstd x gamma, in passes of the
//              tiling's mainBsLength rows (all rows when 0), each row's squares summed by an
//              in-place Add of its 256-B chunks onto its first, then WholeReduceSum; its temporary
//              holds a pass's squares and sums (the rstd blocks reuse the squares).
// The temporaries are ascend_sim_layernorm_tmp_bytes (tiling/layernorm_tiling_host.h) bytes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "api/data_format.h"
#include "api/reduce_pattern.h"
#include "api/softmax.h"  // detail::softmax_blocks
#include "api/stack_buffer.h"
#include "api/vector.h"
#include "api/vector_level0.h"
#if __has_include("kernel_tiling/layernorm_tiling_data.h")
#include "kernel_tiling/layernorm_tiling_data.h"  // the SDK's include root (a kernel, the package)
#include "kernel_tiling/reduce_pattern.h"
#else
#include "api/tiling/layernorm_tiling_data.h"  // the source tree's (the tests)
#include "api/tiling/reduce_pattern.h"
#endif

namespace AscendC {

struct LayerNormGradShapeInfo {
  DataFormat dataFormat = DataFormat::ND;
};

namespace detail {
enum class RowOp { Add, Sub, Mul };
// dst[r, :] = src[r, :] op (each row's 32-B block of blk, or the vector vec), a repeat a row.
template <RowOp op, bool byBlock>
void layernorm_rows(const LocalTensor<float>& dst, const LocalTensor<float>& src,
                    const LocalTensor<float>& other, uint32_t rows, uint32_t h) {
  const uint8_t rep = static_cast<uint8_t>(h / 8);
  const BinaryRepeatParams p(1, 1, byBlock ? 0 : 1, rep, rep, byBlock ? 1 : 0);
  for (uint32_t r0 = 0; r0 < rows; r0 += 255) {
    const uint8_t n = static_cast<uint8_t>(std::min(255u, rows - r0));
    for (uint32_t c = 0; c < h; c += 64) {
      const uint64_t mask = std::min(64u, h - c);
      const LocalTensor<float> o = byBlock ? other[r0 * 8] : other[c];
      if constexpr (op == RowOp::Add)
        Add(dst[r0 * h + c], src[r0 * h + c], o, mask, n, p);
      else if constexpr (op == RowOp::Sub)
        Sub(dst[r0 * h + c], src[r0 * h + c], o, mask, n, p);
      else
        Mul(dst[r0 * h + c], src[r0 * h + c], o, mask, n, p);
    }
  }
}
inline void layernorm_row_sums(const LocalTensor<float>& red, const LocalTensor<float>& x,
                               const LocalTensor<uint8_t>& fold, uint32_t rows, uint32_t h) {
  const uint32_t shape[2] = {rows, h};
  reduce_pattern<float, Pattern::Reduce::AR, false, ReduceType::SUM>("LayerNorm", red, x, fold,
                                                                     shape, true);
}
inline void layernorm_check(const char* name, uint32_t b, uint32_t s, uint32_t h,
                            const LocalTensor<uint8_t>& tmp, uint32_t need) {
  if (b == 0 || s == 0 || h == 0)
    fault(std::string(name) + ": an empty shape in the tiling (fill it with its ND tiling info)");
  if (h % 8 != 0 || h / 8 > 255)
    fault(std::string(name) + ": rows of " + std::to_string(h) +
          " floats, not 32-B aligned or beyond 8160");
  if (tmp.GetSize() < need)
    fault(std::string(name) + ": a temporary of " + std::to_string(tmp.GetSize()) +
          " B is below the " + std::to_string(need) + " B it takes");
}
inline uint32_t align8(uint32_t v) {
  return (v + 7) / 8 * 8;
}
}  // namespace detail

namespace detail {
// output = xm x (each row's rstd, red[0, m)) x gamma + beta, the rstd broadcast into blk; the
// last step of LayerNorm (both forms) and Normalize.
inline void layernorm_apply(const LocalTensor<float>& output, const LocalTensor<float>& xm,
                            const LocalTensor<float>& red, const LocalTensor<float>& blk,
                            const LocalTensor<float>& gamma, const LocalTensor<float>& beta,
                            uint32_t m, uint32_t h, bool useGamma = true, bool useBeta = true) {
  softmax_blocks(blk, red, m);
  PipeBarrier<PIPE_V>();
  layernorm_rows<RowOp::Mul, true>(output, xm, blk, m, h);
  PipeBarrier<PIPE_V>();
  if (useGamma) {
    layernorm_rows<RowOp::Mul, false>(output, output, gamma, m, h);
    PipeBarrier<PIPE_V>();
  }
  if (useBeta) {
    layernorm_rows<RowOp::Add, false>(output, output, beta, m, h);
    PipeBarrier<PIPE_V>();
  }
}
// red[0, m) = 1 / sqrt(var + epsilon); blk is overwritten.
inline void layernorm_rstd(const LocalTensor<float>& red, const LocalTensor<float>& var,
                           const LocalTensor<float>& blk, float epsilon, uint32_t m) {
  Adds(red, var, epsilon, m);
  PipeBarrier<PIPE_V>();
  Sqrt(red, red, m);
  Duplicate(blk, 1.0f, m);
  PipeBarrier<PIPE_V>();
  Div(red, blk, red, m);
  PipeBarrier<PIPE_V>();
}
// The bytes LayerNorm's temporary takes for m rows of h: the centred rows, the row values, a
// block a row and, for rows longer than 256 B, a fold row a row.
inline uint32_t layernorm_tmp_bytes(uint32_t m, uint32_t h) {
  return (m * h + align8(m) + 8 * m) * 4 + (h * 4 > 256 ? m * 256 : 0);
}
// LayerNorm of m rows of h (see above); x may be output (DeepNorm normalizes its sum in place).
// The third output is the variance, or with rstdOut the reciprocal standard deviation.
inline void layernorm_forward(const char* name, const LocalTensor<float>& output,
                              const LocalTensor<float>& outputMean,
                              const LocalTensor<float>& outputVariance, const LocalTensor<float>& x,
                              const LocalTensor<float>& gamma, const LocalTensor<float>& beta,
                              const LocalTensor<uint8_t>& tmp, float epsilon, uint32_t b,
                              uint32_t s, uint32_t h, bool rstdOut = false, bool useGamma = true,
                              bool useBeta = true) {
  const uint32_t m = b * s, a8 = align8(m);
  layernorm_check(name, b, s, h, tmp, layernorm_tmp_bytes(m, h));
  if (uint64_t{m} * h > x.GetSize() || uint64_t{m} * h > output.GetSize() ||
      m > outputMean.GetSize() || m > outputVariance.GetSize() ||
      (useGamma && h > gamma.GetSize()) || (useBeta && h > beta.GetSize()))
    fault(std::string(name) + ": [" + std::to_string(m) + ", " + std::to_string(h) +
          "] exceeds an input or output tensor");
  const float back = 1.0f / static_cast<float>(h);
  const LocalTensor<float> all = tmp.template ReinterpretCast<float>();
  const LocalTensor<float> xm = all, red = all[m * h], blk = all[m * h + a8];
  const LocalTensor<uint8_t> fold = tmp[(m * h + a8 + 8 * m) * 4];
  layernorm_row_sums(red, x, fold, m, h);
  PipeBarrier<PIPE_V>();
  Muls(outputMean, red, back, m);
  PipeBarrier<PIPE_V>();
  softmax_blocks(blk, outputMean, m);
  PipeBarrier<PIPE_V>();
  layernorm_rows<RowOp::Sub, true>(xm, x, blk, m, h);
  PipeBarrier<PIPE_V>();
  Mul(output, xm, xm, m * h);
  PipeBarrier<PIPE_V>();
  layernorm_row_sums(red, output, fold, m, h);
  PipeBarrier<PIPE_V>();
  const LocalTensor<float> var = rstdOut ? blk : outputVariance;
  Muls(var, red, back, m);
  PipeBarrier<PIPE_V>();
  layernorm_rstd(red, var, blk, epsilon, m);
  if (rstdOut) Copy(outputVariance, red, m);
  layernorm_apply(output, xm, red, blk, gamma, beta, m, h, useGamma, useBeta);
}
}  // namespace detail

template <class T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
               const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
               const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
               LayerNormTiling& tiling) {
  static_assert(std::is_same_v<T, float>, "ascend-sim: LayerNorm is modelled for float only");
  detail::layernorm_forward("LayerNorm", output, outputMean, outputVariance, inputX, gamma, beta,
                            sharedTmpBuffer, epsilon, tiling.bLength, tiling.sLength,
                            tiling.hLength);
}
template <class T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
               const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
               const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
               LayerNormTiling& tiling) {
  LayerNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta,
                              detail::stack_buffer<uint8_t>("LayerNorm"), epsilon, tiling);
}

template <class T, bool isReuseSource = false>
void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                   const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                   const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                   const LocalTensor<T>& inputGamma, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   T epsilon, LayerNormGradTiling& tiling,
                   const LayerNormGradShapeInfo& shapeInfo = {}) {
  static_assert(std::is_same_v<T, float>, "ascend-sim: LayerNormGrad is modelled for float only");
  using namespace detail;
  if (shapeInfo.dataFormat != DataFormat::ND)
    fault("LayerNormGrad: only the ND format is modelled");
  const uint32_t m = tiling.bLength * tiling.sLength, h = tiling.hLength;
  const uint32_t a8 = align8(m), fold_bytes = h * 4 > 256 ? m * 256 : 0;
  const uint32_t vec_base = 3 * m * h + 16 * m;
  layernorm_check("LayerNormGrad", tiling.bLength, tiling.sLength, h, sharedTmpBuffer,
                  (vec_base + 8 * a8) * 4 + fold_bytes);
  if (uint64_t{m} * h > inputX.GetSize() || uint64_t{m} * h > inputDy.GetSize() ||
      uint64_t{m} * h > outputPdX.GetSize() || uint64_t{m} * h > resForGamma.GetSize() ||
      m > inputMean.GetSize() || m > inputVariance.GetSize() || h > inputGamma.GetSize())
    fault("LayerNormGrad: [" + std::to_string(m) + ", " + std::to_string(h) +
          "] exceeds an input or output tensor");
  const float back = 1.0f / static_cast<float>(h);
  const LocalTensor<float> all = sharedTmpBuffer.template ReinterpretCast<float>();
  const LocalTensor<float> xm = all, pdxl = all[m * h], t = all[2 * m * h];
  const LocalTensor<float> blkA = all[3 * m * h], blkB = all[3 * m * h + 8 * m];
  const LocalTensor<float> rstd = all[vec_base], rstd3 = all[vec_base + a8],
                           pv = all[vec_base + 2 * a8], s1 = all[vec_base + 3 * a8],
                           s2 = all[vec_base + 4 * a8], pm = all[vec_base + 5 * a8],
                           red = all[vec_base + 6 * a8], ones = all[vec_base + 7 * a8];
  const LocalTensor<uint8_t> fold = sharedTmpBuffer[(vec_base + 8 * a8) * 4];
  softmax_blocks(blkA, inputMean, m);
  PipeBarrier<PIPE_V>();
  layernorm_rows<RowOp::Sub, true>(xm, inputX, blkA, m, h);
  Adds(red, inputVariance, epsilon, m);
  Duplicate(ones, 1.0f, m);
  PipeBarrier<PIPE_V>();
  Sqrt(red, red, m);
  PipeBarrier<PIPE_V>();
  Div(rstd, ones, red, m);
  PipeBarrier<PIPE_V>();
  Mul(rstd3, rstd, rstd, m);
  softmax_blocks(blkA, rstd, m);
  PipeBarrier<PIPE_V>();
  Mul(rstd3, rstd3, rstd, m);
  layernorm_rows<RowOp::Mul, true>(resForGamma, xm, blkA, m, h);
  layernorm_rows<RowOp::Mul, false>(pdxl, inputDy, inputGamma, m, h);
  PipeBarrier<PIPE_V>();
  Mul(t, pdxl, xm, m * h);  // pdVar = -0.5 sum(pdXl x xm) rstd^3
  PipeBarrier<PIPE_V>();
  layernorm_row_sums(red, t, fold, m, h);
  PipeBarrier<PIPE_V>();
  Mul(pv, red, rstd3, m);
  PipeBarrier<PIPE_V>();
  Muls(pv, pv, -0.5f, m);
  layernorm_rows<RowOp::Mul, true>(t, pdxl, blkA, m, h);  // pdXl x rstd
  PipeBarrier<PIPE_V>();
  layernorm_row_sums(red, t, fold, m, h);
  PipeBarrier<PIPE_V>();
  Muls(s1, red, -1.0f, m);
  PipeBarrier<PIPE_V>();
  layernorm_row_sums(red, xm, fold, m, h);
  PipeBarrier<PIPE_V>();
  Muls(s2, red, -2.0f, m);
  PipeBarrier<PIPE_V>();
  Mul(s2, s2, pv, m);
  PipeBarrier<PIPE_V>();
  Muls(s2, s2, back, m);
  PipeBarrier<PIPE_V>();
  Add(pm, s1, s2, m);  // pdMean
  Muls(red, pv, 2.0f * back, m);
  PipeBarrier<PIPE_V>();
  softmax_blocks(blkB, red, m);
  PipeBarrier<PIPE_V>();
  layernorm_rows<RowOp::Mul, true>(outputPdX, xm, blkB, m, h);
  Muls(red, pm, back, m);
  PipeBarrier<PIPE_V>();
  softmax_blocks(blkB, red, m);
  PipeBarrier<PIPE_V>();
  layernorm_rows<RowOp::Add, true>(outputPdX, outputPdX, blkB, m, h);
  PipeBarrier<PIPE_V>();
  Add(outputPdX, outputPdX, t, m * h);
  PipeBarrier<PIPE_V>();
}
template <class T, bool isReuseSource = false>
void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                   const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                   const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                   const LocalTensor<T>& inputGamma, T epsilon, LayerNormGradTiling& tiling,
                   const LayerNormGradShapeInfo& shapeInfo = {}) {
  LayerNormGrad<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean,
                                  inputGamma, detail::stack_buffer<uint8_t>("LayerNormGrad"),
                                  epsilon, tiling, shapeInfo);
}

template <class T, bool isReuseSource = false>
void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                       const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                       const LocalTensor<uint8_t>& sharedTmpBuffer,
                       const LayerNormGradBetaTiling& tiling) {
  static_assert(std::is_same_v<T, float>,
                "ascend-sim: LayerNormGradBeta is modelled for float only");
  using namespace detail;
  const uint32_t m = tiling.bLength * tiling.sLength, h = tiling.hLength;
  layernorm_check("LayerNormGradBeta", tiling.bLength, tiling.sLength, h, sharedTmpBuffer,
                  2 * m * h * 4);
  if (uint64_t{m} * h > resForGamma.GetSize() || uint64_t{m} * h > inputDy.GetSize() ||
      h > outputPdGamma.GetSize() || h > outputPdBeta.GetSize())
    fault("LayerNormGradBeta: [" + std::to_string(m) + ", " + std::to_string(h) +
          "] exceeds an input or output tensor");
  const LocalTensor<float> prod = sharedTmpBuffer.template ReinterpretCast<float>();
  const LocalTensor<uint8_t> work = sharedTmpBuffer[m * h * 4];
  const uint32_t shape[2] = {m, h};
  Mul(prod, inputDy, resForGamma, m * h);
  PipeBarrier<PIPE_V>();
  reduce_pattern<float, Pattern::Reduce::RA, true, ReduceType::SUM>(
      "LayerNormGradBeta", outputPdGamma, prod, work, shape, true);
  PipeBarrier<PIPE_V>();
  reduce_pattern<float, Pattern::Reduce::RA, false, ReduceType::SUM>(
      "LayerNormGradBeta", outputPdBeta, inputDy, work, shape, true);
  PipeBarrier<PIPE_V>();
}
template <class T, bool isReuseSource = false>
void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                       const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                       LayerNormGradBetaTiling& tiling) {
  LayerNormGradBeta<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy,
                                      detail::stack_buffer<uint8_t>("LayerNormGradBeta"), tiling);
}

namespace detail {
// red[r] = sum of row r of x (rows of h floats, h a multiple of 8 unless one row), x's rows
// folded in place.
inline void rows_sum_in_place(const LocalTensor<float>& red, const LocalTensor<float>& x,
                              uint32_t rows, uint32_t h) {
  const uint8_t rep = static_cast<uint8_t>(h / 8);
  const BinaryRepeatParams p(1, 1, 1, rep, rep, rep);
  for (uint32_t r0 = 0; r0 < rows; r0 += 255) {
    const uint8_t n = static_cast<uint8_t>(std::min(255u, rows - r0));
    for (uint32_t c = 64; c < h; c += 64)
      Add(x[r0 * h], x[r0 * h], x[r0 * h + c], std::min(64u, h - c), n, p);
  }
  PipeBarrier<PIPE_V>();
  for (uint32_t r0 = 0; r0 < rows; r0 += 255)
    WholeReduceSum(red[r0], x[r0 * h], static_cast<int32_t>(std::min(64u, h)),
                   static_cast<int32_t>(std::min(255u, rows - r0)), 1, 1, h / 8);
}
}  // namespace detail

template <typename T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
             const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
             const T epsilon, const RmsNormTiling& tiling) {
  static_assert(std::is_same_v<T, float>, "ascend-sim: RmsNorm is modelled for float only");
  using namespace detail;
  const uint32_t m = tiling.bLength * tiling.sLength, h = tiling.hLength;
  if (m == 0 || h == 0)
    fault("RmsNorm: an empty shape in the tiling (fill it with GetRmsNormTilingInfo)");
  if (h % 8 != 0 || h / 8 > 255)
    fault("RmsNorm: rows of " + std::to_string(h) + " floats, not 32-B aligned or beyond 2040");
  if (uint64_t{m} * h > srcLocal.GetSize() || uint64_t{m} * h > dstLocal.GetSize() ||
      h > gammaLocal.GetSize())
    fault("RmsNorm: [" + std::to_string(m) + ", " + std::to_string(h) +
          "] exceeds the source, the destination or gamma");
  const uint32_t split = std::min(m, tiling.mainBsLength ? tiling.mainBsLength : m);
  const uint32_t need = (split * h + align8(split)) * 4;
  if (sharedTmpBuffer.GetSize() < need)
    fault("RmsNorm: sharedTmpBuffer of " + std::to_string(sharedTmpBuffer.GetSize()) +
          " B is below the " + std::to_string(need) + " B of " + std::to_string(split) +
          " rows a pass");
  const float back = tiling.reciprocalOfHLength != 0.0f ? tiling.reciprocalOfHLength
                                                        : 1.0f / static_cast<float>(h);
  const LocalTensor<float> sq = sharedTmpBuffer.template ReinterpretCast<float>();
  const LocalTensor<float> red = sq[split * h];
  for (uint32_t r0 = 0; r0 < m; r0 += split) {
    const uint32_t n = std::min(split, m - r0);
    const LocalTensor<float> x = srcLocal[r0 * h], y = dstLocal[r0 * h];
    Mul(sq, x, x, n * h);
    PipeBarrier<PIPE_V>();
    rows_sum_in_place(red, sq, n, h);
    PipeBarrier<PIPE_V>();
    Muls(red, red, back, n);
    PipeBarrier<PIPE_V>();
    Adds(red, red, epsilon, n);
    PipeBarrier<PIPE_V>();
    Sqrt(red, red, n);
    Duplicate(sq, 1.0f, n);
    PipeBarrier<PIPE_V>();
    Div(red, sq, red, n);  // rstd
    PipeBarrier<PIPE_V>();
    softmax_blocks(sq, red, n);
    PipeBarrier<PIPE_V>();
    layernorm_rows<RowOp::Mul, true>(y, x, sq, n, h);
    PipeBarrier<PIPE_V>();
    layernorm_rows<RowOp::Mul, false>(y, y, gammaLocal, n, h);
    PipeBarrier<PIPE_V>();
  }
}
template <typename T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
             const LocalTensor<T>& gammaLocal, const T epsilon, const RmsNormTiling& tiling) {
  RmsNorm<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, detail::stack_buffer<uint8_t>("RmsNorm"),
                           epsilon, tiling);
}

// DeepNorm: LayerNorm of alpha x src + gx (a Muls and an Add into dst, normalized in place); its
// third output is the variance, as LayerNorm's (Ascend C's implementation writes the variance
// there, whatever the parameter's name).
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
              const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
              const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
              const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
              const T alpha, const T epsilon, DeepNormTiling& tiling) {
  static_assert(std::is_same_v<T, float>, "ascend-sim: DeepNorm is modelled for float only");
  const uint64_t n = uint64_t{tiling.bLength} * tiling.sLength * tiling.hLength;
  if (n > srcLocal.GetSize() || n > gxLocal.GetSize() || n > dstLocal.GetSize())
    detail::fault("DeepNorm: [" + std::to_string(tiling.bLength) + ", " +
                  std::to_string(tiling.sLength) + ", " + std::to_string(tiling.hLength) +
                  "] exceeds the source, gx or the destination");
  Muls(dstLocal, srcLocal, alpha, static_cast<uint32_t>(n));
  PipeBarrier<PIPE_V>();
  Add(dstLocal, dstLocal, gxLocal, static_cast<uint32_t>(n));
  PipeBarrier<PIPE_V>();
  detail::layernorm_forward("DeepNorm", dstLocal, meanLocal, rstdLocal, dstLocal, gammaLocal,
                            betaLocal, sharedTmpBuffer, epsilon, tiling.bLength, tiling.sLength,
                            tiling.hLength);
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
              const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
              const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
              const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon,
              DeepNormTiling& tiling) {
  DeepNorm<T, isReuseSrc, isBasicBlock>(
      dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal,
      detail::stack_buffer<uint8_t>("DeepNorm"), alpha, epsilon, tiling);
}

// LayerNorm's separate form over [A, R] (Ascend C API: LayerNorm with LayerNormPara): the
// forward steps above with the reciprocal standard deviation as the third output
// (isOutputRstd), gamma and beta optional. Normalize (Ascend C API: Normalize): the same last
// steps from a given mean and variance: rstd = 1 / sqrt(variance + epsilon) (written to
// outputRstd), y = (x - mean) x rstd x gamma + beta; its temporary holds the centred rows, the
// rstd and a block a row. Both take rows without padding columns (rLength = rLengthWithPadding).
struct LayerNormConfig {
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
  bool isOutputRstd = true;
};
constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};
struct LayerNormPara {
  uint32_t aLength;
  uint32_t rLength;
  uint32_t rLengthWithPadding;
};
struct NormalizeConfig {
  ReducePattern reducePattern = ReducePattern::AR;
  int32_t aLength = -1;
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
};
constexpr NormalizeConfig NLCFG_NORM = {ReducePattern::AR, -1, false, false, false};
struct NormalizePara {
  uint32_t aLength;
  uint32_t rLength;
  uint32_t rLengthWithPadding;
};

namespace detail {
inline void layernorm_ar_shape(const char* name, uint32_t a, uint32_t r, uint32_t rPad) {
  if (a == 0 || r == 0) fault(std::string(name) + ": an empty [aLength, rLength]");
  if (r != rPad)
    fault(std::string(name) + ": rLength " + std::to_string(r) + " below rLengthWithPadding " +
          std::to_string(rPad) + " (padding columns) is not modelled");
}
}  // namespace detail

template <typename U, typename T, bool isReuseSource = false,
          const LayerNormConfig& config = LNCFG_NORM>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
               const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
               const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormPara& para,
               const LayerNormSeparateTiling& /*tiling: the shape is para's*/) {
  static_assert(std::is_same_v<T, float> && std::is_same_v<U, float>,
                "ascend-sim: LayerNorm over [A, R] is modelled for float only");
  static_assert(config.isOutputRstd,
                "ascend-sim: LayerNorm over [A, R] outputs the variance only on Ascend 950");
  static_assert(!config.isOnlyOutput,
                "ascend-sim: LayerNorm over [A, R] with isOnlyOutput is not modelled");
  detail::layernorm_ar_shape("LayerNorm", para.aLength, para.rLength, para.rLengthWithPadding);
  detail::layernorm_forward("LayerNorm", output, outputMean, outputRstd, inputX, gamma, beta,
                            sharedTmpBuffer, epsilon, para.aLength, 1, para.rLength, true,
                            !config.isNoGamma, !config.isNoBeta);
}
template <typename U, typename T, bool isReuseSource = false,
          const LayerNormConfig& config = LNCFG_NORM>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
               const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
               const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
               const LayerNormPara& para, const LayerNormSeparateTiling& tiling) {
  LayerNorm<U, T, isReuseSource, config>(output, outputMean, outputRstd, inputX, gamma, beta,
                                         epsilon, detail::stack_buffer<uint8_t>("LayerNorm"), para,
                                         tiling);
}

template <typename U, typename T, bool isReuseSource = false,
          const NormalizeConfig& config = NLCFG_NORM>
void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
               const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
               const LocalTensor<U>& beta, const LocalTensor<uint8_t>& sharedTmpBuffer,
               const float epsilon, const NormalizePara& para) {
  static_assert(std::is_same_v<T, float> && std::is_same_v<U, float>,
                "ascend-sim: Normalize is modelled for float only");
  static_assert(config.reducePattern == ReducePattern::AR,
                "ascend-sim: Normalize reduces the inner axis only (ReducePattern::AR)");
  static_assert(!config.isOnlyOutput, "ascend-sim: Normalize with isOnlyOutput is not modelled");
  using namespace detail;
  const uint32_t m = para.aLength, h = para.rLength, a8 = align8(m);
  layernorm_ar_shape("Normalize", m, h, para.rLengthWithPadding);
  if (config.aLength != -1 && static_cast<uint32_t>(config.aLength) != m)
    fault("Normalize: config.aLength " + std::to_string(config.aLength) + " differs from para's " +
          std::to_string(m));
  layernorm_check("Normalize", m, 1, h, sharedTmpBuffer, (m * h + a8 + 8 * m) * 4);
  if (uint64_t{m} * h > inputX.GetSize() || uint64_t{m} * h > output.GetSize() ||
      m > inputMean.GetSize() || m > inputVariance.GetSize() || m > outputRstd.GetSize() ||
      (!config.isNoGamma && h > gamma.GetSize()) || (!config.isNoBeta && h > beta.GetSize()))
    fault("Normalize: [" + std::to_string(m) + ", " + std::to_string(h) +
          "] exceeds an input or output tensor");
  const LocalTensor<float> all = sharedTmpBuffer.template ReinterpretCast<float>();
  const LocalTensor<float> xm = all, red = all[m * h], blk = all[m * h + a8];
  softmax_blocks(blk, inputMean, m);
  PipeBarrier<PIPE_V>();
  layernorm_rows<RowOp::Sub, true>(xm, inputX, blk, m, h);
  PipeBarrier<PIPE_V>();
  layernorm_rstd(red, inputVariance, blk, epsilon, m);
  Copy(outputRstd, red, m);
  layernorm_apply(output, xm, red, blk, gamma, beta, m, h, !config.isNoGamma, !config.isNoBeta);
}
template <typename U, typename T, bool isReuseSource = false,
          const NormalizeConfig& config = NLCFG_NORM>
void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
               const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
               const LocalTensor<U>& beta, const float epsilon, const NormalizePara& para) {
  Normalize<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX,
                                         gamma, beta, detail::stack_buffer<uint8_t>("Normalize"),
                                         epsilon, para);
}

}  // namespace AscendC
