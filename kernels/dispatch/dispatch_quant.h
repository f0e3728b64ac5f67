// Dynamic per-token int8 quantization (quantMode 2, [OLD]) as dispatch computes it on
// VECTOR; shared by MoeDistributeDispatch and the alltoallv baseline so that both produce the
// same bytes.
#pragma once

#include "api/kernel_operator.h"

namespace ascend::dispatch {

// xf = fp32(x); d = 127 / max|xf|; xh = fp16(CAST_ROUND(int32(CAST_RINT(xf * d)))). Returns the
// scale 1/d; the caller casts xh to int8 with CAST_TRUNC into its record. xf and ax hold H
// floats, mx at least one 32-B block, xh H halves. `smooth` (H floats, may be ax itself): the
// smooth scales xf is multiplied by before its maximum is taken ([OLD]).
template <class T>
float QuantizeToHalf(const AscendC::LocalTensor<T>& tok, const AscendC::LocalTensor<float>& xf,
                     const AscendC::LocalTensor<float>& ax, const AscendC::LocalTensor<float>& mx,
                     const AscendC::LocalTensor<AscendC::half>& xh, uint32_t h,
                     const AscendC::LocalTensor<float>* smooth = nullptr) {
  using namespace AscendC;
  Cast(xf, tok, RoundMode::CAST_NONE, h);
  if (smooth) Mul(xf, xf, *smooth, h);
  Abs(ax, xf, h);
  ReduceMax(mx, ax, ax, h);
  SetFlag<HardEvent::V_S>(0);
  WaitFlag<HardEvent::V_S>(0);
  float d = 127.0f / mx.GetValue(0);
  Muls(xf, xf, d, h);
  LocalTensor<int32_t> xi = xf.template ReinterpretCast<int32_t>();
  Cast(xi, xf, RoundMode::CAST_RINT, h);
  Cast(xh, xi, RoundMode::CAST_ROUND, h);
  return 1.0f / d;
}

}  // namespace ascend::dispatch
