// AscendC::DataFormat, the layout tag of Ascend C's shape information (LayerNormGradShapeInfo
// and others): ND and NZ are the ones the modelled APIs meet. ShapeInfo, the shape a LocalTensor
// may carry (SetShapeInfo/GetShapeInfo), which some high-level APIs read (AscendAntiQuant's
// offset, RmsNorm's source).
#pragma once

#include <cstdint>

namespace AscendC {
enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };

constexpr uint32_t K_MAX_DIM = 8;
struct ShapeInfo {
  ShapeInfo() = default;
  ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[],
            const uint8_t inputOriginalShapeDim, const uint32_t inputOriginalShape[],
            const DataFormat inputFormat)
      : shapeDim(inputShapeDim), originalShapeDim(inputOriginalShapeDim), dataFormat(inputFormat) {
    for (uint32_t i = 0; i < K_MAX_DIM; ++i) {
      shape[i] = i < shapeDim ? inputShape[i] : 0;
      originalShape[i] = i < originalShapeDim ? inputOriginalShape[i] : 0;
    }
  }
  ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const DataFormat inputFormat)
      : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, inputFormat) {}
  ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[])
      : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, DataFormat::ND) {}
  uint8_t shapeDim = 0;
  uint8_t originalShapeDim = 0;
  uint32_t shape[K_MAX_DIM] = {};
  uint32_t originalShape[K_MAX_DIM] = {};
  DataFormat dataFormat = DataFormat::ND;
};
// The product of the shape's dimensions (0 for a shape never set).
inline int GetShapeSize(const ShapeInfo& shapeInfo) {
  if (shapeInfo.shapeDim == 0) return 0;
  int n = 1;
  for (uint32_t i = 0; i < shapeInfo.shapeDim && i < K_MAX_DIM; ++i)
    n *= static_cast<int>(shapeInfo.shape[i]);
  return n;
}
}  // namespace AscendC
