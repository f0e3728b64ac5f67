// WelfordUpdate and WelfordFinalize (Ascend C API: WelfordUpdate, WelfordFinalize): the online
// mean and variance over a split reduce axis, float statistics.
//
// WelfordUpdate, over the first abComputeLength elements of each of the rnLength rows of abLength:
//   delta = x - mean; mean' = mean + delta x nRec; M' = M + delta x (x - mean')
// (Sub, Muls, Add, Sub, Mul, Add; a half x is cast to float first). With config.isInplace the
// rest of each row of the outputs is the inputs' (a Copy of the row first); otherwise it is left.
// The temporary holds delta and a product (and the cast x): 2 (3) x abComputeLength floats.
//
// WelfordFinalize, over the abLength partial results: with counts (int32, the samples behind each),
//   Mean = sum(counts x mean) x rRec;  Var = sum((mean - Mean)^2 x counts + M) x rRec,
// without, the weights are headCount over the first headCountLength and tailCount over the rest
// (rnLength for both and abRec for Mean when there is no tail). Each sum is an in-place fold of
// the 256-B chunks and a WholeReduceSum; Mean is broadcast back by Brcb into a 32-B block that the
// Sub reads with a stride of 0. The temporary holds two vectors of abLength floats and two blocks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "api/layernorm.h"  // detail::rows_sum_in_place, align8
#include "api/softmax.h"    // detail::softmax_blocks
#include "api/stack_buffer.h"
#include "api/vector.h"
#include "api/vector_level0.h"

namespace AscendC {

struct WelfordUpdateParam {
  uint32_t rnLength;
  uint32_t abLength;
  uint32_t abComputeLength;
  float nRec;
};
struct WelfordUpdateConfig {
  bool isInplace = false;
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};

struct WelfordFinalizePara {
  uint32_t rnLength;
  uint32_t abLength;
  uint32_t headCount;
  uint32_t headCountLength;
  uint32_t tailCount;
  uint32_t tailCountLength;
  float abRec;
  float rRec;
};
struct WelfordFinalizeConfig {
  bool isCorrection = false;
};
constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};

template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                   const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                   const LocalTensor<T>& inputX, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   const WelfordUpdateParam& para) {
  static_assert(std::is_same_v<U, float>, "ascend-sim: WelfordUpdate keeps float statistics");
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>,
                "ascend-sim: WelfordUpdate takes a half or float inputX");
  using detail::fault;
  const uint32_t rn = para.rnLength, ab = para.abLength, n = para.abComputeLength;
  if (rn == 0 || ab == 0 || n == 0 || n > ab)
    fault("WelfordUpdate: rnLength " + std::to_string(rn) + ", abLength " + std::to_string(ab) +
          ", abComputeLength " + std::to_string(n) + ": an empty or inconsistent shape");
  if (ab % (32 / sizeof(T)) != 0)
    fault("WelfordUpdate: abLength " + std::to_string(ab) + " is not 32-B aligned");
  const uint64_t all = uint64_t{rn} * ab;
  if (all > inputX.GetSize() || all > inputMean.GetSize() || all > inputVariance.GetSize() ||
      all > outputMean.GetSize() || all > outputVariance.GetSize())
    fault("WelfordUpdate: [" + std::to_string(rn) + ", " + std::to_string(ab) +
          "] exceeds an input or output tensor");
  const uint32_t a8 = detail::align8(n);
  const uint32_t need = (std::is_same_v<T, half> ? 3 : 2) * a8 * 4;
  if (sharedTmpBuffer.GetSize() < need)
    fault("WelfordUpdate: sharedTmpBuffer of " + std::to_string(sharedTmpBuffer.GetSize()) +
          " B is below the " + std::to_string(need) + " B it takes");
  const LocalTensor<float> f = sharedTmpBuffer.template ReinterpretCast<float>();
  const LocalTensor<float> delta = f, prod = f[a8];
  for (uint32_t r = 0; r < rn; ++r) {
    const uint32_t o = r * ab;
    if constexpr (config.isInplace) {
      if (outputMean.ub_offset() != inputMean.ub_offset()) Copy(outputMean[o], inputMean[o], ab);
      if (outputVariance.ub_offset() != inputVariance.ub_offset())
        Copy(outputVariance[o], inputVariance[o], ab);
      PipeBarrier<PIPE_V>();
    }
    LocalTensor<float> x;
    if constexpr (std::is_same_v<T, half>) {
      x = f[2 * a8];
      Cast(x, inputX[o], RoundMode::CAST_NONE, n);
      PipeBarrier<PIPE_V>();
    } else {
      x = inputX[o];
    }
    Sub(delta, x, inputMean[o], n);
    PipeBarrier<PIPE_V>();
    Muls(prod, delta, para.nRec, n);
    PipeBarrier<PIPE_V>();
    Add(outputMean[o], inputMean[o], prod, n);
    PipeBarrier<PIPE_V>();
    Sub(prod, x, outputMean[o], n);
    PipeBarrier<PIPE_V>();
    Mul(prod, delta, prod, n);
    PipeBarrier<PIPE_V>();
    Add(outputVariance[o], inputVariance[o], prod, n);
    PipeBarrier<PIPE_V>();
  }
}
template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                   const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                   const LocalTensor<T>& inputX, const WelfordUpdateParam& para) {
  WelfordUpdate<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance,
                                             inputX, detail::stack_buffer<uint8_t>("WelfordUpdate"),
                                             para);
}

