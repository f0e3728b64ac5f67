// Reference implementations of the conversions in numeric.h, kept only to test the fast paths
// against: same signatures and contracts, computed the slow and obvious way.
#pragma once

#include "api/numeric.h"

namespace AscendC::numeric_exact {

float to_float(half h);
float to_float(bfloat16_t b);
half to_half(double v, RoundMode m);
bfloat16_t to_bf16(double v, RoundMode m);
float to_f32(double v, RoundMode m);
int32_t to_i32(double v, RoundMode m);
int16_t to_i16(double v, RoundMode m);
int8_t to_i8(double v, RoundMode m);
uint8_t to_u8(double v, RoundMode m);

}  // namespace AscendC::numeric_exact
