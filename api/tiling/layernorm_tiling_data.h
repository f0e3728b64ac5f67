// The kernel-side tiling structs of LayerNorm, LayerNormGrad, LayerNormGradBeta, LayerNorm's
// separate form, DeepNorm and RmsNorm (Ascend C API: LayerNorm-Tiling, LayerNormGrad-Tiling,
// LayerNormGradBeta-Tiling, RmsNorm-Tiling), their fields (type and name, in Ascend C's order)
// written once as X-macros that the host's optiling classes (tiling/layernorm_tiling_host.h) expand
// too. api/layernorm.h reads the shape (bLength, sLength, hLength), the reciprocal of H
// (lastDimValueBack) and the temporary's size; the other fields stay 0 (Ascend C's own
// implementation's parameters).
#pragma once

#include <cstdint>

#define ASCEND_SIM_LAYERNORM_TILING_FIELDS(X) \
  X(uint32_t, bLength)                        \
  X(uint32_t, sLength)                        \
  X(uint32_t, hLength)                        \
  X(uint32_t, originalHLength)                \
  X(uint32_t, inputXSize)                     \
  X(uint32_t, meanVarSize)                    \
  X(uint32_t, numberOfTmpBuf)                 \
  X(uint32_t, meanTmpTensorPos)               \
  X(uint32_t, meanTmpTensorSize)              \
  X(uint32_t, varianceTmpTensorPos)           \
  X(uint32_t, varianceTmpTensorSize)          \
  X(uint32_t, tmpBufSize)                     \
  X(uint32_t, oneTmpSize)                     \
  X(uint32_t, firstTmpStartPos)               \
  X(uint32_t, secondTmpStartPos)              \
  X(uint32_t, thirdTmpStartPos)               \
  X(uint32_t, loopRound)                      \
  X(uint32_t, inputRoundSize)                 \
  X(uint32_t, inputTailSize)                  \
  X(uint32_t, inputTailPos)                   \
  X(uint32_t, meanVarRoundSize)               \
  X(uint32_t, meanVarTailSize)                \
  X(uint32_t, meanVarTailPos)                 \
  X(uint32_t, bshCurLength)                   \
  X(uint32_t, bsCurLength)                    \
  X(float, lastDimValueBack)

#define ASCEND_SIM_LAYERNORM_GRAD_TILING_FIELDS(X) \
  X(uint32_t, stackBufferSize)                     \
  X(uint32_t, bLength)                             \
  X(uint32_t, sLength)                             \
  X(uint32_t, hLength)                             \
  X(uint32_t, originalHLength)                     \
  X(uint32_t, oneCalSize)                          \
  X(uint32_t, nohCalSize)                          \
  X(uint32_t, loopNum)                             \
  X(uint32_t, tailSize)                            \
  X(uint32_t, nohTailSize)                         \
  X(uint32_t, tmpTensorBSHPos)                     \
  X(uint32_t, tmpTensorBSHSize)                    \
  X(uint32_t, pdVarTensorPos)                      \
  X(uint32_t, pdVarTensorSize)                     \
  X(uint32_t, pdMeanTensorPos)                     \
  X(uint32_t, pdMeanTensorSize)                    \
  X(uint32_t, x1TensorPos)                         \
  X(uint32_t, x1TensorSize)                        \
  X(uint32_t, x2TensorPos)                         \
  X(uint32_t, x2TensorSize)                        \
  X(uint32_t, x3TensorPos)                         \
  X(uint32_t, x3TensorSize)                        \
  X(uint32_t, tmpTensorPos)                        \
  X(uint32_t, tmpTensorSize)                       \
  X(uint32_t, tmpTensor1Pos)                       \
  X(uint32_t, tmpTensor1Size)                      \
  X(uint32_t, tmpTensor2Pos)                       \
  X(uint32_t, tmpTensor2Size)                      \
  X(uint32_t, lastDimValueBack)                    \
  X(uint32_t, lastDimValueBackMulTwo)

