// The small part of AscendCL that a sample's host files reach in their CPU-debug build (its
// data_utils.h prints fp16 data through aclFloat16ToFloat and checks calls with aclError). The
// device runtime (aclrt*) is not here: under ascend-sim the CPU-debug path runs the kernel.
#pragma once

#include <cstdint>

#include "sim/api/numeric.h"

using aclError = int;
#define ACL_SUCCESS 0
#define ACL_ERROR_NONE 0
using aclFloat16 = uint16_t;

inline float aclFloat16ToFloat(aclFloat16 v) {
  return AscendC::to_float(AscendC::half::from_bits(v));
}
inline aclFloat16 aclFloatToFloat16(float v) {
  return AscendC::to_half(static_cast<double>(v), AscendC::RoundMode::CAST_RINT).bits;
}
