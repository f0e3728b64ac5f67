// AscendC::DataFormat, the layout tag of Ascend C's shape information (LayerNormGradShapeInfo
// and others): ND and NZ are the ones the modelled APIs meet.
#pragma once

#include <cstdint>

namespace AscendC {
enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };
}  // namespace AscendC