namespace detail {
// w = each partial result's weight (counts cast to float, or head/tail counts by Duplicate).
inline void welford_weights(const LocalTensor<float>& w, const LocalTensor<int32_t>* counts,
                            const WelfordFinalizePara& p) {
  const uint32_t ab = p.abLength;
  if (counts) {
    Cast(w, *counts, RoundMode::CAST_NONE, ab);
  } else if (p.tailCountLength == 0 || p.tailCount == 0) {
    Duplicate(w, static_cast<float>(p.rnLength), ab);
  } else {
    if (p.headCountLength % 8 != 0)
      fault("WelfordFinalize: headCountLength " + std::to_string(p.headCountLength) +
            " is not 32-B aligned");
    if (p.headCountLength) Duplicate(w, static_cast<float>(p.headCount), p.headCountLength);
    Duplicate(w[p.headCountLength], static_cast<float>(p.tailCount), ab - p.headCountLength);
  }
  PipeBarrier<PIPE_V>();
}
inline void welford_finalize(const LocalTensor<float>& outMean, const LocalTensor<float>& outVar,
                             const LocalTensor<float>& mean, const LocalTensor<float>& var,
                             const LocalTensor<int32_t>* counts, const LocalTensor<uint8_t>& tmp,
                             const WelfordFinalizePara& p) {
  const uint32_t ab = p.abLength;
  if (ab == 0) fault("WelfordFinalize: abLength 0");
  if (!counts && p.tailCountLength != 0 && p.headCountLength + p.tailCountLength != ab)
    fault("WelfordFinalize: headCountLength + tailCountLength should be abLength " +
          std::to_string(ab));
  if (ab > mean.GetSize() || ab > var.GetSize() || (counts && ab > counts->GetSize()))
    fault("WelfordFinalize: abLength " + std::to_string(ab) + " exceeds an input tensor");
  if (outMean.GetSize() < 1 || outVar.GetSize() < 1)
    fault("WelfordFinalize: an empty output tensor");
  const uint32_t a8 = align8(ab), need = (2 * a8 + 16) * 4;
  if (tmp.GetSize() < need)
    fault("WelfordFinalize: sharedTmpBuffer of " + std::to_string(tmp.GetSize()) +
          " B is below the " + std::to_string(need) + " B it takes");
  const LocalTensor<float> f = tmp.template ReinterpretCast<float>();
  const LocalTensor<float> w = f, t = f[a8], blk = f[2 * a8], red = f[2 * a8 + 8];
  const bool plain = !counts && (p.tailCountLength == 0 || p.tailCount == 0);
  welford_weights(w, counts, p);
  // Mean
  if (plain) {
    Muls(t, mean, p.abRec, ab);
  } else {
    Mul(t, mean, w, ab);
    PipeBarrier<PIPE_V>();
    Muls(t, t, p.rRec, ab);
  }
  PipeBarrier<PIPE_V>();
  rows_sum_in_place(red, t, 1, ab);
  PipeBarrier<PIPE_V>();
  Copy(outMean, red, 1);
  softmax_blocks(blk, red, 1);
  PipeBarrier<PIPE_V>();
  // Var
  const BinaryRepeatParams bp(1, 1, 0, 8, 8, 0);
  for (uint32_t c = 0; c < ab; c += 64) Sub(t[c], mean[c], blk, std::min(64u, ab - c), 1, bp);
  PipeBarrier<PIPE_V>();
  Mul(t, t, t, ab);
  PipeBarrier<PIPE_V>();
  Mul(t, t, w, ab);
  PipeBarrier<PIPE_V>();
  Add(t, t, var, ab);
  PipeBarrier<PIPE_V>();
  Muls(t, t, p.rRec, ab);
  PipeBarrier<PIPE_V>();
  rows_sum_in_place(red, t, 1, ab);
  PipeBarrier<PIPE_V>();
  Copy(outVar, red, 1);
  PipeBarrier<PIPE_V>();
}
}  // namespace detail

template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     const LocalTensor<int32_t>& counts,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para) {
  static_assert(!config.isCorrection,
                "ascend-sim: WelfordFinalize's isCorrection (an Ascend 950 form) is not modelled");
  detail::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, &counts,
                           sharedTmpBuffer, para);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para) {
  static_assert(!config.isCorrection,
                "ascend-sim: WelfordFinalize's isCorrection (an Ascend 950 form) is not modelled");
  detail::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, nullptr,
                           sharedTmpBuffer, para);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     const LocalTensor<int32_t>& counts, WelfordFinalizePara& para) {
  WelfordFinalize<isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance,
                                         counts, detail::stack_buffer<uint8_t>("WelfordFinalize"),
                                         para);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     WelfordFinalizePara& para) {
  WelfordFinalize<isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance,
                                         detail::stack_buffer<uint8_t>("WelfordFinalize"), para);
}

}  // namespace AscendC