#define ASCEND_SIM_LAYERNORM_GRAD_BETA_TILING_FIELDS(X) \
  X(uint32_t, stackBufferSize)                          \
  X(uint32_t, bLength)                                  \
  X(uint32_t, sLength)                                  \
  X(uint32_t, hLength)                                  \
  X(uint32_t, originalHLength)                          \
  X(uint32_t, bshLength)                                \
  X(uint32_t, bsLength)                                 \
  X(uint32_t, oneCalSize)                               \
  X(uint32_t, numberOfTmpBuf)                           \
  X(uint32_t, loopRound)                                \
  X(uint32_t, inputTailSize)                            \
  X(uint32_t, inputTailPos)                             \
  X(uint32_t, bsTailSize)                               \
  X(uint32_t, bshCurLength)                             \
  X(uint32_t, bsCurLength)                              \
  X(uint32_t, gammaTempTensorPos)                       \
  X(uint32_t, betaTempTensorPos)                        \
  X(uint32_t, inputDyTmpTensorPos)                      \
  X(uint32_t, resForGammaTmpTensorPos)                  \
  X(uint32_t, reserved)

#define ASCEND_SIM_LAYERNORM_SEPARATE_TILING_FIELDS(X) \
  X(uint32_t, aLength)                                 \
  X(uint32_t, rLength)                                 \
  X(uint32_t, halfAddRepeatTimes)                      \
  X(uint32_t, rHeadLength)                             \
  X(float, k2Rec)                                      \
  X(float, k2RRec)                                     \
  X(uint32_t, inputXSize)                              \
  X(uint32_t, meanVarSize)                             \
  X(uint32_t, numberOfTmpBuf)                          \
  X(uint32_t, varianceTmpTensorPos)                    \
  X(uint32_t, varianceTmpTensorSize)                   \
  X(uint32_t, tmpBufSize)                              \
  X(uint32_t, oneTmpSize)                              \
  X(uint32_t, firstTmpStartPos)                        \
  X(uint32_t, secondTmpStartPos)                       \
  X(uint32_t, thirdTmpStartPos)                        \
  X(uint32_t, loopRound)                               \
  X(uint32_t, inputRoundSize)                          \
  X(uint32_t, inputTailSize)                           \
  X(uint32_t, inputTailPos)                            \
  X(uint32_t, meanVarRoundSize)                        \
  X(uint32_t, meanVarTailSize)                         \
  X(uint32_t, meanVarTailPos)                          \
  X(uint32_t, arCurLength)                             \
  X(uint32_t, aCurLength)                              \
  X(float, rValueBack)

#define ASCEND_SIM_RMSNORM_TILING_FIELDS(X) \
  X(uint32_t, bLength)                      \
  X(uint32_t, sLength)                      \
  X(uint32_t, hLength)                      \
  X(uint32_t, originalHLength)              \
  X(float, reciprocalOfHLength)             \
  X(uint32_t, mainBshLength)                \
  X(uint32_t, mainBsLength)                 \
  X(uint32_t, mainBsLengthAlign)            \
  X(uint32_t, loopRound)                    \
  X(uint32_t, inputTailPos)                 \
  X(uint32_t, tailBshLength)                \
  X(uint32_t, tailBsLength)

#define ASCEND_SIM_TILING_TYPED_FIELD(type, name) type name = 0;
struct LayerNormTiling {
  ASCEND_SIM_LAYERNORM_TILING_FIELDS(ASCEND_SIM_TILING_TYPED_FIELD)
};
struct LayerNormGradTiling {
  ASCEND_SIM_LAYERNORM_GRAD_TILING_FIELDS(ASCEND_SIM_TILING_TYPED_FIELD)
};
struct LayerNormGradBetaTiling {
  ASCEND_SIM_LAYERNORM_GRAD_BETA_TILING_FIELDS(ASCEND_SIM_TILING_TYPED_FIELD)
};
struct LayerNormSeparateTiling {
  ASCEND_SIM_LAYERNORM_SEPARATE_TILING_FIELDS(ASCEND_SIM_TILING_TYPED_FIELD)
};
// DeepNorm's tiling has LayerNorm's fields.
struct DeepNormTiling {
  ASCEND_SIM_LAYERNORM_TILING_FIELDS(ASCEND_SIM_TILING_TYPED_FIELD)
};
struct RmsNormTiling {
  ASCEND_SIM_RMSNORM_TILING_FIELDS(ASCEND_SIM_TILING_TYPED_FIELD)
};
#undef ASCEND_SIM_TILING_TYPED_FIELD

namespace AscendC::tiling {
using ::DeepNormTiling;
using ::LayerNormGradBetaTiling;
using ::LayerNormGradTiling;
using ::LayerNormSeparateTiling;
using ::LayerNormTiling;
using ::RmsNormTiling;
}  // namespace AscendC::tiling
